// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_timely.c - the TIMELY core's rules, one case each, at 100 Gb/s and
 * 1 us links (RTTs of a few us), plus random RTT sequences for bounds.
 */
#include "test_util.h"
#include "rxe_cc_timely.h"

static struct rxe_cc_timely_params p;

static int setup(void **state)
{
	(void)state;
	rxe_cc_timely_params_default(&p);
	p.line_rate_bps = 100 * GBPS;
	p.t_low_ns = 10 * NS_PER_US;
	p.t_high_ns = 50 * NS_PER_US;
	p.min_rtt_ns = 4 * NS_PER_US;
	return rxe_cc_timely_params_check(&p);
}

/* First sample only primes prev_rtt; the rate starts at line rate. */
static void test_init_and_prime(void **state)
{
	struct rxe_cc_timely st;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	assert_int_equal(rxe_cc_timely_rate_bps(&st), 100 * GBPS);
	assert_false(rxe_cc_timely_on_ack(&st, &p, 1000, 5000, 0));
	assert_int_equal(st.prev_rtt_ns, 5000);
}

/* rtt > T_high: R *= 1 - beta (1 - T_high / rtt). */
static void test_above_t_high(void **state)
{
	struct rxe_cc_timely st;
	u64 rtt = 100 * NS_PER_US;	/* T_high / rtt = 1/2 */
	long double want;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	rxe_cc_timely_on_ack(&st, &p, 1000, rtt, 0);
	assert_true(rxe_cc_timely_on_ack(&st, &p, 1000, rtt, 10000));
	want = 100e9L * (1 - 0.8L * 0.5L);
	assert_within_ppm(rxe_cc_timely_rate_bps(&st), want, 2000);
}

/* rtt < T_low: R += delta, capped at the line rate. */
static void test_below_t_low(void **state)
{
	struct rxe_cc_timely st;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	st.rate_bps = 50 * GBPS;
	rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 0);
	assert_true(rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 5000));
	assert_int_equal(st.rate_bps, 50 * GBPS + p.add_step_bps);
	st.rate_bps = 100 * GBPS - 1;
	rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 10000);
	assert_int_equal(st.rate_bps, 100 * GBPS);
}

/* At most one update per min_rtt: a completion event, not every ACK. */
static void test_one_update_per_min_rtt(void **state)
{
	struct rxe_cc_timely st;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	st.rate_bps = 50 * GBPS;
	rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 0);
	assert_true(rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 100));
	assert_false(rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 100 + 3999));
	assert_true(rxe_cc_timely_on_ack(&st, &p, 1000, 3000, 100 + 4000));
}

/* Rising RTT in the band: positive gradient, multiplicative cut. */
static void test_positive_gradient(void **state)
{
	struct rxe_cc_timely st;
	u64 r0;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	rxe_cc_timely_on_ack(&st, &p, 1000, 20000, 0);
	r0 = st.rate_bps;
	/* diff 2 us; EWMA 0.875 * 2 us = 1.75 us; gradient 1.75 / 4 */
	rxe_cc_timely_on_ack(&st, &p, 1000, 22000, 5000);
	assert_within_ppm(st.rate_bps, r0 * (1 - 0.8L * 1.75L / 4), 2000);
}

/* Flat RTT in the band: +delta, and +5 delta from the N-th update on. */
static void test_hai(void **state)
{
	struct rxe_cc_timely st;
	u64 now = 0, r;
	u32 i;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	st.rate_bps = 10 * GBPS;
	rxe_cc_timely_on_ack(&st, &p, 1000, 20000, now);
	for (i = 1; i < p.hai_thresh; i++) {
		r = st.rate_bps;
		now += p.min_rtt_ns;
		rxe_cc_timely_on_ack(&st, &p, 1000, 20000, now);
		assert_int_equal(st.rate_bps, r + p.add_step_bps);
	}
	r = st.rate_bps;
	now += p.min_rtt_ns;
	rxe_cc_timely_on_ack(&st, &p, 1000, 20000, now);
	assert_int_equal(st.rate_bps, r + 5 * p.add_step_bps);
}

/* Random RTTs (1 us .. 1 s) at 100 Gb/s: R stays in [min, line]. */
static void test_random_bounds(void **state)
{
	struct rxe_cc_timely st;
	u64 seed = 15, now = 0;
	u32 i;

	(void)state;
	rxe_cc_timely_init(&st, &p, 0);
	for (i = 0; i < 200000; i++) {
		u64 rtt = i % 7 ? prng_range(&seed, 1000, 200000) :
				  prng_range(&seed, 1000, NS_PER_SEC);

		now += prng_range(&seed, 1, 10000);
		rxe_cc_timely_on_ack(&st, &p, 1048, rtt, now);
		assert_true(st.rate_bps >= p.min_rate_bps);
		assert_true(st.rate_bps <= p.line_rate_bps);
	}
}

static void test_params_check(void **state)
{
	struct rxe_cc_timely_params q = p;

	(void)state;
	q.t_low_ns = q.t_high_ns + 1;
	assert_int_not_equal(rxe_cc_timely_params_check(&q), 0);
	q = p;
	q.beta = 0;
	assert_int_not_equal(rxe_cc_timely_params_check(&q), 0);
	q = p;
	q.line_rate_bps = 2000ULL * GBPS;
	assert_int_not_equal(rxe_cc_timely_params_check(&q), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init_and_prime, setup),
		cmocka_unit_test_setup(test_above_t_high, setup),
		cmocka_unit_test_setup(test_below_t_low, setup),
		cmocka_unit_test_setup(test_one_update_per_min_rtt, setup),
		cmocka_unit_test_setup(test_positive_gradient, setup),
		cmocka_unit_test_setup(test_hai, setup),
		cmocka_unit_test_setup(test_random_bounds, setup),
		cmocka_unit_test_setup(test_params_check, setup),
	};

	return cmocka_run_group_tests_name("rxe_cc_timely", tests, NULL, NULL);
}

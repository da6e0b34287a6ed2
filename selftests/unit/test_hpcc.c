// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_hpcc.c - the HPCC core's rules (Algorithm 1 of the paper), one
 * case each, with INT records of a 100 Gb/s hop and T = 10 us, plus
 * random records at 100 and 400 Gb/s for bounds.
 */
#include <string.h>

#include "test_util.h"
#include "hpcc.h"

#define T_NS		(10 * NS_PER_US)
#define BDP_BYTES	125000ULL	/* 100 Gb/s * 10 us */

static struct hpcc_params p;

static int setup(void **state)
{
	(void)state;
	hpcc_params_default(&p);
	p.line_rate_bps = 100 * GBPS;
	p.base_rtt_ns = T_NS;
	return hpcc_params_check(&p);
}

/* A hop that sent at @load_pct of 100 Gb/s for dt with queue q. */
static struct hpcc_int hop_after(const struct hpcc_int *o,
					u64 dt, u32 load_pct, u64 q)
{
	struct hpcc_int h = *o;

	h.ts_ns += dt;
	h.tx_bytes += 100 * GBPS / 8 * dt / NS_PER_SEC * load_pct / 100;
	h.qlen_bytes = q;
	return h;
}

static struct hpcc_int hop0 = {
	.ts_ns = 1000, .tx_bytes = 0, .qlen_bytes = 0, .rate_bps = 100 * GBPS,
};

static void test_init(void **state)
{
	struct hpcc st;

	(void)state;
	hpcc_init(&st, &p, 0);
	assert_int_equal(hpcc_window_bytes(&st), BDP_BYTES);
	assert_int_equal(hpcc_rate_bps(&st), 100 * GBPS);
}

/* The first INT only primes; W is unchanged. */
static void test_first_int_primes(void **state)
{
	struct hpcc st;

	(void)state;
	hpcc_init(&st, &p, 0);
	hpcc_on_send(&st, 10000);
	hpcc_on_ack(&st, &p, 1000, &hop0, 1, 0);
	assert_int_equal(st.w_bytes, BDP_BYTES);
	assert_int_equal(st.nhop, 1);
}

/* Link at 100 % for a whole T, empty queue: U = 1 >= eta, W = Wc eta + AI. */
static void test_full_link_cuts(void **state)
{
	struct hpcc st;
	struct hpcc_int h;

	(void)state;
	hpcc_init(&st, &p, 0);
	hpcc_on_send(&st, 10000);
	hpcc_on_ack(&st, &p, 1000, &hop0, 1, 0);
	h = hop_after(&hop0, T_NS, 100, 0);
	hpcc_on_ack(&st, &p, 1000, &h, 1, T_NS);
	assert_within_ppm(st.u, HPCC_U_ONE, 100);
	assert_within_abs(st.w_bytes, BDP_BYTES * 95 / 100 + p.w_ai_bytes, 2);
	/* the reference was renewed: W_c = W, next renewal after 10000 B */
	assert_int_equal(st.wc_bytes, st.w_bytes);
	assert_int_equal(st.last_update_seq, 10000);
}

/* A standing queue of one BDP doubles the normalised load. */
static void test_queue_term(void **state)
{
	struct hpcc st;
	struct hpcc_int o = hop0, h;

	(void)state;
	hpcc_init(&st, &p, 0);
	o.qlen_bytes = BDP_BYTES;
	hpcc_on_ack(&st, &p, 1000, &o, 1, 0);
	h = hop_after(&o, T_NS, 100, BDP_BYTES);
	hpcc_on_ack(&st, &p, 1000, &h, 1, T_NS);
	assert_within_ppm(st.u, 2 * HPCC_U_ONE, 100);
	assert_within_abs(st.w_bytes, BDP_BYTES * 95 / 200 + p.w_ai_bytes, 2);
}

/* Below eta: additive; after max_stage renewals, multiplicative. */
static void test_additive_then_multiplicative(void **state)
{
	struct hpcc st;
	struct hpcc_int h = hop0;
	u64 now = 0, w;
	u32 i;

	(void)state;
	hpcc_init(&st, &p, 0);
	st.w_bytes = st.wc_bytes = BDP_BYTES / 2;
	hpcc_on_ack(&st, &p, 1000, &h, 1, now);
	for (i = 0; i < p.max_stage; i++) {
		w = st.wc_bytes;
		hpcc_on_send(&st, 2000);
		h = hop_after(&h, T_NS, 50, 0);
		now += T_NS;
		hpcc_on_ack(&st, &p, 2000, &h, 1, now);
		assert_int_equal(st.w_bytes, w + p.w_ai_bytes);
		assert_int_equal(st.inc_stage, i + 1);
	}
	/* U = 0.5 now: W = Wc * 0.95 / 0.5 + AI */
	w = st.wc_bytes;
	hpcc_on_send(&st, 2000);
	h = hop_after(&h, T_NS, 50, 0);
	hpcc_on_ack(&st, &p, 2000, &h, 1, now + T_NS);
	assert_within_abs(st.w_bytes, w * 95 / 50 + p.w_ai_bytes, 4);
	assert_int_equal(st.inc_stage, 0);
}

/* The max over hops decides: a busy second hop outweighs an idle first. */
static void test_max_hop(void **state)
{
	struct hpcc st;
	struct hpcc_int o[2] = { hop0, hop0 }, h[2];

	(void)state;
	hpcc_init(&st, &p, 0);
	hpcc_on_ack(&st, &p, 1000, o, 2, 0);
	h[0] = hop_after(&o[0], T_NS, 10, 0);
	h[1] = hop_after(&o[1], T_NS, 100, 0);
	hpcc_on_ack(&st, &p, 1000, h, 2, T_NS);
	assert_within_ppm(st.u, HPCC_U_ONE, 100);
}

/* Random INT at 100/400 Gb/s: W in [w_min, BDP], rate <= line. */
static void test_random_bounds(void **state)
{
	struct hpcc st;
	struct hpcc_int h[3];
	u64 seed = 320, now = 0;
	u32 i, j;

	(void)state;
	hpcc_init(&st, &p, 0);
	memset(h, 0, sizeof(h));
	for (j = 0; j < 3; j++)
		h[j].rate_bps = j == 1 ? 400 * GBPS : 100 * GBPS;
	for (i = 0; i < 200000; i++) {
		u64 dt = prng_range(&seed, 1, 2 * T_NS);

		now += dt;
		for (j = 0; j < 3; j++) {
			h[j].ts_ns += dt;
			h[j].tx_bytes += prng_range(&seed, 0,
						    h[j].rate_bps / 8 * dt /
						    NS_PER_SEC);
			h[j].qlen_bytes = prng_range(&seed, 0, 32ULL << 20);
		}
		hpcc_on_send(&st, 1048);
		hpcc_on_ack(&st, &p, 1048, h, 1 + i % 3, now);
		assert_true(st.w_bytes >= p.w_min_bytes);
		assert_true(st.w_bytes <= BDP_BYTES);
		assert_true(hpcc_rate_bps(&st) <= 100 * GBPS);
	}
}

static void test_params_check(void **state)
{
	struct hpcc_params q = p;

	(void)state;
	q.base_rtt_ns = 0;
	assert_int_not_equal(hpcc_params_check(&q), 0);
	q = p;
	q.eta = HPCC_U_ONE + 1;
	assert_int_not_equal(hpcc_params_check(&q), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_init, setup),
		cmocka_unit_test_setup(test_first_int_primes, setup),
		cmocka_unit_test_setup(test_full_link_cuts, setup),
		cmocka_unit_test_setup(test_queue_term, setup),
		cmocka_unit_test_setup(test_additive_then_multiplicative, setup),
		cmocka_unit_test_setup(test_max_hop, setup),
		cmocka_unit_test_setup(test_random_bounds, setup),
		cmocka_unit_test_setup(test_params_check, setup),
	};

	return cmocka_run_group_tests_name("rxe_cc_hpcc", tests, NULL, NULL);
}

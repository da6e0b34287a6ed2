// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_pacer.c - token-bucket pacer: exact waits, credit kept for a late
 * caller (up to the burst), long-run accuracy at 1 % and 100 % of 100G,
 * 10G and 25M line rates, with and without a late timer; ready_bytes,
 * the answer without a clock read, exact at each change and never wrong
 * after it; a granted packet leaves no deeper debt than a paced one.
 */
#include "test_util.h"
#include "rxe_cc_pacer.h"

static void test_exact_wait(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	/* 1000 B at 8 Mb/s is exactly 1 ms. */
	rxe_cc_pacer_init(&p, 8 * MBPS, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 0);
	rxe_cc_pacer_consume(&p, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), NS_PER_MS);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 400 * NS_PER_US),
			 600 * NS_PER_US);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, NS_PER_MS), 0);
	/* A smaller packet needs proportionally less: 500 B = 0.5 ms. */
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 500, 0), 500 * NS_PER_US);
}

static void test_late_caller_keeps_credit(void **state)
{
	const u64 pkt_ns = 8 * NS_PER_US;	/* 1000 B at 1 Gb/s */
	struct rxe_cc_pacer p;
	u64 now;
	int i;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 10000, 0);
	for (i = 0; i < 10; i++) {
		assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 0);
		rxe_cc_pacer_consume(&p, 1000, 0);
	}
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), pkt_ns);
	/* The timer fires three packet times late: four packets may go. */
	now = pkt_ns + 3 * pkt_ns;
	for (i = 0; i < 4; i++) {
		assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), 0);
		rxe_cc_pacer_consume(&p, 1000, now);
	}
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), pkt_ns);
}

static void test_credit_capped_at_burst(void **state)
{
	struct rxe_cc_pacer p;
	int sent = 0;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 10000, 0);
	while (!rxe_cc_pacer_wait_ns(&p, 1000, NS_PER_SEC)) {
		rxe_cc_pacer_consume(&p, 1000, NS_PER_SEC);
		sent++;
	}
	assert_int_equal(sent, 10);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, NS_PER_SEC),
			 8 * NS_PER_US);
}

/*
 * A smaller bucket clips the credit already earned: after a long idle
 * spell at 1 Gb/s with a 10000-byte bucket, shrinking it to 3000 bytes lets
 * exactly 3000 bytes leave at once, and the next 1000 bytes wait 8 us.
 */
static void test_set_burst_clips_credit(void **state)
{
	struct rxe_cc_pacer p;
	const u64 rate = 1000ULL * 1000 * 1000;

	(void)state;
	rxe_cc_pacer_init(&p, rate, 10000, 0);
	rxe_cc_pacer_set_burst(&p, 3000, 1000000);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 3000, 1000000), 0);
	rxe_cc_pacer_consume(&p, 3000, 1000000);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 1000000), 8000);
	/* Growing it again does not create credit out of nothing. */
	rxe_cc_pacer_set_burst(&p, 10000, 1000000);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 1000000), 8000);
}

static void test_halt_and_resume(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 1000, 0);
	rxe_cc_pacer_consume(&p, 1000, 0);
	rxe_cc_pacer_set_rate(&p, 0, 2 * NS_PER_US);
	/* 2 us at 1 Gb/s earned 250 B before the halt; the halt drops it. */
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, NS_PER_SEC),
			 RXE_CC_NEVER_NS);
	rxe_cc_pacer_set_rate(&p, 2 * GBPS, NS_PER_SEC);
	/* The source restarts empty: 1000 B at 2 Gb/s, 4 us. */
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, NS_PER_SEC),
			 4 * NS_PER_US);
}

static void test_halt_is_absolute(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	/* A full bucket of two packets' credit... */
	rxe_cc_pacer_init(&p, GBPS, 2000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 0);
	/* ...buys nothing at rate 0, however long the halt. */
	rxe_cc_pacer_set_rate(&p, 0, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0),
			 RXE_CC_NEVER_NS);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1, NS_PER_SEC),
			 RXE_CC_NEVER_NS);
}

static void test_refund(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 1000, 0);
	rxe_cc_pacer_consume(&p, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 8 * NS_PER_US);
	/* The packet did not leave: its cost comes back... */
	rxe_cc_pacer_refund(&p, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 0);
	/* ...but never above the bucket depth. */
	rxe_cc_pacer_refund(&p, 5000, 0);
	rxe_cc_pacer_consume(&p, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 8 * NS_PER_US);
}

/*
 * A packet the caller may not hold any longer gets its credit at once,
 * and leaves no deeper debt than one sent on time: granted every 1 ms at
 * 1 Mb/s (a 1000 B packet earns its credit in 8 ms), each packet waits
 * 8 ms again, never more.  A halt stays absolute.
 */
static void test_grant(void **state)
{
	const u64 pkt_ns = 8 * NS_PER_MS;	/* 1000 B at 1 Mb/s */
	struct rxe_cc_pacer p;
	u64 now = 0;
	int i;

	(void)state;
	rxe_cc_pacer_init(&p, MBPS, 1000, 0);
	rxe_cc_pacer_consume(&p, 1000, 0);
	for (i = 0; i < 10; i++) {
		now += NS_PER_MS;
		assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now),
				 pkt_ns - NS_PER_MS);
		rxe_cc_pacer_grant(&p, 1000, now);
		assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), 0);
		assert_true(p.ready_bytes >= 1000);
		rxe_cc_pacer_consume(&p, 1000, now);
		assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), pkt_ns);
	}
	/* credit already there (the full bucket) is not taken away */
	now += 2 * pkt_ns;
	rxe_cc_pacer_grant(&p, 500, now);
	rxe_cc_pacer_consume(&p, 500, now);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 500, now), 0);
	/* larger than the burst: the usual debt of such a packet */
	rxe_cc_pacer_consume(&p, 500, now);
	rxe_cc_pacer_grant(&p, 3000, now);
	rxe_cc_pacer_consume(&p, 3000, now);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), 3 * pkt_ns);
	rxe_cc_pacer_set_rate(&p, 0, now);
	rxe_cc_pacer_grant(&p, 1000, now);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, now), RXE_CC_NEVER_NS);
}

static void test_packet_larger_than_burst(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 1000, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 9000, 0), 0);
	rxe_cc_pacer_consume(&p, 9000, 0);
	/* 8000 B of debt plus 1000 B of need: 9000 B at 1 Gb/s = 72 us. */
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 9000, 0), 72 * NS_PER_US);
}

static void test_clock_going_backwards(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 1000, 10 * NS_PER_US);
	rxe_cc_pacer_consume(&p, 1000, 10 * NS_PER_US);
	/* An earlier timestamp earns nothing and does not wrap. */
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 0), 8 * NS_PER_US);
	rxe_cc_pacer_consume(&p, 0, 0);
	assert_int_equal(rxe_cc_pacer_wait_ns(&p, 1000, 18 * NS_PER_US), 0);
}

/*
 * A requester that always has a packet: it sends while the pacer allows,
 * then sleeps for the wait plus a random timer lateness in [0, late_max].
 * Returns the rate over @npkts packets after the initial burst.
 */
static long double paced_rate(u64 rate_bps, u32 pkt, u32 burst,
			      u64 late_max_ns, u32 npkts, u64 seed)
{
	struct rxe_cc_pacer p;
	u64 now = 0, t0 = 0;
	u32 sent = 0;
	bool paced = false;

	rxe_cc_pacer_init(&p, rate_bps, burst, now);
	while (sent < npkts) {
		u64 w = rxe_cc_pacer_wait_ns(&p, pkt, now);

		if (w) {
			now += w + (late_max_ns ?
				    prng_range(&seed, 0, late_max_ns) : 0);
			if (!paced) {
				/* The initial burst is over: start measuring. */
				paced = true;
				t0 = now;
			}
			continue;
		}
		rxe_cc_pacer_consume(&p, pkt, now);
		if (paced)
			sent++;
	}
	/* npkts packets left in [t0, now]; the first at t0 needed no wait. */
	return (long double)(npkts - 1) * pkt * 8 * NS_PER_SEC / (now - t0);
}

/*
 * At 100 % and 1 % of @line_bps, with an exact timer and with one that
 * fires up to 5 us late (less than the 64 KiB burst even at 100 Gb/s).
 */
static void check_accuracy(u64 line_bps, u32 pkt)
{
	/* Long-run error budget: 2 % (we expect far less). */
	const u32 tol_ppm = 20000;
	const u64 rates[] = { line_bps, line_bps / 100 };
	const u64 late_max_ns[] = { 0, 5 * NS_PER_US };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		for (j = 0; j < ARRAY_SIZE(late_max_ns); j++) {
			long double r = paced_rate(rates[i], pkt, 64 * 1024,
						   late_max_ns[j], 20000,
						   42 + i + j);

			print_message("# line %llu b/s rate %llu b/s late <= "
				      "%llu ns: %.1Lf b/s (%+.4Lf %%)\n",
				      (unsigned long long)line_bps,
				      (unsigned long long)rates[i],
				      (unsigned long long)late_max_ns[j], r,
				      (r / rates[i] - 1) * 100);
			assert_within_ppm(r, rates[i], tol_ppm);
		}
	}
}

static void test_accuracy_100g(void **state)
{
	(void)state;
	check_accuracy(100 * GBPS, 4096 + 58);
}

static void test_accuracy_10g(void **state)
{
	(void)state;
	check_accuracy(10 * GBPS, 1024 + 58);
}

static void test_accuracy_25m(void **state)
{
	(void)state;
	check_accuracy(25 * MBPS, 1500);
}

static void test_ready_bytes(void **state)
{
	struct rxe_cc_pacer p;

	(void)state;
	/* A new QP holds a full bucket: a burst may go without asking. */
	rxe_cc_pacer_init(&p, 8 * MBPS, 3000, 0);
	assert_int_equal(p.ready_bytes, 3000);
	rxe_cc_pacer_consume(&p, 1000, 0);
	assert_int_equal(p.ready_bytes, 2000);
	/* 0.5 ms at 8 Mb/s earned 500 B: counted at the next change only. */
	rxe_cc_pacer_consume(&p, 1000, 500 * NS_PER_US);
	assert_int_equal(p.ready_bytes, 1500);
	/* A debt, and a halt, leave nothing to send without asking. */
	rxe_cc_pacer_consume(&p, 3000, 500 * NS_PER_US);
	assert_int_equal(p.ready_bytes, 0);
	rxe_cc_pacer_refund(&p, 3000, 500 * NS_PER_US);
	assert_int_equal(p.ready_bytes, 1500);
	rxe_cc_pacer_set_rate(&p, 0, 500 * NS_PER_US);
	assert_int_equal(p.ready_bytes, 0);
	rxe_cc_pacer_set_rate(&p, 8 * MBPS, NS_PER_SEC);
	assert_int_equal(p.ready_bytes, 0);
	/* A shallower bucket clips it. */
	rxe_cc_pacer_set_burst(&p, 1000, 2 * NS_PER_SEC);
	assert_int_equal(p.ready_bytes, 1000);
}

/*
 * Random changes at random times: after each, a packet of up to
 * ready_bytes may leave at once and at any later time, and one byte more
 * (within the burst) must wait: the bound is exact when it is set.
 */
static void test_ready_bytes_random(void **state)
{
	static const u64 rates[] = { 0, 25 * MBPS, GBPS, 100 * GBPS };
	u64 seed = 42, now = 0;
	struct rxe_cc_pacer p;
	int i;

	(void)state;
	rxe_cc_pacer_init(&p, GBPS, 4000, 0);
	for (i = 0; i < 200000; i++) {
		u32 r, bytes;

		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		r = (u32)(seed >> 33);
		now += r % 20000;
		bytes = 1 + (r >> 8) % 6000;
		switch (r % 8) {
		case 0:
			rxe_cc_pacer_set_rate(&p, rates[(r >> 4) % 4], now);
			break;
		case 1:
			rxe_cc_pacer_set_burst(&p, 1 + (r >> 4) % 9000, now);
			break;
		case 2:
			rxe_cc_pacer_refund(&p, bytes, now);
			break;
		default:
			rxe_cc_pacer_consume(&p, bytes, now);
			break;
		}
		assert_true(p.ready_bytes <= p.burst_bytes);
		if (p.ready_bytes) {
			assert_int_equal(rxe_cc_pacer_wait_ns(&p, p.ready_bytes,
							      now), 0);
			assert_int_equal(rxe_cc_pacer_wait_ns(&p, p.ready_bytes,
							      now + r % 1000000),
					 0);
		}
		if (p.ready_bytes < p.burst_bytes)
			assert_true(rxe_cc_pacer_wait_ns(&p, p.ready_bytes + 1,
							 now) > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_wait),
		cmocka_unit_test(test_late_caller_keeps_credit),
		cmocka_unit_test(test_credit_capped_at_burst),
		cmocka_unit_test(test_set_burst_clips_credit),
		cmocka_unit_test(test_halt_and_resume),
		cmocka_unit_test(test_halt_is_absolute),
		cmocka_unit_test(test_refund),
		cmocka_unit_test(test_grant),
		cmocka_unit_test(test_packet_larger_than_burst),
		cmocka_unit_test(test_clock_going_backwards),
		cmocka_unit_test(test_ready_bytes),
		cmocka_unit_test(test_ready_bytes_random),
		cmocka_unit_test(test_accuracy_100g),
		cmocka_unit_test(test_accuracy_10g),
		cmocka_unit_test(test_accuracy_25m),
	};

	return cmocka_run_group_tests_name("rxe_cc_pacer", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_echo.c - coalesced ACKs that count marks (rxe_cc_echo.c) and the
 * ACC core fed by them: when the receiver ACKs, the 2-bit counters'
 * decoding across the wrap and across lost ACKs, and a classifier that
 * counts packets while r stays bytes over time.  ACC runs through its
 * ops table in the generic host (sim/src/cc_host.c).
 */
#include "test_util.h"
#include "rxe_cc_echo.h"
#include "rxe_cc_acc.h"

#define EVERY		8
#define PKT		1000U
#define LINE_BPS	(10 * GBPS)
#define PERIOD_NS	(50 * NS_PER_US)	/* acc_period_us's default */

/* The receiver takes @mark; if it wants an ACK, the ACK leaves. */
static bool rcv(struct rxe_cc_echo *e, enum rxe_cc_mark mark)
{
	bool due = rxe_cc_echo_rcv(e, mark, EVERY, 0, 0);

	if (due)
		rxe_cc_echo_sent(e, 0);
	return due;
}

static void test_clean_path_coalesces(void **state)
{
	struct rxe_cc_echo e;
	int i, acks = 0;

	(void)state;
	rxe_cc_echo_init(&e);
	for (i = 1; i <= 10 * EVERY; i++) {
		bool due = rcv(&e, RXE_CC_MARK_NO);

		acks += due;
		assert_int_equal(due, i % EVERY == 0);
	}
	assert_int_equal(acks, 10);
	assert_true(e.asked);
	/* every = 1: an ACK per packet */
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, 1, 0, 0));
	/* a knob out of range is clamped: 0 reads as 1 */
	rxe_cc_echo_sent(&e, 0);
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, 0, 0, 0));
}

/*
 * A clean path ACKs by time: once per gap (T / 4), and at the latest on
 * the 64th packet; a slow one gets an ACK per gap all the same, and
 * marks are not held back by the gap.
 */
static void test_fast_clean_path_acks_by_time(void **state)
{
	const u64 period_ns = 8000000;	/* T = 8 ms: ACKs 2 ms apart */
	const u64 gap_ns = period_ns / RXE_CC_ECHO_ACKS_PER_PERIOD;
	struct rxe_cc_echo e;
	u64 now_ns = 5 * gap_ns;
	int i, acks = 0;

	(void)state;
	rxe_cc_echo_init(&e);
	/* 32 packets per gap: one ACK per gap, on the packet that ends it */
	for (i = 1; i <= 32 * 10; i++) {
		bool due;

		now_ns += gap_ns / 32;
		due = rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY, now_ns,
				      period_ns);
		if (due) {
			assert_true(now_ns - e.last_ack_ns >= gap_ns);
			rxe_cc_echo_sent(&e, now_ns);
			acks++;
		}
	}
	assert_in_range(acks, 9, 10);
	/* 100 packets per gap: the 64th packet is ACKed all the same */
	rxe_cc_echo_sent(&e, now_ns);
	for (i = 1; i < RXE_CC_ECHO_MAX_EVERY; i++)
		assert_false(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY,
					     now_ns + i * gap_ns / 100,
					     period_ns));
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY,
				    now_ns + i * gap_ns / 100, period_ns));
	now_ns += gap_ns;
	rxe_cc_echo_sent(&e, now_ns);
	/* a mark is ACKed at once, and the per-packet clock after it */
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_CE, EVERY, now_ns + 1,
				    period_ns));
	rxe_cc_echo_sent(&e, now_ns + 1);
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY, now_ns + 2,
				    period_ns));
	rxe_cc_echo_sent(&e, now_ns + 2);
	/* every = 1 is an ACK per packet, gap or not */
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, 1, now_ns + 3,
				    period_ns));
	/*
	 * A slow path (4 packets per gap, 16 a period: 8 flows sharing the
	 * link): still an ACK per gap, 4 a period, not one per 8 packets.
	 */
	rxe_cc_echo_init(&e);
	rxe_cc_echo_sent(&e, now_ns);
	for (i = 1; i <= 8 * EVERY; i++) {
		now_ns += gap_ns / 4;
		if (rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY, now_ns,
				    period_ns)) {
			assert_int_equal(i % 4, 0);
			rxe_cc_echo_sent(&e, now_ns);
		} else {
			assert_int_not_equal(i % 4, 0);
		}
	}
	/* slower than one packet a gap: an ACK per packet */
	for (i = 1; i <= 8; i++) {
		now_ns += gap_ns + 1;
		assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_NO, EVERY, now_ns,
					    period_ns));
		rxe_cc_echo_sent(&e, now_ns);
	}
}

/* While marks are present the ACK clock is per packet, then it relaxes. */
static void test_marks_ack_per_packet(void **state)
{
	struct rxe_cc_echo e;
	int i;

	(void)state;
	rxe_cc_echo_init(&e);
	for (i = 0; i < 3; i++)
		assert_false(rcv(&e, RXE_CC_MARK_NO));
	assert_true(rcv(&e, RXE_CC_MARK_CE));
	assert_int_equal(e.ce_pkts, 1);
	for (i = 0; i < EVERY; i++)
		assert_true(rcv(&e, RXE_CC_MARK_NO));
	for (i = 1; i < EVERY; i++)
		assert_false(rcv(&e, RXE_CC_MARK_NO));
	assert_true(rcv(&e, RXE_CC_MARK_NO));
	/* a UE mark re-arms the per-packet clock too */
	assert_true(rcv(&e, RXE_CC_MARK_UE));
	assert_int_equal(e.ue_pkts, 1);
	assert_true(rcv(&e, RXE_CC_MARK_NO));
}

/*
 * An ACK that could not be built (no skb): the receiver asks again for
 * every packet, and a 3rd unechoed mark always wants its ACK.
 */
static void test_no_fourth_mark_unechoed(void **state)
{
	struct rxe_cc_echo e;

	(void)state;
	rxe_cc_echo_init(&e);
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_CE, 64, 0, 0));
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_UE, 64, 0, 0));
	assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_CE, 64, 0, 0));
	assert_int_equal(e.unechoed, RXE_CC_ECHO_MAX_UNECHOED);
	rxe_cc_echo_sent(&e, 0);
	assert_int_equal(e.unechoed, 0);
	assert_int_equal(e.unacked, 0);
}

/* The counters wrap at 4, on the receiver as on the wire. */
static void test_decode_wraps(void **state)
{
	struct rxe_cc_echo_seen seen = { 0 };
	struct rxe_cc_echo e;
	u32 ce, ue, total_ce = 0, total_ue = 0;
	int i;

	(void)state;
	rxe_cc_echo_init(&e);
	for (i = 0; i < 1000; i++) {
		enum rxe_cc_mark m = i % 3 == 0 ? RXE_CC_MARK_CE :
				     i % 3 == 1 ? RXE_CC_MARK_UE :
						  RXE_CC_MARK_NO;

		rxe_cc_echo_rcv(&e, m, EVERY, 0, 0);
		rxe_cc_echo_decode(&seen, e.ce_pkts, e.ue_pkts, &ce, &ue);
		rxe_cc_echo_sent(&e, 0);
		assert_int_equal(ce, m == RXE_CC_MARK_CE);
		assert_int_equal(ue, m == RXE_CC_MARK_UE);
		total_ce += ce;
		total_ue += ue;
	}
	assert_int_equal(total_ce, 334);
	assert_int_equal(total_ue, 333);
	/* by hand: 3 -> 1 is two more, mod 4 */
	seen = (struct rxe_cc_echo_seen) { .ce = 3, .ue = 0 };
	rxe_cc_echo_decode(&seen, 1, 3, &ce, &ue);
	assert_int_equal(ce, 2);
	assert_int_equal(ue, 3);
	assert_int_equal(seen.ce, 1);
}

/*
 * ACKs lost at random between receiver and sender: the next ACK that
 * arrives reports the lost ones' marks too.  Exact while at most 3 marks
 * of a kind separate two ACKs that arrive; beyond, short by a multiple
 * of 4 (the documented limit).
 */
static void test_lost_acks_lose_no_marks(void **state)
{
	struct rxe_cc_echo_seen seen = { 0 };
	struct rxe_cc_echo e;
	u64 rng = 12;
	u32 sent_ce = 0, got_ce = 0, gap_ce = 0, ce, ue;
	bool beyond = false;
	int i, lost = 0;

	(void)state;
	rxe_cc_echo_init(&e);
	for (i = 0; i < 20000; i++) {
		bool mark = prng_range(&rng, 0, 99) < 30;

		if (!rcv(&e, mark ? RXE_CC_MARK_CE : RXE_CC_MARK_NO)) {
			sent_ce += mark;
			gap_ce += mark;
			continue;
		}
		sent_ce += mark;
		gap_ce += mark;
		if (prng_range(&rng, 0, 99) < 20) {	/* this ACK is lost */
			lost++;
			continue;
		}
		beyond |= gap_ce > RXE_CC_ECHO_MAX_UNECHOED;
		rxe_cc_echo_decode(&seen, e.ce_pkts, e.ue_pkts, &ce, &ue);
		got_ce += ce;
		gap_ce = 0;
		if (!beyond)
			assert_int_equal(got_ce, sent_ce);
	}
	assert_true(lost > 1000);
	assert_int_equal((sent_ce - gap_ce - got_ce) % 4, 0);
}

/* An ACC flow on a 10 Gb/s port, tau 10 us, run through its ops table. */
static void host_10g(struct cc_host *h)
{
	assert_int_equal(cc_host_init(h, &rxe_cc_acc_ops, LINE_BPS, 0, PKT), 0);
	knob(h, "acc_base_rtt_us", 10);
}

static struct rxe_cc_acc *acc_st(struct cc_host *h)
{
	return (struct rxe_cc_acc *)h->priv;
}

/* The class of the period the hook that returned @ev closed, -1: none. */
static int closed_kind(const struct cc_host *h, u32 ev)
{
	return ev & RXE_CC_EV_PERIOD ? (int)h->s.report.period.kind : -1;
}

/* @n ACKs of @k packets each, @gap_ns apart, @ce_per_ack of them CE. */
static void acks_of(struct cc_host *h, u32 n, u32 k, u32 ce_per_ack,
		    u64 gap_ns, u64 *now)
{
	struct rxe_cc_ack ack = {
		.bytes = k * PKT, .pkts = k, .ce_pkts = ce_per_ack,
	};

	while (n--) {
		*now += gap_ns;
		cc_host_ack(h, &ack, *now);
	}
}

/*
 * The known halt of test_acc.c (30 CE packets of 1000 B every 1.6 us,
 * tau 10 us, W 56250 B: r = 5 Gb/s, t_halt = 80 us), once with an ACK
 * per packet and once with an ACK per 3 packets: the same r and halt
 * (r is bytes over the ACKs' span, whatever the ACKs' size).
 */
static void test_coalesced_halt_is_the_same(void **state)
{
	struct cc_host h[2];
	u32 k[2] = { 1, 3 };
	int i;

	(void)state;
	for (i = 0; i < 2; i++) {
		struct rxe_cc_acc *st = acc_st(&h[i]);
		u64 now = 0;
		u32 ev;

		host_10g(&h[i]);
		cc_host_start(&h[i], 0);
		cc_host_send(&h[i], 86250, 0);
		acks_of(&h[i], 30 / k[i], k[i], k[i], 1600 * k[i], &now);
		assert_int_equal(st->inflight_bytes, 56250);
		assert_int_equal(h[i].s.inflight_bytes, 56250);
		assert_int_equal(st->cur.n_pkt, 30);
		assert_int_equal(st->cur.n_ack, 30 / k[i]);
		ev = cc_host_timer(&h[i], PERIOD_NS);
		assert_int_equal(closed_kind(&h[i], ev),
				 RXE_CC_PERIOD_CONGESTED);
		assert_int_equal(h[i].s.report.period.n_pkt, 30);
		assert_int_equal(st->last_halt.ack_rate_bps, 5 * GBPS);
		assert_int_equal(st->last_halt.t_halt_ns, 80 * NS_PER_US);
	}
}

/* The CE share is a share of packets, not of ACKs. */
static void test_classifier_counts_packets(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now;
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_halt", 0);

	/* 2 ACKs of 10 packets, 9 CE each: 90 % of the packets */
	cc_host_start(&h, 0);
	now = 0;
	cc_host_send(&h, 40 * PKT, 0);
	acks_of(&h, 2, 10, 9, 8000, &now);
	ev = cc_host_timer(&h, PERIOD_NS);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);

	/* an ACK of 10 packets, 8 CE, and one clean: 40 %, not 50 % */
	cc_host_start(&h, 0);
	now = 0;
	cc_host_send(&h, 40 * PKT, 0);
	acks_of(&h, 1, 10, 8, 8000, &now);
	acks_of(&h, 1, 10, 0, 8000, &now);
	assert_int_equal(st->cur.n_ce, 8);
	assert_int_equal(st->cur.n_pkt, 20);
	ev = cc_host_timer(&h, PERIOD_NS);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);

	/* the one-packet form is one packet with its mark */
	cc_host_start(&h, 0);
	host_ack1(&h, PKT, RXE_CC_MARK_UE, 0, 10);
	assert_int_equal(st->cur.n_pkt, 1);
	assert_int_equal(st->cur.n_ue, 1);
	assert_int_equal(st->cur.n_ce, 0);
}

/* Marks with no ACK sent between them: the count saturates, never wraps. */
static void test_unechoed_saturates(void **state)
{
	struct rxe_cc_echo e;
	int i;

	(void)state;
	rxe_cc_echo_init(&e);
	for (i = 0; i < 300; i++)
		assert_true(rxe_cc_echo_rcv(&e, RXE_CC_MARK_CE, EVERY, i, 0));
	assert_int_equal(e.unechoed, RXE_CC_ECHO_MAX_UNECHOED);
	assert_int_equal(e.ce_pkts, 300 & RXE_CC_ECHO_COUNT_MASK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_path_coalesces),
		cmocka_unit_test(test_fast_clean_path_acks_by_time),
		cmocka_unit_test(test_marks_ack_per_packet),
		cmocka_unit_test(test_no_fourth_mark_unechoed),
		cmocka_unit_test(test_decode_wraps),
		cmocka_unit_test(test_lost_acks_lose_no_marks),
		cmocka_unit_test(test_coalesced_halt_is_the_same),
		cmocka_unit_test(test_classifier_counts_packets),
		cmocka_unit_test(test_unechoed_saturates),
	};

	return cmocka_run_group_tests_name("rxe_cc_echo", tests, NULL, NULL);
}

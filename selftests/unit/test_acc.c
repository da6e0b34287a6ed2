// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_acc.c - ACC sender core against hand-computed values: halt time
 * from a known excess, the ACK-rate estimate under jitter and compression,
 * R refined by the halt's ACKs, victim halving,
 * the increase formula, the halt cap, rate bounds under random events,
 * integer-vs-long-double sweeps for overflow, ECN-only operation and the
 * possibly-congested hold.
 *
 * The flows run through ACC's ops table (rxe_cc_acc_ops) in the generic
 * host (sim/src/cc_host.c), as the module runs them: knobs set by their
 * sysfs names, W counted by the host, events as the hooks report them.
 * The core's state (h.priv) is read, and at times set, to check it.
 */
#include "test_util.h"
#include "rxe_cc_acc.h"

#define LINE_BPS	(10 * GBPS)
#define PERIOD_NS	(50 * NS_PER_US)
#define PKT		1000U

/* ns to whole us, rounded up: the knobs count us. */
#define US_UP(ns)	(((ns) + NS_PER_US - 1) / NS_PER_US)

static void params_10g(struct rxe_cc_acc_params *p)
{
	rxe_cc_acc_params_default(p);
	p->line_rate_bps = LINE_BPS;
}

/* A flow on a 10 Gb/s port, default knobs, packets of @frame; not started. */
static void host_init(struct cc_host *h, u64 line_bps, u32 frame)
{
	assert_int_equal(cc_host_init(h, &rxe_cc_acc_ops, line_bps, 0, frame),
			 0);
}

static void host_10g(struct cc_host *h)
{
	host_init(h, LINE_BPS, PKT);
}

/* The core's state of the flow. */
static struct rxe_cc_acc *acc_st(struct cc_host *h)
{
	return (struct rxe_cc_acc *)h->priv;
}

/* Its knobs as the flow derived them before its last hook. */
static const struct rxe_cc_acc_params *acc_p(const struct cc_host *h)
{
	return (const struct rxe_cc_acc_params *)h->params;
}

/* R's floor, as the core clamps it: min(min rate, C). */
static u64 acc_floor_bps(const struct rxe_cc_acc_params *p)
{
	return min(p->min_rate_bps, rxe_cc_acc_max_rate_bps(p));
}

/* The class of the period the hook that returned @ev closed, -1: none. */
static int closed_kind(const struct cc_host *h, u32 ev)
{
	return ev & RXE_CC_EV_PERIOD ? (int)h->s.report.period.kind : -1;
}

/*
 * The in-flight cap: none by default; one BDP at R = C, scaled by R / C,
 * never below the flow's packet; bounded by the check.
 */
static void test_window_scales_with_rate(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	struct rxe_cc_acc_params p;

	(void)state;
	host_init(&h, LINE_BPS, 1024);
	cc_host_start(&h, 0);
	assert_int_equal(cc_host_window_bytes(&h), ~0ULL);
	knob(&h, "acc_window_bytes", 12500);	/* 10 Gb/s x 10 us */
	assert_int_equal(cc_host_window_bytes(&h), 12500);
	st->rate_bps = LINE_BPS / 4;
	assert_int_equal(cc_host_window_bytes(&h), 3125);
	st->rate_bps = LINE_BPS / 100;
	assert_int_equal(cc_host_window_bytes(&h), 1024);
	/* scaled by the cap C when one is set */
	knob(&h, "acc_max_rate_mbps", LINE_BPS / 2 / MBPS);
	st->rate_bps = LINE_BPS / 4;
	assert_int_equal(cc_host_window_bytes(&h), 6250);
	assert_int_equal(cc_host_set(&h, "acc_window_bytes",
				     RXE_CC_ACC_MAX_WINDOW_BYTES + 1),
			 -22);	/* -EINVAL */
	assert_int_equal(cc_host_window_bytes(&h), 6250);
	/* the same bound in the check itself */
	params_10g(&p);
	p.window_bytes = RXE_CC_ACC_MAX_WINDOW_BYTES + 1;
	assert_int_equal(rxe_cc_acc_params_check(&p), -22);	/* -EINVAL */
}

/* @n ACKs of @bytes each, @gap_ns apart, starting @gap_ns after *now. */
static u32 acks(struct cc_host *h, u32 n, u32 bytes, u64 gap_ns,
		enum rxe_cc_mark mark, u64 *now)
{
	u32 ev = 0;

	while (n--) {
		*now += gap_ns;
		ev |= host_ack1(h, bytes, mark, 0, *now);
	}
	return ev;
}

/*
 * One full period, closed by the period timer: @n ACKs evenly spaced, the
 * first @n_mark of them with @mark, the others unmarked.  Returns the
 * timer's events.
 */
static u32 period_mixed(struct cc_host *h, u32 n, u32 n_mark,
			enum rxe_cc_mark mark)
{
	struct rxe_cc_acc *st = acc_st(h);
	u64 now = st->cur.start_ns, gap = acc_p(h)->period_ns / (n + 1);

	cc_host_send(h, n * PKT, now);
	acks(h, n_mark, PKT, gap, mark, &now);
	acks(h, n - n_mark, PKT, gap, RXE_CC_MARK_NO, &now);
	return cc_host_timer(h, st->cur.end_ns);
}

static u32 period_of(struct cc_host *h, u32 n, enum rxe_cc_mark mark)
{
	return period_mixed(h, n, n, mark);
}

/*
 * One period whose unmarked ACKs come at the rate R the flow sends at (a
 * bottleneck with room to spare): at least ACC's 8-ACK gate minimum.
 */
static u32 period_sent(struct cc_host *h, bool glue_w)
{
	struct rxe_cc_acc *st = acc_st(h);
	const u64 period_ns = acc_p(h)->period_ns;
	u64 n = st->rate_bps * period_ns / (8 * NS_PER_SEC * PKT) + 1;
	u64 now = st->cur.start_ns, gap;

	n = n < 8 ? 8 : n;
	gap = period_ns / n;
	/*
	 * The framework's ring holds W: it may grow with no xmit hook run
	 * (glue_w), and the next hook passes it on; the growth is sent.
	 */
	if (glue_w)
		h->s.inflight_bytes += n * PKT;
	else
		cc_host_send(h, n * PKT, now);
	acks(h, n - 1, PKT, gap, RXE_CC_MARK_NO, &now);
	host_ack1(h, PKT, RXE_CC_MARK_NO, 0, st->cur.end_ns - 1);
	return cc_host_timer(h, st->cur.end_ns);
}

static u32 period_at_rate(struct cc_host *h)
{
	return period_sent(h, false);
}

static void test_defaults_and_check(void **state)
{
	struct rxe_cc_acc_params p;

	(void)state;
	rxe_cc_acc_params_default(&p);
	assert_int_equal(rxe_cc_acc_params_check(&p), 0);
	assert_int_equal(p.period_ns, 50 * NS_PER_US);
	assert_int_equal(p.halt_max_ns, 8 * p.period_ns);
	assert_int_equal(p.theta_ce_permille, 900);
	assert_int_equal(p.p_thresh, 3);
	assert_int_equal(p.beta0_ppm, RXE_CC_ACC_BETA_ONE / 16);
	assert_int_equal(p.base_rtt_ns, 0);
	assert_int_equal(p.halt, 1);

#define BAD(stmt) do { params_10g(&p); stmt; \
	assert_int_equal(rxe_cc_acc_params_check(&p), -22); } while (0)
#define GOOD(stmt) do { params_10g(&p); stmt; \
	assert_int_equal(rxe_cc_acc_params_check(&p), 0); } while (0)
	BAD(p.period_ns = RXE_CC_ACC_MIN_PERIOD_NS - 1);
	GOOD(p.period_ns = RXE_CC_ACC_MIN_PERIOD_NS;
	     p.halt_max_ns = p.period_ns);
	BAD(p.halt = 2);
	GOOD(p.halt = 0);
	GOOD(p.gate = RXE_CC_ACC_GATE_AIMD);
	GOOD(p.gate = RXE_CC_ACC_GATE_ALPHA);
	BAD(p.gate = RXE_CC_ACC_GATE_ALPHA + 1);
	BAD(p.period_ns = RXE_CC_ACC_MAX_PERIOD_NS + 1);
	BAD(p.halt_max_ns = p.period_ns - 1);
	BAD(p.halt_max_ns = NS_PER_SEC + 1);
	BAD(p.theta_ce_permille = 0);
	BAD(p.theta_ce_permille = 1001);
	BAD(p.p_thresh = 0);
	BAD(p.beta0_ppm = 0);
	BAD(p.beta0_ppm = RXE_CC_ACC_BETA_ONE / 2 + 1);
	BAD(p.line_rate_bps = 0);
	BAD(p.line_rate_bps = RXE_CC_ACC_MAX_RATE_BPS + 1);
	BAD(p.min_rate_bps = 999);
	BAD(p.min_rate_bps = LINE_BPS + 1);
	BAD(p.max_rate_bps = LINE_BPS + 1);
	BAD(p.max_rate_bps = p.min_rate_bps - 1);
	BAD(p.start_rate_bps = p.min_rate_bps - 1);
	BAD(p.max_rate_bps = GBPS; p.start_rate_bps = 2 * GBPS);
	BAD(p.base_rtt_ns = NS_PER_SEC + 1);
	GOOD(p.beta0_ppm = RXE_CC_ACC_BETA_ONE / 2);
	GOOD(p.theta_ce_permille = 1000);
	GOOD(p.max_rate_bps = GBPS; p.start_rate_bps = GBPS);
	GOOD(p.base_rtt_ns = 10 * NS_PER_US);
#undef BAD
#undef GOOD
}

static void test_starts_at_line_rate_acks_every_packet(void **state)
{
	struct cc_host h;

	(void)state;
	host_10g(&h);
	assert_int_equal(cc_host_start(&h, 0), LINE_BPS);
	assert_int_equal(cc_host_rate_bps(&h, 0), LINE_BPS);
	/* r needs the ACK clock: an ACK per packet, marks echoed */
	assert_int_equal(rxe_cc_acc_ops.ack_req_every, 1);
	assert_true(rxe_cc_acc_ops.echo_marks);
	assert_int_equal(cc_host_next_timer_ns(&h), PERIOD_NS);
	knob(&h, "acc_start_rate_mbps", GBPS / MBPS);
	assert_int_equal(cc_host_start(&h, 0), GBPS);
	assert_int_equal(cc_host_rate_bps(&h, 0), GBPS);
}

/*
 * 30 CE ACKs of 1000 B every 1.6 us: r = 5 Gb/s.  tau = 10 us: pipe =
 * 6250 B.  W = 56250 B at the period end: excess 50000 B, t_halt = 80 us.
 * *ev: the period timer's events.
 */
static void setup_known_halt(struct cc_host *h, u32 *ev, u64 *now)
{
	host_10g(h);
	knob(h, "acc_base_rtt_us", 10);
	cc_host_start(h, 0);
	*now = 0;
	cc_host_send(h, 86250, 0);
	acks(h, 30, PKT, 1600, RXE_CC_MARK_CE, now);
	assert_int_equal(acc_st(h)->inflight_bytes, 56250);
	assert_int_equal(h->s.inflight_bytes, 56250);
	*now = PERIOD_NS;
	*ev = cc_host_timer(h, *now);
}

/* The known halt, ended by its timer under @gate: R = r, a fresh period. */
static void resume_known_halt(struct cc_host *h, u32 *ev, u32 gate)
{
	u64 now;

	setup_known_halt(h, ev, &now);
	knob(h, "acc_gate", gate);
	*ev = cc_host_timer(h, acc_st(h)->halt_until_ns);
}

static void test_halt_time_from_known_excess(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now;
	u32 ev;

	(void)state;
	setup_known_halt(&h, &ev, &now);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	assert_true(ev & RXE_CC_EV_HALT);
	assert_true(st->rate_bps != LINE_BPS);	/* R moved, to r */
	assert_int_equal(st->last_halt.ack_rate_bps, 5 * GBPS);
	assert_int_equal(st->last_halt.tau_ns, 10 * NS_PER_US);
	assert_int_equal(st->last_halt.excess_bytes, 50000);
	assert_int_equal(st->last_halt.t_halt_ns, 80 * NS_PER_US);
	/* the hook reports the halt as the core keeps it */
	assert_memory_equal(&h.s.report.halt, &st->last_halt,
			    sizeof(st->last_halt));
	assert_true(st->halted);
	assert_int_equal(cc_host_rate_bps(&h, now), 0);
	assert_int_equal(cc_host_next_timer_ns(&h), now + 50 * NS_PER_US);
	/* A period boundary inside the halt is discarded. */
	ev = cc_host_timer(&h, now + 50 * NS_PER_US);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_HALTED);
	assert_int_equal(cc_host_next_timer_ns(&h), now + 80 * NS_PER_US);
	assert_int_equal(cc_host_timer(&h, now + 80 * NS_PER_US),
			 RXE_CC_EV_HALT_END);
	assert_false(h.s.report.halt_early);
	/* After the halt: send at r, the share the bottleneck gave us. */
	assert_int_equal(cc_host_rate_bps(&h, now + 80 * NS_PER_US),
			 5 * GBPS);
	assert_int_equal(st->stats.halts, 1);
	assert_int_equal(st->stats.halt_ns_total, 80 * NS_PER_US);
	/* A fresh period starts when the halt ends. */
	assert_int_equal(st->cur.start_ns, now + 80 * NS_PER_US);
}

static void test_halt_ends_early_on_ack_clock(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now;
	u32 f;

	(void)state;
	setup_known_halt(&h, &f, &now);
	/* The queue drains faster than r: W reaches the pipe after 50 ACKs. */
	f = acks(&h, 49, PKT, NS_PER_US, RXE_CC_MARK_NO, &now);
	assert_false(f & RXE_CC_EV_HALT_END);
	assert_true(st->halted);
	assert_int_equal(cc_host_rate_bps(&h, now), 0);
	f = acks(&h, 1, PKT, NS_PER_US, RXE_CC_MARK_NO, &now);
	assert_true(f & RXE_CC_EV_HALT_END);
	assert_true(h.s.report.halt_early);
	assert_int_equal(st->inflight_bytes, 6250);
	assert_int_equal(h.s.inflight_bytes, 6250);
	/* R = r of the period's ACKs and the halt's: 79000 B in 98.4 us. */
	assert_int_equal(cc_host_rate_bps(&h, now),
			 79000ULL * 8 * NS_PER_SEC / (98400));
	assert_int_equal(h.s.report.rate_bps,
			 79000ULL * 8 * NS_PER_SEC / (98400));
	assert_int_equal(st->stats.halts_early, 1);
	assert_int_equal(st->stats.halt_ns_total, 50 * NS_PER_US);
}

/*
 * The halt's ACKs refine R over its first 3/4 (60 of 80 us): 37 ACKs at
 * 5 Gb/s spacing until 109.2 us join the period's 29000 B; a burst at
 * 115 us, in the last quarter, is left out.  R = 66000 B in 107.6 us.
 */
static void test_halt_acks_refine_rate(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now, halt_end_ns;
	u32 f;

	(void)state;
	setup_known_halt(&h, &f, &now);
	halt_end_ns = now + st->last_halt.t_halt_ns;
	acks(&h, 37, PKT, 1600, RXE_CC_MARK_NO, &now);
	assert_int_equal(now, 109200);
	assert_int_equal(cc_host_rate_bps(&h, now), 0);	/* halted */
	now = 115 * NS_PER_US;
	acks(&h, 10, PKT, 1, RXE_CC_MARK_NO, &now);
	assert_true(st->halted);
	assert_int_equal(cc_host_rate_bps(&h, now), 0);
	f = cc_host_timer(&h, halt_end_ns);
	assert_true(f & RXE_CC_EV_HALT_END);
	assert_int_equal(cc_host_rate_bps(&h, halt_end_ns),
			 66000ULL * 8 * NS_PER_SEC / 107600);
	/* t_halt and the halt report keep r as measured at the start. */
	assert_int_equal(st->last_halt.ack_rate_bps, 5 * GBPS);
}

/*
 * ACKs that reach the sender faster than the line rate carries them (a
 * batch after a stall) move the window's anchor: 4 ACKs 10 ns apart, then
 * 10 at 2 Gb/s, read 2 Gb/s, not the 2.6 Gb/s of counting the batch.
 */
static void test_compressed_acks_move_the_anchor(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now = 0;

	(void)state;
	host_10g(&h);
	cc_host_start(&h, 0);
	cc_host_send(&h, 14 * PKT, 0);
	acks(&h, 4, PKT, 10, RXE_CC_MARK_CE, &now);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)), 0);
	acks(&h, 10, PKT, 4 * NS_PER_US, RXE_CC_MARK_CE, &now);
	assert_int_equal(st->cur.n_ack, 14);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)),
			 2 * GBPS);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.ce, acc_p(&h)),
			 2 * GBPS);
}

/*
 * The period, at least 40 ACKs long, is set in whole us (the knob's
 * unit), rounded up from 42 packet times: all the ACKs fall in it.
 */
static void test_halt_time_with_jitter_within_packet_time(void **state)
{
	u64 seed = 7;
	int run;

	(void)state;
	for (run = 0; run < 200; run++) {
		struct cc_host h;
		struct rxe_cc_acc *st = acc_st(&h);
		u64 rate = prng_range(&seed, 100 * MBPS, LINE_BPS);
		u64 gap = PKT * 8 * NS_PER_SEC / rate;	/* one packet time */
		u64 excess = prng_range(&seed, 0, 100) * PKT, pipe, now = 0;
		u64 base_rtt_us;
		long double t_ref;
		u32 i, n = 40, ev;

		host_10g(&h);
		knob_acc_period(&h, max_t(u64, US_UP((n + 2) * gap),
					  RXE_CC_ACC_MIN_PERIOD_NS / NS_PER_US),
				RXE_CC_ACC_MAX_HALT_NS / NS_PER_US);
		base_rtt_us = prng_range(&seed, 1, 20);
		knob(&h, "acc_base_rtt_us", base_rtt_us);
		pipe = rate * base_rtt_us * NS_PER_US / (8 * NS_PER_SEC);
		cc_host_start(&h, 0);
		cc_host_send(&h, pipe + excess + n * PKT, 0);
		for (i = 1; i <= n; i++) {
			/*
			 * +-25 % jitter on the ACKs between the first and
			 * the last: r reads only the span, so t_halt holds.
			 */
			u64 t = i * gap;

			if (i > 1 && i < n)
				t += prng_range(&seed, 0, gap / 2) - gap / 4;

			now = max_t(u64, now, t);
			host_ack1(&h, PKT, RXE_CC_MARK_CE, 0, now);
		}
		ev = cc_host_timer(&h, acc_p(&h)->period_ns);
		assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
		t_ref = (long double)excess * 8 * NS_PER_SEC / rate;
		assert_within_abs(st->last_halt.t_halt_ns, t_ref, gap);
	}
}

/*
 * 50 ACKs at @rate, each off its ideal time by up to +-30 % of the gap:
 * the span is off by at most 0.6 gap of 49, 1.2 %.
 */
static void check_ack_rate(u64 rate, u64 *seed)
{
	const u32 n = 50, pkt = rate < GBPS ? 64 : 4096;
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 gap = (u64)pkt * 8 * NS_PER_SEC / rate, now = 0;
	long double r_true = (long double)pkt * 8 * NS_PER_SEC / gap;
	u32 i;

	host_init(&h, 400 * GBPS, pkt);
	knob_acc_period(&h, max_t(u64, US_UP((n + 2) * gap),
				  RXE_CC_ACC_MIN_PERIOD_NS / NS_PER_US),
			RXE_CC_ACC_MAX_HALT_NS / NS_PER_US);
	cc_host_start(&h, 0);
	for (i = 1; i <= n; i++) {
		u64 t = i * gap + prng_range(seed, 0, 6 * gap / 10) -
			3 * gap / 10;

		now = max_t(u64, now, t);
		host_ack1(&h, pkt, RXE_CC_MARK_NO, 0, now);
	}
	assert_int_equal(st->cur.n_ack, n);
	assert_within_ppm(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)),
			  r_true, 20000);
}

static void test_ack_rate_estimate(void **state)
{
	const u64 rates[] = { MBPS, 25 * MBPS, GBPS, 10 * GBPS, 100 * GBPS,
			      400 * GBPS };
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 seed = 99, now = 0;
	unsigned int i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rates); i++)
		for (k = 0; k < 20; k++)
			check_ack_rate(rates[i], &seed);

	/* Fencepost: two ACKs 8 us apart carry one 1000 B span: 1 Gb/s. */
	host_10g(&h);
	cc_host_start(&h, 0);
	acks(&h, 1, PKT, NS_PER_US, RXE_CC_MARK_NO, &now);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)), 0);
	acks(&h, 1, PKT, 8 * NS_PER_US, RXE_CC_MARK_NO, &now);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)),
			 GBPS);
	/* ACK compression: a burst never reads above line rate. */
	acks(&h, 10, PKT, 1, RXE_CC_MARK_NO, &now);
	assert_true(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)) <=
		    LINE_BPS);
}

static void test_victim_halves_after_p_thresh(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	int k;
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_start_rate_mbps", 8 * GBPS / MBPS);
	cc_host_start(&h, 0);
	for (k = 1; k <= 3; k++) {
		ev = period_of(&h, 10, RXE_CC_MARK_UE);
		assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_VICTIM);
		assert_int_equal(st->rate_bps, 8 * GBPS);
	}
	assert_int_equal(period_of(&h, 10, RXE_CC_MARK_UE),
			 RXE_CC_EV_PERIOD | RXE_CC_EV_BACKOFF);
	assert_int_equal(st->rate_bps, 4 * GBPS);	/* the rate moved */
	/* The count restarts: three more kept, the fourth halves. */
	for (k = 1; k <= 3; k++)
		period_of(&h, 10, RXE_CC_MARK_UE);
	assert_int_equal(st->rate_bps, 4 * GBPS);
	period_of(&h, 10, RXE_CC_MARK_UE);
	assert_int_equal(st->rate_bps, 2 * GBPS);
	assert_int_equal(st->stats.victim_backoffs, 2);
	/* Victims never halt. */
	assert_int_equal(st->stats.halts, 0);
	/* A clean period breaks the streak. */
	for (k = 1; k <= 3; k++)
		period_of(&h, 10, RXE_CC_MARK_UE);
	period_of(&h, 10, RXE_CC_MARK_NO);
	period_of(&h, 10, RXE_CC_MARK_UE);
	assert_int_equal(st->stats.victim_backoffs, 2);
}

static void test_increase_formula(void **state)
{
	/*
	 * Before its first halt a QP ramps to C: R += (C - R) * beta0 *
	 * 2^(n-1), beta0 = 1/16, capped at 1/2.
	 */
	const u64 expect[] = {
		1562500000ULL,	/* 1e9 + 9e9 / 16 */
		2617187500ULL,	/* + (1e10 - 1.5625e9) / 8 */
		4462890625ULL,	/* + (1e10 - 2.6171875e9) / 4 */
		7231445312ULL,	/* + floor(5537109375 / 2) */
		8615722656ULL,	/* + 2768554688 / 2, the cap */
	};
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	unsigned int n;
	u64 r, inc;
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_start_rate_mbps", GBPS / MBPS);
	cc_host_start(&h, 0);
	for (n = 0; n < 5; n++) {
		inc = st->stats.increases;
		ev = period_of(&h, 10, RXE_CC_MARK_NO);
		assert_int_equal(closed_kind(&h, ev),
				 RXE_CC_PERIOD_UNCONGESTED);
		assert_int_equal(st->stats.increases, inc + 1);	/* increased */
		assert_int_equal(st->inc_run, n + 1);
		assert_int_equal(st->rate_bps, expect[n]);
	}
	/* A possibly-congested period holds R and resets n. */
	r = st->rate_bps;
	ev = period_mixed(&h, 10, 5, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	assert_int_equal(st->rate_bps, r);
	assert_int_equal(st->inc_run, 0);
	/* Clean periods whose ACKs keep up converge to C, never past it. */
	for (n = 0; n < 100; n++)
		period_at_rate(&h);
	assert_int_equal(st->rate_bps, LINE_BPS);
}

/*
 * Send at R, with ACKs at half of it, period after period, until a gate
 * window reads behind (at most @max periods).  @return R before the
 * period that read behind.
 */
static u64 periods_behind(struct cc_host *h, u32 max)
{
	struct rxe_cc_acc *st = acc_st(h);
	u64 r = st->rate_bps, half;
	u32 k, ev;

	for (k = 0; k < max && !st->stats.gate_behind; k++) {
		r = st->rate_bps;
		half = r * PERIOD_NS / (16 * NS_PER_SEC * PKT);
		cc_host_send(h, half * PKT, st->cur.start_ns);
		ev = period_of(h, half, RXE_CC_MARK_NO);
		assert_int_equal(closed_kind(h, ev),
				 RXE_CC_PERIOD_UNCONGESTED);
		/* no cut until then: the tick probes up */
		assert_true(st->stats.gate_behind || st->rate_bps >= r);
	}
	return r;
}

/*
 * After a halt: a period without a verdict probes 1/1024 of the headroom;
 * a window of ACKs that kept up with R steps 1/512 of it for three
 * windows, then 4x a window; ACKs that fall behind cut R by R / 16 (the
 * gated probe only, kept for comparison); a flow that sends below R is
 * judged by what it sent.
 */
static void test_increase_after_halt_gate(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 share, r, probe, half, inc;
	u32 k, hr, steps = 0, ticks = 0, ev;

	(void)state;
	resume_known_halt(&h, &ev, RXE_CC_ACC_GATE_PROBE);
	assert_true(ev & RXE_CC_EV_HALT_END);
	share = st->rate_bps;
	assert_int_equal(st->share_bps, share);
	assert_within_ppm(share, 5 * GBPS, 1000);
	/* Windows that keep up: 3 probes of (C - R) / 512, then 4x each. */
	for (k = 0; k < 12 && steps < 5; k++) {
		r = st->rate_bps;
		hr = st->headroom_run;
		probe = (LINE_BPS - r) >> 9;
		inc = st->stats.increases;
		period_at_rate(&h);
		assert_int_equal(st->stats.increases, inc + 1);	/* increased */
		if (st->headroom_run == hr) {	/* no verdict: the tick probe */
			assert_int_equal(st->rate_bps,
					 r + ((LINE_BPS - r) >> 10));
			ticks++;
			continue;
		}
		steps++;
		if (steps <= 3)
			assert_int_equal(st->rate_bps, r + probe);
		else
			assert_int_equal(st->rate_bps,
					 r + (probe << 2 * (steps - 3)));
	}
	assert_int_equal(steps, 5);
	assert_true(ticks > 0);
	assert_int_equal(st->headroom_run, 5);
	/*
	 * Sending at half of R (the application, or a slow host) with ACKs
	 * that keep up with it: no queue, R may rise.
	 */
	r = st->rate_bps;
	half = r * PERIOD_NS / (16 * NS_PER_SEC * PKT);
	for (k = 0; k < 4 && st->rate_bps == r; k++)
		period_of(&h, half, RXE_CC_MARK_NO);
	assert_true(st->rate_bps > r);
	assert_int_equal(st->stats.gate_behind, 0);
	/* Sending at R, ACKs at half of it: behind, R loses R / 16. */
	r = periods_behind(&h, 4);
	assert_int_equal(st->stats.gate_behind, 1);
	assert_int_equal(st->headroom_run, 0);
	assert_int_equal(st->rate_bps, r - (r >> 4));
}

/*
 * The default rule (acc_gate = 2): a window whose ACKs fall behind what
 * was sent, in periods without marks, holds R; it never cuts.
 */
static void test_aimd_behind_holds(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 r;
	u32 ev;

	(void)state;
	resume_known_halt(&h, &ev, RXE_CC_ACC_GATE_AIMD);
	assert_true(ev & RXE_CC_EV_HALT_END);
	r = periods_behind(&h, 8);
	assert_int_equal(st->stats.gate_behind, 1);
	assert_int_equal(st->headroom_run, 0);
	/* R before the period that read behind: that period left it be */
	assert_int_equal(st->rate_bps, r);
}

/*
 * A CONGESTED verdict on @excess bytes: 31 CE ACKs 1.6 us apart
 * (5 Gb/s) with tau = 10 us leave a pipe of 6250 B and W = 6250 B +
 * @excess.  @share_bps: the last known share, 0 before a first halt.
 */
static void excess_verdict(struct cc_host *h, u32 gate, u64 excess,
			   u64 share_bps, u32 *ev)
{
	struct rxe_cc_acc *st = acc_st(h);
	u64 now = 0;

	host_10g(h);
	knob(h, "acc_base_rtt_us", 10);
	knob(h, "acc_gate", gate);
	cc_host_start(h, 0);
	st->share_bps = share_bps;
	cc_host_send(h, 31 * PKT + 6250 + excess, 0);
	acks(h, 31, PKT, 1600, RXE_CC_MARK_CE, &now);
	*ev = cc_host_timer(h, PERIOD_NS);
	assert_int_equal(closed_kind(h, *ev), RXE_CC_PERIOD_CONGESTED);
	assert_int_equal(st->last_halt.excess_bytes, excess);
}

/* A small excess, 1000 B: t_halt = 1.6 us, below T / 8. */
static void short_excess_verdict(struct cc_host *h, u32 gate, u32 *ev)
{
	excess_verdict(h, gate, 1000, 0, ev);
}

/*
 * With the gate, a CONGESTED verdict whose excess drains in less than
 * T / 8 cuts R to r without halting: a queue that short is the flows'
 * packets lining up, not an excess worth stopping for.
 */
static void test_gate_skips_short_halt(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u32 ev;

	(void)state;
	short_excess_verdict(&h, 1, &ev);
	assert_true(st->last_halt.t_halt_ns < PERIOD_NS / 8);
	assert_false(ev & RXE_CC_EV_HALT);
	assert_false(st->halted);
	assert_within_ppm(st->rate_bps, 5 * GBPS, 1000);
	/* Without the gate the same verdict halts. */
	short_excess_verdict(&h, 0, &ev);
	assert_true(ev & RXE_CC_EV_HALT);
}

/*
 * With the gate, after a halt: a POSSIBLY period cuts R by R * (CE
 * share) / 64; a period with fewer than 4 ACKs runs on, up to 4 T, and
 * its tick counts every T it lasted.
 */
static void possibly_cut_and_long_periods(u32 gate, u64 cut_div,
					 u32 tick_shift)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now, r, start;
	u32 ev;

	resume_known_halt(&h, &ev, gate);
	r = st->rate_bps;
	ev = period_mixed(&h, 10, 5, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	assert_int_equal(st->rate_bps, r - r * 5 / (10 * cut_div));
	/* Two clean ACKs in T: the period runs on to 4 T, then ticks 4x. */
	r = st->rate_bps;
	start = st->cur.start_ns;
	now = start;
	cc_host_send(&h, 2 * PKT, now);
	acks(&h, 2, PKT, 1000, RXE_CC_MARK_NO, &now);
	for (now = start + PERIOD_NS; now < start + 4 * PERIOD_NS;
	     now += PERIOD_NS) {
		assert_int_equal(cc_host_timer(&h, now), 0);
		assert_int_equal(st->cur.start_ns, start);
	}
	ev = cc_host_timer(&h, now);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_UNCONGESTED);
	assert_int_equal(st->rate_bps, r + 4 * ((LINE_BPS - r) >> tick_shift));
}

static void test_gate_possibly_cut_and_long_periods(void **state)
{
	(void)state;
	possibly_cut_and_long_periods(RXE_CC_ACC_GATE_PROBE, 64, 10);
}

/* The AIMD probe: the same with a 2x deeper cut and a 4x larger tick. */
static void test_aimd_possibly_cut_and_long_periods(void **state)
{
	(void)state;
	possibly_cut_and_long_periods(RXE_CC_ACC_GATE_AIMD, 32, 8);
}

/* alpha's fixed point, as rxe_cc_acc.c keeps it: permille << 8 */
#define ALPHA_ONE	(1000ULL << 8)

/*
 * The alpha cut (acc_gate = 3): alpha is the EWMA, 1/32 a period, of the
 * judged periods' CE share; a POSSIBLY period cuts R * alpha / 4 and then
 * ticks (C - R) / 256 as an unmarked period would.
 */
static void test_alpha_possibly_cut_and_tick(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 r, alpha, cut;
	u32 ev;

	(void)state;
	resume_known_halt(&h, &ev, RXE_CC_ACC_GATE_ALPHA);
	/* the CONGESTED period, 30 of 30 packets CE; the halt's are not judged */
	assert_int_equal(st->alpha_pm, ALPHA_ONE >> 5);
	r = st->rate_bps;
	ev = period_mixed(&h, 10, 5, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	alpha = (ALPHA_ONE >> 5) + ((ALPHA_ONE / 2) >> 5) - ((ALPHA_ONE >> 5) >> 5);
	assert_int_equal(st->alpha_pm, alpha);
	assert_int_equal(rxe_cc_acc_alpha_permille(st), alpha >> 8);
	assert_int_equal(host_stat(&h, "acc_alpha_permille"), alpha >> 8);
	cut = r * alpha / (ALPHA_ONE << 2);
	assert_int_equal(st->rate_bps, r - cut + ((LINE_BPS - (r - cut)) >> 8));
	/* Periods without marks let alpha decay by 1/32 each. */
	ev = period_mixed(&h, 10, 0, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_UNCONGESTED);
	assert_int_equal(st->alpha_pm, alpha - (alpha >> 5));
}

/*
 * A CONGESTED verdict after the first halt whose excess drains in 10 us,
 * between T / 8 and 6/16 T (T = 50 us): the AIMD probe halts and resumes
 * at r; the alpha cut takes it as POSSIBLY: no halt, R cut by alpha and
 * ticked, not set to r.
 */
static void mid_excess_verdict(struct cc_host *h, u32 gate, u32 *ev)
{
	excess_verdict(h, gate, 6250, 5 * GBPS, ev);
	assert_int_equal(acc_st(h)->last_halt.t_halt_ns, 10 * NS_PER_US);
}

static void test_alpha_mid_excess_does_not_halt(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 cut;
	u32 ev;

	(void)state;
	mid_excess_verdict(&h, RXE_CC_ACC_GATE_AIMD, &ev);
	assert_true(ev & RXE_CC_EV_HALT);
	assert_int_equal(st->rate_bps, 5 * GBPS);
	mid_excess_verdict(&h, RXE_CC_ACC_GATE_ALPHA, &ev);
	assert_false(ev & RXE_CC_EV_HALT);
	assert_false(st->halted);
	assert_int_equal(st->share_bps, 5 * GBPS);
	cut = LINE_BPS * (ALPHA_ONE >> 5) / (ALPHA_ONE << 2);
	assert_int_equal(st->rate_bps, LINE_BPS - cut + (cut >> 8));
	assert_int_equal(st->stats.halts, 0);
}

/*
 * A period that runs on for lack of ACKs, closed by a timer 2.5 T late:
 * it runs on to the next whole period after that, never to an end in
 * the past, and its tick still counts every T it lasted.
 */
static void test_long_period_late_timer(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now, r, start;
	u32 ev;

	(void)state;
	resume_known_halt(&h, &ev, RXE_CC_ACC_GATE_AIMD);
	start = st->cur.start_ns;
	now = start;
	cc_host_send(&h, 2 * PKT, now);
	acks(&h, 2, PKT, 1000, RXE_CC_MARK_NO, &now);
	r = st->rate_bps;
	now = start + 3 * PERIOD_NS + PERIOD_NS / 2;
	assert_int_equal(cc_host_timer(&h, now), 0);
	assert_int_equal(st->cur.start_ns, start);
	assert_int_equal(cc_host_next_timer_ns(&h), start + 4 * PERIOD_NS);
	ev = cc_host_timer(&h, start + 4 * PERIOD_NS);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_UNCONGESTED);
	assert_int_equal(st->rate_bps,
			 r + 4 * ((LINE_BPS - r) >> 8));
}

/*
 * The AIMD probe halts only on 8 CE-marked packets: a period of 4 ACKs,
 * 3 of them CE (theta 75 %), runs on for another T instead of halting;
 * 4 clean ACKs then bring the share to 3 of 8, a POSSIBLY cut.  A
 * period of 8 CE ACKs halts at its end; the gated probe halts on 3 of 4.
 */
static void thin_congested(u32 gate, u32 n, u32 n_ce, struct cc_host *h,
			   u32 *ev)
{
	resume_known_halt(h, ev, gate);
	knob(h, "acc_theta_ce_pct", 75);
	assert_false(acc_st(h)->halted);
	*ev = period_mixed(h, n, n_ce, RXE_CC_MARK_CE);
}

static void test_aimd_halts_on_enough_marks(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 start, now, r;
	u32 ev;

	(void)state;
	thin_congested(RXE_CC_ACC_GATE_AIMD, 4, 3, &h, &ev);
	assert_int_equal(ev & RXE_CC_EV_PERIOD, 0);
	assert_false(st->halted);
	start = st->cur.start_ns;
	assert_int_equal(st->cur.end_ns, start + 2 * PERIOD_NS);
	r = st->rate_bps;
	now = start + PERIOD_NS;
	cc_host_send(&h, 4 * PKT, now);
	acks(&h, 4, PKT, PERIOD_NS / 5, RXE_CC_MARK_NO, &now);
	ev = cc_host_timer(&h, st->cur.end_ns);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	assert_false(st->halted);
	assert_int_equal(st->rate_bps, r - r * 3 / (8 * 32));

	thin_congested(RXE_CC_ACC_GATE_AIMD, 8, 8, &h, &ev);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	thin_congested(RXE_CC_ACC_GATE_PROBE, 4, 3, &h, &ev);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
}

/* W set by the framework's ring (no xmit hook): its growth is sent, R rises. */
static void test_gate_counts_sends_set_by_glue(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 share;
	u32 k, ev;

	(void)state;
	resume_known_halt(&h, &ev, RXE_CC_ACC_GATE_PROBE);
	share = st->rate_bps;
	for (k = 0; k < 6; k++)
		period_sent(&h, true);
	assert_true(st->rate_bps > share);
	assert_int_equal(st->stats.gate_behind, 0);
}

/* acc_halt = 0, the paper's ablation: CONGESTED only sets R := r. */
static void test_halt_ablation(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_base_rtt_us", 10);
	knob(&h, "acc_halt", 0);
	cc_host_start(&h, 0);
	cc_host_send(&h, 86250, 0);
	ev = period_of(&h, 30, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	assert_false(ev & RXE_CC_EV_HALT);
	assert_false(st->halted);
	assert_int_equal(st->stats.halts, 0);
	assert_true(st->last_halt.excess_bytes > 0);
	assert_int_equal(st->rate_bps, st->last_halt.ack_rate_bps);
	assert_int_equal(st->share_bps, st->rate_bps);
	assert_int_equal(cc_host_rate_bps(&h, st->cur.start_ns),
			 st->rate_bps);
}

static void test_possibly_congested_holds(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now, r;
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_start_rate_mbps", 3 * GBPS / MBPS);
	cc_host_start(&h, 0);
	period_of(&h, 10, RXE_CC_MARK_NO);
	period_of(&h, 10, RXE_CC_MARK_UE);
	assert_int_equal(st->ue_run, 1);
	/* 8 CE of 10: below 90 %; the UE of the others does not count. */
	cc_host_send(&h, 10 * PKT, st->cur.start_ns);
	now = st->cur.start_ns;
	acks(&h, 8, PKT, NS_PER_US, RXE_CC_MARK_CE, &now);
	acks(&h, 2, PKT, NS_PER_US, RXE_CC_MARK_UE, &now);
	r = st->rate_bps;
	ev = cc_host_timer(&h, st->cur.end_ns);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	assert_int_equal(st->rate_bps, r);
	assert_int_equal(st->ue_run, 0);
	assert_int_equal(st->inc_run, 0);
	assert_int_equal(st->stats.halts, 0);
	/* 9 of 10 is congested. */
	ev = period_mixed(&h, 10, 9, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	/* A single CE ACK cannot measure r: it only holds. */
	cc_host_start(&h, 0);
	ev = period_of(&h, 1, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
}

/*
 * After a POSSIBLY period r spans from its first CE ACK: 5 unmarked ACKs
 * (pre-saturation, left out), then CE ACKs every 4 us (2 Gb/s) from 9 us
 * to 49 us; the CONGESTED period's 12 ACKs come compressed at 96 us.  The
 * period alone has no span (each compressed ACK moves its anchor); the
 * two read 22000 B in 87 us.
 */
static void test_ack_rate_spans_possibly_period(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now = 0;
	u32 ev;

	(void)state;
	host_10g(&h);
	cc_host_start(&h, 0);
	cc_host_send(&h, 40 * PKT, 0);
	acks(&h, 5, PKT, NS_PER_US, RXE_CC_MARK_NO, &now);
	acks(&h, 11, PKT, 4 * NS_PER_US, RXE_CC_MARK_CE, &now);
	ev = cc_host_timer(&h, st->cur.end_ns);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	now = 96 * NS_PER_US;
	acks(&h, 12, PKT, 1, RXE_CC_MARK_CE, &now);
	assert_int_equal(rxe_cc_acc_ack_rate_bps(&st->cur.all, acc_p(&h)), 0);
	ev = cc_host_timer(&h, st->cur.end_ns);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	assert_int_equal(st->last_halt.ack_rate_bps,
			 22000ULL * 8 * NS_PER_SEC / (87 * NS_PER_US + 12));
	assert_int_equal(st->rate_bps, st->last_halt.ack_rate_bps);

	/* An UNCONGESTED period in between: r is the period's own again. */
	cc_host_start(&h, 0);
	cc_host_send(&h, 40 * PKT, 0);
	ev = period_mixed(&h, 10, 5, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_POSSIBLY);
	period_of(&h, 10, RXE_CC_MARK_NO);
	assert_int_equal(st->prev.n_ce, 0);
	ev = period_of(&h, 10, RXE_CC_MARK_CE);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_CONGESTED);
	assert_int_equal(st->last_halt.ack_rate_bps, 9ULL * PKT * 8 * NS_PER_SEC /
			 (9 * (PERIOD_NS / 11)));
}

static void test_no_ack_never_halts_beyond_halt_max(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now, start, r, halt_max_ns, period_ns;
	u32 ev;

	(void)state;
	host_10g(&h);
	cc_host_start(&h, 0);
	halt_max_ns = acc_p(&h)->halt_max_ns;
	period_ns = acc_p(&h)->period_ns;
	/* 100 MB queued: the closed form asks for far more than halt_max. */
	cc_host_send(&h, 100 << 20, 0);
	ev = period_of(&h, 20, RXE_CC_MARK_CE);
	assert_true(ev & RXE_CC_EV_HALT);
	assert_int_equal(st->last_halt.t_halt_ns, halt_max_ns);
	start = st->halt_start_ns;
	r = st->rate_bps;
	/* The peer died: no ACK, ever.  Even unasked, the halt lapses. */
	assert_int_equal(cc_host_rate_bps(&h, start + halt_max_ns - 1), 0);
	assert_int_equal(cc_host_rate_bps(&h, start + halt_max_ns), r);
	assert_int_equal(cc_host_next_timer_ns(&h), start + period_ns);
	for (now = start; now < start + 20 * period_ns;
	     now = cc_host_next_timer_ns(&h))
		cc_host_timer(&h, cc_host_next_timer_ns(&h));
	assert_false(st->halted);
	assert_int_equal(st->stats.halt_ns_total, halt_max_ns);
	/*
	 * Periods without ACKs change nothing.  The loop's last 12 T
	 * after the halt close at least 2 of them (a gated rule runs a
	 * period that lacks ACKs on for up to 4 T; the ramp closes 11).
	 */
	assert_int_equal(st->rate_bps, r);
	assert_true(st->stats.periods[RXE_CC_PERIOD_NO_ACK] >= 2);
}

static void test_ecn_only_fallback(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 r_after, prev;
	int k;
	u32 ev;

	(void)state;
	/* A peer that sets only CE (plain ECN, no TCD): halts, recovers. */
	host_10g(&h);
	knob(&h, "acc_base_rtt_us", 10);
	cc_host_start(&h, 0);
	cc_host_send(&h, 200000, 0);
	ev = period_of(&h, 20, RXE_CC_MARK_CE);
	assert_true(ev & RXE_CC_EV_HALT);
	ev = cc_host_timer(&h, st->halt_until_ns);
	assert_true(ev & RXE_CC_EV_HALT_END);
	r_after = st->rate_bps;
	assert_true(r_after < LINE_BPS / 2);
	prev = r_after;
	for (k = 0; k < 60; k++) {
		period_at_rate(&h);
		assert_true(st->rate_bps >= prev);
		prev = st->rate_bps;
	}
	assert_true(st->rate_bps > 99 * (LINE_BPS / 100));
	assert_int_equal(st->stats.victim_backoffs, 0);
	assert_int_equal(st->stats.periods[RXE_CC_PERIOD_VICTIM], 0);
}

/* tau as the flow's statistics row reads it: the knob, or the min RTT. */
static u64 tau_ns(struct cc_host *h)
{
	return host_stat(h, "acc_base_rtt_ns");
}

static void test_base_rtt(void **state)
{
	struct cc_host h;

	(void)state;
	host_10g(&h);
	cc_host_start(&h, 0);
	assert_int_equal(tau_ns(&h), 0);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 20000, 1);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 10000, 2);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 30000, 3);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 0, 4);
	assert_int_equal(tau_ns(&h), 10000);
	assert_int_equal(rxe_cc_acc_tau_ns(acc_st(&h), acc_p(&h)), 10000);
	/*
	 * A windowed minimum over 10 s: when the 10 us sample expires, the
	 * best of the later ones takes over, not the newest sample.
	 */
	host_ack1(&h, 0, RXE_CC_MARK_NO, 12000, 4 * NS_PER_SEC);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 18000, 8 * NS_PER_SEC);
	assert_int_equal(tau_ns(&h), 10000);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 30000,
		  10 * NS_PER_SEC + NS_PER_SEC / 2);
	assert_int_equal(tau_ns(&h), 12000);
	host_ack1(&h, 0, RXE_CC_MARK_NO, 30000,
		  14 * NS_PER_SEC + NS_PER_SEC / 2);
	assert_int_equal(tau_ns(&h), 18000);
	/* Everything expired: the path changed, the new sample is tau. */
	host_ack1(&h, 0, RXE_CC_MARK_NO, 25000, 40 * NS_PER_SEC);
	assert_int_equal(tau_ns(&h), 25000);
	knob(&h, "acc_base_rtt_us", 7);
	assert_int_equal(tau_ns(&h), 7000);
}

static void test_late_timer_period_closed_by_ack(void **state)
{
	struct cc_host h;
	struct rxe_cc_acc *st = acc_st(&h);
	u64 now = 0;
	u32 ev;

	(void)state;
	host_10g(&h);
	knob(&h, "acc_start_rate_mbps", GBPS / MBPS);
	cc_host_start(&h, 0);
	cc_host_send(&h, 10 * PKT, 0);
	acks(&h, 5, PKT, NS_PER_US, RXE_CC_MARK_NO, &now);
	/* The timer did not fire; the next ACK closes the period first. */
	ev = host_ack1(&h, PKT, RXE_CC_MARK_CE, 0, PERIOD_NS + 5);
	assert_true(ev & RXE_CC_EV_PERIOD);
	assert_int_equal(closed_kind(&h, ev), RXE_CC_PERIOD_UNCONGESTED);
	assert_int_equal(st->cur.n_ack, 1);
	assert_int_equal(st->cur.n_ce, 1);
}

/*
 * Overflow sweep: r from 1 Mb/s to 400 Gb/s, tau from 1 us to 10 ms, an
 * excess from 0 to past the halt_max cap; the core's integer pipe, excess
 * and t_halt against a long-double reference.  The period is built by
 * hand in the core's state and W in the host's; its timer judges it.
 */
static void test_integer_math_sweep(void **state)
{
	const u64 taus[] = { NS_PER_US, 10 * NS_PER_US, 100 * NS_PER_US,
			     NS_PER_MS, 10 * NS_PER_MS };
	const long double fracs[] = { 0, 0.001L, 0.3L, 0.999L, 1.5L, 1000 };
	u32 checked = 0;
	u64 r;

	(void)state;
	for (r = MBPS; r <= 400 * GBPS; r = r * 13 / 10) {
		unsigned int i, j;

		for (i = 0; i < ARRAY_SIZE(taus); i++) {
			for (j = 0; j < ARRAY_SIZE(fracs); j++) {
				struct cc_host h;
				struct rxe_cc_acc *st = acc_st(&h);
				const struct rxe_cc_acc_params *p = acc_p(&h);
				const u64 span = 900 * NS_PER_US;
				long double r_ref, pipe, cap_b, ex, t_ref, tol;

				host_init(&h, RXE_CC_ACC_MAX_RATE_BPS, PKT);
				knob_acc_period(&h, NS_PER_MS / NS_PER_US,
						NS_PER_SEC / NS_PER_US);
				knob(&h, "acc_base_rtt_us", taus[i] / NS_PER_US);
				cc_host_start(&h, 0);
				/* A period measured at rate r over 900 us. */
				st->cur.n_ack = st->cur.n_ce = 1000;
				st->cur.all.first_ns = 0;
				st->cur.all.last_ns = span;
				st->cur.all.bytes = r * span / (8 * NS_PER_SEC);
				r_ref = st->cur.all.bytes * 8.0L * NS_PER_SEC /
					span;
				pipe = r_ref * taus[i] / (8.0L * NS_PER_SEC);
				cap_b = r_ref * p->halt_max_ns /
					(8.0L * NS_PER_SEC);
				ex = fracs[j] * cap_b;
				h.s.inflight_bytes = (u64)(pipe + ex);
				ex = h.s.inflight_bytes - pipe;
				cc_host_timer(&h, NS_PER_MS);

				assert_within_abs(st->last_halt.ack_rate_bps,
						  r_ref, 1);
				assert_within_abs(st->last_halt.excess_bytes,
						  ex > 0 ? ex : 0, 2);
				t_ref = ex > 0 ? ex * 8.0L * NS_PER_SEC / r_ref :
						 0;
				if (t_ref > p->halt_max_ns)
					t_ref = p->halt_max_ns;
				/* 2 bytes of rounding at r, plus 1 ns. */
				tol = 2 * 8.0L * NS_PER_SEC / r_ref + 1;
				assert_within_abs(st->last_halt.t_halt_ns,
						  t_ref, tol);
				assert_true(st->rate_bps >= acc_floor_bps(p));
				checked++;
			}
		}
	}
	print_message("# %u (r, tau, excess) points checked\n", checked);
	assert_true(checked > 1000);
}

/*
 * Seeded random event sequences: R always within [min, max].  The knobs
 * are drawn in their files' units (us, Mb/s, %), as sysfs takes them.
 */
static void test_random_rates_stay_in_bounds(void **state)
{
	u64 seed = 12345;
	int run, step;

	(void)state;
	for (run = 0; run < 30; run++) {
		struct cc_host h;
		struct rxe_cc_acc *st = acc_st(&h);
		const struct rxe_cc_acc_params *p = acc_p(&h);
		u64 now = 0, lo, hi, line, min_mbps, period_us;

		line = prng_range(&seed, MBPS, 400 * GBPS);
		host_init(&h, line, PKT);
		min_mbps = prng_range(&seed, 1, line / MBPS);
		knob(&h, "acc_min_rate_mbps", min_mbps);
		if (prng_range(&seed, 0, 1))
			knob(&h, "acc_max_rate_mbps",
			     prng_range(&seed, min_mbps, line / MBPS));
		period_us = prng_range(&seed, RXE_CC_ACC_MIN_PERIOD_NS /
					      NS_PER_US, NS_PER_MS / NS_PER_US);
		knob_acc_period(&h, period_us,
				prng_range(&seed, period_us, 20 * period_us));
		knob(&h, "acc_p_thresh", prng_range(&seed, 1, 5));
		knob(&h, "acc_beta0_ppm",
		     prng_range(&seed, 1, RXE_CC_ACC_BETA_ONE / 2));
		knob(&h, "acc_theta_ce_pct", prng_range(&seed, 1, 100));
		knob(&h, "acc_base_rtt_us", prng_range(&seed, 0, 1) ?
		     prng_range(&seed, 1, NS_PER_MS / NS_PER_US) : 0);
		cc_host_start(&h, 0);
		lo = acc_floor_bps(p);
		hi = rxe_cc_acc_max_rate_bps(p);
		for (step = 0; step < 10000; step++) {
			u64 r;

			now += prng_range(&seed, 0, p->period_ns / 4);
			switch (prng_next(&seed) % 4) {
			case 0:
				cc_host_send(&h,
					prng_range(&seed, 1, 1 << 16), now);
				break;
			case 1:
				cc_host_timer(&h, now);
				assert_true(cc_host_next_timer_ns(&h) > now);
				break;
			default:
				host_ack1(&h,
					prng_range(&seed, 0, 1 << 16),
					prng_next(&seed) % 3,
					prng_range(&seed, 0, 2 * NS_PER_MS),
					now);
				assert_true(cc_host_next_timer_ns(&h) > now);
			}
			r = cc_host_rate_bps(&h, now);
			if (st->rate_bps < lo || st->rate_bps > hi ||
			    (r && r != st->rate_bps))
				fail_msg("run %d step %d: rate %llu not in "
					 "[%llu, %llu]", run, step,
					 (unsigned long long)st->rate_bps,
					 (unsigned long long)lo,
					 (unsigned long long)hi);
			if (!r && now >= st->halt_start_ns + p->halt_max_ns)
				fail_msg("run %d step %d: halted past cap",
					 run, step);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_and_check),
		cmocka_unit_test(test_window_scales_with_rate),
		cmocka_unit_test(test_starts_at_line_rate_acks_every_packet),
		cmocka_unit_test(test_halt_time_from_known_excess),
		cmocka_unit_test(test_halt_ends_early_on_ack_clock),
		cmocka_unit_test(test_ack_rate_spans_possibly_period),
		cmocka_unit_test(test_halt_acks_refine_rate),
		cmocka_unit_test(test_compressed_acks_move_the_anchor),
		cmocka_unit_test(test_halt_time_with_jitter_within_packet_time),
		cmocka_unit_test(test_ack_rate_estimate),
		cmocka_unit_test(test_victim_halves_after_p_thresh),
		cmocka_unit_test(test_increase_formula),
		cmocka_unit_test(test_increase_after_halt_gate),
		cmocka_unit_test(test_aimd_behind_holds),
		cmocka_unit_test(test_gate_skips_short_halt),
		cmocka_unit_test(test_gate_possibly_cut_and_long_periods),
		cmocka_unit_test(test_aimd_possibly_cut_and_long_periods),
		cmocka_unit_test(test_alpha_possibly_cut_and_tick),
		cmocka_unit_test(test_alpha_mid_excess_does_not_halt),
		cmocka_unit_test(test_gate_counts_sends_set_by_glue),
		cmocka_unit_test(test_halt_ablation),
		cmocka_unit_test(test_possibly_congested_holds),
		cmocka_unit_test(test_no_ack_never_halts_beyond_halt_max),
		cmocka_unit_test(test_ecn_only_fallback),
		cmocka_unit_test(test_base_rtt),
		cmocka_unit_test(test_late_timer_period_closed_by_ack),
		cmocka_unit_test(test_long_period_late_timer),
		cmocka_unit_test(test_aimd_halts_on_enough_marks),
		cmocka_unit_test(test_integer_math_sweep),
		cmocka_unit_test(test_random_rates_stay_in_bounds),
	};

	return cmocka_run_group_tests_name("rxe_cc_acc", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_acc.c - ACC: ACK-driven congestion control for lossless Ethernet
 * (Zhang, Meng, Hu, Ren, NSDI'24), sender side, per RC QP.  Every rule,
 * whether the paper states it or we chose it, and why, is specified in
 * Documentation/rxe-acc/acc.rst; this comment is the code's summary.
 *
 * Model
 * -----
 * Lossless Ethernet conserves packets: whatever a flow sent and has not
 * had acknowledged is on the wire or in a switch queue.  The receiver ACKs
 * every marked packet, and every few packets of a clean path, and each
 * ACK reports how many of the packets it covers were CE- or UE-marked
 * (rxe_cc_echo.c).  From the ACK stream the sender measures
 *	r    ACK rate of the last period: the flow's share of its bottleneck
 *	tau  base RTT: windowed minimum of the RTT samples (10 s), or the knob
 *	W    inflight bytes
 * so r * tau is the pipe and W - r * tau the bytes queued in switches.
 *
 * Every period T the marks of the period's ACKs classify it, counted in
 * packets (n_pkt acknowledged, n_ce and n_ue of them marked):
 *
 *	n_ack == 0 ---------------------------> NO_ACK: nothing changes
 *	n_ce * 1000 >= theta * n_pkt (n_ack >= 2) -> CONGESTED:
 *		excess = W - r * tau; t_halt = min(excess / r, halt_max);
 *		halt for t_halt (or until W <= r * tau), then R = r,
 *		r refined by the ACKs of the halt's first 3/4; S = R;
 *		with halt = 0 (ablation) only R = r, S = R
 *	n_ce > 0 -----------------------------> POSSIBLY: hold,
 *		n = ue = h = 0; with the gate, after the first halt,
 *		R -= R * n_ce / (64 * n_ack); gate 2 (AIMD):
 *		R -= R * n_ce / (32 * n_pkt); gate 3 (alpha):
 *		R -= R * alpha / 4, then the tick (below), alpha the
 *		EWMA (1/32 a period) of the judged periods' CE share
 *	n_ue > 0 -----------------------------> VICTIM: n = h = 0, ue += 1;
 *		ue > p_thresh: R = R / 2, ue = 0
 *	otherwise ----------------------------> UNCONGESTED: ue = 0, n += 1;
 *		increase or hold, below
 *
 * S is the last known share (R after the latest halt, 0 before the
 * first).  "Appears sufficient" is measured, not assumed: the gate is a
 * window of the ACKs of packets sent after R last changed (by their RTT
 * sample; without one, ACKs from tau after the change); it is judged at
 * the end of the first period in which it spans >= T and holds >= 8
 * ACKs or ACKs of >= 64 packets, with rg its ACK rate:
 *
 *	S == 0 or gate == 0 -> R += (C - R) * beta_n,
 *			       beta_n = min(beta0 * 2^(n-1), 1/2)
 *	window not ready    -> R += (C - R) / 1024 (gate 2: / 256) per T
 *			       of the period, the window runs on: a tick
 *			       per period, however many ACKs
 *	rg <  98 % of sent  -> hold, h = 0: the flow queues somewhere; a
 *			       period without marks never cuts (gate 1:
 *			       R -= R / 16, as before)
 *			       (sent: the rate it sent at since R was set,
 *			       <= R: a pacer, host or application that falls
 *			       short of R is no queue)
 *	rg >= 98 % of sent  -> h += 1; R += step:
 *		R < S	    step = max((S - R) / 2, p)  back to the share
 *		h <= 3	    step = p = (C - R) / 512    additive probe
 *		h > 3	    step = p << 2 (h - 3)       headroom shown: ramp
 *
 * Every rate change but the tick starts a new gate window; only ACKs of
 * packets sent after it count.  The probes are nearly the same for every
 * flow near the share and a little larger for a slower one, and come as
 * often for a slow flow as for a fast one; the cuts (POSSIBLY's, a
 * halt's R := r) take more off a faster flow: additive increase, multiplicative
 * decrease, which evens rates out.  A flow left alone ramps after three
 * windows.
 *
 * acc_gate selects the rule after the first halt: 2, the default, the
 * AIMD probe: the gated probe above with a tick four times larger, a
 * POSSIBLY cut twice as deep, and halts only on 8 CE packets (below); 3
 * the alpha cut: the AIMD probe with the cut and the halt threshold
 * below; 1 the gated probe; 0 the ramp to C (kept for comparison).
 * Under FIFO every CE share and every r is proportional to the flow's
 * rate, so only the equal additive step against the proportional cuts
 * evens rates out, and it does so at a relative speed of about
 * N * step / C per T: with N flows near C / N, the gate's 1/1024 closes
 * a gap of 4 flows by ~0.4 % a period (hundreds of T after a join),
 * gate 2's 1/256 by ~1.6 %.  The price: the aggregate probe grows with
 * N, and at 8-16 flows the queue reaches a halt about twice as often as
 * with gate 1 (acc.rst).
 *
 * With the gate, a CONGESTED verdict whose t_halt is below
 * T / 8 sets R = r and S without halting: that little excess is the
 * flows' packets lining up at K, not an excess worth stopping for.
 * The alpha cut, after the first halt, takes an excess that drains in
 * less than 3 T / 8 as POSSIBLY instead (cut by alpha, tick; R and S
 * are not set to r): R = r from the few ACKs of a short window carries
 * 5-10 % of noise into the rates, and at 16 flows a host stall's burst
 * made such verdicts, and halts, every few periods.  A larger excess
 * halts as before.  There every flow that is not halted gains the same
 * tick per T, marked or not, and the marks take back R * alpha / 4:
 * alpha is common to the flows of a FIFO, so the cut is proportional
 * and the rates meet where the ticks and the cuts balance,
 * R = 4 * tick / alpha, the same R for every flow (DCTCP's rule).  The
 * AIMD probe's cut by the period's own CE share gives each flow its own
 * few-packet sample's noise.
 * And with the gate, after the first halt, a period that holds fewer
 * than 4 ACKs, of fewer than 32 packets, runs on for another T, up to
 * 4 T (the tick counts each T): one or two ACKs give a slow flow a CE
 * share of 0 or 100 %, so it halted on a single mark where a fast flow
 * did not.  (A fast clean path's few ACKs a period, each of many
 * packets, are no such sample: rxe_cc_echo.c.)  The AIMD probe
 * also runs on a period that would read CONGESTED on fewer than 8
 * CE-marked packets: a burst that a host stall released marks a few
 * packets at K, and the clean ones after it bring the share below
 * theta; an overload keeps marking every packet and halts a period or
 * two later.
 *
 *	   +---------+  CONGESTED, excess > 0   +--------+
 *	   | sending | -----------------------> | halted |  rate 0
 *	   |  at R   | <----------------------- |        |
 *	   +---------+  now >= halt_until, or   +--------+
 *	                an ACK brings W <= r*tau; R = r
 *
 * A halt needs two ACKs (one span) to measure r; a congested verdict on
 * fewer counts as POSSIBLY.  Periods that end during a halt are discarded
 * (HALTED) and a fresh period starts when the halt ends: the ACKs of a
 * halt describe the drain, not the share.  R always lies in [min_rate, C],
 * C = max_rate_bps or the line rate.  A new QP starts at C (RDMA practice)
 * unless start_rate_bps is set.  Before its first halt a QP ramps with
 * beta0 = 1/16: n = 1, 2, 3, 4 close 1/16, 1/8, 1/4, 1/2 of the headroom.
 *
 * ACK rate
 * --------
 * r = (bytes acked by the ACKs after the anchor) / (last ACK - anchor),
 * the anchor being the window's first ACK.  n ACKs spaced d apart span
 * (n - 1) * d and the span holds the bytes of ACKs 2..n only: counting
 * the anchor's bytes too would overestimate r by n / (n - 1), 100 % at
 * n = 2.  An ACK that follows the anchor sooner than its bytes take at
 * line rate moves the anchor instead: such ACKs were compressed on the
 * way (a softirq batch after a stall), their spacing is lost, and
 * counting them over no time would inflate r.  The span is also at least
 * the time its bytes take at line rate, so no burst reads r > line rate.
 *
 * The window: the CONGESTED period's ACKs; or, when the period before it
 * was POSSIBLY (congestion already signalled, below theta), every ACK
 * since that period's first CE ACK.  Earlier ACKs may predate the
 * bottleneck's saturation and are left out.  The halt keeps adding ACKs
 * to the window over its first ACC_HALT_RATE_NUM / ACC_HALT_RATE_DEN:
 * the bottleneck queue still holds every flow's packets, interleaved in
 * arrival order, so the drain ACKs still come at the flow's share.  When
 * the halt ends, R = r of the whole window.  The rest of the halt is
 * left out: once the other flows' packets have drained, a flow with more
 * packets queued gets ACKs at the line rate.  More ACKs, less noise in R;
 * t_halt and the early-end level use r as measured at the halt's start.
 *
 * Units and overflow
 * ------------------
 * Rates are u64 bps <= 1.6e12, times u64 ns, sizes u64 bytes.  Products of
 * two of them go through mul_u64_u64_div_u64() (128-bit intermediate) and
 * every quotient is bounded before it is taken:
 *	pipe   = r * tau / 8e9	     <= 1.6e12 * 1e9 / 8e9 = 2e11 bytes
 *	t_halt = excess * 8e9 / r    only for excess < halt_max * r / 8e9,
 *				     hence < halt_max <= 1 s
 *	r      = bytes * 8e9 / span  <= line rate, by the span floor
 *	step   = (C - R) * beta / 1e6, beta <= 5e5 (128-bit product); or
 *	probe << s, probe <= C / 512, s <= 16: < 1.6e12 * 2^7
 *	allowed = R * dt / 8e9 bytes, dt the gate window's age: < 2^64
 *		  for any dt below 100 days
 *	gate   rg * 1000 and R * 980 <= 1.6e15
 * beta0 << (n - 1) is taken with n - 1 <= RXE_CC_ACC_BETA_MAX_SHIFT, where
 * beta0 >= 1 has already reached the 1/2 cap.
 */
#include "rxe_cc_acc.h"


#define ACC_DEF_PERIOD_NS		(50ULL * NSEC_PER_USEC)
#define ACC_DEF_HALT_MAX_PERIODS	8
#define ACC_DEF_MIN_RATE_BPS		(1000ULL * 1000)	/* 1 Mb/s */
#define ACC_DEF_LINE_RATE_BPS		(100ULL * 1000 * 1000 * 1000)
#define ACC_DEF_THETA_CE_PERMILLE	900	/* seed: 90 % CE */
#define ACC_DEF_P_THRESH		3
#define ACC_DEF_BETA0_PPM		(RXE_CC_ACC_BETA_ONE / 16)
#define ACC_BETA_CAP			(RXE_CC_ACC_BETA_ONE / 2)

/* r keeps reading the ACKs of a halt's first 3/4: see "ACK rate". */
#define ACC_HALT_RATE_NUM		3
#define ACC_HALT_RATE_DEN		4

/*
 * A clean path's ACK covers up to acc_ack_every packets (8 by default).
 * ACKs that cover as many packets as N such ACKs would count as N ACKs
 * below: a fast clean path gets only a few ACKs a period, each of tens
 * of packets (rxe_cc_echo.c), and they are as good a sample.
 */
#define ACC_PKTS_PER_ACK		8
/*
 * The gate (see "Increase"): a window is judged once it spans a period
 * and holds this many ACKs (or their packets); fewer mostly measure the
 * ACK clock's jitter.
 */
#define ACC_GATE_MIN_ACKS		8
/* r >= 98 % of what was sent: the ACKs keep up, no queue is growing. */
#define ACC_GATE_KEPT_UP_PERMILLE	980
/* The additive probe: (C - R) / 512, a little larger for a slower flow. */
#define ACC_PROBE_SHIFT			9
/* Windows that kept up in a row before the probe grows 4x a window. */
#define ACC_RAMP_AFTER			3
#define ACC_RAMP_MAX_SHIFT		16
/*
 * Between verdicts every unmarked period probes (C - R) / 1024: the same
 * step per unit of time for a slow flow as for a fast one, whose windows
 * fill with ACKs sooner.  The steps are sized to the headroom C - R, not
 * to the flow's last share S: S is the flow's own r at its halt, which
 * under FIFO keeps the ratio of the rates, so a step sized to it grows
 * the faster flow faster (acc.rst, "Increase").  A window that fell
 * behind holds R: a period without marks never cuts.  (acc_gate = 1, the
 * gated probe kept for comparison, still cuts R / 16 there, as it did.)
 */
#define ACC_TICK_PROBE_SHIFT		10
#define ACC_PROBE_BEHIND_CUT_SHIFT	4
/*
 * acc_gate = 2, the AIMD probe: the tick is (C - R) / 256, a step of
 * about 1/256 of C per T for every flow near the share, 4x the gate's, so
 * that rates that a join or a halt left apart are evened out within tens
 * of periods instead of hundreds; and POSSIBLY cuts R * (CE share) / 32
 * of the period's packets, twice the gate's, to take that larger
 * aggregate probe back before the queue reaches a halt.
 */
#define ACC_AIMD_TICK_PROBE_SHIFT	8
#define ACC_AIMD_POSSIBLY_CUT_SHIFT	5
/*
 * acc_gate = 3, the alpha cut: alpha, the EWMA of the judged periods' CE
 * share (gain 1 / 2^5 a period; 1 / 2^4 measured 80 % where 1/32 held
 * 81-83 % in test_acc_sim's 16 flows), in permille << 8; a POSSIBLY
 * period cuts R * alpha / 4; a CONGESTED verdict halts only on an excess
 * that drains in at least 6/16 T.
 */
#define ACC_ALPHA_SHIFT			5
#define ACC_ALPHA_ONE			(RXE_CC_ACC_PERMILLE << 8)
#define ACC_ALPHA_CUT_SHIFT		2
#define ACC_ALPHA_HALT_MIN_16THS	6
/* A halt shorter than T / 8 drains nothing worth stopping for. */
#define ACC_HALT_MIN_PERIOD_DIV		8
/*
 * With the gate, a period is judged once it holds this many ACKs (or
 * their packets), or after ACC_PERIOD_MAX_T periods: a slow flow's CE
 * share of one or two ACKs reads CONGESTED on a single mark, a fast
 * flow's does not.
 */
#define ACC_PERIOD_MIN_ACKS		4
#define ACC_PERIOD_MAX_T		4
/*
 * The AIMD probe halts only on this many CE-marked packets (or at
 * ACC_PERIOD_MAX_T): a host stall releases every flow's pacer credit at
 * once, the bursts meet at K and mark a few packets, and a period of 4
 * ACKs then reads 3 of 4 CE.  A halt on that resumes R at an r read from
 * a few ACKs that the stall spaced out: 5-20 % off the share.  A real
 * overload marks every packet and reaches 8 within a period or two; a
 * burst's marks are diluted below theta by the clean packets after it.
 */
#define ACC_AIMD_HALT_MIN_CE		8
/* POSSIBLY cuts R by R * (CE share) / 64: see "Increase". */
#define ACC_POSSIBLY_CUT_SHIFT		6

/* Like BBR's min_rtt window: long enough to see an empty queue. */
#define ACC_BASE_RTT_WIN_NS		(10ULL * NSEC_PER_SEC)

/* n saturates here; beta_n reached its cap long before. */
#define ACC_MAX_RUN			1000000U

void rxe_cc_acc_params_default(struct rxe_cc_acc_params *p)
{
	*p = (struct rxe_cc_acc_params) {
		.period_ns = ACC_DEF_PERIOD_NS,
		.halt_max_ns = ACC_DEF_HALT_MAX_PERIODS * ACC_DEF_PERIOD_NS,
		.min_rate_bps = ACC_DEF_MIN_RATE_BPS,
		.max_rate_bps = 0,
		.start_rate_bps = 0,
		.line_rate_bps = ACC_DEF_LINE_RATE_BPS,
		.base_rtt_ns = 0,
		.window_bytes = 0,
		.theta_ce_permille = ACC_DEF_THETA_CE_PERMILLE,
		.p_thresh = ACC_DEF_P_THRESH,
		.beta0_ppm = ACC_DEF_BETA0_PPM,
		.halt = 1,
		.gate = RXE_CC_ACC_GATE_AIMD,
	};
}

u64 rxe_cc_acc_max_rate_bps(const struct rxe_cc_acc_params *p)
{
	if (!p->max_rate_bps)
		return p->line_rate_bps;
	return min(p->max_rate_bps, p->line_rate_bps);
}

u64 rxe_cc_acc_min_rate_bps(const struct rxe_cc_acc_params *p)
{
	return min(p->min_rate_bps, rxe_cc_acc_max_rate_bps(p));
}

int rxe_cc_acc_params_check(const struct rxe_cc_acc_params *p)
{
	u64 line = p->line_rate_bps;
	u64 cap = rxe_cc_acc_max_rate_bps(p);

	if (!rxe_cc_in_range(line, RXE_CC_ACC_MIN_RATE_BPS, RXE_CC_ACC_MAX_RATE_BPS) ||
	    !rxe_cc_in_range(p->min_rate_bps, RXE_CC_ACC_MIN_RATE_BPS, line) ||
	    !(p->max_rate_bps == 0 ||
	      rxe_cc_in_range(p->max_rate_bps, p->min_rate_bps, line)) ||
	    !(p->start_rate_bps == 0 ||
	      rxe_cc_in_range(p->start_rate_bps, p->min_rate_bps, cap)) ||
	    !rxe_cc_in_range(p->period_ns, RXE_CC_ACC_MIN_PERIOD_NS,
			     RXE_CC_ACC_MAX_PERIOD_NS) ||
	    !rxe_cc_in_range(p->halt_max_ns, p->period_ns, RXE_CC_ACC_MAX_HALT_NS) ||
	    !rxe_cc_in_range(p->base_rtt_ns, 0, RXE_CC_ACC_MAX_TAU_NS) ||
	    !rxe_cc_in_range(p->window_bytes, 0, RXE_CC_ACC_MAX_WINDOW_BYTES) ||
	    !rxe_cc_in_range(p->theta_ce_permille, 1, RXE_CC_ACC_PERMILLE) ||
	    !rxe_cc_in_range(p->p_thresh, 1, RXE_CC_ACC_MAX_P_THRESH) ||
	    !rxe_cc_in_range(p->beta0_ppm, 1, ACC_BETA_CAP) ||
	    !rxe_cc_in_range(p->halt, 0, 1) ||
	    !rxe_cc_in_range(p->gate, 0, RXE_CC_ACC_GATE_ALPHA))
		return -EINVAL;
	return 0;
}

static u64 clamp_rate(const struct rxe_cc_acc_params *p, u64 rate_bps)
{
	return clamp_t(u64, rate_bps, rxe_cc_acc_min_rate_bps(p),
		       rxe_cc_acc_max_rate_bps(p));
}

static void period_restart(struct rxe_cc_acc *st,
			   const struct rxe_cc_acc_params *p, u64 now_ns)
{
	st->cur = (struct rxe_cc_acc_period) {
		.start_ns = now_ns,
		.end_ns = now_ns + p->period_ns,
	};
}

void rxe_cc_acc_init(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		     u64 now_ns)
{
	*st = (struct rxe_cc_acc) { 0 };
	st->rate_bps = clamp_rate(p, p->start_rate_bps ? p->start_rate_bps :
					rxe_cc_acc_max_rate_bps(p));
	period_restart(st, p, now_ns);
}

void rxe_cc_acc_on_send(struct rxe_cc_acc *st, u32 bytes, u64 now_ns)
{
	(void)now_ns;	/* the rate is read from ACKs, not from sends */
	st->inflight_bytes += bytes;
	st->gate.sent_bytes += bytes;
}

/*
 * The glue may keep W itself (its send ring) and set it instead of
 * calling on_send: what W grew by since the last call was sent.
 */
void rxe_cc_acc_set_inflight(struct rxe_cc_acc *st, u64 inflight_bytes)
{
	if (inflight_bytes > st->inflight_bytes)
		st->gate.sent_bytes += inflight_bytes - st->inflight_bytes;
	st->inflight_bytes = inflight_bytes;
}

u64 rxe_cc_acc_tau_ns(const struct rxe_cc_acc *st,
		      const struct rxe_cc_acc_params *p)
{
	return p->base_rtt_ns ? p->base_rtt_ns : st->base_rtt.val[0];
}

/* alpha, the CE share's moving average the alpha cut acts on, in permille */
u32 rxe_cc_acc_alpha_permille(const struct rxe_cc_acc *st)
{
	return st->alpha_pm / (ACC_ALPHA_ONE / RXE_CC_ACC_PERMILLE);
}

/**
 * rxe_cc_acc_window_bytes - the in-flight cap, a deviation of ours
 * @st: the QP's state
 * @p: its knobs; window_bytes the cap at R = C, 0 for none
 * @min_bytes: the floor, a packet: a slowed flow must still send
 *
 * The paper states no start rule; a flow starts at C.  The cap is one
 * BDP scaled by R / C, as the HPCC simulator gives its windowed schemes
 * (VAR_WIN): a burst of new flows then cannot fill the buffer before the
 * first reaction, which takes T_tcd + an RTT + a period or two.
 *
 * Return: the bytes W may reach, ~0 without a cap.
 */
u64 rxe_cc_acc_window_bytes(const struct rxe_cc_acc *st,
			    const struct rxe_cc_acc_params *p, u32 min_bytes)
{
	if (!p->window_bytes)
		return ~0ULL;
	return max_t(u64, mul_u64_u64_div_u64(p->window_bytes, st->rate_bps,
					      rxe_cc_acc_max_rate_bps(p)),
		     min_bytes);
}

/* r of a sample, 0 until it holds a span. */
u64 rxe_cc_acc_ack_rate_bps(const struct rxe_cc_acc_rate_sample *rs,
			    const struct rxe_cc_acc_params *p)
{
	u64 span_ns, floor_ns;

	if (!rs->bytes)
		return 0;
	span_ns = rs->last_ns - rs->first_ns;
	floor_ns = rxe_cc_tx_time_ns(rs->bytes, p->line_rate_bps);
	span_ns = max_t(u64, max(span_ns, floor_ns), 1);
	return min(mul_u64_u64_div_u64(rs->bytes, RXE_CC_BIT_NS_PER_BYTE_S, span_ns),
		   p->line_rate_bps);
}

/* Add an ACK; @anchor: it starts the sample.  See "ACK rate" above. */
static void rate_sample_add(struct rxe_cc_acc_rate_sample *rs, bool anchor,
			    u64 bytes, u64 now_ns,
			    const struct rxe_cc_acc_params *p)
{
	if (anchor || (!rs->bytes && now_ns - rs->first_ns <
		       rxe_cc_tx_time_ns(bytes, p->line_rate_bps)))
		rs->first_ns = now_ns;
	else
		rs->bytes += bytes;
	rs->last_ns = now_ns;
}

bool rxe_cc_acc_halted(const struct rxe_cc_acc *st, u64 now_ns)
{
	return st->halted && now_ns < st->halt_until_ns;
}

/* 0 while halted: the pacer then holds every packet. */
u64 rxe_cc_acc_rate_bps(const struct rxe_cc_acc *st, u64 now_ns)
{
	return rxe_cc_acc_halted(st, now_ns) ? 0 : st->rate_bps;
}

u64 rxe_cc_acc_next_timer_ns(const struct rxe_cc_acc *st)
{
	if (st->halted)
		return min(st->halt_until_ns, st->cur.end_ns);
	return st->cur.end_ns;
}

/* ACC reads r from the ACK clock: the receiver must ACK every packet. */
u32 rxe_cc_acc_ack_req_every(const struct rxe_cc_acc *st)
{
	(void)st;
	return 1;
}

static void ev_begin(struct rxe_cc_acc_ev *ev, const struct rxe_cc_acc *st)
{
	if (ev)
		*ev = (struct rxe_cc_acc_ev) { .old_rate_bps = st->rate_bps };
}

static u32 ev_end(struct rxe_cc_acc_ev *ev, const struct rxe_cc_acc *st,
		  u32 flags)
{
	if (!ev)
		return flags;
	if (st->rate_bps != ev->old_rate_bps)
		flags |= RXE_CC_ACC_EV_RATE_CHANGE;
	ev->flags |= flags;
	ev->rate_bps = st->rate_bps;
	return ev->flags;
}

/* Fewer than @min_acks ACKs, and fewer packets than that many cover. */
static bool few_acks(u32 n_ack, u32 n_pkt, u32 min_acks)
{
	return n_ack < min_acks && n_pkt < min_acks * ACC_PKTS_PER_ACK;
}

/* A fresh gate window at R; the ACKs of the next tau still show the old R. */
static void gate_restart(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns)
{
	st->gate = (struct rxe_cc_acc_gate) {
		.start_ns = now_ns,
		.from_ns = now_ns + rxe_cc_acc_tau_ns(st, p),
		.rate_bps = st->rate_bps,
	};
}

/*
 * An ACK counts if its packet was sent at the current R: sent at or after
 * start_ns, from its RTT sample; without a sample, if it came a base RTT
 * after start_ns.  Queueing makes the RTT longer than tau, and ACKs of
 * packets sent at the old R would then read as the flow falling behind
 * (or keeping up) right after R rose (fell).
 */
static void gate_account_ack(struct rxe_cc_acc *st,
			     const struct rxe_cc_acc_params *p,
			     const struct rxe_cc_ack *ack, u64 now_ns)
{
	struct rxe_cc_acc_gate *g = &st->gate;
	u64 rtt_ns = ack->rtt_ns;

	if (rtt_ns ? now_ns - rtt_ns < g->start_ns : now_ns < g->from_ns)
		return;
	rate_sample_add(&g->rs, !g->n_ack, ack->bytes, now_ns, p);
	g->n_ack++;
	g->n_pkt += ack->pkts;
}

static u32 halt_end(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		    u64 now_ns, bool early)
{
	u64 end_ns = early ? now_ns : min(now_ns, st->halt_until_ns);
	u64 r = rxe_cc_acc_ack_rate_bps(&st->halt_rs, p);

	st->halted = false;
	if (r)
		st->rate_bps = clamp_rate(p, r);
	st->share_bps = st->rate_bps;
	st->stats.halt_ns_total += end_ns - st->halt_start_ns;
	period_restart(st, p, now_ns);
	gate_restart(st, p, now_ns);
	if (!early)
		return RXE_CC_ACC_EV_HALT_END;
	st->stats.halts_early++;
	return RXE_CC_ACC_EV_HALT_END | RXE_CC_ACC_EV_HALT_EARLY;
}

static void minwin_set(struct rxe_cc_acc_minwin *m, u32 from, u64 val,
		       u64 now_ns)
{
	u32 i;

	for (i = from; i < 3; i++) {
		m->val[i] = val;
		m->t_ns[i] = now_ns;
	}
}

/* Slot @i takes slot @i + 1's sample, for i = 0, 1: the best expired. */
static void minwin_shift(struct rxe_cc_acc_minwin *m)
{
	m->val[0] = m->val[1];
	m->t_ns[0] = m->t_ns[1];
	m->val[1] = m->val[2];
	m->t_ns[1] = m->t_ns[2];
}

/*
 * Keep the minimum of the last @win_ns.  A new best, or a window whose
 * every sample expired, resets all three; a sample not above the second
 * (third) replaces the later ones.  As time passes, the best is handed
 * on when it expires, and the later ones are refreshed from new samples
 * once a quarter (half) of the window has gone by without them, so that
 * the minimum that takes over comes from the later part of the window.
 */
static void minwin_update(struct rxe_cc_acc_minwin *m, u64 win_ns, u64 val,
			  u64 now_ns)
{
	u64 age_ns = now_ns - m->t_ns[0];

	if (!m->val[0] || val <= m->val[0] ||
	    now_ns - m->t_ns[2] > win_ns) {
		minwin_set(m, 0, val, now_ns);
		return;
	}
	if (val <= m->val[1])
		minwin_set(m, 1, val, now_ns);
	else if (val <= m->val[2])
		minwin_set(m, 2, val, now_ns);
	if (age_ns > win_ns) {
		minwin_shift(m);
		minwin_set(m, 2, val, now_ns);
		if (now_ns - m->t_ns[0] > win_ns)
			minwin_shift(m);
	} else if (m->t_ns[1] == m->t_ns[0] && age_ns > win_ns / 4) {
		minwin_set(m, 1, val, now_ns);
	} else if (m->t_ns[2] == m->t_ns[1] && age_ns > win_ns / 2) {
		minwin_set(m, 2, val, now_ns);
	}
}

static void base_rtt_update(struct rxe_cc_acc *st, u64 rtt_ns, u64 now_ns)
{
	if (!rtt_ns)
		return;
	minwin_update(&st->base_rtt, ACC_BASE_RTT_WIN_NS,
		      min(rtt_ns, RXE_CC_ACC_MAX_TAU_NS), now_ns);
}

static void period_account_ack(struct rxe_cc_acc_period *m,
			       const struct rxe_cc_acc_params *p,
			       const struct rxe_cc_ack *ack, u64 now_ns)
{
	rate_sample_add(&m->all, !m->n_ack, ack->bytes, now_ns, p);
	if (m->n_ce || ack->ce_pkts)
		rate_sample_add(&m->ce, !m->n_ce, ack->bytes, now_ns, p);
	m->acked_bytes += ack->bytes;
	m->n_ack++;
	m->n_pkt += ack->pkts;
	m->n_ce += ack->ce_pkts;
	m->n_ue += ack->ue_pkts;
}

/* The window r is read from at a CONGESTED verdict: see "ACK rate". */
static struct rxe_cc_acc_rate_sample
congested_rate_sample(const struct rxe_cc_acc *st)
{
	struct rxe_cc_acc_rate_sample rs = st->cur.all;

	if (st->prev.n_ce) {
		rs = st->prev.ce;
		rs.bytes += st->cur.acked_bytes;
		rs.last_ns = st->cur.all.last_ns;
	}
	return rs;
}

/* At least theta of the period's packets were CE-marked. */
static bool ce_share_reached(const struct rxe_cc_acc_period *m,
			     const struct rxe_cc_acc_params *p)
{
	return (u64)m->n_ce * RXE_CC_ACC_PERMILLE >=
	       (u64)p->theta_ce_permille * m->n_pkt;
}

static enum rxe_cc_acc_class classify(const struct rxe_cc_acc *st,
				      const struct rxe_cc_acc_params *p)
{
	const struct rxe_cc_acc_period *m = &st->cur;
	struct rxe_cc_acc_rate_sample rs = congested_rate_sample(st);

	if (st->halted)
		return RXE_CC_ACC_PERIOD_HALTED;
	if (!m->n_ack)
		return RXE_CC_ACC_PERIOD_NO_ACK;
	if (ce_share_reached(m, p) && rxe_cc_acc_ack_rate_bps(&rs, p))
		return RXE_CC_ACC_PERIOD_CONGESTED;
	if (m->n_ce)
		return RXE_CC_ACC_PERIOD_POSSIBLY;
	if (m->n_ue)
		return RXE_CC_ACC_PERIOD_VICTIM;
	return RXE_CC_ACC_PERIOD_UNCONGESTED;
}

static void possibly_cut(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns);
static u32 tick_probe(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		      u64 now_ns);

/* Packet conservation: stop until the queued excess has drained at r. */
static u32 source_halt(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		       u64 now_ns)
{
	struct rxe_cc_acc_halt_info *h = &st->last_halt;
	struct rxe_cc_acc_rate_sample rs = congested_rate_sample(st);
	u64 r = rxe_cc_acc_ack_rate_bps(&rs, p);	/* > 0 if CONGESTED */
	u64 pipe, max_excess, min_halt_ns;

	h->inflight_bytes = st->inflight_bytes;
	h->ack_rate_bps = r;
	h->tau_ns = rxe_cc_acc_tau_ns(st, p);
	pipe = mul_u64_u64_div_u64(r, h->tau_ns, RXE_CC_BIT_NS_PER_BYTE_S);
	h->excess_bytes = st->inflight_bytes > pipe ?
			  st->inflight_bytes - pipe : 0;
	/* The bytes r drains in halt_max: any more excess hits the cap. */
	max_excess = mul_u64_u64_div_u64(p->halt_max_ns, r, RXE_CC_BIT_NS_PER_BYTE_S);
	if (h->excess_bytes >= max_excess)
		h->t_halt_ns = p->halt_max_ns;
	else
		h->t_halt_ns = mul_u64_u64_div_u64(h->excess_bytes,
						   RXE_CC_BIT_NS_PER_BYTE_S, r);

	min_halt_ns = p->gate == RXE_CC_ACC_GATE_ALPHA ?
		      p->period_ns * ACC_ALPHA_HALT_MIN_16THS / 16 :
		      p->period_ns / ACC_HALT_MIN_PERIOD_DIV;
	st->ue_run = 0;
	st->inc_run = 0;
	st->headroom_run = 0;
	if (p->gate == RXE_CC_ACC_GATE_ALPHA && st->share_bps &&
	    h->t_halt_ns < min_halt_ns) {
		/* A small excess: as POSSIBLY, R is not set to r. */
		possibly_cut(st, p, now_ns);
		tick_probe(st, p, now_ns);
		return 0;
	}
	st->rate_bps = clamp_rate(p, r);
	st->share_bps = st->rate_bps;
	gate_restart(st, p, now_ns);
	if (!h->t_halt_ns || !p->halt || (p->gate && h->t_halt_ns < min_halt_ns))
		return 0;
	st->halted = true;
	st->halt_start_ns = now_ns;
	st->halt_until_ns = now_ns + h->t_halt_ns;
	st->halt_pipe_bytes = pipe;
	st->halt_rs = rs;
	st->halt_rs_until_ns = now_ns + h->t_halt_ns * ACC_HALT_RATE_NUM /
				       ACC_HALT_RATE_DEN;
	st->stats.halts++;
	return RXE_CC_ACC_EV_HALT_START;
}

static u32 victim_period(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns)
{
	st->inc_run = 0;
	if (++st->ue_run <= p->p_thresh)
		return 0;
	st->ue_run = 0;
	st->headroom_run = 0;
	st->rate_bps = clamp_rate(p, st->rate_bps >> 1);
	gate_restart(st, p, now_ns);
	st->stats.victim_backoffs++;
	return RXE_CC_ACC_EV_VICTIM_BACKOFF;
}

static u32 ramp_beta_ppm(u32 beta0_ppm, u32 n)
{
	u32 shift = min_t(u32, n - 1, RXE_CC_ACC_BETA_MAX_SHIFT);

	return min_t(u64, (u64)beta0_ppm << shift, ACC_BETA_CAP);
}

enum acc_gate_verdict {
	ACC_GATE_OPEN,		/* too few ACKs yet */
	ACC_GATE_KEPT_UP,
	ACC_GATE_BEHIND,
};

static enum acc_gate_verdict gate_verdict(const struct rxe_cc_acc *st,
					  const struct rxe_cc_acc_params *p,
					  u64 now_ns, u64 *r_bps)
{
	const struct rxe_cc_acc_gate *g = &st->gate;
	u64 allowed, sent_bps;

	if (few_acks(g->n_ack, g->n_pkt, ACC_GATE_MIN_ACKS) ||
	    g->rs.last_ns - g->rs.first_ns < p->period_ns)
		return ACC_GATE_OPEN;
	/*
	 * The ACKs can only follow what was sent: a pacer, a host or an
	 * application that falls short of R is no queue.  Compare with the
	 * rate the flow sent at since R was set, R at most.
	 */
	allowed = mul_u64_u64_div_u64(g->rate_bps, now_ns - g->start_ns,
				      RXE_CC_BIT_NS_PER_BYTE_S);
	sent_bps = g->rate_bps;
	if (g->sent_bytes < allowed)
		sent_bps = mul_u64_u64_div_u64(g->sent_bytes, RXE_CC_BIT_NS_PER_BYTE_S,
					       now_ns - g->start_ns);
	*r_bps = rxe_cc_acc_ack_rate_bps(&g->rs, p);
	if (*r_bps * RXE_CC_ACC_PERMILLE >=
	    sent_bps * ACC_GATE_KEPT_UP_PERMILLE)
		return ACC_GATE_KEPT_UP;
	return ACC_GATE_BEHIND;
}

/* The step after a window that kept up: see "Increase". */
static u64 increase_step(const struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p)
{
	u64 cap = rxe_cc_acc_max_rate_bps(p);
	u64 probe = max((cap - st->rate_bps) >> ACC_PROBE_SHIFT, 1ULL);

	if (!st->share_bps || !p->gate)	/* the ramp to C */
		return mul_u64_u64_div_u64(cap - st->rate_bps,
					   ramp_beta_ppm(p->beta0_ppm, st->inc_run),
					   RXE_CC_ACC_BETA_ONE);
	if (st->rate_bps < st->share_bps)	/* below the share: half way */
		return max((st->share_bps - st->rate_bps) / 2, probe);
	if (st->headroom_run <= ACC_RAMP_AFTER)
		return probe;
	return probe << min_t(u32, 2 * (st->headroom_run - ACC_RAMP_AFTER),
			      ACC_RAMP_MAX_SHIFT);
}

/*
 * An unmarked period whose gate window has too few ACKs for a verdict:
 * a small additive probe.  The window keeps running (it is judged against
 * the R it started at), so that a slow flow, which needs several periods
 * to collect a window's ACKs, probes as often as a fast one.
 */
static u32 tick_probe(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		      u64 now_ns)
{
	u64 cap = rxe_cc_acc_max_rate_bps(p);
	u64 step, len_ns;

	if (st->rate_bps >= cap)
		return 0;
	/* Per T of the period's length: periods of a slow flow are longer. */
	len_ns = max(now_ns - st->cur.start_ns, p->period_ns);
	step = max((cap - st->rate_bps) >>
		   (p->gate >= RXE_CC_ACC_GATE_AIMD ? ACC_AIMD_TICK_PROBE_SHIFT :
						      ACC_TICK_PROBE_SHIFT), 1ULL);
	step = mul_u64_u64_div_u64(step, len_ns, p->period_ns);
	st->rate_bps = clamp_rate(p, st->rate_bps + step);
	st->stats.increases++;
	return RXE_CC_ACC_EV_INCREASE;
}

static u32 uncongested_period(struct rxe_cc_acc *st,
			      const struct rxe_cc_acc_params *p, u64 now_ns)
{
	u64 cap = rxe_cc_acc_max_rate_bps(p);
	u64 r = 0, step;

	st->ue_run = 0;
	if (st->inc_run < ACC_MAX_RUN)
		st->inc_run++;
	/* Before the first halt, or without the gate: the ramp to C. */
	if (!p->gate || !st->share_bps)
		goto increase;
	switch (gate_verdict(st, p, now_ns, &r)) {
	case ACC_GATE_OPEN:
		return tick_probe(st, p, now_ns);
	case ACC_GATE_BEHIND:
		/*
		 * The ACKs fell behind what was sent: hold R (no increase)
		 * and judge a fresh window.  No cut: the period had no marks,
		 * and the paper's uncongested flows increase; a queue that
		 * keeps growing reaches K, and its marks cut.
		 */
		st->headroom_run = 0;
		st->stats.gate_behind++;
		if (p->gate == RXE_CC_ACC_GATE_PROBE)	/* kept to compare */
			st->rate_bps = clamp_rate(p, st->rate_bps -
				(st->rate_bps >> ACC_PROBE_BEHIND_CUT_SHIFT));
		gate_restart(st, p, now_ns);
		return 0;
	case ACC_GATE_KEPT_UP:
		if (st->headroom_run < ACC_MAX_RUN)
			st->headroom_run++;
		break;
	}
increase:
	if (st->rate_bps >= cap) {
		gate_restart(st, p, now_ns);
		return 0;
	}
	step = increase_step(st, p);
	st->rate_bps = clamp_rate(p, st->rate_bps + max(step, 1ULL));
	st->stats.increases++;
	gate_restart(st, p, now_ns);
	return RXE_CC_ACC_EV_INCREASE;
}

/*
 * With the gate, some CE below theta: R -= R * n_ce / (64 n_ack), more
 * bytes per second off a faster flow, and in proportion to the evidence.
 * The AIMD probe counts the CE share in packets (an ACK may cover many)
 * and cuts R * n_ce / (32 n_pkt).
 */
static void possibly_cut(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns)
{
	u64 cut;

	if (!p->gate || !st->share_bps)
		return;
	if (p->gate == RXE_CC_ACC_GATE_ALPHA)
		cut = mul_u64_u64_div_u64(st->rate_bps, st->alpha_pm,
					  (u64)ACC_ALPHA_ONE <<
					  ACC_ALPHA_CUT_SHIFT);
	else if (p->gate == RXE_CC_ACC_GATE_AIMD)
		cut = mul_u64_u64_div_u64(st->rate_bps, st->cur.n_ce,
					  max_t(u64, st->cur.n_pkt,
						st->cur.n_ce) <<
					  ACC_AIMD_POSSIBLY_CUT_SHIFT);
	else
		cut = mul_u64_u64_div_u64(st->rate_bps, st->cur.n_ce,
					  (u64)st->cur.n_ack <<
					  ACC_POSSIBLY_CUT_SHIFT);
	st->rate_bps = clamp_rate(p, st->rate_bps - cut);
	gate_restart(st, p, now_ns);
}

/*
 * The period is too thin to judge: fewer than ACC_PERIOD_MIN_ACKS ACKs,
 * or, with the AIMD probe, a CONGESTED verdict on fewer than
 * ACC_AIMD_HALT_MIN_CE marked packets.
 */
static bool period_thin(const struct rxe_cc_acc_period *m,
			const struct rxe_cc_acc_params *p)
{
	if (few_acks(m->n_ack, m->n_pkt, ACC_PERIOD_MIN_ACKS))
		return true;
	return p->gate >= RXE_CC_ACC_GATE_AIMD &&
	       m->n_ce < ACC_AIMD_HALT_MIN_CE && ce_share_reached(m, p);
}

/*
 * With the gate, after the first halt: a thin period runs on for another
 * T, up to ACC_PERIOD_MAX_T.  It runs on by whole periods, to the first
 * end after @now_ns: a timer that fired late must not leave an end in
 * the past (the glue would re-arm for it at once).
 */
static bool period_extend(struct rxe_cc_acc *st,
			  const struct rxe_cc_acc_params *p, u64 now_ns)
{
	if (!p->gate || !st->share_bps || st->halted ||
	    !period_thin(&st->cur, p) ||
	    now_ns - st->cur.start_ns >= ACC_PERIOD_MAX_T * p->period_ns)
		return false;
	/* Fewer than ACC_PERIOD_MAX_T turns: now_ns < start + that many T. */
	do
		st->cur.end_ns += p->period_ns;
	while (st->cur.end_ns <= now_ns);
	return true;
}

/* Close the period if it is due: classify it and act. */
static u32 period_step(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		       u64 now_ns, struct rxe_cc_acc_ev *ev)
{
	enum rxe_cc_acc_class kind;
	u32 flags = RXE_CC_ACC_EV_PERIOD;

	if (now_ns < st->cur.end_ns || period_extend(st, p, now_ns))
		return 0;
	kind = classify(st, p);
	if (st->cur.n_pkt && kind != RXE_CC_ACC_PERIOD_HALTED) {
		u32 ce = mul_u64_u64_div_u64(min(st->cur.n_ce, st->cur.n_pkt),
					     ACC_ALPHA_ONE, st->cur.n_pkt);

		st->alpha_pm += (ce >> ACC_ALPHA_SHIFT) -
				(st->alpha_pm >> ACC_ALPHA_SHIFT);
	}
	switch (kind) {
	case RXE_CC_ACC_PERIOD_CONGESTED:
		flags |= source_halt(st, p, now_ns);
		break;
	case RXE_CC_ACC_PERIOD_POSSIBLY:
		st->ue_run = 0;
		st->inc_run = 0;
		st->headroom_run = 0;
		possibly_cut(st, p, now_ns);
		if (p->gate == RXE_CC_ACC_GATE_ALPHA && st->share_bps)
			tick_probe(st, p, now_ns);
		break;
	case RXE_CC_ACC_PERIOD_VICTIM:
		flags |= victim_period(st, p, now_ns);
		break;
	case RXE_CC_ACC_PERIOD_UNCONGESTED:
		flags |= uncongested_period(st, p, now_ns);
		break;
	default:	/* NO_ACK, HALTED: nothing to learn */
		break;
	}
	st->stats.periods[kind]++;
	if (kind == RXE_CC_ACC_PERIOD_POSSIBLY)
		st->prev = st->cur;
	else
		st->prev = (struct rxe_cc_acc_period) { 0 };
	period_restart(st, p, now_ns);
	if (ev)
		ev->kind = kind;
	return flags;
}

/* End a halt that reached halt_until, then close a due period. */
static u32 timer_step(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		      u64 now_ns, struct rxe_cc_acc_ev *ev)
{
	u32 flags = 0;

	if (st->halted && now_ns >= st->halt_until_ns)
		flags |= halt_end(st, p, now_ns, false);
	return flags | period_step(st, p, now_ns, ev);
}

u32 rxe_cc_acc_on_period(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns,
			 struct rxe_cc_acc_ev *ev)
{
	ev_begin(ev, st);
	return ev_end(ev, st, period_step(st, p, now_ns, ev));
}

u32 rxe_cc_acc_on_timer(struct rxe_cc_acc *st,
			const struct rxe_cc_acc_params *p, u64 now_ns,
			struct rxe_cc_acc_ev *ev)
{
	ev_begin(ev, st);
	return ev_end(ev, st, timer_step(st, p, now_ns, ev));
}

/*
 * One ACK, which may cover many packets and report how many of them
 * were marked: the classifier counts packets, r counts bytes.
 */
u32 rxe_cc_acc_on_acks(struct rxe_cc_acc *st,
			const struct rxe_cc_acc_params *p,
			const struct rxe_cc_ack *ack, u64 now_ns,
			struct rxe_cc_acc_ev *ev)
{
	u32 flags;

	ev_begin(ev, st);
	/* A late period timer: close the old period before this ACK. */
	flags = timer_step(st, p, now_ns, ev);
	st->inflight_bytes -= min_t(u64, ack->bytes, st->inflight_bytes);
	base_rtt_update(st, ack->rtt_ns, now_ns);
	if (st->halted && now_ns < st->halt_rs_until_ns)
		rate_sample_add(&st->halt_rs, false, ack->bytes, now_ns, p);
	if (st->halted && st->inflight_bytes <= st->halt_pipe_bytes) {
		flags |= halt_end(st, p, now_ns, true);
	} else {
		period_account_ack(&st->cur, p, ack, now_ns);
		if (!st->halted)
			gate_account_ack(st, p, ack, now_ns);
	}
	return ev_end(ev, st, flags);
}

/* The ACK of one packet, echoing the strongest mark it saw. */
u32 rxe_cc_acc_on_ack(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		      u32 acked_bytes, enum rxe_cc_mark mark,
		      u64 rtt_sample_ns, u64 now_ns, struct rxe_cc_acc_ev *ev)
{
	struct rxe_cc_ack ack = {
		.bytes = acked_bytes,
		.pkts = 1,
		.ce_pkts = mark == RXE_CC_MARK_CE,
		.ue_pkts = mark == RXE_CC_MARK_UE,
		.rtt_ns = rtt_sample_ns,
	};

	return rxe_cc_acc_on_acks(st, p, &ack, now_ns, ev);
}

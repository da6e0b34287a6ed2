// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_acc.c - ACC: ACK-driven congestion control for lossless Ethernet
 * (Zhang, Meng, Hu, Ren, NSDI'24), sender side, per RC QP.  Every rule,
 * whether the paper states it or we chose it, why, and what it measured,
 * is in Documentation/rxe-acc/acc.rst; this is the model.
 *
 * Lossless Ethernet conserves packets: what a flow sent and has not had
 * acknowledged is on the wire or queued in a switch.  ACKs report how
 * many of the packets they cover were marked CE (a congested hop) or UE
 * (undetermined: a PFC victim), and from them the sender measures
 *	r    the ACK rate: the flow's share of its bottleneck
 *	tau  the base RTT (windowed minimum, 10 s) or the knob
 *	W    the bytes in flight
 * so that r * tau is the pipe and W - r * tau the bytes queued.
 *
 * Every period T the marks of the period's packets judge the flow:
 *
 *	no ACK        NO_ACK       nothing changes
 *	CE >= theta   CONGESTED    halt for (W - r * tau) / r (at most
 *	                           halt_max), then R = r
 *	some CE       POSSIBLY     hold (the increase rules cut a little)
 *	UE only       VICTIM       hold; halve R after p_thresh such periods
 *	no mark       UNCONGESTED  increase (acc.rst, "Increase")
 *
 *	   +---------+  CONGESTED, excess > 0   +--------+
 *	   | sending | -----------------------> | halted |  rate 0
 *	   |  at R   | <----------------------- |        |
 *	   +---------+  now >= halt_until, or   +--------+
 *	                an ACK brings W <= r*tau; R = r
 *
 * Periods that end in a halt are discarded: a halt's ACKs describe the
 * drain, not the share.  R stays in [min_rate, C], C the cap or the line
 * rate; a QP starts at C unless start_rate is set.
 *
 * r is bytes over the span of a window of ACKs (the anchor's own bytes
 * left out), never above the line rate, taken from the congested
 * period's ACKs and the first 3/4 of the halt's (acc.rst, "ACK rate").
 *
 * The increase after a QP's first halt is ours (the paper says only that
 * uncongested flows increase): acc_gate selects it.  2, the default, the
 * AIMD probe: an additive step while the ACK rate keeps up with what the
 * flow sent, a cut by the period's CE share when some ACKs echo CE; 3 the
 * alpha cut, whose cut is a moving average common to the flows of a
 * FIFO; 1 the gated probe; 0 the ramp towards C, kept for comparison.
 * Under FIFO every r and every CE share is proportional to the flow's
 * rate, so equal additive steps against proportional cuts even the rates
 * out (acc.rst, "Increase" and "The default").
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
 * share (gain 1 / 2^5 a period: acc.rst says why not 1 / 2^4), in
 * permille << 8; a POSSIBLY period cuts R * alpha / 4; a CONGESTED
 * verdict halts only on an excess that drains in at least 6/16 T.
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

static u64 acc_min_rate_bps(const struct rxe_cc_acc_params *p)
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
	return clamp_t(u64, rate_bps, acc_min_rate_bps(p),
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

static void rxe_cc_acc_init(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		     u64 now_ns)
{
	*st = (struct rxe_cc_acc) { 0 };
	st->rate_bps = clamp_rate(p, p->start_rate_bps ? p->start_rate_bps :
					rxe_cc_acc_max_rate_bps(p));
	period_restart(st, p, now_ns);
}

/*
 * W as the host counts it (the module's send ring): what W grew by since
 * the last call was sent.
 */
static void rxe_cc_acc_set_inflight(struct rxe_cc_acc *st, u64 inflight_bytes)
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
static u64 rxe_cc_acc_window_bytes(const struct rxe_cc_acc *st,
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

static bool acc_halted(const struct rxe_cc_acc *st, u64 now_ns)
{
	return st->halted && now_ns < st->halt_until_ns;
}

/* 0 while halted: the pacer then holds every packet. */
static u64 rxe_cc_acc_rate_bps(const struct rxe_cc_acc *st, u64 now_ns)
{
	return acc_halted(st, now_ns) ? 0 : st->rate_bps;
}

static u64 rxe_cc_acc_next_timer_ns(const struct rxe_cc_acc *st)
{
	if (st->halted)
		return min(st->halt_until_ns, st->cur.end_ns);
	return st->cur.end_ns;
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

static enum rxe_cc_period_class classify(const struct rxe_cc_acc *st,
				      const struct rxe_cc_acc_params *p)
{
	const struct rxe_cc_acc_period *m = &st->cur;
	struct rxe_cc_acc_rate_sample rs = congested_rate_sample(st);

	if (st->halted)
		return RXE_CC_PERIOD_HALTED;
	if (!m->n_ack)
		return RXE_CC_PERIOD_NO_ACK;
	if (ce_share_reached(m, p) && rxe_cc_acc_ack_rate_bps(&rs, p))
		return RXE_CC_PERIOD_CONGESTED;
	if (m->n_ce)
		return RXE_CC_PERIOD_POSSIBLY;
	if (m->n_ue)
		return RXE_CC_PERIOD_VICTIM;
	return RXE_CC_PERIOD_UNCONGESTED;
}

static void possibly_cut(struct rxe_cc_acc *st,
			 const struct rxe_cc_acc_params *p, u64 now_ns);
static u32 tick_probe(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		      u64 now_ns);

/* Packet conservation: stop until the queued excess has drained at r. */
static u32 source_halt(struct rxe_cc_acc *st, const struct rxe_cc_acc_params *p,
		       u64 now_ns)
{
	struct rxe_cc_halt_report *h = &st->last_halt;
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
 * the past (the host would re-arm for it at once).
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
	enum rxe_cc_period_class kind;
	u32 flags = RXE_CC_ACC_EV_PERIOD;

	if (now_ns < st->cur.end_ns || period_extend(st, p, now_ns))
		return 0;
	kind = classify(st, p);
	if (st->cur.n_pkt && kind != RXE_CC_PERIOD_HALTED) {
		u32 ce = mul_u64_u64_div_u64(min(st->cur.n_ce, st->cur.n_pkt),
					     ACC_ALPHA_ONE, st->cur.n_pkt);

		st->alpha_pm += (ce >> ACC_ALPHA_SHIFT) -
				(st->alpha_pm >> ACC_ALPHA_SHIFT);
	}
	switch (kind) {
	case RXE_CC_PERIOD_CONGESTED:
		flags |= source_halt(st, p, now_ns);
		break;
	case RXE_CC_PERIOD_POSSIBLY:
		st->ue_run = 0;
		st->inc_run = 0;
		st->headroom_run = 0;
		possibly_cut(st, p, now_ns);
		if (p->gate == RXE_CC_ACC_GATE_ALPHA && st->share_bps)
			tick_probe(st, p, now_ns);
		break;
	case RXE_CC_PERIOD_VICTIM:
		flags |= victim_period(st, p, now_ns);
		break;
	case RXE_CC_PERIOD_UNCONGESTED:
		flags |= uncongested_period(st, p, now_ns);
		break;
	default:	/* NO_ACK, HALTED: nothing to learn */
		break;
	}
	st->stats.periods[kind]++;
	if (kind == RXE_CC_PERIOD_POSSIBLY)
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

static u32 rxe_cc_acc_on_timer(struct rxe_cc_acc *st,
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
static u32 rxe_cc_acc_on_acks(struct rxe_cc_acc *st,
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

/*
 * The ops table: how a host drives the core.  W is the host's count of
 * bytes in flight (rxe: the sender ring), after the event; the core keeps
 * its own copy in step, with an ACK's bytes still in it until the core
 * takes them off.
 */

static void acc_params_default(void *params)
{
	rxe_cc_acc_params_default(params);
}

/* The knobs as written: checked against the fastest line they may meet. */
static int acc_params_check(const void *params)
{
	struct rxe_cc_acc_params p = *(const struct rxe_cc_acc_params *)params;

	p.line_rate_bps = RXE_CC_ACC_MAX_RATE_BPS;
	return rxe_cc_acc_params_check(&p);
}

/*
 * The knobs with this flow's line rate, and a halt that its transport
 * timer tolerates: a halt longer than half the retransmit timeout would
 * make the peer's ACKs look lost and retransmit data the switch still
 * holds.
 */
static void acc_derive(const struct rxe_cc_sender *s, const void *knobs,
		       void *params)
{
	struct rxe_cc_acc_params *p = params;
	u64 line = s->line_rate_bps;

	*p = *(const struct rxe_cc_acc_params *)knobs;
	if (s->rto_ns)
		p->halt_max_ns = clamp_t(u64, s->rto_ns / 2, p->period_ns,
					 p->halt_max_ns);
	p->line_rate_bps = line;
	p->min_rate_bps = min(p->min_rate_bps, line);
	p->max_rate_bps = min(p->max_rate_bps, line);
	p->start_rate_bps = min(p->start_rate_bps, line);
}

/* A receiver spaces a clean path's ACKs by the period: rxe_cc_echo.c. */
static u64 acc_echo_period_ns(const void *knobs)
{
	/* read without the knobs' seqlock: one field, no other to match */
	return READ_ONCE(((const struct rxe_cc_acc_params *)knobs)->period_ns);
}

static void acc_ops_init(struct rxe_cc_sender *s, u64 now_ns)
{
	rxe_cc_acc_init(s->priv, s->params, now_ns);
}

/* Sending moves W, never R nor the period's end. */
static bool acc_on_xmit(struct rxe_cc_sender *s, u32 bytes, u64 now_ns)
{
	(void)bytes;	/* W counts them already */
	(void)now_ns;
	rxe_cc_acc_set_inflight(s->priv, s->inflight_bytes);
	return false;
}

/* What one step did, for the host's counters and trace events. */
static void acc_report(struct rxe_cc_sender *s, u32 flags,
		       const struct rxe_cc_acc_ev *ev,
		       const struct rxe_cc_acc_period *closed)
{
	const struct rxe_cc_acc *st = s->priv;
	struct rxe_cc_report *rep = &s->report;

	if ((flags & RXE_CC_ACC_EV_PERIOD) && ev->kind < RXE_CC_PERIOD_CLASSES) {
		s->events |= RXE_CC_EV_PERIOD;
		rep->period = (struct rxe_cc_period_report) {
			.kind = ev->kind,
			.n_ack = closed->n_ack,
			.n_pkt = closed->n_pkt,
			.n_ce = closed->n_ce,
			.n_ue = closed->n_ue,
		};
	}
	if (flags & RXE_CC_ACC_EV_HALT_START) {
		s->events |= RXE_CC_EV_HALT;
		rep->halt = st->last_halt;
	}
	if (flags & RXE_CC_ACC_EV_HALT_END) {
		s->events |= RXE_CC_EV_HALT_END;
		rep->halt_early = flags & RXE_CC_ACC_EV_HALT_EARLY;
		rep->rate_bps = st->rate_bps;
	}
	if (flags & RXE_CC_ACC_EV_VICTIM_BACKOFF)
		s->events |= RXE_CC_EV_BACKOFF;
}

static void acc_on_ack(struct rxe_cc_sender *s, const struct rxe_cc_ack *ack,
		       u64 now_ns)
{
	struct rxe_cc_acc *st = s->priv;
	struct rxe_cc_acc_period closed = st->cur;
	struct rxe_cc_acc_ev ev;
	u32 flags;

	rxe_cc_acc_set_inflight(st, s->inflight_bytes + ack->bytes);
	flags = rxe_cc_acc_on_acks(st, s->params, ack, now_ns, &ev);
	acc_report(s, flags, &ev, &closed);
}

static void acc_on_timer(struct rxe_cc_sender *s, u64 now_ns)
{
	struct rxe_cc_acc *st = s->priv;
	struct rxe_cc_acc_period closed = st->cur;
	struct rxe_cc_acc_ev ev;
	u32 flags;

	rxe_cc_acc_set_inflight(st, s->inflight_bytes);
	flags = rxe_cc_acc_on_timer(st, s->params, now_ns, &ev);
	acc_report(s, flags, &ev, &closed);
}

/* A knob that lowers the cap holds from the next event on. */
static u64 acc_ops_rate_bps(struct rxe_cc_sender *s, u64 now_ns)
{
	return min(rxe_cc_acc_rate_bps(s->priv, now_ns),
		   rxe_cc_acc_max_rate_bps(s->params));
}

static u64 acc_ops_next_timer_ns(struct rxe_cc_sender *s)
{
	return rxe_cc_acc_next_timer_ns(s->priv);
}

/* The cap never goes below a full packet: a slowed flow must send. */
static u64 acc_ops_window_bytes(struct rxe_cc_sender *s)
{
	return rxe_cc_acc_window_bytes(s->priv, s->params, s->frame_bytes);
}

static const char *const acc_stat_names[] = {
	"acc_halted",
	"acc_base_rtt_ns",
	"acc_victim_periods",
	"acc_increase_streak",
	"acc_halts",
	"acc_halt_ns_total",
	"acc_last_excess_bytes",
	"acc_last_t_halt_ns",
	"acc_ce_periods",	/* periods whose ACKs echoed CE */
	"acc_ue_periods",	/* ... UE only */
	"acc_alpha_permille",
};

static void acc_stats(const struct rxe_cc_sender *s, u64 *v)
{
	const struct rxe_cc_acc *st = s->priv;

	*v++ = st->halted;
	*v++ = rxe_cc_acc_tau_ns(st, s->params);
	*v++ = st->ue_run;
	*v++ = st->inc_run;
	*v++ = st->stats.halts;
	*v++ = st->stats.halt_ns_total;
	*v++ = st->last_halt.excess_bytes;
	*v++ = st->last_halt.t_halt_ns;
	*v++ = st->stats.periods[RXE_CC_PERIOD_CONGESTED] +
	       st->stats.periods[RXE_CC_PERIOD_POSSIBLY];
	*v++ = st->stats.periods[RXE_CC_PERIOD_VICTIM];
	*v = rxe_cc_acc_alpha_permille(st);
}

#define ACC_KNOB(_name, _field, _unit, _scale, _min, _max, _flags)	\
	RXE_CC_KNOB_ROW(struct rxe_cc_acc_params, _name, _field, _unit,	\
			_scale, _min, _max, _flags)
#define ACC_MAX_MBPS	(RXE_CC_ACC_MAX_RATE_BPS / 1000000)

/*
 * acc_halt and acc_gate are ablations, kept a knob away so that the
 * evaluation can compare the paper's rules with ours: not a stable ABI.
 */
static const struct rxe_cc_knob acc_knobs[] = {
	ACC_KNOB("acc_period_us", period_ns, "us", NSEC_PER_USEC,
		 RXE_CC_ACC_MIN_PERIOD_NS / NSEC_PER_USEC,
		 RXE_CC_ACC_MAX_PERIOD_NS / NSEC_PER_USEC, 0),
	ACC_KNOB("acc_halt_max_us", halt_max_ns, "us", NSEC_PER_USEC,
		 RXE_CC_ACC_MIN_PERIOD_NS / NSEC_PER_USEC,
		 RXE_CC_ACC_MAX_HALT_NS / NSEC_PER_USEC, 0),
	ACC_KNOB("acc_base_rtt_us", base_rtt_ns, "us", NSEC_PER_USEC,
		 0, RXE_CC_ACC_MAX_TAU_NS / NSEC_PER_USEC, 0),
	ACC_KNOB("acc_min_rate_mbps", min_rate_bps, "Mb/s", 1000000,
		 1, ACC_MAX_MBPS, 0),
	ACC_KNOB("acc_max_rate_mbps", max_rate_bps, "Mb/s", 1000000,
		 0, ACC_MAX_MBPS, 0),
	ACC_KNOB("acc_start_rate_mbps", start_rate_bps, "Mb/s", 1000000,
		 0, ACC_MAX_MBPS, 0),
	ACC_KNOB("acc_theta_ce_pct", theta_ce_permille, "%", 10, 1, 100, 0),
	ACC_KNOB("acc_p_thresh", p_thresh, "", 1, 1, RXE_CC_ACC_MAX_P_THRESH, 0),
	ACC_KNOB("acc_beta0_ppm", beta0_ppm, "ppm", 1, 1, ACC_BETA_CAP, 0),
	ACC_KNOB("acc_window_bytes", window_bytes, "bytes", 1,
		 0, RXE_CC_ACC_MAX_WINDOW_BYTES, 0),
	ACC_KNOB("acc_halt", halt, "", 1, 0, 1, RXE_CC_KNOB_EXPERIMENTAL),
	ACC_KNOB("acc_gate", gate, "", 1, 0, RXE_CC_ACC_GATE_ALPHA,
		 RXE_CC_KNOB_EXPERIMENTAL),
};

const struct rxe_cc_ops rxe_cc_acc_ops = {
	.name		= "acc",
	.priv_size	= sizeof(struct rxe_cc_acc),
	.params_size	= sizeof(struct rxe_cc_acc_params),
	/*
	 * r comes from the ACK clock: an ACK per packet, unless the peer
	 * counts marks and coalesces its ACKs itself
	 */
	.ack_req_every	= 1,
	.echo_marks	= true,
	.knobs		= acc_knobs,
	.n_knobs	= ARRAY_SIZE(acc_knobs),
	.stat_names	= acc_stat_names,
	.n_stats	= ARRAY_SIZE(acc_stat_names),
	.params_default	= acc_params_default,
	.params_check	= acc_params_check,
	.derive		= acc_derive,
	.echo_period_ns	= acc_echo_period_ns,
	.init		= acc_ops_init,
	.on_xmit	= acc_on_xmit,
	.on_ack		= acc_on_ack,
	.on_timer	= acc_on_timer,
	.rate_bps	= acc_ops_rate_bps,
	.next_timer_ns	= acc_ops_next_timer_ns,
	.window_bytes	= acc_ops_window_bytes,
	.stats		= acc_stats,
};

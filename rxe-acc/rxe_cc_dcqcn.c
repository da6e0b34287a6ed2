// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_dcqcn.c - DCQCN reaction point (sender) for rxe, after Zhu et
 * al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM'15,
 * in NVIDIA's fixed-point form and with its knob names and firmware
 * defaults (mlx5 cc_params).  The notification point, which answers a
 * CE-marked packet with a CNP, is a receiver role of every QP, whatever
 * its sender runs: rxe_cc_np.c, with its arithmetic in rxe_cc_echo.h.
 *
 * Reaction point (RP, sender), per QP
 * -----------------------------------
 * RC is the current (paced) rate, RT the target rate, alpha (of 1024) the
 * estimate of how often CNPs arrive.  Invariant: min_rate <= RC <= RT <=
 * max_rate, where max_rate = rpg_max_rate_kbps, or line_rate_kbps if 0.
 * A QP starts unlimited at RC = RT = max_rate.
 *
 *                      CNP (at most one cut per monitor period)
 *         +----------------------------------------------+
 *         v                                              |
 *   [ unlimited ] --first CNP--> [ decrease ] --> [ recovery: T, BC ]
 *    RC = max                     RT = RC,         FR:  RC = (RT+RC)/2
 *                                 RC *= 1-a/2      AI:  RT += AI, then FR
 *                                 T = BC = 0       HAI: RT += i*HAI, then FR
 *
 * alpha: every dce_tcp_rtt_us period, with G = dce_tcp_g,
 *	CNP in the period:  alpha = (G * alpha + (1024 - G) * 1024) / 1024
 *	no CNP:             alpha = G * alpha / 1024
 * in NVIDIA's units (1024 = 1.0, capped at 1023).  alpha is kept with 10
 * more fraction bits (alpha_q20): in 10 bits the truncation of each decay
 * step, up to 1/1024 per period with G = 1019, would pull alpha ~20 % below
 * the CNP frequency it is meant to estimate.  alpha is only read by a
 * decrease, so it is evaluated lazily: all periods elapsed since the last
 * update are applied when an event arrives, the first of them with the CNP
 * flag, the k others as one decay by (G / 1024)^k, computed by squaring in
 * Q30 (O(log k), exact to ~1e-9 relative).
 *
 * First CNP of the QP: alpha = initial_alpha_value; if
 * rate_to_set_on_first_cnp_kbps != 0, RC = RT = that rate, else a normal
 * decrease with that alpha.  Either way it counts as a decrease.
 *
 * Decrease, at most once per rate_reduce_monitor_period_us: a CNP arriving
 * when the period since the last decrease has passed cuts at once; one
 * arriving earlier is remembered and the cut happens when the period ends
 * (on_timer); further CNPs in between are "ignored" (already covered).
 *	RT = RC		  if clamp_tgt_rate or an increase happened since the
 *			  last decrease (else RT keeps the older, higher target)
 *	RC = max(RC - RC * alpha / 2^rpg_gd,	 rpg_gd = 11: RC * (1 - a/2)
 *		 RC * rpg_min_dec_fac_pct / 100, min_rate)
 *	T = BC = 0, byte count = 0, increase timer restarts.
 *
 * Increase events, once limited: one each rpg_time_reset_us since the last
 * decrease or timer event (T += 1), one each rpg_byte_reset_bytes sent
 * (BC += 1; a disabled byte counter stays 0, so a timer-only RP never
 * reaches hyper increase, as in the paper).  After incrementing, with
 * F = rpg_threshold:
 *	max(T, BC) <= F:  fast recovery	   RC = (RT + RC + 1) / 2
 *	min(T, BC) >  F:  hyper increase   RT += (min(T, BC) - F) * HAI
 *	otherwise:	  additive	   RT += AI
 * then RT = min(RT, max_rate) and RC = (RT + RC + 1) / 2.  So the first F
 * events after a cut only halve the gap to RT.  Timer events elapsed while
 * nobody looked are replayed in order, at most
 * RXE_CC_DCQCN_MAX_CATCHUP_EVENTS per call, and stop costing anything once
 * RC = RT = max_rate.
 *
 * Units and overflow: rates are u64 bps (<= 1.6e12); alpha <= 1023; stage
 * counters saturate at RXE_CC_DCQCN_MAX_STAGE, so i * HAI <= 65535 *
 * 1.6e12 = 1.1e17.  Times are u64 ns; every knob in us is <= 1e7, i.e.
 * <= 1e10 ns.  RC * alpha and RC * pct go through mul_u64_u64_div_u64().
 */
#include "rxe_cc_dcqcn.h"


/* NVIDIA firmware defaults (DOCA "DCQCN CC Parameters", mlx5 cc_params). */
#define DCQCN_DEF_AI_RATE_KBPS		5000
#define DCQCN_DEF_HAI_RATE_KBPS		50000
#define DCQCN_DEF_TIME_RESET_US		300
#define DCQCN_DEF_BYTE_RESET_BYTES	32767
#define DCQCN_DEF_THRESHOLD		1
#define DCQCN_DEF_MIN_RATE_KBPS		1000
#define DCQCN_DEF_MIN_DEC_FAC_PCT	50
#define DCQCN_DEF_GD			11
#define DCQCN_DEF_DCE_TCP_G		1019	/* g = 5/1024 */
#define DCQCN_DEF_DCE_TCP_RTT_US	1
#define DCQCN_DEF_MONITOR_PERIOD_US	4
#define DCQCN_DEF_INITIAL_ALPHA		1023
#define DCQCN_DEF_LINE_RATE_KBPS	100000000 /* placeholder: glue sets it */

/* Longest knob time (10 s): keeps every ns product far inside u64. */
#define DCQCN_MAX_TIME_US		10000000U
#define DCQCN_MAX_BYTE_RESET_BYTES	BIT(30)
#define DCQCN_MAX_THRESHOLD		31
#define DCQCN_MAX_GD			15

/* Increase events replayed per call; the rest of a long idle is dropped. */
#define RXE_CC_DCQCN_MAX_CATCHUP_EVENTS	4096
#define RXE_CC_DCQCN_MAX_STAGE		0xffffU

#define DCQCN_ALPHA_Q20_SHIFT \
	(RXE_CC_DCQCN_ALPHA_SHIFT + RXE_CC_DCQCN_ALPHA_FRAC_SHIFT)
#define DCQCN_ALPHA_Q20_MAX \
	((RXE_CC_DCQCN_ALPHA_MAX << RXE_CC_DCQCN_ALPHA_FRAC_SHIFT) | \
	 (BIT(RXE_CC_DCQCN_ALPHA_FRAC_SHIFT) - 1))
#define DCQCN_Q30_SHIFT			30

static u64 us_to_ns(u32 us)
{
	return (u64)us * NSEC_PER_USEC;
}

static u64 kbps_to_bps(u32 kbps)
{
	return (u64)kbps * RXE_CC_DCQCN_KBPS;
}

static u32 alpha_from_knob(u32 alpha)
{
	return alpha << RXE_CC_DCQCN_ALPHA_FRAC_SHIFT;
}

void rxe_cc_dcqcn_params_default(struct rxe_cc_dcqcn_params *p)
{
	*p = (struct rxe_cc_dcqcn_params) {
		.rpg_ai_rate_kbps = DCQCN_DEF_AI_RATE_KBPS,
		.rpg_hai_rate_kbps = DCQCN_DEF_HAI_RATE_KBPS,
		.rpg_time_reset_us = DCQCN_DEF_TIME_RESET_US,
		.rpg_byte_reset_bytes = DCQCN_DEF_BYTE_RESET_BYTES,
		.rpg_threshold = DCQCN_DEF_THRESHOLD,
		.rpg_min_rate_kbps = DCQCN_DEF_MIN_RATE_KBPS,
		.rpg_max_rate_kbps = 0,
		.rpg_min_dec_fac_pct = DCQCN_DEF_MIN_DEC_FAC_PCT,
		.rpg_gd = DCQCN_DEF_GD,
		.dce_tcp_g = DCQCN_DEF_DCE_TCP_G,
		.dce_tcp_rtt_us = DCQCN_DEF_DCE_TCP_RTT_US,
		.rate_reduce_monitor_period_us = DCQCN_DEF_MONITOR_PERIOD_US,
		.initial_alpha_value = DCQCN_DEF_INITIAL_ALPHA,
		.rate_to_set_on_first_cnp_kbps = 0,
		.clamp_tgt_rate = 0,
		.line_rate_kbps = DCQCN_DEF_LINE_RATE_KBPS,
	};
}

int rxe_cc_dcqcn_params_check(const struct rxe_cc_dcqcn_params *p)
{
	u32 line = p->line_rate_kbps;

	if (!rxe_cc_in_range(line, 1, RXE_CC_DCQCN_MAX_RATE_KBPS) ||
	    !rxe_cc_in_range(p->rpg_min_rate_kbps, 1, line) ||
	    !(p->rpg_max_rate_kbps == 0 ||
	      rxe_cc_in_range(p->rpg_max_rate_kbps, p->rpg_min_rate_kbps, line)) ||
	    !rxe_cc_in_range(p->rpg_ai_rate_kbps, 1, line) ||
	    !rxe_cc_in_range(p->rpg_hai_rate_kbps, 1, line) ||
	    !rxe_cc_in_range(p->rate_to_set_on_first_cnp_kbps, 0, line) ||
	    !rxe_cc_in_range(p->rpg_time_reset_us, 1, DCQCN_MAX_TIME_US) ||
	    !rxe_cc_in_range(p->rpg_byte_reset_bytes, 0, DCQCN_MAX_BYTE_RESET_BYTES) ||
	    !rxe_cc_in_range(p->rpg_threshold, 1, DCQCN_MAX_THRESHOLD) ||
	    !rxe_cc_in_range(p->rpg_min_dec_fac_pct, 1, 100) ||
	    !rxe_cc_in_range(p->rpg_gd, 1, DCQCN_MAX_GD) ||
	    !rxe_cc_in_range(p->dce_tcp_g, 0, RXE_CC_DCQCN_ALPHA_MAX) ||
	    !rxe_cc_in_range(p->dce_tcp_rtt_us, 1, DCQCN_MAX_TIME_US) ||
	    !rxe_cc_in_range(p->rate_reduce_monitor_period_us, 0, DCQCN_MAX_TIME_US) ||
	    !rxe_cc_in_range(p->initial_alpha_value, 0, RXE_CC_DCQCN_ALPHA_MAX) ||
	    !rxe_cc_in_range(p->clamp_tgt_rate, 0, 1))
		return -EINVAL;
	return 0;
}

static u64 dcqcn_min_rate_bps(const struct rxe_cc_dcqcn_params *p)
{
	return kbps_to_bps(p->rpg_min_rate_kbps);
}

u64 rxe_cc_dcqcn_max_rate_bps(const struct rxe_cc_dcqcn_params *p)
{
	u32 cap = p->rpg_max_rate_kbps ? p->rpg_max_rate_kbps :
					 p->line_rate_kbps;

	return kbps_to_bps(min_t(u32, cap, p->line_rate_kbps));
}

static u64 clamp_rate(const struct rxe_cc_dcqcn_params *p, u64 rate_bps)
{
	return clamp_t(u64, rate_bps, dcqcn_min_rate_bps(p),
		       rxe_cc_dcqcn_max_rate_bps(p));
}

static void rxe_cc_dcqcn_init(struct rxe_cc_dcqcn_rp *rp,
		       const struct rxe_cc_dcqcn_params *p, u64 now_ns)
{
	*rp = (struct rxe_cc_dcqcn_rp) {
		.rc_bps = rxe_cc_dcqcn_max_rate_bps(p),
		.rt_bps = rxe_cc_dcqcn_max_rate_bps(p),
		.alpha_q20 = alpha_from_knob(p->initial_alpha_value),
		.alpha_next_ns = now_ns + us_to_ns(p->dce_tcp_rtt_us),
		.last_dec_ns = now_ns,
	};
}

static u64 rxe_cc_dcqcn_rate_bps(const struct rxe_cc_dcqcn_rp *rp)
{
	return rp->rc_bps;
}

u32 rxe_cc_dcqcn_alpha(const struct rxe_cc_dcqcn_rp *rp)
{
	return rp->alpha_q20 >> RXE_CC_DCQCN_ALPHA_FRAC_SHIFT;
}

/* One alpha period with a CNP: the EWMA step toward 1. */
static u32 alpha_rise(u32 alpha_q20, u32 g)
{
	/* <= 1023 * 2^20 + 1024 * 2^20 < 2^31 */
	u32 a = alpha_q20 * g +
		((RXE_CC_DCQCN_ALPHA_ONE - g) << DCQCN_ALPHA_Q20_SHIFT);

	return min_t(u32, a >> RXE_CC_DCQCN_ALPHA_SHIFT, DCQCN_ALPHA_Q20_MAX);
}

/*
 * (g / 1024)^periods in Q30, by squaring: at most 64 rounds, each
 * product of two Q30 values < 2^60.
 */
static u64 alpha_decay_q30(u32 g, u64 periods)
{
	u64 base = (u64)g << (DCQCN_Q30_SHIFT - RXE_CC_DCQCN_ALPHA_SHIFT);
	u64 result = 1ULL << DCQCN_Q30_SHIFT;

	while (periods && result) {
		if (periods & 1)
			result = (result * base) >> DCQCN_Q30_SHIFT;
		base = (base * base) >> DCQCN_Q30_SHIFT;
		periods >>= 1;
	}
	return result;
}

/* Apply every alpha period that ended at or before @now_ns. */
static void alpha_advance(struct rxe_cc_dcqcn_rp *rp,
			  const struct rxe_cc_dcqcn_params *p, u64 now_ns)
{
	u64 period_ns = us_to_ns(p->dce_tcp_rtt_us);
	u64 periods;

	if (now_ns < rp->alpha_next_ns)
		return;
	periods = div64_u64(now_ns - rp->alpha_next_ns, period_ns) + 1;
	rp->alpha_next_ns += periods * period_ns;

	/* The CNP, if any, fell in the first of these periods. */
	if (rp->cnp_in_alpha_period) {
		rp->alpha_q20 = alpha_rise(rp->alpha_q20, p->dce_tcp_g);
		rp->cnp_in_alpha_period = false;
		periods--;
	}
	/* alpha_q20 < 2^20 and decay <= 2^30: the product fits u64. */
	rp->alpha_q20 = ((u64)rp->alpha_q20 *
			 alpha_decay_q30(p->dce_tcp_g, periods)) >>
			DCQCN_Q30_SHIFT;
}

static bool at_max_rate(const struct rxe_cc_dcqcn_rp *rp,
			const struct rxe_cc_dcqcn_params *p)
{
	u64 cap = rxe_cc_dcqcn_max_rate_bps(p);

	return rp->rc_bps >= cap && rp->rt_bps >= cap;
}

static void ev_begin(struct rxe_cc_dcqcn_ev *ev,
		     const struct rxe_cc_dcqcn_rp *rp)
{
	if (!ev)
		return;
	*ev = (struct rxe_cc_dcqcn_ev) { .old_rc_bps = rp->rc_bps };
}

static u32 ev_end(struct rxe_cc_dcqcn_ev *ev, const struct rxe_cc_dcqcn_rp *rp,
		  u32 flags)
{
	if (!ev)
		return flags;
	if (rp->rc_bps != ev->old_rc_bps)
		flags |= RXE_CC_DCQCN_EV_RATE_CHANGE;
	ev->flags |= flags;
	ev->alpha = rxe_cc_dcqcn_alpha(rp);
	ev->rc_bps = rp->rc_bps;
	ev->rt_bps = rp->rt_bps;
	return ev->flags;
}

static void restart_recovery(struct rxe_cc_dcqcn_rp *rp,
			     const struct rxe_cc_dcqcn_params *p, u64 now_ns)
{
	rp->time_stage = 0;
	rp->byte_stage = 0;
	rp->bytes_since_inc = 0;
	rp->inc_next_ns = now_ns + us_to_ns(p->rpg_time_reset_us);
	rp->last_dec_ns = now_ns;
	rp->cnp_pending = false;
	rp->inc_since_dec = false;
	rp->stats.decreases++;
}

/* The multiplicative cut, bounded by rpg_min_dec_fac_pct and min_rate. */
static u32 rate_decrease(struct rxe_cc_dcqcn_rp *rp,
			 const struct rxe_cc_dcqcn_params *p, u64 now_ns)
{
	u64 rc = rp->rc_bps;
	u64 cut, keep;

	alpha_advance(rp, p, now_ns);
	cut = mul_u64_u64_div_u64(rc, rp->alpha_q20,
				  1ULL << (p->rpg_gd +
				  RXE_CC_DCQCN_ALPHA_FRAC_SHIFT));
	keep = mul_u64_u64_div_u64(rc, p->rpg_min_dec_fac_pct, 100);
	if (p->clamp_tgt_rate || rp->inc_since_dec)
		rp->rt_bps = rc;
	rp->rc_bps = clamp_rate(p, max_t(u64, rc - min(cut, rc), keep));
	rp->rt_bps = max(rp->rt_bps, rp->rc_bps);
	restart_recovery(rp, p, now_ns);
	return RXE_CC_DCQCN_EV_DECREASE;
}

static u32 sat_inc(u32 stage)
{
	return stage < RXE_CC_DCQCN_MAX_STAGE ? stage + 1 : stage;
}

/* Which increase the stage counters call for (after incrementing). */
static enum rxe_cc_dcqcn_inc increase_kind(const struct rxe_cc_dcqcn_rp *rp,
					   const struct rxe_cc_dcqcn_params *p,
					   u32 *hai_i)
{
	u32 t = rp->time_stage;
	u32 bc = rp->byte_stage;
	u32 f = p->rpg_threshold;

	if (max(t, bc) <= f)
		return RXE_CC_DCQCN_INC_FR;
	if (min(t, bc) > f) {
		*hai_i = min(t, bc) - f;
		return RXE_CC_DCQCN_INC_HAI;
	}
	return RXE_CC_DCQCN_INC_AI;
}

static void rate_increase(struct rxe_cc_dcqcn_rp *rp,
			  const struct rxe_cc_dcqcn_params *p,
			  struct rxe_cc_dcqcn_ev *ev)
{
	u32 hai_i = 0;
	enum rxe_cc_dcqcn_inc kind = increase_kind(rp, p, &hai_i);
	u64 rt = rp->rt_bps;

	if (kind == RXE_CC_DCQCN_INC_AI)
		rt += kbps_to_bps(p->rpg_ai_rate_kbps);
	else if (kind == RXE_CC_DCQCN_INC_HAI)
		rt += (u64)hai_i * kbps_to_bps(p->rpg_hai_rate_kbps);
	rp->rt_bps = clamp_rate(p, rt);
	/*
	 * Both <= 1.6e12: the sum cannot overflow.  Rounding up lets RC
	 * reach RT (a truncated mean would stall one bps short of it).
	 */
	rp->rc_bps = clamp_rate(p, (rp->rt_bps + rp->rc_bps + 1) >> 1);
	rp->inc_since_dec = true;
	rp->stats.increases[kind]++;
	if (ev) {
		ev->flags |= RXE_CC_DCQCN_EV_INCREASE;
		ev->increases[kind]++;
	}
}

/* Timer increase events due at or before @until_ns, oldest first. */
static void timer_increases(struct rxe_cc_dcqcn_rp *rp,
			    const struct rxe_cc_dcqcn_params *p, u64 until_ns,
			    struct rxe_cc_dcqcn_ev *ev)
{
	u64 period_ns = us_to_ns(p->rpg_time_reset_us);
	u32 budget = RXE_CC_DCQCN_MAX_CATCHUP_EVENTS;

	while (rp->limited && rp->inc_next_ns <= until_ns) {
		if (at_max_rate(rp, p) || !budget--) {
			/* Nothing left to gain: skip the rest in O(1). */
			rp->inc_next_ns += period_ns *
				(div64_u64(until_ns - rp->inc_next_ns,
					   period_ns) + 1);
			break;
		}
		rp->inc_next_ns += period_ns;
		rp->time_stage = sat_inc(rp->time_stage);
		rate_increase(rp, p, ev);
	}
}

/*
 * Bring the lazy timers up to @now_ns in time order: increase events due
 * before a pending decrease happen before it, the decrease restarts them.
 */
static u32 advance(struct rxe_cc_dcqcn_rp *rp,
		   const struct rxe_cc_dcqcn_params *p, u64 now_ns,
		   struct rxe_cc_dcqcn_ev *ev)
{
	u32 flags = 0;

	if (rp->cnp_pending) {
		u64 dec_ns = rp->last_dec_ns +
			     us_to_ns(p->rate_reduce_monitor_period_us);

		if (dec_ns <= now_ns) {
			timer_increases(rp, p, dec_ns - 1, ev);
			flags |= rate_decrease(rp, p, dec_ns);
		}
	}
	timer_increases(rp, p, now_ns, ev);
	alpha_advance(rp, p, now_ns);
	return flags;
}

static u32 first_cnp(struct rxe_cc_dcqcn_rp *rp,
		     const struct rxe_cc_dcqcn_params *p, u64 now_ns)
{
	rp->limited = true;
	rp->alpha_q20 = alpha_from_knob(p->initial_alpha_value);
	rp->cnp_in_alpha_period = false;
	rp->alpha_next_ns = now_ns + us_to_ns(p->dce_tcp_rtt_us);
	if (!p->rate_to_set_on_first_cnp_kbps)
		return rate_decrease(rp, p, now_ns);
	rp->rc_bps = clamp_rate(p, kbps_to_bps(p->rate_to_set_on_first_cnp_kbps));
	rp->rt_bps = rp->rc_bps;
	restart_recovery(rp, p, now_ns);
	return RXE_CC_DCQCN_EV_DECREASE;
}

static u32 rxe_cc_dcqcn_on_cnp(struct rxe_cc_dcqcn_rp *rp,
			const struct rxe_cc_dcqcn_params *p, u64 now_ns,
			struct rxe_cc_dcqcn_ev *ev)
{
	u64 monitor_ns = us_to_ns(p->rate_reduce_monitor_period_us);
	u32 flags;

	ev_begin(ev, rp);
	flags = advance(rp, p, now_ns, ev);
	if (!rp->limited) {
		rp->stats.cnp_handled++;
		flags |= first_cnp(rp, p, now_ns);
		flags |= RXE_CC_DCQCN_EV_FIRST_CNP | RXE_CC_DCQCN_EV_CNP_HANDLED;
		return ev_end(ev, rp, flags);
	}
	rp->cnp_in_alpha_period = true;
	if (rp->cnp_pending) {
		rp->stats.cnp_ignored++;
		return ev_end(ev, rp, flags | RXE_CC_DCQCN_EV_CNP_IGNORED);
	}
	rp->stats.cnp_handled++;
	flags |= RXE_CC_DCQCN_EV_CNP_HANDLED;
	if (now_ns >= rp->last_dec_ns + monitor_ns)
		flags |= rate_decrease(rp, p, now_ns);
	else
		rp->cnp_pending = true;
	return ev_end(ev, rp, flags);
}

static u32 rxe_cc_dcqcn_on_bytes_sent(struct rxe_cc_dcqcn_rp *rp,
			       const struct rxe_cc_dcqcn_params *p, u32 bytes,
			       u64 now_ns, struct rxe_cc_dcqcn_ev *ev)
{
	u32 reset = p->rpg_byte_reset_bytes;
	u32 budget = RXE_CC_DCQCN_MAX_CATCHUP_EVENTS;
	u32 flags;

	ev_begin(ev, rp);
	flags = advance(rp, p, now_ns, ev);
	if (!rp->limited || !reset)
		return ev_end(ev, rp, flags);
	rp->bytes_since_inc += bytes;
	while (rp->bytes_since_inc >= reset) {
		if (at_max_rate(rp, p) || !budget--) {
			rp->bytes_since_inc = 0;
			break;
		}
		rp->bytes_since_inc -= reset;
		rp->byte_stage = sat_inc(rp->byte_stage);
		rate_increase(rp, p, ev);
	}
	return ev_end(ev, rp, flags);
}

static u32 rxe_cc_dcqcn_on_timer(struct rxe_cc_dcqcn_rp *rp,
			  const struct rxe_cc_dcqcn_params *p, u64 now_ns,
			  struct rxe_cc_dcqcn_ev *ev)
{
	u32 flags;

	ev_begin(ev, rp);
	flags = advance(rp, p, now_ns, ev);
	return ev_end(ev, rp, flags);
}

/*
 * The next time on_timer() has work: a deferred decrease or an increase
 * event.  alpha needs no timer (it is evaluated lazily, see above).
 */
static u64 rxe_cc_dcqcn_next_timer_ns(const struct rxe_cc_dcqcn_rp *rp,
			       const struct rxe_cc_dcqcn_params *p)
{
	u64 next = RXE_CC_NEVER_NS;

	if (rp->cnp_pending)
		next = rp->last_dec_ns +
		       us_to_ns(p->rate_reduce_monitor_period_us);
	if (rp->limited && !at_max_rate(rp, p))
		next = min(next, rp->inc_next_ns);
	return next;
}

/*
 * The ops table: how a host drives the core.  Rates are kept in kb/s, as
 * the mlx5 knobs count them in Mb/s: a scaled test bed needs the finer
 * unit.
 */

static void dcqcn_params_default(void *params)
{
	rxe_cc_dcqcn_params_default(params);
}

/* The knobs as written: checked against the fastest line they may meet. */
static int dcqcn_params_check(const void *params)
{
	struct rxe_cc_dcqcn_params p =
		*(const struct rxe_cc_dcqcn_params *)params;

	p.line_rate_kbps = RXE_CC_DCQCN_MAX_RATE_KBPS;
	return rxe_cc_dcqcn_params_check(&p);
}

/*
 * The knobs with this flow's line rate.  Rates above it (a 50 Mb/s hyper
 * step on a 20 Mb/s link, a floor set for a faster port) are clamped to
 * it, so that the floor never exceeds the cap.
 */
static void dcqcn_derive(const struct rxe_cc_sender *s, const void *knobs,
			 void *params)
{
	u32 line = max_t(u32, div64_u64(s->line_rate_bps, RXE_CC_DCQCN_KBPS), 1);
	struct rxe_cc_dcqcn_params *p = params;

	*p = *(const struct rxe_cc_dcqcn_params *)knobs;
	p->line_rate_kbps = line;
	p->rpg_min_rate_kbps = min(p->rpg_min_rate_kbps, line);
	p->rpg_max_rate_kbps = min(p->rpg_max_rate_kbps, line);
	p->rpg_ai_rate_kbps = min(p->rpg_ai_rate_kbps, line);
	p->rpg_hai_rate_kbps = min(p->rpg_hai_rate_kbps, line);
	p->rate_to_set_on_first_cnp_kbps =
		min(p->rate_to_set_on_first_cnp_kbps, line);
}

static void dcqcn_ops_init(struct rxe_cc_sender *s, u64 now_ns)
{
	rxe_cc_dcqcn_init(s->priv, s->params, now_ns);
}

/* The byte counter, and the timers it catches up, may raise the rate. */
static bool dcqcn_on_xmit(struct rxe_cc_sender *s, u32 bytes, u64 now_ns)
{
	rxe_cc_dcqcn_on_bytes_sent(s->priv, s->params, bytes, now_ns, NULL);
	return true;
}

static void dcqcn_on_cnp(struct rxe_cc_sender *s, u64 now_ns)
{
	struct rxe_cc_dcqcn_ev ev;
	u32 flags;

	flags = rxe_cc_dcqcn_on_cnp(s->priv, s->params, now_ns, &ev);
	s->events |= flags & RXE_CC_DCQCN_EV_CNP_IGNORED ?
		     RXE_CC_EV_CNP_IGNORED : RXE_CC_EV_CNP_HANDLED;
	s->report.alpha = ev.alpha;
}

static void dcqcn_on_timer(struct rxe_cc_sender *s, u64 now_ns)
{
	rxe_cc_dcqcn_on_timer(s->priv, s->params, now_ns, NULL);
}

/* The cap holds at once when a knob lowers it, not at the next event. */
static u64 dcqcn_ops_rate_bps(struct rxe_cc_sender *s, u64 now_ns)
{
	(void)now_ns;
	return min(rxe_cc_dcqcn_rate_bps(s->priv),
		   rxe_cc_dcqcn_max_rate_bps(s->params));
}

static u64 dcqcn_ops_next_timer_ns(struct rxe_cc_sender *s)
{
	return rxe_cc_dcqcn_next_timer_ns(s->priv, s->params);
}

static const char *const dcqcn_stat_names[] = {
	"dcqcn_target_bps",
	"dcqcn_alpha",
	"dcqcn_time_stage",
	"dcqcn_byte_stage",
	"dcqcn_cnp_handled",
};

static void dcqcn_stats(const struct rxe_cc_sender *s, u64 *v)
{
	const struct rxe_cc_dcqcn_rp *rp = s->priv;

	*v++ = rp->rt_bps;
	*v++ = rxe_cc_dcqcn_alpha(rp);
	*v++ = rp->time_stage;
	*v++ = rp->byte_stage;
	*v = rp->stats.cnp_handled;
}

#define DCQCN_KNOB(_name, _field, _unit, _min, _max)			\
	RXE_CC_KNOB_ROW(struct rxe_cc_dcqcn_params, _name, _field, _unit, \
			1, _min, _max, 0)

/*
 * mlx5's names.  Its rate knobs count Mb/s; ours count kb/s and say so
 * (rxe-cc takes the mlx5 names in Mb/s too).
 */
static const struct rxe_cc_knob dcqcn_knobs[] = {
	DCQCN_KNOB("rpg_ai_rate_kbps", rpg_ai_rate_kbps, "kb/s",
		   1, RXE_CC_DCQCN_MAX_RATE_KBPS),
	DCQCN_KNOB("rpg_hai_rate_kbps", rpg_hai_rate_kbps, "kb/s",
		   1, RXE_CC_DCQCN_MAX_RATE_KBPS),
	DCQCN_KNOB("rpg_time_reset", rpg_time_reset_us, "us",
		   1, DCQCN_MAX_TIME_US),
	DCQCN_KNOB("rpg_byte_reset", rpg_byte_reset_bytes, "bytes",
		   0, DCQCN_MAX_BYTE_RESET_BYTES),
	DCQCN_KNOB("rpg_threshold", rpg_threshold, "", 1, DCQCN_MAX_THRESHOLD),
	DCQCN_KNOB("rpg_min_rate_kbps", rpg_min_rate_kbps, "kb/s",
		   1, RXE_CC_DCQCN_MAX_RATE_KBPS),
	DCQCN_KNOB("rpg_max_rate_kbps", rpg_max_rate_kbps, "kb/s",
		   0, RXE_CC_DCQCN_MAX_RATE_KBPS),
	DCQCN_KNOB("rpg_min_dec_fac", rpg_min_dec_fac_pct, "%", 1, 100),
	DCQCN_KNOB("rpg_gd", rpg_gd, "", 1, DCQCN_MAX_GD),
	DCQCN_KNOB("dce_tcp_g", dce_tcp_g, "/1024", 0, RXE_CC_DCQCN_ALPHA_MAX),
	DCQCN_KNOB("dce_tcp_rtt", dce_tcp_rtt_us, "us", 1, DCQCN_MAX_TIME_US),
	DCQCN_KNOB("rate_reduce_monitor_period", rate_reduce_monitor_period_us,
		   "us", 0, DCQCN_MAX_TIME_US),
	DCQCN_KNOB("initial_alpha_value", initial_alpha_value, "/1024",
		   0, RXE_CC_DCQCN_ALPHA_MAX),
	DCQCN_KNOB("rate_to_set_on_first_cnp_kbps",
		   rate_to_set_on_first_cnp_kbps, "kb/s",
		   0, RXE_CC_DCQCN_MAX_RATE_KBPS),
	DCQCN_KNOB("clamp_tgt_rate", clamp_tgt_rate, "", 0, 1),
};

const struct rxe_cc_ops rxe_cc_dcqcn_ops = {
	.name		= "dcqcn",
	.priv_size	= sizeof(struct rxe_cc_dcqcn_rp),
	.params_size	= sizeof(struct rxe_cc_dcqcn_params),
	.ack_req_every	= 0,	/* stock: DCQCN does not need the ACK clock */
	.knobs		= dcqcn_knobs,
	.n_knobs	= ARRAY_SIZE(dcqcn_knobs),
	.stat_names	= dcqcn_stat_names,
	.n_stats	= ARRAY_SIZE(dcqcn_stat_names),
	.params_default	= dcqcn_params_default,
	.params_check	= dcqcn_params_check,
	.derive		= dcqcn_derive,
	.init		= dcqcn_ops_init,
	.on_xmit	= dcqcn_on_xmit,
	.on_cnp		= dcqcn_on_cnp,
	.on_timer	= dcqcn_on_timer,
	.rate_bps	= dcqcn_ops_rate_bps,
	.next_timer_ns	= dcqcn_ops_next_timer_ns,
	.stats		= dcqcn_stats,
};

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_timely.c - TIMELY (Mittal et al., SIGCOMM'15), sender side.
 *
 * At most once per min_rtt (the paper updates per completion event, which
 * for a paced RDMA flow is about one RTT), with the latest RTT sample:
 *
 *	diff     = rtt - prev_rtt;  rtt_diff = (1 - a) rtt_diff + a diff
 *	gradient = rtt_diff / min_rtt
 *	rtt < T_low              R += delta
 *	rtt > T_high             R *= 1 - beta (1 - T_high / rtt)
 *	gradient <= 0            R += delta, or 5 delta after N such updates
 *	gradient > 0             R *= 1 - beta * min(gradient, 1)
 *
 * R stays in [min_rate, line].  The gradient is capped at 1 so that one
 * sample never cuts more than beta (the paper's rule would go negative).
 *
 * Units and overflow: rates u64 bps <= 1.6e12, times u64 ns <= 1 s, gains
 * of 2^10.  R * gain < 1.6e12 * 2^10 < 2^41; rtt_diff is a difference of
 * two RTTs <= 1 s, times a gain < 2^40; all products fit in 64 bits.
 */
#include "rxe_cc_timely.h"

#define TIMELY_HAI_MULT		5U

void rxe_cc_timely_params_default(struct rxe_cc_timely_params *p)
{
	*p = (struct rxe_cc_timely_params){
		.line_rate_bps = 100ULL * 1000 * 1000 * 1000,
		.min_rate_bps = 10ULL * 1000 * 1000,
		.add_step_bps = 100ULL * 1000 * 1000,	/* 0.1 % of 100G */
		.t_low_ns = 20 * NSEC_PER_USEC,
		.t_high_ns = 100 * NSEC_PER_USEC,
		.min_rtt_ns = 10 * NSEC_PER_USEC,
		.ewma_alpha = RXE_CC_TIMELY_ONE * 7 / 8,	/* 0.875 */
		.beta = RXE_CC_TIMELY_ONE * 8 / 10,		/* 0.8 */
		.hai_thresh = 5,
	};
}

int rxe_cc_timely_params_check(const struct rxe_cc_timely_params *p)
{
	if (p->line_rate_bps < 1000 ||
	    p->line_rate_bps > RXE_CC_TIMELY_MAX_RATE_BPS ||
	    p->min_rate_bps < 1000 || p->min_rate_bps > p->line_rate_bps ||
	    !p->add_step_bps || p->add_step_bps > p->line_rate_bps ||
	    !p->min_rtt_ns || p->min_rtt_ns > RXE_CC_TIMELY_MAX_RTT_NS ||
	    p->t_low_ns > p->t_high_ns ||
	    p->t_high_ns > RXE_CC_TIMELY_MAX_RTT_NS ||
	    p->ewma_alpha > RXE_CC_TIMELY_ONE ||
	    !p->beta || p->beta > RXE_CC_TIMELY_ONE || !p->hai_thresh)
		return -1;
	return 0;
}

void rxe_cc_timely_init(struct rxe_cc_timely *st,
			const struct rxe_cc_timely_params *p, u64 now_ns)
{
	*st = (struct rxe_cc_timely){
		.rate_bps = p->line_rate_bps,
		.next_update_ns = now_ns,
	};
}

static u64 timely_add(u64 rate, u64 step, const struct rxe_cc_timely_params *p)
{
	return min_t(u64, rate + step, p->line_rate_bps);
}

/* R * (ONE - cut) / ONE, cut in [0, ONE], floored at min_rate. */
static u64 timely_cut(u64 rate, u64 cut, const struct rxe_cc_timely_params *p)
{
	u64 r = rate * (RXE_CC_TIMELY_ONE - cut) >> RXE_CC_TIMELY_SHIFT;

	return max_t(u64, r, p->min_rate_bps);
}

bool rxe_cc_timely_on_ack(struct rxe_cc_timely *st,
			  const struct rxe_cc_timely_params *p, u32 bytes,
			  u64 rtt_ns, u64 now_ns)
{
	s64 diff, grad;

	(void)bytes;
	rtt_ns = min_t(u64, rtt_ns, RXE_CC_TIMELY_MAX_RTT_NS);
	if (!st->prev_rtt_ns) {
		st->prev_rtt_ns = rtt_ns;
		return false;
	}
	if (now_ns < st->next_update_ns)
		return false;
	st->next_update_ns = now_ns + p->min_rtt_ns;
	diff = (s64)rtt_ns - (s64)st->prev_rtt_ns;
	st->prev_rtt_ns = rtt_ns;
	st->rtt_diff_ns = (st->rtt_diff_ns *
			   (s64)(RXE_CC_TIMELY_ONE - p->ewma_alpha) +
			   diff * (s64)p->ewma_alpha) / (s64)RXE_CC_TIMELY_ONE;

	if (rtt_ns < p->t_low_ns) {
		st->neg_run = 0;
		st->rate_bps = timely_add(st->rate_bps, p->add_step_bps, p);
		return true;
	}
	if (rtt_ns > p->t_high_ns) {
		u64 frac = RXE_CC_TIMELY_ONE -
			   div64_u64(p->t_high_ns << RXE_CC_TIMELY_SHIFT,
				     rtt_ns);

		st->neg_run = 0;
		st->rate_bps = timely_cut(st->rate_bps,
					  p->beta * frac >> RXE_CC_TIMELY_SHIFT,
					  p);
		return true;
	}
	/* gradient of ONE: rtt_diff / min_rtt, capped at 1 */
	grad = st->rtt_diff_ns * (s64)RXE_CC_TIMELY_ONE / (s64)p->min_rtt_ns;
	if (grad <= 0) {
		u64 step = p->add_step_bps;

		if (++st->neg_run >= p->hai_thresh)
			step *= TIMELY_HAI_MULT;
		st->rate_bps = timely_add(st->rate_bps, step, p);
		return true;
	}
	st->neg_run = 0;
	grad = min_t(s64, grad, RXE_CC_TIMELY_ONE);
	st->rate_bps = timely_cut(st->rate_bps,
				  p->beta * (u64)grad >> RXE_CC_TIMELY_SHIFT, p);
	return true;
}

u64 rxe_cc_timely_rate_bps(const struct rxe_cc_timely *st)
{
	return st->rate_bps;
}

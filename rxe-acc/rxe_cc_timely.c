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
 * In the module an RTT sample is the time from the send of the newest
 * packet an ACK covers to the ACK (none for a retransmitted one), and the
 * sender asks for an ACK every RXE_CC_TIMELY_ACK_EVERY packets: the
 * paper's completion event, for 16 KB segments at a 1 KB MTU (the paper
 * used 16-64 KB; our choice).
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
	    !p->beta || p->beta > RXE_CC_TIMELY_ONE || !p->hai_thresh ||
	    p->hai_thresh > RXE_CC_TIMELY_MAX_HAI_THRESH)
		return -EINVAL;
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
	st->rtt_diff_ns = div64_s64(st->rtt_diff_ns *
				    (s64)(RXE_CC_TIMELY_ONE - p->ewma_alpha) +
				    diff * (s64)p->ewma_alpha,
				    RXE_CC_TIMELY_ONE);

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
	grad = div64_s64(st->rtt_diff_ns * (s64)RXE_CC_TIMELY_ONE,
			 (s64)p->min_rtt_ns);
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

/* The ops table: how a host drives the core. */

static void timely_params_default(void *params)
{
	rxe_cc_timely_params_default(params);
}

/* The knobs as written: checked against the fastest line they may meet. */
static int timely_params_check(const void *params)
{
	struct rxe_cc_timely_params p =
		*(const struct rxe_cc_timely_params *)params;

	p.line_rate_bps = RXE_CC_TIMELY_MAX_RATE_BPS;
	return rxe_cc_timely_params_check(&p);
}

/* The knobs with this flow's line rate; rates above it are clamped. */
static void timely_derive(const struct rxe_cc_sender *s, const void *knobs,
			  void *params)
{
	struct rxe_cc_timely_params *p = params;
	u64 line = s->line_rate_bps;

	*p = *(const struct rxe_cc_timely_params *)knobs;
	p->line_rate_bps = line;
	p->min_rate_bps = min(p->min_rate_bps, line);
	p->add_step_bps = min(p->add_step_bps, line);
}

static void timely_ops_init(struct rxe_cc_sender *s, u64 now_ns)
{
	rxe_cc_timely_init(s->priv, s->params, now_ns);
}

/* An ACK without an RTT sample (a retransmitted packet's) says nothing. */
static void timely_on_ack(struct rxe_cc_sender *s,
			  const struct rxe_cc_ack *ack, u64 now_ns)
{
	if (ack->rtt_ns)
		rxe_cc_timely_on_ack(s->priv, s->params, ack->bytes,
				     ack->rtt_ns, now_ns);
}

static u64 timely_ops_rate_bps(struct rxe_cc_sender *s, u64 now_ns)
{
	(void)now_ns;
	return rxe_cc_timely_rate_bps(s->priv);
}

static const char *const timely_stat_names[] = {
	"timely_prev_rtt_ns",
	"timely_gradient_neg_run",
};

static void timely_stats(const struct rxe_cc_sender *s, u64 *v)
{
	const struct rxe_cc_timely *st = s->priv;

	v[0] = st->prev_rtt_ns;
	v[1] = st->neg_run;
}

#define TIMELY_KNOB(_name, _field, _unit, _scale, _min, _max)		\
	RXE_CC_KNOB_ROW(struct rxe_cc_timely_params, _name, _field, _unit, \
			_scale, _min, _max, 0)
#define TIMELY_MAX_KBPS	(RXE_CC_TIMELY_MAX_RATE_BPS / 1000)
#define TIMELY_MAX_US	(RXE_CC_TIMELY_MAX_RTT_NS / NSEC_PER_USEC)

static const struct rxe_cc_knob timely_knobs[] = {
	TIMELY_KNOB("timely_t_low_us", t_low_ns, "us", NSEC_PER_USEC,
		    0, TIMELY_MAX_US),
	TIMELY_KNOB("timely_t_high_us", t_high_ns, "us", NSEC_PER_USEC,
		    0, TIMELY_MAX_US),
	TIMELY_KNOB("timely_min_rtt_us", min_rtt_ns, "us", NSEC_PER_USEC,
		    1, TIMELY_MAX_US),
	TIMELY_KNOB("timely_add_step_kbps", add_step_bps, "kb/s", 1000,
		    1, TIMELY_MAX_KBPS),
	TIMELY_KNOB("timely_min_rate_kbps", min_rate_bps, "kb/s", 1000,
		    1, TIMELY_MAX_KBPS),
	TIMELY_KNOB("timely_ewma_alpha", ewma_alpha, "/1024", 1,
		    0, RXE_CC_TIMELY_ONE),
	TIMELY_KNOB("timely_beta", beta, "/1024", 1, 1, RXE_CC_TIMELY_ONE),
	TIMELY_KNOB("timely_hai_thresh", hai_thresh, "", 1,
		    1, RXE_CC_TIMELY_MAX_HAI_THRESH),
};

const struct rxe_cc_ops rxe_cc_timely_ops = {
	.name		= "timely",
	.priv_size	= sizeof(struct rxe_cc_timely),
	.params_size	= sizeof(struct rxe_cc_timely_params),
	.ack_req_every	= RXE_CC_TIMELY_ACK_EVERY,
	.knobs		= timely_knobs,
	.n_knobs	= ARRAY_SIZE(timely_knobs),
	.stat_names	= timely_stat_names,
	.n_stats	= ARRAY_SIZE(timely_stat_names),
	.params_default	= timely_params_default,
	.params_check	= timely_params_check,
	.derive		= timely_derive,
	.init		= timely_ops_init,
	.on_ack		= timely_on_ack,
	.rate_bps	= timely_ops_rate_bps,
	.stats		= timely_stats,
};

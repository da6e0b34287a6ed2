// SPDX-License-Identifier: GPL-2.0
/* lsw_mark.c - RED and TCD marking decisions; see lsw_mark.h. */
#include <string.h>

#include "lsw_mark.h"
#include "lsw_rng.h"

#define NS_PER_S 1000000000ULL
#define TCD_NEVER UINT64_MAX

void lsw_red_init(struct lsw_red *red, uint64_t kmin_bytes, uint64_t kmax_bytes,
		  double pmax)
{
	red->kmin_bytes = kmin_bytes;
	red->kmax_bytes = kmax_bytes;
	if (pmax < 0)
		pmax = 0;
	if (pmax > 1)
		pmax = 1;
	red->pmax_fx = (uint64_t)(pmax * (double)LSW_RED_PROB_ONE);
}

uint64_t lsw_red_prob(const struct lsw_red *red, uint64_t q_bytes)
{
	if (q_bytes <= red->kmin_bytes)
		return 0;
	if (q_bytes > red->kmax_bytes)
		return LSW_RED_PROB_ONE;
	/* Config caps queue sizes at 2^31 bytes, so this fits in 64 bits. */
	return red->pmax_fx * (q_bytes - red->kmin_bytes) /
	       (red->kmax_bytes - red->kmin_bytes);
}

bool lsw_red_mark(const struct lsw_red *red, uint64_t q_bytes, uint64_t *rng)
{
	uint64_t p = lsw_red_prob(red, q_bytes);

	if (p == 0)
		return false;
	return (lsw_rng_next(rng) >> 32) < p;
}

void lsw_tcd_init(struct lsw_tcd *t, uint64_t threshold_bytes,
		  uint64_t period_ns, uint64_t max_ton_ns, uint64_t now_ns)
{
	*t = (struct lsw_tcd){
		.state = LSW_TCD_NO,
		.t_on_start_ns = now_ns,
		.next_check_ns = now_ns + period_ns,
		.low_bytes = 2048,
		.threshold_bytes = threshold_bytes,
		.period_ns = period_ns ? period_ns : 1,
		.max_ton_ns = max_ton_ns,
	};
	lsw_red_init(&t->ce, threshold_bytes, threshold_bytes, 1.0);
}

void lsw_tcd_set_rule(struct lsw_tcd *t, enum lsw_tcd_rule rule,
		      uint64_t kmax_bytes, double pmax, uint64_t mtu_bytes)
{
	uint64_t k = t->threshold_bytes;

	t->rule = rule;
	if (kmax_bytes > k)
		lsw_red_init(&t->ce, k, kmax_bytes, pmax);
	else
		lsw_red_init(&t->ce, k, k, 1.0);
	t->low_bytes = 2 * mtu_bytes;
}

static const char *const rule_names[] = { "dequeue", "period" };

const char *lsw_tcd_rule_name(enum lsw_tcd_rule rule)
{
	return (unsigned int)rule < 2 ? rule_names[rule] : "?";
}

int lsw_tcd_parse_rule(const char *s, enum lsw_tcd_rule *rule)
{
	for (int i = 0; i < 2; i++) {
		if (!strcmp(s, rule_names[i])) {
			*rule = (enum lsw_tcd_rule)i;
			return 0;
		}
	}
	return -1;
}

uint64_t lsw_tcd_max_ton_ns(uint64_t xoff_minus_xon_bytes, double epsilon,
			    uint64_t rate_bps, uint64_t mtu_bytes,
			    uint64_t delay_ns)
{
	double c = (double)rate_bps;
	double fill_s = (double)xoff_minus_xon_bytes * 8 / (epsilon * c);
	double tau_s = 2.0 * (double)mtu_bytes * 8 / c;

	return (uint64_t)((fill_s + tau_s) * NS_PER_S) + 2 * delay_ns;
}

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * DEQUEUE rule, a boundary of the trend check after UE: a queue that rose
 * is the port's own congestion; one that fell or stayed is still draining
 * what the pause left, until it is nearly empty.  Held while paused.
 */
static void tcd_check_trend(struct lsw_tcd *t, uint64_t q)
{
	if (!t->paused) {
		if (q <= t->low_bytes)
			t->state = LSW_TCD_NO;
		else if (q > t->q_prev_bytes)
			t->state = LSW_TCD_CE;
	}
	t->q_prev_bytes = q;
	t->next_check_ns += t->period_ns;
}

/* One period boundary with queue q. */
static void tcd_check(struct lsw_tcd *t, uint64_t q)
{
	bool above = q > t->threshold_bytes;

	if (t->rule == LSW_TCD_RULE_DEQUEUE) {
		tcd_check_trend(t, q);
		return;
	}
	if (t->state == LSW_TCD_TREND)
		t->state = (q >= t->q_prev_bytes && above) ? LSW_TCD_CE : LSW_TCD_NO;
	else if (!t->paused)
		t->state = (above && q >= t->q_prev_bytes) ? LSW_TCD_CE : LSW_TCD_NO;
	t->q_prev_bytes = q;
	t->next_check_ns += t->period_ns;
}

/* Leaving UE after max(T_on) of ON, with queue q. */
static void tcd_leave_ue(struct lsw_tcd *t, uint64_t q, uint64_t at_ns)
{
	if (t->rule == LSW_TCD_RULE_DEQUEUE && q >= t->q_resume_bytes) {
		/* Grew while ON: no trend to wait for. */
		t->state = LSW_TCD_NO;
		return;
	}
	t->state = LSW_TCD_TREND;
	t->q_prev_bytes = q;
	t->next_check_ns = at_ns + t->period_ns;
}

/*
 * ON again.  With the DEQUEUE rule a resumed port is UE until it has been
 * ON for max(T_on), as the TCD authors' simulator marks UE for an interval
 * after every resume: until then nobody can tell a port in the ON-OFF
 * pattern from one that was paused once.
 */
static void tcd_resume(struct lsw_tcd *t, uint64_t q, uint64_t at_ns)
{
	t->paused = false;
	t->t_on_start_ns = at_ns;
	t->q_resume_bytes = q;
	if (t->rule == LSW_TCD_RULE_DEQUEUE)
		t->state = LSW_TCD_UE;
}

static void skip_boundaries(struct lsw_tcd *t, uint64_t now_ns)
{
	if (t->next_check_ns <= now_ns)
		t->next_check_ns +=
			((now_ns - t->next_check_ns) / t->period_ns + 1) *
			t->period_ns;
}

void lsw_tcd_catch_up(struct lsw_tcd *t, uint64_t q, uint64_t now_ns)
{
	bool dequeue = t->rule == LSW_TCD_RULE_DEQUEUE;

	for (;;) {
		uint64_t t_exp = t->paused ? t->paused_until_ns : TCD_NEVER;
		uint64_t t_ue = (t->state == LSW_TCD_UE && !t->paused) ?
					t->t_on_start_ns + t->max_ton_ns :
					TCD_NEVER;
		/* DEQUEUE needs boundaries only for the trend check. */
		bool checks = t->state != LSW_TCD_UE &&
			      (!dequeue || t->state == LSW_TCD_TREND);
		uint64_t t_chk = checks ? t->next_check_ns : TCD_NEVER;
		uint64_t t_min = earliest(t_exp, earliest(t_ue, t_chk));

		if (t_min > now_ns)
			return;
		if (t_min == t_exp) {
			tcd_resume(t, q, t_exp);
		} else if (t_min == t_ue) {
			/* Left the ON-OFF pattern. */
			tcd_leave_ue(t, q, t_ue);
		} else if (dequeue) {
			tcd_check(t, q);
			/* q is constant until now: later boundaries see it
			 * unchanged, which keeps TREND as it is. */
			if (t->state == LSW_TCD_TREND && !t->paused)
				skip_boundaries(t, now_ns);
		} else {
			tcd_check(t, q);
			/* q is constant until now: the later boundaries agree. */
			if (t->next_check_ns <= now_ns && !t->paused &&
			    t->state != LSW_TCD_TREND) {
				tcd_check(t, q);
				skip_boundaries(t, now_ns);
			}
		}
	}
}

enum lsw_tcd_state lsw_tcd_dequeue(struct lsw_tcd *t, uint64_t q,
				   uint64_t now_ns, uint64_t *rng)
{
	uint64_t p;

	lsw_tcd_catch_up(t, q, now_ns);
	if (t->rule != LSW_TCD_RULE_DEQUEUE || t->state == LSW_TCD_UE)
		return t->state;
	if (t->state == LSW_TCD_TREND) {
		if (q > t->low_bytes)
			return LSW_TCD_TREND;
		t->state = LSW_TCD_NO;
	}
	p = lsw_red_prob(&t->ce, q);
	if (p >= LSW_RED_PROB_ONE)
		t->state = LSW_TCD_CE;
	else if (p == 0)
		t->state = LSW_TCD_NO;
	else
		t->state = (lsw_rng_next(rng) >> 32) < p ? LSW_TCD_CE :
							   LSW_TCD_NO;
	return t->state;
}

void lsw_tcd_on_pfc(struct lsw_tcd *t, uint64_t q, uint64_t pause_ns,
		    uint64_t now_ns)
{
	lsw_tcd_catch_up(t, q, now_ns);
	if (pause_ns == 0) {
		if (t->paused)
			tcd_resume(t, q, now_ns);
		return;
	}
	if (!t->paused && now_ns - t->t_on_start_ns < t->max_ton_ns)
		t->state = LSW_TCD_UE;
	t->paused = true;
	t->paused_until_ns = now_ns + pause_ns;
}

uint8_t lsw_tcd_remark(enum lsw_tcd_state state, uint8_t ecn)
{
	/* Precedence CE > UE > NO along the path, not a bitwise OR. */
	if (state == LSW_TCD_CE)
		return LSW_ECN_CE;
	if (state == LSW_TCD_UE && ecn != LSW_ECN_CE)
		return LSW_ECN_ECT1;
	return ecn;
}

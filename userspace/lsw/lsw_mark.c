// SPDX-License-Identifier: GPL-2.0
/* lsw_mark.c - RED and TCD marking decisions; see lsw_mark.h. */
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
		.threshold_bytes = threshold_bytes,
		.period_ns = period_ns ? period_ns : 1,
		.max_ton_ns = max_ton_ns,
	};
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

/* One period boundary with queue q. */
static void tcd_check(struct lsw_tcd *t, uint64_t q)
{
	bool above = q > t->threshold_bytes;

	if (t->state == LSW_TCD_TREND)
		t->state = (q >= t->q_prev_bytes && above) ? LSW_TCD_CE : LSW_TCD_NO;
	else if (!t->paused)
		t->state = (above && q >= t->q_prev_bytes) ? LSW_TCD_CE : LSW_TCD_NO;
	t->q_prev_bytes = q;
	t->next_check_ns += t->period_ns;
}

void lsw_tcd_catch_up(struct lsw_tcd *t, uint64_t q, uint64_t now_ns)
{
	for (;;) {
		uint64_t t_exp = t->paused ? t->paused_until_ns : TCD_NEVER;
		uint64_t t_ue = (t->state == LSW_TCD_UE && !t->paused) ?
					t->t_on_start_ns + t->max_ton_ns :
					TCD_NEVER;
		uint64_t t_chk = t->state == LSW_TCD_UE ? TCD_NEVER :
							 t->next_check_ns;
		uint64_t t_min = earliest(t_exp, earliest(t_ue, t_chk));

		if (t_min > now_ns)
			return;
		if (t_min == t_exp) {
			t->paused = false;
			t->t_on_start_ns = t_exp;
		} else if (t_min == t_ue) {
			/* Left the ON-OFF pattern: watch the trend for one T. */
			t->state = LSW_TCD_TREND;
			t->q_prev_bytes = q;
			t->next_check_ns = t_ue + t->period_ns;
		} else {
			tcd_check(t, q);
			/* q is constant until now: the later boundaries agree. */
			if (t->next_check_ns <= now_ns && !t->paused &&
			    t->state != LSW_TCD_TREND) {
				tcd_check(t, q);
				if (t->next_check_ns <= now_ns)
					t->next_check_ns +=
						((now_ns - t->next_check_ns) /
							 t->period_ns +
						 1) * t->period_ns;
			}
		}
	}
}

void lsw_tcd_on_pfc(struct lsw_tcd *t, uint64_t q, uint64_t pause_ns,
		    uint64_t now_ns)
{
	lsw_tcd_catch_up(t, q, now_ns);
	if (pause_ns == 0) {
		if (t->paused) {
			t->paused = false;
			t->t_on_start_ns = now_ns;
		}
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

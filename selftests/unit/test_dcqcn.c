// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_dcqcn.c - DCQCN reaction and notification point against
 * hand-computed values: the alpha/2 cut, the alpha EWMA, fast recovery,
 * additive and hyper increase, timer and byte stages, the min-rate floor,
 * the max-rate cap, CNP spacing and parameter validation.
 *
 * The reaction point runs through DCQCN's ops table (rxe_cc_dcqcn_ops)
 * in the generic host (sim/src/cc_host.c), as the module runs it: knobs
 * set by their sysfs names, CNPs, sends and timers as hooks.  The core's
 * state (h.priv) is read to check it.  The notification point's
 * arithmetic is rxe_cc_echo.h's.
 */
#include <math.h>

#include "test_util.h"
#include "rxe_cc_dcqcn.h"
#include "rxe_cc_echo.h"

#define LINE_KBPS	100000000U		/* 100 Gb/s */
#define LINE_BPS	(LINE_KBPS * KBPS)
#define T_RESET_NS	(300 * NS_PER_US)	/* NVIDIA rpg_time_reset */
#define FRAME		1100U

static void params_100g(struct rxe_cc_dcqcn_params *p)
{
	rxe_cc_dcqcn_params_default(p);
	p->line_rate_kbps = LINE_KBPS;
}

/* A flow on a port of @line_bps with the default knobs; not started. */
static void host_init(struct cc_host *h, u64 line_bps)
{
	assert_int_equal(cc_host_init(h, &rxe_cc_dcqcn_ops, line_bps, 0,
				      FRAME), 0);
}

static void host_100g(struct cc_host *h)
{
	host_init(h, LINE_BPS);
}

/* The reaction point's state of the flow. */
static struct rxe_cc_dcqcn_rp *rp_of(struct cc_host *h)
{
	return (struct rxe_cc_dcqcn_rp *)h->priv;
}

/* Its knobs as the flow derived them before its last hook. */
static const struct rxe_cc_dcqcn_params *dp(const struct cc_host *h)
{
	return (const struct rxe_cc_dcqcn_params *)h->params;
}

/* Increases of @kind since the statistics @before. */
static u64 incs(const struct rxe_cc_dcqcn_rp *rp,
		const struct rxe_cc_dcqcn_stats *before,
		enum rxe_cc_dcqcn_inc kind)
{
	return rp->stats.increases[kind] - before->increases[kind];
}

static void test_defaults(void **state)
{
	struct rxe_cc_dcqcn_params p;

	(void)state;
	rxe_cc_dcqcn_params_default(&p);
	assert_int_equal(rxe_cc_dcqcn_params_check(&p), 0);
	/* NVIDIA (mlx5) firmware defaults, as the knob ABI file lists them. */
	assert_int_equal(p.rpg_ai_rate_kbps, 5000);
	assert_int_equal(p.rpg_hai_rate_kbps, 50000);
	assert_int_equal(p.rpg_time_reset_us, 300);
	assert_int_equal(p.rpg_byte_reset_bytes, 32767);
	assert_int_equal(p.rpg_threshold, 1);
	assert_int_equal(p.rpg_min_rate_kbps, 1000);
	assert_int_equal(p.rpg_max_rate_kbps, 0);
	assert_int_equal(p.rpg_min_dec_fac_pct, 50);
	assert_int_equal(p.rpg_gd, 11);
	assert_int_equal(p.dce_tcp_g, 1019);
	assert_int_equal(p.dce_tcp_rtt_us, 1);
	assert_int_equal(p.rate_reduce_monitor_period_us, 4);
	assert_int_equal(p.initial_alpha_value, 1023);
	assert_int_equal(p.rate_to_set_on_first_cnp_kbps, 0);
	assert_int_equal(p.clamp_tgt_rate, 0);
	/* the CNP gap is the receiver's (notification point's) knob now */
	assert_int_equal(RXE_CC_NP_DEF_CNP_GAP_US, 4);
}

struct bad_knob {
	size_t off;
	u32 value;
	bool ok;
};

#define KNOB(f, v, good) \
	{ offsetof(struct rxe_cc_dcqcn_params, f), (v), (good) }

static void test_params_check(void **state)
{
	const struct bad_knob knobs[] = {
		KNOB(line_rate_kbps, 0, false),
		KNOB(line_rate_kbps, RXE_CC_DCQCN_MAX_RATE_KBPS + 1, false),
		KNOB(line_rate_kbps, RXE_CC_DCQCN_MAX_RATE_KBPS, true),
		KNOB(rpg_min_rate_kbps, 0, false),
		KNOB(rpg_min_rate_kbps, LINE_KBPS + 1, false),
		KNOB(rpg_min_rate_kbps, LINE_KBPS, true),
		KNOB(rpg_max_rate_kbps, LINE_KBPS + 1, false),
		KNOB(rpg_max_rate_kbps, LINE_KBPS, true),
		KNOB(rpg_ai_rate_kbps, 0, false),
		KNOB(rpg_ai_rate_kbps, 1, true),
		KNOB(rpg_ai_rate_kbps, LINE_KBPS + 1, false),
		KNOB(rpg_hai_rate_kbps, 0, false),
		KNOB(rpg_min_rate_kbps, 1, true),
		KNOB(rpg_hai_rate_kbps, LINE_KBPS + 1, false),
		KNOB(rate_to_set_on_first_cnp_kbps, LINE_KBPS + 1, false),
		KNOB(rpg_time_reset_us, 0, false),
		KNOB(rpg_time_reset_us, 10000001, false),
		KNOB(rpg_byte_reset_bytes, 0, true),
		KNOB(rpg_byte_reset_bytes, (1U << 30) + 1, false),
		KNOB(rpg_threshold, 0, false),
		KNOB(rpg_threshold, 32, false),
		KNOB(rpg_threshold, 31, true),
		KNOB(rpg_min_dec_fac_pct, 0, false),
		KNOB(rpg_min_dec_fac_pct, 101, false),
		KNOB(rpg_min_dec_fac_pct, 100, true),
		KNOB(rpg_gd, 0, false),
		KNOB(rpg_gd, 16, false),
		KNOB(dce_tcp_g, 1024, false),
		KNOB(dce_tcp_g, 0, true),
		KNOB(dce_tcp_rtt_us, 0, false),
		KNOB(rate_reduce_monitor_period_us, 0, true),
		KNOB(rate_reduce_monitor_period_us, 10000001, false),
		KNOB(initial_alpha_value, 1024, false),
		KNOB(clamp_tgt_rate, 2, false),
	};
	struct rxe_cc_dcqcn_params p;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(knobs); i++) {
		params_100g(&p);
		*(u32 *)((char *)&p + knobs[i].off) = knobs[i].value;
		if (rxe_cc_dcqcn_params_check(&p) != (knobs[i].ok ? 0 : -22))
			fail_msg("knob #%u (offset %zu) = %u: expected %s", i,
				 knobs[i].off, knobs[i].value,
				 knobs[i].ok ? "0" : "-EINVAL");
	}
	/* Cross-field: max below min. */
	params_100g(&p);
	p.rpg_min_rate_kbps = 1000;
	p.rpg_max_rate_kbps = 999;
	assert_int_equal(rxe_cc_dcqcn_params_check(&p), -22);
}

/*
 * A 20 Mb/s test bed with mlx5's ratios at 25 Gb/s: AI 5 Mb/s -> 4 kb/s,
 * HAI 50 Mb/s -> 40 kb/s.  The kb/s knobs make the steps exact.
 */
static void test_sub_mbps_steps(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	u64 v;

	(void)state;
	host_init(&h, 20 * MBPS);
	knob(&h, "rpg_ai_rate_kbps", 4);
	knob(&h, "rpg_hai_rate_kbps", 40);
	knob(&h, "rpg_min_rate_kbps", 1);
	knob(&h, "rpg_byte_reset", 1000);
	knob(&h, "rate_to_set_on_first_cnp_kbps", 10000);
	cc_host_start(&h, 0);
	assert_int_equal(cc_host_get(&h, "rpg_min_rate_kbps", &v), 0);
	assert_int_equal(v * KBPS, 1 * KBPS);
	assert_int_equal(dp(&h)->rpg_min_rate_kbps * KBPS, 1 * KBPS);
	assert_int_equal(rxe_cc_dcqcn_max_rate_bps(dp(&h)), 20 * MBPS);
	cc_host_cnp(&h, 0);
	assert_int_equal(rp->rc_bps, 10 * MBPS);
	/* BC = 1 fast recovery, BC = 2 additive: RT + 4 kb/s. */
	cc_host_send(&h, 2000, 1000);
	assert_int_equal(rp->rt_bps, 10 * MBPS + 4 * KBPS);
	assert_int_equal(rp->rc_bps, 10 * MBPS + 2 * KBPS);
	/* T = 1, BC = 2: additive; T = 2, BC = 2: hyper, i = 1: + 40 kb/s. */
	cc_host_timer(&h, T_RESET_NS);
	assert_int_equal(rp->rt_bps, 10 * MBPS + 8 * KBPS);
	cc_host_timer(&h, 2 * T_RESET_NS);
	assert_int_equal(rp->rt_bps, 10 * MBPS + 48 * KBPS);
	assert_int_equal(rp->stats.increases[RXE_CC_DCQCN_INC_HAI], 1);
	/* A floor of 1 kb/s holds under a CNP flood. */
	knob(&h, "rpg_min_dec_fac", 1);
	knob(&h, "rpg_gd", 1);
	for (u64 t = 1; t < 200; t++)
		cc_host_cnp(&h, t * 10 * NS_PER_US);
	assert_int_equal(rp->rc_bps, 1 * KBPS);
	assert_int_equal(cc_host_rate_bps(&h, 200 * 10 * NS_PER_US), 1 * KBPS);
}

static void test_one_cnp_cuts_by_half_alpha(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	u32 f;

	(void)state;
	host_100g(&h);
	assert_int_equal(cc_host_start(&h, 0), LINE_BPS);
	assert_int_equal(cc_host_rate_bps(&h, 0), LINE_BPS);
	assert_false(rp->limited);
	f = cc_host_cnp(&h, 0);
	/* alpha = 1023/1024: RC = 1e11 - 1e11 * 1023 / 2048 (exact). */
	assert_int_equal(rp->rc_bps, 50048828125ULL);
	assert_int_equal(rp->rt_bps, LINE_BPS);
	/* the first CNP of the flow, handled: a cut from the line rate */
	assert_int_equal(f, RXE_CC_EV_CNP_HANDLED);
	assert_true(rp->limited);
	assert_int_equal(cc_host_rate_bps(&h, 0), 50048828125ULL);
	assert_int_equal(h.s.report.alpha, 1023);
	assert_int_equal(rp->stats.decreases, 1);

	/* alpha = 1/2: a quarter off. */
	knob(&h, "initial_alpha_value", 512);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	assert_int_equal(rp->rc_bps, 75 * GBPS);

	/* rpg_gd = 10 would cut by alpha: min_dec_fac keeps 50 %. */
	knob(&h, "initial_alpha_value", 1023);
	knob(&h, "rpg_gd", 10);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	assert_int_equal(rp->rc_bps, 50 * GBPS);

	/* rate_to_set_on_first_cnp replaces the cut. */
	host_100g(&h);
	knob(&h, "rate_to_set_on_first_cnp_kbps", 10000000);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	assert_int_equal(rp->rc_bps, 10 * GBPS);
	assert_int_equal(rp->rt_bps, 10 * GBPS);
}

static void test_alpha_update_exact(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	long double ref;

	(void)state;
	host_100g(&h);
	knob(&h, "rate_reduce_monitor_period", 0);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);		/* alpha = 1023 */
	cc_host_timer(&h, NS_PER_US - 1);
	assert_int_equal(rxe_cc_dcqcn_alpha(rp), 1023);
	/* One period without CNP: 1023 * 1019 / 1024 = 1018.005. */
	cc_host_timer(&h, NS_PER_US);
	assert_int_equal(rxe_cc_dcqcn_alpha(rp), 1018);
	assert_int_equal(host_stat(&h, "dcqcn_alpha"), 1018);
	/* A CNP in the next period: (1019 * 1018.005 + 5 * 1024) / 1024. */
	cc_host_cnp(&h, NS_PER_US + 500);
	cc_host_timer(&h, 2 * NS_PER_US);
	ref = (1019.0L * (1023.0L * 1019 / 1024) + 5 * 1024) / 1024;
	assert_int_equal(rxe_cc_dcqcn_alpha(rp), (u32)ref);	/* 1018 */
	/* 998 idle periods, applied lazily in one call. */
	cc_host_timer(&h, 1000 * NS_PER_US);
	ref *= powl(1019.0L / 1024, 998);
	print_message("# alpha after 998 idle periods %u, exact %.3Lf\n",
		      rxe_cc_dcqcn_alpha(rp), ref);
	assert_within_abs(rxe_cc_dcqcn_alpha(rp), ref, 1);
}

/* A CNP in one alpha period out of @every: alpha -> 1024 / every. */
static void check_alpha_tracks(u32 every)
{
	const u32 periods = 6000, warmup = 3000;
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	long double sum = 0, avg;
	u32 i;

	host_100g(&h);
	cc_host_start(&h, 0);
	for (i = 0; i < periods; i++) {
		u64 t = i * NS_PER_US;

		if (i % every == 0)
			cc_host_cnp(&h, t + 500);
		cc_host_timer(&h, t + NS_PER_US);
		if (i >= warmup)
			sum += rp->alpha_q20 /
			       (long double)(1 << RXE_CC_DCQCN_ALPHA_FRAC_SHIFT);
	}
	avg = sum / (periods - warmup);
	print_message("# CNP every %u periods: mean alpha %.2Lf of 1024\n",
		      every, avg);
	assert_within_ppm(avg, 1024.0L / every, 30000);
}

static void test_alpha_tracks_cnp_fraction(void **state)
{
	(void)state;
	check_alpha_tracks(2);
	check_alpha_tracks(4);
	check_alpha_tracks(10);
}

static void test_fast_recovery_halves_gap(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	struct rxe_cc_dcqcn_stats before;
	u64 gap;
	int k;

	(void)state;
	host_100g(&h);
	knob(&h, "rpg_threshold", 5);
	knob(&h, "rpg_byte_reset", 0);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	gap = LINE_BPS - 50048828125ULL;
	for (k = 1; k <= 5; k++) {
		before = rp->stats;
		cc_host_timer(&h, k * T_RESET_NS);
		gap /= 2;	/* RC = (RT + RC + 1) / 2 */
		assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_FR), 1);
		assert_int_equal(rp->rt_bps, LINE_BPS);
		assert_int_equal(rp->rc_bps, LINE_BPS - gap);
	}
	/* The sixth event is additive (RT already at the cap). */
	before = rp->stats;
	cc_host_timer(&h, 6 * T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_AI), 1);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_FR), 0);
	assert_int_equal(rp->rc_bps, LINE_BPS - gap / 2);
}

static void first_cnp_at_10g(struct cc_host *h, u32 byte_reset)
{
	host_100g(h);
	knob(h, "rate_to_set_on_first_cnp_kbps", 10000000);
	knob(h, "rpg_byte_reset", byte_reset);
	cc_host_start(h, 0);
	assert_int_equal(cc_host_cnp(h, 0), RXE_CC_EV_CNP_HANDLED);
	assert_int_equal(rp_of(h)->rc_bps, 10 * GBPS);
}

static void test_additive_increase_steps(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	struct rxe_cc_dcqcn_stats before;
	int k;

	(void)state;
	first_cnp_at_10g(&h, 0);		/* timer only, F = 1 */
	before = rp->stats;
	cc_host_timer(&h, T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_FR), 1);
	assert_int_equal(rp->rc_bps, 10 * GBPS);
	before = rp->stats;
	cc_host_timer(&h, 2 * T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_AI), 1);
	assert_int_equal(rp->rt_bps, 10005 * MBPS);
	assert_int_equal(rp->rc_bps, 10002500 * KBPS);
	cc_host_timer(&h, 3 * T_RESET_NS);
	assert_int_equal(rp->rt_bps, 10010 * MBPS);
	assert_int_equal(rp->rc_bps, 10006250 * KBPS);
	cc_host_timer(&h, 4 * T_RESET_NS);
	assert_int_equal(rp->rt_bps, 10015 * MBPS);
	assert_int_equal(rp->rc_bps, 10010625 * KBPS);
	/* Without a byte counter the paper's rule never reaches HAI. */
	for (k = 5; k < 200; k++)
		cc_host_timer(&h, k * T_RESET_NS);
	assert_int_equal(rp->stats.increases[RXE_CC_DCQCN_INC_HAI], 0);
	assert_int_equal(rp->stats.increases[RXE_CC_DCQCN_INC_AI], 198);
	assert_int_equal(rp->rt_bps, (10000 + 5 * 198) * MBPS);
}

static void test_hyper_increase_and_stages(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	struct rxe_cc_dcqcn_stats before;
	u64 rc, rt;

	(void)state;
	first_cnp_at_10g(&h, 1000);	/* F = 1, BC every 1000 B */
	/* 999 bytes: no byte event yet, nothing happens. */
	before = rp->stats;
	rc = rp->rc_bps;
	rt = rp->rt_bps;
	assert_int_equal(cc_host_send(&h, 999, 1000), 0);
	assert_memory_equal(&rp->stats, &before, sizeof(before));
	assert_int_equal(rp->rc_bps, rc);
	assert_int_equal(rp->rt_bps, rt);
	/* BC = 1 <= F: fast recovery (RC = RT already). */
	before = rp->stats;
	cc_host_send(&h, 1, 2000);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_FR), 1);
	assert_int_equal(rp->byte_stage, 1);
	/* BC = 2, T = 0: additive. */
	before = rp->stats;
	cc_host_send(&h, 1000, 3000);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_AI), 1);
	assert_int_equal(rp->rt_bps, 10005 * MBPS);
	assert_int_equal(rp->rc_bps, 10002500 * KBPS);
	/* T = 1, BC = 2: min is not above F: additive. */
	before = rp->stats;
	rc = rp->rc_bps;
	rt = rp->rt_bps;
	assert_int_equal(cc_host_timer(&h, T_RESET_NS - 1), 0);
	assert_memory_equal(&rp->stats, &before, sizeof(before));
	assert_int_equal(rp->rc_bps, rc);
	assert_int_equal(rp->rt_bps, rt);
	cc_host_timer(&h, T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_AI), 1);
	assert_int_equal(rp->rt_bps, 10010 * MBPS);
	assert_int_equal(rp->rc_bps, 10006250 * KBPS);
	/* T = 2, BC = 2: hyper, i = 1. */
	before = rp->stats;
	cc_host_timer(&h, 2 * T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_HAI), 1);
	assert_int_equal(rp->rt_bps, 10060 * MBPS);
	assert_int_equal(rp->rc_bps, 10033125 * KBPS);
	/* BC = 3, T = 2: hyper, i = 1. */
	cc_host_send(&h, 1000, 2 * T_RESET_NS + 1);
	assert_int_equal(rp->rt_bps, 10110 * MBPS);
	assert_int_equal(rp->rc_bps, 10071562500ULL);
	/* T = 3, BC = 3: hyper, i = 2. */
	before = rp->stats;
	cc_host_timer(&h, 3 * T_RESET_NS);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_HAI), 1);
	assert_int_equal(rp->rt_bps, 10210 * MBPS);
	assert_int_equal(rp->rc_bps, 10140781250ULL);
}

static void test_timer_events_replayed_and_restarted(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	struct rxe_cc_dcqcn_stats before;
	u64 old_rc;

	(void)state;
	first_cnp_at_10g(&h, 0);
	assert_int_equal(cc_host_next_timer_ns(&h), T_RESET_NS);
	/* Three periods elapsed before anyone looked: three events. */
	before = rp->stats;
	cc_host_timer(&h, 3 * T_RESET_NS + 7);
	assert_int_equal(incs(rp, &before, RXE_CC_DCQCN_INC_FR) +
			 incs(rp, &before, RXE_CC_DCQCN_INC_AI), 3);
	assert_int_equal(rp->time_stage, 3);
	assert_int_equal(cc_host_next_timer_ns(&h), 4 * T_RESET_NS);
	/* A decrease restarts the stages and the increase timer. */
	before = rp->stats;
	old_rc = rp->rc_bps;
	assert_int_equal(cc_host_cnp(&h, 3 * T_RESET_NS + 100),
			 RXE_CC_EV_CNP_HANDLED);
	assert_int_equal(rp->stats.decreases, before.decreases + 1);
	assert_true(rp->rc_bps < old_rc);
	assert_int_equal(rp->time_stage, 0);
	assert_int_equal(cc_host_next_timer_ns(&h), 4 * T_RESET_NS + 100);
	/* An increase happened since the last cut, so RT = old RC. */
	assert_int_equal(rp->rt_bps, old_rc);
}

static void test_decrease_once_per_monitor_period(void **state)
{
	const u64 mon_ns = 4 * NS_PER_US;
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	u64 rc1;

	(void)state;
	host_100g(&h);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	rc1 = rp->rc_bps;
	/* within the period: handled, the cut deferred to its end */
	assert_int_equal(cc_host_cnp(&h, NS_PER_US), RXE_CC_EV_CNP_HANDLED);
	assert_int_equal(rp->rc_bps, rc1);
	assert_int_equal(rp->stats.decreases, 1);
	assert_int_equal(cc_host_next_timer_ns(&h), mon_ns);
	assert_int_equal(cc_host_cnp(&h, 2 * NS_PER_US), RXE_CC_EV_CNP_IGNORED);
	assert_int_equal(cc_host_timer(&h, mon_ns - 1), 0);
	assert_int_equal(rp->rc_bps, rc1);
	assert_int_equal(rp->stats.decreases, 1);
	cc_host_timer(&h, mon_ns);
	assert_int_equal(rp->stats.decreases, 2);	/* the deferred cut */
	assert_true(rp->rc_bps < rc1);
	/* No increase between the cuts: RT keeps the pre-congestion rate. */
	assert_int_equal(rp->rt_bps, LINE_BPS);
	assert_int_equal(rp->stats.cnp_handled, 2);
	assert_int_equal(rp->stats.cnp_ignored, 1);
	assert_int_equal(rp->stats.decreases, 2);
	assert_int_equal(host_stat(&h, "dcqcn_cnp_handled"), 2);

	/* clamp_tgt_rate: every cut sets RT = RC first. */
	knob(&h, "clamp_tgt_rate", 1);
	cc_host_start(&h, 0);
	cc_host_cnp(&h, 0);
	rc1 = rp->rc_bps;
	cc_host_cnp(&h, mon_ns);
	assert_int_equal(rp->rt_bps, rc1);
}

static void test_min_rate_floor_under_cnp_flood(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	u32 monitor[] = { 4, 0 };
	unsigned int m;
	u64 t;

	(void)state;
	for (m = 0; m < 2; m++) {
		host_100g(&h);
		knob(&h, "rpg_min_rate_kbps", 100000);
		knob(&h, "rate_reduce_monitor_period", monitor[m]);
		cc_host_start(&h, 0);
		for (t = 0; t < 20 * NS_PER_MS; t += NS_PER_US) {
			cc_host_cnp(&h, t);
			cc_host_send(&h, 4096, t + 500);
			assert_true(rp->rc_bps >= 100 * MBPS);
			assert_true(rp->rt_bps >= rp->rc_bps);
		}
		assert_int_equal(rp->rc_bps, 100 * MBPS);
	}
}

static void test_max_rate_cap(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
	u64 t;

	(void)state;
	host_100g(&h);
	knob(&h, "rpg_max_rate_kbps", 40000000);
	assert_int_equal(cc_host_start(&h, 0), 40 * GBPS);
	assert_int_equal(rp->rc_bps, 40 * GBPS);
	cc_host_cnp(&h, 0);
	assert_true(rp->rc_bps < 40 * GBPS);
	for (t = NS_PER_US; t < 200 * NS_PER_MS; t += 10 * NS_PER_US) {
		cc_host_send(&h, 65536, t);
		assert_true(rp->rt_bps <= 40 * GBPS);
	}
	assert_int_equal(rp->rc_bps, 40 * GBPS);
	/* At the cap there is nothing left to time. */
	assert_int_equal(cc_host_next_timer_ns(&h), ~0ULL);
}

static void test_random_invariants(void **state)
{
	u64 seed = 20240501;
	int run, step;

	(void)state;
	for (run = 0; run < 20; run++) {
		struct cc_host h;
		struct rxe_cc_dcqcn_rp *rp = rp_of(&h);
		u64 now = prng_next(&seed) % NS_PER_SEC, lo, hi;
		u64 line_kbps, min_kbps;

		line_kbps = prng_range(&seed, 1, 400000000);
		host_init(&h, line_kbps * KBPS);
		min_kbps = prng_range(&seed, 1, line_kbps);
		knob(&h, "rpg_min_rate_kbps", min_kbps);
		knob(&h, "rpg_max_rate_kbps", prng_range(&seed, 0, 1) ? 0 :
		     prng_range(&seed, min_kbps, line_kbps));
		knob(&h, "rpg_ai_rate_kbps", prng_range(&seed, 1, line_kbps));
		knob(&h, "rpg_hai_rate_kbps", prng_range(&seed, 1, line_kbps));
		knob(&h, "rpg_threshold", prng_range(&seed, 1, 31));
		knob(&h, "rpg_gd", prng_range(&seed, 1, 15));
		knob(&h, "dce_tcp_g", prng_range(&seed, 0, 1023));
		knob(&h, "rpg_byte_reset", prng_range(&seed, 0, 100000));
		knob(&h, "rate_reduce_monitor_period",
		     prng_range(&seed, 0, 100));
		knob(&h, "rate_to_set_on_first_cnp_kbps",
		     prng_range(&seed, 0, line_kbps));
		cc_host_start(&h, now);
		lo = dp(&h)->rpg_min_rate_kbps * KBPS;
		hi = rxe_cc_dcqcn_max_rate_bps(dp(&h));
		for (step = 0; step < 5000; step++) {
			now += prng_range(&seed, 0, 50 * NS_PER_US);
			switch (prng_next(&seed) % 3) {
			case 0:
				cc_host_cnp(&h, now);
				break;
			case 1:
				cc_host_send(&h,
					prng_range(&seed, 1, 1 << 20), now);
				break;
			default:
				cc_host_timer(&h, now);
			}
			if (rp->rc_bps < lo || rp->rc_bps > rp->rt_bps ||
			    rp->rt_bps > hi || rxe_cc_dcqcn_alpha(rp) > 1023 ||
			    cc_host_rate_bps(&h, now) != rp->rc_bps)
				fail_msg("run %d step %d: rc %llu rt %llu",
					 run, step,
					 (unsigned long long)rp->rc_bps,
					 (unsigned long long)rp->rt_bps);
			assert_true(cc_host_next_timer_ns(&h) > now);
		}
	}
}

/*
 * The notification point as the receiver runs it: a CE-marked packet
 * sends a CNP if one is due, and the CNP stamps the QP's clock.
 */
static bool np_should_send_cnp(struct rxe_cc_np *np, u32 gap_us, u64 now_ns)
{
	u32 now_us = rxe_cc_np_stamp_us(now_ns);

	if (!rxe_cc_np_cnp_due(np->last_cnp_us, now_us, gap_us))
		return false;
	np->last_cnp_us = now_us;
	return true;
}

static void test_np_cnp_spacing(void **state)
{
	struct rxe_cc_np np = { 0 };
	u64 t0 = 5 * NS_PER_MS;
	u32 gap_us = 50;

	(void)state;
	assert_true(np_should_send_cnp(&np, gap_us, t0));
	assert_false(np_should_send_cnp(&np, gap_us, t0 + 10 * NS_PER_US));
	assert_false(np_should_send_cnp(&np, gap_us,
					t0 + 50 * NS_PER_US - 1));
	assert_true(np_should_send_cnp(&np, gap_us, t0 + 50 * NS_PER_US));
	assert_false(np_should_send_cnp(&np, gap_us, t0 + 99 * NS_PER_US));
	assert_true(np_should_send_cnp(&np, gap_us, t0 + 100 * NS_PER_US));
	/* 0 = one CNP per CE packet; time 0 is a valid first time. */
	gap_us = 0;
	np = (struct rxe_cc_np) { 0 };
	assert_true(np_should_send_cnp(&np, gap_us, 0));
	assert_true(np_should_send_cnp(&np, gap_us, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_params_check),
		cmocka_unit_test(test_sub_mbps_steps),
		cmocka_unit_test(test_one_cnp_cuts_by_half_alpha),
		cmocka_unit_test(test_alpha_update_exact),
		cmocka_unit_test(test_alpha_tracks_cnp_fraction),
		cmocka_unit_test(test_fast_recovery_halves_gap),
		cmocka_unit_test(test_additive_increase_steps),
		cmocka_unit_test(test_hyper_increase_and_stages),
		cmocka_unit_test(test_timer_events_replayed_and_restarted),
		cmocka_unit_test(test_decrease_once_per_monitor_period),
		cmocka_unit_test(test_min_rate_floor_under_cnp_flood),
		cmocka_unit_test(test_max_rate_cap),
		cmocka_unit_test(test_random_invariants),
		cmocka_unit_test(test_np_cnp_spacing),
	};

	return cmocka_run_group_tests_name("rxe_cc_dcqcn", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_dcqcn.c - DCQCN reaction and notification point against
 * hand-computed values: the alpha/2 cut, the alpha EWMA, fast recovery,
 * additive and hyper increase, timer and byte stages, the min-rate floor,
 * the max-rate cap, CNP spacing and parameter validation.
 */
#include <math.h>

#include "test_util.h"
#include "rxe_cc_dcqcn.h"

#define LINE_KBPS	100000000U		/* 100 Gb/s */
#define LINE_BPS	(LINE_KBPS * KBPS)
#define T_RESET_NS	(300 * NS_PER_US)	/* NVIDIA rpg_time_reset */

static void params_100g(struct rxe_cc_dcqcn_params *p)
{
	rxe_cc_dcqcn_params_default(p);
	p->line_rate_kbps = LINE_KBPS;
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
	assert_int_equal(p.min_time_between_cnps_us, 4);
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
		KNOB(min_time_between_cnps_us, 10000001, false),
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
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;

	(void)state;
	rxe_cc_dcqcn_params_default(&p);
	p.line_rate_kbps = 20000;
	p.rpg_ai_rate_kbps = 4;
	p.rpg_hai_rate_kbps = 40;
	p.rpg_min_rate_kbps = 1;
	p.rpg_byte_reset_bytes = 1000;
	p.rate_to_set_on_first_cnp_kbps = 10000;
	assert_int_equal(rxe_cc_dcqcn_params_check(&p), 0);
	assert_int_equal(rxe_cc_dcqcn_min_rate_bps(&p), 1 * KBPS);
	assert_int_equal(rxe_cc_dcqcn_max_rate_bps(&p), 20 * MBPS);
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	assert_int_equal(rp.rc_bps, 10 * MBPS);
	/* BC = 1 fast recovery, BC = 2 additive: RT + 4 kb/s. */
	rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 2000, 1000, NULL);
	assert_int_equal(rp.rt_bps, 10 * MBPS + 4 * KBPS);
	assert_int_equal(rp.rc_bps, 10 * MBPS + 2 * KBPS);
	/* T = 1, BC = 2: additive; T = 2, BC = 2: hyper, i = 1: + 40 kb/s. */
	rxe_cc_dcqcn_on_timer(&rp, &p, T_RESET_NS, NULL);
	assert_int_equal(rp.rt_bps, 10 * MBPS + 8 * KBPS);
	rxe_cc_dcqcn_on_timer(&rp, &p, 2 * T_RESET_NS, NULL);
	assert_int_equal(rp.rt_bps, 10 * MBPS + 48 * KBPS);
	assert_int_equal(rp.stats.increases[RXE_CC_DCQCN_INC_HAI], 1);
	/* A floor of 1 kb/s holds under a CNP flood. */
	p.rpg_min_dec_fac_pct = 1;
	p.rpg_gd = 1;
	for (u64 t = 1; t < 200; t++)
		rxe_cc_dcqcn_on_cnp(&rp, &p, t * 10 * NS_PER_US, NULL);
	assert_int_equal(rp.rc_bps, 1 * KBPS);
}

static void test_one_cnp_cuts_by_half_alpha(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;
	u32 f;

	(void)state;
	params_100g(&p);
	rxe_cc_dcqcn_init(&rp, &p, 0);
	assert_int_equal(rxe_cc_dcqcn_rate_bps(&rp), LINE_BPS);
	f = rxe_cc_dcqcn_on_cnp(&rp, &p, 0, &ev);
	/* alpha = 1023/1024: RC = 1e11 - 1e11 * 1023 / 2048 (exact). */
	assert_int_equal(rp.rc_bps, 50048828125ULL);
	assert_int_equal(rp.rt_bps, LINE_BPS);
	assert_int_equal(f, RXE_CC_DCQCN_EV_FIRST_CNP |
			    RXE_CC_DCQCN_EV_CNP_HANDLED |
			    RXE_CC_DCQCN_EV_DECREASE |
			    RXE_CC_DCQCN_EV_RATE_CHANGE);
	assert_int_equal(ev.old_rc_bps, LINE_BPS);
	assert_int_equal(ev.rc_bps, 50048828125ULL);
	assert_int_equal(ev.alpha, 1023);
	assert_int_equal(rp.stats.decreases, 1);

	/* alpha = 1/2: a quarter off. */
	p.initial_alpha_value = 512;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	assert_int_equal(rp.rc_bps, 75 * GBPS);

	/* rpg_gd = 10 would cut by alpha: min_dec_fac keeps 50 %. */
	p.initial_alpha_value = 1023;
	p.rpg_gd = 10;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	assert_int_equal(rp.rc_bps, 50 * GBPS);

	/* rate_to_set_on_first_cnp replaces the cut. */
	params_100g(&p);
	p.rate_to_set_on_first_cnp_kbps = 10000000;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	assert_int_equal(rp.rc_bps, 10 * GBPS);
	assert_int_equal(rp.rt_bps, 10 * GBPS);
}

static void test_alpha_update_exact(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	long double ref;

	(void)state;
	params_100g(&p);
	p.rate_reduce_monitor_period_us = 0;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);		/* alpha = 1023 */
	rxe_cc_dcqcn_on_timer(&rp, &p, NS_PER_US - 1, NULL);
	assert_int_equal(rxe_cc_dcqcn_alpha(&rp), 1023);
	/* One period without CNP: 1023 * 1019 / 1024 = 1018.005. */
	rxe_cc_dcqcn_on_timer(&rp, &p, NS_PER_US, NULL);
	assert_int_equal(rxe_cc_dcqcn_alpha(&rp), 1018);
	/* A CNP in the next period: (1019 * 1018.005 + 5 * 1024) / 1024. */
	rxe_cc_dcqcn_on_cnp(&rp, &p, NS_PER_US + 500, NULL);
	rxe_cc_dcqcn_on_timer(&rp, &p, 2 * NS_PER_US, NULL);
	ref = (1019.0L * (1023.0L * 1019 / 1024) + 5 * 1024) / 1024;
	assert_int_equal(rxe_cc_dcqcn_alpha(&rp), (u32)ref);	/* 1018 */
	/* 998 idle periods, applied lazily in one call. */
	rxe_cc_dcqcn_on_timer(&rp, &p, 1000 * NS_PER_US, NULL);
	ref *= powl(1019.0L / 1024, 998);
	print_message("# alpha after 998 idle periods %u, exact %.3Lf\n",
		      rxe_cc_dcqcn_alpha(&rp), ref);
	assert_within_abs(rxe_cc_dcqcn_alpha(&rp), ref, 1);
}

/* A CNP in one alpha period out of @every: alpha -> 1024 / every. */
static void check_alpha_tracks(u32 every)
{
	const u32 periods = 6000, warmup = 3000;
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	long double sum = 0, avg;
	u32 i;

	params_100g(&p);
	rxe_cc_dcqcn_init(&rp, &p, 0);
	for (i = 0; i < periods; i++) {
		u64 t = i * NS_PER_US;

		if (i % every == 0)
			rxe_cc_dcqcn_on_cnp(&rp, &p, t + 500, NULL);
		rxe_cc_dcqcn_on_timer(&rp, &p, t + NS_PER_US, NULL);
		if (i >= warmup)
			sum += rp.alpha_q20 /
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
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;
	u64 gap;
	int k;

	(void)state;
	params_100g(&p);
	p.rpg_threshold = 5;
	p.rpg_byte_reset_bytes = 0;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	gap = LINE_BPS - 50048828125ULL;
	for (k = 1; k <= 5; k++) {
		rxe_cc_dcqcn_on_timer(&rp, &p, k * T_RESET_NS, &ev);
		gap /= 2;	/* RC = (RT + RC + 1) / 2 */
		assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_FR], 1);
		assert_int_equal(rp.rt_bps, LINE_BPS);
		assert_int_equal(rp.rc_bps, LINE_BPS - gap);
	}
	/* The sixth event is additive (RT already at the cap). */
	rxe_cc_dcqcn_on_timer(&rp, &p, 6 * T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_AI], 1);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_FR], 0);
	assert_int_equal(rp.rc_bps, LINE_BPS - gap / 2);
}

static void first_cnp_at_10g(struct rxe_cc_dcqcn_params *p,
			     struct rxe_cc_dcqcn_rp *rp, u32 byte_reset)
{
	params_100g(p);
	p->rate_to_set_on_first_cnp_kbps = 10000000;
	p->rpg_byte_reset_bytes = byte_reset;
	rxe_cc_dcqcn_init(rp, p, 0);
	rxe_cc_dcqcn_on_cnp(rp, p, 0, NULL);
	assert_int_equal(rp->rc_bps, 10 * GBPS);
}

static void test_additive_increase_steps(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;
	int k;

	(void)state;
	first_cnp_at_10g(&p, &rp, 0);		/* timer only, F = 1 */
	rxe_cc_dcqcn_on_timer(&rp, &p, T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_FR], 1);
	assert_int_equal(rp.rc_bps, 10 * GBPS);
	rxe_cc_dcqcn_on_timer(&rp, &p, 2 * T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_AI], 1);
	assert_int_equal(rp.rt_bps, 10005 * MBPS);
	assert_int_equal(rp.rc_bps, 10002500 * KBPS);
	rxe_cc_dcqcn_on_timer(&rp, &p, 3 * T_RESET_NS, NULL);
	assert_int_equal(rp.rt_bps, 10010 * MBPS);
	assert_int_equal(rp.rc_bps, 10006250 * KBPS);
	rxe_cc_dcqcn_on_timer(&rp, &p, 4 * T_RESET_NS, NULL);
	assert_int_equal(rp.rt_bps, 10015 * MBPS);
	assert_int_equal(rp.rc_bps, 10010625 * KBPS);
	/* Without a byte counter the paper's rule never reaches HAI. */
	for (k = 5; k < 200; k++)
		rxe_cc_dcqcn_on_timer(&rp, &p, k * T_RESET_NS, NULL);
	assert_int_equal(rp.stats.increases[RXE_CC_DCQCN_INC_HAI], 0);
	assert_int_equal(rp.stats.increases[RXE_CC_DCQCN_INC_AI], 198);
	assert_int_equal(rp.rt_bps, (10000 + 5 * 198) * MBPS);
}

static void test_hyper_increase_and_stages(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;

	(void)state;
	first_cnp_at_10g(&p, &rp, 1000);	/* F = 1, BC every 1000 B */
	/* 999 bytes: no byte event yet. */
	assert_int_equal(rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 999, 1000, &ev),
			 0);
	/* BC = 1 <= F: fast recovery (RC = RT already). */
	rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 1, 2000, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_FR], 1);
	assert_int_equal(rp.byte_stage, 1);
	/* BC = 2, T = 0: additive. */
	rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 1000, 3000, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_AI], 1);
	assert_int_equal(rp.rt_bps, 10005 * MBPS);
	assert_int_equal(rp.rc_bps, 10002500 * KBPS);
	/* T = 1, BC = 2: min is not above F: additive. */
	rxe_cc_dcqcn_on_timer(&rp, &p, T_RESET_NS - 1, &ev);
	assert_int_equal(ev.flags, 0);
	rxe_cc_dcqcn_on_timer(&rp, &p, T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_AI], 1);
	assert_int_equal(rp.rt_bps, 10010 * MBPS);
	assert_int_equal(rp.rc_bps, 10006250 * KBPS);
	/* T = 2, BC = 2: hyper, i = 1. */
	rxe_cc_dcqcn_on_timer(&rp, &p, 2 * T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_HAI], 1);
	assert_int_equal(rp.rt_bps, 10060 * MBPS);
	assert_int_equal(rp.rc_bps, 10033125 * KBPS);
	/* BC = 3, T = 2: hyper, i = 1. */
	rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 1000, 2 * T_RESET_NS + 1, &ev);
	assert_int_equal(rp.rt_bps, 10110 * MBPS);
	assert_int_equal(rp.rc_bps, 10071562500ULL);
	/* T = 3, BC = 3: hyper, i = 2. */
	rxe_cc_dcqcn_on_timer(&rp, &p, 3 * T_RESET_NS, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_HAI], 1);
	assert_int_equal(rp.rt_bps, 10210 * MBPS);
	assert_int_equal(rp.rc_bps, 10140781250ULL);
}

static void test_timer_events_replayed_and_restarted(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;

	(void)state;
	first_cnp_at_10g(&p, &rp, 0);
	assert_int_equal(rxe_cc_dcqcn_next_timer_ns(&rp, &p), T_RESET_NS);
	/* Three periods elapsed before anyone looked: three events. */
	rxe_cc_dcqcn_on_timer(&rp, &p, 3 * T_RESET_NS + 7, &ev);
	assert_int_equal(ev.increases[RXE_CC_DCQCN_INC_FR] +
			 ev.increases[RXE_CC_DCQCN_INC_AI], 3);
	assert_int_equal(rp.time_stage, 3);
	assert_int_equal(rxe_cc_dcqcn_next_timer_ns(&rp, &p), 4 * T_RESET_NS);
	/* A decrease restarts the stages and the increase timer. */
	rxe_cc_dcqcn_on_cnp(&rp, &p, 3 * T_RESET_NS + 100, &ev);
	assert_true(ev.flags & RXE_CC_DCQCN_EV_DECREASE);
	assert_int_equal(rp.time_stage, 0);
	assert_int_equal(rxe_cc_dcqcn_next_timer_ns(&rp, &p),
			 4 * T_RESET_NS + 100);
	/* An increase happened since the last cut, so RT = old RC. */
	assert_int_equal(rp.rt_bps, ev.old_rc_bps);
}

static void test_decrease_once_per_monitor_period(void **state)
{
	const u64 mon_ns = 4 * NS_PER_US;
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	struct rxe_cc_dcqcn_ev ev;
	u64 rc1;

	(void)state;
	params_100g(&p);
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	rc1 = rp.rc_bps;
	assert_int_equal(rxe_cc_dcqcn_on_cnp(&rp, &p, NS_PER_US, &ev),
			 RXE_CC_DCQCN_EV_CNP_HANDLED);
	assert_int_equal(rp.rc_bps, rc1);
	assert_int_equal(rxe_cc_dcqcn_next_timer_ns(&rp, &p), mon_ns);
	assert_int_equal(rxe_cc_dcqcn_on_cnp(&rp, &p, 2 * NS_PER_US, &ev),
			 RXE_CC_DCQCN_EV_CNP_IGNORED);
	assert_int_equal(rxe_cc_dcqcn_on_timer(&rp, &p, mon_ns - 1, &ev), 0);
	rxe_cc_dcqcn_on_timer(&rp, &p, mon_ns, &ev);
	assert_true(ev.flags & RXE_CC_DCQCN_EV_DECREASE);
	assert_true(rp.rc_bps < rc1);
	/* No increase between the cuts: RT keeps the pre-congestion rate. */
	assert_int_equal(rp.rt_bps, LINE_BPS);
	assert_int_equal(rp.stats.cnp_handled, 2);
	assert_int_equal(rp.stats.cnp_ignored, 1);
	assert_int_equal(rp.stats.decreases, 2);

	/* clamp_tgt_rate: every cut sets RT = RC first. */
	p.clamp_tgt_rate = 1;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	rc1 = rp.rc_bps;
	rxe_cc_dcqcn_on_cnp(&rp, &p, mon_ns, NULL);
	assert_int_equal(rp.rt_bps, rc1);
}

static void test_min_rate_floor_under_cnp_flood(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	u32 monitor[] = { 4, 0 };
	unsigned int m;
	u64 t;

	(void)state;
	for (m = 0; m < 2; m++) {
		params_100g(&p);
		p.rpg_min_rate_kbps = 100000;
		p.rate_reduce_monitor_period_us = monitor[m];
		rxe_cc_dcqcn_init(&rp, &p, 0);
		for (t = 0; t < 20 * NS_PER_MS; t += NS_PER_US) {
			rxe_cc_dcqcn_on_cnp(&rp, &p, t, NULL);
			rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 4096, t + 500, NULL);
			assert_true(rp.rc_bps >= 100 * MBPS);
			assert_true(rp.rt_bps >= rp.rc_bps);
		}
		assert_int_equal(rp.rc_bps, 100 * MBPS);
	}
}

static void test_max_rate_cap(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_rp rp;
	u64 t;

	(void)state;
	params_100g(&p);
	p.rpg_max_rate_kbps = 40000000;
	rxe_cc_dcqcn_init(&rp, &p, 0);
	assert_int_equal(rp.rc_bps, 40 * GBPS);
	rxe_cc_dcqcn_on_cnp(&rp, &p, 0, NULL);
	assert_true(rp.rc_bps < 40 * GBPS);
	for (t = NS_PER_US; t < 200 * NS_PER_MS; t += 10 * NS_PER_US) {
		rxe_cc_dcqcn_on_bytes_sent(&rp, &p, 65536, t, NULL);
		assert_true(rp.rt_bps <= 40 * GBPS);
	}
	assert_int_equal(rp.rc_bps, 40 * GBPS);
	/* At the cap there is nothing left to time. */
	assert_int_equal(rxe_cc_dcqcn_next_timer_ns(&rp, &p), ~0ULL);
}

static void test_random_invariants(void **state)
{
	u64 seed = 20240501;
	int run, step;

	(void)state;
	for (run = 0; run < 20; run++) {
		struct rxe_cc_dcqcn_params p;
		struct rxe_cc_dcqcn_rp rp;
		u64 now = prng_next(&seed) % NS_PER_SEC, lo, hi;

		params_100g(&p);
		p.line_rate_kbps = prng_range(&seed, 1, 400000000);
		p.rpg_min_rate_kbps = prng_range(&seed, 1, p.line_rate_kbps);
		p.rpg_max_rate_kbps = prng_range(&seed, 0, 1) ? 0 :
			prng_range(&seed, p.rpg_min_rate_kbps,
				   p.line_rate_kbps);
		p.rpg_ai_rate_kbps = prng_range(&seed, 1, p.line_rate_kbps);
		p.rpg_hai_rate_kbps = prng_range(&seed, 1, p.line_rate_kbps);
		p.rpg_threshold = prng_range(&seed, 1, 31);
		p.rpg_gd = prng_range(&seed, 1, 15);
		p.dce_tcp_g = prng_range(&seed, 0, 1023);
		p.rpg_byte_reset_bytes = prng_range(&seed, 0, 100000);
		p.rate_reduce_monitor_period_us = prng_range(&seed, 0, 100);
		p.rate_to_set_on_first_cnp_kbps =
			prng_range(&seed, 0, p.line_rate_kbps);
		assert_int_equal(rxe_cc_dcqcn_params_check(&p), 0);
		lo = rxe_cc_dcqcn_min_rate_bps(&p);
		hi = rxe_cc_dcqcn_max_rate_bps(&p);
		rxe_cc_dcqcn_init(&rp, &p, now);
		for (step = 0; step < 5000; step++) {
			now += prng_range(&seed, 0, 50 * NS_PER_US);
			switch (prng_next(&seed) % 3) {
			case 0:
				rxe_cc_dcqcn_on_cnp(&rp, &p, now, NULL);
				break;
			case 1:
				rxe_cc_dcqcn_on_bytes_sent(&rp, &p,
					prng_range(&seed, 1, 1 << 20), now,
					NULL);
				break;
			default:
				rxe_cc_dcqcn_on_timer(&rp, &p, now, NULL);
			}
			if (rp.rc_bps < lo || rp.rc_bps > rp.rt_bps ||
			    rp.rt_bps > hi || rxe_cc_dcqcn_alpha(&rp) > 1023)
				fail_msg("run %d step %d: rc %llu rt %llu",
					 run, step,
					 (unsigned long long)rp.rc_bps,
					 (unsigned long long)rp.rt_bps);
			assert_true(rxe_cc_dcqcn_next_timer_ns(&rp, &p) > now);
		}
	}
}

static void test_np_cnp_spacing(void **state)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_np np;
	u64 t0 = 5 * NS_PER_MS;

	(void)state;
	params_100g(&p);
	p.min_time_between_cnps_us = 50;
	rxe_cc_dcqcn_np_init(&np);
	assert_true(rxe_cc_dcqcn_np_should_send_cnp(&np, &p, t0));
	assert_false(rxe_cc_dcqcn_np_should_send_cnp(&np, &p,
						     t0 + 10 * NS_PER_US));
	assert_false(rxe_cc_dcqcn_np_should_send_cnp(&np, &p,
						     t0 + 50 * NS_PER_US - 1));
	assert_true(rxe_cc_dcqcn_np_should_send_cnp(&np, &p,
						    t0 + 50 * NS_PER_US));
	assert_false(rxe_cc_dcqcn_np_should_send_cnp(&np, &p,
						     t0 + 99 * NS_PER_US));
	assert_true(rxe_cc_dcqcn_np_should_send_cnp(&np, &p,
						    t0 + 100 * NS_PER_US));
	/* 0 = one CNP per CE packet; time 0 is a valid first time. */
	p.min_time_between_cnps_us = 0;
	rxe_cc_dcqcn_np_init(&np);
	assert_true(rxe_cc_dcqcn_np_should_send_cnp(&np, &p, 0));
	assert_true(rxe_cc_dcqcn_np_should_send_cnp(&np, &p, 0));
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

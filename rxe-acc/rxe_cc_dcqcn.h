/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_dcqcn.h - DCQCN (SIGCOMM'15) reaction point and notification point,
 * with NVIDIA/mlx5 knob names, units and defaults.  The rules are stated in
 * the header comment of rxe_cc_dcqcn.c.
 */
#ifndef RXE_CC_DCQCN_H
#define RXE_CC_DCQCN_H

#include "rxe_cc_core.h"

/*
 * alpha is shown and configured as NVIDIA's 10-bit fixed point (1024 would
 * be 1.0, 1023 is the largest) but kept with 10 more fraction bits, so that
 * truncation does not bias the EWMA (see rxe_cc_dcqcn.c).
 */
#define RXE_CC_DCQCN_ALPHA_SHIFT	10
#define RXE_CC_DCQCN_ALPHA_ONE		BIT(RXE_CC_DCQCN_ALPHA_SHIFT)
#define RXE_CC_DCQCN_ALPHA_MAX		(RXE_CC_DCQCN_ALPHA_ONE - 1)
#define RXE_CC_DCQCN_ALPHA_FRAC_SHIFT	10	/* extra internal bits */

#define RXE_CC_DCQCN_MAX_RATE_KBPS	1600000000U	/* 1.6 Tb/s */
#define RXE_CC_DCQCN_KBPS		1000ULL		/* bps per kb/s */
#define RXE_CC_DCQCN_KBPS_PER_MBPS	1000U

/*
 * Knobs.  Names follow mlx5's cc_params (rp_* there, rpg_* in the NVIDIA
 * docs) with the unit appended.  Valid ranges are enforced by
 * rxe_cc_dcqcn_params_check(); the defaults are NVIDIA's firmware defaults.
 * Rates are kept in kb/s, not in mlx5's Mb/s: a test bed at 20 Mb/s needs
 * the mlx5 ratios (AI 5 Mb/s of 25 Gb/s is 4 kb/s of 20 Mb/s) exactly.
 */
struct rxe_cc_dcqcn_params {
	/* Increase: additive step of RT, [1, line_rate_kbps]. 5 Mb/s. */
	u32 rpg_ai_rate_kbps;
	/* Increase: hyper step of RT (times i), [1, line_rate_kbps]. 50 Mb/s. */
	u32 rpg_hai_rate_kbps;
	/* Increase timer period, [1, 10000000] us.  Default 300. */
	u32 rpg_time_reset_us;
	/* Bytes sent per byte-counter increase event, [0, 1 GiB]; 0 = off. */
	u32 rpg_byte_reset_bytes;
	/* F: fast-recovery events before additive increase, [1, 31]. 1. */
	u32 rpg_threshold;
	/* Floor of RC and RT, [1, line_rate_kbps].  Default 1 Mb/s. */
	u32 rpg_min_rate_kbps;
	/* Cap of RC and RT, [0, line_rate_kbps]; 0 = line rate.  Default 0. */
	u32 rpg_max_rate_kbps;
	/* One decrease keeps at least this % of RC, [1, 100].  Default 50. */
	u32 rpg_min_dec_fac_pct;
	/* Decrease RC by RC * alpha / 2^rpg_gd, [1, 15].  Default 11. */
	u32 rpg_gd;
	/* alpha EWMA weight G (of 1024) of the old value, [0, 1023]. 1019. */
	u32 dce_tcp_g;
	/* alpha update period, [1, 10000000] us.  Default 1. */
	u32 dce_tcp_rtt_us;
	/* Minimum time between two decreases, [0, 10000000] us.  Default 4. */
	u32 rate_reduce_monitor_period_us;
	/* alpha set on the first CNP of the QP, [0, 1023].  Default 1023. */
	u32 initial_alpha_value;
	/* RC = RT = this on the first CNP, [0, line_rate_kbps]; 0 = cut. */
	u32 rate_to_set_on_first_cnp_kbps;
	/* 1: every decrease sets RT = RC; 0: only after an increase.  0. */
	u32 clamp_tgt_rate;
	/* Port speed, [1, RXE_CC_DCQCN_MAX_RATE_KBPS]; derive() sets it. */
	u32 line_rate_kbps;
};

/* Increase kinds, indexes of rxe_cc_dcqcn_ev.increases[]. */
enum rxe_cc_dcqcn_inc {
	RXE_CC_DCQCN_INC_FR = 0,	/* fast recovery: RC = (RT + RC) / 2 */
	RXE_CC_DCQCN_INC_AI = 1,	/* additive: RT += AI first */
	RXE_CC_DCQCN_INC_HAI = 2,	/* hyper: RT += i * HAI first */
	RXE_CC_DCQCN_INC_KINDS
};

/* What one call did, for trace events and counters. */
#define RXE_CC_DCQCN_EV_DECREASE	BIT(0) /* RC cut */
#define RXE_CC_DCQCN_EV_FIRST_CNP	BIT(1) /* first CNP of the QP */
#define RXE_CC_DCQCN_EV_CNP_HANDLED	BIT(2) /* CNP opened a decrease */
#define RXE_CC_DCQCN_EV_CNP_IGNORED	BIT(3) /* folded into a pending one */
#define RXE_CC_DCQCN_EV_INCREASE	BIT(4) /* see increases[] */
#define RXE_CC_DCQCN_EV_RATE_CHANGE	BIT(5) /* RC differs from before */

struct rxe_cc_dcqcn_ev {
	u32 flags;			/* RXE_CC_DCQCN_EV_* */
	u32 increases[RXE_CC_DCQCN_INC_KINDS];
	u32 alpha;			/* after the call, of 1024 */
	u64 old_rc_bps;
	u64 rc_bps;
	u64 rt_bps;
};

/* Per-QP counters, read by "rdma res" (the ops table's statistics). */
struct rxe_cc_dcqcn_stats {
	u64 cnp_handled;
	u64 cnp_ignored;
	u64 decreases;
	u64 increases[RXE_CC_DCQCN_INC_KINDS];
};

/* Reaction point (sender) state of one QP. */
struct rxe_cc_dcqcn_rp {
	u64 rc_bps;			/* current rate: what the pacer uses */
	u64 rt_bps;			/* target rate */
	u64 alpha_next_ns;		/* end of the open alpha period */
	u64 inc_next_ns;		/* next timer increase event */
	u64 last_dec_ns;		/* time of the last decrease */
	u64 bytes_since_inc;		/* toward the next byte event */
	u32 alpha_q20;			/* alpha << 10: of 2^20 */
	u32 time_stage;			/* T: timer events since decrease */
	u32 byte_stage;			/* BC: byte events since decrease */
	bool limited;			/* a CNP was seen: rate limiter on */
	bool cnp_in_alpha_period;	/* CNP since the last alpha update */
	bool cnp_pending;		/* CNP since the last decrease check */
	bool inc_since_dec;		/* an increase since the last decrease */
	struct rxe_cc_dcqcn_stats stats;
};

void rxe_cc_dcqcn_params_default(struct rxe_cc_dcqcn_params *p);
int rxe_cc_dcqcn_params_check(const struct rxe_cc_dcqcn_params *p);
u64 rxe_cc_dcqcn_max_rate_bps(const struct rxe_cc_dcqcn_params *p);

u32 rxe_cc_dcqcn_alpha(const struct rxe_cc_dcqcn_rp *rp);

extern const struct rxe_cc_ops rxe_cc_dcqcn_ops;

#endif /* RXE_CC_DCQCN_H */

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_acc.h - ACC, ACK-driven congestion control for lossless Ethernet
 * (Zhang et al., NSDI'24), sender side, as specified in
 * Documentation/rxe-acc/acc.rst.  The rules are summed up in the header
 * comment of rxe_cc_acc.c.
 */
#ifndef RXE_CC_ACC_H
#define RXE_CC_ACC_H

#include "rxe_cc_core.h"

/* beta, the increase gain, is in parts per million. */
#define RXE_CC_ACC_BETA_ONE		1000000U
/* 1 << 19 > ONE / 2: any beta0 has reached the 1/2 cap after 19 doublings */
#define RXE_CC_ACC_BETA_MAX_SHIFT	19

#define RXE_CC_ACC_PERMILLE		1000U

/*
 * Knob bounds enforced by rxe_cc_acc_params_check().  T is one base RTT,
 * and rxe's own RTT through the stack is tens of microseconds: a period
 * under 10 us closes before an ACK can come back, and each QP would run
 * its soft timer at up to a MHz.  10 us caps it at 100 kHz per QP.
 */
#define RXE_CC_ACC_MIN_PERIOD_NS	10000ULL		/* 10 us */
#define RXE_CC_ACC_MAX_PERIOD_NS	(100ULL * 1000 * 1000)	/* 100 ms */
#define RXE_CC_ACC_MAX_HALT_NS		NSEC_PER_SEC	/* 1 s */
#define RXE_CC_ACC_MAX_TAU_NS		NSEC_PER_SEC	/* 1 s */
#define RXE_CC_ACC_MAX_P_THRESH		1000U
#define RXE_CC_ACC_MIN_RATE_BPS		1000ULL			/* 1 kb/s */
#define RXE_CC_ACC_MAX_RATE_BPS		(1600ULL * 1000 * 1000 * 1000)
#define RXE_CC_ACC_MAX_WINDOW_BYTES	(1ULL << 32)

struct rxe_cc_acc_params {
	u64 period_ns;		/* T, [1 us, 100 ms]; default 50 us */
	u64 halt_max_ns;	/* halt cap, [T, 1 s]; default 8 * T */
	u64 min_rate_bps;	/* floor, [1 kb/s, max rate]; default 1 Mb/s */
	u64 max_rate_bps;	/* cap C, [min, line]; 0 = line rate */
	u64 start_rate_bps;	/* [min, max]; 0 = max rate */
	u64 line_rate_bps;	/* port speed, [1 kb/s, 1.6 Tb/s]; glue sets */
	u64 base_rtt_ns;	/* tau, [0, 1 s]; 0 = measure (min RTT) */
	u64 window_bytes;	/* in-flight cap at C, x R/C; 0 = none */
	u32 theta_ce_permille;	/* CE share for "congested", [1, 1000]; 900 */
	u32 p_thresh;		/* UE periods kept before halving, [1, 1000] */
	u32 beta0_ppm;		/* first ramp gain, [1, ONE/2]; ONE/16 */
	u32 halt;		/* 1: source halt; 0: never halt (ablation) */
	u32 gate;		/* RXE_CC_ACC_GATE_*: the increase rule */
};

/* acc_gate: the increase rule after the first halt (rxe_cc_acc.c). */
#define RXE_CC_ACC_GATE_RAMP		0	/* ramp to C by beta_n */
#define RXE_CC_ACC_GATE_PROBE		1	/* gated probe */
#define RXE_CC_ACC_GATE_AIMD		2	/* gated probe, AIMD steps */
#define RXE_CC_ACC_GATE_ALPHA		3	/* AIMD probe, cut by alpha */

/* What one call did, for trace events and counters. */
#define RXE_CC_ACC_EV_PERIOD		BIT(0) /* a period was closed */
#define RXE_CC_ACC_EV_HALT_START	BIT(1) /* see last_halt */
#define RXE_CC_ACC_EV_HALT_END		BIT(2)
#define RXE_CC_ACC_EV_HALT_EARLY	BIT(3) /* ended by W <= r * tau */
#define RXE_CC_ACC_EV_VICTIM_BACKOFF	BIT(4) /* rate halved */
#define RXE_CC_ACC_EV_INCREASE		BIT(5)
#define RXE_CC_ACC_EV_RATE_CHANGE	BIT(6)

struct rxe_cc_acc_ev {
	u32 flags;			/* RXE_CC_ACC_EV_* */
	enum rxe_cc_period_class kind;	/* valid with RXE_CC_ACC_EV_PERIOD */
	u64 old_rate_bps;
	u64 rate_bps;			/* rate after the halt, if any */
};

/* ACKs since an anchor ACK, for r: see "ACK rate" in rxe_cc_acc.c. */
struct rxe_cc_acc_rate_sample {
	u64 first_ns;		/* the anchor ACK */
	u64 last_ns;		/* the latest ACK */
	u64 bytes;		/* acked by the ACKs after the anchor */
};

/* Marks and ACK timing of the open period. */
struct rxe_cc_acc_period {
	u64 start_ns;
	u64 end_ns;
	struct rxe_cc_acc_rate_sample all;	/* from the first ACK */
	struct rxe_cc_acc_rate_sample ce;	/* from the first CE ACK */
	u64 acked_bytes;	/* all bytes acked in the period */
	u32 n_ack;		/* ACKs */
	u32 n_pkt;		/* packets they acknowledged */
	u32 n_ce;		/* CE-marked packets they reported */
	u32 n_ue;		/* UE-marked packets they reported */
};

struct rxe_cc_acc_stats {
	u64 halts;
	u64 halts_early;	/* ended by the ACK clock */
	u64 halt_ns_total;
	u64 victim_backoffs;
	u64 increases;
	u64 gate_behind;	/* gate windows whose ACKs fell behind */
	u64 periods[RXE_CC_PERIOD_CLASSES];
};

/*
 * A windowed minimum (Nichols' min-max filter idea): the best sample of
 * the window and two later, larger ones that take over as it ages out.
 * val[0] <= val[1] <= val[2], t_ns[0] <= t_ns[1] <= t_ns[2].
 */
struct rxe_cc_acc_minwin {
	u64 val[3];
	u64 t_ns[3];
};

/* ACKs that show whether the ACK rate keeps up with R: see "Increase". */
struct rxe_cc_acc_gate {
	struct rxe_cc_acc_rate_sample rs;
	u64 start_ns;		/* R was set then */
	u64 sent_bytes;		/* since start_ns: was the flow held by R? */
	u64 from_ns;		/* ACKs before this were sent at an older R */
	u64 rate_bps;		/* the R the window is judged against */
	u32 n_ack;
	u32 n_pkt;		/* packets those ACKs acknowledged */
};

/* Per-QP state. */
struct rxe_cc_acc {
	u64 rate_bps;		/* R, also the rate to resume at after a halt */
	u64 inflight_bytes;	/* W: sent, not yet acknowledged */
	struct rxe_cc_acc_minwin base_rtt;	/* measured min RTT, 0 = none */
	u64 share_bps;		/* last known share: r at the latest halt */
	struct rxe_cc_acc_gate gate;
	u32 headroom_run;	/* consecutive gate windows that kept up */
	u64 halt_start_ns;
	u64 halt_until_ns;
	u64 halt_pipe_bytes;	/* r * tau at halt start: early-end level */
	u64 halt_rs_until_ns;	/* halt_rs takes the ACKs until then */
	struct rxe_cc_acc_rate_sample halt_rs;	/* r to resume at */
	u32 ue_run;		/* consecutive victim periods */
	u32 inc_run;		/* n: consecutive uncongested periods */
	bool halted;
	u32 alpha_pm;		/* EWMA of the periods' CE share, permille << 8 */
	struct rxe_cc_acc_period cur;
	struct rxe_cc_acc_period prev;	/* last period if POSSIBLY, else 0 */
	struct rxe_cc_halt_report last_halt;
	struct rxe_cc_acc_stats stats;
};

void rxe_cc_acc_params_default(struct rxe_cc_acc_params *p);
int rxe_cc_acc_params_check(const struct rxe_cc_acc_params *p);
u64 rxe_cc_acc_max_rate_bps(const struct rxe_cc_acc_params *p);


u64 rxe_cc_acc_tau_ns(const struct rxe_cc_acc *st,
		      const struct rxe_cc_acc_params *p);
u32 rxe_cc_acc_alpha_permille(const struct rxe_cc_acc *st);
u64 rxe_cc_acc_ack_rate_bps(const struct rxe_cc_acc_rate_sample *rs,
			    const struct rxe_cc_acc_params *p);

extern const struct rxe_cc_ops rxe_cc_acc_ops;

#endif /* RXE_CC_ACC_H */

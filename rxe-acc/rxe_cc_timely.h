/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_timely.h - TIMELY (Mittal et al., SIGCOMM'15), RTT-gradient rate
 * control, sender side.  Hermetic like the other cores: integer only, no
 * allocation, every call a pure step of (state, params, event, now_ns).
 * The rules are stated in the header comment of rxe_cc_timely.c.
 */
#ifndef RXE_CC_TIMELY_H
#define RXE_CC_TIMELY_H

#include "rxe_cc_core.h"

/* Gains are fixed point of RXE_CC_TIMELY_ONE. */
#define RXE_CC_TIMELY_SHIFT		10
#define RXE_CC_TIMELY_ONE		BIT(RXE_CC_TIMELY_SHIFT)
#define RXE_CC_TIMELY_MAX_RATE_BPS	(1600ULL * 1000 * 1000 * 1000)
#define RXE_CC_TIMELY_MAX_RTT_NS	NSEC_PER_SEC
#define RXE_CC_TIMELY_MAX_HAI_THRESH	1000U
/* Packets per ACK the sender asks for: its RTT samples (rxe_cc_timely.c). */
#define RXE_CC_TIMELY_ACK_EVERY		16

struct rxe_cc_timely_params {
	u64 line_rate_bps;	/* port speed, [1 kb/s, 1.6 Tb/s] */
	u64 min_rate_bps;	/* floor, [1 kb/s, line] */
	u64 add_step_bps;	/* delta: additive increase, [1, line] */
	u64 t_low_ns;		/* below: always increase */
	u64 t_high_ns;		/* above: decrease by (1 - t_high / rtt) */
	u64 min_rtt_ns;		/* normalises the gradient, (0, 1 s] */
	u32 ewma_alpha;		/* weight of a new RTT difference, of ONE */
	u32 beta;		/* decrease gain, of ONE, (0, ONE] */
	u32 hai_thresh;		/* N: gradient <= 0 updates before 5 delta */
};

struct rxe_cc_timely {
	u64 rate_bps;
	u64 prev_rtt_ns;	/* 0 = no sample yet */
	s64 rtt_diff_ns;	/* EWMA of consecutive RTT differences */
	u64 next_update_ns;	/* one update per min_rtt (a completion) */
	u32 neg_run;		/* consecutive updates with gradient <= 0 */
};

void rxe_cc_timely_params_default(struct rxe_cc_timely_params *p);
int rxe_cc_timely_params_check(const struct rxe_cc_timely_params *p);
void rxe_cc_timely_init(struct rxe_cc_timely *st,
			const struct rxe_cc_timely_params *p, u64 now_ns);
/* One ACK with its RTT sample; returns true if the rate was updated. */
bool rxe_cc_timely_on_ack(struct rxe_cc_timely *st,
			  const struct rxe_cc_timely_params *p, u32 bytes,
			  u64 rtt_ns, u64 now_ns);
u64 rxe_cc_timely_rate_bps(const struct rxe_cc_timely *st);

extern const struct rxe_cc_ops rxe_cc_timely_ops;

#endif /* RXE_CC_TIMELY_H */

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_pacer.h - per-QP token-bucket pacer shared by every rxe CC
 * algorithm.  See rxe_cc_pacer.c for the model and the arithmetic.
 */
#ifndef RXE_CC_PACER_H
#define RXE_CC_PACER_H

#include "rxe_cc_core.h"

/* rxe_cc_pacer_wait_ns() answers RXE_CC_NEVER_NS when halted (rate 0). */

/*
 * Bounds that keep the credit arithmetic inside 63 bits (see the .c file):
 * a larger burst or rate is clamped to these.
 */
#define RXE_CC_PACER_MAX_BURST_BYTES	(16U << 20)		/* 16 MiB */
#define RXE_CC_PACER_MAX_RATE_BPS	(4000ULL * 1000 * 1000 * 1000)	/* 4 Tb/s */
#define RXE_CC_PACER_MAX_PKT_BYTES	(16U << 20)

struct rxe_cc_pacer {
	u64 rate_bps;		/* 0 = halted */
	s64 credit_nbit;	/* tokens in 1e-9 bit units, <= cap, may be < 0 */
	u64 last_ns;		/* time @credit_nbit was brought up to date */
	u64 fill_ns;		/* time to refill from 0 to the cap at rate_bps */
	u32 burst_bytes;	/* bucket depth */
	/*
	 * A packet of up to this many bytes may leave at any time from
	 * last_ns on without asking rxe_cc_pacer_wait_ns(), so without a
	 * clock read: the credit at last_ns in whole bytes, 0 when halted.
	 * Every function below that changes the pacer sets it; in between,
	 * credit only grows.  It never exceeds burst_bytes, so a packet
	 * larger than the burst always asks.
	 */
	u32 ready_bytes;
};

void rxe_cc_pacer_init(struct rxe_cc_pacer *p, u64 rate_bps, u32 burst_bytes,
		       u64 now_ns);
void rxe_cc_pacer_set_rate(struct rxe_cc_pacer *p, u64 rate_bps, u64 now_ns);
void rxe_cc_pacer_set_burst(struct rxe_cc_pacer *p, u32 burst_bytes,
			    u64 now_ns);
u64 rxe_cc_pacer_wait_ns(const struct rxe_cc_pacer *p, u32 bytes, u64 now_ns);
void rxe_cc_pacer_consume(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns);
void rxe_cc_pacer_refund(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns);
void rxe_cc_pacer_grant(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns);

#endif /* RXE_CC_PACER_H */

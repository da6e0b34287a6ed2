/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_ring.h - the packets a QP has in flight, for its congestion
 * control: bytes, RTT samples and in-flight bytes by PSN sequence.
 *
 * Hermetic (see rxe_cc_core.h): built into rdma_rxe.ko and into the
 * user-space unit tests from this very file.
 */
#ifndef RXE_CC_RING_H
#define RXE_CC_RING_H

#include "rxe_cc_core.h"

/* PSNs are 24 bits and wrap; the ring compares them modulo 2^24. */
#define RXE_CC_PSN_MASK		0xffffffU

/* One packet in flight that carried new PSNs. */
struct rxe_cc_sent {
	u64 sent_ns;		/* 0: gives no RTT sample (retransmitted) */
	u32 psn;		/* its first PSN; it may span more (a READ) */
	u32 bytes;		/* on the wire */
};

/*
 * A ring over a caller's array of @mask + 1 slots (a power of 2), oldest
 * packet at @tail.  One slot stays free to tell full from empty.
 */
struct rxe_cc_ring {
	struct rxe_cc_sent *slot;
	u16 mask;
	u16 head;		/* next free slot */
	u16 tail;		/* oldest packet in flight */
	u32 acked_psn;		/* highest PSN acknowledged */
	u32 next_psn;		/* next PSN never sent before */
	u64 inflight_bytes;	/* sum of the slots' bytes */
	u64 progress_ns;	/* last retire, or the first record after empty */
};

void rxe_cc_ring_init(struct rxe_cc_ring *r, struct rxe_cc_sent *slots,
		      u16 nr_slots, u32 first_psn);
bool rxe_cc_ring_empty(const struct rxe_cc_ring *r);
u64 rxe_cc_ring_record(struct rxe_cc_ring *r, u32 psn, u32 next_psn,
		       u32 bytes, u64 now_ns);
bool rxe_cc_ring_unrecord(struct rxe_cc_ring *r, u32 psn, u32 bytes);
bool rxe_cc_ring_is_new(const struct rxe_cc_ring *r, u32 psn);
bool rxe_cc_ring_acks_new(const struct rxe_cc_ring *r, u32 psn);
bool rxe_cc_ring_in_window(const struct rxe_cc_ring *r, u32 psn);
u64 rxe_cc_ring_retire(struct rxe_cc_ring *r, u32 psn, u64 now_ns,
		       u64 *rtt_ns);
u64 rxe_cc_ring_expire(struct rxe_cc_ring *r, u64 now_ns, u64 age_ns);

#endif /* RXE_CC_RING_H */

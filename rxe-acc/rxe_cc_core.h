/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_core.h - what the hermetic congestion-control cores share.
 *
 * The algorithm cores (DCQCN, ACC, TIMELY, HPCC, the pacer and the
 * in-flight ring) are built three ways from the very same files: into
 * rdma_rxe.ko, into the user-space unit tests and into the simulator.
 * They are kernel code and use the kernel's helpers; in user space,
 * userspace/compat/include gives the few kernel headers they include the
 * kernel's meaning.
 *
 * Rules for the cores:
 *  - include only the kernel headers below and each other's headers
 *    (linux/errno.h is the uapi one in user space, the same numbers);
 *  - integer arithmetic only (no floating point in the kernel);
 *  - no allocation, no sleeping, no global state: every function is a pure
 *    step of (state, params, event, now_ns);
 *  - 64-bit division only through div64_u64() and friends, and constants
 *    widened to u64 before they multiply, so that 32-bit kernels build
 *    and compute the same.
 */
#ifndef RXE_CC_CORE_H
#define RXE_CC_CORE_H

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/types.h>

/* A deadline no event reaches: "never", "halted", "no timer". */
#define RXE_CC_NEVER_NS			(~0ULL)

/* Bytes over nanoseconds to bits per second, and back. */
#define RXE_CC_BIT_NS_PER_BYTE_S	((u64)BITS_PER_BYTE * NSEC_PER_SEC)

/* Marks echoed by the receiver, strongest last (CE > UE > NO). */
enum rxe_cc_mark {
	RXE_CC_MARK_NO = 0,	/* ECT(0): no congestion seen on the path */
	RXE_CC_MARK_UE = 1,	/* ECT(1): undetermined, a PFC victim hop */
	RXE_CC_MARK_CE = 2,	/* CE: a congested hop */
};

/*
 * One acknowledgment as a sender's algorithm sees it: a cumulative ACK
 * may cover many packets (the receiver coalesces them) and reports how
 * many of the packets since the previous ACK were marked.
 */
struct rxe_cc_ack {
	u32 bytes;		/* wire bytes newly acknowledged */
	u32 pkts;		/* packets newly acknowledged */
	u32 ce_pkts;		/* CE-marked packets it reports */
	u32 ue_pkts;		/* UE-marked packets it reports */
	u64 rtt_ns;		/* RTT of the newest packet, 0: no sample */
};

/* Time to serialise @bytes at @rate_bps, in ns (rate 0 means "never"). */
static inline u64 rxe_cc_tx_time_ns(u64 bytes, u64 rate_bps)
{
	if (!rate_bps)
		return RXE_CC_NEVER_NS;
	return mul_u64_u64_div_u64(bytes, RXE_CC_BIT_NS_PER_BYTE_S, rate_bps);
}

/* Knob validation: is @v within [@lo, @hi]? */
static inline bool rxe_cc_in_range(u64 v, u64 lo, u64 hi)
{
	return v >= lo && v <= hi;
}

#endif /* RXE_CC_CORE_H */

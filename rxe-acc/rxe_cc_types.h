/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_types.h - the only header the hermetic congestion-control cores
 * include.
 *
 * The algorithm cores (DCQCN, ACC, the pacer) are built three ways from the
 * very same files: into rdma_rxe.ko, into the user-space unit tests and into
 * the simulator.  They therefore must not include kernel or libc headers
 * directly; this file maps the handful of types and helpers they need onto
 * whichever environment is compiling them.
 *
 * Rules for the cores:
 *  - integer arithmetic only (no floating point in the kernel);
 *  - no allocation, no sleeping, no global state: every function is a pure
 *    step of (state, params, event, now_ns);
 *  - 64-bit division only through rxe_cc_div64() so that 32-bit kernels link.
 */
#ifndef RXE_CC_TYPES_H
#define RXE_CC_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#include <linux/minmax.h>

static inline u64 rxe_cc_div64(u64 dividend, u64 divisor)
{
	return div64_u64(dividend, divisor);
}

/* (a * b) / c without overflowing the 64-bit intermediate. */
static inline u64 rxe_cc_mul_div64(u64 a, u64 b, u64 c)
{
	return mul_u64_u64_div_u64(a, b, c);
}
#else /* user space: unit tests and simulator */
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

static inline u64 rxe_cc_div64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 rxe_cc_mul_div64(u64 a, u64 b, u64 c)
{
	return (u64)(((__uint128_t)a * b) / c);
}

#ifndef min
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#endif
#ifndef min_t
#define min_t(type, a, b) ((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b) ((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#endif
#ifndef clamp_t
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)
#endif
#endif /* __KERNEL__ */

#define RXE_CC_NSEC_PER_USEC	1000ULL
#define RXE_CC_NSEC_PER_SEC	1000000000ULL
#define RXE_CC_BITS_PER_BYTE	8ULL

/* Marks echoed by the receiver, strongest last (CE > UE > NO). */
enum rxe_cc_mark {
	RXE_CC_MARK_NO = 0,	/* ECT(0): no congestion seen on the path */
	RXE_CC_MARK_UE = 1,	/* ECT(1): undetermined, a PFC victim hop */
	RXE_CC_MARK_CE = 2,	/* CE: a congested hop */
};

/* Time to serialise @bytes at @rate_bps, in ns (rate 0 means "never"). */
static inline u64 rxe_cc_tx_time_ns(u64 bytes, u64 rate_bps)
{
	if (!rate_bps)
		return ~0ULL;
	return rxe_cc_mul_div64(bytes * RXE_CC_BITS_PER_BYTE,
				RXE_CC_NSEC_PER_SEC, rate_bps);
}

#endif /* RXE_CC_TYPES_H */

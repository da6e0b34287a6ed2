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
 *    (linux/errno.h is the uapi one in user space, the same numbers;
 *    of linux/kernel.h a core uses ARRAY_SIZE() only);
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
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/stddef.h>
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

/*
 * The algorithm interface.  An algorithm is one file pair: its arithmetic,
 * its ops table, the rows of its knobs and of its statistics.  It knows
 * nothing of rdma, QPs or locks: a host (the rxe framework, the simulator,
 * the unit tests) keeps a struct rxe_cc_sender per flow, fills in what it
 * knows before each hook, and reads back what the hook did.
 */

/* How a period was judged, by the marks its ACKs echoed (TCD's classes). */
enum rxe_cc_period_class {
	RXE_CC_PERIOD_NO_ACK = 0,	/* no ACK: nothing changes */
	RXE_CC_PERIOD_CONGESTED,	/* CE share >= theta: halt */
	RXE_CC_PERIOD_POSSIBLY,		/* some CE: hold */
	RXE_CC_PERIOD_VICTIM,		/* UE only: hold, back off later */
	RXE_CC_PERIOD_UNCONGESTED,	/* no marks: increase */
	RXE_CC_PERIOD_HALTED,		/* ended while halted: discarded */
	RXE_CC_PERIOD_CLASSES
};

/* What a hook did: bits of rxe_cc_sender.events, details in .report. */
#define RXE_CC_EV_PERIOD	BIT(0)	/* a period closed: .period */
#define RXE_CC_EV_HALT		BIT(1)	/* the sender halted: .halt */
#define RXE_CC_EV_HALT_END	BIT(2)	/* .halt_early, .rate_bps */
#define RXE_CC_EV_BACKOFF	BIT(3)	/* a victim's rate was cut */
#define RXE_CC_EV_CNP_HANDLED	BIT(4)	/* a CNP opened a cut: .alpha */
#define RXE_CC_EV_CNP_IGNORED	BIT(5)	/* folded into a pending cut */

struct rxe_cc_period_report {
	u32 kind;		/* enum rxe_cc_period_class */
	u32 n_ack;		/* ACKs in the period */
	u32 n_pkt;		/* packets they acknowledged */
	u32 n_ce;		/* CE-marked packets they reported */
	u32 n_ue;		/* UE-marked packets they reported */
};

/* The inputs and result of a halt: drain W - r * tau at r. */
struct rxe_cc_halt_report {
	u64 inflight_bytes;	/* W */
	u64 ack_rate_bps;	/* r */
	u64 tau_ns;		/* base RTT used */
	u64 excess_bytes;	/* W - r * tau */
	u64 t_halt_ns;		/* after the halt cap */
};

struct rxe_cc_report {
	struct rxe_cc_period_report period;
	struct rxe_cc_halt_report halt;
	u64 rate_bps;		/* HALT_END: the rate it resumed at */
	u32 alpha;		/* CNP_*: the CNP-driven alpha, of 1024 */
	bool halt_early;	/* HALT_END: ended by the ACK clock */
};

/*
 * One flow as its algorithm sees it.  The host owns it, sets the first
 * six fields and clears @events before each hook.
 */
struct rxe_cc_sender {
	void *priv;		/* the algorithm's state, priv_size bytes */
	const void *params;	/* its knobs as this flow uses them (derive) */
	u64 inflight_bytes;	/* W: sent, not acknowledged, after the event */
	u64 line_rate_bps;	/* C of the port */
	u64 rto_ns;		/* the transport's retransmit timeout, 0: none */
	u32 frame_bytes;	/* wire bytes of a full packet */
	u32 events;		/* RXE_CC_EV_*, set by the hooks */
	struct rxe_cc_report report;
};

/* Knob rows: one sysfs file each, generated by the host. */
#define RXE_CC_KNOB_EXPERIMENTAL	BIT(0)	/* an ablation: unstable ABI */

struct rxe_cc_knob {
	const char *name;	/* file name, unit included: "acc_period_us" */
	const char *unit;	/* of the file's value: "us", "kb/s", "" */
	u32 offset;		/* of the field in the algorithm's params */
	u32 size;		/* of the field: 4 or 8 bytes */
	u64 scale;		/* field units per file unit */
	u64 min, max;		/* file units; params_check adds the cross rules */
	u32 flags;		/* RXE_CC_KNOB_* */
};

/*
 * A field of knobs, by its offset and size (1, 4 or 8 bytes): what a knob
 * row points at.  The host reads and writes knobs that flows read
 * without its lock, hence the one-time accesses.
 */
static inline u64 rxe_cc_field_get(const void *base, u32 offset, u32 size)
{
	const void *f = (const u8 *)base + offset;

	switch (size) {
	case 1:
		return READ_ONCE(*(const u8 *)f);
	case 4:
		return READ_ONCE(*(const u32 *)f);
	default:
		return READ_ONCE(*(const u64 *)f);
	}
}

static inline void rxe_cc_field_set(void *base, u32 offset, u32 size, u64 v)
{
	void *f = (u8 *)base + offset;

	switch (size) {
	case 1:
		WRITE_ONCE(*(u8 *)f, v);
		break;
	case 4:
		WRITE_ONCE(*(u32 *)f, v);
		break;
	default:
		WRITE_ONCE(*(u64 *)f, v);
	}
}

#define RXE_CC_KNOB_ROW(_type, _name, _field, _unit, _scale, _min, _max, \
			_flags)						\
	{								\
		.name = (_name), .unit = (_unit),			\
		.offset = offsetof(_type, _field),			\
		.size = sizeof_field(_type, _field),			\
		.scale = (_scale), .min = (_min), .max = (_max),	\
		.flags = (_flags),					\
	}

/*
 * An algorithm.  Hooks run one at a time per flow (the host serialises
 * them) and never sleep.  Required: params_default, params_check,
 * derive, init, rate_bps and one of on_ack and on_cnp.
 */
struct rxe_cc_ops {
	const char *name;
	u32 priv_size;		/* state per flow */
	u32 params_size;	/* knobs, and a flow's derived copy */
	u32 ack_req_every;	/* ask for an ACK every N packets, 0: stock */
	bool echo_marks;	/* ask the receiver to echo marks in ACKs */
	const struct rxe_cc_knob *knobs;
	u32 n_knobs;
	const char *const *stat_names;	/* "rdma res" attributes */
	u32 n_stats;

	/* the knobs' defaults, and their check as written (any line rate) */
	void (*params_default)(void *params);
	int (*params_check)(const void *params);
	/* this flow's copy of @knobs: clamped to its line rate and RTO */
	void (*derive)(const struct rxe_cc_sender *s, const void *knobs,
		       void *params);
	/* a receiver's ACK spacing for a sender of these knobs, 0: none */
	u64 (*echo_period_ns)(const void *knobs);

	void (*init)(struct rxe_cc_sender *s, u64 now_ns);
	/* new data left (W counts it); true if the rate may have moved */
	bool (*on_xmit)(struct rxe_cc_sender *s, u32 bytes, u64 now_ns);
	void (*on_ack)(struct rxe_cc_sender *s, const struct rxe_cc_ack *ack,
		       u64 now_ns);
	void (*on_cnp)(struct rxe_cc_sender *s, u64 now_ns);
	void (*on_timer)(struct rxe_cc_sender *s, u64 now_ns);
	u64 (*rate_bps)(struct rxe_cc_sender *s, u64 now_ns);	/* 0: halted */
	u64 (*next_timer_ns)(struct rxe_cc_sender *s);	/* 0, U64_MAX: none */
	/*
	 * a cap on W, U64_MAX for none.  An algorithm that caps W keeps a
	 * deadline (next_timer_ns) while W > 0: the host lets a hold go when
	 * bytes expire instead of being acknowledged, at a timer.
	 */
	u64 (*window_bytes)(struct rxe_cc_sender *s);
	void (*stats)(const struct rxe_cc_sender *s, u64 *vals);
};

#endif /* RXE_CC_CORE_H */

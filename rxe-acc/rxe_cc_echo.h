/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rxe_cc_echo.h - the receiver's arithmetic: coalesced ACKs that count
 * the congestion marks they cover (the receiver's decision when to ACK,
 * and the sender's decoding of the 2-bit wrapping counters an ACK
 * carries, AccECN-style), and the notification point's CNP gap.  The
 * encoding is in Documentation/rxe-acc/wire.rst.
 *
 * Hermetic (see rxe_cc_core.h): built into rdma_rxe.ko and into the
 * user-space unit tests from this very file.
 */
#ifndef RXE_CC_ECHO_H
#define RXE_CC_ECHO_H

#include "rxe_cc_core.h"

/* An ACK carries each counter modulo 4 (2 bits of BTH byte 4). */
#define RXE_CC_ECHO_COUNT_BITS		2
#define RXE_CC_ECHO_COUNT_MASK		(BIT(RXE_CC_ECHO_COUNT_BITS) - 1)
/*
 * A delta modulo 4 is exact while at most 3 marked packets of a kind
 * separate two ACKs the sender reads: the receiver ACKs before a 4th.
 */
#define RXE_CC_ECHO_MAX_UNECHOED	RXE_CC_ECHO_COUNT_MASK

/* The acc_ack_every knob: one ACK per N clean packets, [1, 64]. */
#define RXE_CC_ECHO_MIN_EVERY		1
#define RXE_CC_ECHO_MAX_EVERY		64
#define RXE_CC_ECHO_DEF_EVERY		8
/*
 * A fast clean path ACKs no more often than this many times per ACC
 * period (and at least every RXE_CC_ECHO_MAX_EVERY packets): see
 * rxe_cc_echo.c.
 */
#define RXE_CC_ECHO_ACKS_PER_PERIOD	4

/*
 * Receiver state of one QP, for the requests that asked for the echo.
 * The counters are cumulative and wrap; only their low 2 bits go out.
 * It lives in every rxe_qp, which must stay within kmalloc-2k: 8 bytes,
 * the time of the last ACK in the low 32 bits of ns (a gap, T / 4, is
 * at most 25 ms; after an idle of more than 4.29 s the first ACK may wait one
 * gap or 64 packets too long).
 */
struct rxe_cc_echo {
	u32 last_ack_ns;	/* when the last ACK left, mod 2^32 ns */
	u8 unechoed;		/* marked packets since the last ACK */
	u8 hot;			/* packets still ACKed one by one */
	u8 unacked;		/* packets since the last ACK, <= 64 */
	u8 ce_pkts:RXE_CC_ECHO_COUNT_BITS; /* CE-marked packets received, mod 4 */
	u8 ue_pkts:RXE_CC_ECHO_COUNT_BITS; /* UE-marked packets received, mod 4 */
	u8 asked:1;		/* the peer asked for the echo */
	u8 due:1;		/* the latest packet wants its ACK now */
};

/* What the sender last read from its peer's counters. */
struct rxe_cc_echo_seen {
	u8 ce;
	u8 ue;
};

void rxe_cc_echo_init(struct rxe_cc_echo *e);
bool rxe_cc_echo_rcv(struct rxe_cc_echo *e, enum rxe_cc_mark mark,
		     u32 every, u64 now_ns, u64 period_ns);
void rxe_cc_echo_sent(struct rxe_cc_echo *e, u64 now_ns);
void rxe_cc_echo_decode(struct rxe_cc_echo_seen *seen, u8 ce_wire,
			u8 ue_wire, u32 *ce_pkts, u32 *ue_pkts);

/*
 * The notification point: at most one CNP per QP per gap (the
 * min_time_between_cnps knob; 0 = one per CE-marked packet).  4 us by
 * default, ConnectX firmware's MIN_TIME_BETWEEN_CNPS (mlxconfig), which
 * is also the sender's rate_reduce_monitor_period: it cuts at most once
 * per period, so closer CNPs only cost packets.  It also bounds the CNPs
 * a burst of CE-marked requests makes a receiver send.
 */
#define RXE_CC_NP_DEF_CNP_GAP_US	4
#define RXE_CC_NP_MAX_CNP_GAP_US	10000000U	/* 10 s */

/*
 * Notification point state of one QP: one word, so that the kernel keeps
 * it in struct rxe_qp and updates it without a lock (a cmpxchg).
 */
struct rxe_cc_np {
	u32 last_cnp_us;	/* rxe_cc_np_stamp_us(), 0: none */
};

/*
 * The notification point's clock: microseconds, in 32 bits, never 0 (0
 * means "no CNP yet").  It wraps every 71 minutes; the longest gap the
 * knob allows is 10 s, so an unsigned difference is always right but
 * for a CNP withheld for at most one gap, once per wrap.
 */
static inline u32 rxe_cc_np_stamp_us(u64 now_ns)
{
	return (u32)div64_u64(now_ns, NSEC_PER_USEC) ?: 1;
}

/* May a CNP go at @now_us if the last one went at @last_us? */
static inline bool rxe_cc_np_cnp_due(u32 last_us, u32 now_us, u32 gap_us)
{
	return !last_us || now_us - last_us >= gap_us;
}

#endif /* RXE_CC_ECHO_H */

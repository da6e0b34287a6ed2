// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_echo.c - coalesced ACKs that count the marks they cover.
 *
 * ACC needs, per period, how many of its packets were CE- or UE-marked,
 * and its ACK rate r (bytes acknowledged over time).  An ACK per packet
 * gives both, at the price of a second packet per data packet, which
 * costs a software RoCE a third of its single-flow throughput.  Here the
 * receiver ACKs
 *
 *	- a marked packet at once, and each of the next @every packets
 *	  ("hot": while marks are present the ACK clock stays per packet,
 *	  as dense as the halt and its early end need it);
 *	- otherwise (a clean path) by time: the first packet 1/4 of the ACC
 *	  period @period_ns after the last ACK, and at the latest the 64th
 *	  packet (a fast clean path); without a period, every @every-th;
 *	- and before a 4th marked packet of the same ACK, should the ACK of
 *	  a marked packet not have left (an skb allocation failed);
 *
 * on top of the ACKs the transport sends anyway (AckReq, end of message,
 * NAKs, read responses, atomics).  Every ACK carries the low 2 bits of
 * the cumulative CE and UE counters; the sender takes the delta modulo 4
 * against the last value it read, so a lost ACK costs nothing: the next
 * one covers its marks.  Beyond 3 marks of a kind between two ACKs the
 * sender reads (three or more ACKs of marked packets lost in a row on a
 * lossless fabric) it undercounts by a multiple of 4.
 *
 * r needs no per-packet ACKs: it is bytes over the span of ACKs, and a
 * cumulative ACK reports every byte it covers.
 *
 * The gap caps what a clean path costs at high rates: a fast flow gets
 * about RXE_CC_ECHO_ACKS_PER_PERIOD (4) ACKs a period, however many
 * packets the period holds.  That is enough for r, and for ACC's period
 * and gate, which judge a window of few ACKs by the packets they cover
 * (rxe_cc_acc.c).  Each ACK costs software RoCE CPU time on both hosts,
 * and a CPU-bound flow sends hundreds of packets a period (what 4 and 8
 * ACKs a period cost: Documentation/rxe-acc/wire.rst).  By time, not by
 * count, so that a slow flow gets as many: N flows that share a path
 * send N times fewer packets each, and one ACK per @every packets gives
 * each of many flows one ACK in several periods.  A flow that sends fewer than 4
 * packets a period gets an ACK per packet.  A period of 0 falls back to
 * one ACK per @every packets; an ACK per packet (@every = 1, the
 * paper's ACK clock) turns the rule off.
 */
#include "rxe_cc_echo.h"

void rxe_cc_echo_init(struct rxe_cc_echo *e)
{
	*e = (struct rxe_cc_echo) { 0 };
}

/**
 * rxe_cc_echo_rcv - count a request that asked for the echo
 * @e: the receiver state
 * @mark: its congestion mark
 * @every: the per-packet run after a mark; one ACK per @every clean
 *	packets without a period (the acc_ack_every knob)
 * @now_ns: the packet's arrival time
 * @period_ns: the ACC period T; a clean path's ACKs are T / 4 apart at
 *	least, 0 for no such bound
 *
 * Return: true if the packet should be acknowledged now, AckReq or not.
 */
bool rxe_cc_echo_rcv(struct rxe_cc_echo *e, enum rxe_cc_mark mark,
		     u32 every, u64 now_ns, u64 period_ns)
{
	/* an ACK per packet (every = 1) is the paper's clock: kept as is */
	u64 gap_ns = every > 1 ? period_ns / RXE_CC_ECHO_ACKS_PER_PERIOD : 0;

	every = clamp_t(u32, every, RXE_CC_ECHO_MIN_EVERY,
			RXE_CC_ECHO_MAX_EVERY);
	e->asked = true;
	if (e->unacked < RXE_CC_ECHO_MAX_EVERY)
		e->unacked++;
	if (mark == RXE_CC_MARK_CE)
		e->ce_pkts++;
	else if (mark == RXE_CC_MARK_UE)
		e->ue_pkts++;
	if (mark != RXE_CC_MARK_NO) {
		/* saturates: an ACK is due from the third on anyway */
		if (e->unechoed < RXE_CC_ECHO_MAX_UNECHOED)
			e->unechoed++;
		e->hot = every;
		e->due = true;
	} else if (e->hot) {
		e->hot--;
		e->due = true;
	} else if (gap_ns) {
		e->due = e->unacked >= RXE_CC_ECHO_MAX_EVERY ||
			 (u32)now_ns - e->last_ack_ns >= gap_ns;
	} else {
		e->due = e->unacked >= every;
	}
	if (e->unechoed >= RXE_CC_ECHO_MAX_UNECHOED)
		e->due = true;
	return e->due;
}

/* An ACK that carries the counters left at @now_ns: a fresh run starts. */
void rxe_cc_echo_sent(struct rxe_cc_echo *e, u64 now_ns)
{
	e->last_ack_ns = (u32)now_ns;
	e->unacked = 0;
	e->unechoed = 0;
	e->due = false;
}

/**
 * rxe_cc_echo_decode - marked packets an ACK reports
 * @seen: the counters the sender read last, updated
 * @ce_wire: the ACK's CE counter (2 bits)
 * @ue_wire: the ACK's UE counter (2 bits)
 * @ce_pkts: CE-marked packets since the last ACK read
 * @ue_pkts: UE-marked packets since the last ACK read
 *
 * Exact while at most 3 packets of a kind were marked in between (see
 * above); ACKs that arrive out of order read as 3 more marks, which a
 * lossless fabric with one path per QP does not do.
 */
void rxe_cc_echo_decode(struct rxe_cc_echo_seen *seen, u8 ce_wire,
			u8 ue_wire, u32 *ce_pkts, u32 *ue_pkts)
{
	*ce_pkts = (ce_wire - seen->ce) & RXE_CC_ECHO_COUNT_MASK;
	*ue_pkts = (ue_wire - seen->ue) & RXE_CC_ECHO_COUNT_MASK;
	seen->ce = ce_wire & RXE_CC_ECHO_COUNT_MASK;
	seen->ue = ue_wire & RXE_CC_ECHO_COUNT_MASK;
}

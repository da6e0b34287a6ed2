// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_np_echo.c - coalesced ACKs that count the marks they cover, on
 * the wire: the receiver's side in the responder, the sender's decoding
 * of its ACKs.  The rules are in rxe_cc_echo.c, the bits in
 * Documentation/rxe-acc/wire.rst.
 *
 * The receiver counts in the responder task, for the requests it accepts
 * in sequence, so that the counters an ACK carries cover exactly the
 * packets up to its PSN; the responder task also builds every ACK, so the
 * state needs no lock.  Duplicates and requests that are refused are not
 * counted (a request refused after its PSN was accepted, by an RNR NAK,
 * is counted again when it comes back).
 *
 * READ requests are not counted: read responses answer them, not ACKs,
 * so their marks would wait in the 2-bit counters for the next ACK and
 * alias beyond three.  Their mark rides in the single-bit echo of the
 * read response instead, which the sender reads also from a peer that
 * counts (rxe_cc_rcv_ack()).  The ACK a marked WRITE or SEND draws at
 * once clears that bit, so a read response echoes READ marks only.
 */

#include "rxe.h"
#include "rxe_loc.h"

/* Every rxe_qp holds it: 6.1's rxe_qp fills kmalloc-2k to the byte. */
static_assert(sizeof(struct rxe_cc_echo) <= 8);

/* A QP's receiver state is reset with it. */
void rxe_cc_np_echo_init(struct rxe_qp *qp)
{
	rxe_cc_echo_init(&qp->cc_echo);
}

/**
 * rxe_cc_np_req - responder: a request was accepted in sequence
 * @qp: the responder QP
 * @pkt: the request, with its IP ECN field in pkt->ecn
 *
 * Counts its mark if its sender asked for the echo (and the notification
 * point of its priority is on), also in np_echo_ce_pkts and
 * np_echo_ue_pkts, and decides whether it wants an ACK of its own: see
 * rxe_cc_np_ack_due().
 */
void rxe_cc_np_req(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	struct rxe_dev *rxe = pkt->rxe;
	enum rxe_cc_mark mark;

	qp->cc_echo.due = false;
	if (qp_type(qp) != IB_QPT_RC || !bth_cc_echo_req(pkt) ||
	    (pkt->mask & RXE_READ_MASK) || !rxe_cc_np_on(qp, rxe))
		return;
	mark = rxe_cc_ecn_to_mark(pkt->ecn);
	rxe_cc_echo_rcv(&qp->cc_echo, mark,
			READ_ONCE(rxe->cc.params.ack_every), rxe_cc_now_ns(),
			rxe_cc_echo_period_ns(rxe));
	if (mark == RXE_CC_MARK_CE)
		rxe_counter_inc(rxe, RXE_CNT_NP_ECHO_CE_PKTS);
	else if (mark == RXE_CC_MARK_UE)
		rxe_counter_inc(rxe, RXE_CNT_NP_ECHO_UE_PKTS);
}

/* Should the request rxe_cc_np_req() last saw be ACKed without AckReq? */
bool rxe_cc_np_ack_due(struct rxe_qp *qp)
{
	return qp->cc_echo.due;
}

/**
 * rxe_cc_np_ack_counts - responder: an ACK, NAK or atomic ACK is being
 * built; carry the mark counters
 * @qp: the responder QP
 * @ack: the packet, its BTH set
 *
 * Only to a peer that asked for the echo: a stock peer never sees the
 * bits set.  Read responses carry the single-bit echo only, as their
 * echo request bit is the one that says "counters" here; the next ACK
 * counts their marks.
 */
void rxe_cc_np_ack_counts(struct rxe_qp *qp, struct rxe_pkt_info *ack)
{
	struct rxe_cc_echo *e = &qp->cc_echo;

	/* a read response asks for the echo with the same bit */
	if (!e->asked || rxe_cc_is_read_resp(ack))
		return;
	bth_set_cc_counts(ack, e->ce_pkts, e->ue_pkts);
	rxe_cc_echo_sent(e, rxe_cc_now_ns());
}

/**
 * rxe_cc_rcv_ack_echo - a response for sender QP pkt->qp arrived
 * @pkt: the ACK, NAK, atomic ACK or read response
 *
 * One that carries mark counters reports them, and they are added up in
 * acc_ce_pkts and acc_ue_pkts; any other one is read as before, its
 * marks from the single-bit echo.
 */
void rxe_cc_rcv_ack_echo(struct rxe_pkt_info *pkt)
{
	struct rxe_dev *rxe = pkt->rxe;
	u32 ce_pkts, ue_pkts;

	if (rxe_cc_is_read_resp(pkt) || !bth_cc_counts_valid(pkt)) {
		rxe_cc_rcv_ack(pkt);
		return;
	}
	rxe_cc_rcv_ack_counts(pkt, bth_cc_ce_count(pkt), bth_cc_ue_count(pkt),
			      &ce_pkts, &ue_pkts);
	atomic64_add(ce_pkts, &rxe->stats_counters[RXE_CNT_ACC_CE_PKTS]);
	atomic64_add(ue_pkts, &rxe->stats_counters[RXE_CNT_ACC_UE_PKTS]);
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_np.c - the notification point: what a QP does with the
 * congestion marks switches put on the data it receives.  It is a
 * receiver role, independent of the QP's own sender algorithm (a QP that
 * runs "none" still answers a DCQCN or ACC peer), and it is switched per
 * priority with the prio<N>_np knobs, as mlx5's ecn/roce_np/enable/<N>.
 *
 *   Requests (WRITE, SEND, READ and atomic requests) at the responder:
 *     - a request whose sender asked for mark echo (BTH_CC_ECHO_REQ, an
 *       ACC sender): the strongest TCD mark (CE > UE > none) seen since
 *       the last ACK rides in the next ACK's BTH: BECN = CE,
 *       BTH_CC_ECHO_UE = UE;
 *     - any other CE-marked request (DCQCN, or a hardware RoCE sender):
 *       a RoCEv2 CNP (BTH opcode 0x81, BECN, 16 reserved bytes) to the
 *       sender QP, at most one per min_time_between_cnps.
 *   Read responses at the requester:
 *     - a response whose sender asked for mark echo (an ACC responder):
 *       a read ACK (rxe's opcode RXE_OPCODE_CC_READ_ACK) acknowledges it
 *       and echoes its mark, so that the responder's ACC has the ACK
 *       clock a READ otherwise lacks (the requester acknowledges
 *       nothing in InfiniBand);
 *     - any other CE-marked response: a CNP to the responder QP, which
 *       paces its responses (a NIC's DCQCN reaction point does the same).
 *
 * TCD's code points (ours, see Documentation/rxe-acc/wire.rst): ECT(0) =
 * no mark, ECT(1) = UE, CE = CE.  Not-ECT packets carry no mark.
 */

#include <net/inet_ecn.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_compat.h"
#include "rxe_cc_trace.h"

/*
 * CNPs and read ACKs carry a mask bit of their own.  The patches put it
 * after rxe's own bits, which later kernels renumber: a port that lands
 * it on one of them (on RXE_END_MASK, ACKs read as CNPs) must not build.
 */
static_assert(!(RXE_CC_CTRL_MASK &
		(RXE_REQ_MASK | RXE_ACK_MASK | RXE_SEND_MASK | RXE_WRITE_MASK |
		 RXE_READ_MASK | RXE_ATOMIC_MASK | RXE_RWR_MASK | RXE_COMP_MASK |
		 RXE_START_MASK | RXE_MIDDLE_MASK | RXE_END_MASK |
		 RXE_LOOPBACK_MASK | RXE_PAYLOAD_MASK | RXE_CC_NEWER_OP_MASKS)));

enum rxe_cc_mark rxe_cc_ecn_to_mark(u8 ecn)
{
	switch (ecn) {
	case INET_ECN_CE:
		return RXE_CC_MARK_CE;
	case INET_ECN_ECT_1:
		return RXE_CC_MARK_UE;
	default:
		return RXE_CC_MARK_NO;
	}
}

/* Is the notification point on for @qp's priority? */
bool rxe_cc_np_on(struct rxe_qp *qp, struct rxe_dev *rxe)
{
	return READ_ONCE(rxe->cc.params.np_prio_mask) &
	       BIT(rxe_cc_qp_prio(qp));
}

/* A new or reset QP forgets the marks and CNPs of its past. */
void rxe_cc_np_init(struct rxe_qp *qp)
{
	WRITE_ONCE(qp->cc_cnp.last_cnp_us, 0);
	atomic_set(&qp->cc_echo_mark, 0);
}

/*
 * The peer of @qp as one modify left it, if the QP may answer it (RTR to
 * SQE): its address vector in @av, its QPN in @dqpn.  The receive path
 * sends from softirq while a modify may rewrite the address vector (SQD
 * to SQD may): rxe_qp_from_attr() writes it under the QP's state lock,
 * and this copy is taken under that lock too, never half of each.
 */
static bool rxe_cc_peer(struct rxe_qp *qp, struct rxe_av *av, u32 *dqpn)
{
	unsigned long flags;
	bool ready;

	spin_lock_irqsave(&qp->state_lock, flags);
	ready = rxe_cc_qp_resp_ready(qp);
	if (ready) {
		*av = qp->pri_av;
		*dqpn = qp->attr.dest_qp_num;
	}
	spin_unlock_irqrestore(&qp->state_lock, flags);
	return ready;
}

/*
 * Build and send a congestion control packet from @qp to its peer: BTH
 * only, padded with @pad_bytes zero bytes, in the QP's class unless
 * @dscp says otherwise; receive (softirq) context.  Returns 0 once it is
 * on its way: a QP that is no longer ready sends nothing (and must not
 * count it, as rxe_xmit_packet() would drop it silently).
 */
static int rxe_cc_send_ctrl(struct rxe_qp *qp, struct rxe_dev *rxe,
			    u8 opcode, u32 psn, int pad_bytes, s8 dscp,
			    enum rxe_cc_mark echo)
{
	int paylen = RXE_BTH_BYTES + pad_bytes + RXE_ICRC_SIZE;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	struct rxe_av av;
	u32 dqpn;

	if (!rxe_cc_peer(qp, &av, &dqpn))
		return -EAGAIN;

	if (dscp != RXE_CC_DSCP_OF_QP)
		av.grh.traffic_class = dscp << 2;

	pkt.qp = qp;
	pkt.opcode = opcode;
	pkt.mask = rxe_opcode[opcode].mask;
	pkt.paylen = paylen;

	skb = rxe_init_packet(rxe, &av, paylen, &pkt);
	if (unlikely(!skb))
		return -ENOMEM;

	bth_init(&pkt, opcode, 0, 0, 0, IB_DEFAULT_PKEY_FULL, dqpn, 0, psn);
	bth_set_becn(&pkt, echo == RXE_CC_MARK_CE);
	bth_set_cc_echo_ue(&pkt, echo == RXE_CC_MARK_UE);
	memset(pkt.hdr + RXE_BTH_BYTES, 0, pad_bytes);

	if (rxe_prepare(&av, &pkt, skb)) {
		kfree_skb(skb);
		return -EINVAL;
	}
	return rxe_xmit_packet(qp, &pkt, skb);
}

/* A CNP (RoCEv2 Annex A17.9.3): BECN set, 16 reserved bytes, PSN 0. */
static void rxe_cc_send_cnp(struct rxe_qp *qp, struct rxe_dev *rxe)
{
	if (rxe_cc_send_ctrl(qp, rxe, RXE_OPCODE_ROCE_CNP, 0,
			     RXE_CNP_PAD_BYTES,
			     READ_ONCE(rxe->cc.params.cnp_dscp),
			     RXE_CC_MARK_CE))
		return;
	rxe_counter_inc(rxe, RXE_CNT_NP_CNP_SENT);
	trace_rxe_cc_cnp(qp, RXE_CC_CNP_SENT, 0);
}

/* A CE-marked packet for @qp: send a CNP unless one went out too recently. */
static void rxe_cc_np_ce(struct rxe_qp *qp, struct rxe_dev *rxe)
{
	u32 now_us = rxe_cc_np_stamp_us(rxe_cc_now_ns());
	u32 last_us = READ_ONCE(qp->cc_cnp.last_cnp_us);

	if (!rxe_cc_np_cnp_due(last_us, now_us,
			       READ_ONCE(rxe->cc.params.np_cnp_gap_us)))
		return;
	/* two CPUs with CE for one QP: the one that stamps first sends */
	if (try_cmpxchg(&qp->cc_cnp.last_cnp_us, &last_us, now_us))
		rxe_cc_send_cnp(qp, rxe);
}

/**
 * rxe_cc_np_rcv - responder QP pkt->qp accepted a request in sequence
 * @pkt: the packet, with its IP ECN field in pkt->ecn
 *
 * Called by the responder once check_psn() took the request as the next
 * one expected, never for a duplicate or a PSN out of sequence: a forged
 * CE-marked request must not make the QP send CNPs to its real peer.
 */
void rxe_cc_np_rcv(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	enum rxe_cc_mark mark = rxe_cc_ecn_to_mark(pkt->ecn);

	if (mark == RXE_CC_MARK_NO || qp_type(qp) != IB_QPT_RC)
		return;
	if (mark == RXE_CC_MARK_CE)
		rxe_counter_inc(pkt->rxe, RXE_CNT_NP_ECN_MARKED);
	if (!rxe_cc_np_on(qp, pkt->rxe))
		return;

	if (bth_cc_echo_req(pkt))
		atomic_or(BIT(mark), &qp->cc_echo_mark);
	else if (mark == RXE_CC_MARK_CE)
		rxe_cc_np_ce(qp, pkt->rxe);
}

/*
 * Can the completer take read response PSN @psn of @qp: one it expects
 * (comp.psn) or one of the READs sent since (before req.psn)?  It runs
 * before the completer, in the receive path, and reads the two PSNs
 * without a lock: a stale value only narrows the window by the packets
 * that moved it.
 */
static bool rxe_cc_np_resp_in_window(struct rxe_qp *qp, u32 psn)
{
	return psn_compare(psn, READ_ONCE(qp->comp.psn)) >= 0 &&
	       psn_compare(psn, READ_ONCE(qp->req.psn)) < 0;
}

/**
 * rxe_cc_np_rcv_resp - a read response arrived for requester QP pkt->qp
 * @pkt: the packet, with its IP ECN field in pkt->ecn
 *
 * Only a response the completer will take in sequence is answered (a
 * read ACK or a CNP): a stale or forged one is not.
 */
void rxe_cc_np_rcv_resp(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	enum rxe_cc_mark mark = rxe_cc_ecn_to_mark(pkt->ecn);

	if (!rxe_cc_np_resp_in_window(qp, pkt->psn))
		return;
	if (mark == RXE_CC_MARK_CE)
		rxe_counter_inc(pkt->rxe, RXE_CNT_NP_ECN_MARKED);
	if (!rxe_cc_np_on(qp, pkt->rxe))
		return;
	if (bth_cc_echo_req(pkt))
		rxe_cc_send_ctrl(qp, pkt->rxe, RXE_OPCODE_CC_READ_ACK,
				 pkt->psn, 0,
				 READ_ONCE(pkt->rxe->cc.params.ack_dscp), mark);
	else if (mark == RXE_CC_MARK_CE)
		rxe_cc_np_ce(qp, pkt->rxe);
}

/**
 * rxe_cc_np_ack_mark - echo the strongest mark since the last ACK
 * @qp: the responder QP
 * @ack: the ACK (or read response / atomic ACK) being built; BTH is set
 */
void rxe_cc_np_ack_mark(struct rxe_qp *qp, struct rxe_pkt_info *ack)
{
	int seen;

	if (!atomic_read(&qp->cc_echo_mark))
		return;

	seen = atomic_xchg(&qp->cc_echo_mark, 0);
	if (seen & BIT(RXE_CC_MARK_CE))
		bth_set_becn(ack, 1);
	else if (seen & BIT(RXE_CC_MARK_UE))
		bth_set_cc_echo_ue(ack, 1);
}

/* The mark an ACK echoes (meaningful only to a sender that asked). */
enum rxe_cc_mark rxe_cc_echoed_mark(struct rxe_pkt_info *pkt)
{
	if (bth_becn(pkt))
		return RXE_CC_MARK_CE;
	if (bth_cc_echo_ue(pkt))
		return RXE_CC_MARK_UE;
	return RXE_CC_MARK_NO;
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_np.c - the notification point: what a receiving QP does with the
 * congestion marks switches put on the packets it receives.
 *
 *   DCQCN: a CE-marked request makes the QP send a RoCEv2 CNP (BTH opcode
 *          0x81, BECN set, 16 reserved bytes) to its peer, at most one per
 *          min_time_between_cnps.  CNPs carry their own DSCP (cnp_dscp).
 *   ACC:   the strongest TCD mark (CE > UE > NO) seen since the last ACK
 *          is echoed in the next ACK's BTH: BECN = CE, RXE_CC_BTH_ECHO_UE
 *          = UE.  The requester asks for an ACK on every packet.
 *
 * TCD's code points (ours, see Documentation/rxe-acc/wire.rst): ECT(0) =
 * no mark, ECT(1) = UE, CE = CE.  Not-ECT packets carry no mark.
 */

#include <net/inet_ecn.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_trace.h"

static enum rxe_cc_mark rxe_cc_ecn_to_mark(u8 ecn)
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

/* Build and send a CNP from @qp to its peer; called in softirq context. */
static void rxe_cc_send_cnp(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = to_rdev(qp->ibqp.device);
	int paylen = RXE_BTH_BYTES + RXE_CNP_PAD_BYTES + RXE_ICRC_SIZE;
	struct rxe_pkt_info pkt = {};
	struct sk_buff *skb;
	struct rxe_av av;

	/* The QP's path with the CNP's own DSCP (ECT(0) is added later,
	 * as in the common 0xC2 CNP template).
	 */
	av = qp->pri_av;
	av.grh.traffic_class = READ_ONCE(rxe->cc.params.cnp_dscp) << 2;

	pkt.qp = qp;
	pkt.opcode = RXE_OPCODE_ROCE_CNP;
	pkt.mask = rxe_opcode[RXE_OPCODE_ROCE_CNP].mask;
	pkt.paylen = paylen;

	skb = rxe_init_packet(rxe, &av, paylen, &pkt);
	if (unlikely(!skb))
		return;

	bth_init(&pkt, RXE_OPCODE_ROCE_CNP, 0, 0, 0, IB_DEFAULT_PKEY_FULL,
		 qp->attr.dest_qp_num, 0, 0);
	bth_set_becn(&pkt, 1);
	memset(pkt.hdr + RXE_BTH_BYTES, 0, RXE_CNP_PAD_BYTES);

	if (rxe_prepare(&av, &pkt, skb)) {
		kfree_skb(skb);
		return;
	}
	if (rxe_xmit_packet(qp, &pkt, skb))
		return;

	rxe_counter_inc(rxe, RXE_CNT_NP_CNP_SENT);
	trace_rxe_cc_cnp(qp, "sent", 0);
}

/**
 * rxe_cc_np_rcv - a request packet arrived for responder QP pkt->qp
 * @pkt: the packet, with its IP ECN field in pkt->ecn
 */
void rxe_cc_np_rcv(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	struct rxe_cc_dcqcn_params p;
	enum rxe_cc_mark mark;
	unsigned long flags;
	bool send = false;

	if (pkt->ecn == INET_ECN_CE)
		rxe_counter_inc(pkt->rxe, RXE_CNT_NP_ECN_MARKED);

	ops = READ_ONCE(cc->ops);
	if (!ops)
		return;

	mark = rxe_cc_ecn_to_mark(pkt->ecn);
	if (ops->np_echo && mark != RXE_CC_MARK_NO)
		atomic_or(BIT(mark), &cc->echo_mark);

	if (!ops->np_cnp || mark != RXE_CC_MARK_CE)
		return;

	p = pkt->rxe->cc.params.dcqcn;
	spin_lock_irqsave(&cc->lock, flags);
	if (!cc->stopped)
		send = rxe_cc_dcqcn_np_should_send_cnp(&cc->np, &p,
						       ktime_get_ns());
	spin_unlock_irqrestore(&cc->lock, flags);

	if (send)
		rxe_cc_send_cnp(qp);
}

/**
 * rxe_cc_np_ack_mark - echo the strongest mark since the last ACK
 * @qp: the responder QP
 * @ack: the ACK (or read response / atomic ACK) being built; BTH is set
 */
void rxe_cc_np_ack_mark(struct rxe_qp *qp, struct rxe_pkt_info *ack)
{
	struct rxe_bth *bth = (struct rxe_bth *)ack->hdr;
	int seen;

	if (!READ_ONCE(qp->cc.ops) || !atomic_read(&qp->cc.echo_mark))
		return;

	seen = atomic_xchg(&qp->cc.echo_mark, 0);
	if (seen & BIT(RXE_CC_MARK_CE))
		bth->qpn |= cpu_to_be32(RXE_CC_BTH_ECHO_CE);
	else if (seen & BIT(RXE_CC_MARK_UE))
		bth->qpn |= cpu_to_be32(RXE_CC_BTH_ECHO_UE);
}

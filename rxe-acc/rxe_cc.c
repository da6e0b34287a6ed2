// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc.c - per-QP congestion control for rdma_rxe: the framework.
 *
 * See rxe_cc.h for the hooks and the locking.  What happens to a packet:
 *
 *   requester ──rxe_cc_req_wait()── pacer has credit? ──no──> pace_timer
 *       │                                yes                    │
 *       ▼                                                       │
 *   rxe_cc_req_sent(): consume credit, stamp PSN, inflight += bytes
 *       ... network (ECT(0) set by rxe_cc_tos(), marks by switches) ...
 *   rxe_cc_rcv_ack(): bytes newly acked, RTT of the acked PSN, echoed mark
 *       └─> ops->on_ack() ─> rate ─> pacer ─> resume requester if waiting
 *   cc_timer: ops->on_timer() for periods, halts and increase timers
 *
 * The algorithm picks a rate; the framework turns it into pacing.  Rate 0
 * means halted: the requester is not resumed until the rate is non-zero.
 */

#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <net/inet_ecn.h>
#include <rdma/restrack.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"

#define CREATE_TRACE_POINTS
#include "rxe_cc_trace.h"

/* The smallest pacer bucket, in full-size packets (see pacer_burst_us). */
#define RXE_CC_BURST_PKTS		2
/*
 * Default of the pacer_burst_us knob: the pacer keeps this much sending
 * time (at the QP's rate) as credit, so that a late timer (hrtimers wake
 * tens of microseconds late on a busy host, milliseconds under emulation)
 * does not cost throughput.
 */
#define RXE_CC_DEFAULT_BURST_US		1000
/* A paced QP asks for an ACK at least every timeout / this. */
#define RXE_CC_ACK_TIMEOUT_FRACTION	4
/* Speed assumed when neither the knob nor ethtool tells one. */
#define RXE_CC_DEFAULT_LINE_RATE_MBPS	10000
/* Default DSCP of CNPs and ACKs: served ahead of data (NVIDIA's np_cnp_dscp). */
#define RXE_CC_DEFAULT_CTRL_DSCP	48

static_assert(RXE_MAX_UNACKED_PSNS < RXE_CC_SENT_RING);

/* The algorithms built into the module, by enum rxe_cc_algo. */
static const struct rxe_cc_ops *const rxe_cc_algos[RXE_CC_NUM_ALGOS] = {
	[RXE_CC_ALGO_NONE] = NULL,
	[RXE_CC_ALGO_DCQCN] = &rxe_cc_dcqcn_ops,
	[RXE_CC_ALGO_ACC] = &rxe_cc_acc_ops,
};

static const char *const rxe_cc_algo_names[RXE_CC_NUM_ALGOS] = {
	[RXE_CC_ALGO_NONE] = "none",
	[RXE_CC_ALGO_DCQCN] = "dcqcn",
	[RXE_CC_ALGO_ACC] = "acc",
};

const char *rxe_cc_algo_name(int algo)
{
	if (algo < 0 || algo >= RXE_CC_NUM_ALGOS)
		return "default";
	return rxe_cc_algo_names[algo];
}

/* Index of the algorithm named @buf (sysfs input), or -EINVAL. */
int rxe_cc_algo_by_name(const char *buf)
{
	int i;

	for (i = 0; i < RXE_CC_NUM_ALGOS; i++)
		if (sysfs_streq(buf, rxe_cc_algo_names[i]))
			return i;
	return -EINVAL;
}

void rxe_cc_dev_init(struct rxe_dev *rxe)
{
	struct rxe_cc_params *p = &rxe->cc.params;
	int i;

	mutex_init(&rxe->cc.knob_lock);
	rxe->cc.speed_mbps = 0;
	rxe_cc_dcqcn_params_default(&p->dcqcn);
	rxe_cc_acc_params_default(&p->acc);
	p->line_rate_mbps = 0;
	p->pacer_burst_us = RXE_CC_DEFAULT_BURST_US;
	p->cnp_dscp = RXE_CC_DEFAULT_CTRL_DSCP;
	p->ack_dscp = RXE_CC_DEFAULT_CTRL_DSCP;
	/* Stock behaviour until an administrator asks for more. */
	p->algo = RXE_CC_ALGO_NONE;
	for (i = 0; i < RXE_CC_NUM_PRIO; i++)
		p->prio_algo[i] = RXE_CC_ALGO_DEFAULT;
}

static u64 rxe_cc_now_ns(void)
{
	return ktime_get_ns();
}

static enum hrtimer_restart rxe_cc_pace_timer_fn(struct hrtimer *t)
{
	struct rxe_qp *qp = container_of(t, struct rxe_qp, cc.pace_timer);

	rxe_sched_task(&qp->req.task);
	return HRTIMER_NORESTART;
}

static void rxe_cc_arm_timer(struct rxe_qp *qp);

static enum hrtimer_restart rxe_cc_timer_fn(struct hrtimer *t)
{
	struct rxe_qp *qp = container_of(t, struct rxe_qp, cc.cc_timer);
	struct rxe_cc_qp *cc = &qp->cc;
	unsigned long flags;
	u64 now = rxe_cc_now_ns();

	spin_lock_irqsave(&cc->lock, flags);
	if (cc->ops && !cc->stopped) {
		cc->ops->on_timer(qp, now);
		rxe_cc_rate_changed(qp, now, "timer");
		/* Idle QPs sleep; the cores catch up lazily on the next event. */
		if (cc->inflight_bytes || !cc->rate_bps)
			rxe_cc_arm_timer(qp);
	}
	spin_unlock_irqrestore(&cc->lock, flags);

	return HRTIMER_NORESTART;
}

void rxe_cc_qp_init(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;

	spin_lock_init(&cc->lock);
	cc->ops = NULL;
	cc->stopped = true;
	atomic_set(&cc->echo_mark, 0);
	/* hard: it only schedules the requester, and a soft timer adds a
	 * softirq round trip to every paced packet's wake-up
	 */
	hrtimer_init(&cc->pace_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	cc->pace_timer.function = rxe_cc_pace_timer_fn;
	hrtimer_init(&cc->cc_timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	cc->cc_timer.function = rxe_cc_timer_fn;
	cc->wire_overhead_bytes = RXE_CC_NON_IP_OVERHEAD_BYTES +
				  sizeof(struct iphdr);
}

/*
 * Wire bytes a packet of @qp costs beyond its BTH and payload: its IP
 * header, from the address vector set at RTR, and a VLAN tag when rxe
 * runs on a VLAN device.  An IPv6 QP counted with an IPv4 header would
 * overrun its line by 2 % at a 1024 B MTU.
 */
static u32 rxe_cc_qp_wire_overhead(struct rxe_qp *qp)
{
	u32 bytes = RXE_CC_NON_IP_OVERHEAD_BYTES;

	if (qp->pri_av.network_type == RXE_NETWORK_TYPE_IPV6)
		bytes += sizeof(struct ipv6hdr);
	else
		bytes += sizeof(struct iphdr);
	if (is_vlan_dev(rxe_cc_qp_dev(qp)->ndev))
		bytes += VLAN_HLEN;
	return bytes;
}

/*
 * The QP's line rate: the knob, else the netdev's ethtool speed.  ethtool
 * needs RTNL, and a kernel ULP may modify a QP with RTNL held: never wait
 * for it, fall back to the speed last read instead.
 */
static u64 rxe_cc_line_rate_bps(struct rxe_dev *rxe)
{
	struct ethtool_link_ksettings lks;
	u32 mbps = READ_ONCE(rxe->cc.params.line_rate_mbps);

	if (mbps)
		return mbps * RXE_CC_BPS_PER_MBPS;

	if (rtnl_trylock()) {
		if (!__ethtool_get_link_ksettings(rxe->ndev, &lks) &&
		    lks.base.speed != SPEED_UNKNOWN && lks.base.speed)
			WRITE_ONCE(rxe->cc.speed_mbps, lks.base.speed);
		rtnl_unlock();
	}
	mbps = READ_ONCE(rxe->cc.speed_mbps);

	return (mbps ?: RXE_CC_DEFAULT_LINE_RATE_MBPS) * RXE_CC_BPS_PER_MBPS;
}

/*
 * Bucket depth at @rate_bps: two full packets, or pacer_burst_us of
 * sending if more.  It follows the rate, so that a slow QP never bursts
 * more than a millisecond's worth of its own rate.
 */
static u32 rxe_cc_burst_bytes(struct rxe_qp *qp, u64 rate_bps)
{
	u64 pkt = qp->mtu + qp->cc.wire_overhead_bytes + RXE_BTH_BYTES +
		  RXE_RETH_BYTES;
	u64 burst_ns = (u64)READ_ONCE(rxe_cc_qp_dev(qp)->cc.params.pacer_burst_us) *
		       NSEC_PER_USEC;
	u64 burst = rxe_cc_mul_div64(rate_bps, burst_ns,
				     RXE_CC_BITS_PER_BYTE * NSEC_PER_SEC);

	return min_t(u64, max(burst, RXE_CC_BURST_PKTS * pkt),
		     RXE_CC_PACER_MAX_BURST_BYTES);
}

/* The QP's priority: the top three bits of the DSCP of its traffic class. */
static unsigned int rxe_cc_qp_prio(struct rxe_qp *qp)
{
	return (qp->pri_av.grh.traffic_class >> 2) >> 3;
}

/* The send PSN is known from RTS on: nothing sent yet, nothing acked. */
static void rxe_cc_sync_psn(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;

	cc->acked_psn = (qp->req.psn - 1) & BTH_PSN_MASK;
	cc->snd_max_psn = qp->req.psn;
}

/*
 * Called when an RC QP enters RTR (a receiver needs its notification
 * point) and again at RTS.  The algorithm is chosen once, at the first of
 * the two: changing the device's choice later does not touch existing QPs.
 */
void rxe_cc_qp_start(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	struct rxe_cc_params *p = &rxe->cc.params;
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops;
	unsigned long flags;
	u64 line_bps, now;
	int algo;

	if (qp_type(qp) != IB_QPT_RC)
		return;
	if (!cc->stopped) {
		spin_lock_irqsave(&cc->lock, flags);
		if (cc->ops && !cc->sent_any)
			rxe_cc_sync_psn(qp);
		spin_unlock_irqrestore(&cc->lock, flags);
		return;
	}

	algo = READ_ONCE(p->prio_algo[rxe_cc_qp_prio(qp)]);
	if (algo == RXE_CC_ALGO_DEFAULT)
		algo = READ_ONCE(p->algo);
	ops = rxe_cc_algos[algo];
	if (!ops)
		return;

	line_bps = rxe_cc_line_rate_bps(rxe);
	now = rxe_cc_now_ns();

	spin_lock_irqsave(&cc->lock, flags);
	memset(&cc->alg, 0, sizeof(cc->alg));
	memset(cc->sent, 0, sizeof(cc->sent));
	cc->line_rate_bps = line_bps;
	cc->wire_overhead_bytes = rxe_cc_qp_wire_overhead(qp);
	rxe_cc_sync_psn(qp);
	cc->sent_any = false;
	cc->inflight_bytes = 0;
	cc->pace_waiting = false;
	rxe_cc_dcqcn_np_init(&cc->np);
	cc->ops = ops;
	ops->init(qp, now);
	cc->rate_bps = ops->rate_bps(qp, now);
	rxe_cc_pacer_init(&cc->pacer, cc->rate_bps,
			  rxe_cc_burst_bytes(qp, cc->rate_bps), now);
	cc->stopped = false;
	spin_unlock_irqrestore(&cc->lock, flags);

	trace_rxe_cc_rate(qp, 0, cc->rate_bps, "start");
}

/* Reset or destroy: no timer runs or will run after this returns. */
void rxe_cc_qp_stop(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;
	unsigned long flags;

	spin_lock_irqsave(&cc->lock, flags);
	cc->stopped = true;
	spin_unlock_irqrestore(&cc->lock, flags);

	hrtimer_cancel(&cc->pace_timer);
	hrtimer_cancel(&cc->cc_timer);

	spin_lock_irqsave(&cc->lock, flags);
	cc->ops = NULL;
	spin_unlock_irqrestore(&cc->lock, flags);
}

/* Arm the algorithm timer at its next deadline; lock held. */
static void rxe_cc_arm_timer(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = &qp->cc;
	u64 next;

	if (cc->stopped || !cc->ops->next_timer_ns)
		return;
	next = cc->ops->next_timer_ns(qp);
	/* 0 and U64_MAX both mean "no deadline"; ktime_t is signed */
	if (!next || next >= KTIME_MAX)
		return;
	if (hrtimer_is_queued(&cc->cc_timer) &&
	    ktime_to_ns(hrtimer_get_expires(&cc->cc_timer)) <= next)
		return;
	hrtimer_start(&cc->cc_timer, ns_to_ktime(next), HRTIMER_MODE_ABS_SOFT);
}

/*
 * The algorithm may have changed its rate: hand it to the pacer, account
 * for it and, if the requester is waiting for credit, let it try again.
 * Lock held.
 */
void rxe_cc_rate_changed(struct rxe_qp *qp, u64 now, const char *why)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	u64 rate = cc->ops->rate_bps(qp, now);
	u64 old = cc->rate_bps;

	if (rate == old)
		return;

	cc->rate_bps = rate;
	rxe_cc_pacer_set_rate(&cc->pacer, rate, now);
	rxe_cc_pacer_set_burst(&cc->pacer, rxe_cc_burst_bytes(qp, rate), now);
	rxe_counter_inc(rxe, rate > old ? RXE_CNT_CC_RATE_INCREASES :
					  RXE_CNT_CC_RATE_DECREASES);
	trace_rxe_cc_rate(qp, old, rate, why);

	if (cc->pace_waiting && rate) {
		cc->pace_waiting = false;
		hrtimer_try_to_cancel(&cc->pace_timer);
		rxe_sched_task(&qp->req.task);
	}
}

/**
 * rxe_cc_req_wait - may a packet of @bytes on the wire leave now?
 * @qp: the sending QP
 * @bytes: its size on the wire
 *
 * Returns true if the requester must stop: a timer (or, while halted, the
 * event that ends the halt) reschedules it.
 */
bool rxe_cc_req_wait(struct rxe_qp *qp, u32 bytes)
{
	struct rxe_cc_qp *cc = &qp->cc;
	unsigned long flags;
	u64 wait;

	if (!READ_ONCE(cc->ops))
		return false;

	spin_lock_irqsave(&cc->lock, flags);
	if (!cc->ops || cc->stopped) {
		spin_unlock_irqrestore(&cc->lock, flags);
		return false;
	}
	wait = rxe_cc_pacer_wait_ns(&cc->pacer, bytes, rxe_cc_now_ns());
	if (wait) {
		cc->pace_waiting = true;
		if (wait != RXE_CC_PACER_NEVER_NS)
			hrtimer_start(&cc->pace_timer, ns_to_ktime(wait),
				      HRTIMER_MODE_REL);
	}
	spin_unlock_irqrestore(&cc->lock, flags);

	return wait != 0;
}

static inline struct rxe_cc_sent *rxe_cc_slot(struct rxe_cc_qp *cc, u32 psn)
{
	return &cc->sent[psn % RXE_CC_SENT_RING];
}

/*
 * A packet with @psn and @bytes on the wire has left; qp->req.psn is the
 * next PSN.  A read request consumes one PSN per response packet: those
 * PSNs carry no bytes of ours, their slots are cleared.
 */
void rxe_cc_req_sent(struct rxe_qp *qp, u32 psn, u32 bytes)
{
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_cc_sent *slot;
	unsigned long flags;
	u32 p;
	u64 now;

	if (!READ_ONCE(cc->ops))
		return;

	spin_lock_irqsave(&cc->lock, flags);
	if (!cc->ops || cc->stopped)
		goto out;

	now = rxe_cc_now_ns();
	if (!cc->sent_any) {
		cc->sent_any = true;
		trace_rxe_cc_first_send(qp, psn, cc->rate_bps);
	}
	rxe_cc_pacer_consume(&cc->pacer, bytes, now);
	slot = rxe_cc_slot(cc, psn);
	if (psn_compare(psn, cc->snd_max_psn) >= 0) {
		/* New data: it counts towards inflight and gives an RTT. */
		slot->ns = (u32)now ?: 1;
		slot->bytes = bytes;
		for (p = (psn + 1) & BTH_PSN_MASK; psn_compare(p, qp->req.psn) < 0;
		     p = (p + 1) & BTH_PSN_MASK)
			*rxe_cc_slot(cc, p) = (struct rxe_cc_sent){};
		cc->snd_max_psn = qp->req.psn;
		cc->inflight_bytes += bytes;
		if (cc->ops->on_sent)
			cc->ops->on_sent(qp, bytes, now);
	} else {
		/* A retransmission: its ACK tells nothing about the RTT. */
		slot->ns = 0;
	}
	rxe_cc_rate_changed(qp, now, "sent");
	rxe_cc_arm_timer(qp);
out:
	spin_unlock_irqrestore(&cc->lock, flags);
}

/*
 * How many packets may go without asking for an ACK.  The algorithm says
 * how dense its ACK clock must be; on top of that a paced QP asks at least
 * once per quarter of its transport timeout: stock rxe asks only every 66
 * packets, and 66 packets at a low rate outlast the retransmit timer,
 * which then fires and resends data that was never lost.
 */
u32 rxe_cc_ack_req_every(struct rxe_qp *qp, u32 stock)
{
	struct rxe_cc_qp *cc = &qp->cc;
	const struct rxe_cc_ops *ops = READ_ONCE(cc->ops);
	u64 window_ns, pkt_ns;
	u32 every = stock;

	if (!ops)
		return stock;
	if (ops->ack_req_every)
		every = min(ops->ack_req_every, every);
	if (qp->qp_timeout_jiffies) {
		window_ns = jiffies_to_nsecs(qp->qp_timeout_jiffies) /
			    RXE_CC_ACK_TIMEOUT_FRACTION;
		pkt_ns = rxe_cc_tx_time_ns(qp->mtu + cc->wire_overhead_bytes,
					   READ_ONCE(cc->rate_bps));
		if (pkt_ns)
			every = min_t(u64, every, max_t(u64, 1, window_ns / pkt_ns));
	}
	return every;
}

/* The PSN a response acknowledges, or false if it acknowledges nothing. */
static bool rxe_cc_acked_psn(struct rxe_pkt_info *pkt, u32 *psn)
{
	if (pkt->mask & RXE_AETH_MASK) {
		u8 syn = aeth_syn(pkt);

		if ((syn & AETH_TYPE_MASK) != AETH_ACK)
			return false;
	}
	*psn = pkt->psn;
	return true;
}

static enum rxe_cc_mark rxe_cc_echoed_mark(struct rxe_pkt_info *pkt)
{
	struct rxe_bth *bth = (struct rxe_bth *)pkt->hdr;
	u32 bits = be32_to_cpu(bth->qpn);

	if (bits & RXE_CC_BTH_ECHO_CE)
		return RXE_CC_MARK_CE;
	if (bits & RXE_CC_BTH_ECHO_UE)
		return RXE_CC_MARK_UE;
	return RXE_CC_MARK_NO;
}

/**
 * rxe_cc_rcv_ack - a response for sender QP pkt->qp arrived
 * @pkt: the ACK, atomic ACK or read response
 *
 * Cumulative: everything up to the acknowledged PSN is acknowledged.  Old
 * and duplicate responses acknowledge nothing new and are ignored.
 */
void rxe_cc_rcv_ack(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = &qp->cc;
	struct rxe_dev *rxe = pkt->rxe;
	enum rxe_cc_mark mark;
	unsigned long flags;
	u64 bytes = 0, rtt = 0, now;
	struct rxe_cc_sent *slot;
	u32 psn, p;

	if (!READ_ONCE(cc->ops) || !rxe_cc_acked_psn(pkt, &psn))
		return;

	mark = rxe_cc_echoed_mark(pkt);
	now = rxe_cc_now_ns();

	spin_lock_irqsave(&cc->lock, flags);
	if (!cc->ops || cc->stopped ||
	    psn_compare(psn, cc->acked_psn) <= 0 ||
	    psn_compare(psn, cc->snd_max_psn) >= 0)
		goto out;

	p = cc->acked_psn;
	do {
		p = (p + 1) & BTH_PSN_MASK;
		bytes += rxe_cc_slot(cc, p)->bytes;
	} while (p != psn);
	slot = rxe_cc_slot(cc, psn);
	if (slot->ns)
		rtt = (u32)((u32)now - slot->ns);
	cc->acked_psn = psn;
	cc->inflight_bytes -= min(bytes, cc->inflight_bytes);

	if (mark == RXE_CC_MARK_CE)
		rxe_counter_inc(rxe, RXE_CNT_ACC_CE_ACKS);
	else if (mark == RXE_CC_MARK_UE)
		rxe_counter_inc(rxe, RXE_CNT_ACC_UE_ACKS);
	trace_rxe_cc_ack(qp, psn, bytes, mark, rtt);

	if (cc->ops->on_ack)
		cc->ops->on_ack(qp, bytes, mark, rtt, now);
	rxe_cc_rate_changed(qp, now, "ack");
	rxe_cc_arm_timer(qp);
out:
	spin_unlock_irqrestore(&cc->lock, flags);
}

/* A CNP for sender QP pkt->qp arrived (DCQCN reaction point). */
void rxe_cc_rcv_cnp(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = &qp->cc;
	unsigned long flags;
	u64 now = rxe_cc_now_ns();

	spin_lock_irqsave(&cc->lock, flags);
	if (cc->ops && !cc->stopped && cc->ops->on_cnp) {
		cc->ops->on_cnp(qp, now);
		rxe_cc_rate_changed(qp, now, "cnp");
		rxe_cc_arm_timer(qp);
	} else {
		rxe_counter_inc(pkt->rxe, RXE_CNT_RP_CNP_IGNORED);
	}
	spin_unlock_irqrestore(&cc->lock, flags);
}

static bool rxe_cc_is_ack(u8 opcode)
{
	return opcode == IB_OPCODE_RC_ACKNOWLEDGE ||
	       opcode == IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE;
}

/**
 * rxe_cc_tos - the IP TOS byte of a packet
 * @pkt: the packet being built
 * @tclass: the traffic class of its address vector
 *
 * Data of a CC-enabled QP is ECN-capable (ECT(0)) so that switches can
 * mark it; ACKs carry the ACK DSCP so that a switch serves them ahead of
 * data (ACC relies on this).  CNPs get theirs from rxe_cc_send_cnp().  A QP without CC keeps the traffic class
 * verbatim, as stock rxe does.
 */
u8 rxe_cc_tos(struct rxe_pkt_info *pkt, u8 tclass)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_dev *rxe = pkt->rxe;

	if (!qp || !READ_ONCE(qp->cc.ops))
		return tclass;
	if (rxe_cc_is_ack(pkt->opcode))
		return READ_ONCE(rxe->cc.params.ack_dscp) << 2;
	return (tclass & ~INET_ECN_MASK) | INET_ECN_ECT_0;
}

static int rxe_cc_fill_res(struct sk_buff *msg, struct rxe_qp *qp,
			   const struct rxe_cc_ops *ops)
{
	struct rxe_cc_qp *cc = &qp->cc;

	if (rdma_nl_put_driver_string(msg, "cc_algorithm",
				      ops ? ops->name : "none"))
		return -EMSGSIZE;
	if (!ops)
		return 0;
	if (rdma_nl_put_driver_u64(msg, "cc_rate_bps", READ_ONCE(cc->rate_bps)) ||
	    rdma_nl_put_driver_u64(msg, "cc_line_rate_bps", cc->line_rate_bps) ||
	    rdma_nl_put_driver_u64(msg, "cc_inflight_bytes",
				   READ_ONCE(cc->inflight_bytes)))
		return -EMSGSIZE;
	return ops->fill_res ? ops->fill_res(msg, qp) : 0;
}

/* Per-QP state for "rdma -dd res show qp": the driver attribute table. */
int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct nlattr *table;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (rxe_cc_fill_res(msg, qp, READ_ONCE(qp->cc.ops))) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

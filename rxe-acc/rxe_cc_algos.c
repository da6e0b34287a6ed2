// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_algos.c - DCQCN and ACC bound to the rxe CC framework.
 *
 * Each ops table adapts one hermetic core (rxe_cc_dcqcn.c, rxe_cc_acc.c)
 * to the framework's hooks, and turns what a core reports it did into
 * device counters and trace events.  The cores read the device's knobs
 * live; the line rate is the QP's own (the netdev's speed at RTS, or the
 * line_rate_mbps knob).  All hooks run with the QP's cc.lock held.
 */

#include <rdma/restrack.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_trace.h"

/* ---------------------------------------------------------------- DCQCN */

/*
 * The device's DCQCN knobs with this QP's line rate.  The knobs were
 * checked against the largest line rate; rates above this QP's own line
 * (a 50 Mb/s hyper step on a 20 Mb/s link, a floor set for a faster port)
 * are clamped to it, so that the floor never exceeds the cap.
 */
static void dcqcn_params(struct rxe_qp *qp, struct rxe_cc_dcqcn_params *p)
{
	u32 line = max_t(u32, div_u64(qp->cc.line_rate_bps, RXE_CC_DCQCN_KBPS), 1);

	rxe_cc_params_read(rxe_cc_qp_dev(qp), dcqcn, p);
	p->line_rate_kbps = line;
	p->rpg_min_rate_kbps = min(p->rpg_min_rate_kbps, line);
	p->rpg_max_rate_kbps = min(p->rpg_max_rate_kbps, line);
	p->rpg_ai_rate_kbps = min(p->rpg_ai_rate_kbps, line);
	p->rpg_hai_rate_kbps = min(p->rpg_hai_rate_kbps, line);
	p->rate_to_set_on_first_cnp_kbps =
		min(p->rate_to_set_on_first_cnp_kbps, line);
}

static void dcqcn_init(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_dcqcn_params p;

	dcqcn_params(qp, &p);
	rxe_cc_dcqcn_init(&qp->cc.alg.dcqcn, &p, now);
}

static void dcqcn_on_xmit(struct rxe_qp *qp, u32 bytes, u64 now)
{
	struct rxe_cc_dcqcn_params p;

	dcqcn_params(qp, &p);
	rxe_cc_dcqcn_on_bytes_sent(&qp->cc.alg.dcqcn, &p, bytes, now, NULL);
}

static void dcqcn_on_cnp(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_dcqcn_params p;
	struct rxe_cc_dcqcn_ev ev;
	u32 flags;

	dcqcn_params(qp, &p);
	flags = rxe_cc_dcqcn_on_cnp(&qp->cc.alg.dcqcn, &p, now, &ev);
	if (flags & RXE_CC_DCQCN_EV_CNP_IGNORED) {
		rxe_counter_inc(rxe_cc_qp_dev(qp), RXE_CNT_RP_CNP_IGNORED);
		trace_rxe_cc_cnp(qp, "ignored", ev.alpha);
	} else {
		rxe_counter_inc(rxe_cc_qp_dev(qp), RXE_CNT_RP_CNP_HANDLED);
		trace_rxe_cc_cnp(qp, "handled", ev.alpha);
	}
}

static void dcqcn_on_timer(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_dcqcn_params p;

	dcqcn_params(qp, &p);
	rxe_cc_dcqcn_on_timer(&qp->cc.alg.dcqcn, &p, now, NULL);
}

static u64 dcqcn_rate_bps(struct rxe_qp *qp, u64 now)
{
	return rxe_cc_dcqcn_rate_bps(&qp->cc.alg.dcqcn);
}

static u64 dcqcn_next_timer_ns(struct rxe_qp *qp)
{
	struct rxe_cc_dcqcn_params p;

	dcqcn_params(qp, &p);
	return rxe_cc_dcqcn_next_timer_ns(&qp->cc.alg.dcqcn, &p);
}

static int dcqcn_fill_res(struct sk_buff *msg, struct rxe_qp *qp)
{
	const struct rxe_cc_dcqcn_rp *rp = &qp->cc.alg.dcqcn;

	if (rdma_nl_put_driver_u64(msg, "dcqcn_target_bps", rp->rt_bps) ||
	    rdma_nl_put_driver_u32(msg, "dcqcn_alpha",
				   rxe_cc_dcqcn_alpha(rp)) ||
	    rdma_nl_put_driver_u32(msg, "dcqcn_time_stage", rp->time_stage) ||
	    rdma_nl_put_driver_u32(msg, "dcqcn_byte_stage", rp->byte_stage) ||
	    rdma_nl_put_driver_u64(msg, "dcqcn_cnp_handled",
				   rp->stats.cnp_handled))
		return -EMSGSIZE;
	return 0;
}

const struct rxe_cc_ops rxe_cc_dcqcn_ops = {
	.name		= "dcqcn",
	.id		= RXE_CC_ALGO_DCQCN,
	.ack_req_every	= 0,	/* stock: DCQCN does not need the ACK clock */
	.init		= dcqcn_init,
	.on_xmit	= dcqcn_on_xmit,
	.on_cnp		= dcqcn_on_cnp,
	.on_timer	= dcqcn_on_timer,
	.rate_bps	= dcqcn_rate_bps,
	.next_timer_ns	= dcqcn_next_timer_ns,
	.fill_res	= dcqcn_fill_res,
};

/* ------------------------------------------------------------------ ACC */

static const char *const acc_class_names[RXE_CC_ACC_PERIOD_CLASSES] = {
	[RXE_CC_ACC_PERIOD_NO_ACK]	= "no_ack",
	[RXE_CC_ACC_PERIOD_CONGESTED]	= "congested",
	[RXE_CC_ACC_PERIOD_POSSIBLY]	= "possibly",
	[RXE_CC_ACC_PERIOD_VICTIM]	= "victim",
	[RXE_CC_ACC_PERIOD_UNCONGESTED]	= "uncongested",
	[RXE_CC_ACC_PERIOD_HALTED]	= "halted",
};

/*
 * The device's ACC knobs with this QP's line rate (clamped as DCQCN's),
 * and a halt that the QP's own transport timer tolerates: a halt longer
 * than half the retransmit timeout would make the peer's ACKs look lost
 * and retransmit data the switch still holds.
 */
static void acc_params(struct rxe_qp *qp, struct rxe_cc_acc_params *p)
{
	u64 line = qp->cc.line_rate_bps;

	rxe_cc_params_read(rxe_cc_qp_dev(qp), acc, p);
	if (qp->qp_timeout_jiffies)
		p->halt_max_ns = clamp_t(u64,
					 jiffies_to_nsecs(qp->qp_timeout_jiffies) / 2,
					 p->period_ns, p->halt_max_ns);
	p->line_rate_bps = line;
	p->min_rate_bps = min(p->min_rate_bps, line);
	p->max_rate_bps = min(p->max_rate_bps, line);
	p->start_rate_bps = min(p->start_rate_bps, line);
}

/* Counters and trace events for what one ACC step did. */
static void acc_report(struct rxe_qp *qp, u32 flags,
		       const struct rxe_cc_acc_ev *ev,
		       const struct rxe_cc_acc_period *closed)
{
	struct rxe_cc_acc *st = &qp->cc.alg.acc;
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);

	if ((flags & RXE_CC_ACC_EV_PERIOD) && ev->kind < RXE_CC_ACC_PERIOD_CLASSES)
		trace_rxe_cc_period(qp, acc_class_names[ev->kind],
				    closed->n_ack, closed->n_ce, closed->n_ue);
	if (flags & RXE_CC_ACC_EV_HALT_START) {
		rxe_counter_inc(rxe, RXE_CNT_ACC_HALTS);
		trace_rxe_cc_halt(qp, &st->last_halt);
	}
	if (flags & RXE_CC_ACC_EV_HALT_END)
		trace_rxe_cc_halt_end(qp, flags & RXE_CC_ACC_EV_HALT_EARLY,
				      st->rate_bps);
	if (flags & RXE_CC_ACC_EV_VICTIM_BACKOFF)
		rxe_counter_inc(rxe, RXE_CNT_ACC_VICTIM_BACKOFFS);
}

static void acc_init(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_acc_params p;

	acc_params(qp, &p);
	rxe_cc_acc_init(&qp->cc.alg.acc, &p, now);
}

/*
 * W, the bytes in flight, is the framework's count (the sender ring), so
 * that the core sees exactly what the ring holds; before an ACK the ACK's
 * own bytes are still in it, the core takes them off.
 */
static void acc_sync_w(struct rxe_qp *qp, u64 acked_bytes)
{
	rxe_cc_acc_set_inflight(&qp->cc.alg.acc,
				rxe_cc_inflight_bytes(&qp->cc) + acked_bytes);
}

static void acc_on_xmit(struct rxe_qp *qp, u32 bytes, u64 now)
{
	acc_sync_w(qp, 0);
}

static void acc_on_ack(struct rxe_qp *qp, u32 bytes, enum rxe_cc_mark mark,
		       u64 rtt_ns, u64 now)
{
	struct rxe_cc_acc_period closed = qp->cc.alg.acc.cur;
	struct rxe_cc_acc_params p;
	struct rxe_cc_acc_ev ev;
	u32 flags;

	acc_params(qp, &p);
	acc_sync_w(qp, bytes);
	flags = rxe_cc_acc_on_ack(&qp->cc.alg.acc, &p, bytes, mark, rtt_ns,
				  now, &ev);
	acc_report(qp, flags, &ev, &closed);
}

static void acc_on_timer(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_acc_period closed = qp->cc.alg.acc.cur;
	struct rxe_cc_acc_params p;
	struct rxe_cc_acc_ev ev;
	u32 flags;

	acc_params(qp, &p);
	acc_sync_w(qp, 0);
	flags = rxe_cc_acc_on_timer(&qp->cc.alg.acc, &p, now, &ev);
	acc_report(qp, flags, &ev, &closed);
}

static u64 acc_rate_bps(struct rxe_qp *qp, u64 now)
{
	return rxe_cc_acc_rate_bps(&qp->cc.alg.acc, now);
}

static u64 acc_next_timer_ns(struct rxe_qp *qp)
{
	return rxe_cc_acc_next_timer_ns(&qp->cc.alg.acc);
}

static int acc_fill_res(struct sk_buff *msg, struct rxe_qp *qp)
{
	const struct rxe_cc_acc *st = &qp->cc.alg.acc;
	struct rxe_cc_acc_params p;

	acc_params(qp, &p);
	if (rdma_nl_put_driver_u32(msg, "acc_halted", st->halted) ||
	    rdma_nl_put_driver_u64(msg, "acc_base_rtt_ns",
				   rxe_cc_acc_tau_ns(st, &p)) ||
	    rdma_nl_put_driver_u32(msg, "acc_victim_periods", st->ue_run) ||
	    rdma_nl_put_driver_u32(msg, "acc_increase_streak", st->inc_run) ||
	    rdma_nl_put_driver_u64(msg, "acc_halts", st->stats.halts) ||
	    rdma_nl_put_driver_u64(msg, "acc_halt_ns_total",
				   st->stats.halt_ns_total) ||
	    rdma_nl_put_driver_u64(msg, "acc_last_excess_bytes",
				   st->last_halt.excess_bytes) ||
	    rdma_nl_put_driver_u64(msg, "acc_last_t_halt_ns",
				   st->last_halt.t_halt_ns))
		return -EMSGSIZE;
	return 0;
}

const struct rxe_cc_ops rxe_cc_acc_ops = {
	.name		= "acc",
	.id		= RXE_CC_ALGO_ACC,
	.ack_req_every	= 1,	/* r comes from the ACK clock */
	.echo_marks	= true,
	.init		= acc_init,
	.on_xmit	= acc_on_xmit,
	.on_ack		= acc_on_ack,
	.on_timer	= acc_on_timer,
	.rate_bps	= acc_rate_bps,
	.next_timer_ns	= acc_next_timer_ns,
	.fill_res	= acc_fill_res,
};

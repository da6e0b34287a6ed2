// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_acc_ops.c - ACC bound to the rxe CC framework: the kernel glue
 * of the hermetic core in rxe_cc_acc.c.
 *
 * The hooks hand the core the device's ACC knobs, clamped to this QP's
 * line rate and retransmit timer, keep its W equal to the framework's
 * count of bytes in flight, and turn what it reports into counters and
 * trace events.  The core's state is the QP's private area
 * (rxe_cc_priv()).  All hooks run with the QP's cc->lock held.
 */

#include <rdma/restrack.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_trace.h"

/*
 * The device's ACC knobs with this QP's line rate (clamped as DCQCN's),
 * and a halt that the QP's own transport timer tolerates: a halt longer
 * than half the retransmit timeout would make the peer's ACKs look lost
 * and retransmit data the switch still holds.  A halt of read responses
 * must fit the requester's timer, which the responder does not know: the
 * connection manager gives both ends the same timeout, and a QP without
 * one (a READ responder left in RTR) assumes the shortest an rxe
 * requester runs, one jiffy.  The framework caches the result
 * (rxe_cc_qp_params()).
 */
static void acc_load_params(struct rxe_qp *qp,
			    const struct rxe_cc_params *dev, void *params)
{
	unsigned long timeout = qp->cc->params_timeout_jiffies ?: 1;
	u64 line = qp->cc->line_rate_bps;
	struct rxe_cc_acc_params *p = params;

	*p = dev->acc;
	p->halt_max_ns = clamp_t(u64, jiffies_to_nsecs(timeout) / 2,
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
	struct rxe_cc_acc *st = rxe_cc_priv(qp);
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);

	if ((flags & RXE_CC_ACC_EV_PERIOD) && ev->kind < RXE_CC_ACC_PERIOD_CLASSES)
		trace_rxe_cc_period(qp, ev->kind, closed);
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
	rxe_cc_acc_init(rxe_cc_priv(qp), rxe_cc_qp_params(qp), now);
}

/*
 * W, the bytes in flight, is the framework's count (the sender ring), so
 * that the core sees exactly what the ring holds; before an ACK the ACK's
 * own bytes are still in it, the core takes them off.
 */
static void acc_sync_w(struct rxe_qp *qp, u64 acked_bytes)
{
	rxe_cc_acc_set_inflight(rxe_cc_priv(qp),
				rxe_cc_inflight_bytes(qp->cc) + acked_bytes);
}

/* Sending moves W, never R nor the period's end. */
static bool acc_on_xmit(struct rxe_qp *qp, u32 bytes, u64 now)
{
	acc_sync_w(qp, 0);
	return false;
}

/*
 * One step of the core, for an acknowledgment (@ack, which may cover many
 * packets and counts the marked ones) or, @ack NULL, for its timer, with
 * what the step did reported.
 */
static void acc_step(struct rxe_qp *qp, const struct rxe_cc_ack *ack,
		     u64 now)
{
	struct rxe_cc_acc *st = rxe_cc_priv(qp);
	const struct rxe_cc_acc_params *p = rxe_cc_qp_params(qp);
	struct rxe_cc_acc_period closed = st->cur;
	struct rxe_cc_acc_ev ev;
	u32 flags;

	acc_sync_w(qp, ack ? ack->bytes : 0);
	if (ack)
		flags = rxe_cc_acc_on_acks(st, p, ack, now, &ev);
	else
		flags = rxe_cc_acc_on_timer(st, p, now, &ev);
	acc_report(qp, flags, &ev, &closed);
}

static void acc_on_ack(struct rxe_qp *qp, const struct rxe_cc_ack *ack,
		       u64 now)
{
	acc_step(qp, ack, now);
}

static void acc_on_timer(struct rxe_qp *qp, u64 now)
{
	acc_step(qp, NULL, now);
}

/*
 * A knob that lowers the cap holds from the next ACK or timer on, not
 * only from the core's next rate change.
 */
static u64 acc_rate_bps(struct rxe_qp *qp, u64 now)
{
	return min(rxe_cc_acc_rate_bps(rxe_cc_priv(qp), now),
		   rxe_cc_acc_max_rate_bps(rxe_cc_qp_params(qp)));
}

static u64 acc_next_timer_ns(struct rxe_qp *qp)
{
	return rxe_cc_acc_next_timer_ns(rxe_cc_priv(qp));
}

/*
 * The in-flight cap of acc_window_bytes (0: none), scaled by R / C and
 * never below a frame at the path MTU.  The period timer runs while bytes
 * are in flight, as the framework needs of a window.
 */
static u64 acc_window_bytes(struct rxe_qp *qp)
{
	return rxe_cc_acc_window_bytes(rxe_cc_priv(qp), rxe_cc_qp_params(qp),
				       rxe_cc_frame_bytes(qp));
}

static int acc_fill_res(struct sk_buff *msg, struct rxe_qp *qp)
{
	const struct rxe_cc_acc_params *p = rxe_cc_qp_params(qp);
	const struct rxe_cc_acc *st = rxe_cc_priv(qp);
	/* the QP's own marks: periods whose ACKs echoed CE, and UE only */
	u64 ce_periods = st->stats.periods[RXE_CC_ACC_PERIOD_CONGESTED] +
			 st->stats.periods[RXE_CC_ACC_PERIOD_POSSIBLY];

	if (rdma_nl_put_driver_u32(msg, "acc_halted", st->halted) ||
	    rdma_nl_put_driver_u64(msg, "acc_base_rtt_ns",
				   rxe_cc_acc_tau_ns(st, p)) ||
	    rdma_nl_put_driver_u32(msg, "acc_victim_periods", st->ue_run) ||
	    rdma_nl_put_driver_u32(msg, "acc_increase_streak", st->inc_run) ||
	    rdma_nl_put_driver_u64(msg, "acc_halts", st->stats.halts) ||
	    rdma_nl_put_driver_u64(msg, "acc_halt_ns_total",
				   st->stats.halt_ns_total) ||
	    rdma_nl_put_driver_u64(msg, "acc_last_excess_bytes",
				   st->last_halt.excess_bytes) ||
	    rdma_nl_put_driver_u64(msg, "acc_last_t_halt_ns",
				   st->last_halt.t_halt_ns) ||
	    rdma_nl_put_driver_u64(msg, "acc_ce_periods", ce_periods) ||
	    rdma_nl_put_driver_u64(msg, "acc_ue_periods",
				   st->stats.periods[RXE_CC_ACC_PERIOD_VICTIM]) ||
	    rdma_nl_put_driver_u32(msg, "acc_alpha_permille",
				   rxe_cc_acc_alpha_permille(st)))
		return -EMSGSIZE;
	return 0;
}

static_assert(sizeof(struct rxe_cc_acc) <= RXE_CC_PRIV_SIZE);
static_assert(sizeof(struct rxe_cc_acc_params) <= RXE_CC_PARAMS_SIZE);

struct rxe_cc_ops rxe_cc_acc_ops = {
	.name		= "acc",
	.priv_size	= sizeof(struct rxe_cc_acc),
	.params_size	= sizeof(struct rxe_cc_acc_params),
	/* r comes from the ACK clock: an ACK per packet, unless the peer
	 * counts marks and coalesces its ACKs itself
	 */
	.ack_req_every	= 1,
	.echo_marks	= true,
	.load_params	= acc_load_params,
	.init		= acc_init,
	.on_xmit	= acc_on_xmit,
	.on_ack		= acc_on_ack,
	.on_timer	= acc_on_timer,
	.rate_bps	= acc_rate_bps,
	.next_timer_ns	= acc_next_timer_ns,
	.window_bytes	= acc_window_bytes,
	.fill_res	= acc_fill_res,
};

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Trace events of rxe congestion control: every rate change, every ACC
 * halt and period, every CNP sent or handled, every ACK of a CC QP.  Enable them all with
 *   echo 1 > /sys/kernel/tracing/events/rxe_cc/enable
 * Fields print as key=value pairs so that scripts can parse them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rxe_cc

#if !defined(_RXE_CC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RXE_CC_TRACE_H

#include <linux/tracepoint.h>

TRACE_EVENT(rxe_cc_rate,
	TP_PROTO(struct rxe_qp *qp, u64 old_bps, u64 new_bps, const char *why),
	TP_ARGS(qp, old_bps, new_bps, why),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u64, old_bps)
		__field(u64, new_bps)
		__string(why, why)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->old_bps = old_bps;
		__entry->new_bps = new_bps;
		__assign_str(why, why);
	),
	TP_printk("dev=%s qpn=%u old_bps=%llu new_bps=%llu why=%s",
		  __get_str(dev), __entry->qpn, __entry->old_bps,
		  __entry->new_bps, __get_str(why))
);

TRACE_EVENT(rxe_cc_halt,
	TP_PROTO(struct rxe_qp *qp, const struct rxe_cc_acc_halt_info *h),
	TP_ARGS(qp, h),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u64, inflight_bytes)
		__field(u64, ack_rate_bps)
		__field(u64, tau_ns)
		__field(u64, excess_bytes)
		__field(u64, t_halt_ns)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->inflight_bytes = h->inflight_bytes;
		__entry->ack_rate_bps = h->ack_rate_bps;
		__entry->tau_ns = h->tau_ns;
		__entry->excess_bytes = h->excess_bytes;
		__entry->t_halt_ns = h->t_halt_ns;
	),
	TP_printk("dev=%s qpn=%u inflight_bytes=%llu ack_rate_bps=%llu tau_ns=%llu excess_bytes=%llu t_halt_ns=%llu",
		  __get_str(dev), __entry->qpn, __entry->inflight_bytes,
		  __entry->ack_rate_bps, __entry->tau_ns,
		  __entry->excess_bytes, __entry->t_halt_ns)
);

TRACE_EVENT(rxe_cc_halt_end,
	TP_PROTO(struct rxe_qp *qp, bool early, u64 rate_bps),
	TP_ARGS(qp, early, rate_bps),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(bool, early)
		__field(u64, rate_bps)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->early = early;
		__entry->rate_bps = rate_bps;
	),
	TP_printk("dev=%s qpn=%u early=%d rate_bps=%llu",
		  __get_str(dev), __entry->qpn, __entry->early,
		  __entry->rate_bps)
);

/* A started QP's first packet: the flow's onset, for convergence figures. */
TRACE_EVENT(rxe_cc_first_send,
	TP_PROTO(struct rxe_qp *qp, u32 psn, u64 rate_bps),
	TP_ARGS(qp, psn, rate_bps),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u32, psn)
		__field(u64, rate_bps)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->psn = psn;
		__entry->rate_bps = rate_bps;
	),
	TP_printk("dev=%s qpn=%u psn=%u rate_bps=%llu",
		  __get_str(dev), __entry->qpn, __entry->psn,
		  __entry->rate_bps)
);

TRACE_DEFINE_ENUM(RXE_CC_MARK_NO);
TRACE_DEFINE_ENUM(RXE_CC_MARK_UE);
TRACE_DEFINE_ENUM(RXE_CC_MARK_CE);

/*
 * One ACK that advanced a CC QP's acknowledged PSN: the ACK clock that ACC
 * measures r and tau from.  Busy (one event per ACK at ACK-every-packet);
 * e2e enables it only on request (E2E_TRACE_ACKS=1).
 */
TRACE_EVENT(rxe_cc_ack,
	TP_PROTO(struct rxe_qp *qp, u32 psn, u64 bytes, u32 mark, u64 rtt_ns),
	TP_ARGS(qp, psn, bytes, mark, rtt_ns),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u32, psn)
		__field(u64, bytes)
		__field(u32, mark)
		__field(u64, rtt_ns)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->psn = psn;
		__entry->bytes = bytes;
		__entry->mark = mark;
		__entry->rtt_ns = rtt_ns;
	),
	TP_printk("dev=%s qpn=%u psn=%u bytes=%llu mark=%s rtt_ns=%llu",
		  __get_str(dev), __entry->qpn, __entry->psn, __entry->bytes,
		  __print_symbolic(__entry->mark,
				   { RXE_CC_MARK_NO, "no" },
				   { RXE_CC_MARK_UE, "ue" },
				   { RXE_CC_MARK_CE, "ce" }),
		  __entry->rtt_ns)
);

TRACE_EVENT(rxe_cc_period,
	TP_PROTO(struct rxe_qp *qp, const char *class, u32 n_ack, u32 n_ce,
		 u32 n_ue),
	TP_ARGS(qp, class, n_ack, n_ce, n_ue),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__string(class, class)
		__field(u32, n_ack)
		__field(u32, n_ce)
		__field(u32, n_ue)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__assign_str(class, class);
		__entry->n_ack = n_ack;
		__entry->n_ce = n_ce;
		__entry->n_ue = n_ue;
	),
	TP_printk("dev=%s qpn=%u class=%s n_ack=%u n_ce=%u n_ue=%u",
		  __get_str(dev), __entry->qpn, __get_str(class),
		  __entry->n_ack, __entry->n_ce, __entry->n_ue)
);

TRACE_EVENT(rxe_cc_cnp,
	TP_PROTO(struct rxe_qp *qp, const char *what, u32 alpha),
	TP_ARGS(qp, what, alpha),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__string(what, what)
		__field(u32, alpha)
	),
	TP_fast_assign(
		__assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__assign_str(what, what);
		__entry->alpha = alpha;
	),
	TP_printk("dev=%s qpn=%u what=%s alpha=%u",
		  __get_str(dev), __entry->qpn, __get_str(what),
		  __entry->alpha)
);

#endif /* _RXE_CC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rxe_cc_trace
#include <trace/define_trace.h>

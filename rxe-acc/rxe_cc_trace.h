/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * Trace events of rxe congestion control: every rate change, every halt
 * and judged period, every CNP sent or handled, every ACK of a CC QP.
 * Enable them all with
 *   echo 1 > /sys/kernel/tracing/events/rxe_cc/enable
 * Fields print as key=value pairs so that scripts can parse them.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rxe_cc

#if !defined(_RXE_CC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RXE_CC_TRACE_H

#include <linux/tracepoint.h>
#include "rxe_cc_compat.h"

/* Enums print by name; TRACE_DEFINE_ENUM lets user space decode them. */
TRACE_DEFINE_ENUM(RXE_CC_WHY_START);
TRACE_DEFINE_ENUM(RXE_CC_WHY_TIMER);
TRACE_DEFINE_ENUM(RXE_CC_WHY_SENT);
TRACE_DEFINE_ENUM(RXE_CC_WHY_ACK);
TRACE_DEFINE_ENUM(RXE_CC_WHY_CNP);
TRACE_DEFINE_ENUM(RXE_CC_CNP_SENT);
TRACE_DEFINE_ENUM(RXE_CC_CNP_HANDLED);
TRACE_DEFINE_ENUM(RXE_CC_CNP_IGNORED);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_NO_ACK);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_CONGESTED);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_POSSIBLY);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_VICTIM);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_UNCONGESTED);
TRACE_DEFINE_ENUM(RXE_CC_PERIOD_HALTED);

#define show_rxe_cc_why(v)						\
	__print_symbolic(v,						\
			 { RXE_CC_WHY_START, "start" },			\
			 { RXE_CC_WHY_TIMER, "timer" },			\
			 { RXE_CC_WHY_SENT, "sent" },			\
			 { RXE_CC_WHY_ACK, "ack" },			\
			 { RXE_CC_WHY_CNP, "cnp" })

#define show_rxe_cc_cnp(v)						\
	__print_symbolic(v,						\
			 { RXE_CC_CNP_SENT, "sent" },			\
			 { RXE_CC_CNP_HANDLED, "handled" },		\
			 { RXE_CC_CNP_IGNORED, "ignored" })

#define show_rxe_cc_period(v)						\
	__print_symbolic(v,						\
			 { RXE_CC_PERIOD_NO_ACK, "no_ack" },	\
			 { RXE_CC_PERIOD_CONGESTED, "congested" },	\
			 { RXE_CC_PERIOD_POSSIBLY, "possibly" },	\
			 { RXE_CC_PERIOD_VICTIM, "victim" },	\
			 { RXE_CC_PERIOD_UNCONGESTED, "uncongested" }, \
			 { RXE_CC_PERIOD_HALTED, "halted" })

TRACE_EVENT(rxe_cc_rate,
	TP_PROTO(struct rxe_qp *qp, u64 old_bps, u64 new_bps,
		 enum rxe_cc_why why),
	TP_ARGS(qp, old_bps, new_bps, why),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u64, old_bps)
		__field(u64, new_bps)
		__field(u8, why)
	),
	TP_fast_assign(
		rxe_cc_assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->old_bps = old_bps;
		__entry->new_bps = new_bps;
		__entry->why = why;
	),
	TP_printk("dev=%s qpn=%u old_bps=%llu new_bps=%llu why=%s",
		  __get_str(dev), __entry->qpn, __entry->old_bps,
		  __entry->new_bps, show_rxe_cc_why(__entry->why))
);

TRACE_EVENT(rxe_cc_halt,
	TP_PROTO(struct rxe_qp *qp, const struct rxe_cc_halt_report *h),
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
		rxe_cc_assign_str(dev, dev_name(&qp->ibqp.device->dev));
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

/*
 * Events of a QP with one small figure @a and one large @b; each prints
 * them under its own names (the class's print is rxe_cc_halt_end's).
 */
DECLARE_EVENT_CLASS(rxe_cc_qp_event,
	TP_PROTO(struct rxe_qp *qp, u32 a, u64 b),
	TP_ARGS(qp, a, b),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u32, a)
		__field(u64, b)
	),
	TP_fast_assign(
		rxe_cc_assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->a = a;
		__entry->b = b;
	),
	TP_printk("dev=%s qpn=%u early=%d rate_bps=%llu",
		  __get_str(dev), __entry->qpn, __entry->a, __entry->b)
);

/* A halt ended: @a early (by the ACK clock), @b the rate it resumed at. */
DEFINE_EVENT(rxe_cc_qp_event, rxe_cc_halt_end,
	TP_PROTO(struct rxe_qp *qp, u32 a, u64 b),
	TP_ARGS(qp, a, b)
);

/*
 * A started QP's first packet, @a its PSN, @b the rate: the flow's onset,
 * for convergence figures.
 */
DEFINE_EVENT_PRINT(rxe_cc_qp_event, rxe_cc_first_send,
	TP_PROTO(struct rxe_qp *qp, u32 a, u64 b),
	TP_ARGS(qp, a, b),
	TP_printk("dev=%s qpn=%u psn=%u rate_bps=%llu",
		  __get_str(dev), __entry->qpn, __entry->a, __entry->b)
);

/*
 * Read responses whose read ACKs never came left the response ring
 * (rxe_cc_resp_expire_ns()): @b bytes were in flight, up to PSN @a.
 */
DEFINE_EVENT_PRINT(rxe_cc_qp_event, rxe_cc_resp_expired,
	TP_PROTO(struct rxe_qp *qp, u32 a, u64 b),
	TP_ARGS(qp, a, b),
	TP_printk("dev=%s qpn=%u next_psn=%u bytes=%llu",
		  __get_str(dev), __entry->qpn, __entry->a, __entry->b)
);

/* A CNP: @a what happened to it (enum rxe_cc_cnp_what), @b DCQCN's alpha. */
DEFINE_EVENT_PRINT(rxe_cc_qp_event, rxe_cc_cnp,
	TP_PROTO(struct rxe_qp *qp, u32 a, u64 b),
	TP_ARGS(qp, a, b),
	TP_printk("dev=%s qpn=%u what=%s alpha=%llu",
		  __get_str(dev), __entry->qpn, show_rxe_cc_cnp(__entry->a),
		  __entry->b)
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
		rxe_cc_assign_str(dev, dev_name(&qp->ibqp.device->dev));
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
	TP_PROTO(struct rxe_qp *qp, const struct rxe_cc_period_report *m),
	TP_ARGS(qp, m),
	TP_STRUCT__entry(
		__string(dev, dev_name(&qp->ibqp.device->dev))
		__field(u32, qpn)
		__field(u8, class)
		__field(u32, n_ack)
		__field(u32, n_pkt)
		__field(u32, n_ce)
		__field(u32, n_ue)
	),
	TP_fast_assign(
		rxe_cc_assign_str(dev, dev_name(&qp->ibqp.device->dev));
		__entry->qpn = qp_num(qp);
		__entry->class = m->kind;
		__entry->n_ack = m->n_ack;
		__entry->n_pkt = m->n_pkt;
		__entry->n_ce = m->n_ce;
		__entry->n_ue = m->n_ue;
	),
	TP_printk("dev=%s qpn=%u class=%s n_ack=%u n_pkt=%u n_ce=%u n_ue=%u",
		  __get_str(dev), __entry->qpn, show_rxe_cc_period(__entry->class),
		  __entry->n_ack, __entry->n_pkt, __entry->n_ce, __entry->n_ue)
);

#endif /* _RXE_CC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rxe_cc_trace
#include <trace/define_trace.h>

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_dcqcn_ops.c - DCQCN's reaction point bound to the rxe CC
 * framework: the kernel glue of the hermetic core in rxe_cc_dcqcn.c.
 *
 * The hooks hand the core the device's DCQCN knobs, clamped to this QP's
 * line rate (the netdev's speed at RTS, or the line_rate_mbps knob), and
 * turn what it reports into counters and trace events.  The core's state
 * is the QP's private area (rxe_cc_priv()).  All hooks run with the QP's
 * cc->lock held.  The notification point (CNPs) is a receiver role, in
 * rxe_cc_np.c.
 */

#include <rdma/restrack.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_trace.h"

/*
 * The device's DCQCN knobs with this QP's line rate.  The knobs were
 * checked against the largest line rate; rates above this QP's own line
 * (a 50 Mb/s hyper step on a 20 Mb/s link, a floor set for a faster port)
 * are clamped to it, so that the floor never exceeds the cap.  The
 * framework caches the result (rxe_cc_qp_params()).
 */
static void dcqcn_load_params(struct rxe_qp *qp,
			      const struct rxe_cc_params *dev, void *params)
{
	u32 line = max_t(u32, div_u64(qp->cc->line_rate_bps, RXE_CC_DCQCN_KBPS), 1);
	struct rxe_cc_dcqcn_params *p = params;

	*p = dev->dcqcn;
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
	rxe_cc_dcqcn_init(rxe_cc_priv(qp), rxe_cc_qp_params(qp), now);
}

/* The byte counter, and the timers it catches up, may raise the rate. */
static bool dcqcn_on_xmit(struct rxe_qp *qp, u32 bytes, u64 now)
{
	rxe_cc_dcqcn_on_bytes_sent(rxe_cc_priv(qp),
				   rxe_cc_qp_params(qp), bytes, now, NULL);
	return true;
}

static void dcqcn_on_cnp(struct rxe_qp *qp, u64 now)
{
	const struct rxe_cc_dcqcn_params *p = rxe_cc_qp_params(qp);
	struct rxe_cc_dcqcn_ev ev;
	u32 flags;

	flags = rxe_cc_dcqcn_on_cnp(rxe_cc_priv(qp), p, now, &ev);
	if (flags & RXE_CC_DCQCN_EV_CNP_IGNORED) {
		rxe_counter_inc(rxe_cc_qp_dev(qp), RXE_CNT_RP_CNP_IGNORED);
		trace_rxe_cc_cnp(qp, RXE_CC_CNP_IGNORED, ev.alpha);
	} else {
		rxe_counter_inc(rxe_cc_qp_dev(qp), RXE_CNT_RP_CNP_HANDLED);
		trace_rxe_cc_cnp(qp, RXE_CC_CNP_HANDLED, ev.alpha);
	}
}

static void dcqcn_on_timer(struct rxe_qp *qp, u64 now)
{
	rxe_cc_dcqcn_on_timer(rxe_cc_priv(qp), rxe_cc_qp_params(qp), now, NULL);
}

/* The cap holds at once when a knob lowers it, not at the next event. */
static u64 dcqcn_rate_bps(struct rxe_qp *qp, u64 now)
{
	return min(rxe_cc_dcqcn_rate_bps(rxe_cc_priv(qp)),
		   rxe_cc_dcqcn_max_rate_bps(rxe_cc_qp_params(qp)));
}

static u64 dcqcn_next_timer_ns(struct rxe_qp *qp)
{
	return rxe_cc_dcqcn_next_timer_ns(rxe_cc_priv(qp),
					  rxe_cc_qp_params(qp));
}

static int dcqcn_fill_res(struct sk_buff *msg, struct rxe_qp *qp)
{
	const struct rxe_cc_dcqcn_rp *rp = rxe_cc_priv(qp);

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

static_assert(sizeof(struct rxe_cc_dcqcn_rp) <= RXE_CC_PRIV_SIZE);
static_assert(sizeof(struct rxe_cc_dcqcn_params) <= RXE_CC_PARAMS_SIZE);

struct rxe_cc_ops rxe_cc_dcqcn_ops = {
	.name		= "dcqcn",
	.priv_size	= sizeof(struct rxe_cc_dcqcn_rp),
	.params_size	= sizeof(struct rxe_cc_dcqcn_params),
	.ack_req_every	= 0,	/* stock: DCQCN does not need the ACK clock */
	.load_params	= dcqcn_load_params,
	.init		= dcqcn_init,
	.on_xmit	= dcqcn_on_xmit,
	.on_cnp		= dcqcn_on_cnp,
	.on_timer	= dcqcn_on_timer,
	.rate_bps	= dcqcn_rate_bps,
	.next_timer_ns	= dcqcn_next_timer_ns,
	.fill_res	= dcqcn_fill_res,
};

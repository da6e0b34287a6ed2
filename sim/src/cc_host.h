/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cc_host.h - a flow's congestion control outside the kernel: one
 * generic host of an algorithm's ops table (struct rxe_cc_ops), as the
 * rxe framework (rxe_cc.c) is in the kernel.  The simulator and the unit
 * tests run every algorithm through it, so they call the very hooks, in
 * the same order and with the same sender context, that the module does:
 *
 *   W       the host counts it: a send adds the bytes before on_xmit, an
 *           ACK takes its bytes off before on_ack (the module's rings do
 *           the same)
 *   knobs   set by their sysfs names from the algorithm's knob rows,
 *           checked by its params_check(), then derived for the flow's
 *           line rate and retransmit timeout as a QP derives them
 *   events  what each hook reported, returned to the caller
 *
 * Plain C (the simulator compiles it as C too), no allocation.
 */
#ifndef SIM_CC_HOST_H
#define SIM_CC_HOST_H

#include "rxe_cc_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any algorithm's state and knobs (the module's are smaller). */
#define CC_HOST_PRIV_U64	128
#define CC_HOST_PARAMS_U64	32

struct cc_host {
	const struct rxe_cc_ops *ops;
	struct rxe_cc_sender s;
	u64 knobs[CC_HOST_PARAMS_U64];	/* as written (sysfs) */
	u64 params[CC_HOST_PARAMS_U64];	/* derived: s.params */
	u64 priv[CC_HOST_PRIV_U64];	/* s.priv */
	bool stale;			/* knobs written since params derived */
	bool xmit_moved;		/* the last on_xmit: rate may have moved */
};

/* The algorithm named @name ("dcqcn", "acc", "timely"), or NULL. */
const struct rxe_cc_ops *cc_host_algo(const char *name);

/*
 * Set up @h for @ops with its default knobs, a line of @line_bps, a
 * retransmit timeout of @rto_ns (0: none), full packets of @frame_bytes.
 * Nothing runs until cc_host_start().  Returns 0 or -EINVAL.
 */
int cc_host_init(struct cc_host *h, const struct rxe_cc_ops *ops,
		 u64 line_bps, u64 rto_ns, u32 frame_bytes);
/* The knob row named @name, or NULL. */
const struct rxe_cc_knob *cc_host_knob(const struct cc_host *h,
				       const char *name);
/*
 * Write knob @name as sysfs would: in its unit, within its row's range,
 * then the algorithm's check of all knobs.  Returns 0, -ENOENT or
 * -EINVAL (nothing changed).  Before cc_host_start(), or between two
 * hooks: a started flow derives its copy anew at its next hook.
 */
int cc_host_set(struct cc_host *h, const char *name, u64 value);
/*
 * The same in the field's own unit (the file's unit times the row's
 * scale), for a host that needs finer values than the file takes: only
 * the algorithm's check applies.
 */
int cc_host_set_field(struct cc_host *h, const char *name, u64 value);
/* Read knob @name in its unit into @value.  0 or -ENOENT. */
int cc_host_get(const struct cc_host *h, const char *name, u64 *value);
/* Start the flow (ops->init); returns its first rate. */
u64 cc_host_start(struct cc_host *h, u64 now_ns);

/*
 * The hooks.  Each returns the events (RXE_CC_EV_*) it reported; the
 * details are in h->s.report until the next hook.  After
 * cc_host_send(), h->xmit_moved says whether on_xmit found that the rate
 * or the next deadline may have moved, as rxe_cc.c asks it.
 */
u32 cc_host_send(struct cc_host *h, u32 bytes, u64 now_ns);
u32 cc_host_ack(struct cc_host *h, const struct rxe_cc_ack *ack, u64 now_ns);
u32 cc_host_cnp(struct cc_host *h, u64 now_ns);
u32 cc_host_timer(struct cc_host *h, u64 now_ns);
/* Bytes in flight that are lost for good (no ACK will take them off). */
void cc_host_forget(struct cc_host *h, u64 bytes);

u64 cc_host_rate_bps(struct cc_host *h, u64 now_ns);
u64 cc_host_next_timer_ns(struct cc_host *h);	/* ~0: none */
u64 cc_host_window_bytes(struct cc_host *h);	/* ~0: no cap */
/* The flow's statistics, named by ops->stat_names: @v holds n_stats. */
void cc_host_stats(struct cc_host *h, u64 *v);

#ifdef __cplusplus
}
#endif

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cc_host.c - the generic host of an algorithm's ops table: see
 * cc_host.h.  What it does before and after each hook mirrors rxe_cc.c
 * (rxe_cc_sender_of(), rxe_cc_qp_params()).
 */
#include <string.h>

#include "cc_host.h"
#include "rxe_cc_acc.h"
#include "rxe_cc_dcqcn.h"
#include "rxe_cc_timely.h"

/* The algorithms, as rxe_cc_algos.c lists the module's. */
static const struct rxe_cc_ops *const cc_host_algos[] = {
	&rxe_cc_dcqcn_ops,
	&rxe_cc_acc_ops,
	&rxe_cc_timely_ops,
	NULL
};

const struct rxe_cc_ops *cc_host_algo(const char *name)
{
	for (int i = 0; cc_host_algos[i]; i++)
		if (!strcmp(cc_host_algos[i]->name, name))
			return cc_host_algos[i];
	return NULL;
}

int cc_host_init(struct cc_host *h, const struct rxe_cc_ops *ops,
		 u64 line_bps, u64 rto_ns, u32 frame_bytes)
{
	memset(h, 0, sizeof(*h));
	if (!ops || ops->priv_size > sizeof(h->priv) ||
	    ops->params_size > sizeof(h->params))
		return -EINVAL;
	h->ops = ops;
	ops->params_default(h->knobs);
	h->s.priv = h->priv;
	h->s.params = h->params;
	h->s.line_rate_bps = line_bps;
	h->s.rto_ns = rto_ns;
	h->s.frame_bytes = frame_bytes;
	h->stale = true;
	return ops->params_check(h->knobs);
}

const struct rxe_cc_knob *cc_host_knob(const struct cc_host *h,
				       const char *name)
{
	for (u32 i = 0; i < h->ops->n_knobs; i++)
		if (!strcmp(h->ops->knobs[i].name, name))
			return &h->ops->knobs[i];
	return NULL;
}

int cc_host_set_field(struct cc_host *h, const char *name, u64 value)
{
	const struct rxe_cc_knob *k = cc_host_knob(h, name);
	u64 copy[CC_HOST_PARAMS_U64];

	if (!k)
		return -ENOENT;
	if (k->size < sizeof(u64) && value >> (8 * k->size))
		return -EINVAL;
	memcpy(copy, h->knobs, sizeof(copy));
	rxe_cc_field_set(copy, k->offset, k->size, value);
	if (h->ops->params_check(copy))
		return -EINVAL;
	memcpy(h->knobs, copy, sizeof(copy));
	h->stale = true;
	return 0;
}

int cc_host_set(struct cc_host *h, const char *name, u64 value)
{
	const struct rxe_cc_knob *k = cc_host_knob(h, name);

	if (!k)
		return -ENOENT;
	if (value < k->min || value > k->max)
		return -EINVAL;
	return cc_host_set_field(h, name, value * k->scale);
}

int cc_host_get(const struct cc_host *h, const char *name, u64 *value)
{
	const struct rxe_cc_knob *k = cc_host_knob(h, name);

	if (!k)
		return -ENOENT;
	*value = rxe_cc_field_get(h->knobs, k->offset, k->size) / k->scale;
	return 0;
}

/*
 * Before every hook, as rxe_cc_sender_of(): the knobs derived anew if
 * they were written; before an event hook (@event) no events yet, so
 * that a query does not wipe what the last event hook reported.
 */
static struct rxe_cc_sender *cc_host_sender(struct cc_host *h, bool event)
{
	if (h->stale) {
		h->ops->derive(&h->s, h->knobs, h->params);
		h->stale = false;
	}
	if (event) {
		h->s.events = 0;
		memset(&h->s.report, 0, sizeof(h->s.report));
	}
	return &h->s;
}

u64 cc_host_start(struct cc_host *h, u64 now_ns)
{
	memset(h->priv, 0, sizeof(h->priv));
	h->s.inflight_bytes = 0;
	h->ops->init(cc_host_sender(h, true), now_ns);
	return cc_host_rate_bps(h, now_ns);
}

u32 cc_host_send(struct cc_host *h, u32 bytes, u64 now_ns)
{
	h->s.inflight_bytes += bytes;
	h->xmit_moved = true;
	if (!h->ops->on_xmit)
		return 0;
	h->xmit_moved = h->ops->on_xmit(cc_host_sender(h, true), bytes, now_ns);
	return h->s.events;
}

u32 cc_host_ack(struct cc_host *h, const struct rxe_cc_ack *ack, u64 now_ns)
{
	h->s.inflight_bytes -= ack->bytes < h->s.inflight_bytes ?
			       ack->bytes : h->s.inflight_bytes;
	if (!h->ops->on_ack)
		return 0;
	h->ops->on_ack(cc_host_sender(h, true), ack, now_ns);
	return h->s.events;
}

u32 cc_host_cnp(struct cc_host *h, u64 now_ns)
{
	if (!h->ops->on_cnp)
		return 0;
	h->ops->on_cnp(cc_host_sender(h, true), now_ns);
	return h->s.events;
}

u32 cc_host_timer(struct cc_host *h, u64 now_ns)
{
	if (!h->ops->on_timer)
		return 0;
	h->ops->on_timer(cc_host_sender(h, true), now_ns);
	return h->s.events;
}

void cc_host_forget(struct cc_host *h, u64 bytes)
{
	h->s.inflight_bytes -= bytes < h->s.inflight_bytes ?
			       bytes : h->s.inflight_bytes;
}

u64 cc_host_rate_bps(struct cc_host *h, u64 now_ns)
{
	return h->ops->rate_bps(cc_host_sender(h, false), now_ns);
}

u64 cc_host_next_timer_ns(struct cc_host *h)
{
	u64 next;

	if (!h->ops->next_timer_ns)
		return ~0ULL;
	next = h->ops->next_timer_ns(cc_host_sender(h, false));
	return next ? next : ~0ULL;
}

u64 cc_host_window_bytes(struct cc_host *h)
{
	if (!h->ops->window_bytes)
		return ~0ULL;
	return h->ops->window_bytes(cc_host_sender(h, false));
}

void cc_host_stats(struct cc_host *h, u64 *v)
{
	if (h->ops->n_stats)
		h->ops->stats(cc_host_sender(h, false), v);
}

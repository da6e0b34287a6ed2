// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_core.c - virtual time, transmitters and the scheduler.
 *
 * Every transmitter (a switch port's egress, or a host NIC model) serialises
 * one frame at a time at exactly its line rate: the remainder of
 * bits*1e9/rate is carried to the next frame, so a saturated port sends
 * exactly rate/(8*wire_bytes) frames per second however the division falls.
 * A frame then spends the propagation delay on the wire and arrives, in
 * order, at the peer.  The event loop always runs the earliest due event
 * (transmitter start, wire arrival, PFC refresh) across the whole core, so
 * several switches interact with exact timing.
 */
#include "lsw_internal.h"
#include "lsw_frame.h"
#include "lsw_rng.h"

#include <stdio.h>

#define DWRR_QUANTUM_MIN_BYTES 1536

const char *lsw_marking_name(enum lsw_marking m)
{
	static const char *const names[] = { "off", "red", "tcd" };

	return (unsigned)m < 3 ? names[m] : "?";
}

const char *lsw_tcd_state_name(enum lsw_tcd_state s)
{
	/* TREND marks nothing, like NO: samplers see it as "NO". */
	static const char *const names[] = { "NO", "UE", "CE", "NO" };

	return (unsigned)s < 4 ? names[s] : "?";
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void egress_init(struct lsw_egress *e, const struct lsw_port_cfg *pc,
			uint8_t strict_min_prio)
{
	memset(e, 0, sizeof(*e));
	e->rate_bps = pc->rate_bps;
	e->delay_ns = pc->delay_ns;
	e->strict_min_prio = strict_min_prio;
}

/* An idle transmitter restarts at now: a queue never borrows idle time. */
void lsw_egress_wake(struct lsw_core *core, struct lsw_egress *e)
{
	if (e->tx_free_ns < core->now_ns) {
		e->tx_free_ns = core->now_ns;
		e->ser_rem = 0;
	}
}

static void pause_close(struct lsw_egress *e, int p, uint64_t end_ns)
{
	e->paused_ns[p] += end_ns - e->paused_since_ns[p];
	e->paused_active &= (uint8_t)~(1u << p);
}

void lsw_egress_set_pause(struct lsw_egress *e, int p, uint64_t until_ns,
			  uint64_t now_ns)
{
	bool active = e->paused_active & (1u << p);

	if (active && e->paused_until_ns[p] <= now_ns) {
		pause_close(e, p, e->paused_until_ns[p]);
		active = false;
	}
	if (until_ns > now_ns) {
		if (!active) {
			e->paused_since_ns[p] = now_ns;
			e->paused_active |= (uint8_t)(1u << p);
		}
	} else if (active) {
		pause_close(e, p, now_ns);
	}
	e->paused_until_ns[p] = until_ns;
}

static uint64_t paused_ns_at(const struct lsw_egress *e, int p, uint64_t now_ns)
{
	uint64_t total = e->paused_ns[p];

	if (e->paused_active & (1u << p))
		total += min_u64(now_ns, e->paused_until_ns[p]) -
			 min_u64(now_ns, e->paused_since_ns[p]);
	return total;
}

/* When this transmitter can next start a frame, or LSW_TIME_NEVER. */
static uint64_t egress_next_tx(const struct lsw_egress *e)
{
	uint64_t t = LSW_TIME_NEVER;

	if (e->ctrl.n)
		return e->tx_free_ns;
	for (int p = 0; p < LSW_NPRIO; p++)
		if (e->q[p].n)
			t = min_u64(t, max_u64(e->tx_free_ns,
					       e->paused_until_ns[p]));
	return t;
}

static bool eligible(const struct lsw_egress *e, int p, uint64_t now_ns)
{
	return e->q[p].n && e->paused_until_ns[p] <= now_ns;
}

/* Deficit round robin over the priorities below strict_min_prio. */
static struct lsw_frame *dwrr_pick(struct lsw_egress *e, uint64_t now_ns)
{
	int n = e->strict_min_prio;
	bool any = false;

	for (int p = 0; p < n; p++)
		any |= eligible(e, p, now_ns);
	if (!any)
		return NULL;
	for (;;) {
		int p = e->rr_next;

		if (eligible(e, p, now_ns)) {
			struct lsw_frame *head = e->q[p].head;

			if (!e->rr_fresh) {
				e->deficit[p] += DWRR_QUANTUM_MIN_BYTES;
				e->rr_fresh = true;
			}
			if (e->deficit[p] >= (int64_t)head->len) {
				e->deficit[p] -= head->len;
				lsw_fifo_pop(&e->q[p]);
				if (!e->q[p].n)
					e->deficit[p] = 0;
				return head;
			}
		} else {
			e->deficit[p] = 0;
		}
		e->rr_next = (p + 1) % n;
		e->rr_fresh = false;
	}
}

static struct lsw_frame *egress_pick(struct lsw_egress *e, uint64_t now_ns)
{
	struct lsw_frame *f = lsw_fifo_pop(&e->ctrl);

	if (f)
		return f;
	for (int p = LSW_NPRIO - 1; p >= e->strict_min_prio; p--)
		if (eligible(e, p, now_ns))
			return lsw_fifo_pop(&e->q[p]);
	return e->strict_min_prio ? dwrr_pick(e, now_ns) : NULL;
}

static uint64_t wire_bytes(const struct lsw_core *core, uint32_t len)
{
	return max_u64(len, LSW_ETH_MIN_BYTES) + core->cfg.wire_overhead_bytes;
}

/* Puts f on the wire: busy for its serialisation, arrives after the delay. */
static void egress_send(struct lsw_core *core, struct lsw_egress *e,
			struct lsw_frame *f)
{
	uint64_t num = wire_bytes(core, f->len) * 8 * NS_PER_S + e->ser_rem;

	e->tx_free_ns = core->now_ns + num / e->rate_bps;
	e->ser_rem = num % e->rate_bps;
	f->due_ns = e->tx_free_ns + e->delay_ns;
	lsw_fifo_push(&e->wire, f);
}

void lsw_tcd_sync(struct lsw_core *core, int port, int prio)
{
	struct lsw_port *pt = &core->port[port];

	lsw_tcd_catch_up(&pt->tcd[prio], pt->out.q[prio].bytes, core->now_ns);
}

static void switch_tx(struct lsw_core *core, int port)
{
	struct lsw_port *pt = &core->port[port];
	struct lsw_prio_stats *st;
	struct lsw_frame *f;

	/* TCD must see every period boundary before the queue changes. */
	for (int p = 0; p < LSW_NPRIO; p++)
		lsw_tcd_sync(core, port, p);
	f = egress_pick(&pt->out, core->now_ns);
	if (!f)
		return;
	if (f->in_port >= 0) { /* data, not our own PFC frame */
		st = &pt->st[f->prio];
		lsw_switch_mark(core, port, f);
		lsw_switch_release(core, f);
		if (!st->frames_out)
			st->tx_first_ns = core->now_ns;
		st->tx_last_ns = core->now_ns;
		st->frames_out++;
		st->bytes_out += f->len;
	}
	egress_send(core, &pt->out, f);
}

static void nic_tx(struct lsw_core *core, int port)
{
	struct lsw_port *pt = &core->port[port];
	struct lsw_frame *f = egress_pick(&pt->nic, core->now_ns);

	if (!f)
		return;
	pt->st[f->prio].host_frames++;
	egress_send(core, &pt->nic, f);
}

static void deliver_to_host(struct lsw_core *core, int port,
			    struct lsw_frame *f)
{
	if (f->len >= LSW_ETH_HDR_BYTES && f->data[12] == 0x88 &&
	    f->data[13] == 0x08)
		lsw_host_pfc(core, port, f); /* MAC control ends at the NIC */
	else if (core->tx)
		core->tx(core->tx_ctx, port, f->data, f->len, core->now_ns);
	free(f);
}

static void wire_arrive(struct lsw_core *core, int port, bool from_nic)
{
	struct lsw_port *pt = &core->port[port];
	const struct lsw_port_cfg *pc = &core->cfg.port[port];
	struct lsw_frame *f;

	if (from_nic) {
		f = lsw_fifo_pop(&pt->nic.wire);
		lsw_switch_ingress(core, port, f);
		return;
	}
	f = lsw_fifo_pop(&pt->out.wire);
	if (pc->kind == LSW_PORT_LINK)
		lsw_switch_ingress(core, pc->peer, f);
	else
		deliver_to_host(core, port, f);
}

enum ev_kind { EV_NONE, EV_TX, EV_NIC_TX, EV_WIRE, EV_NIC_WIRE, EV_REFRESH };

struct ev {
	uint64_t t;
	enum ev_kind kind;
	int port, prio;
};

static void consider(struct ev *ev, uint64_t t, enum ev_kind kind, int port,
		     int prio)
{
	if (t < ev->t)
		*ev = (struct ev){ t, kind, port, prio };
}

static struct ev next_event(const struct lsw_core *core)
{
	struct ev ev = { LSW_TIME_NEVER, EV_NONE, -1, -1 };

	for (int i = 0; i < core->cfg.n_ports; i++) {
		const struct lsw_port *pt = &core->port[i];

		consider(&ev, egress_next_tx(&pt->out), EV_TX, i, 0);
		if (pt->out.wire.head)
			consider(&ev, pt->out.wire.head->due_ns, EV_WIRE, i, 0);
		if (core->cfg.port[i].kind == LSW_PORT_HOST) {
			consider(&ev, egress_next_tx(&pt->nic), EV_NIC_TX, i, 0);
			if (pt->nic.wire.head)
				consider(&ev, pt->nic.wire.head->due_ns,
					 EV_NIC_WIRE, i, 0);
		}
		for (int p = 0; pt->xoff_sent && p < LSW_NPRIO; p++)
			if (pt->xoff_sent & (1u << p))
				consider(&ev, pt->refresh_ns[p], EV_REFRESH, i,
					 p);
	}
	return ev;
}

uint64_t lsw_core_next_event_ns(const struct lsw_core *core)
{
	return next_event(core).t;
}

void lsw_core_advance(struct lsw_core *core, uint64_t now_ns, lsw_tx_fn tx,
		      void *ctx)
{
	core->tx = tx;
	core->tx_ctx = ctx;
	for (;;) {
		struct ev ev = next_event(core);

		if (ev.t > now_ns)
			break;
		core->now_ns = max_u64(core->now_ns, ev.t);
		switch (ev.kind) {
		case EV_TX:
			switch_tx(core, ev.port);
			break;
		case EV_NIC_TX:
			nic_tx(core, ev.port);
			break;
		case EV_WIRE:
			wire_arrive(core, ev.port, false);
			break;
		case EV_NIC_WIRE:
			wire_arrive(core, ev.port, true);
			break;
		case EV_REFRESH:
			lsw_switch_refresh(core, ev.port, ev.prio);
			break;
		case EV_NONE:
			return;
		}
	}
	core->now_ns = max_u64(core->now_ns, now_ns);
}

static int classify(const struct lsw_core *core, int port,
		    const struct lsw_frame_info *fi)
{
	const struct lsw_switch_cfg *sc = &core->cfg.sw[core->cfg.port[port].sw];

	return fi->cls == LSW_FRAME_IP ? sc->dscp_prio[fi->dscp] : 0;
}

void lsw_core_rx(struct lsw_core *core, int port, const uint8_t *data,
		 size_t len, uint64_t now_ns)
{
	struct lsw_port *pt;
	struct lsw_frame_info fi;
	struct lsw_frame *f;
	uint64_t queued = 0;

	if (port < 0 || port >= core->cfg.n_ports ||
	    core->cfg.port[port].kind != LSW_PORT_HOST)
		return;
	/* Frames enter in time order: run everything due before them. */
	lsw_core_advance(core, now_ns, core->tx, core->tx_ctx);
	pt = &core->port[port];
	lsw_frame_parse(data, len, &fi);
	if (fi.cls == LSW_FRAME_RUNT || fi.cls == LSW_FRAME_OVERSIZE) {
		if (fi.cls == LSW_FRAME_RUNT)
			pt->err.runts++;
		else
			pt->err.oversize++;
		return;
	}
	f = lsw_frame_new(data, len);
	if (!f)
		return;
	f->prio = (uint8_t)classify(core, port, &fi);
	for (int p = 0; p < LSW_NPRIO; p++)
		queued += pt->nic.q[p].bytes;
	if (fi.cls == LSW_FRAME_CTRL) {
		lsw_fifo_push(&pt->nic.ctrl, f);
	} else if (queued + len > core->cfg.port[port].host_queue_bytes) {
		pt->st[f->prio].host_drops++;
		free(f);
		return;
	} else {
		lsw_fifo_push(&pt->nic.q[f->prio], f);
		queued += len;
		if (queued > pt->st[f->prio].host_queue_peak_bytes)
			pt->st[f->prio].host_queue_peak_bytes = queued;
	}
	lsw_egress_wake(core, &pt->nic);
}

struct lsw_core *lsw_core_create(const struct lsw_config *cfg, char *err,
				 size_t errlen)
{
	struct lsw_core *core = calloc(1, sizeof(*core));

	if (!core) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	core->cfg = *cfg;
	core->rng = lsw_rng_seed(cfg->seed);
	if (lsw_switch_init(core, err, errlen)) {
		free(core);
		return NULL;
	}
	for (int i = 0; i < cfg->n_ports; i++) {
		struct lsw_port *pt = &core->port[i];
		const struct lsw_switch_cfg *sc = &core->cfg.sw[cfg->port[i].sw];

		egress_init(&pt->out, &cfg->port[i], sc->strict_min_prio);
		egress_init(&pt->nic, &cfg->port[i], sc->strict_min_prio);
	}
	return core;
}

void lsw_core_destroy(struct lsw_core *core)
{
	if (!core)
		return;
	for (int i = 0; i < core->cfg.n_ports; i++) {
		struct lsw_port *pt = &core->port[i];

		for (int p = 0; p < LSW_NPRIO; p++) {
			lsw_fifo_free(&pt->out.q[p]);
			lsw_fifo_free(&pt->nic.q[p]);
		}
		lsw_fifo_free(&pt->out.ctrl);
		lsw_fifo_free(&pt->nic.ctrl);
		lsw_fifo_free(&pt->out.wire);
		lsw_fifo_free(&pt->nic.wire);
	}
	free(core);
}

const struct lsw_config *lsw_core_config(const struct lsw_core *core)
{
	return &core->cfg;
}

void lsw_core_prio_stats(const struct lsw_core *core, int port, int prio,
			 uint64_t now_ns, struct lsw_prio_stats *out)
{
	const struct lsw_port *pt = &core->port[port];

	*out = pt->st[prio];
	out->paused_ns = paused_ns_at(&pt->out, prio, now_ns);
	out->host_paused_ns = paused_ns_at(&pt->nic, prio, now_ns);
}

const struct lsw_port_errors *lsw_core_port_errors(const struct lsw_core *core,
						   int port)
{
	return &core->port[port].err;
}

const struct lsw_switch_stats *lsw_core_switch_stats(const struct lsw_core *core,
						     int sw)
{
	return &core->sw[sw].st;
}

void lsw_core_view(struct lsw_core *core, int port, int prio, uint64_t now_ns,
		   struct lsw_prio_view *v)
{
	struct lsw_port *pt = &core->port[port];

	lsw_tcd_catch_up(&pt->tcd[prio], pt->out.q[prio].bytes, now_ns);
	*v = (struct lsw_prio_view){
		.queue_bytes = pt->out.q[prio].bytes,
		.ingress_bytes = pt->ingress_bytes[prio],
		.host_queue_bytes = pt->nic.q[prio].bytes,
		.paused = pt->out.paused_until_ns[prio] > now_ns,
		.tcd_state = pt->tcd[prio].state,
		.max_ton_ns = pt->tcd[prio].max_ton_ns,
	};
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_switch.c - what a switch does with a frame: classify, forward, admit
 * into the shared buffer, generate and obey PFC, mark ECN at dequeue.
 *
 * Buffer: each switch has buffer_bytes.  headroom_bytes is reserved per
 * (ingress port, lossless priority); the rest is the shared pool.  A
 * lossless frame goes to the shared pool while it has room, else into its
 * (port, prio) headroom, which absorbs what is still in flight after a
 * PAUSE; only a headroom overflow (misconfiguration: headroom smaller than
 * the link's bandwidth-delay product) drops it, and it is counted.  A lossy
 * frame is tail-dropped when its egress queue exceeds lossy_queue_bytes or
 * the shared pool is full.
 *
 * PFC per (ingress port, lossless prio): PAUSE when the ingress counter
 * reaches xoff_bytes or a frame had to use headroom; refresh it after
 * pause_refresh_pct of its time while still above XON; RESUME (time 0) when
 * the counter is at or below xon_bytes and the headroom is empty.
 */
#include "lsw_internal.h"
#include "lsw_frame.h"

#include <stdio.h>

static const uint8_t reserved_prefix[5] = { 0x01, 0x80, 0xc2, 0x00, 0x00 };

static uint64_t pause_time_ns(const struct lsw_egress *e, uint32_t quanta)
{
	return (uint64_t)quanta * LSW_PFC_QUANTUM_BITS * NS_PER_S / e->rate_bps;
}

/* Ports must form a forest: flooding over a loop would never stop. */
static int find_root(int *parent, int i)
{
	while (parent[i] != i)
		i = parent[i] = parent[parent[i]];
	return i;
}

static int check_links(const struct lsw_config *cfg, char *err, size_t errlen)
{
	int parent[LSW_MAX_SWITCHES];

	for (int s = 0; s < cfg->n_switches; s++)
		parent[s] = s;
	for (int i = 0; i < cfg->n_ports; i++) {
		const struct lsw_port_cfg *pc = &cfg->port[i];
		const struct lsw_port_cfg *peer;
		int a, b;

		if (pc->sw < 0 || pc->sw >= cfg->n_switches || !pc->rate_bps) {
			snprintf(err, errlen, "port %s: bad switch or zero rate",
				 pc->name);
			return -1;
		}
		if (pc->kind != LSW_PORT_LINK)
			continue;
		if (pc->peer < 0 || pc->peer >= cfg->n_ports ||
		    cfg->port[pc->peer].peer != i ||
		    cfg->port[pc->peer].kind != LSW_PORT_LINK) {
			snprintf(err, errlen, "port %s: link peer is not symmetric",
				 pc->name);
			return -1;
		}
		peer = &cfg->port[pc->peer];
		if (peer->rate_bps != pc->rate_bps) {
			snprintf(err, errlen, "link %s: both ends need one rate",
				 pc->name);
			return -1;
		}
		if (pc->peer < i)
			continue;
		a = find_root(parent, pc->sw);
		b = find_root(parent, peer->sw);
		if (a == b) {
			snprintf(err, errlen,
				 "link %s closes a loop (flooding needs a tree)",
				 pc->name);
			return -1;
		}
		parent[a] = b;
	}
	return 0;
}

/*
 * What still arrives after we decide to PAUSE: the frame we are sending
 * when the PFC frame queues behind it, the PFC frame, both directions of
 * the wire, and the frame the upstream is sending when the pause lands.
 */
static uint64_t headroom_need_bytes(const struct lsw_config *cfg,
				    const struct lsw_port_cfg *pc)
{
	uint64_t frame = cfg->mtu_bytes + LSW_ETH_HDR_BYTES + 8 /* 2 VLAN tags */ +
			 cfg->wire_overhead_bytes;
	uint64_t pfc = LSW_ETH_MIN_BYTES + cfg->wire_overhead_bytes;
	/* double: rate x delay can exceed 64 bits in ns x b/s */
	uint64_t wire = (uint64_t)((double)pc->rate_bps / 8 * 2 *
				   (double)pc->delay_ns / NS_PER_S);

	return 2 * frame + pfc + wire;
}

static int check_switch(struct lsw_core *core, int s, char *err, size_t errlen)
{
	const struct lsw_switch_cfg *sc = &core->cfg.sw[s];
	struct lsw_switch *sw = &core->sw[s];
	uint64_t reserve = (uint64_t)sw->n_ports * sc->headroom_bytes *
			   (uint64_t)__builtin_popcount(sc->lossless_mask);

	if (sc->xon_bytes >= sc->xoff_bytes) {
		snprintf(err, errlen, "switch %s: xon must be below xoff", sc->name);
		return -1;
	}
	if (reserve >= sc->buffer_bytes ||
	    sc->buffer_bytes - reserve < sc->xoff_bytes) {
		snprintf(err, errlen,
			 "switch %s: buffer %llu B leaves no shared pool above xoff after %llu B of headroom",
			 sc->name, (unsigned long long)sc->buffer_bytes,
			 (unsigned long long)reserve);
		return -1;
	}
	if (!sc->pause_quanta || sc->pause_quanta > 0xffff ||
	    !sc->pause_refresh_pct || sc->pause_refresh_pct >= 100) {
		snprintf(err, errlen, "switch %s: bad pause quanta or refresh",
			 sc->name);
		return -1;
	}
	if (sc->strict_min_prio > LSW_NPRIO || sc->red_kmin_bytes > sc->red_kmax_bytes) {
		snprintf(err, errlen, "switch %s: bad strict priority or red", sc->name);
		return -1;
	}
	for (int i = 0; sc->lossless_mask && i < sw->n_ports; i++) {
		const struct lsw_port_cfg *pc = &core->cfg.port[sw->ports[i]];
		uint64_t need = headroom_need_bytes(&core->cfg, pc);

		if (sc->headroom_bytes < need) {
			snprintf(err, errlen,
				 "switch %s port %s: headroom %llu B is below the %llu B in flight after a pause",
				 sc->name, pc->name,
				 (unsigned long long)sc->headroom_bytes,
				 (unsigned long long)need);
			return -1;
		}
	}
	sw->shared_bytes = sc->buffer_bytes - reserve;
	return 0;
}

static void init_port(struct lsw_core *core, int i)
{
	const struct lsw_config *cfg = &core->cfg;
	const struct lsw_port_cfg *pc = &cfg->port[i];
	const struct lsw_switch_cfg *sc = &cfg->sw[pc->sw];
	/* TCD needs B1 - B0 of the ingress that pauses us: the peer's. */
	const struct lsw_switch_cfg *down =
		pc->kind == LSW_PORT_LINK ? &cfg->sw[cfg->port[pc->peer].sw] : sc;
	uint64_t max_ton = sc->tcd_max_ton_ns;
	struct lsw_port *pt = &core->port[i];

	if (!max_ton)
		max_ton = lsw_tcd_max_ton_ns(down->xoff_bytes - down->xon_bytes,
					     sc->tcd_epsilon, pc->rate_bps,
					     cfg->mtu_bytes, pc->delay_ns);
	for (int p = 0; p < LSW_NPRIO; p++) {
		lsw_tcd_init(&pt->tcd[p], sc->tcd_threshold_bytes,
			     sc->tcd_period_ns, max_ton, 0);
		lsw_tcd_set_rule(&pt->tcd[p], sc->tcd_rule, sc->tcd_kmax_bytes,
				 sc->tcd_pmax, cfg->mtu_bytes);
	}
	/* Locally administered source address for our PFC frames. */
	pt->mac[0] = 0x02;
	pt->mac[1] = 0x6c;
	pt->mac[2] = 0x73;
	pt->mac[3] = (uint8_t)pc->sw;
	pt->mac[4] = (uint8_t)(i >> 8);
	pt->mac[5] = (uint8_t)i;
	pt->pause_ns = (uint64_t)sc->pause_quanta * LSW_PFC_QUANTUM_BITS *
		       NS_PER_S / pc->rate_bps;
}

int lsw_switch_init(struct lsw_core *core, char *err, size_t errlen)
{
	struct lsw_config *cfg = &core->cfg;

	if (cfg->n_ports < 1) {
		snprintf(err, errlen, "no ports: declare a host or a link");
		return -1;
	}
	if (cfg->n_switches < 1 || cfg->n_switches > LSW_MAX_SWITCHES ||
	    cfg->n_ports > LSW_MAX_PORTS ||
	    cfg->n_macs < 0 ||
	    cfg->n_macs > LSW_MAX_SWITCHES * LSW_MAX_MACS) {
		snprintf(err, errlen, "need 1..%d switches and 1..%d ports",
			 LSW_MAX_SWITCHES, LSW_MAX_PORTS);
		return -1;
	}
	if (check_links(cfg, err, errlen))
		return -1;
	for (int i = 0; i < cfg->n_ports; i++) {
		struct lsw_switch *sw = &core->sw[cfg->port[i].sw];

		sw->ports[sw->n_ports++] = i;
	}
	for (int s = 0; s < cfg->n_switches; s++) {
		const struct lsw_switch_cfg *sc = &cfg->sw[s];

		core->sw[s].cfg = sc;
		if (check_switch(core, s, err, errlen))
			return -1;
		lsw_red_init(&core->sw[s].red, sc->red_kmin_bytes,
			     sc->red_kmax_bytes, sc->red_pmax);
	}
	for (int m = 0; m < cfg->n_macs; m++) {
		const struct lsw_mac_cfg *mc = &cfg->mac[m];
		struct lsw_switch *sw;

		if (mc->sw < 0 || mc->sw >= cfg->n_switches || mc->port < 0 ||
		    mc->port >= cfg->n_ports || cfg->port[mc->port].sw != mc->sw) {
			snprintf(err, errlen, "mac entry %d: port not on its switch", m);
			return -1;
		}
		sw = &core->sw[mc->sw];
		if (sw->n_macs >= LSW_MAX_MACS) {
			snprintf(err, errlen, "switch %s: more than %d mac entries",
				 cfg->sw[mc->sw].name, LSW_MAX_MACS);
			return -1;
		}
		memcpy(sw->macs[sw->n_macs].mac, mc->mac, 6);
		sw->macs[sw->n_macs].is_static = true;
		sw->macs[sw->n_macs++].port = mc->port;
	}
	for (int i = 0; i < cfg->n_ports; i++)
		init_port(core, i);
	return 0;
}

static struct lsw_mac_entry *mac_find(struct lsw_switch *sw, const uint8_t *mac)
{
	for (int i = 0; i < sw->n_macs; i++)
		if (!memcmp(sw->macs[i].mac, mac, 6))
			return &sw->macs[i];
	return NULL;
}

static void mac_learn(struct lsw_switch *sw, struct lsw_port *pt, int port,
		      const uint8_t *src)
{
	struct lsw_mac_entry *e;

	if (!sw->cfg->learn || lsw_mac_is_group(src))
		return;
	e = mac_find(sw, src);
	if (e) {
		if (!e->is_static)
			e->port = port;
		return;
	}
	if (sw->n_macs >= LSW_MAX_MACS) {
		pt->err.learn_full++;
		return;
	}
	memcpy(sw->macs[sw->n_macs].mac, src, 6);
	sw->macs[sw->n_macs].is_static = false;
	sw->macs[sw->n_macs++].port = port;
}

static void send_pfc(struct lsw_core *core, int port, int prio, bool pause,
		     bool refresh)
{
	struct lsw_port *pt = &core->port[port];
	const struct lsw_switch_cfg *sc = &core->cfg.sw[core->cfg.port[port].sw];
	uint16_t quanta[LSW_NPRIO] = { 0 };
	uint8_t buf[LSW_PFC_FRAME_BYTES];
	struct lsw_prio_stats *st = &pt->st[prio];
	struct lsw_frame *f;

	quanta[prio] = pause ? (uint16_t)sc->pause_quanta : 0;
	lsw_pfc_build(buf, pt->mac, (uint8_t)(1u << prio), quanta);
	f = lsw_frame_new(buf, sizeof(buf));
	if (!f)
		return;
	lsw_fifo_push(&pt->out.ctrl, f);
	lsw_egress_wake(core, &pt->out);
	st->pfc_tx++;
	if (pause) {
		st->xoff_tx++;
		if (!refresh) /* the crossing, not the keep-alive */
			st->xoff_at_bytes = pt->ingress_bytes[prio];
		pt->xoff_sent |= (uint8_t)(1u << prio);
		pt->refresh_ns[prio] = core->now_ns +
				       pt->pause_ns * sc->pause_refresh_pct / 100;
	} else {
		st->xon_tx++;
		st->xon_at_bytes = pt->ingress_bytes[prio];
		pt->xoff_sent &= (uint8_t)~(1u << prio);
	}
}

void lsw_switch_refresh(struct lsw_core *core, int port, int prio)
{
	send_pfc(core, port, prio, true, true);
}

/* Applies a received PFC frame to an egress; returns the enable vector. */
static uint8_t apply_pfc(struct lsw_core *core, struct lsw_egress *e,
			 const struct lsw_frame *f, int tcd_port)
{
	uint16_t quanta[LSW_NPRIO];
	uint8_t enable;

	if (lsw_pfc_parse(f->data, f->len, &enable, quanta))
		return 0;
	for (int p = 0; p < LSW_NPRIO; p++) {
		uint64_t dur;

		if (!(enable & (1u << p)))
			continue;
		dur = pause_time_ns(e, quanta[p]);
		if (tcd_port >= 0) {
			struct lsw_port *pt = &core->port[tcd_port];

			lsw_tcd_on_pfc(&pt->tcd[p], e->q[p].bytes, dur,
				       core->now_ns);
			pt->st[p].pfc_rx++;
		}
		lsw_egress_set_pause(e, p, core->now_ns + dur, core->now_ns);
	}
	lsw_egress_wake(core, e);
	return enable;
}

void lsw_host_pfc(struct lsw_core *core, int port, const struct lsw_frame *f)
{
	apply_pfc(core, &core->port[port].nic, f, -1);
}

static void maybe_pause(struct lsw_core *core, int port, int prio)
{
	const struct lsw_switch_cfg *sc = &core->cfg.sw[core->cfg.port[port].sw];
	struct lsw_port *pt = &core->port[port];

	if (!(sc->lossless_mask & (1u << prio)) || (pt->xoff_sent & (1u << prio)))
		return;
	if (pt->ingress_bytes[prio] >= sc->xoff_bytes || pt->headroom_bytes[prio])
		send_pfc(core, port, prio, true, false);
}

/* Admits f into out_port's egress queue, charging in_port's counters. */
static void enqueue(struct lsw_core *core, struct lsw_switch *sw, int in_port,
		    int out_port, struct lsw_frame *f)
{
	const struct lsw_switch_cfg *sc = sw->cfg;
	struct lsw_port *in = &core->port[in_port];
	struct lsw_port *out = &core->port[out_port];
	int p = f->prio;
	struct lsw_fifo *q = &out->out.q[p];
	bool shared_ok = sw->shared_used_bytes + f->len <= sw->shared_bytes;

	f->in_port = (int16_t)in_port;
	f->in_headroom = 0;
	if (sc->lossless_mask & (1u << p)) {
		if (!shared_ok) {
			if (in->headroom_bytes[p] + f->len > sc->headroom_bytes)
				goto drop;
			f->in_headroom = 1;
		}
	} else if (!shared_ok || q->bytes + f->len > sc->lossy_queue_bytes) {
		goto drop;
	}
	if (f->in_headroom) {
		in->headroom_bytes[p] += f->len;
		sw->st.headroom_used_bytes += f->len;
		if (sw->st.headroom_used_bytes > sw->st.headroom_peak_bytes)
			sw->st.headroom_peak_bytes = sw->st.headroom_used_bytes;
	} else {
		sw->shared_used_bytes += f->len;
	}
	in->ingress_bytes[p] += f->len;
	if (in->ingress_bytes[p] > in->st[p].ingress_peak_bytes)
		in->st[p].ingress_peak_bytes = in->ingress_bytes[p];
	sw->st.buffer_used_bytes += f->len;
	if (sw->st.buffer_used_bytes > sw->st.buffer_peak_bytes)
		sw->st.buffer_peak_bytes = sw->st.buffer_used_bytes;
	lsw_tcd_sync(core, out_port, p);
	lsw_fifo_push(q, f);
	if (q->bytes > out->st[p].queue_peak_bytes)
		out->st[p].queue_peak_bytes = q->bytes;
	lsw_egress_wake(core, &out->out);
	maybe_pause(core, in_port, p);
	return;
drop:
	out->st[p].drops++;
	free(f);
}

void lsw_switch_release(struct lsw_core *core, struct lsw_frame *f)
{
	int in_port = f->in_port, p = f->prio;
	struct lsw_port *in = &core->port[in_port];
	struct lsw_switch *sw = &core->sw[core->cfg.port[in_port].sw];

	in->ingress_bytes[p] -= f->len;
	sw->st.buffer_used_bytes -= f->len;
	if (f->in_headroom) {
		in->headroom_bytes[p] -= f->len;
		sw->st.headroom_used_bytes -= f->len;
	} else {
		sw->shared_used_bytes -= f->len;
	}
	f->in_port = -1;
	if ((in->xoff_sent & (1u << p)) &&
	    in->ingress_bytes[p] <= sw->cfg->xon_bytes && !in->headroom_bytes[p])
		send_pfc(core, in_port, p, false, false);
}

void lsw_switch_mark(struct lsw_core *core, int port, struct lsw_frame *f)
{
	struct lsw_port *pt = &core->port[port];
	struct lsw_switch *sw = &core->sw[core->cfg.port[port].sw];
	struct lsw_prio_stats *st = &pt->st[f->prio];
	/* The queue this frame saw, itself included (it was just dequeued). */
	uint64_t q = pt->out.q[f->prio].bytes + f->len;
	struct lsw_frame_info fi;
	uint8_t ecn;

	if (sw->cfg->marking == LSW_MARK_OFF)
		return;
	lsw_frame_parse(f->data, f->len, &fi);
	if (fi.cls != LSW_FRAME_IP || fi.ecn == LSW_ECN_NOT_ECT)
		return;
	if (sw->cfg->marking == LSW_MARK_RED) {
		if (!lsw_red_mark(&sw->red, q, &core->rng))
			return;
		ecn = LSW_ECN_CE;
	} else {
		enum lsw_tcd_state s = lsw_tcd_dequeue(&pt->tcd[f->prio], q,
						       core->now_ns, &core->rng);

		ecn = lsw_tcd_remark(s, fi.ecn);
		if (s == LSW_TCD_UE && ecn == LSW_ECN_ECT1)
			st->ue_marks++;
	}
	if (ecn == LSW_ECN_CE)
		st->ce_marks++;
	if (ecn != fi.ecn)
		lsw_frame_set_ecn(f->data, &fi, ecn);
}

static bool is_reserved_dst(const uint8_t *dst)
{
	/* 01-80-C2-00-00-0x: link-local (PFC, LLDP, STP), never forwarded. */
	return !memcmp(dst, reserved_prefix, 5) && dst[5] < 0x10;
}

static bool count_unforwardable(struct lsw_port *pt,
				const struct lsw_frame_info *fi)
{
	switch (fi->cls) {
	case LSW_FRAME_RUNT:
		pt->err.runts++;
		return true;
	case LSW_FRAME_OVERSIZE:
		pt->err.oversize++;
		return true;
	case LSW_FRAME_BAD_IP:
		pt->err.bad_ip++;
		return true;
	default:
		return false;
	}
}

static void forward(struct lsw_core *core, struct lsw_switch *sw, int port,
		    struct lsw_frame *f)
{
	const uint8_t *dst = f->data;
	struct lsw_mac_entry *e = lsw_mac_is_group(dst) ? NULL : mac_find(sw, dst);
	int last = -1;

	if (e) {
		if (e->port == port) {
			core->port[port].err.filtered++;
			free(f);
		} else {
			enqueue(core, sw, port, e->port, f);
		}
		return;
	}
	/* Broadcast, multicast, unknown unicast: flood (the topology is a tree). */
	for (int i = 0; i < sw->n_ports; i++) {
		int out = sw->ports[i];
		struct lsw_frame *copy;

		if (out == port)
			continue;
		if (last >= 0) {
			copy = lsw_frame_new(f->data, f->len);
			if (copy) {
				copy->prio = f->prio;
				enqueue(core, sw, port, last, copy);
			}
		}
		last = out;
	}
	if (last >= 0)
		enqueue(core, sw, port, last, f);
	else
		free(f);
}

void lsw_switch_ingress(struct lsw_core *core, int port, struct lsw_frame *f)
{
	struct lsw_port *pt = &core->port[port];
	struct lsw_switch *sw = &core->sw[core->cfg.port[port].sw];
	struct lsw_frame_info fi;

	lsw_frame_parse(f->data, f->len, &fi);
	if (count_unforwardable(pt, &fi))
		goto drop;
	if (fi.cls == LSW_FRAME_CTRL) {
		if (!apply_pfc(core, &pt->out, f, port))
			pt->err.ctrl_other++;
		goto drop;
	}
	if (is_reserved_dst(f->data)) {
		pt->err.reserved_dst++;
		goto drop;
	}
	f->prio = fi.cls == LSW_FRAME_IP ? sw->cfg->dscp_prio[fi.dscp] : 0;
	pt->st[f->prio].frames_in++;
	pt->st[f->prio].bytes_in += f->len;
	if (fi.cls == LSW_FRAME_IP)
		pt->st[f->prio].ecn_in[fi.ecn & 3]++;
	mac_learn(sw, pt, port, f->data + 6);
	forward(core, sw, port, f);
	return;
drop:
	free(f);
}

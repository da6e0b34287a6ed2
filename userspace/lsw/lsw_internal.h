/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_internal.h - state shared by the core's files (lsw_core.c: time,
 * transmitters, scheduling; lsw_switch.c: ingress, forwarding, buffer, PFC).
 * Nothing outside the core includes it.
 */
#ifndef LSW_INTERNAL_H
#define LSW_INTERNAL_H

#include "lsw_core.h"
#include "lsw_fifo.h"
#include "lsw_mark.h"

#define NS_PER_S 1000000000ULL

/* One transmitter: a switch port's egress, or a host NIC model. */
struct lsw_egress {
	struct lsw_fifo q[LSW_NPRIO];
	struct lsw_fifo ctrl; /* PFC frames: sent first, never paused */
	struct lsw_fifo wire; /* in flight to the peer, due times ascending */
	uint64_t tx_free_ns;  /* transmitter busy until */
	uint64_t ser_rem;     /* serialisation remainder, in 1/rate ns */
	uint64_t paused_until_ns[LSW_NPRIO];
	uint64_t paused_since_ns[LSW_NPRIO];
	uint64_t paused_ns[LSW_NPRIO]; /* completed pause time */
	uint8_t paused_active;         /* bit p: a pause is running */
	int64_t deficit[LSW_NPRIO];    /* DWRR */
	int rr_next;
	bool rr_fresh;
	uint64_t rate_bps, delay_ns;
	uint8_t strict_min_prio;
};

struct lsw_port {
	struct lsw_egress out; /* switch -> peer switch, or -> host */
	struct lsw_egress nic; /* HOST only: host NIC model -> switch */
	struct lsw_tcd tcd[LSW_NPRIO];
	uint64_t ingress_bytes[LSW_NPRIO];  /* PFC ingress counter */
	uint64_t headroom_bytes[LSW_NPRIO]; /* of which in headroom */
	uint8_t xoff_sent;                  /* bit p: upstream is paused */
	uint64_t refresh_ns[LSW_NPRIO];
	uint64_t pause_ns;                  /* our pause_quanta on this link */
	uint8_t mac[6];
	struct lsw_prio_stats st[LSW_NPRIO];
	struct lsw_port_errors err;
};

struct lsw_mac_entry {
	uint8_t mac[6];
	bool is_static;
	int port;
};

struct lsw_switch {
	const struct lsw_switch_cfg *cfg;
	int ports[LSW_MAX_PORTS], n_ports;
	struct lsw_mac_entry macs[LSW_MAX_MACS];
	int n_macs;
	uint64_t shared_bytes; /* buffer minus all headroom reservations */
	uint64_t shared_used_bytes;
	struct lsw_red red;
	struct lsw_switch_stats st;
};

struct lsw_core {
	struct lsw_config cfg;
	struct lsw_port port[LSW_MAX_PORTS];
	struct lsw_switch sw[LSW_MAX_SWITCHES];
	uint64_t now_ns;
	uint64_t rng;
	lsw_tx_fn tx;
	void *tx_ctx;
};

/* lsw_core.c */
void lsw_egress_wake(struct lsw_core *core, struct lsw_egress *e);
void lsw_egress_set_pause(struct lsw_egress *e, int prio, uint64_t until_ns,
			  uint64_t now_ns);
void lsw_tcd_sync(struct lsw_core *core, int port, int prio);

/* lsw_switch.c */
int lsw_switch_init(struct lsw_core *core, char *err, size_t errlen);
void lsw_switch_ingress(struct lsw_core *core, int port, struct lsw_frame *f);
/* A frame leaves a switch egress queue: free its buffer, maybe send XON. */
void lsw_switch_release(struct lsw_core *core, struct lsw_frame *f);
void lsw_switch_mark(struct lsw_core *core, int port, struct lsw_frame *f);
void lsw_switch_refresh(struct lsw_core *core, int port, int prio);
/* A PFC frame reached the end of a link at port's NIC (host) side. */
void lsw_host_pfc(struct lsw_core *core, int port, const struct lsw_frame *f);

#endif

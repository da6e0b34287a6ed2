/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_core.h - the lab-switch emulator core: a pure model on a virtual clock.
 *
 * The core owns switches, ports, queues, the shared buffer, PFC, ECN (RED)
 * and TCD marking.  It does no I/O and reads no clock: the caller passes the
 * time in every call (nanoseconds, monotonic, any origin) and receives the
 * frames that reach an emulated host through a callback.  The same core runs
 * under the real-time I/O loop (lsw_io.c), the unit tests and, later, a
 * simulator.
 *
 * Port model (see README.md "Model"):
 *
 *   host --UDP-- [host NIC model] ==link== [switch port] ...switch... [port] ==link== peer
 *
 * A host port is a switch port plus a model of the host's NIC transmit side:
 * frames that the real host sends (lsw_core_rx) first wait in the NIC model,
 * which serialises them at line rate and honours PFC from the switch, because
 * the virtio/veth NIC of an emulated host cannot pause.  A link port is joined
 * to a port of another switch in the same core.
 */
#ifndef LSW_CORE_H
#define LSW_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lsw_mark.h" /* enum lsw_tcd_state */

#define LSW_NPRIO 8
#define LSW_NDSCP 64
#define LSW_MAX_SWITCHES 16
#define LSW_MAX_PORTS 64 /* all switch ports in one core */
#define LSW_MAX_MACS 256 /* static + learned entries per switch */
#define LSW_NAME_MAX 32
/* Largest frame accepted (jumbo 9000 MTU + Ethernet + two VLAN tags). */
#define LSW_MAX_FRAME_BYTES 9234
#define LSW_TIME_NEVER UINT64_MAX

enum lsw_marking { LSW_MARK_OFF, LSW_MARK_RED, LSW_MARK_TCD };

enum lsw_port_kind { LSW_PORT_HOST, LSW_PORT_LINK };

struct lsw_switch_cfg {
	char name[LSW_NAME_MAX];
	enum lsw_marking marking;
	uint64_t buffer_bytes;   /* shared buffer incl. PFC headroom */
	uint64_t xoff_bytes;     /* per (ingress port, prio): send PAUSE at/above */
	uint64_t xon_bytes;      /* ... send RESUME at/below */
	uint64_t headroom_bytes; /* per (ingress port, lossless prio) */
	uint32_t pause_quanta;   /* 1..65535, in 512-bit times of the link */
	uint32_t pause_refresh_pct; /* re-send PAUSE after this % of its time */
	uint64_t lossy_queue_bytes; /* tail-drop limit of a lossy egress queue */
	uint64_t red_kmin_bytes, red_kmax_bytes;
	double red_pmax;         /* 0..1 */
	uint64_t tcd_threshold_bytes; /* K */
	uint64_t tcd_period_ns;  /* T */
	uint64_t tcd_max_ton_ns; /* 0: computed per port from the formula */
	double tcd_epsilon;
	enum lsw_tcd_rule tcd_rule; /* how NO/CE is decided outside UE */
	uint64_t tcd_kmax_bytes; /* DEQUEUE: RED K..kmax if > K, else a step */
	double tcd_pmax;         /* ... its Pmax */
	uint8_t lossless_mask;   /* bit p: priority p is lossless (PFC) */
	uint8_t strict_min_prio; /* priorities >= this are strict priority */
	uint8_t dscp_prio[LSW_NDSCP];
	bool learn;              /* learn source MACs (static entries win) */
};

struct lsw_port_cfg {
	char name[LSW_NAME_MAX];
	int sw;               /* owning switch index */
	enum lsw_port_kind kind;
	int peer;             /* LINK: the other switch's port index; HOST: -1 */
	uint64_t rate_bps;
	uint64_t delay_ns;    /* one-way propagation */
	uint64_t host_queue_bytes; /* HOST: NIC transmit queue limit */
	/* I/O only (HOST): IPv4 loopback endpoints, host byte order. */
	uint32_t local_ip, remote_ip;
	uint16_t local_port, remote_port;
};

struct lsw_mac_cfg {
	int sw;
	uint8_t mac[6];
	int port;
};

struct lsw_config {
	int n_switches, n_ports, n_macs;
	struct lsw_switch_cfg sw[LSW_MAX_SWITCHES];
	struct lsw_port_cfg port[LSW_MAX_PORTS];
	struct lsw_mac_cfg mac[LSW_MAX_SWITCHES * LSW_MAX_MACS];
	uint32_t wire_overhead_bytes; /* preamble+SFD+FCS+IFG added per frame */
	uint32_t mtu_bytes;           /* for TCD max(T_on) */
	uint64_t seed;                /* PRNG seed for RED */
};

/* Counters per (port, priority), both directions of a switch port. */
struct lsw_prio_stats {
	uint64_t frames_in, bytes_in;   /* received by the switch port */
	uint64_t frames_out, bytes_out; /* sent by the switch port */
	uint64_t drops;                 /* tail drops (lossy) or headroom overflow */
	uint64_t pfc_tx, pfc_rx;        /* PFC frames with this prio enabled */
	uint64_t xoff_tx, xon_tx;       /* of pfc_tx: pause / resume */
	uint64_t paused_ns;             /* time this egress prio was paused */
	uint64_t queue_peak_bytes;      /* egress queue */
	uint64_t ingress_peak_bytes;    /* PFC ingress counter */
	uint64_t ce_marks, ue_marks;
	/* IP frames received, by ECN codepoint (index: Not-ECT, ECT(1), ECT(0), CE). */
	uint64_t ecn_in[4];
	uint64_t tx_first_ns, tx_last_ns; /* start of first / last departure */
	uint64_t xoff_at_bytes, xon_at_bytes; /* ingress counter at last decision */
	/* Host NIC model (HOST ports only). */
	uint64_t host_frames, host_drops, host_queue_peak_bytes, host_paused_ns;
};

/* Frames that were not forwarded, per switch port (ingress side). */
struct lsw_port_errors {
	uint64_t runts, oversize, bad_ip, ctrl_other, reserved_dst, filtered;
	uint64_t learn_full;
};

struct lsw_switch_stats {
	uint64_t buffer_used_bytes, buffer_peak_bytes;
	uint64_t headroom_used_bytes, headroom_peak_bytes;
};

/* What a sampler sees of one (port, priority) at a time. */
struct lsw_prio_view {
	uint64_t queue_bytes;   /* egress queue */
	uint64_t ingress_bytes; /* PFC ingress counter */
	uint64_t host_queue_bytes;
	bool paused;            /* egress prio paused by the peer */
	enum lsw_tcd_state tcd_state;
	uint64_t max_ton_ns;
};

struct lsw_core;

/* Called when a frame reaches the emulated host behind HOST port `port`. */
typedef void (*lsw_tx_fn)(void *ctx, int port, const uint8_t *frame,
			  size_t len, uint64_t now_ns);

/* Validates cfg; on error returns NULL and writes a message to err. */
struct lsw_core *lsw_core_create(const struct lsw_config *cfg, char *err,
				 size_t errlen);
void lsw_core_destroy(struct lsw_core *core);

/* A frame from the host behind HOST port `port` enters its NIC model. */
void lsw_core_rx(struct lsw_core *core, int port, const uint8_t *frame,
		 size_t len, uint64_t now_ns);
/* Earliest time something happens, or LSW_TIME_NEVER. */
uint64_t lsw_core_next_event_ns(const struct lsw_core *core);
/* Runs every event due at or before now_ns, in time order. */
void lsw_core_advance(struct lsw_core *core, uint64_t now_ns, lsw_tx_fn tx,
		      void *ctx);

const struct lsw_config *lsw_core_config(const struct lsw_core *core);
/* Copies the counters; paused time is brought up to now_ns. */
void lsw_core_prio_stats(const struct lsw_core *core, int port, int prio,
			 uint64_t now_ns, struct lsw_prio_stats *out);
const struct lsw_port_errors *lsw_core_port_errors(const struct lsw_core *core,
						   int port);
const struct lsw_switch_stats *lsw_core_switch_stats(const struct lsw_core *core,
						     int sw);
/* Brings lazy state (TCD periods, pause expiry) up to now_ns first. */
void lsw_core_view(struct lsw_core *core, int port, int prio, uint64_t now_ns,
		   struct lsw_prio_view *view);

const char *lsw_marking_name(enum lsw_marking m);
const char *lsw_tcd_state_name(enum lsw_tcd_state s);

#endif

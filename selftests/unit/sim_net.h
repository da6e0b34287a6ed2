/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * sim_net.h - the packet-level network of the unit simulations: senders
 * feed one bottleneck FIFO that marks by its queue depth, and each packet
 * returns to its sender as an ACK carrying the mark.
 *
 *	sender i --(d_fwd)--> [ FIFO, mark by queue ] --C--> receiver
 *	    ^                                                    |
 *	    +----------------- ACK + mark (d_back) --------------+
 *
 * Time advances in fixed steps (cfg.step_ns); the three pipes are FIFOs
 * ordered by time because their delays are constant.  Base RTT =
 * d_fwd + one transmission time + d_back.
 */
#ifndef SIM_NET_H
#define SIM_NET_H

#include "rxe_cc_core.h"

#define SIM_RING		(1U << 15)

struct sim_net_cfg {
	u64 line_bps;		/* bottleneck rate */
	u32 pkt_bytes;
	u64 d_fwd_ns;		/* sender to switch */
	u64 d_back_ns;		/* switch to receiver to ACK at the sender */
	u64 step_ns;
	/*
	 * Marking at dequeue on the queue depth q (the packet included):
	 * none at q <= kmin, RED p = pmax (q - kmin) / (kmax - kmin) up to
	 * kmax, all above it; kmin = kmax is a step (TCD's threshold).
	 */
	u64 kmin_bytes;
	u64 kmax_bytes;
	u32 pmax_permille;
	u64 seed;		/* RED's PRNG */
};

struct sim_pkt {
	u64 t_ns;		/* when it reaches the next stage */
	u64 sent_ns;
	u32 flow;
	u8 mark;		/* RXE_CC_MARK_* */
};

struct sim_fifo {
	struct sim_pkt p[SIM_RING];
	u32 head, tail;
};

struct sim_net {
	struct sim_net_cfg cfg;
	struct sim_fifo fwd, queue, ack;
	u64 queue_bytes;
	u64 queue_peak_bytes;
	u64 busy_until_ns;
	u64 busy_ns;		/* bottleneck busy time since measure_from_ns */
	u64 measure_from_ns;
	u64 rng;
};

void sim_net_init(struct sim_net *n, const struct sim_net_cfg *cfg);
/* Base RTT: both delays and one transmission at the line rate. */
u64 sim_net_base_rtt_ns(const struct sim_net_cfg *cfg);
void sim_net_send(struct sim_net *n, u32 flow, u64 now_ns);
/* Arrivals join the queue; the link starts the next packet when idle. */
void sim_net_switch_step(struct sim_net *n, u64 now_ns);
/* The next ACK due at @now_ns, or NULL; sim_net_ack_pop() consumes it. */
const struct sim_pkt *sim_net_ack_due(struct sim_net *n, u64 now_ns);
void sim_net_ack_pop(struct sim_net *n);

#endif /* SIM_NET_H */

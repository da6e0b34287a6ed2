/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * hpcc.h - HPCC (Li et al., SIGCOMM'19), window control from
 * in-band telemetry, sender side.  Hermetic like rxe-acc's cores, but
 * only the simulator runs it: it needs INT records from every switch,
 * which the simulator's switches write and lsw does not, so it is not
 * built into the module.  The rules are stated in
 * the header comment of hpcc.c.
 */
#ifndef SIM_HPCC_H
#define SIM_HPCC_H

#include "rxe_cc_core.h"

#define HPCC_MAX_HOPS		6
#define HPCC_U_SHIFT		16	/* utilisation of 2^16 */
#define HPCC_U_ONE		BIT(HPCC_U_SHIFT)
#define HPCC_MAX_RATE_BPS	(1600ULL * 1000 * 1000 * 1000)
#define HPCC_MAX_RTT_NS		(10ULL * 1000 * 1000)	/* 10 ms */

/* One hop's INT record, written by the switch at dequeue. */
struct hpcc_int {
	u64 ts_ns;		/* switch clock */
	u64 tx_bytes;		/* egress byte counter */
	u64 qlen_bytes;		/* egress queue */
	u64 rate_bps;		/* egress link speed */
};

struct hpcc_params {
	u64 line_rate_bps;	/* port speed, [1 kb/s, 1.6 Tb/s] */
	u64 base_rtt_ns;	/* T, (0, 10 ms] */
	u64 w_ai_bytes;		/* additive increase per update, > 0 */
	u64 w_min_bytes;	/* floor of W, > 0 */
	u32 eta;		/* target utilisation, of U_ONE, (0, U_ONE] */
	u32 max_stage;		/* additive updates before a multiplicative */
};

struct hpcc {
	u64 rate_bps;		/* W / T, at most the line rate */
	u64 w_bytes;		/* W: the window */
	u64 wc_bytes;		/* W_c: reference window, once per RTT */
	u64 u;			/* U: EWMA of the max normalised load, of ONE */
	u64 snd_bytes;		/* bytes sent so far */
	u64 acked_bytes;	/* bytes acknowledged so far */
	u64 last_update_seq;	/* W_c is renewed when acked passes this */
	u32 inc_stage;
	u32 nhop;		/* hops in prev[]; 0 = no INT yet */
	struct hpcc_int prev[HPCC_MAX_HOPS];
};

void hpcc_params_default(struct hpcc_params *p);
int hpcc_params_check(const struct hpcc_params *p);
void hpcc_init(struct hpcc *st,
		      const struct hpcc_params *p, u64 now_ns);
void hpcc_on_send(struct hpcc *st, u32 bytes);
/* One ACK carrying @nhop INT records (the data packet's path). */
void hpcc_on_ack(struct hpcc *st,
			const struct hpcc_params *p, u32 acked_bytes,
			const struct hpcc_int *hop, u32 nhop,
			u64 now_ns);
u64 hpcc_window_bytes(const struct hpcc *st);
/* Pacing rate W / T, at most the line rate. */
u64 hpcc_rate_bps(const struct hpcc *st);

#endif /* SIM_HPCC_H */

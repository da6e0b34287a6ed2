// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * hpcc.c - HPCC (Li et al., SIGCOMM'19), sender side, Algorithm 1
 * of the paper.  Every ACK echoes the INT records of its data packet, one
 * per switch hop.  Against the previous ACK's records, for each hop i:
 *
 *	tx_rate_i = (tx_bytes_i - prev) / (ts_i - prev)
 *	u_i = min(qlen_i, prev qlen_i) / (B_i T) + tx_rate_i / B_i
 *
 * u = max u_i, tau its ts interval (<= T); U = (1 - tau/T) U + tau/T u.
 * Then W = W_c / (U / eta) + W_AI if U >= eta or inc_stage >= max_stage,
 * else W = W_c + W_AI.  Once per RTT (the ACK passes the sequence sent
 * when W_c was last renewed) W_c = W, and inc_stage counts additive
 * renewals (0 after a multiplicative one).  W lies in [w_min, B T] and
 * the pacing rate is W / T, at most the line rate.  (Ours: the queue
 * term is capped at 4 BDP and tx_rate at the hop's rate, so that one odd
 * record cannot collapse W; U_ONE * 5 bounds u.)
 *
 * Units and overflow: utilisations of 2^16; rates u64 bps <= 1.6e12;
 * T <= 10 ms, so B T / 8e9 <= 2e9 bytes.  Every product of two of them
 * goes through mul_u64_u64_div_u64() (128-bit intermediate).
 */
#include "hpcc.h"

void hpcc_params_default(struct hpcc_params *p)
{
	*p = (struct hpcc_params){
		.line_rate_bps = 100ULL * 1000 * 1000 * 1000,
		.base_rtt_ns = 10 * NSEC_PER_USEC,
		/* B T (1 - eta) / 16 at 100 Gb/s and 10 us: 16 flows */
		.w_ai_bytes = 400,
		.w_min_bytes = 1000,
		.eta = HPCC_U_ONE * 95 / 100,
		.max_stage = 5,
	};
}

int hpcc_params_check(const struct hpcc_params *p)
{
	if (p->line_rate_bps < 1000 ||
	    p->line_rate_bps > HPCC_MAX_RATE_BPS ||
	    !p->base_rtt_ns || p->base_rtt_ns > HPCC_MAX_RTT_NS ||
	    !p->w_ai_bytes || !p->w_min_bytes ||
	    !p->eta || p->eta > HPCC_U_ONE)
		return -1;
	return 0;
}

static u64 hpcc_bdp_bytes(u64 rate_bps, const struct hpcc_params *p)
{
	return mul_u64_u64_div_u64(rate_bps, p->base_rtt_ns,
				   RXE_CC_BIT_NS_PER_BYTE_S);
}

static void hpcc_set_w(struct hpcc *st,
		       const struct hpcc_params *p, u64 w)
{
	u64 cap = max_t(u64, hpcc_bdp_bytes(p->line_rate_bps, p),
			p->w_min_bytes);

	st->w_bytes = clamp_t(u64, w, p->w_min_bytes, cap);
	st->rate_bps = min_t(u64, mul_u64_u64_div_u64(st->w_bytes,
						      RXE_CC_BIT_NS_PER_BYTE_S,
						      p->base_rtt_ns),
			     p->line_rate_bps);
}

void hpcc_init(struct hpcc *st,
		      const struct hpcc_params *p, u64 now_ns)
{
	(void)now_ns;
	*st = (struct hpcc){ 0 };
	hpcc_set_w(st, p, hpcc_bdp_bytes(p->line_rate_bps, p));
	st->wc_bytes = st->w_bytes;
}

void hpcc_on_send(struct hpcc *st, u32 bytes)
{
	st->snd_bytes += bytes;
}

/* u' of one hop against its previous record, of U_ONE; *dt_ns its span. */
static u64 hpcc_hop_u(const struct hpcc_int *h,
		      const struct hpcc_int *o,
		      const struct hpcc_params *p, u64 *dt_ns)
{
	u64 q = min_t(u64, h->qlen_bytes, o->qlen_bytes);
	u64 bdp = max_t(u64, hpcc_bdp_bytes(h->rate_bps, p), 1);
	u64 dt = h->ts_ns - o->ts_ns;
	u64 dtx = h->tx_bytes - o->tx_bytes;
	u64 tx_rate;

	*dt_ns = dt;
	tx_rate = mul_u64_u64_div_u64(dtx, RXE_CC_BIT_NS_PER_BYTE_S, dt);
	/* a counter can not run faster than its link: bounds the sum */
	tx_rate = min_t(u64, tx_rate, h->rate_bps);
	return mul_u64_u64_div_u64(min_t(u64, q, 4 * bdp), HPCC_U_ONE,
				   bdp) +
	       mul_u64_u64_div_u64(tx_rate, HPCC_U_ONE, h->rate_bps);
}

/* MeasureInflight: false when there is no usable INT yet. */
static bool hpcc_measure(struct hpcc *st,
			 const struct hpcc_params *p,
			 const struct hpcc_int *hop, u32 nhop)
{
	u64 u = 0, tau = 0;
	bool ok = st->nhop == nhop && nhop > 0;
	u32 i;

	for (i = 0; ok && i < nhop; i++) {
		u64 dt, ui;

		if (hop[i].ts_ns <= st->prev[i].ts_ns || !hop[i].rate_bps ||
		    hop[i].tx_bytes < st->prev[i].tx_bytes) {
			ok = false;
			break;
		}
		ui = hpcc_hop_u(&hop[i], &st->prev[i], p, &dt);
		if (ui > u) {
			u = ui;
			tau = dt;
		}
	}
	for (i = 0; i < nhop; i++)
		st->prev[i] = hop[i];
	st->nhop = nhop;
	if (!ok)
		return false;
	tau = min_t(u64, tau, p->base_rtt_ns);
	st->u = div64_u64(st->u * (p->base_rtt_ns - tau) + u * tau,
			  p->base_rtt_ns);
	return true;
}

void hpcc_on_ack(struct hpcc *st,
			const struct hpcc_params *p, u32 acked_bytes,
			const struct hpcc_int *hop, u32 nhop,
			u64 now_ns)
{
	bool update_wc;
	u64 w;

	(void)now_ns;
	nhop = min_t(u32, nhop, HPCC_MAX_HOPS);
	st->acked_bytes += acked_bytes;
	if (!hpcc_measure(st, p, hop, nhop))
		return;
	update_wc = st->acked_bytes > st->last_update_seq;
	if (st->u >= p->eta || st->inc_stage >= p->max_stage) {
		w = mul_u64_u64_div_u64(st->wc_bytes, p->eta,
					max_t(u64, st->u, 1)) + p->w_ai_bytes;
		if (update_wc)
			st->inc_stage = 0;
	} else {
		w = st->wc_bytes + p->w_ai_bytes;
		if (update_wc)
			st->inc_stage++;
	}
	hpcc_set_w(st, p, w);
	if (update_wc) {
		st->wc_bytes = st->w_bytes;
		st->last_update_seq = st->snd_bytes;
	}
}

u64 hpcc_window_bytes(const struct hpcc *st)
{
	return st->w_bytes;
}

u64 hpcc_rate_bps(const struct hpcc *st)
{
	return st->rate_bps;
}

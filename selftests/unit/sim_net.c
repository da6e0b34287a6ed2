// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sim_net.c - the bottleneck network of the unit simulations (sim_net.h).
 */
#include <string.h>

#include "test_util.h"
#include "sim_net.h"

static bool fifo_empty(const struct sim_fifo *q)
{
	return q->head == q->tail;
}

static void fifo_push(struct sim_fifo *q, struct sim_pkt pkt)
{
	assert_true(q->tail - q->head < SIM_RING);
	q->p[q->tail++ % SIM_RING] = pkt;
}

static struct sim_pkt *fifo_peek(struct sim_fifo *q)
{
	return fifo_empty(q) ? NULL : &q->p[q->head % SIM_RING];
}

void sim_net_init(struct sim_net *n, const struct sim_net_cfg *cfg)
{
	memset(n, 0, sizeof(*n));
	n->cfg = *cfg;
	n->rng = cfg->seed;
	assert_true(cfg->kmin_bytes <= cfg->kmax_bytes);
	assert_true(cfg->pmax_permille <= 1000);
}

u64 sim_net_base_rtt_ns(const struct sim_net_cfg *cfg)
{
	return cfg->d_fwd_ns + cfg->d_back_ns +
	       rxe_cc_tx_time_ns(cfg->pkt_bytes, cfg->line_bps);
}

void sim_net_send(struct sim_net *n, u32 flow, u64 now_ns)
{
	fifo_push(&n->fwd, (struct sim_pkt) {
		.t_ns = now_ns + n->cfg.d_fwd_ns, .sent_ns = now_ns,
		.flow = flow });
}

static u8 mark_of(struct sim_net *n, u64 q)
{
	const struct sim_net_cfg *c = &n->cfg;
	u64 p_ppm;

	if (q <= c->kmin_bytes)
		return RXE_CC_MARK_NO;
	if (q > c->kmax_bytes)
		return RXE_CC_MARK_CE;
	/* kmin < q <= kmax, so kmax > kmin here. */
	p_ppm = c->pmax_permille * 1000ULL * (q - c->kmin_bytes) /
		(c->kmax_bytes - c->kmin_bytes);
	return prng_next(&n->rng) % 1000000 < p_ppm ? RXE_CC_MARK_CE :
						      RXE_CC_MARK_NO;
}

void sim_net_switch_step(struct sim_net *n, u64 now_ns)
{
	const u64 tx_ns = rxe_cc_tx_time_ns(n->cfg.pkt_bytes, n->cfg.line_bps);
	struct sim_pkt *pkt;

	while ((pkt = fifo_peek(&n->fwd)) && pkt->t_ns <= now_ns) {
		fifo_push(&n->queue, *pkt);
		n->queue_bytes += n->cfg.pkt_bytes;
		if (n->queue_bytes > n->queue_peak_bytes)
			n->queue_peak_bytes = n->queue_bytes;
		n->fwd.head++;
	}
	if (n->busy_until_ns > now_ns || fifo_empty(&n->queue))
		return;
	pkt = fifo_peek(&n->queue);
	/* Mark at dequeue (TCD marks at dequeue too). */
	pkt->mark = mark_of(n, n->queue_bytes);
	pkt->t_ns = now_ns + tx_ns + n->cfg.d_back_ns;
	fifo_push(&n->ack, *pkt);
	n->queue.head++;
	n->queue_bytes -= n->cfg.pkt_bytes;
	n->busy_until_ns = now_ns + tx_ns;
	if (now_ns >= n->measure_from_ns)
		n->busy_ns += tx_ns;
}

const struct sim_pkt *sim_net_ack_due(struct sim_net *n, u64 now_ns)
{
	struct sim_pkt *a = fifo_peek(&n->ack);

	return a && a->t_ns <= now_ns ? a : NULL;
}

void sim_net_ack_pop(struct sim_net *n)
{
	n->ack.head++;
}

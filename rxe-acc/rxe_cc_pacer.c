// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_pacer.c - token-bucket pacer for the rxe congestion-control cores.
 *
 * The CC algorithm decides a rate; the pacer turns it into "may this packet
 * leave now, and if not, in how many ns".  The requester asks
 * rxe_cc_pacer_wait_ns() before building a packet, arms its hrtimer for the
 * answer when it is not 0, and calls rxe_cc_pacer_consume() once the packet
 * is sent.  A packet no larger than ready_bytes need not ask: the bucket
 * held that much when the pacer last changed, and holds at least as much
 * until it changes again.  A requester at a rate it cannot reach, the
 * common case, reads one field instead of the clock.
 *
 * Model
 * -----
 * A bucket of credit fills continuously at rate_bps up to a depth of
 * burst_bytes.  A packet of B bytes needs min(B, burst) bytes of credit to
 * leave and then takes all B bytes, so credit may go negative (a debt) when
 * a packet is larger than the bucket; the long-run rate stays exact and a
 * packet larger than the burst can never deadlock.
 *
 *	      fill at rate_bps, stop at cap
 *	 +--------------------------------------+
 *	 |                                      v
 *	 |      credit >= need ?   yes --> send, credit -= cost
 *	 |            | no
 *	 |            v
 *	 +---- wait (need - credit) / rate_bps ns
 *
 * Accuracy
 * --------
 * Credit is kept in nano-bits (1e-9 bit): t ns at R bit/s earn exactly
 * t * R nano-bits and a byte costs exactly 8e9 of them, so the bucket never
 * rounds.  The only rounding is the ceiling of the wait time, which can only
 * make the caller come back late; a late caller loses nothing because credit
 * accrues from last_ns regardless of when we are asked, up to the cap.  The
 * long-run rate error is therefore bounded by the credit lost at the cap,
 * i.e. zero for a caller that is never later than burst_bytes' worth of time.
 *
 * Overflow
 * --------
 * cap   <= RXE_CC_PACER_MAX_BURST_BYTES * 8e9	   = 1.35e17
 * debt  <= RXE_CC_PACER_MAX_PKT_BYTES * 8e9	   = 1.35e17
 * fill_ns is the time to go from the deepest debt to the cap; a larger
 * elapsed time saturates without multiplying, and a smaller one multiplies
 * to at most (cap + debt + rate_bps) < 2.8e17, far inside s64 (9.2e18).
 */
#include "rxe_cc_pacer.h"

static s64 pacer_cost_nbit(u32 bytes)
{
	return (s64)min_t(u32, bytes, RXE_CC_PACER_MAX_PKT_BYTES) *
	       (s64)RXE_CC_BIT_NS_PER_BYTE_S;
}

static s64 pacer_cap_nbit(const struct rxe_cc_pacer *p)
{
	return pacer_cost_nbit(p->burst_bytes);
}

static void pacer_update_fill(struct rxe_cc_pacer *p)
{
	u64 span = (u64)pacer_cap_nbit(p) +
		   (u64)pacer_cost_nbit(RXE_CC_PACER_MAX_PKT_BYTES);

	p->fill_ns = p->rate_bps ? div64_u64(span, p->rate_bps) + 1 :
				   RXE_CC_NEVER_NS;
}

/* Credit the bucket holds at @now_ns, without changing the pacer. */
static s64 pacer_credit_at(const struct rxe_cc_pacer *p, u64 now_ns)
{
	s64 cap = pacer_cap_nbit(p);
	u64 elapsed;
	s64 credit;

	if (now_ns <= p->last_ns || !p->rate_bps)
		return p->credit_nbit;
	elapsed = now_ns - p->last_ns;
	if (elapsed >= p->fill_ns)
		return cap;
	credit = p->credit_nbit + (s64)(elapsed * p->rate_bps);
	return min_t(s64, credit, cap);
}

static void pacer_refill(struct rxe_cc_pacer *p, u64 now_ns)
{
	p->credit_nbit = pacer_credit_at(p, now_ns);
	p->last_ns = max_t(u64, p->last_ns, now_ns);
}

/*
 * The pacer changed: what may leave without asking.  credit <= cap, so
 * the bytes fit a u32 (the cap is at most RXE_CC_PACER_MAX_BURST_BYTES).
 */
static void pacer_update_ready(struct rxe_cc_pacer *p)
{
	u32 ready = 0;

	if (p->rate_bps && p->credit_nbit > 0)
		ready = (u32)div64_u64((u64)p->credit_nbit,
				       RXE_CC_BIT_NS_PER_BYTE_S);
	/* read without the caller's lock (rxe_cc.c) */
	WRITE_ONCE(p->ready_bytes, ready);
}

void rxe_cc_pacer_init(struct rxe_cc_pacer *p, u64 rate_bps, u32 burst_bytes,
		       u64 now_ns)
{
	p->burst_bytes = clamp_t(u32, burst_bytes, 1,
				 RXE_CC_PACER_MAX_BURST_BYTES);
	p->rate_bps = min_t(u64, rate_bps, RXE_CC_PACER_MAX_RATE_BPS);
	/* A new QP may send one burst at once, like an idle NIC queue. */
	p->credit_nbit = pacer_cap_nbit(p);
	p->last_ns = now_ns;
	pacer_update_fill(p);
	pacer_update_ready(p);
}

void rxe_cc_pacer_set_rate(struct rxe_cc_pacer *p, u64 rate_bps, u64 now_ns)
{
	/* Credit earned so far was earned at the old rate. */
	pacer_refill(p, now_ns);
	p->rate_bps = min_t(u64, rate_bps, RXE_CC_PACER_MAX_RATE_BPS);
	pacer_update_fill(p);
	/* A halt drops the saved credit: the source restarts empty. */
	if (!p->rate_bps)
		p->credit_nbit = min_t(s64, p->credit_nbit, 0);
	pacer_update_ready(p);
}

/* A new bucket depth; credit above it is lost, as if it had overflowed. */
void rxe_cc_pacer_set_burst(struct rxe_cc_pacer *p, u32 burst_bytes,
			    u64 now_ns)
{
	pacer_refill(p, now_ns);
	p->burst_bytes = min_t(u32, burst_bytes, RXE_CC_PACER_MAX_BURST_BYTES);
	pacer_update_fill(p);
	p->credit_nbit = min_t(s64, p->credit_nbit, pacer_cap_nbit(p));
	pacer_update_ready(p);
}

u64 rxe_cc_pacer_wait_ns(const struct rxe_cc_pacer *p, u32 bytes, u64 now_ns)
{
	s64 need = min_t(s64, pacer_cost_nbit(bytes), pacer_cap_nbit(p));
	s64 credit;
	u64 deficit;

	/* A halt is absolute: credit saved before it buys nothing. */
	if (!p->rate_bps)
		return RXE_CC_NEVER_NS;
	credit = pacer_credit_at(p, now_ns);
	if (credit >= need)
		return 0;
	deficit = (u64)(need - credit);
	/* Round up: coming back one ns early would only cost another timer. */
	return div64_u64(deficit + p->rate_bps - 1, p->rate_bps);
}

void rxe_cc_pacer_consume(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns)
{
	pacer_refill(p, now_ns);
	p->credit_nbit -= pacer_cost_nbit(bytes);
	/*
	 * A caller that sends without asking could dig arbitrarily deep;
	 * keep the debt within the bound the overflow argument assumes.
	 */
	p->credit_nbit = max_t(s64, p->credit_nbit,
			       -pacer_cost_nbit(RXE_CC_PACER_MAX_PKT_BYTES));
	pacer_update_ready(p);
}

/*
 * A packet of @bytes may not wait any longer (the caller's bound, not the
 * rate, says so): give it the credit it lacks now, as if earned.  It then
 * leaves as a packet sent on time would, and the debt after it is no
 * deeper than after any other, so a caller that needs this often sends
 * one packet per bound and does not starve the others for later.
 */
void rxe_cc_pacer_grant(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns)
{
	s64 need = min_t(s64, pacer_cost_nbit(bytes), pacer_cap_nbit(p));

	pacer_refill(p, now_ns);
	p->credit_nbit = max_t(s64, p->credit_nbit, need);
	pacer_update_ready(p);
}

/* A packet paid for did not leave: give its cost back, up to the cap. */
void rxe_cc_pacer_refund(struct rxe_cc_pacer *p, u32 bytes, u64 now_ns)
{
	pacer_refill(p, now_ns);
	p->credit_nbit = min_t(s64, p->credit_nbit + pacer_cost_nbit(bytes),
			       pacer_cap_nbit(p));
	pacer_update_ready(p);
}

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rxe_cc_ring.c - the packets a QP has in flight, by sequence.
 *
 * Why by packet and not by PSN: a READ request consumes one PSN per
 * response packet, so a table indexed by PSN aliases the slots of older
 * packets as soon as a large READ is outstanding, and walking its PSNs
 * costs as many steps as the READ has packets.  Here each packet that
 * carries new PSNs takes one slot (its first PSN, wire bytes, send time),
 * and a cumulative acknowledgment of PSN p retires every packet whose
 * first PSN is <= p, oldest first.  Every operation is bounded by the
 * ring size, whatever the message sizes.
 *
 *	record(psn, next)	psn >= next_psn: a new packet, next_psn = next
 *				psn <  next_psn: a retransmission; no bytes,
 *				and the RTT of the packets it resends is spoilt
 *	retire(p)		acked_psn < p < next_psn: the packets up to p
 *				leave; their bytes, and the RTT of the newest
 *	unrecord(psn)		the newest packet did not leave after all
 *	expire(now, age)	nothing was acknowledged for @age: forget
 *				what is in flight (a lost last ACK)
 *
 * An acknowledgment is believed only inside the window the transport's
 * completer accepts, [acked_psn, next_psn): the last PSN acknowledged (a
 * duplicate the receiver sends again) up to the newest PSN sent.  Older
 * or newer PSNs (stale or forged) acknowledge nothing and carry no mark.
 *
 * Should the ring ever fill (the caller bounds the packets in flight
 * below its size, except for read responses), the newest slot absorbs the
 * packet: the bytes stay exact up to 4 GiB in that slot, then saturate
 * (the excess is not counted in flight at all), and that slot gives no
 * RTT sample.
 */
#include "rxe_cc_ring.h"

/* a - b in PSN space, as a signed distance */
static s32 psn_diff(u32 a, u32 b)
{
	return (s32)((a - b) << 8) >> 8;
}

static u16 ring_next(const struct rxe_cc_ring *r, u16 i)
{
	return (i + 1) & r->mask;
}

void rxe_cc_ring_init(struct rxe_cc_ring *r, struct rxe_cc_sent *slots,
		      u16 nr_slots, u32 first_psn)
{
	r->slot = slots;
	r->mask = nr_slots - 1;
	r->head = 0;
	r->tail = 0;
	r->next_psn = first_psn & RXE_CC_PSN_MASK;
	r->acked_psn = (first_psn - 1) & RXE_CC_PSN_MASK;
	r->inflight_bytes = 0;
	r->progress_ns = 0;
}

bool rxe_cc_ring_empty(const struct rxe_cc_ring *r)
{
	return r->head == r->tail;
}

/* Returns the bytes that are new in flight (0 for a retransmission). */
u64 rxe_cc_ring_record(struct rxe_cc_ring *r, u32 psn, u32 next_psn,
		       u32 bytes, u64 now_ns)
{
	struct rxe_cc_sent *s;
	u16 i, next;

	if (psn_diff(psn, r->next_psn) < 0) {
		for (i = r->tail; i != r->head; i = ring_next(r, i))
			if (psn_diff(r->slot[i].psn, psn) >= 0)
				r->slot[i].sent_ns = 0;
		return 0;
	}

	if (rxe_cc_ring_empty(r))
		r->progress_ns = now_ns;
	next = ring_next(r, r->head);
	if (next == r->tail) {
		s = &r->slot[(r->head - 1) & r->mask];
		/* saturate: a wrapped slot would leave bytes in flight */
		bytes = min_t(u32, bytes, ~s->bytes);
		s->bytes += bytes;
		s->sent_ns = 0;
	} else {
		s = &r->slot[r->head];
		s->psn = psn;
		s->bytes = bytes;
		s->sent_ns = now_ns ? now_ns : 1;
		r->head = next;
	}
	r->next_psn = next_psn & RXE_CC_PSN_MASK;
	r->inflight_bytes += bytes;
	return bytes;
}

/*
 * Forget the newest packet if it is @psn of @bytes (the caller's send
 * failed before anything could acknowledge it).  False: it is not the
 * newest any more, or it was absorbed; it then counts as sent and lost.
 */
bool rxe_cc_ring_unrecord(struct rxe_cc_ring *r, u32 psn, u32 bytes)
{
	u16 last = (r->head - 1) & r->mask;
	struct rxe_cc_sent *s = &r->slot[last];

	if (rxe_cc_ring_empty(r) || s->psn != psn || s->bytes != bytes)
		return false;
	r->head = last;
	r->next_psn = psn;
	r->inflight_bytes -= min_t(u64, bytes, r->inflight_bytes);
	return true;
}

/* Would a packet at @psn carry new PSNs, not resend sent ones? */
bool rxe_cc_ring_is_new(const struct rxe_cc_ring *r, u32 psn)
{
	return psn_diff(psn, r->next_psn) >= 0;
}

/* Does a cumulative acknowledgment of @psn acknowledge anything new? */
bool rxe_cc_ring_acks_new(const struct rxe_cc_ring *r, u32 psn)
{
	return psn_diff(psn, r->acked_psn) > 0 &&
	       psn_diff(psn, r->next_psn) < 0;
}

/*
 * May an acknowledgment of @psn be believed: the last PSN acknowledged
 * (a duplicate) or one sent since?  An older PSN is stale, a newer one
 * was never sent.
 */
bool rxe_cc_ring_in_window(const struct rxe_cc_ring *r, u32 psn)
{
	return psn_diff(psn, r->acked_psn) >= 0 &&
	       psn_diff(psn, r->next_psn) < 0;
}

/*
 * Retire the packets up to @psn (rxe_cc_ring_acks_new() must hold).
 * Returns their bytes; *@rtt_ns gets the RTT of the newest of them, or 0.
 */
u64 rxe_cc_ring_retire(struct rxe_cc_ring *r, u32 psn, u64 now_ns,
		       u64 *rtt_ns)
{
	u64 bytes = 0;

	*rtt_ns = 0;
	while (r->tail != r->head && psn_diff(r->slot[r->tail].psn, psn) <= 0) {
		const struct rxe_cc_sent *s = &r->slot[r->tail];

		bytes += s->bytes;
		*rtt_ns = s->sent_ns && now_ns > s->sent_ns ?
			  now_ns - s->sent_ns : 0;
		r->tail = ring_next(r, r->tail);
	}
	r->acked_psn = psn & RXE_CC_PSN_MASK;
	r->inflight_bytes -= min_t(u64, bytes, r->inflight_bytes);
	r->progress_ns = now_ns;
	return bytes;
}

/*
 * Nothing was acknowledged for @age_ns (since the oldest packet left the
 * empty ring, or since the last acknowledgment): the acknowledgments are
 * lost for good (a lost last read ACK, a peer gone), and the packets
 * leave the ring as if acknowledged, without an RTT.  A late
 * acknowledgment of them then acknowledges nothing.  Returns the bytes
 * forgotten.
 */
u64 rxe_cc_ring_expire(struct rxe_cc_ring *r, u64 now_ns, u64 age_ns)
{
	u64 bytes = r->inflight_bytes;

	if (rxe_cc_ring_empty(r) || now_ns - r->progress_ns < age_ns)
		return 0;
	r->tail = r->head;
	r->acked_psn = (r->next_psn - 1) & RXE_CC_PSN_MASK;
	r->inflight_bytes = 0;
	return bytes;
}

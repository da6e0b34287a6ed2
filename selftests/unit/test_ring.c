// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_ring.c - the packets a QP has in flight: exact bytes whatever the
 * PSNs a packet spans (READs), RTT of the newest packet acknowledged,
 * retransmissions (Karn), rollback of a failed send, PSN wrap, a full
 * ring, and "in flight is 0 once everything is acknowledged"; the window
 * an acknowledgment is believed in, the absorbing slot that saturates and
 * the expiry of what a lost last ACK leaves in flight.
 */
#include "test_util.h"
#include "rxe_cc_ring.h"

#define SLOTS	8

static struct rxe_cc_sent slots[SLOTS];

static void test_write_and_ack(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 100);
	assert_int_equal(rxe_cc_ring_record(&r, 100, 101, 1000, 10), 1000);
	assert_int_equal(rxe_cc_ring_record(&r, 101, 102, 1000, 20), 1000);
	assert_int_equal(rxe_cc_ring_record(&r, 102, 103, 500, 30), 500);
	assert_int_equal(r.inflight_bytes, 2500);
	/* a cumulative ACK of 101 retires two packets, RTT of the newest */
	assert_true(rxe_cc_ring_acks_new(&r, 101));
	assert_int_equal(rxe_cc_ring_retire(&r, 101, 120, &rtt), 2000);
	assert_int_equal(rtt, 100);
	assert_int_equal(r.inflight_bytes, 500);
	/* a duplicate acknowledges nothing new */
	assert_false(rxe_cc_ring_acks_new(&r, 101));
	assert_false(rxe_cc_ring_acks_new(&r, 100));
	/* an ACK beyond what was sent is not ours */
	assert_false(rxe_cc_ring_acks_new(&r, 103));
	assert_false(rxe_cc_ring_in_window(&r, 103));
	assert_int_equal(rxe_cc_ring_retire(&r, 102, 130, &rtt), 500);
	assert_int_equal(r.inflight_bytes, 0);
	assert_true(rxe_cc_ring_empty(&r));
}

/* A READ request spans as many PSNs as it has responses: no aliasing. */
static void test_read_spans_psns(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;
	int i;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 0);
	/* a WRITE at PSN 0, a READ of 2000 packets at 1..2000, a WRITE */
	rxe_cc_ring_record(&r, 0, 1, 1100, 1);
	rxe_cc_ring_record(&r, 1, 2001, 80, 2);
	rxe_cc_ring_record(&r, 2001, 2002, 1100, 3);
	assert_int_equal(r.inflight_bytes, 2280);
	/* the read's responses ack it progressively: the request is done */
	for (i = 1; i < 2001; i += 500)
		if (rxe_cc_ring_acks_new(&r, i))
			rxe_cc_ring_retire(&r, i, 100, &rtt);
	assert_int_equal(r.inflight_bytes, 1100);
	assert_true(rxe_cc_ring_acks_new(&r, 2001));
	assert_int_equal(rxe_cc_ring_retire(&r, 2001, 200, &rtt), 1100);
	assert_int_equal(rtt, 197);
	assert_int_equal(r.inflight_bytes, 0);
}

static void test_retransmission(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 10);
	rxe_cc_ring_record(&r, 10, 11, 1000, 100);
	rxe_cc_ring_record(&r, 11, 12, 1000, 110);
	/* what a window may hold: new PSNs only, never a resend */
	assert_false(rxe_cc_ring_is_new(&r, 10));
	assert_false(rxe_cc_ring_is_new(&r, 11));
	assert_true(rxe_cc_ring_is_new(&r, 12));
	assert_true(rxe_cc_ring_is_new(&r, 13));
	/* go-back-N resends 10 and 11: no new bytes, no RTT from them */
	assert_int_equal(rxe_cc_ring_record(&r, 10, 11, 1000, 500), 0);
	assert_int_equal(rxe_cc_ring_record(&r, 11, 12, 1000, 510), 0);
	assert_int_equal(r.inflight_bytes, 2000);
	assert_int_equal(rxe_cc_ring_retire(&r, 11, 600, &rtt), 2000);
	assert_int_equal(rtt, 0);
	assert_int_equal(r.inflight_bytes, 0);
}

static void test_unrecord(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 50);
	rxe_cc_ring_record(&r, 50, 51, 1000, 1);
	rxe_cc_ring_record(&r, 51, 52, 700, 2);
	/* the send of 51 failed: forget it, 51 is new again */
	assert_false(rxe_cc_ring_unrecord(&r, 51, 999));
	assert_true(rxe_cc_ring_unrecord(&r, 51, 700));
	assert_int_equal(r.inflight_bytes, 1000);
	assert_int_equal(r.next_psn, 51);
	assert_int_equal(rxe_cc_ring_record(&r, 51, 52, 700, 3), 700);
	/* an older packet cannot be undone */
	assert_false(rxe_cc_ring_unrecord(&r, 50, 1000));
	rxe_cc_ring_retire(&r, 51, 10, &rtt);
	assert_false(rxe_cc_ring_unrecord(&r, 51, 700));
	assert_int_equal(r.inflight_bytes, 0);
}

static void test_psn_wrap(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, RXE_CC_PSN_MASK - 1);
	rxe_cc_ring_record(&r, RXE_CC_PSN_MASK - 1, RXE_CC_PSN_MASK, 10, 1);
	rxe_cc_ring_record(&r, RXE_CC_PSN_MASK, 0, 20, 1);
	rxe_cc_ring_record(&r, 0, 5, 30, 1);
	rxe_cc_ring_record(&r, 5, 6, 40, 1);
	assert_false(rxe_cc_ring_is_new(&r, RXE_CC_PSN_MASK));
	assert_false(rxe_cc_ring_is_new(&r, 5));
	assert_true(rxe_cc_ring_is_new(&r, 6));
	assert_true(rxe_cc_ring_acks_new(&r, 2));
	assert_int_equal(rxe_cc_ring_retire(&r, 2, 2, &rtt), 60);
	assert_true(rxe_cc_ring_acks_new(&r, 5));
	assert_false(rxe_cc_ring_acks_new(&r, RXE_CC_PSN_MASK));
	assert_int_equal(rxe_cc_ring_retire(&r, 5, 2, &rtt), 40);
	assert_int_equal(r.inflight_bytes, 0);
}

/* More packets than slots: the newest absorbs, bytes stay exact. */
static void test_full_ring(void **state)
{
	struct rxe_cc_ring r;
	u64 total = 0, rtt;
	u32 psn;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 0);
	for (psn = 0; psn < 3 * SLOTS; psn++) {
		rxe_cc_ring_record(&r, psn, psn + 1, 100 + psn, 1 + psn);
		total += 100 + psn;
	}
	assert_int_equal(r.inflight_bytes, total);
	assert_int_equal(rxe_cc_ring_retire(&r, 3 * SLOTS - 1, 1000, &rtt),
			 total);
	/* the absorbing slot gives no RTT sample */
	assert_int_equal(rtt, 0);
	assert_int_equal(r.inflight_bytes, 0);
	assert_true(rxe_cc_ring_empty(&r));
}

/*
 * The window is the completer's: the last PSN acknowledged (a duplicate)
 * up to the newest sent.  Stale PSNs, however marked, are not ours.
 */
static void test_window(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 100);
	/* nothing acknowledged yet: 99 is the duplicate of "nothing" */
	assert_true(rxe_cc_ring_in_window(&r, 99));
	assert_false(rxe_cc_ring_in_window(&r, 100));
	rxe_cc_ring_record(&r, 100, 101, 1000, 10);
	rxe_cc_ring_record(&r, 101, 102, 1000, 20);
	assert_true(rxe_cc_ring_in_window(&r, 100));
	assert_true(rxe_cc_ring_in_window(&r, 101));
	assert_false(rxe_cc_ring_in_window(&r, 102));
	assert_false(rxe_cc_ring_in_window(&r, 98));
	/* half the PSN space behind: stale, once the window was "behind" */
	assert_false(rxe_cc_ring_in_window(&r, (100 - 0x100000) & RXE_CC_PSN_MASK));
	rxe_cc_ring_retire(&r, 100, 30, &rtt);
	assert_true(rxe_cc_ring_in_window(&r, 100));	/* the duplicate */
	assert_false(rxe_cc_ring_in_window(&r, 99));	/* older: stale */
	assert_false(rxe_cc_ring_acks_new(&r, 100));
	assert_true(rxe_cc_ring_acks_new(&r, 101));
}

/* The absorbing slot saturates instead of wrapping to a small number. */
static void test_absorb_saturates(void **state)
{
	struct rxe_cc_ring r;
	u64 total = 0, rtt;
	u32 psn;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 0);
	for (psn = 0; psn < SLOTS + 4; psn++)
		total += rxe_cc_ring_record(&r, psn, psn + 1, 0x7fffffff, 1);
	/* 4 GiB fit in the absorbing slot, then it stays full */
	assert_true(total < (u64)SLOTS * 0x80000000ULL);
	assert_int_equal(r.inflight_bytes, total);
	assert_int_equal(r.slot[(r.head - 1) & r.mask].bytes, 0xffffffffU);
	assert_int_equal(rxe_cc_ring_retire(&r, SLOTS + 3, 2, &rtt), total);
	assert_int_equal(r.inflight_bytes, 0);
}

/* A lost last ACK: after the age, nothing stays in flight. */
static void test_expire(void **state)
{
	struct rxe_cc_ring r;
	u64 rtt;

	(void)state;
	rxe_cc_ring_init(&r, slots, SLOTS, 10);
	assert_int_equal(rxe_cc_ring_expire(&r, 1000000, 1), 0);
	rxe_cc_ring_record(&r, 10, 11, 1000, 1000);
	rxe_cc_ring_record(&r, 11, 12, 1000, 2000);
	rxe_cc_ring_retire(&r, 10, 3000, &rtt);
	/* progress at 3000: not before 3000 + age */
	assert_int_equal(rxe_cc_ring_expire(&r, 3999, 1000), 0);
	assert_int_equal(r.inflight_bytes, 1000);
	assert_int_equal(rxe_cc_ring_expire(&r, 4000, 1000), 1000);
	assert_int_equal(r.inflight_bytes, 0);
	assert_true(rxe_cc_ring_empty(&r));
	/* the late ACK acknowledges nothing, but is the in-window duplicate */
	assert_false(rxe_cc_ring_acks_new(&r, 11));
	assert_true(rxe_cc_ring_in_window(&r, 11));
	/* the next packet starts the clock again */
	rxe_cc_ring_record(&r, 12, 13, 500, 9000);
	assert_int_equal(rxe_cc_ring_expire(&r, 9500, 1000), 0);
	assert_int_equal(rxe_cc_ring_expire(&r, 10000, 1000), 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_and_ack),
		cmocka_unit_test(test_read_spans_psns),
		cmocka_unit_test(test_retransmission),
		cmocka_unit_test(test_unrecord),
		cmocka_unit_test(test_psn_wrap),
		cmocka_unit_test(test_full_ring),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_absorb_saturates),
		cmocka_unit_test(test_expire),
	};

	return cmocka_run_group_tests_name("rxe_cc_ring", tests, NULL, NULL);
}

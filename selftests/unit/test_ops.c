// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * test_ops.c - the algorithms as the rxe framework runs them: through
 * their ops tables (struct rxe_cc_ops, rxe_cc_core.h) in the generic host
 * (sim/src/cc_host.c), which calls the hooks in the module's order with
 * its sender context:
 *
 *  - the tables: the required hooks, the knob rows (each default within
 *    its row, min and max taken, one past them refused with nothing
 *    changed, the cross-field rules of params_check, unknown names), row
 *    and statistics names unique across the algorithms, the knobs a flow
 *    derives for its line and retransmit timeout, the cap applied at once;
 *  - ACC, scripted: a flow at 10 Gb/s whose ACKs come back CE-marked at
 *    a 5 Gb/s share halts at its period's end, sends nothing while
 *    halted, resumes at the measured ACK rate; UE-only periods beyond
 *    p_thresh halve its rate; unmarked periods raise it again;
 *  - DCQCN, scripted: the first CNP cuts, CNPs within the monitor period
 *    are folded into one deferred cut, timers recover towards the target;
 *  - the statistics rows, against the events seen and the state.
 */
#include "test_util.h"
#include "rxe_cc_acc.h"
#include "rxe_cc_dcqcn.h"

#define FRAME		1100U		/* wire bytes of a full packet */
#define LINE_BPS	(10 * GBPS)

static const char *const algo_names[] = { "dcqcn", "acc" };
/* Every algorithm the module may list: the names share one namespace. */
static const char *const all_algo_names[] = { "dcqcn", "acc", "timely" };

static const struct rxe_cc_ops *algo(const char *name)
{
	const struct rxe_cc_ops *ops = cc_host_algo(name);

	assert_non_null(ops);
	assert_string_equal(ops->name, name);
	return ops;
}

static void host_init(struct cc_host *h, const struct rxe_cc_ops *ops)
{
	assert_int_equal(cc_host_init(h, ops, LINE_BPS, 0, FRAME), 0);
}

/* The tables are what the module requires of an algorithm. */
static void test_tables(void **state)
{
	struct cc_host h;
	unsigned int a;
	u32 i, j;

	(void)state;
	assert_null(cc_host_algo("no_such_algorithm"));
	assert_int_equal(cc_host_init(&h, NULL, LINE_BPS, 0, FRAME), -EINVAL);
	for (a = 0; a < ARRAY_SIZE(all_algo_names); a++) {
		const struct rxe_cc_ops *ops = cc_host_algo(all_algo_names[a]);

		if (!ops && a >= ARRAY_SIZE(algo_names))
			continue;	/* not (or no longer) in the host */
		ops = algo(all_algo_names[a]);
		assert_non_null(ops->params_default);
		assert_non_null(ops->params_check);
		assert_non_null(ops->derive);
		assert_non_null(ops->init);
		assert_non_null(ops->rate_bps);
		assert_true(ops->on_ack || ops->on_cnp);
		assert_true(ops->priv_size <= sizeof(h.priv));
		assert_true(ops->params_size <= sizeof(h.params));
		assert_true(ops->n_knobs > 0);
		assert_true(ops->n_stats == 0 || ops->stats);
		for (i = 0; i < ops->n_knobs; i++) {
			const struct rxe_cc_knob *k = &ops->knobs[i];

			assert_non_null(k->name);
			assert_non_null(k->unit);
			assert_true(k->size == 4 || k->size == 8);
			assert_true(k->offset + k->size <= ops->params_size);
			assert_true(k->scale >= 1);
			assert_true(k->min <= k->max);
			/* the top of the row fits its field */
			assert_true(k->size == 8 ||
				    k->max * k->scale <= 0xffffffffULL);
		}
		for (i = 0; i < ops->n_stats; i++) {
			assert_non_null(ops->stat_names[i]);
			for (j = 0; j < i; j++)
				assert_string_not_equal(ops->stat_names[i],
							ops->stat_names[j]);
		}
	}
	/* ACC reads r from the ACK clock: an ACK a packet, marks echoed */
	assert_int_equal(algo("acc")->ack_req_every, 1);
	assert_true(algo("acc")->echo_marks);
	assert_non_null(algo("acc")->on_ack);
	assert_null(algo("acc")->on_cnp);
	/* DCQCN takes CNPs, and stock ACKs */
	assert_int_equal(algo("dcqcn")->ack_req_every, 0);
	assert_false(algo("dcqcn")->echo_marks);
	assert_non_null(algo("dcqcn")->on_cnp);
	assert_null(algo("dcqcn")->on_ack);
}

/* Knob and statistics names are files and attributes of one namespace. */
static void test_names_unique(void **state)
{
	const char *names[128];
	u32 n = 0, i, j;
	unsigned int a;

	(void)state;
	for (a = 0; a < ARRAY_SIZE(all_algo_names); a++) {
		const struct rxe_cc_ops *ops = cc_host_algo(all_algo_names[a]);

		if (!ops && a >= ARRAY_SIZE(algo_names))
			continue;
		ops = algo(all_algo_names[a]);
		for (i = 0; i < ops->n_knobs; i++) {
			assert_true(n < ARRAY_SIZE(names));
			names[n++] = ops->knobs[i].name;
		}
		for (i = 0; i < ops->n_stats; i++) {
			assert_true(n < ARRAY_SIZE(names));
			names[n++] = ops->stat_names[i];
		}
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++)
			if (!strcmp(names[i], names[j]))
				fail_msg("name %s appears twice", names[i]);
}

/*
 * The cross-field rules of params_check that forbid an end of a row
 * with the other knobs at their defaults: the knob to write first.
 */
static const struct cross_rule {
	const char *algo, *name;
	bool at_max;		/* the row's max, else its min */
	const char *first;	/* written first, to its ... */
	bool first_at_max;	/* ... max, else its min */
} cross_rules[] = {
	/* halt_max >= T: the shortest halt cap needs the shortest period */
	{ "acc", "acc_halt_max_us", false, "acc_period_us", false },
	/* T <= halt_max: the longest period needs the longest cap */
	{ "acc", "acc_period_us", true, "acc_halt_max_us", true },
};

static u64 row_end(const struct rxe_cc_knob *k, bool at_max)
{
	return at_max ? k->max : k->min;
}

/*
 * Write @k's end (@at_max) on a fresh flow of @ops, its cross rule's
 * knob first; then one past it must be refused and change nothing.
 */
static void check_row_end(const struct rxe_cc_ops *ops,
			  const struct rxe_cc_knob *k, bool at_max)
{
	const u64 end = row_end(k, at_max);
	u64 before[CC_HOST_PARAMS_U64], v;
	struct cc_host h;
	unsigned int r;

	host_init(&h, ops);
	for (r = 0; r < ARRAY_SIZE(cross_rules); r++) {
		const struct cross_rule *c = &cross_rules[r];
		const struct rxe_cc_knob *f;

		if (strcmp(c->algo, ops->name) || strcmp(c->name, k->name) ||
		    c->at_max != at_max)
			continue;
		/* the rule holds: refused as the defaults stand, unchanged */
		memcpy(before, h.knobs, sizeof(before));
		assert_int_equal(cc_host_set(&h, k->name, end), -EINVAL);
		assert_memory_equal(h.knobs, before, sizeof(before));
		f = cc_host_knob(&h, c->first);
		assert_non_null(f);
		knob(&h, f->name, row_end(f, c->first_at_max));
	}
	if (cc_host_set(&h, k->name, end))
		fail_msg("%s: %s %llu refused", ops->name, k->name,
			 (unsigned long long)end);
	assert_int_equal(cc_host_get(&h, k->name, &v), 0);
	assert_int_equal(v, end);
	if (!at_max && !k->min)
		return;
	memcpy(before, h.knobs, sizeof(before));
	assert_int_equal(cc_host_set(&h, k->name, at_max ? end + 1 : end - 1),
			 -EINVAL);
	assert_memory_equal(h.knobs, before, sizeof(before));
	assert_int_equal(cc_host_get(&h, k->name, &v), 0);
	assert_int_equal(v, end);
}

static void test_knob_rows(void **state)
{
	unsigned int a;
	u32 i;

	(void)state;
	for (a = 0; a < ARRAY_SIZE(algo_names); a++) {
		const struct rxe_cc_ops *ops = algo(algo_names[a]);
		struct cc_host h;
		u64 v;

		for (i = 0; i < ops->n_knobs; i++) {
			const struct rxe_cc_knob *k = &ops->knobs[i];

			host_init(&h, ops);
			assert_ptr_equal(cc_host_knob(&h, k->name), k);
			assert_int_equal(cc_host_get(&h, k->name, &v), 0);
			if (v < k->min || v > k->max)
				fail_msg("%s: default %s %llu not in [%llu, %llu]",
					 ops->name, k->name,
					 (unsigned long long)v,
					 (unsigned long long)k->min,
					 (unsigned long long)k->max);
			check_row_end(ops, k, false);
			check_row_end(ops, k, true);
		}
		host_init(&h, ops);
		assert_null(cc_host_knob(&h, "no_such_knob"));
		assert_int_equal(cc_host_set(&h, "no_such_knob", 1), -ENOENT);
		assert_int_equal(cc_host_get(&h, "no_such_knob", &v), -ENOENT);
		/* the other algorithm's knobs are not this one's */
		assert_int_equal(cc_host_set(&h, a ? "rpg_gd" : "acc_period_us",
					     1), -ENOENT);
	}
}

/* The rules across rows: a floor above the cap, a start outside both. */
static void test_knob_cross_rules(void **state)
{
	struct cc_host h;
	u64 v;

	(void)state;
	host_init(&h, algo("acc"));
	knob(&h, "acc_max_rate_mbps", 1000);
	assert_int_equal(cc_host_set(&h, "acc_min_rate_mbps", 1001), -EINVAL);
	assert_int_equal(cc_host_set(&h, "acc_start_rate_mbps", 1001),
			 -EINVAL);
	knob(&h, "acc_start_rate_mbps", 1000);
	assert_int_equal(cc_host_set(&h, "acc_max_rate_mbps", 999), -EINVAL);
	assert_int_equal(cc_host_get(&h, "acc_max_rate_mbps", &v), 0);
	assert_int_equal(v, 1000);
	knob(&h, "acc_period_us", 100);
	assert_int_equal(cc_host_set(&h, "acc_halt_max_us", 99), -EINVAL);
	knob(&h, "acc_halt_max_us", 100);

	host_init(&h, algo("dcqcn"));
	knob(&h, "rpg_max_rate_kbps", 1000000);
	assert_int_equal(cc_host_set(&h, "rpg_min_rate_kbps", 1000001),
			 -EINVAL);
	knob(&h, "rpg_min_rate_kbps", 1000000);
	assert_int_equal(cc_host_set(&h, "rpg_max_rate_kbps", 999999),
			 -EINVAL);
	/* 0: the line rate, whatever the floor */
	knob(&h, "rpg_max_rate_kbps", 0);
}

/*
 * A flow's copy of the knobs: its line rate, rates above it clamped to
 * it, and (ACC) a halt its retransmit timer tolerates, half the RTO.
 */
static void test_derive_for_the_flow(void **state)
{
	const struct rxe_cc_acc_params *ap;
	const struct rxe_cc_dcqcn_params *dp;
	struct cc_host h;
	u64 v;

	(void)state;
	assert_int_equal(cc_host_init(&h, algo("acc"), GBPS,
				      200 * NS_PER_US, FRAME), 0);
	knob(&h, "acc_min_rate_mbps", 2000);
	knob(&h, "acc_start_rate_mbps", 3000);
	assert_int_equal(cc_host_start(&h, 0), GBPS);
	ap = (const struct rxe_cc_acc_params *)h.params;
	assert_int_equal(ap->line_rate_bps, GBPS);
	assert_int_equal(ap->min_rate_bps, GBPS);
	assert_int_equal(ap->start_rate_bps, GBPS);
	assert_int_equal(ap->halt_max_ns, 100 * NS_PER_US);
	/* the files keep what was written */
	assert_int_equal(cc_host_get(&h, "acc_halt_max_us", &v), 0);
	assert_int_equal(v, 400);
	assert_int_equal(cc_host_get(&h, "acc_min_rate_mbps", &v), 0);
	assert_int_equal(v, 2000);
	/* a receiver spaces a clean path's ACKs by the period as written */
	assert_int_equal(h.ops->echo_period_ns(h.knobs), 50 * NS_PER_US);
	knob(&h, "acc_period_us", 100);
	assert_int_equal(h.ops->echo_period_ns(h.knobs), 100 * NS_PER_US);

	assert_int_equal(cc_host_init(&h, algo("dcqcn"), 20 * MBPS, 0, FRAME),
			 0);
	assert_null(h.ops->echo_period_ns);
	assert_int_equal(cc_host_start(&h, 0), 20 * MBPS);
	dp = (const struct rxe_cc_dcqcn_params *)h.params;
	assert_int_equal(dp->line_rate_kbps, 20000);
	assert_int_equal(dp->rpg_hai_rate_kbps, 20000);	/* 50 Mb/s */
	assert_int_equal(dp->rpg_ai_rate_kbps, 5000);
	assert_int_equal(cc_host_window_bytes(&h), ~0ULL);	/* no window */
}

/* A lower cap holds from the very next read of the rate. */
static void test_cap_applies_at_once(void **state)
{
	struct cc_host h;

	(void)state;
	host_init(&h, algo("acc"));
	assert_int_equal(cc_host_start(&h, 0), LINE_BPS);
	knob(&h, "acc_max_rate_mbps", 4000);
	assert_int_equal(cc_host_rate_bps(&h, 1), 4 * GBPS);

	host_init(&h, algo("dcqcn"));
	assert_int_equal(cc_host_start(&h, 0), LINE_BPS);
	knob(&h, "rpg_max_rate_kbps", 3000000);
	assert_int_equal(cc_host_rate_bps(&h, 1), 3 * GBPS);
}

/*
 * ACC, scripted.  One flow on a 10 Gb/s port, base RTT 10 us (the
 * knob), T = 50 us.  It sends when its rate lets it (rate 0: halted,
 * nothing leaves); each packet's ACK comes back an RTT after it left,
 * but no closer to the previous ACK than the flow's share of the
 * bottleneck lets it, echoing the phase's mark:
 *
 *	congested  share 5 Gb/s, CE: the queue grows at 5 Gb/s
 *	victim     share 5 Gb/s, UE: a PFC victim's marks
 *	clean      the line, no marks
 */
#define ACC_RTT_NS	(10 * NS_PER_US)
#define ACC_SHARE_BPS	(5 * GBPS)
#define ACC_RING	1024U

struct acc_flow {
	struct cc_host h;
	u64 sent_ns[ACC_RING];	/* of packets sent, not yet ACKed */
	u32 sent, acked;
	u64 last_send_ns, last_ack_ns;
	u64 rate_bps;		/* read after each hook, as the module does */
	u64 share_bps;
	enum rxe_cc_mark mark;
	u64 now;
	/* what was seen */
	u32 periods[RXE_CC_PERIOD_CLASSES];
	u32 halts, halt_ends, backoffs;
	u64 bytes_acked;
};

static struct rxe_cc_acc *acc_of(struct acc_flow *f)
{
	return (struct rxe_cc_acc *)f->h.priv;
}

static u64 acc_next_ack(const struct acc_flow *f)
{
	if (f->acked == f->sent)
		return ~0ULL;
	return max(f->sent_ns[f->acked % ACC_RING] + ACC_RTT_NS,
		   f->last_ack_ns + rxe_cc_tx_time_ns(FRAME, f->share_bps));
}

static u64 acc_next_send(const struct acc_flow *f)
{
	if (!f->rate_bps)
		return ~0ULL;
	return f->sent ? f->last_send_ns + rxe_cc_tx_time_ns(FRAME, f->rate_bps)
		       : f->now;
}

/* Tally a hook's events; while halted, nothing may be sent. */
static u32 acc_seen(struct acc_flow *f, u32 ev)
{
	const struct rxe_cc_report *rep = &f->h.s.report;

	if (ev & RXE_CC_EV_PERIOD) {
		assert_true(rep->period.kind < RXE_CC_PERIOD_CLASSES);
		f->periods[rep->period.kind]++;
	}
	f->halts += !!(ev & RXE_CC_EV_HALT);
	f->halt_ends += !!(ev & RXE_CC_EV_HALT_END);
	f->backoffs += !!(ev & RXE_CC_EV_BACKOFF);
	f->rate_bps = cc_host_rate_bps(&f->h, f->now);
	assert_true(f->rate_bps || acc_of(f)->halted);
	return ev;
}

/*
 * The next event in time (ACKs first, then the timer, then a send):
 * its events.  *what: 'a', 't' or 's'.
 */
static u32 acc_step(struct acc_flow *f, char *what)
{
	const u64 t_ack = acc_next_ack(f);
	const u64 t_timer = cc_host_next_timer_ns(&f->h);
	const u64 t_send = acc_next_send(f);

	if (t_ack <= t_timer && t_ack <= t_send) {
		const u64 sent_ns = f->sent_ns[f->acked++ % ACC_RING];

		*what = 'a';
		f->now = f->last_ack_ns = t_ack;
		f->bytes_acked += FRAME;
		return acc_seen(f, host_ack1(&f->h, FRAME, f->mark,
					     t_ack - sent_ns, t_ack));
	}
	if (t_timer <= t_send) {
		*what = 't';
		f->now = t_timer;
		return acc_seen(f, cc_host_timer(&f->h, t_timer));
	}
	assert_true(t_send != ~0ULL);
	assert_true(f->sent - f->acked < ACC_RING);
	*what = 's';
	f->now = f->last_send_ns = t_send;
	f->sent_ns[f->sent++ % ACC_RING] = t_send;
	/* a send moves neither ACC's rate nor its timer */
	assert_int_equal(cc_host_send(&f->h, FRAME, t_send), 0);
	assert_int_equal(cc_host_rate_bps(&f->h, t_send), f->rate_bps);
	assert_int_equal(f->h.s.inflight_bytes,
			 (u64)(f->sent - f->acked) * FRAME);
	return 0;
}

/* Steps until a period closes: its events (HALT_END may come before). */
static u32 acc_period(struct acc_flow *f, char *what)
{
	u32 ev;

	do
		ev = acc_step(f, what);
	while (!(ev & RXE_CC_EV_PERIOD));
	return ev;
}

static void test_acc_scripted(void **state)
{
	static struct acc_flow f;
	struct rxe_cc_acc *st = acc_of(&f);
	struct rxe_cc_halt_report halt;
	u64 p_thresh, t_halt, t_end, sent_at_halt, r, r_resume, ack_bps;
	u32 ev, k, n_clean;
	char what, ended_by;

	(void)state;
	memset(&f, 0, sizeof(f));
	host_init(&f.h, algo("acc"));
	knob(&f.h, "acc_base_rtt_us", ACC_RTT_NS / NS_PER_US);
	assert_int_equal(cc_host_get(&f.h, "acc_p_thresh", &p_thresh), 0);
	f.rate_bps = cc_host_start(&f.h, 0);
	assert_int_equal(f.rate_bps, LINE_BPS);
	assert_int_equal(cc_host_next_timer_ns(&f.h), 50 * NS_PER_US);
	assert_int_equal(cc_host_window_bytes(&f.h), ~0ULL);

	/*
	 * Congested: sent at 10 Gb/s from 0, ACKed at 5 Gb/s from 10 us.
	 * At T = 50 us: 57 sent, 23 ACKed (22 spans of 1.76 us: r = 5
	 * Gb/s), W = 34 packets = 37400 B, pipe r * tau = 6250 B: an
	 * excess of 31150 B, which r drains in 49.84 us.
	 */
	f.share_bps = ACC_SHARE_BPS;
	f.mark = RXE_CC_MARK_CE;
	ack_bps = FRAME * 8 * NS_PER_SEC /
		  rxe_cc_tx_time_ns(FRAME, ACC_SHARE_BPS);
	ev = acc_period(&f, &what);
	assert_int_equal(what, 't');
	assert_int_equal(f.now, 50 * NS_PER_US);
	assert_int_equal(ev, RXE_CC_EV_PERIOD | RXE_CC_EV_HALT);
	assert_int_equal(f.h.s.report.period.kind, RXE_CC_PERIOD_CONGESTED);
	assert_int_equal(f.h.s.report.period.n_ack, 23);
	assert_int_equal(f.h.s.report.period.n_pkt, 23);
	assert_int_equal(f.h.s.report.period.n_ce, 23);
	assert_int_equal(f.h.s.report.period.n_ue, 0);
	halt = f.h.s.report.halt;
	assert_int_equal(halt.inflight_bytes, 37400);
	assert_int_equal(halt.ack_rate_bps, ack_bps);
	assert_int_equal(halt.tau_ns, ACC_RTT_NS);
	assert_int_equal(halt.excess_bytes, 31150);
	assert_int_equal(halt.t_halt_ns, 49840);
	t_halt = f.now;

	/* Halted: rate 0, nothing sent, until the timer or the ACK clock. */
	assert_int_equal(f.rate_bps, 0);
	assert_int_equal(cc_host_next_timer_ns(&f.h), t_halt + halt.t_halt_ns);
	sent_at_halt = f.sent;
	do {
		ev = acc_step(&f, &what);
		assert_true(what != 's');
		if (!(ev & RXE_CC_EV_HALT_END))
			assert_int_equal(cc_host_rate_bps(&f.h, f.now), 0);
	} while (!(ev & RXE_CC_EV_HALT_END));
	assert_int_equal(f.sent, sent_at_halt);
	/* ended by the ACK clock if an ACK did it, else by its timer */
	assert_int_equal(f.h.s.report.halt_early, what == 'a');
	if (what == 'a')
		assert_true(f.h.s.inflight_bytes <= 6250);
	else
		assert_int_equal(f.now, t_halt + halt.t_halt_ns);
	t_end = f.now;
	ended_by = what;
	assert_true(t_end <= t_halt + halt.t_halt_ns);
	/* Resumed at the measured ACK rate: 1 % (here: exact). */
	assert_within_ppm(f.h.s.report.rate_bps, ack_bps, 10000);
	assert_int_equal(f.rate_bps, f.h.s.report.rate_bps);
	r_resume = f.rate_bps;
	assert_int_equal(host_stat(&f.h, "acc_halted"), 0);
	assert_int_equal(host_stat(&f.h, "acc_halts"), f.halts);
	assert_int_equal(host_stat(&f.h, "acc_halt_ns_total"), t_end - t_halt);
	assert_int_equal(host_stat(&f.h, "acc_last_excess_bytes"),
			 halt.excess_bytes);
	assert_int_equal(host_stat(&f.h, "acc_last_t_halt_ns"),
			 halt.t_halt_ns);

	/* A victim: p_thresh UE periods hold R, the next one halves it. */
	f.mark = RXE_CC_MARK_UE;
	r = f.rate_bps;
	for (k = 1; k <= p_thresh; k++) {
		ev = acc_period(&f, &what);
		assert_int_equal(ev, RXE_CC_EV_PERIOD);
		assert_int_equal(f.h.s.report.period.kind,
				 RXE_CC_PERIOD_VICTIM);
		assert_int_equal(f.h.s.report.period.n_ce, 0);
		assert_int_equal(f.h.s.report.period.n_ue,
				 f.h.s.report.period.n_pkt);
		assert_int_equal(f.rate_bps, r);
		assert_int_equal(host_stat(&f.h, "acc_victim_periods"), k);
	}
	ev = acc_period(&f, &what);
	assert_int_equal(ev, RXE_CC_EV_PERIOD | RXE_CC_EV_BACKOFF);
	assert_int_equal(f.h.s.report.period.kind, RXE_CC_PERIOD_VICTIM);
	assert_int_equal(f.rate_bps, r / 2);
	assert_int_equal(host_stat(&f.h, "acc_victim_periods"), 0);

	/* Clean: every period unmarked, R never lower, and higher. */
	f.mark = RXE_CC_MARK_NO;
	f.share_bps = LINE_BPS;
	r = f.rate_bps;
	for (n_clean = 1; n_clean <= 10; n_clean++) {
		u64 before = f.rate_bps;

		ev = acc_period(&f, &what);
		assert_int_equal(ev, RXE_CC_EV_PERIOD);
		assert_int_equal(f.h.s.report.period.kind,
				 RXE_CC_PERIOD_UNCONGESTED);
		assert_true(f.rate_bps >= before);
		assert_int_equal(host_stat(&f.h, "acc_increase_streak"),
				 n_clean);
	}
	print_message("# acc: halted %llu ns (t_halt %llu ns, ended by its %s), "
		      "resumed at %.3Lf Gb/s (ACK rate %.3Lf), %.3Lf after the "
		      "back-off, %.3Lf after 10 clean periods\n",
		      (unsigned long long)(t_end - t_halt),
		      (unsigned long long)halt.t_halt_ns,
		      ended_by == 'a' ? "ACK clock" : "timer",
		      r_resume / 1e9L, ack_bps / 1e9L, r / 1e9L,
		      f.rate_bps / 1e9L);
	assert_true(f.rate_bps > r);

	/* The statistics rows, against what the hooks reported. */
	assert_int_equal(f.halts, 1);
	assert_int_equal(f.halt_ends, 1);
	assert_int_equal(f.backoffs, 1);
	assert_int_equal(host_stat(&f.h, "acc_halts"), f.halts);
	assert_int_equal(host_stat(&f.h, "acc_halted"), 0);
	assert_int_equal(host_stat(&f.h, "acc_base_rtt_ns"), ACC_RTT_NS);
	assert_int_equal(host_stat(&f.h, "acc_ce_periods"),
			 f.periods[RXE_CC_PERIOD_CONGESTED] +
			 f.periods[RXE_CC_PERIOD_POSSIBLY]);
	assert_int_equal(host_stat(&f.h, "acc_ue_periods"),
			 f.periods[RXE_CC_PERIOD_VICTIM]);
	assert_int_equal(f.periods[RXE_CC_PERIOD_VICTIM], p_thresh + 1);
	assert_int_equal(host_stat(&f.h, "acc_alpha_permille"),
			 rxe_cc_acc_alpha_permille(st));
	for (k = 0; k < RXE_CC_PERIOD_CLASSES; k++)
		assert_int_equal(st->stats.periods[k], f.periods[k]);
	assert_int_equal(st->stats.victim_backoffs, f.backoffs);
	assert_int_equal(f.h.s.inflight_bytes,
			 (u64)(f.sent - f.acked) * FRAME);
	assert_int_equal(st->inflight_bytes, f.h.s.inflight_bytes);
}

/*
 * DCQCN, scripted, on a 10 Gb/s port with mlx5's defaults but a byte
 * counter off and F = 5 (rpg_byte_reset 0, rpg_threshold 5): the timer
 * alone drives recovery.
 */
static void test_dcqcn_scripted(void **state)
{
	struct cc_host h;
	struct rxe_cc_dcqcn_rp *rp = (struct rxe_cc_dcqcn_rp *)h.priv;
	u64 monitor_us, reset_us, r0, r1, rt, gap, t;
	u32 handled = 0, k;

	(void)state;
	host_init(&h, algo("dcqcn"));
	knob(&h, "rpg_byte_reset", 0);
	knob(&h, "rpg_threshold", 5);
	assert_int_equal(cc_host_get(&h, "rate_reduce_monitor_period",
				     &monitor_us), 0);
	assert_int_equal(cc_host_get(&h, "rpg_time_reset", &reset_us), 0);
	assert_int_equal(cc_host_start(&h, 0), LINE_BPS);
	/* unlimited: nothing to time, sends change nothing */
	assert_int_equal(cc_host_next_timer_ns(&h), ~0ULL);
	for (t = 0; t < 10; t++)
		assert_int_equal(cc_host_send(&h, FRAME, t * NS_PER_US), 0);
	assert_int_equal(cc_host_rate_bps(&h, 10 * NS_PER_US), LINE_BPS);

	/* The first CNP: handled, cut by alpha / 2 (alpha = 1023). */
	assert_int_equal(cc_host_cnp(&h, 10 * NS_PER_US),
			 RXE_CC_EV_CNP_HANDLED);
	handled++;
	assert_int_equal(h.s.report.alpha, 1023);
	r0 = cc_host_rate_bps(&h, 10 * NS_PER_US);
	assert_int_equal(r0, LINE_BPS - LINE_BPS * 1023 / 2048);
	assert_int_equal(host_stat(&h, "dcqcn_target_bps"), LINE_BPS);
	/*
	 * Within the monitor period: the next CNP is handled by a cut
	 * deferred to the period's end; the ones after it are folded in.
	 */
	assert_true(monitor_us >= 3);
	assert_int_equal(cc_host_cnp(&h, 11 * NS_PER_US),
			 RXE_CC_EV_CNP_HANDLED);
	handled++;
	assert_int_equal(cc_host_rate_bps(&h, 11 * NS_PER_US), r0);
	assert_int_equal(cc_host_cnp(&h, 12 * NS_PER_US),
			 RXE_CC_EV_CNP_IGNORED);
	assert_int_equal(h.s.report.alpha, rxe_cc_dcqcn_alpha(rp));
	assert_int_equal(cc_host_rate_bps(&h, 12 * NS_PER_US), r0);
	assert_int_equal(cc_host_next_timer_ns(&h),
			 (10 + monitor_us) * NS_PER_US);
	assert_int_equal(cc_host_timer(&h, (10 + monitor_us) * NS_PER_US), 0);
	r1 = cc_host_rate_bps(&h, (10 + monitor_us) * NS_PER_US);
	assert_true(r1 < r0 && r1 >= r0 / 2);	/* rpg_min_dec_fac 50 % */
	assert_int_equal(host_stat(&h, "dcqcn_cnp_handled"), handled);
	assert_int_equal(rp->stats.cnp_ignored, 1);
	assert_int_equal(rp->stats.decreases, 2);

	/* Fast recovery: each timer event halves the gap to the target. */
	rt = host_stat(&h, "dcqcn_target_bps");
	assert_int_equal(rt, LINE_BPS);	/* no increase between the cuts */
	gap = rt - r1;
	for (k = 1; k <= 5; k++) {
		t = cc_host_next_timer_ns(&h);
		assert_int_equal(t, (10 + monitor_us + k * reset_us) *
				    NS_PER_US);
		assert_int_equal(cc_host_timer(&h, t), 0);
		gap /= 2;	/* RC = (RT + RC + 1) / 2 */
		assert_int_equal(cc_host_rate_bps(&h, t), rt - gap);
		assert_int_equal(host_stat(&h, "dcqcn_target_bps"), rt);
		assert_int_equal(host_stat(&h, "dcqcn_time_stage"), k);
		assert_int_equal(rp->stats.increases[RXE_CC_DCQCN_INC_FR], k);
	}
	print_message("# dcqcn: %.3Lf Gb/s after the first CNP, %.3Lf after "
		      "the deferred cut, %.3Lf after 5 fast recoveries\n",
		      r0 / 1e9L, r1 / 1e9L,
		      cc_host_rate_bps(&h, t) / 1e9L);
	/* Then additive increase, at the cap here: RC reaches RT = C. */
	for (k = 0; k < 100 && cc_host_next_timer_ns(&h) != ~0ULL; k++) {
		u64 before = cc_host_rate_bps(&h, t);

		t = cc_host_next_timer_ns(&h);
		cc_host_timer(&h, t);
		assert_true(cc_host_rate_bps(&h, t) > before);
		assert_true(cc_host_rate_bps(&h, t) <= LINE_BPS);
	}
	assert_int_equal(cc_host_rate_bps(&h, t), LINE_BPS);
	assert_int_equal(cc_host_next_timer_ns(&h), ~0ULL);

	/* The statistics rows, against the state. */
	assert_int_equal(host_stat(&h, "dcqcn_alpha"), rxe_cc_dcqcn_alpha(rp));
	assert_int_equal(host_stat(&h, "dcqcn_target_bps"), rp->rt_bps);
	assert_int_equal(host_stat(&h, "dcqcn_byte_stage"), 0);
	assert_int_equal(host_stat(&h, "dcqcn_time_stage"), rp->time_stage);
	assert_int_equal(host_stat(&h, "dcqcn_cnp_handled"), handled);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_names_unique),
		cmocka_unit_test(test_knob_rows),
		cmocka_unit_test(test_knob_cross_rules),
		cmocka_unit_test(test_derive_for_the_flow),
		cmocka_unit_test(test_cap_applies_at_once),
		cmocka_unit_test(test_acc_scripted),
		cmocka_unit_test(test_dcqcn_scripted),
	};

	return cmocka_run_group_tests_name("rxe_cc_ops", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * test_core.c - unit tests of the lsw core on its virtual clock (cmocka).
 *
 * Topologies come from config text through the real parser, traffic is
 * injected with exact timestamps, and what the emulated hosts receive is
 * recorded by the tx callback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "lsw_config.h"
#include "lsw_core.h"
#include "lsw_frame.h"
#include "lsw_mark.h"
#include "lsw_rng.h"
#include "test_frames.h"

#define NS_PER_S 1000000000ULL
#define RATE_BPS 40000000ULL
#define FRAME_BYTES 1000
#define WIRE_BYTES (FRAME_BYTES + 24)
#define FRAME_NS (WIRE_BYTES * 8 * NS_PER_S / RATE_BPS) /* 204800 ns */
#define DSCP_DATA 26
#define DSCP_ACK 48
#define PRIO_DATA 3
#define MAX_LOG 65536

struct rx_rec {
	uint64_t t_ns;
	uint8_t src, dscp, ecn;
};

struct sim {
	struct lsw_core *core;
	struct lsw_config cfg;
	int n_log[LSW_MAX_PORTS];
	struct rx_rec *log[LSW_MAX_PORTS];
};

static void on_tx(void *ctx, int port, const uint8_t *f, size_t len,
		  uint64_t now_ns)
{
	struct sim *s = ctx;
	struct lsw_frame_info fi;
	struct rx_rec *r;

	if (s->n_log[port] >= MAX_LOG)
		return;
	lsw_frame_parse(f, len, &fi);
	r = &s->log[port][s->n_log[port]++];
	r->t_ns = now_ns;
	r->src = f[11];
	r->dscp = fi.dscp;
	r->ecn = fi.ecn;
	/* The IPv4 header checksum must stay valid after ECN rewriting. */
	if (fi.cls == LSW_FRAME_IP && fi.ip_version == 4)
		assert_int_equal(tf_ip_csum(f + fi.l3_off, 20), 0);
}

static struct sim *sim_new(const char *text)
{
	struct sim *s = calloc(1, sizeof(*s));
	char err[256];

	assert_non_null(s);
	if (lsw_config_parse(text, strlen(text), "test", &s->cfg, err, sizeof(err)))
		fail_msg("config: %s", err);
	s->core = lsw_core_create(&s->cfg, err, sizeof(err));
	if (!s->core)
		fail_msg("core: %s", err);
	for (int i = 0; i < LSW_MAX_PORTS; i++)
		s->log[i] = calloc(MAX_LOG, sizeof(struct rx_rec));
	return s;
}

static void sim_free(struct sim *s)
{
	lsw_core_destroy(s->core);
	for (int i = 0; i < LSW_MAX_PORTS; i++)
		free(s->log[i]);
	free(s);
}

static int port_of(struct sim *s, const char *sw, const char *name)
{
	for (int i = 0; i < s->cfg.n_ports; i++)
		if (!strcmp(s->cfg.port[i].name, name) &&
		    !strcmp(s->cfg.sw[s->cfg.port[i].sw].name, sw))
			return i;
	fail_msg("no port %s:%s", sw, name);
	return -1;
}

static void run_to(struct sim *s, uint64_t t_ns)
{
	lsw_core_advance(s->core, t_ns, on_tx, s);
}

static void send_ip(struct sim *s, int port, unsigned src, unsigned dst,
		    uint8_t dscp, uint8_t ecn, uint64_t t_ns)
{
	uint8_t f[FRAME_BYTES];

	tf_ipv4(f, sizeof(f), src, dst, dscp, ecn);
	run_to(s, t_ns);
	lsw_core_rx(s->core, port, f, sizeof(f), t_ns);
}

static struct lsw_prio_stats stats(struct sim *s, int port, int prio)
{
	struct lsw_prio_stats st;

	lsw_core_prio_stats(s->core, port, prio, UINT64_MAX / 2, &st);
	return st;
}

static uint64_t total_drops(struct sim *s)
{
	uint64_t d = 0;

	for (int i = 0; i < s->cfg.n_ports; i++)
		for (int p = 0; p < LSW_NPRIO; p++) {
			struct lsw_prio_stats st = stats(s, i, p);

			d += st.drops + st.host_drops;
		}
	return d;
}

/* Hosts 1..3 on one switch, static MACs so nothing floods. */
#define ONE_SWITCH(extra)                                                   \
	"rate 40M\ndelay 10us\nhost_queue 16MB\n" extra                       \
	"switch s1\n"                                                         \
	"host a s1 127.0.0.1:1 127.0.0.1:2\n"                                 \
	"host b s1 127.0.0.1:3 127.0.0.1:4\n"                                 \
	"host r s1 127.0.0.1:5 127.0.0.1:6\n"                                 \
	"mac s1 52:54:00:00:00:01 a\nmac s1 52:54:00:00:00:02 b\n"            \
	"mac s1 52:54:00:00:00:03 r\n"

static void test_line_rate(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH(""));
	int a = port_of(s, "s1", "a"), r = port_of(s, "s1", "r");
	const uint64_t t0 = NS_PER_S / 10, t1 = t0 + NS_PER_S;
	const double c = (double)RATE_BPS / (WIRE_BYTES * 8); /* 4882.8 /s */
	int n = 0;

	(void)state;
	for (int i = 0; i < 8000; i++)
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, 0);
	run_to(s, t1 + NS_PER_S);
	for (int i = 0; i < s->n_log[r]; i++)
		n += s->log[r][i].t_ns >= t0 && s->log[r][i].t_ns < t1;
	print_message("# line rate: %d frames in 1 s, C = %.3f\n", n, c);
	assert_true(fabs(n - c) <= 1.0);
	sim_free(s);
}

/* a and b at line rate into r for 0.5 s: PFC must hold everything. */
static void test_pfc_incast(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH("pause_quanta 2000\n"));
	int a = port_of(s, "s1", "a"), b = port_of(s, "s1", "b");
	int r = port_of(s, "s1", "r");
	const struct lsw_switch_cfg *sc = &s->cfg.sw[0];
	const int n = 2500;
	struct lsw_prio_stats sa, sb;

	(void)state;
	for (int i = 0; i < n; i++) {
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
		send_ip(s, b, 2, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
	}
	run_to(s, 10 * NS_PER_S);
	sa = stats(s, a, PRIO_DATA);
	sb = stats(s, b, PRIO_DATA);
	print_message("# pfc: xoff %llu at %llu B (xoff %llu), xon %llu at %llu B, host queue peak %llu B, paused %.3f s, buffer peak %llu B\n",
		      (unsigned long long)sa.xoff_tx,
		      (unsigned long long)sa.xoff_at_bytes,
		      (unsigned long long)sc->xoff_bytes,
		      (unsigned long long)sa.xon_tx,
		      (unsigned long long)sa.xon_at_bytes,
		      (unsigned long long)sa.host_queue_peak_bytes,
		      sa.host_paused_ns / 1e9,
		      (unsigned long long)lsw_core_switch_stats(s->core, 0)->buffer_peak_bytes);
	assert_int_equal(s->n_log[r], 2 * n);
	assert_int_equal(total_drops(s), 0);
	assert_true(sa.xoff_tx > 0 && sb.xoff_tx > 0 && sa.xon_tx > 0);
	assert_true(sa.xoff_at_bytes >= sc->xoff_bytes);
	assert_true(sa.xoff_at_bytes < sc->xoff_bytes + 2 * FRAME_BYTES);
	assert_true(sa.xon_at_bytes <= sc->xon_bytes);
	/* The excess waited in the host NIC model while it was paused. */
	assert_true(sa.host_paused_ns > NS_PER_S / 10);
	assert_true(sa.host_queue_peak_bytes > 50 * FRAME_BYTES);
	assert_true(lsw_core_switch_stats(s->core, 0)->buffer_peak_bytes <=
		    sc->buffer_bytes);
	assert_true(sa.ingress_peak_bytes <= sc->xoff_bytes + sc->headroom_bytes);
	sim_free(s);
}

static void test_red_curve(void **state)
{
	struct lsw_red red;
	const uint64_t kmin = 10000, kmax = 50000;
	const double pmax = 0.2;
	const uint64_t qs[] = { 0, 10000, 15000, 30000, 45000, 50000, 50001, 80000 };
	const int trials = 40000;
	uint64_t rng = 12345;

	(void)state;
	lsw_red_init(&red, kmin, kmax, pmax);
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double p = qs[i] <= kmin ? 0 :
			   qs[i] > kmax ? 1 :
					  pmax * (double)(qs[i] - kmin) / (kmax - kmin);
		double sigma = sqrt(p * (1 - p) / trials);
		int hits = 0;

		for (int t = 0; t < trials; t++)
			hits += lsw_red_mark(&red, qs[i], &rng);
		print_message("# red q=%llu p=%.4f observed=%.4f\n",
			      (unsigned long long)qs[i], p, (double)hits / trials);
		assert_true(fabs((double)hits / trials - p) <= 5 * sigma + 1e-9);
	}
}

/* RED in a switch: ECT frames get CE under a standing queue, Not-ECT never. */
static void test_red_ect_only(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH("marking red\nred_kmin 2000\nred_kmax 20000\nred_pmax 0.5\n"));
	int a = port_of(s, "s1", "a"), b = port_of(s, "s1", "b");
	int r = port_of(s, "s1", "r");
	int ce = 0, not_ect_marked = 0;

	(void)state;
	for (int i = 0; i < 1000; i++) {
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
		send_ip(s, b, 2, 3, DSCP_DATA, LSW_ECN_NOT_ECT, (uint64_t)i * FRAME_NS);
	}
	run_to(s, 10 * NS_PER_S);
	for (int i = 0; i < s->n_log[r]; i++) {
		ce += s->log[r][i].ecn == LSW_ECN_CE;
		not_ect_marked += s->log[r][i].src == 2 && s->log[r][i].ecn;
	}
	assert_int_equal(s->n_log[r], 2000);
	assert_true(ce > 100);
	assert_int_equal(not_ect_marked, 0);
	assert_int_equal(stats(s, r, PRIO_DATA).ce_marks, (uint64_t)ce);
	/* Ingress ECN counters: what each sender sent, before marking. */
	assert_int_equal(stats(s, a, PRIO_DATA).ecn_in[LSW_ECN_ECT0], 1000);
	assert_int_equal(stats(s, a, PRIO_DATA).ecn_in[LSW_ECN_NOT_ECT], 0);
	assert_int_equal(stats(s, b, PRIO_DATA).ecn_in[LSW_ECN_NOT_ECT], 1000);
	assert_int_equal(stats(s, b, PRIO_DATA).ecn_in[LSW_ECN_ECT0], 0);
	sim_free(s);
}

#define TWO_SWITCHES_X(extra)                                               \
	"rate 40M\ndelay 10us\nhost_queue 16MB\nmarking tcd\n" extra          \
	"switch s1\nswitch s2\nlink s1 s2 rate=80M\n"                                  \
	"host a s1 127.0.0.1:1 127.0.0.1:2\n"                                 \
	"host b s2 127.0.0.1:3 127.0.0.1:4\n"                                 \
	"host r s2 127.0.0.1:5 127.0.0.1:6\n"                                 \
	"mac s1 52:54:00:00:00:03 to-s2\n"                                    \
	"mac s2 52:54:00:00:00:03 r\n"
#define TWO_SWITCHES TWO_SWITCHES_X("")

/*
 * a (on s1) and b (on s2) send to r at 0.6 C each for 1 s: the root
 * (s2 -> r) is congested; s1 -> s2 is paused in the ON-OFF pattern.  Then b
 * stops and a slows to 0.5 C: the root's congestion ends.  The s1-s2 link
 * runs at 2 C, like a fabric uplink, so that s1 -> s2 can drain once it is
 * released (at 1 C, a's NIC backlog would keep a standing queue there at
 * line rate, which TCD rightly calls CE).
 */
static void tcd_two_switch(const char *text)
{
	struct sim *s = sim_new(text);
	int a = port_of(s, "s1", "a"), b = port_of(s, "s2", "b");
	int root = port_of(s, "s2", "r"), up = port_of(s, "s1", "to-s2");
	const uint64_t gap_fast = FRAME_NS * 10 / 6, gap_slow = FRAME_NS * 2;
	uint64_t t = 0, ue_settled = 0, last_mark = 0;
	struct lsw_prio_stats sr, su;
	struct lsw_prio_view v;

	for (; t < NS_PER_S; t += gap_fast) {
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, t);
		send_ip(s, b, 2, 3, DSCP_DATA, LSW_ECN_ECT0, t);
	}
	su = stats(s, up, PRIO_DATA);
	print_message("# tcd phase 1: up ue %llu ce %llu pfc_rx %llu\n",
		      (unsigned long long)su.ue_marks,
		      (unsigned long long)su.ce_marks,
		      (unsigned long long)su.pfc_rx);
	for (; t < 3 * NS_PER_S; t += gap_slow) {
		/* a's NIC backlog from phase 1 (0.1 C for 1 s) keeps the root
		 * fully loaded for another ~0.2 s; 0.6 s is a safe margin. */
		if (!ue_settled && t >= NS_PER_S * 16 / 10)
			ue_settled = stats(s, up, PRIO_DATA).ue_marks + 1;
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, t);
	}
	run_to(s, t);
	sr = stats(s, root, PRIO_DATA);
	su = stats(s, up, PRIO_DATA);
	lsw_core_view(s->core, up, PRIO_DATA, t, &v);
	for (int i = 0; i < s->n_log[root]; i++)
		if (s->log[root][i].ecn != LSW_ECN_ECT0)
			last_mark = s->log[root][i].t_ns;
	print_message("# tcd: root ce %llu ue %llu; upstream ce %llu ue %llu (ue after 1.6 s: %llu), max_ton %.1f ms, upstream state %s, last marked frame at r %.3f s\n",
		      (unsigned long long)sr.ce_marks, (unsigned long long)sr.ue_marks,
		      (unsigned long long)su.ce_marks, (unsigned long long)su.ue_marks,
		      (unsigned long long)(su.ue_marks - (ue_settled - 1)),
		      v.max_ton_ns / 1e6, lsw_tcd_state_name(v.tcd_state),
		      last_mark / 1e9);
	assert_true(su.pfc_rx > 0);
	assert_true(sr.ce_marks > 100);
	assert_true(su.ue_marks > 100);
	assert_int_equal(su.ce_marks, 0);
	assert_int_equal(su.ue_marks, ue_settled - 1);
	assert_int_equal(v.tcd_state, LSW_TCD_NO);
	assert_int_equal(total_drops(s), 0);
	sim_free(s);
}

static void test_tcd_two_switch(void **state)
{
	(void)state;
	tcd_two_switch(TWO_SWITCHES_X("tcd_rule dequeue\n"));
}

/* The same split with the period rule (lsw's default). */
static void test_tcd_two_switch_period(void **state)
{
	(void)state;
	tcd_two_switch(TWO_SWITCHES);
}

/*
 * a and b send 100 frames each back to back to r: the queue at r grows to
 * ~100 frames, then drains.  K = 15 frames, T = 5 ms (~24 frame times).
 * Returns the CE marks r received; *first and *last are the indices (in
 * r's arrival order) of the first and last CE frame, *gaps counts unmarked
 * frames between them.
 */
static int tcd_burst(const char *rule, int *first, int *last, int *gaps)
{
	char text[512];
	struct sim *s;
	int a, b, r, ce = 0;

	snprintf(text, sizeof(text),
		 ONE_SWITCH("marking tcd\ntcd_period 5ms\nxoff 400000\n"
			    "xon 300000\nheadroom 40000\ntcd_rule %s\n"),
		 rule);
	s = sim_new(text);
	a = port_of(s, "s1", "a"), b = port_of(s, "s1", "b");
	r = port_of(s, "s1", "r");
	for (int i = 0; i < 100; i++) {
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
		send_ip(s, b, 2, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
	}
	run_to(s, NS_PER_S);
	assert_int_equal(s->n_log[r], 200);
	*first = *last = -1;
	*gaps = 0;
	for (int i = 0; i < s->n_log[r]; i++) {
		if (s->log[r][i].ecn != LSW_ECN_CE)
			continue;
		if (*first < 0)
			*first = i;
		else
			*gaps += i - *last - 1;
		*last = i;
		ce++;
	}
	assert_int_equal(stats(s, r, PRIO_DATA).ce_marks, (uint64_t)ce);
	assert_int_equal(stats(s, r, PRIO_DATA).pfc_rx, 0);
	assert_int_equal(total_drops(s), 0);
	sim_free(s);
	return ce;
}

/* The burst's CE frames under `rule` are first..last, without a gap. */
static void tcd_burst_expect(const char *rule, int first_lo, int first_hi,
			     int last_lo, int last_hi)
{
	int first, last, gaps, ce = tcd_burst(rule, &first, &last, &gaps);

	print_message("# tcd %s: ce %d, frames %d..%d, gaps %d\n", rule, ce,
		      first, last, gaps);
	assert_in_range(first, first_lo, first_hi);
	assert_int_equal(gaps, 0);
	assert_in_range(last, last_lo, last_hi);
}

/*
 * Dequeue rule: CE from the first frame that leaves a queue above K to the
 * last one, the drain included; the period rule starts at a boundary and
 * withdraws CE at the first boundary where the high queue is falling.
 */
static void test_tcd_dequeue_vs_period(void **state)
{
	(void)state;
	/* q (itself included) > 15 frames from the 16th departure on, and
	 * until the queue behind it is down to 15 frames. */
	tcd_burst_expect("dequeue", 14, 16, 183, 186);
	/* First boundary at 5 ms = 24.4 frame times; none after 25 ms. */
	tcd_burst_expect("period", 23, 26, 120, 124);
}

#define TK 10000 /* K */
#define TT 1000  /* T, ns */
#define TON 5000 /* max(T_on), ns */

static void tcd_pure(struct lsw_tcd *t, enum lsw_tcd_rule rule)
{
	lsw_tcd_init(t, TK, TT, TON, 0);
	lsw_tcd_set_rule(t, rule, 0, 1.0, 1000);
}

/* A pause 300 ns after the start (T_on < max(T_on)), resumed at 2 us. */
static void tcd_to_ue(struct lsw_tcd *t, uint64_t q_resume)
{
	lsw_tcd_on_pfc(t, 0, 10000, 300);
	assert_int_equal(t->state, LSW_TCD_UE);
	lsw_tcd_on_pfc(t, q_resume, 0, 2000);
	assert_int_equal(t->q_resume_bytes, q_resume);
}

/* The state machine alone, on a virtual clock, for both rules. */
static void test_tcd_rules(void **state)
{
	struct lsw_tcd t;
	uint64_t rng = 1;

	(void)state;
	/* Dequeue: each packet is judged by its queue, no boundary needed. */
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	assert_int_equal(lsw_tcd_dequeue(&t, TK + 1, 100, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, TK, 200, &rng), LSW_TCD_NO);
	/* A high queue that is falling stays CE. */
	assert_int_equal(lsw_tcd_dequeue(&t, 5 * TK, 300, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, 4 * TK, 2500, &rng), LSW_TCD_CE);
	/*
	 * Period: NO until the first boundary, then that boundary's state.
	 * (Each call's q is the queue since the previous call.)
	 */
	tcd_pure(&t, LSW_TCD_RULE_PERIOD);
	assert_int_equal(lsw_tcd_dequeue(&t, TK + 1, 100, &rng), LSW_TCD_NO);
	assert_int_equal(lsw_tcd_dequeue(&t, TK + 1, 1100, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, 5 * TK, 1200, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, 5 * TK, 2100, &rng), LSW_TCD_CE);
	/* A high queue that fell since the last boundary: NO. */
	assert_int_equal(lsw_tcd_dequeue(&t, 4 * TK, 3100, &rng), LSW_TCD_NO);
	assert_int_equal(lsw_tcd_dequeue(&t, 4 * TK, 4100, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, 100, 5100, &rng), LSW_TCD_NO);

	/* Dequeue, UE: marks UE whatever q until ON for max(T_on) (7 us). */
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	tcd_to_ue(&t, 3 * TK);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 6900, &rng), LSW_TCD_UE);
	/* Left UE with the queue below its level at the resume: trend check,
	 * which marks nothing while the queue falls or stays. */
	assert_int_equal(lsw_tcd_dequeue(&t, 2 * TK, 7000, &rng), LSW_TCD_TREND);
	assert_int_equal(lsw_tcd_remark(LSW_TCD_TREND, LSW_ECN_ECT0), LSW_ECN_ECT0);
	assert_int_equal(lsw_tcd_dequeue(&t, 2 * TK, 8500, &rng), LSW_TCD_TREND);
	assert_int_equal(lsw_tcd_dequeue(&t, 2 * TK - 1000, 8900, &rng),
			 LSW_TCD_TREND);
	/* The boundary at 9 us sees it rise: the port's own congestion. */
	assert_int_equal(lsw_tcd_dequeue(&t, 2 * TK + 1000, 9100, &rng),
			 LSW_TCD_CE);
	assert_int_equal(lsw_tcd_dequeue(&t, TK, 9200, &rng), LSW_TCD_NO);

	/* Left UE with the queue at or above its level at the resume:
	 * judged at once. */
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	tcd_to_ue(&t, 3 * TK);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 7000, &rng), LSW_TCD_CE);

	/* The trend check ends in NO when the queue is down to 2 MTU, at a
	 * dequeue or at a boundary. */
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	tcd_to_ue(&t, 3 * TK);
	assert_int_equal(lsw_tcd_dequeue(&t, 2 * TK, 7000, &rng), LSW_TCD_TREND);
	assert_int_equal(lsw_tcd_dequeue(&t, 2000, 7500, &rng), LSW_TCD_NO);
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	tcd_to_ue(&t, 3 * TK);
	lsw_tcd_catch_up(&t, 2 * TK, 7000);
	assert_int_equal(t.state, LSW_TCD_TREND);
	lsw_tcd_catch_up(&t, 1500, 9000);
	assert_int_equal(t.state, LSW_TCD_NO);

	/* Dequeue: a pause after a long ON is no UE, but the resume is: the
	 * port is undetermined until it has been ON for max(T_on). */
	tcd_pure(&t, LSW_TCD_RULE_DEQUEUE);
	lsw_tcd_on_pfc(&t, TK, 10000, 6000);
	assert_int_equal(t.state, LSW_TCD_NO);
	lsw_tcd_on_pfc(&t, 3 * TK, 0, 8000);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 8100, &rng), LSW_TCD_UE);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 13100, &rng), LSW_TCD_CE);
	/* The period rule judges that port at its boundaries. */
	tcd_pure(&t, LSW_TCD_RULE_PERIOD);
	lsw_tcd_on_pfc(&t, TK, 10000, 6000);
	lsw_tcd_on_pfc(&t, 3 * TK, 0, 8000);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 9100, &rng), LSW_TCD_CE);

	/* Period, UE: one silent period, then q > K and not fallen -> CE. */
	tcd_pure(&t, LSW_TCD_RULE_PERIOD);
	tcd_to_ue(&t, 3 * TK);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 7000, &rng), LSW_TCD_TREND);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 7900, &rng), LSW_TCD_TREND);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK, 8100, &rng), LSW_TCD_CE);
}

/* The dequeue rule with RED thresholds: P(CE) = pmax (q - K)/(kmax - K). */
static void test_tcd_red(void **state)
{
	struct lsw_tcd t;
	uint64_t rng = 7;
	int ce = 0, n = 20000;

	(void)state;
	lsw_tcd_init(&t, TK, TT, TON, 0);
	lsw_tcd_set_rule(&t, LSW_TCD_RULE_DEQUEUE, 3 * TK, 0.5, 1000);
	assert_int_equal(lsw_tcd_dequeue(&t, TK, 1, &rng), LSW_TCD_NO);
	for (int i = 0; i < n; i++)
		ce += lsw_tcd_dequeue(&t, 2 * TK, 2 + i, &rng) == LSW_TCD_CE;
	print_message("# tcd red: P(CE) at the midpoint %.4f (0.25)\n",
		      (double)ce / n);
	assert_in_range(ce, n / 4 - n / 50, n / 4 + n / 50);
	assert_int_equal(lsw_tcd_dequeue(&t, 3 * TK + 1, n + 10, &rng),
			 LSW_TCD_CE);
	/* kmax at or below K: a step. */
	lsw_tcd_set_rule(&t, LSW_TCD_RULE_DEQUEUE, TK, 0.1, 1000);
	assert_int_equal(lsw_tcd_dequeue(&t, TK + 1, n + 20, &rng), LSW_TCD_CE);
	assert_int_equal(lsw_tcd_parse_rule("period", &t.rule), 0);
	assert_int_equal(t.rule, LSW_TCD_RULE_PERIOD);
	assert_int_equal(lsw_tcd_parse_rule("instant", &t.rule), -1);
	assert_string_equal(lsw_tcd_rule_name(LSW_TCD_RULE_DEQUEUE), "dequeue");
}

/* An ACK sent behind a full data queue leaves ahead of it. */
static void test_strict_priority(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH(""));
	int a = port_of(s, "s1", "a"), b = port_of(s, "s1", "b");
	int r = port_of(s, "s1", "r");
	const uint64_t t_ack = 200 * FRAME_NS;
	int ack_at = -1;

	(void)state;
	for (int i = 0; i < 400; i++) {
		send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
		if ((uint64_t)i * FRAME_NS == t_ack)
			send_ip(s, b, 2, 3, DSCP_ACK, LSW_ECN_NOT_ECT, t_ack);
		send_ip(s, b, 2, 3, DSCP_DATA, LSW_ECN_ECT0, (uint64_t)i * FRAME_NS);
	}
	run_to(s, 10 * NS_PER_S);
	for (int i = 0; i < s->n_log[r]; i++)
		if (s->log[r][i].dscp == DSCP_ACK)
			ack_at = i;
	assert_true(ack_at >= 0);
	print_message("# strict: ack delivered %.2f frame times after it was sent, %d data frames after it\n",
		      (double)(s->log[r][ack_at].t_ns - t_ack) / FRAME_NS,
		      s->n_log[r] - ack_at - 1);
	/* NIC + switch serialisation, plus one data frame on each hop. */
	assert_true(s->log[r][ack_at].t_ns - t_ack <= 5 * FRAME_NS);
	assert_true(stats(s, r, PRIO_DATA).queue_peak_bytes > 20 * FRAME_BYTES);
	assert_true(s->n_log[r] - ack_at - 1 > 100);
	sim_free(s);
}

static void rx_raw(struct sim *s, int port, const uint8_t *f, size_t len)
{
	lsw_core_rx(s->core, port, f, len, 0);
}

static void test_robustness(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH(""));
	int a = port_of(s, "s1", "a"), r = port_of(s, "s1", "r");
	int b = port_of(s, "s1", "b");
	static uint8_t f[LSW_MAX_FRAME_BYTES + 100];
	const struct lsw_port_errors *e = lsw_core_port_errors(s->core, a);
	uint64_t rng = 99;
	uint16_t quanta[8] = { 0 };

	(void)state;
	memset(f, 0xff, sizeof(f));
	for (size_t len = 0; len < LSW_ETH_HDR_BYTES; len++)
		rx_raw(s, a, f, len); /* runts, counted at the NIC */
	rx_raw(s, a, f, LSW_MAX_FRAME_BYTES + 1);
	/* ARP broadcast: flooded to b and r. */
	memset(f, 0, 60);
	memset(f, 0xff, 6);
	tf_mac(f + 6, 1);
	f[12] = 0x08, f[13] = 0x06;
	rx_raw(s, a, f, 60);
	/* VLAN-tagged IPv4 to r: forwarded, classified by the inner DSCP. */
	tf_ipv4(f + 4, 200, 1, 3, DSCP_DATA, LSW_ECN_ECT0);
	memmove(f, f + 4, 12);
	f[12] = 0x81, f[13] = 0x00, f[14] = 0, f[15] = 5;
	rx_raw(s, a, f, 204);
	/* Truncated IPv4 header. */
	tf_ipv4(f, 100, 1, 3, DSCP_DATA, LSW_ECN_ECT0);
	rx_raw(s, a, f, 24);
	/* LLDP to a reserved address; legacy 802.3x PAUSE. */
	memcpy(f, "\x01\x80\xc2\x00\x00\x0e", 6);
	f[12] = 0x88, f[13] = 0xcc;
	rx_raw(s, a, f, 60);
	lsw_pfc_build(f, f + 6, 0, quanta);
	f[15] = 0x01, f[14] = 0x00;
	rx_raw(s, a, f, 60);
	/* Garbage of every size. */
	for (int i = 0; i < 20000; i++) {
		size_t len = lsw_rng_next(&rng) % 1600;

		for (size_t j = 0; j < len; j++)
			f[j] = (uint8_t)lsw_rng_next(&rng);
		rx_raw(s, a, f, len);
	}
	run_to(s, 100 * NS_PER_S);
	print_message("# robustness: runts %llu oversize %llu bad_ip %llu ctrl_other %llu reserved %llu; r got %d, b got %d\n",
		      (unsigned long long)e->runts, (unsigned long long)e->oversize,
		      (unsigned long long)e->bad_ip, (unsigned long long)e->ctrl_other,
		      (unsigned long long)e->reserved_dst, s->n_log[r], s->n_log[b]);
	assert_true(e->runts >= LSW_ETH_HDR_BYTES);
	assert_int_equal(e->oversize, 1);
	assert_true(e->bad_ip >= 1 && e->ctrl_other >= 1 && e->reserved_dst >= 1);
	assert_true(s->n_log[r] >= 2 && s->n_log[b] >= 1);
	assert_int_equal(s->log[r][1].dscp, DSCP_DATA);
	assert_int_equal(stats(s, r, PRIO_DATA).frames_out, 1);
	sim_free(s);
}

/* A PFC frame from a host pauses the switch's egress towards that host. */
static void test_pfc_from_host(void **state)
{
	struct sim *s = sim_new(ONE_SWITCH(""));
	int a = port_of(s, "s1", "a"), r = port_of(s, "s1", "r");
	uint8_t f[LSW_PFC_FRAME_BYTES], src[6];
	uint16_t quanta[8] = { 0 };
	const uint64_t pause_ns = 1000ULL * 512 * NS_PER_S / RATE_BPS; /* 12.8 ms */

	(void)state;
	tf_mac(src, 3);
	quanta[PRIO_DATA] = 1000;
	lsw_pfc_build(f, src, 1u << PRIO_DATA, quanta);
	lsw_core_rx(s->core, r, f, sizeof(f), 0);
	send_ip(s, a, 1, 3, DSCP_DATA, LSW_ECN_ECT0, NS_PER_S / 1000);
	send_ip(s, a, 1, 3, 0, LSW_ECN_ECT0, NS_PER_S / 1000);
	run_to(s, NS_PER_S);
	assert_int_equal(s->n_log[r], 2);
	assert_int_equal(s->log[r][0].dscp, 0); /* prio 0 was not paused */
	assert_true(s->log[r][1].t_ns >= pause_ns);
	assert_int_equal(stats(s, r, PRIO_DATA).pfc_rx, 1);
	sim_free(s);
}

static void test_ecn_rewrite(void **state)
{
	uint8_t f[200];
	struct lsw_frame_info fi;

	(void)state;
	for (int tos = 0; tos < 256; tos++) {
		for (uint8_t ecn = 0; ecn < 4; ecn++) {
			tf_ipv4(f, sizeof(f), 1, 2, (uint8_t)(tos >> 2), (uint8_t)tos);
			lsw_frame_parse(f, sizeof(f), &fi);
			lsw_frame_set_ecn(f, &fi, ecn);
			assert_int_equal(f[15], (tos & ~3) | ecn);
			assert_int_equal(tf_ip_csum(f + 14, 20), 0);
		}
	}
	/* IPv6: traffic class 0xab -> ECN 3, DSCP 0x2a; set ECN to 01. */
	memset(f, 0, sizeof(f));
	f[12] = 0x86, f[13] = 0xdd;
	f[14] = 0x6a, f[15] = 0xb5;
	lsw_frame_parse(f, 100, &fi);
	assert_int_equal(fi.cls, LSW_FRAME_IP);
	assert_int_equal(fi.dscp, 0x2a);
	assert_int_equal(fi.ecn, 3);
	lsw_frame_set_ecn(f, &fi, 1);
	assert_int_equal(f[14], 0x6a);
	assert_int_equal(f[15], 0x95);
	/* TCD precedence CE > UE > NO; Not-ECT is never given to remark. */
	assert_int_equal(lsw_tcd_remark(LSW_TCD_UE, LSW_ECN_CE), LSW_ECN_CE);
	assert_int_equal(lsw_tcd_remark(LSW_TCD_UE, LSW_ECN_ECT0), LSW_ECN_ECT1);
	assert_int_equal(lsw_tcd_remark(LSW_TCD_CE, LSW_ECN_ECT1), LSW_ECN_CE);
	assert_int_equal(lsw_tcd_remark(LSW_TCD_NO, LSW_ECN_ECT0), LSW_ECN_ECT0);
	assert_int_equal(lsw_tcd_remark(LSW_TCD_TREND, LSW_ECN_ECT0), LSW_ECN_ECT0);
}

static void test_pfc_frame(void **state)
{
	uint8_t f[LSW_PFC_FRAME_BYTES], en;
	const uint8_t src[6] = { 2, 0, 0, 0, 0, 1 };
	uint16_t q[8] = { 1, 2, 3, 0xffff, 5, 6, 7, 8 }, out[8];

	(void)state;
	lsw_pfc_build(f, src, 0x09, q);
	assert_memory_equal(f, "\x01\x80\xc2\x00\x00\x01", 6);
	assert_int_equal(f[12] << 8 | f[13], 0x8808);
	assert_int_equal(f[14] << 8 | f[15], 0x0101);
	assert_int_equal(lsw_pfc_parse(f, sizeof(f), &en, out), 0);
	assert_int_equal(en, 0x09);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[3], 0xffff);
	assert_int_equal(out[1], 0); /* not enabled: zero on the wire */
	assert_int_equal(lsw_pfc_parse(f, 20, &en, out), -1);
}

static void expect_error(const char *text, const char *want)
{
	static struct lsw_config cfg;
	char err[256];

	assert_int_equal(lsw_config_parse(text, strlen(text), "t.conf", &cfg, err,
					  sizeof(err)), -1);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
}

static void test_config_errors(void **state)
{
	static struct lsw_config cfg;
	struct lsw_core *core;
	char err[256];
	const char *loop = "switch a\nswitch b\nswitch c\nlink a b\nlink b c\nlink c a\n";

	(void)state;
	expect_error("rate 40M\nxoff lots\nswitch s\n", "t.conf:2: xoff: bad value");
	expect_error("switch s\nrate 1G\n", "t.conf:2: 'rate' is global");
	expect_error("switch s\nhost h s 10.0.0.1:5 127.0.0.1:6\n",
		     "t.conf:2: local '10.0.0.1:5': only loopback");
	expect_error("switch s\nhost h t 127.0.0.1:5 127.0.0.1:6\n", "unknown switch");
	expect_error("switch s\nswitch s\n", "t.conf:2: switch 's' declared twice");
	expect_error("switch s marking=fast\n", "t.conf:1: switch s: marking");
	expect_error("switch s tcd_rule=fast\n", "t.conf:1: switch s: tcd_rule");
	expect_error("bogus 1\n", "t.conf:1: unknown keyword 'bogus'");
	expect_error("# nothing\n", "no switch declared");
	expect_error("switch s\nmac s 01:00:00:00:00:01 x\n", "group address");
	/* Structural errors come from the core, after overrides. */
	assert_int_equal(lsw_config_parse(loop, strlen(loop), "t", &cfg, err, sizeof(err)), 0);
	core = lsw_core_create(&cfg, err, sizeof(err));
	assert_null(core);
	assert_non_null(strstr(err, "loop"));
	const char *xon = "xon 40000\nswitch s\nhost h s 127.0.0.1:1 127.0.0.1:2\n";

	assert_int_equal(lsw_config_parse(xon, strlen(xon), "t", &cfg, err, sizeof(err)), 0);
	assert_null(lsw_core_create(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "xon must be below xoff"));
}

static void test_example_configs(void **state)
{
	const char *dir = getenv("LSW_DIR");
	const char *names[] = { "incast-2to1.conf", "victim-2switch.conf" };
	static struct lsw_config cfg;
	char path[1024], err[256];

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct lsw_core *core;

		snprintf(path, sizeof(path), "%s/examples/%s", dir ? dir : ".", names[i]);
		if (lsw_config_load(path, &cfg, err, sizeof(err)))
			fail_msg("%s", err);
		core = lsw_core_create(&cfg, err, sizeof(err));
		if (!core)
			fail_msg("%s: %s", path, err);
		lsw_core_destroy(core);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_rate),
		cmocka_unit_test(test_pfc_incast),
		cmocka_unit_test(test_red_curve),
		cmocka_unit_test(test_red_ect_only),
		cmocka_unit_test(test_tcd_two_switch),
		cmocka_unit_test(test_tcd_two_switch_period),
		cmocka_unit_test(test_tcd_dequeue_vs_period),
		cmocka_unit_test(test_tcd_rules),
		cmocka_unit_test(test_tcd_red),
		cmocka_unit_test(test_strict_priority),
		cmocka_unit_test(test_robustness),
		cmocka_unit_test(test_pfc_from_host),
		cmocka_unit_test(test_ecn_rewrite),
		cmocka_unit_test(test_pfc_frame),
		cmocka_unit_test(test_config_errors),
		cmocka_unit_test(test_example_configs),
	};

	return cmocka_run_group_tests_name("lsw core", tests, NULL, NULL);
}

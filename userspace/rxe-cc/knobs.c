// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - the knob table and the checks a value passes before rxe-cc
 * writes it.  tests/test_parse.c holds the table to the ABI document.
 */
#include "knobs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MBPS_MAX	1600000ULL		/* RXE_CC_MAX_LINE_RATE_MBPS */
#define KBPS_MAX	(MBPS_MAX * 1000)
#define US_10S		10000000ULL

#define U(n, g, unit, d, lo, hi, m) { n, KNOB_UINT, g, unit, d, lo, hi, m }
#define B(n, g, d, m) { n, KNOB_BOOL, g, "", d, 0, 1, m }
#define PRIO(n) \
	{ "prio" #n "_algorithm", KNOB_PRIO_ALGO, GROUP_CHOICE, "", "default", \
	  0, 0, PRIO_ALGO_MEANS }, \
	{ "prio" #n "_np", KNOB_BOOL, GROUP_CHOICE, "", "1", 0, 1, PRIO_NP_MEANS }

/* prio<N>_*: the ABI document says it once, for every N */
#define PRIO_ALGO_MEANS \
	"Algorithm of the QPs of priority N (DSCP >> 3 of the traffic class)."
#define PRIO_NP_MEANS \
	"Whether RC QPs of priority N answer congestion marks (1) or ignore them (0)."

const struct knob knob_table[] = {
	{ "algorithm", KNOB_ALGO, GROUP_CHOICE, "", "none", 0, 0,
	  "Congestion control of the RC QPs created from now on." },
	{ "available", KNOB_RO, GROUP_CHOICE, "", "none dcqcn acc", 0, 0,
	  "The algorithms this module has, space separated." },
	PRIO(0), PRIO(1), PRIO(2), PRIO(3), PRIO(4), PRIO(5), PRIO(6), PRIO(7),
	U("line_rate_mbps", GROUP_DEVICE, "Mb/s", "0", 0, MBPS_MAX,
	  "The QP's line rate C: start and cap rate of both algorithms."),
	U("pacer_burst_us", GROUP_DEVICE, "us", "1000", 1, 100000,
	  "Depth of each QP's token bucket, as sending time at the QP's current rate."),
	{ "cnp_dscp", KNOB_DSCP, GROUP_DEVICE, "", "-1", 0, 0,
	  "DSCP of the CNPs the notification point sends (np_cnp_dscp)." },
	{ "ack_dscp", KNOB_DSCP, GROUP_DEVICE, "", "-1", 0, 0,
	  "DSCP of every RC ACK and atomic ACK the device sends." },
	U("rpg_ai_rate", GROUP_DCQCN, "Mb/s", "5", 1, MBPS_MAX,
	  "DCQCN additive increase step of the target rate."),
	U("rpg_ai_rate_kbps", GROUP_DCQCN, "kb/s", "5000", 1, KBPS_MAX,
	  "DCQCN additive increase step of the target rate."),
	U("rpg_hai_rate", GROUP_DCQCN, "Mb/s", "50", 1, MBPS_MAX,
	  "DCQCN hyper increase step."),
	U("rpg_hai_rate_kbps", GROUP_DCQCN, "kb/s", "50000", 1, KBPS_MAX,
	  "DCQCN hyper increase step."),
	U("rpg_time_reset", GROUP_DCQCN, "us", "300", 1, US_10S,
	  "DCQCN increase timer period."),
	U("rpg_byte_reset", GROUP_DCQCN, "bytes", "32767", 0, 1073741824,
	  "DCQCN byte counter per increase event; 0 disables it."),
	U("rpg_threshold", GROUP_DCQCN, "", "1", 1, 31,
	  "DCQCN F: fast-recovery events before additive increase."),
	U("rpg_min_rate", GROUP_DCQCN, "Mb/s", "1", 1, MBPS_MAX,
	  "DCQCN rate floor."),
	U("rpg_min_rate_kbps", GROUP_DCQCN, "kb/s", "1000", 1, KBPS_MAX,
	  "DCQCN rate floor."),
	U("rpg_max_rate", GROUP_DCQCN, "Mb/s", "0", 0, MBPS_MAX,
	  "DCQCN rate cap; 0: line rate."),
	U("rpg_max_rate_kbps", GROUP_DCQCN, "kb/s", "0", 0, KBPS_MAX,
	  "DCQCN rate cap; 0: line rate."),
	U("rpg_min_dec_fac", GROUP_DCQCN, "%", "50", 1, 100,
	  "One decrease keeps at least this share of the rate."),
	U("rpg_gd", GROUP_DCQCN, "", "11", 1, 15,
	  "Decrease RC by RC * alpha / 2^rpg_gd (11: RC(1 - alpha/2))."),
	U("dce_tcp_g", GROUP_DCQCN, "/1024", "1019", 0, 1023,
	  "alpha EWMA: weight of the old alpha, of 1024 (g = 5/1024)."),
	U("dce_tcp_rtt", GROUP_DCQCN, "us", "1", 1, US_10S,
	  "alpha update period."),
	U("rate_reduce_monitor_period", GROUP_DCQCN, "us", "4", 0, US_10S,
	  "At most one decrease per this period."),
	U("initial_alpha_value", GROUP_DCQCN, "/1024", "1023", 0, 1023,
	  "alpha set on the QP's first CNP."),
	U("rate_to_set_on_first_cnp", GROUP_DCQCN, "Mb/s", "0", 0, MBPS_MAX,
	  "RC = RT = this on the first CNP; 0: a normal cut."),
	U("rate_to_set_on_first_cnp_kbps", GROUP_DCQCN, "kb/s", "0", 0, KBPS_MAX,
	  "RC = RT = this on the first CNP; 0: a normal cut."),
	B("clamp_tgt_rate", GROUP_DCQCN, "0",
	  "1: every decrease sets RT = RC; 0: only after an increase."),
	U("min_time_between_cnps", GROUP_DCQCN, "us", "4", 0, US_10S,
	  "Notification point: at most one CNP per QP per this."),
	U("acc_period_us", GROUP_ACC, "us", "50", 10, 100000,
	  "ACC period T: the sender classifies itself every T."),
	U("acc_halt_max_us", GROUP_ACC, "us", "400", 1, 1000000,
	  "Cap of a source halt (8 T by default), in case the ACK clock stops."),
	U("acc_base_rtt_us", GROUP_ACC, "us", "0", 0, 1000000,
	  "Base RTT tau; 0: measured (minimum RTT sample, 10 s window)."),
	U("acc_min_rate_mbps", GROUP_ACC, "Mb/s", "1", 1, MBPS_MAX,
	  "ACC rate floor."),
	U("acc_max_rate_mbps", GROUP_ACC, "Mb/s", "0", 0, MBPS_MAX,
	  "ACC rate cap; 0: line rate."),
	U("acc_start_rate_mbps", GROUP_ACC, "Mb/s", "0", 0, MBPS_MAX,
	  "Rate of a new QP; 0: the cap (RDMA practice: start at line rate)."),
	U("acc_theta_ce_pct", GROUP_ACC, "%", "90", 1, 100,
	  "theta_CE: share of CE-marked ACKs in a period that makes the flow congested (halt)."),
	U("acc_p_thresh", GROUP_ACC, "", "3", 1, 1000,
	  "P: UE (victim) periods kept at the same rate before halving."),
	U("acc_beta0_ppm", GROUP_ACC, "ppm", "62500", 1, 500000,
	  "beta_0, the gain of the ramp to C (default 1/16)."),
	B("acc_halt", GROUP_ACC, "1",
	  "Whether a congested period halts the QP (1) or only sets its rate (0)."),
	U("acc_gate", GROUP_ACC, "", "2", 0, 3,
	  "The increase rule after a QP's first halt."),
	U("acc_window_bytes", GROUP_ACC, "bytes", "0", 0, 4294967296ULL,
	  "ACC's cap on a QP's bytes in flight at R = C, scaled by R / C; 0: no cap."),
	U("acc_ack_every", GROUP_ACC, "packets", "8", 1, 64,
	  "A receiver knob: how many packets after a marked one are each ACKed."),
};

const size_t knob_count = sizeof(knob_table) / sizeof(knob_table[0]);

const struct knob *knob_find(const char *name)
{
	for (size_t i = 0; i < knob_count; i++)
		if (!strcmp(knob_table[i].name, name))
			return &knob_table[i];
	return NULL;
}

#define NO_CNP_PRIO \
	"rxe's CNPs carry no VLAN tag: their priority comes from the DSCP (set cnp_dscp)"

const struct knob_alias knob_aliases[] = {
	{ "rp_clamp_tgt_rate", "clamp_tgt_rate", 0, NULL },
	{ "rp_time_reset", "rpg_time_reset", 0, NULL },
	{ "rp_byte_reset", "rpg_byte_reset", 0, NULL },
	{ "rp_threshold", "rpg_threshold", 0, NULL },
	{ "rp_ai_rate", "rpg_ai_rate", 0, NULL },
	{ "rp_max_rate", "rpg_max_rate", 0, NULL },
	{ "rp_hai_rate", "rpg_hai_rate", 0, NULL },
	{ "rp_min_dec_fac", "rpg_min_dec_fac", 0, NULL },
	{ "rp_min_rate", "rpg_min_rate", 0, NULL },
	{ "rp_rate_to_set_on_first_cnp", "rate_to_set_on_first_cnp", 1,
	  "0 means the full port speed on mlx5 and a normal cut here: set rate_to_set_on_first_cnp to the line rate in Mb/s" },
	{ "rp_dce_tcp_g", "dce_tcp_g", 0, NULL },
	{ "rp_dce_tcp_rtt", "dce_tcp_rtt", 0, NULL },
	{ "rp_rate_reduce_monitor_period", "rate_reduce_monitor_period", 0, NULL },
	{ "rp_initial_alpha_value", "initial_alpha_value", 0, NULL },
	{ "rp_gd", "rpg_gd", 0, NULL },
	{ "np_min_time_between_cnps", "min_time_between_cnps", 0, NULL },
	{ "np_cnp_dscp", "cnp_dscp", 0, NULL },
	{ "rp_clamp_tgt_rate_ati", NULL, 0,
	  "no counterpart: rxe's DCQCN updates the target rate as clamp_tgt_rate says" },
	{ "clamp_tgt_rate_after_time_inc", NULL, 0,
	  "no counterpart: rxe's DCQCN updates the target rate as clamp_tgt_rate says" },
	{ "np_cnp_prio_mode", NULL, 0, NO_CNP_PRIO },
	{ "np_cnp_prio", NULL, 0, NO_CNP_PRIO },
	{ "cnp_802p_prio", NULL, 0, NO_CNP_PRIO },
	{ "rtt_resp_dscp_valid", NULL, 0,
	  "no counterpart: rxe answers no RTT probes (ACC's ACKs move with ack_dscp)" },
	{ "rtt_resp_dscp", NULL, 0,
	  "no counterpart: rxe answers no RTT probes (ACC's ACKs move with ack_dscp)" },
};

const size_t knob_alias_count = sizeof(knob_aliases) / sizeof(knob_aliases[0]);

const struct knob_alias *knob_alias_find(const char *name)
{
	for (size_t i = 0; i < knob_alias_count; i++)
		if (!strcmp(knob_aliases[i].name, name))
			return &knob_aliases[i];
	return NULL;
}

const char *knob_alias_of(const struct knob *k)
{
	for (size_t i = 0; i < knob_alias_count; i++)
		if (knob_aliases[i].target &&
		    !strcmp(knob_aliases[i].target, k->name))
			return knob_aliases[i].name;
	return NULL;
}

const struct knob *knob_lookup(const char *name, const char *value, char *why,
			       size_t why_len)
{
	const struct knob *k = knob_find(name);
	const struct knob_alias *a;

	if (k)
		return k;
	a = knob_alias_find(name);
	if (!a) {
		snprintf(why, why_len,
			 "unknown knob '%.64s' (rxe-cc show lists them)", name);
		return NULL;
	}
	if (!a->target || (a->zero_differs && *value &&
			    strspn(value, "0") == strlen(value))) {
		snprintf(why, why_len, "%s (mlx5): %s", a->name, a->why);
		return NULL;
	}
	return knob_find(a->target);
}

int word_in_list(const char *word, const char *list)
{
	size_t n = strlen(word);
	const char *p = list;

	if (!n)
		return 0;
	while (*p) {
		size_t len;

		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (len == n && !strncmp(p, word, n))
			return 1;
		p += len;
	}
	return 0;
}

/* Plain decimal only: no sign, no base prefix, no spaces, fits 64 bits. */
static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int knob_check(const struct knob *k, const char *v, const char *available,
	       char *why, size_t why_len)
{
	uint64_t n;

	if (strlen(v) >= KNOB_VALUE_MAX) {
		snprintf(why, why_len, "value too long");
		return -1;
	}
	switch (k->kind) {
	case KNOB_RO:
		snprintf(why, why_len, "read-only");
		return -1;
	case KNOB_BOOL:
		if (strcmp(v, "0") && strcmp(v, "1")) {
			snprintf(why, why_len, "'%s' is not 0 or 1", v);
			return -1;
		}
		return 0;
	case KNOB_DSCP:
		if (!strcmp(v, "-1"))
			return 0;
		if (parse_u64(v, &n) || n > 63) {
			snprintf(why, why_len, "'%s' is not -1 or a DSCP 0..63", v);
			return -1;
		}
		return 0;
	case KNOB_PRIO_ALGO:
		if (!strcmp(v, "default"))
			return 0;
		/* fall through */
	case KNOB_ALGO:
		if (!word_in_list(v, available)) {
			snprintf(why, why_len, "'%s' is not %s%s", v,
				 k->kind == KNOB_PRIO_ALGO ? "default or one of: " :
				 "one of: ", available);
			why[strcspn(why, "\n")] = 0;
			return -1;
		}
		return 0;
	case KNOB_UINT:
		if (parse_u64(v, &n)) {
			snprintf(why, why_len, "'%s' is not a whole number", v);
			return -1;
		}
		if (n < k->min || n > k->max) {
			snprintf(why, why_len, "%s is out of range %" PRIu64
				 "..%" PRIu64 "%s%s", v, k->min, k->max,
				 *k->unit ? " " : "", k->unit);
			return -1;
		}
		return 0;
	}
	snprintf(why, why_len, "unknown kind");
	return -1;
}

int knob_assignment(char *buf, char **name, char **value)
{
	char *eq = strchr(buf, '=');

	if (!eq || eq == buf)
		return -1;
	*eq = 0;
	*name = buf;
	*value = eq + 1;
	return 0;
}

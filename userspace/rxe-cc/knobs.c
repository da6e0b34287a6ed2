// SPDX-License-Identifier: GPL-2.0
/*
 * knobs.c - a device's knobs from its cc/knobs, rxe-cc's own table of
 * the rest, mlx5's names, and the checks a value passes before rxe-cc
 * writes it.  tests/test_parse.c holds the table, and a copy of the
 * kernel's cc/knobs, to the ABI document.
 */
#include "knobs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"

#define ATTR(n, kind, g, d, m) { n, kind, g, "", d, 0, 0, 0, m }
#define PRIO(n) \
	ATTR("prio" #n "_algorithm", KNOB_PRIO_ALGO, KNOB_GROUP_CHOICE, \
	     "default", PRIO_ALGO_MEANS), \
	{ "prio" #n "_np", KNOB_BOOL, KNOB_GROUP_CHOICE, "", "1", 0, 1, 0, \
	  PRIO_NP_MEANS }

/* prio<N>_*: the ABI document says it once, for every N */
#define PRIO_ALGO_MEANS \
	"Algorithm of the QPs of priority N (DSCP >> 3 of the traffic class)."
#define PRIO_NP_MEANS \
	"Whether RC QPs of priority N answer congestion marks (1) or ignore them (0)."

/* what cc/knobs does not list: the choice, the DSCPs, and their kinds */
const struct knob knob_attrs[] = {
	ATTR("algorithm", KNOB_ALGO, KNOB_GROUP_CHOICE, "none",
	     "Congestion control of the RC QPs created from now on."),
	ATTR("available", KNOB_RO, KNOB_GROUP_CHOICE, "none dcqcn acc timely",
	     "The algorithms this module has, space separated."),
	ATTR("knobs", KNOB_RO, KNOB_GROUP_CHOICE, "",
	     "Every numeric knob of cc/ and cc_experimental/, one line each: "
	     "\"name unit min max default group\", and a last word "
	     "\"experimental\" for a knob of cc_experimental/."),
	PRIO(0), PRIO(1), PRIO(2), PRIO(3), PRIO(4), PRIO(5), PRIO(6), PRIO(7),
	ATTR("cnp_dscp", KNOB_DSCP, KNOB_GROUP_DEVICE, "-1",
	     "DSCP of the CNPs the notification point sends (np_cnp_dscp)."),
	ATTR("ack_dscp", KNOB_DSCP, KNOB_GROUP_DEVICE, "-1",
	     "DSCP of every RC ACK and atomic ACK the device sends."),
};

const size_t knob_attr_count = sizeof(knob_attrs) / sizeof(knob_attrs[0]);

/*
 * The numeric knobs' meanings, in the kernel's order: each the first
 * sentence of its ABI entry (after "Experimental: ..." for those of
 * cc_experimental/).  Their units, ranges and defaults are cc/knobs'.
 */
const struct knob_desc knob_descs[] = {
	{ "line_rate_mbps",
	  "The QP's line rate C: start and cap rate of both algorithms." },
	{ "pacer_burst_us",
	  "Depth of each QP's token bucket, as sending time at the QP's current rate." },
	{ "acc_ack_every",
	  "A receiver knob: how many packets after a marked one are each ACKed." },
	{ "min_time_between_cnps",
	  "Notification point: at most one CNP per QP per this." },
	{ "rpg_ai_rate_kbps", "DCQCN additive increase step of the target rate." },
	{ "rpg_hai_rate_kbps", "DCQCN hyper increase step." },
	{ "rpg_time_reset", "DCQCN increase timer period." },
	{ "rpg_byte_reset", "DCQCN byte counter per increase event; 0 disables it." },
	{ "rpg_threshold",
	  "DCQCN F: fast-recovery events before additive increase." },
	{ "rpg_min_rate_kbps", "DCQCN rate floor." },
	{ "rpg_max_rate_kbps", "DCQCN rate cap; 0: line rate." },
	{ "rpg_min_dec_fac", "One decrease keeps at least this share of the rate." },
	{ "rpg_gd", "Decrease RC by RC * alpha / 2^rpg_gd (11: RC(1 - alpha/2))." },
	{ "dce_tcp_g",
	  "alpha EWMA: weight of the old alpha, of 1024 (g = 5/1024)." },
	{ "dce_tcp_rtt", "alpha update period." },
	{ "rate_reduce_monitor_period", "At most one decrease per this period." },
	{ "initial_alpha_value", "alpha set on the QP's first CNP." },
	{ "rate_to_set_on_first_cnp_kbps",
	  "RC = RT = this on the first CNP; 0: a normal cut." },
	{ "clamp_tgt_rate",
	  "1: every decrease sets RT = RC; 0: only after an increase." },
	{ "acc_period_us", "ACC period T: the sender classifies itself every T." },
	{ "acc_halt_max_us",
	  "Cap of a source halt (8 T by default), in case the ACK clock stops." },
	{ "acc_base_rtt_us",
	  "Base RTT tau; 0: measured (minimum RTT sample, 10 s window)." },
	{ "acc_min_rate_mbps", "ACC rate floor." },
	{ "acc_max_rate_mbps", "ACC rate cap; 0: line rate." },
	{ "acc_start_rate_mbps",
	  "Rate of a new QP; 0: the cap (RDMA practice: start at line rate)." },
	{ "acc_theta_ce_pct",
	  "theta_CE: share of CE-marked ACKs in a period that makes the flow congested (halt)." },
	{ "acc_p_thresh",
	  "P: UE (victim) periods kept at the same rate before halving." },
	{ "acc_beta0_ppm", "beta_0, the gain of the ramp to C (default 1/16)." },
	{ "acc_window_bytes",
	  "ACC's cap on a QP's bytes in flight at R = C, scaled by R / C; 0: no cap." },
	{ "acc_halt",
	  "Whether a congested period halts the QP (1) or only sets its rate (0)." },
	{ "acc_gate", "The increase rule after a QP's first halt." },
	{ "timely_t_low_us",
	  "TIMELY T_low: an RTT sample below it always increases the rate." },
	{ "timely_t_high_us",
	  "TIMELY T_high: an RTT sample above it cuts the rate by beta (1 - T_high / RTT)." },
	{ "timely_min_rtt_us",
	  "TIMELY minimum RTT: normalises the RTT gradient, and the rate is updated at most once per it." },
	{ "timely_add_step_kbps",
	  "TIMELY additive increase step delta (5 delta after timely_hai_thresh updates with a gradient <= 0)." },
	{ "timely_min_rate_kbps", "TIMELY rate floor." },
	{ "timely_ewma_alpha",
	  "TIMELY weight of a new RTT difference in its moving average, of 1024." },
	{ "timely_beta", "TIMELY decrease gain, of 1024." },
	{ "timely_hai_thresh",
	  "TIMELY N: updates with a gradient <= 0 before the step grows to 5 delta." },
};

const size_t knob_desc_count = sizeof(knob_descs) / sizeof(knob_descs[0]);

const char *knob_means(const char *name)
{
	for (size_t i = 0; i < knob_desc_count; i++)
		if (!strcmp(knob_descs[i].name, name))
			return knob_descs[i].means;
	for (size_t i = 0; i < knob_attr_count; i++)
		if (!strcmp(knob_attrs[i].name, name))
			return knob_attrs[i].means;
	return "";
}

const struct knob *knob_find(const struct knob_schema *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->k[i].name, name))
			return &s->k[i];
	return NULL;
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

/* S is a word fit for a file name: letters, digits, '_' */
static int plain_word(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n && n < max &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* K into S, in place of a knob of the same name or after the others */
static int schema_add(struct knob_schema *s, const struct knob *k)
{
	size_t i = 0;

	while (i < s->n && strcmp(s->k[i].name, k->name))
		i++;
	if (i == KNOB_MAX)
		return -1;
	s->k[i] = *k;
	if (i == s->n)
		s->n++;
	return 0;
}

#define KNOB_LINE_WORDS	8

/*
 * One line of cc/knobs, "name unit min max default group [experimental]",
 * into K.  Words after the group other than "experimental" are left for
 * later kernels.  0, or -1.
 */
static int parse_row(char *line, struct knob *k)
{
	char *w[KNOB_LINE_WORDS], *save = NULL;
	uint64_t def;
	int n = 0;

	for (char *t = strtok_r(line, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save))
		if (n < KNOB_LINE_WORDS)
			w[n++] = t;
	if (n < 6 || !plain_word(w[0], KNOB_NAME_MAX) ||
	    !plain_word(w[5], KNOB_NAME_MAX) ||
	    strlen(w[1]) >= KNOB_UNIT_MAX || strlen(w[4]) >= KNOB_VALUE_MAX ||
	    parse_u64(w[2], &k->min) || parse_u64(w[3], &k->max) ||
	    parse_u64(w[4], &def) || k->min > k->max)
		return -1;
	snprintf(k->name, sizeof(k->name), "%s", w[0]);
	snprintf(k->unit, sizeof(k->unit), "%s", strcmp(w[1], "-") ? w[1] : "");
	snprintf(k->def, sizeof(k->def), "%s", w[4]);
	snprintf(k->group, sizeof(k->group), "%s", w[5]);
	k->kind = k->min == 0 && k->max == 1 ? KNOB_BOOL : KNOB_UINT;
	k->experimental = 0;
	for (int i = 6; i < n; i++)
		if (!strcmp(w[i], "experimental"))
			k->experimental = 1;
	k->means = knob_means(k->name);
	return 0;
}

int knob_schema_parse(struct knob_schema *s, const char *text, char *why,
		      size_t why_len)
{
	const char *p = text;
	int line_no = 0;

	/* the choice first, then the kernel's rows, then our device knobs */
	s->n = 0;
	for (size_t i = 0; i < knob_attr_count; i++)
		if (!strcmp(knob_attrs[i].group, KNOB_GROUP_CHOICE))
			s->k[s->n++] = knob_attrs[i];
	while (*p) {
		size_t len = strcspn(p, "\n");
		char line[256];
		struct knob k = { 0 };

		line_no++;
		if (len >= sizeof(line)) {
			snprintf(why, why_len, "line %d is too long", line_no);
			return -1;
		}
		memcpy(line, p, len);
		line[len] = 0;
		p += len + (p[len] == '\n');
		if (strspn(line, " \t") == len)
			continue;
		if (parse_row(line, &k)) {
			snprintf(why, why_len,
				 "line %d is not \"name unit min max default group [experimental]\"",
				 line_no);
			return -1;
		}
		if (schema_add(s, &k)) {
			snprintf(why, why_len, "more than %d knobs", KNOB_MAX);
			return -1;
		}
	}
	for (size_t i = 0; i < knob_attr_count; i++)
		if (strcmp(knob_attrs[i].group, KNOB_GROUP_CHOICE) &&
		    !knob_find(s, knob_attrs[i].name) &&
		    schema_add(s, &knob_attrs[i])) {
			snprintf(why, why_len, "more than %d knobs", KNOB_MAX);
			return -1;
		}
	return 0;
}

int knob_schema_load(struct knob_schema *s, const char *dev, char *err,
		     size_t err_len)
{
	char text[KNOBS_TEXT_MAX], why[128];
	int e = knob_read_all(dev, "knobs", text, sizeof(text));

	if (e == -ENOENT) {
		snprintf(err, err_len,
			 "%s: the rdma_rxe module is older than this rxe-cc: it has no cc/knobs (rxe-cc -V compares them)",
			 dev);
		return -1;
	}
	if (e) {
		snprintf(err, err_len, "%s: cannot read cc/knobs: %s", dev,
			 strerror(-e));
		return -1;
	}
	if (knob_schema_parse(s, text, why, sizeof(why))) {
		snprintf(err, err_len, "%s: cc/knobs: %s", dev, why);
		return -1;
	}
	return 0;
}

const char *knob_dir(const struct knob *k)
{
	return k->experimental ? CC_EXP_DIR : CC_DIR;
}

int knob_get(const char *dev, const struct knob *k, char *val, size_t len)
{
	return knob_read_in(dev, knob_dir(k), k->name, val, len);
}

int knob_put(const char *dev, const struct knob *k, const char *val)
{
	return knob_write_in(dev, knob_dir(k), k->name, val);
}

#define NO_CNP_PRIO \
	"rxe's CNPs carry no VLAN tag: their priority comes from the DSCP (set cnp_dscp)"

/* the same unit; mlx5's Mb/s for our kb/s; no counterpart */
#define SAME(n, t)	{ .name = n, .target = t, .scale = 1 }
#define MBPS(n, t)	{ .name = n, .target = t, .scale = 1000, .unit = "Mb/s" }
#define NONE(n, w)	{ .name = n, .why = w }

const struct knob_alias knob_aliases[] = {
	SAME("rp_clamp_tgt_rate", "clamp_tgt_rate"),
	SAME("rp_time_reset", "rpg_time_reset"),
	SAME("rp_byte_reset", "rpg_byte_reset"),
	SAME("rp_threshold", "rpg_threshold"),
	MBPS("rp_ai_rate", "rpg_ai_rate_kbps"),
	MBPS("rp_max_rate", "rpg_max_rate_kbps"),
	MBPS("rp_hai_rate", "rpg_hai_rate_kbps"),
	SAME("rp_min_dec_fac", "rpg_min_dec_fac"),
	MBPS("rp_min_rate", "rpg_min_rate_kbps"),
	{ .name = "rp_rate_to_set_on_first_cnp",
	  .target = "rate_to_set_on_first_cnp_kbps", .scale = 1000,
	  .unit = "Mb/s", .zero_differs = 1,
	  .why = "0 means the full port speed on mlx5 and a normal cut here: set rate_to_set_on_first_cnp to the line rate in Mb/s" },
	SAME("rp_dce_tcp_g", "dce_tcp_g"),
	SAME("rp_dce_tcp_rtt", "dce_tcp_rtt"),
	SAME("rp_rate_reduce_monitor_period", "rate_reduce_monitor_period"),
	SAME("rp_initial_alpha_value", "initial_alpha_value"),
	SAME("rp_gd", "rpg_gd"),
	SAME("np_min_time_between_cnps", "min_time_between_cnps"),
	SAME("np_cnp_dscp", "cnp_dscp"),
	/* the files of mlx5's ecn/roce_rp/ whose unit is not ours */
	MBPS("rpg_ai_rate", "rpg_ai_rate_kbps"),
	MBPS("rpg_hai_rate", "rpg_hai_rate_kbps"),
	MBPS("rpg_min_rate", "rpg_min_rate_kbps"),
	MBPS("rpg_max_rate", "rpg_max_rate_kbps"),
	MBPS("rate_to_set_on_first_cnp", "rate_to_set_on_first_cnp_kbps"),
	NONE("rp_clamp_tgt_rate_ati",
	     "no counterpart: rxe's DCQCN updates the target rate as clamp_tgt_rate says"),
	NONE("clamp_tgt_rate_after_time_inc",
	     "no counterpart: rxe's DCQCN updates the target rate as clamp_tgt_rate says"),
	NONE("np_cnp_prio_mode", NO_CNP_PRIO),
	NONE("np_cnp_prio", NO_CNP_PRIO),
	NONE("cnp_802p_prio", NO_CNP_PRIO),
	NONE("rtt_resp_dscp_valid",
	     "no counterpart: rxe answers no RTT probes (ACC's ACKs move with ack_dscp)"),
	NONE("rtt_resp_dscp",
	     "no counterpart: rxe answers no RTT probes (ACC's ACKs move with ack_dscp)"),
};

const size_t knob_alias_count = sizeof(knob_aliases) / sizeof(knob_aliases[0]);

const struct knob_alias *knob_alias_find(const char *name)
{
	for (size_t i = 0; i < knob_alias_count; i++)
		if (!strcmp(knob_aliases[i].name, name))
			return &knob_aliases[i];
	return NULL;
}

const struct knob_alias *knob_alias_next(const struct knob *k,
					 const struct knob_alias *prev)
{
	size_t i = prev ? (size_t)(prev - knob_aliases) + 1 : 0;

	for (; i < knob_alias_count; i++)
		if (knob_aliases[i].target &&
		    !strcmp(knob_aliases[i].target, k->name))
			return &knob_aliases[i];
	return NULL;
}

const char *knob_alias_of(const struct knob *k)
{
	const struct knob_alias *a = knob_alias_next(k, NULL);

	return a ? a->name : NULL;
}

const char *knob_alias_unit(const struct knob_alias *a, const struct knob *k)
{
	return a->scale > 1 && a->unit ? a->unit : k->unit;
}

const struct knob *knob_lookup(const struct knob_schema *s, const char *name,
			       const char *value,
			       const struct knob_alias **alias, char *why,
			       size_t why_len)
{
	const struct knob *k = knob_find(s, name);
	const struct knob_alias *a;

	*alias = NULL;
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
	k = knob_find(s, a->target);
	if (!k) {
		snprintf(why, why_len, "%s (mlx5): this module has no %s",
			 a->name, a->target);
		return NULL;
	}
	*alias = a;
	return k;
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

int knob_given(const struct knob *k, const struct knob_alias *a,
	       const char *value, const char *available, char *out,
	       size_t out_len, char *why, size_t why_len)
{
	uint64_t n, lo, hi;

	if (!a || a->scale <= 1) {
		if (knob_check(k, value, available, why, why_len))
			return -1;
		snprintf(out, out_len, "%s", value);
		return 0;
	}
	/* in the alias's unit: K's range over the scale, rounded inwards */
	lo = k->min / a->scale + (k->min % a->scale != 0);
	hi = k->max / a->scale;
	if (strlen(value) >= KNOB_VALUE_MAX) {
		snprintf(why, why_len, "value too long");
		return -1;
	}
	if (parse_u64(value, &n)) {
		snprintf(why, why_len, "'%s' is not a whole number", value);
		return -1;
	}
	if (n < lo || n > hi) {
		snprintf(why, why_len, "%s is out of range %" PRIu64 "..%" PRIu64
			 " %s", value, lo, hi, a->unit);
		return -1;
	}
	snprintf(out, out_len, "%" PRIu64, n * a->scale);
	return 0;
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

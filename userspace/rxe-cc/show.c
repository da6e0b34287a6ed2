// SPDX-License-Identifier: GPL-2.0
/*
 * show.c - every knob with its value, unit and default, grouped as the
 * device's cc/knobs groups them; the algorithm choice per priority; the
 * notification point's switches and counters.
 */
#include "show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "knobs.h"
#include "out.h"
#include "sysfs.h"

/* V, a value of knob K as its file reads, typed: a number where K is one */
void knob_json(struct jw *w, const char *key, const struct knob *k,
	       const char *v)
{
	char *end;

	switch (k->kind) {
	case KNOB_UINT:
	case KNOB_BOOL:
		if (*v >= '0' && *v <= '9') {
			unsigned long long n;

			errno = 0;
			n = strtoull(v, &end, 10);
			if (!errno && !*end) {
				jw_u64(w, key, n);
				return;
			}
		}
		jw_null(w, key);
		return;
	case KNOB_DSCP:
		if (*v == '-' || (*v >= '0' && *v <= '9')) {
			long long n;

			errno = 0;
			n = strtoll(v, &end, 10);
			if (!errno && !*end && end != v) {
				jw_s64(w, key, n);
				return;
			}
		}
		jw_null(w, key);
		return;
	default:
		jw_str(w, key, v);
	}
}

static void json_words(struct jw *w, const char *key, const char *list)
{
	const char *p = list;
	char word[KNOB_VALUE_MAX];

	jw_arr_open(w, key);
	while (*(p += strspn(p, " \t\n"))) {
		int len = (int)strcspn(p, " \t\n");

		snprintf(word, sizeof(word), "%.*s", len, p);
		jw_str(w, NULL, word);
		p += len;
	}
	jw_arr_close(w);
}

/* the knob rows of show: every knob but the algorithm choice */
static int is_row(const struct knob *k)
{
	return strcmp(k->group, KNOB_GROUP_CHOICE) != 0;
}

static int read_knob(const char *dev, const char *name, char *v)
{
	int e = knob_read(dev, name, v, KNOB_VALUE_MAX);

	if (e)
		fprintf(stderr, "rxe-cc: %s: cannot read cc/%s: %s\n", dev,
			name, strerror(-e));
	return e;
}

/* knob K's value, from cc/ or cc_experimental/ */
static int read_row(const char *dev, const struct knob *k, char *v)
{
	int e = knob_get(dev, k, v, KNOB_VALUE_MAX);

	if (e)
		fprintf(stderr, "rxe-cc: %s: cannot read %s/%s: %s\n", dev,
			knob_dir(k), k->name, strerror(-e));
	return e;
}

/*
 * Knob G of S is a row and the first of its group: show lists the groups
 * in the order of their first knobs, which is the kernel's (the device's
 * group first), and the knobs of a group in the schema's order.
 */
static int first_of_group(const struct knob_schema *s, size_t g)
{
	if (!is_row(&s->k[g]))
		return 0;
	for (size_t i = 0; i < g; i++)
		if (!strcmp(s->k[i].group, s->k[g].group))
			return 0;
	return 1;
}

void json_dev_keys(struct jw *w, const char *dev)
{
	jw_str(w, "ifname", dev);
	jw_u64(w, "port", 1);
	jw_str(w, "device", dev);
}

static void knob_row_json(struct jw *w, const struct knob *k, const char *v)
{
	const struct knob_alias *a = knob_alias_next(k, NULL);

	jw_obj_open(w, NULL);
	jw_str(w, "name", k->name);
	jw_str(w, "group", k->group);
	knob_json(w, "value", k, v);
	knob_json(w, "default", k, k->def);
	jw_str(w, "unit", k->unit);
	if (k->kind == KNOB_UINT || k->kind == KNOB_BOOL) {
		jw_u64(w, "min", k->min);
		jw_u64(w, "max", k->max);
	}
	jw_bool(w, "changed", strcmp(v, k->def) != 0);
	jw_bool(w, "experimental", k->experimental);
	if (a) {
		jw_str(w, "mlx5", a->name);
		jw_arr_open(w, "mlx5_names");
		for (; a; a = knob_alias_next(k, a))
			jw_str(w, NULL, a->name);
		jw_arr_close(w);
		a = knob_alias_next(k, NULL);
		if (strcmp(knob_alias_unit(a, k), k->unit))
			jw_str(w, "mlx5_unit", knob_alias_unit(a, k));
	}
	jw_obj_close(w);
}

static int show_json(struct jw *w, const char *dev,
		     const struct knob_schema *s)
{
	char v[KNOB_VALUE_MAX], name[32];
	uint64_t sent = 0, marked = 0;

	jw_obj_open(w, NULL);
	jw_u64(w, "schema", JSON_SCHEMA);
	json_dev_keys(w, dev);
	if (read_knob(dev, "algorithm", v))
		return -1;
	jw_str(w, "algorithm", v);
	if (read_knob(dev, "available", v))
		return -1;
	json_words(w, "available", v);
	jw_arr_open(w, "priorities");
	for (int p = 0; p < KNOB_PRIOS; p++) {
		char np[KNOB_VALUE_MAX];

		snprintf(name, sizeof(name), "prio%d_algorithm", p);
		if (read_knob(dev, name, v))
			return -1;
		snprintf(name, sizeof(name), "prio%d_np", p);
		if (read_knob(dev, name, np))
			return -1;
		jw_obj_open(w, NULL);
		jw_u64(w, "prio", p);
		jw_str(w, "algorithm", v);
		jw_bool(w, "np", !strcmp(np, "1"));
		jw_obj_close(w);
	}
	jw_arr_close(w);
	counter_read(dev, "np_cnp_sent", &sent);
	counter_read(dev, "np_ecn_marked_roce_packets", &marked);
	jw_obj_open(w, "np");
	jw_u64(w, "cnp_sent", sent);
	jw_u64(w, "ecn_marked_roce_packets", marked);
	jw_obj_close(w);
	jw_arr_open(w, "knobs");
	for (size_t g = 0; g < s->n; g++) {
		if (!first_of_group(s, g))
			continue;
		for (size_t i = g; i < s->n; i++) {
			const struct knob *k = &s->k[i];

			if (strcmp(k->group, s->k[g].group))
				continue;
			if (read_row(dev, k, v))
				return -1;
			knob_row_json(w, k, v);
		}
	}
	jw_arr_close(w);
	jw_obj_close(w);
	return 0;
}

/* one row of the priority table: prio<N>SUFFIX for N = 0..7 */
static int prio_row(FILE *f, const char *dev, const char *title,
		    const char *suffix)
{
	char v[KNOB_VALUE_MAX], name[32];

	fprintf(f, "\n  %-9s ", title);
	for (int p = 0; p < KNOB_PRIOS; p++) {
		snprintf(name, sizeof(name), "prio%d%s", p, suffix);
		if (read_knob(dev, name, v))
			return -1;
		if (!strcmp(suffix, "_np"))
			snprintf(v, sizeof(v), "%s", strcmp(v, "1") ? "off" : "on");
		fprintf(f, " %-8s", v);
	}
	return 0;
}

static int show_text(FILE *f, const char *dev, const struct knob_schema *s)
{
	char v[KNOB_VALUE_MAX], avail[KNOB_VALUE_MAX];
	uint64_t sent = 0, marked = 0;
	int changed = 0, experimental = 0;

	if (read_knob(dev, "algorithm", v) || read_knob(dev, "available", avail))
		return -1;
	fprintf(f, "%s\n  algorithm %s (available: %s)\n", dev, v, avail);
	fputs("  priority  ", f);
	for (int p = 0; p < KNOB_PRIOS; p++)
		fprintf(f, " %-8d", p);
	if (prio_row(f, dev, "algorithm", "_algorithm") ||
	    prio_row(f, dev, "np", "_np"))
		return -1;
	counter_read(dev, "np_cnp_sent", &sent);
	counter_read(dev, "np_ecn_marked_roce_packets", &marked);
	fprintf(f, "\n  notification point: %" PRIu64 " CE-marked packets, %"
		PRIu64 " CNPs sent\n", marked, sent);
	for (size_t g = 0; g < s->n; g++) {
		if (!first_of_group(s, g))
			continue;
		fprintf(f, "\n  %-30s %12s %12s  %s\n", s->k[g].group, "value",
			"default", "unit");
		for (size_t i = g; i < s->n; i++) {
			const struct knob *k = &s->k[i];
			int differs;

			if (strcmp(k->group, s->k[g].group))
				continue;
			if (read_row(dev, k, v))
				return -1;
			differs = strcmp(v, k->def) != 0;
			changed |= differs;
			experimental |= k->experimental;
			fprintf(f, "  %-30s %12s %12s  %s%s%s\n", k->name, v,
				k->def, k->unit, differs ? "  *" : "",
				k->experimental ? "  experimental" : "");
		}
	}
	if (changed || experimental)
		fputc('\n', f);
	if (changed)
		fputs("  * differs from the default\n", f);
	if (experimental)
		fputs("  experimental: in cc_experimental/, name and meaning may change\n",
		      f);
	return 0;
}

int show_dev(FILE *f, const char *dev, struct jw *w)
{
	struct knob_schema s;
	char err[256];

	if (!cc_dev_exists(dev)) {
		fprintf(stderr, "rxe-cc: %s: no such rxe-acc device\n", dev);
		return -1;
	}
	if (knob_schema_load(&s, dev, err, sizeof(err))) {
		fprintf(stderr, "rxe-cc: %s\n", err);
		return -1;
	}
	return w ? show_json(w, dev, &s) : show_text(f, dev, &s);
}

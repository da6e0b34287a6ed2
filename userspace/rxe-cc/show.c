// SPDX-License-Identifier: GPL-2.0
/*
 * show.c - every knob with its value, unit and default; the algorithm
 * choice per priority; the notification point's switches and counters.
 */
#include "show.h"

#include <inttypes.h>
#include <string.h>

#include "knobs.h"
#include "out.h"
#include "sysfs.h"

static const char *const group_names[] = {
	[GROUP_CHOICE] = "choice", [GROUP_DEVICE] = "device",
	[GROUP_DCQCN] = "dcqcn", [GROUP_ACC] = "acc",
};

/* one value of the knob table as JSON: a number where the kind is one */
static void json_value(FILE *f, const struct knob *k, const char *v)
{
	if (k->kind == KNOB_UINT || k->kind == KNOB_BOOL || k->kind == KNOB_DSCP)
		fputs(*v ? v : "null", f);
	else
		json_string(f, v);
}

static void json_words(FILE *f, const char *list)
{
	const char *p = list;
	int first = 1;

	fputc('[', f);
	while (*(p += strspn(p, " "))) {
		int len = (int)strcspn(p, " ");

		fprintf(f, "%s\"%.*s\"", first ? "" : ",", len, p);
		first = 0;
		p += len;
	}
	fputc(']', f);
}

static int read_knob(const char *dev, const char *name, char *v)
{
	int e = knob_read(dev, name, v, KNOB_VALUE_MAX);

	if (e)
		fprintf(stderr, "rxe-cc: %s: cannot read cc/%s: %s\n", dev,
			name, strerror(-e));
	return e;
}

static int show_json(FILE *f, const char *dev)
{
	char v[KNOB_VALUE_MAX], name[32];
	uint64_t sent = 0, marked = 0;

	fputs("{\"device\":", f);
	json_string(f, dev);
	if (read_knob(dev, "algorithm", v))
		return -1;
	fputs(",\"algorithm\":", f);
	json_string(f, v);
	if (read_knob(dev, "available", v))
		return -1;
	fputs(",\"available\":", f);
	json_words(f, v);
	fputs(",\"priorities\":[", f);
	for (int p = 0; p < KNOB_PRIOS; p++) {
		char np[KNOB_VALUE_MAX];

		snprintf(name, sizeof(name), "prio%d_algorithm", p);
		if (read_knob(dev, name, v))
			return -1;
		snprintf(name, sizeof(name), "prio%d_np", p);
		if (read_knob(dev, name, np))
			return -1;
		fprintf(f, "%s{\"prio\":%d,\"algorithm\":", p ? "," : "", p);
		json_string(f, v);
		fprintf(f, ",\"np\":%s}", strcmp(np, "1") ? "false" : "true");
	}
	counter_read(dev, "np_cnp_sent", &sent);
	counter_read(dev, "np_ecn_marked_roce_packets", &marked);
	fprintf(f, "],\"np\":{\"cnp_sent\":%" PRIu64
		",\"ecn_marked_roce_packets\":%" PRIu64 "},\"knobs\":[", sent,
		marked);
	for (size_t i = 0, n = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];

		if (k->group == GROUP_CHOICE)
			continue;
		if (read_knob(dev, k->name, v))
			return -1;
		fprintf(f, "%s{\"name\":\"%s\",\"group\":\"%s\",\"value\":",
			n++ ? "," : "", k->name, group_names[k->group]);
		json_value(f, k, v);
		fputs(",\"default\":", f);
		json_value(f, k, k->def);
		fprintf(f, ",\"unit\":\"%s\",\"changed\":%s}", k->unit,
			strcmp(v, k->def) ? "true" : "false");
	}
	fputs("]}", f);
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

static int show_text(FILE *f, const char *dev)
{
	char v[KNOB_VALUE_MAX], avail[KNOB_VALUE_MAX];
	uint64_t sent = 0, marked = 0;
	int group = -1, changed = 0;

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
	for (size_t i = 0; i < knob_count; i++) {
		const struct knob *k = &knob_table[i];
		int differs;

		if (k->group == GROUP_CHOICE)
			continue;
		if (read_knob(dev, k->name, v))
			return -1;
		if ((int)k->group != group) {
			group = k->group;
			fprintf(f, "\n  %-30s %12s %12s  %s\n", group_names[group],
				"value", "default", "unit");
		}
		differs = strcmp(v, k->def) != 0;
		changed |= differs;
		fprintf(f, "  %-30s %12s %12s  %s%s\n", k->name, v, k->def,
			k->unit, differs ? "  *" : "");
	}
	if (changed)
		fputs("\n  * differs from the default\n", f);
	return 0;
}

int show_dev(FILE *f, const char *dev, int json)
{
	if (!cc_dev_exists(dev)) {
		fprintf(stderr, "rxe-cc: %s: no such rxe-acc device\n", dev);
		return -1;
	}
	return json ? show_json(f, dev) : show_text(f, dev);
}

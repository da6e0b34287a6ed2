// SPDX-License-Identifier: GPL-2.0
/*
 * rxe-cc - the operator's tool for rxe-acc's congestion control.
 *
 *   rxe-cc [-j] [-p] show [DEV[/PORT]]
 *   rxe-cc [-j] [-p] set DEV[/PORT] knob=value ...
 *   rxe-cc [-j] [-p] qp [DEV[/PORT]] [lqpn LIST] [pid LIST] [state LIST]
 *   rxe-cc [-j] [-p] monitor [DEV[/PORT]] [FILTERS] [-n N]
 *   rxe-cc help [VERB|knobs [DEV]], rxe-cc VERB -h, rxe-cc -V
 *
 * Exit status: 0 success, 1 failure (one line on stderr, nothing on
 * stdout), 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "knobs.h"
#include "monitor.h"
#include "nl.h"
#include "qpcmd.h"
#include "set.h"
#include "show.h"
#include "sysfs.h"
#include "version.h"

#define MAX_DEVS	64

static const char *const help_text[] = {
	[VERB_SHOW] =
	"usage: rxe-cc [-j] [-p] show [DEV[/PORT]]\n"
	"The default algorithm and those available; per priority the algorithm\n"
	"and whether the notification point answers; its counters; every knob\n"
	"with value, default and unit as the device's cc/knobs lists them, '*'\n"
	"where it differs from the default, 'experimental' where its file is in\n"
	"cc_experimental/.  Without DEV, every rxe-acc device.\n",
	[VERB_SET] =
	"usage: rxe-cc [-j] [-p] set DEV[/PORT] knob=value ...\n"
	"Sets knobs, all or none: each assignment is checked first, then they\n"
	"are written in an order the kernel accepts; if it refuses one, the\n"
	"knobs written before get their old values back.  Prints each knob\n"
	"with its old and new value.  The knobs and their ranges are those the\n"
	"device's cc/knobs lists.  mlx5's DCQCN names (rp_ai_rate,\n"
	"np_min_time_between_cnps, ...) are accepted, its rates in Mb/s for our\n"
	"kb/s knobs: rxe-cc help knobs.\n",
	[VERB_QP] =
	"usage: rxe-cc [-j] [-p] qp [DEV[/PORT]] [lqpn LIST] [pid LIST] [state LIST]\n"
	"One line per RC QP: number, remote number, state, algorithm, CC state,\n"
	"rate, line rate, bytes in flight, ACC halts, marks seen.\n"
	"LIST: numbers and ranges for lqpn and pid (3,10-20), state names for\n"
	"state (RTS,ERR), as rdma res show qp takes them.\n",
	[VERB_MONITOR] =
	"usage: rxe-cc [-j] [-p] monitor [DEV[/PORT]] [lqpn LIST] [pid LIST] [state LIST] [-n N]\n"
	"The qp view once a second, with each QP's halts and, per device, the CE\n"
	"and UE ACKs and CNPs sent and handled, per second over the time measured\n"
	"since the previous refresh.  Ends on Ctrl-C, when a device goes away,\n"
	"or after N refreshes (-n, --count).\n",
};

static void usage(FILE *f)
{
	fputs("usage: rxe-cc [OPTIONS] show [DEV[/PORT]]\n"
	      "       rxe-cc [OPTIONS] set DEV[/PORT] knob=value ...\n"
	      "       rxe-cc [OPTIONS] qp [DEV[/PORT]] [lqpn LIST] [pid LIST] [state LIST]\n"
	      "       rxe-cc [OPTIONS] monitor [DEV[/PORT]] [FILTERS] [-n N]\n"
	      "       rxe-cc help [show|set|qp|monitor|knobs [DEV]]\n"
	      "       rxe-cc -V\n"
	      "OPTIONS: -j, --json  JSON     -p, --pretty  indented JSON\n"
	      "         -n, --count N (monitor)  -h, --help  -V, --version\n"
	      "DEV is an rxe device with congestion control (rxe-acc), written as\n"
	      "rdma does (rxe0, rxe0/1); without one, every such device.\n"
	      "Exit status: 0 ok, 1 failure, 2 usage.  See rxe-cc(8).\n", f);
}

static void range(char *buf, size_t len, const struct knob *k)
{
	switch (k->kind) {
	case KNOB_UINT:
		snprintf(buf, len, "%llu..%llu", (unsigned long long)k->min,
			 (unsigned long long)k->max);
		break;
	case KNOB_BOOL:
		snprintf(buf, len, "0|1");
		break;
	case KNOB_DSCP:
		snprintf(buf, len, "-1|0..63");
		break;
	case KNOB_RO:
		snprintf(buf, len, "read-only");
		break;
	default:
		snprintf(buf, len, "%s", k->kind == KNOB_PRIO_ALGO ?
			 "default|algorithm" : "algorithm");
	}
}

/* the mlx5 names of K, and the unit they take where it is not K's */
static void help_aliases(FILE *f, const struct knob *k)
{
	const struct knob_alias *a = knob_alias_next(k, NULL);
	const char *unit = a ? knob_alias_unit(a, k) : k->unit;

	for (; a; a = knob_alias_next(k, a))
		fprintf(f, " %s", a->name);
	if (strcmp(unit, k->unit))
		fprintf(f, " (%s)", unit);
}

static void help_knobs(FILE *f, const char *dev, const struct knob_schema *s)
{
	char r[48];

	fprintf(f, "%-30s %-6s %-18s %-8s %s\n", "knob", "unit", "range",
		"default", "mlx5 names");
	for (size_t i = 0; i < s->n; i++) {
		const struct knob *k = &s->k[i];

		range(r, sizeof(r), k);
		fprintf(f, "%-30s %-6s %-18s %-8s", k->name,
			*k->unit ? k->unit : "-", r, *k->def ? k->def : "-");
		help_aliases(f, k);
		fprintf(f, "\n    %s%s\n", k->experimental ? "(experimental) " : "",
			*k->means ? k->means :
			"(no description in this rxe-cc: see the module's ABI document)");
	}
	fputs("\nmlx5 names refused here:\n", f);
	for (size_t i = 0; i < knob_alias_count; i++) {
		const struct knob_alias *a = &knob_aliases[i];

		if (!a->target)
			fprintf(f, "  %s: %s\n", a->name, a->why);
		else if (a->zero_differs)
			fprintf(f, "  %s=0: %s\n", a->name, a->why);
	}
	fprintf(f, "\nUnits, ranges and defaults: %s's cc/knobs.  (experimental): the file is\n"
		"in cc_experimental/; its name and meaning may change.\n", dev);
}

/* the devices a verb works on: DEV, or every rxe-acc device */
static int devices(const char *dev, char (*names)[DEV_NAME_MAX])
{
	int n;

	if (dev) {
		if (!cc_dev_exists(dev)) {
			fprintf(stderr, "rxe-cc: %s: no such rxe-acc device\n",
				dev);
			return -1;
		}
		snprintf(names[0], DEV_NAME_MAX, "%s", dev);
		return 1;
	}
	n = cc_devices(names, MAX_DEVS);
	if (!n) {
		fputs("rxe-cc: no rxe-acc device (rdma link add NAME type rxe netdev IF)\n",
		      stderr);
		return -1;
	}
	return n;
}

static int help(const struct cli *cli)
{
	static char names[MAX_DEVS][DEV_NAME_MAX];
	struct knob_schema s;
	char err[256];
	enum verb v;

	if (!cli->topic) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(cli->topic, "knobs")) {
		for (v = VERB_SHOW; v <= VERB_MONITOR; v++)
			if (!strcmp(cli->topic, verb_name(v)))
				fputs(help_text[v], stdout);
		return EXIT_OK;
	}
	/* the knobs are the module's: DEV's, or the first device's */
	if (devices(cli->dev, names) < 0)
		return EXIT_FAIL;
	if (knob_schema_load(&s, names[0], err, sizeof(err))) {
		fprintf(stderr, "rxe-cc: %s\n", err);
		return EXIT_FAIL;
	}
	help_knobs(stdout, names[0], &s);
	return EXIT_OK;
}

static int set(FILE *out, const struct cli *cli)
{
	struct set_change c[SET_MAX];
	char err[256];
	struct jw w;

	if (cc_set(cli->dev, cli->n_assign, cli->assign, c, err, sizeof(err))) {
		fprintf(stderr, "rxe-cc: %s\n", err);
		return EXIT_FAIL;
	}
	if (!cli->json) {
		for (int i = 0; i < cli->n_assign; i++) {
			fprintf(out, "%s/%u %s", cli->dev, cli->port, c[i].k.name);
			if (c[i].alias && c[i].alias->scale > 1)
				fprintf(out, " (as %s=%s %s)", c[i].given,
					c[i].given_value,
					knob_alias_unit(c[i].alias, &c[i].k));
			else if (c[i].alias)
				fprintf(out, " (as %s)", c[i].given);
			if (strcmp(c[i].old, c[i].now))
				fprintf(out, " %s -> %s\n", c[i].old, c[i].now);
			else
				fprintf(out, " %s (unchanged)\n", c[i].now);
		}
		return EXIT_OK;
	}
	jw_init(&w, out, cli->pretty);
	jw_arr_open(&w, NULL);
	jw_obj_open(&w, NULL);
	jw_u64(&w, "schema", JSON_SCHEMA);
	json_dev_keys(&w, cli->dev);
	jw_arr_open(&w, "changes");
	for (int i = 0; i < cli->n_assign; i++) {
		const struct knob *k = &c[i].k;

		jw_obj_open(&w, NULL);
		jw_str(&w, "knob", k->name);
		if (c[i].alias) {
			jw_str(&w, "given_as", c[i].given);
			if (c[i].alias->scale > 1) {
				knob_json(&w, "given_value", k, c[i].given_value);
				jw_str(&w, "given_unit",
				       knob_alias_unit(c[i].alias, k));
			}
		}
		knob_json(&w, "old", k, c[i].old);
		knob_json(&w, "written", k, c[i].written);
		knob_json(&w, "new", k, c[i].now);
		jw_str(&w, "unit", k->unit);
		jw_bool(&w, "changed", strcmp(c[i].old, c[i].now) != 0);
		jw_bool(&w, "experimental", k->experimental);
		jw_obj_close(&w);
	}
	jw_arr_close(&w);
	jw_obj_close(&w);
	jw_arr_close(&w);
	jw_end(&w);
	return EXIT_OK;
}

static int show(FILE *out, const struct cli *cli, char (*names)[DEV_NAME_MAX],
		int n)
{
	struct jw w;

	jw_init(&w, out, cli->pretty);
	if (cli->json)
		jw_arr_open(&w, NULL);
	for (int i = 0; i < n; i++) {
		if (i && !cli->json)
			fputc('\n', out);
		if (show_dev(out, names[i], cli->json ? &w : NULL))
			return EXIT_FAIL;
	}
	if (cli->json) {
		jw_arr_close(&w);
		jw_end(&w);
	}
	return EXIT_OK;
}

static int qp(FILE *out, const struct cli *cli, char (*names)[DEV_NAME_MAX],
	      int n)
{
	struct qp_list l = { 0 };
	struct jw w;
	int ret = EXIT_OK;

	jw_init(&w, out, cli->pretty);
	if (cli->json)
		jw_arr_open(&w, NULL);
	else
		qp_text_header(out);
	for (int d = 0; d < n && ret == EXIT_OK; d++) {
		int e = qp_collect(names[d], &cli->filter, &l);

		if (e) {
			fprintf(stderr, "rxe-cc: %s: %s\n", names[d],
				nl_strerror(e));
			ret = EXIT_FAIL;
		}
		for (int i = 0; i < l.n; i++) {
			if (cli->json)
				qp_json(&w, names[d], &l.qp[i], 1);
			else
				qp_text(out, names[d], &l.qp[i]);
		}
	}
	qp_list_free(&l);
	if (cli->json) {
		jw_arr_close(&w);
		jw_end(&w);
	}
	return ret;
}

static int run(const struct cli *cli)
{
	static char names[MAX_DEVS][DEV_NAME_MAX];
	struct version_info vi;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int n, ret;

	switch (cli->verb) {
	case VERB_HELP:
		return help(cli);
	case VERB_VERSION:
		version_get(&vi);
		version_print(stdout, &vi, cli->json, cli->pretty);
		return EXIT_OK;
	case VERB_SET:
		n = 0;
		break;
	default:
		n = devices(cli->dev, names);
		if (n < 0)
			return EXIT_FAIL;
	}
	if (cli->verb == VERB_MONITOR)
		return monitor_run(stdout, names, n, &cli->filter, cli->json,
				   cli->pretty, cli->count) ? EXIT_FAIL : EXIT_OK;

	/* a failure leaves nothing on stdout that could pass for a result */
	out = open_memstream(&buf, &len);
	if (!out) {
		perror("rxe-cc");
		return EXIT_FAIL;
	}
	if (cli->verb == VERB_SET)
		ret = set(out, cli);
	else if (cli->verb == VERB_SHOW)
		ret = show(out, cli, names, n);
	else
		ret = qp(out, cli, names, n);
	if (fclose(out)) {
		perror("rxe-cc");
		ret = EXIT_FAIL;
	}
	if (ret == EXIT_OK)
		fwrite(buf, 1, len, stdout);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	struct cli cli;
	char err[256];
	int ret;

	if (cli_parse(argc, argv, &cli, err, sizeof(err))) {
		fprintf(stderr, "rxe-cc: %s\n", err);
		usage(stderr);
		return EXIT_USAGE;
	}
	ret = run(&cli);
	cli_free(&cli);
	if (fflush(stdout)) {
		perror("rxe-cc: stdout");
		return EXIT_FAIL;
	}
	return ret;
}

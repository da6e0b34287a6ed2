// SPDX-License-Identifier: GPL-2.0
/*
 * rxe-cc - the operator's tool for rxe-acc's congestion control.
 *
 *   rxe-cc [--json] show [DEV]
 *   rxe-cc set DEV knob=value ...
 *   rxe-cc [--json] qp [DEV]
 *   rxe-cc [--json] monitor [DEV] [--count N]
 *
 * Exit status: 0 success, 1 failure (one line on stderr), 2 usage.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "monitor.h"
#include "qpcmd.h"
#include "set.h"
#include "show.h"
#include "sysfs.h"

#define MAX_DEVS	64

static void usage(FILE *f)
{
	fputs("usage: rxe-cc [--json] show [DEV]\n"
	      "       rxe-cc set DEV knob=value ...\n"
	      "       rxe-cc [--json] qp [DEV]\n"
	      "       rxe-cc [--json] monitor [DEV] [--count N]\n"
	      "DEV is an rxe device with congestion control (rxe-acc); without\n"
	      "one, every such device.  See rxe-cc(8).\n", f);
}

/* the devices a verb works on: DEV, or every rxe-acc device */
static int devices(const char *dev, char (*names)[DEV_NAME_MAX])
{
	if (!dev)
		return cc_devices(names, MAX_DEVS);
	if (!cc_dev_exists(dev)) {
		fprintf(stderr, "rxe-cc: %s: no such rxe-acc device\n", dev);
		return -1;
	}
	snprintf(names[0], DEV_NAME_MAX, "%s", dev);
	return 1;
}

static int run(const struct cli *cli)
{
	static char names[MAX_DEVS][DEV_NAME_MAX];
	char err[256];
	int n, bad = 0, shown = 0;

	if (cli->verb == VERB_HELP) {
		usage(stdout);
		return 0;
	}
	if (cli->verb == VERB_SET) {
		if (cc_set(cli->dev, cli->n_assign, cli->assign, err,
			   sizeof(err))) {
			fprintf(stderr, "rxe-cc: %s\n", err);
			return 1;
		}
		return 0;
	}
	n = devices(cli->dev, names);
	if (n < 0)
		return 1;
	if (!n && (cli->verb == VERB_MONITOR || !cli->json)) {
		/* JSON readers get an empty array; people get a reason */
		fputs("rxe-cc: no rxe-acc device (rdma link add NAME type rxe netdev IF)\n",
		      stderr);
		if (cli->verb == VERB_MONITOR)
			return 1;
	}
	switch (cli->verb) {
	case VERB_SHOW:
		if (cli->json)
			fputs("[", stdout);
		for (int i = 0; i < n; i++) {
			if (i)
				fputs(cli->json ? "," : "\n", stdout);
			bad |= show_dev(stdout, names[i], cli->json);
		}
		if (cli->json)
			fputs("]\n", stdout);
		break;
	case VERB_QP:
		if (cli->json)
			fputs("[", stdout);
		else
			qp_text_header(stdout);
		for (int i = 0; i < n; i++)
			bad |= qp_show(stdout, names[i], cli->json, &shown);
		if (cli->json)
			fputs("]\n", stdout);
		break;
	case VERB_MONITOR:
		bad = monitor_run(stdout, names, n, cli->json, cli->count);
		break;
	default:
		break;
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct cli cli;
	char err[256];
	int ret;

	if (cli_parse(argc, argv, &cli, err, sizeof(err))) {
		fprintf(stderr, "rxe-cc: %s\n", err);
		usage(stderr);
		return 2;
	}
	ret = run(&cli);
	cli_free(&cli);
	if (fflush(stdout)) {
		perror("rxe-cc: stdout");
		return 1;
	}
	return ret;
}

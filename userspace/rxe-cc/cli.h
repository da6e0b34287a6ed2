/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - the command line of rxe-cc. */
#ifndef RXE_CC_CLI_H
#define RXE_CC_CLI_H

#include <stddef.h>

#include "qp.h"
#include "sysfs.h"

enum verb { VERB_SHOW, VERB_SET, VERB_QP, VERB_MONITOR, VERB_HELP,
	    VERB_VERSION };

/* exit statuses, as rxe-cc(8) lists them */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct cli {
	enum verb verb;
	const char *topic;	/* help: a verb, "knobs", or NULL (all) */
	int json, pretty;
	const char *dev;	/* NULL: every rxe-acc device (not for set);
				 * help knobs: the device to read them from */
	unsigned int port;	/* 1: rxe devices have one port */
	long count;		/* monitor: refreshes, 0 for ever */
	struct qp_filter filter;	/* qp, monitor */
	int n_assign;
	char **assign;		/* set: knob=value, in argv */
	char **args;		/* owned: a copy of argv getopt may reorder */
	char dev_buf[DEV_NAME_MAX];
};

/*
 * cli_parse - ARGV[1..ARGC-1] into CLI, with getopt_long: options (-j,
 * -p, -n N, -h, -V and their long forms; bundled as -jp; --count=N; "--"
 * ends them) may stand anywhere.  The verb may be a unique prefix (sh,
 * mon).  DEV may be written DEV, DEV/PORT, "dev DEV" or "link DEV/PORT"
 * as rdma does; qp and monitor take filters (lqpn, pid, state).
 * Returns 0, or -1 with a one-line message in ERR.  Reorders nothing in
 * ARGV.  cli_free() releases what it allocated.
 */
int cli_parse(int argc, char **argv, struct cli *cli, char *err,
	      size_t err_len);
void cli_free(struct cli *cli);

/* verb_name - "show", "set", ... */
const char *verb_name(enum verb v);

/*
 * cli_dev_port - "rxe0" or "rxe0/1" into NAME (DEV_NAME_MAX) and PORT:
 * 0, or -1 with a reason in ERR.  rxe devices have port 1 only.
 */
int cli_dev_port(const char *arg, char *name, unsigned int *port, char *err,
		 size_t err_len);

#endif

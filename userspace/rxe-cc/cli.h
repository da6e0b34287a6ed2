/* SPDX-License-Identifier: GPL-2.0 */
/* cli.h - the command line of rxe-cc. */
#ifndef RXE_CC_CLI_H
#define RXE_CC_CLI_H

#include <stddef.h>

enum verb { VERB_SHOW, VERB_SET, VERB_QP, VERB_MONITOR, VERB_HELP };

struct cli {
	enum verb verb;
	int json;
	const char *dev;	/* NULL: every rxe-acc device (not for set) */
	long count;		/* monitor: refreshes, 0 for ever */
	int n_assign;
	char **assign;		/* set: knob=value, in argv */
	char **pos;		/* the positional arguments (owned) */
};

/*
 * cli_parse - ARGV[1..ARGC-1] into CLI.  Options (--json/-j, and for
 * monitor --count/-n N) may stand anywhere.  Returns 0, or -1 with a
 * one-line message in ERR.  Reorders nothing in ARGV.  cli_free()
 * releases what it allocated.
 */
int cli_parse(int argc, char **argv, struct cli *cli, char *err,
	      size_t err_len);
void cli_free(struct cli *cli);

#endif

// SPDX-License-Identifier: GPL-2.0
/* cli.c - parsing the command line; the verbs check their own arguments. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum verb verb;
} verbs[] = {
	{ "show", VERB_SHOW }, { "set", VERB_SET }, { "qp", VERB_QP },
	{ "monitor", VERB_MONITOR }, { "help", VERB_HELP },
};

static int parse_count(const char *s, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || end == s || *end || *out < 0 ? -1 : 0;
}

int cli_parse(int argc, char **argv, struct cli *cli, char *err,
	      size_t err_len)
{
	int have_verb = 0, n_pos = 0;
	char **pos = calloc(argc > 0 ? argc : 1, sizeof(*pos));

	memset(cli, 0, sizeof(*cli));
	if (!pos) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--json") || !strcmp(a, "-j")) {
			cli->json = 1;
		} else if (!strcmp(a, "--count") || !strcmp(a, "-n")) {
			if (i + 1 >= argc || parse_count(argv[i + 1], &cli->count)) {
				snprintf(err, err_len, "%s needs a count >= 0", a);
				goto bad;
			}
			i++;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			cli->verb = VERB_HELP;
			free(pos);
			return 0;
		} else if (a[0] == '-' && a[1]) {
			snprintf(err, err_len, "unknown option '%.40s'", a);
			goto bad;
		} else {
			pos[n_pos++] = argv[i];
		}
	}
	if (!n_pos) {
		cli->verb = VERB_SHOW;
		free(pos);
		return 0;
	}
	for (size_t v = 0; v < sizeof(verbs) / sizeof(verbs[0]); v++)
		if (!strcmp(pos[0], verbs[v].name)) {
			cli->verb = verbs[v].verb;
			have_verb = 1;
		}
	if (!have_verb) {
		snprintf(err, err_len, "unknown verb '%.40s' (show, set, qp, monitor)",
			 pos[0]);
		goto bad;
	}
	if (cli->count && cli->verb != VERB_MONITOR) {
		snprintf(err, err_len, "--count is for monitor");
		goto bad;
	}
	switch (cli->verb) {
	case VERB_SET:
		if (n_pos < 3) {
			snprintf(err, err_len, "usage: rxe-cc set DEV knob=value ...");
			goto bad;
		}
		cli->dev = pos[1];
		cli->n_assign = n_pos - 2;
		/* the assignments are the positional arguments after DEV */
		cli->assign = pos + 2;
		cli->pos = pos;
		return 0;
	case VERB_HELP:
		break;
	default:
		if (n_pos > 2) {
			snprintf(err, err_len, "%s takes at most one device", pos[0]);
			goto bad;
		}
		cli->dev = n_pos == 2 ? pos[1] : NULL;
	}
	free(pos);
	return 0;
bad:
	free(pos);
	return -1;
}

void cli_free(struct cli *cli)
{
	free(cli->pos);
	cli->pos = NULL;
	cli->assign = NULL;
}

// SPDX-License-Identifier: GPL-2.0
/* cli.c - parsing the command line; the verbs check their own arguments. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
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
#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

static const struct option longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ "count", required_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

const char *verb_name(enum verb v)
{
	for (size_t i = 0; i < N_VERBS; i++)
		if (verbs[i].verb == v)
			return verbs[i].name;
	return v == VERB_VERSION ? "version" : "?";
}

/* WORD as a verb: exact, or a prefix of one verb only */
static int find_verb(const char *word, enum verb *v)
{
	size_t len = strlen(word);
	int found = 0;

	for (size_t i = 0; i < N_VERBS; i++) {
		if (!strcmp(word, verbs[i].name)) {
			*v = verbs[i].verb;
			return 0;
		}
		if (len && !strncmp(word, verbs[i].name, len)) {
			*v = verbs[i].verb;
			found++;
		}
	}
	return found == 1 ? 0 : -1;
}

static int parse_count(const char *s, long *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtol(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int cli_dev_port(const char *arg, char *name, unsigned int *port, char *err,
		 size_t err_len)
{
	const char *slash = strchr(arg, '/');
	size_t len = slash ? (size_t)(slash - arg) : strlen(arg);

	if (!len || len >= DEV_NAME_MAX) {
		snprintf(err, err_len, "'%.40s' is not a device name", arg);
		return -1;
	}
	memcpy(name, arg, len);
	name[len] = 0;
	*port = 1;
	if (slash && strcmp(slash + 1, "1")) {
		snprintf(err, err_len,
			 "%.40s: rxe devices have one port, 1 (write %s or %s/1)",
			 arg, name, name);
		return -1;
	}
	return 0;
}

/* the positional arguments after the verb */
static int verb_args(struct cli *cli, char **pos, int n_pos, char *err,
		     size_t err_len)
{
	const char *v = verb_name(cli->verb);
	int filters = cli->verb == VERB_QP || cli->verb == VERB_MONITOR;

	for (int i = 0; i < n_pos; i++) {
		const char *w = pos[i];

		if (cli->verb == VERB_SET && cli->dev) {
			/* the assignments are the positional arguments after DEV */
			cli->assign = pos + i;
			cli->n_assign = n_pos - i;
			return 0;
		}
		if (filters && qp_filter_is_key(w)) {
			if (i + 1 == n_pos) {
				snprintf(err, err_len, "%s needs a value", w);
				return -1;
			}
			if (qp_filter_add(&cli->filter, w, pos[++i], err, err_len))
				return -1;
			continue;
		}
		if (!strcmp(w, "dev") || !strcmp(w, "link")) {
			if (i + 1 == n_pos) {
				snprintf(err, err_len, "%s needs a device", w);
				return -1;
			}
			w = pos[++i];
		}
		if (cli->dev) {
			snprintf(err, err_len, "%s takes at most one device%s", v,
				 filters ? " (filters: lqpn, pid, state)" : "");
			return -1;
		}
		if (cli_dev_port(w, cli->dev_buf, &cli->port, err, err_len))
			return -1;
		cli->dev = cli->dev_buf;
	}
	if (cli->verb == VERB_SET && !cli->n_assign) {
		snprintf(err, err_len, "usage: rxe-cc set DEV knob=value ...");
		return -1;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *cli, char *err,
	      size_t err_len)
{
	int help = 0, version = 0, have_count = 0, n_pos, c;
	char **args = calloc(argc + 1, sizeof(*args));

	memset(cli, 0, sizeof(*cli));
	cli->port = 1;
	if (!args) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	memcpy(args, argv, argc * sizeof(*args));
	cli->args = args;
	optind = 0;	/* a fresh scan, also on a second call */
	opterr = 0;
	while ((c = getopt_long(argc, args, ":jpn:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			cli->json = 1;
			break;
		case 'p':	/* pretty JSON; implies JSON */
			cli->json = cli->pretty = 1;
			break;
		case 'n':
			if (parse_count(optarg, &cli->count)) {
				snprintf(err, err_len, "--count needs a count >= 0, not '%.40s'",
					 optarg);
				goto bad;
			}
			have_count = 1;
			break;
		case 'h':
			help = 1;
			break;
		case 'V':
			version = 1;
			break;
		case ':':
			snprintf(err, err_len, "%s needs a count >= 0",
				 args[optind - 1]);
			goto bad;
		default:
			if (optopt)
				snprintf(err, err_len, "unknown option '-%c'", optopt);
			else
				snprintf(err, err_len, "unknown option '%.40s'",
					 args[optind - 1]);
			goto bad;
		}
	}
	n_pos = argc - optind;
	if (version) {
		cli->verb = VERB_VERSION;
		return 0;
	}
	if (!n_pos) {
		cli->verb = help ? VERB_HELP : VERB_SHOW;
		return 0;
	}
	if (find_verb(args[optind], &cli->verb)) {
		snprintf(err, err_len, "unknown verb '%.40s' (show, set, qp, monitor, help)",
			 args[optind]);
		goto bad;
	}
	if (cli->verb == VERB_HELP || help) {
		/* "help VERB", "VERB -h", "VERB --help" */
		const char *t = cli->verb == VERB_HELP ?
			(n_pos > 1 ? args[optind + 1] : NULL) : verb_name(cli->verb);
		enum verb tv;

		if (t && strcmp(t, "knobs")) {
			if (find_verb(t, &tv)) {
				snprintf(err, err_len, "no help on '%.40s' (show, set, qp, monitor, knobs)",
					 t);
				goto bad;
			}
			t = verb_name(tv);
		}
		/* "help knobs DEV": the knobs of DEV's module */
		if (t && !strcmp(t, "knobs") && cli->verb == VERB_HELP &&
		    n_pos > 2) {
			if (n_pos > 3) {
				snprintf(err, err_len, "help knobs takes at most one device");
				goto bad;
			}
			if (cli_dev_port(args[optind + 2], cli->dev_buf, &cli->port,
					 err, err_len))
				goto bad;
			cli->dev = cli->dev_buf;
		}
		cli->verb = VERB_HELP;
		cli->topic = t;
		return 0;
	}
	if (have_count && cli->verb != VERB_MONITOR) {
		snprintf(err, err_len, "--count is for monitor");
		goto bad;
	}
	if (verb_args(cli, args + optind + 1, n_pos - 1, err, err_len))
		goto bad;
	return 0;
bad:
	cli_free(cli);
	return -1;
}

void cli_free(struct cli *cli)
{
	free(cli->args);
	cli->args = NULL;
	cli->assign = NULL;
}

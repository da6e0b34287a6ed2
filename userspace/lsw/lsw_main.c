// SPDX-License-Identifier: GPL-2.0
/* lsw_main.c - command line of the lab-switch emulator; see README.md. */
#include "lsw_config.h"
#include "lsw_core.h"
#include "lsw_io.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_SAMPLE_NS 1000000ULL /* 1 ms */
#define ERR_BYTES 512

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lsw [options] CONFIG\n"
		"  -r, --rate RATE        every port's line rate (e.g. 40M, 1G)\n"
		"  -d, --delay TIME       every port's one-way delay (e.g. 10us)\n"
		"  -m, --marking MODE     off | red | tcd, on every switch\n"
		"  -c, --counters FILE    counters JSON on exit and SIGUSR1 (default stdout)\n"
		"  -t, --timeseries FILE  queue time series CSV\n"
		"  -i, --interval TIME    time series sampling interval (default 1ms)\n"
		"      --duration-ms N    exit by itself after N ms\n"
		"  -n, --check            validate the config and exit\n"
		"  -h, --help\n");
}

static int bad(const char *what, const char *v)
{
	fprintf(stderr, "lsw: bad %s '%s'\n", what, v);
	return 2;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "rate", required_argument, NULL, 'r' },
		{ "delay", required_argument, NULL, 'd' },
		{ "marking", required_argument, NULL, 'm' },
		{ "counters", required_argument, NULL, 'c' },
		{ "timeseries", required_argument, NULL, 't' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration-ms", required_argument, NULL, 'D' },
		{ "check", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lsw_overrides ov = { .rate_bps = 0, .delay_ns = -1, .marking = -1 };
	struct lsw_io_opts io = { .sample_ns = DEFAULT_SAMPLE_NS };
	static struct lsw_config cfg;
	char err[ERR_BYTES];
	bool check_only = false;
	struct lsw_core *core;
	uint64_t u;
	enum lsw_marking m;
	int c, rc;

	while ((c = getopt_long(argc, argv, "r:d:m:c:t:i:nh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (lsw_parse_rate(optarg, &ov.rate_bps))
				return bad("rate", optarg);
			break;
		case 'd':
			if (lsw_parse_time(optarg, &u))
				return bad("delay", optarg);
			ov.delay_ns = (int64_t)u;
			break;
		case 'm':
			if (lsw_parse_marking(optarg, &m))
				return bad("marking (off, red, tcd)", optarg);
			ov.marking = (int)m;
			break;
		case 'c':
			io.counters_path = optarg;
			break;
		case 't':
			io.csv_path = optarg;
			break;
		case 'i':
			if (lsw_parse_time(optarg, &io.sample_ns) || !io.sample_ns)
				return bad("interval", optarg);
			break;
		case 'D': {
			char *end;

			u = strtoull(optarg, &end, 10);
			if (*end || !u || u > UINT32_MAX)
				return bad("duration (ms)", optarg);
			io.duration_ns = u * 1000000ULL;
			break;
		}
		case 'n':
			check_only = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	if (lsw_config_load(argv[optind], &cfg, err, sizeof(err))) {
		fprintf(stderr, "lsw: %s\n", err);
		return 1;
	}
	lsw_config_override(&cfg, &ov);
	core = lsw_core_create(&cfg, err, sizeof(err));
	if (!core) {
		fprintf(stderr, "lsw: %s: %s\n", argv[optind], err);
		return 1;
	}
	if (check_only) {
		printf("%s: ok, %d switches, %d ports\n", argv[optind],
		       cfg.n_switches, cfg.n_ports);
		lsw_core_destroy(core);
		return 0;
	}
	rc = lsw_io_run(core, &io);
	lsw_core_destroy(core);
	return rc ? 1 : 0;
}

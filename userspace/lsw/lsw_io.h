/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_io.h - the real-time driver: UDP datagram ports (qemu -netdev dgram),
 * an epoll loop with a timerfd on CLOCK_MONOTONIC, signals, output files.
 */
#ifndef LSW_IO_H
#define LSW_IO_H

#include "lsw_core.h"

struct lsw_io_opts {
	const char *counters_path; /* NULL: stdout */
	const char *csv_path;      /* NULL: no time series */
	uint64_t sample_ns;        /* CSV sampling interval */
	uint64_t duration_ns;      /* 0: run until SIGINT/SIGTERM */
};

/* Returns 0 on a clean stop, -1 on a setup error (already reported). */
int lsw_io_run(struct lsw_core *core, const struct lsw_io_opts *opts);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* monitor.h - "rxe-cc monitor": a live per-QP view, once a second. */
#ifndef RXE_CC_MONITOR_H
#define RXE_CC_MONITOR_H

#include <stdint.h>
#include <stdio.h>

#include "qp.h"
#include "sysfs.h"

/*
 * Refreshes every second until SIGINT/SIGTERM, until one of the devices
 * goes away, or after COUNT refreshes (0: no limit).  DEVS[0..N-1] are
 * the devices; FILTER (NULL: none) picks QPs.  JSON: one object per
 * refresh, on one line unless PRETTY.  Returns 0 on any of these ends,
 * -1 on an error.
 */
/* DELTA events over DT_NS nanoseconds, per second, rounded; 0 if DT_NS is. */
uint64_t monitor_per_second(uint64_t delta, uint64_t dt_ns);

int monitor_run(FILE *f, char (*devs)[DEV_NAME_MAX], int n,
		const struct qp_filter *filter, int json, int pretty,
		long count);

#endif

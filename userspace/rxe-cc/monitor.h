/* SPDX-License-Identifier: GPL-2.0 */
/* monitor.h - "rxe-cc monitor": a live per-QP view, once a second. */
#ifndef RXE_CC_MONITOR_H
#define RXE_CC_MONITOR_H

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
int monitor_run(FILE *f, char (*devs)[DEV_NAME_MAX], int n,
		const struct qp_filter *filter, int json, int pretty,
		long count);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* lsw_stats.h - counters as JSON and the queue time series as CSV. */
#ifndef LSW_STATS_H
#define LSW_STATS_H

#include <stdio.h>

#include "lsw_core.h"

void lsw_stats_json(FILE *f, struct lsw_core *core, uint64_t now_ns);
void lsw_stats_csv_header(FILE *f);
/* One row per (switch port, active priority) at now_ns. */
void lsw_stats_csv_sample(FILE *f, struct lsw_core *core, uint64_t now_ns);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* out.h - JSON strings and human-readable rates. */
#ifndef RXE_CC_OUT_H
#define RXE_CC_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* S as a JSON string, quotes included. */
void json_string(FILE *f, const char *s);

/* A rate in bit/s as "12.5 Gb/s", "800 Mb/s", "0 b/s" into BUF: one decimal,
 * rounded to the nearest. */
const char *fmt_rate(char *buf, size_t len, uint64_t bps);

#endif

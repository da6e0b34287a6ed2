/* SPDX-License-Identifier: GPL-2.0 */
/* show.h - "rxe-cc show": a device's algorithms, knobs and NP. */
#ifndef RXE_CC_SHOW_H
#define RXE_CC_SHOW_H

#include <stdio.h>

/* Prints DEV's configuration; returns 0, or -1 (message on stderr). */
int show_dev(FILE *f, const char *dev, int json);

#endif

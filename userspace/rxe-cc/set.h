/* SPDX-License-Identifier: GPL-2.0 */
/* set.h - "rxe-cc set": all assignments or none. */
#ifndef RXE_CC_SET_H
#define RXE_CC_SET_H

#include <stddef.h>

#define SET_MAX	64	/* assignments in one command */

/*
 * cc_set - apply "knob=value" ASSIGN[0..N-1] to DEV.  Every assignment is
 * checked first (known, writable, well-formed, no knob twice); then they
 * are written in an order the kernel accepts (one may depend on another,
 * as acc_period_us <= acc_halt_max_us).  If the kernel rejects one in
 * every order, the knobs already written get their old values back.
 * Returns 0, or -1 with a one-line message in ERR: nothing changed.
 */
int cc_set(const char *dev, int n, char *const *assign, char *err,
	   size_t err_len);

#endif

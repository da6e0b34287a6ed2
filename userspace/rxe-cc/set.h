/* SPDX-License-Identifier: GPL-2.0 */
/* set.h - "rxe-cc set": all assignments or none. */
#ifndef RXE_CC_SET_H
#define RXE_CC_SET_H

#include <stddef.h>

#include "knobs.h"

#define SET_MAX	64	/* assignments in one command */

/* what one assignment did, for the echo of "rxe-cc set" */
struct set_change {
	struct knob k;			/* the knob set, as cc/knobs lists it */
	const struct knob_alias *alias;	/* the mlx5 name given, or NULL */
	char given[KNOB_VALUE_MAX];	/* the name as given: ours or mlx5's */
	char given_value[KNOB_VALUE_MAX];	/* the value as given */
	char written[KNOB_VALUE_MAX];	/* what was written, in K's unit */
	char old[KNOB_VALUE_MAX];	/* before */
	char now[KNOB_VALUE_MAX];	/* after, as the knob reads back */
};

/*
 * cc_set - apply "knob=value" ASSIGN[0..N-1] to DEV.  The knobs, their
 * ranges and directories are those DEV's cc/knobs lists.  Every
 * assignment is checked first (known, writable, well-formed, no knob
 * twice); then they are written in an order the kernel accepts (one may
 * depend on another, as acc_period_us <= acc_halt_max_us).  If the
 * kernel rejects one in every order, the knobs already written get
 * their old values back.  A knob may be named by its mlx5 alias
 * (knob_lookup()), in the alias's unit (knob_given()).  On success
 * CHANGES[0..N-1] (unless NULL) says, in the order given, what each
 * assignment did.  Returns 0, or -1 with a one-line message in ERR:
 * nothing changed.
 */
int cc_set(const char *dev, int n, char *const *assign,
	   struct set_change *changes, char *err, size_t err_len);

#endif

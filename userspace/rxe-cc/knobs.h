/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - the congestion control knobs of ports/1/cc/, as
 * Documentation/ABI/testing/sysfs-class-infiniband-rxe-cc lists them:
 * kind, unit, default and the range a value must be in before the kernel
 * sees it (the kernel checks knobs against each other too).
 */
#ifndef RXE_CC_KNOBS_H
#define RXE_CC_KNOBS_H

#include <stddef.h>
#include <stdint.h>

enum knob_kind {
	KNOB_UINT,	/* unsigned decimal in [min, max] */
	KNOB_BOOL,	/* exactly 0 or 1 */
	KNOB_DSCP,	/* -1 (the QP's own) or 0..63 */
	KNOB_ALGO,	/* an algorithm the device lists in "available" */
	KNOB_PRIO_ALGO,	/* "default" or an algorithm */
	KNOB_RO,	/* read-only */
};

enum knob_group {
	GROUP_CHOICE,	/* algorithm, available, prio<N>_* */
	GROUP_DEVICE,	/* line rate, pacer, DSCPs */
	GROUP_DCQCN,
	GROUP_ACC,
};

struct knob {
	const char *name;
	enum knob_kind kind;
	enum knob_group group;
	const char *unit;	/* "" when the value has none */
	const char *def;	/* the default as the file reads */
	uint64_t min, max;	/* KNOB_UINT only */
	const char *means;	/* one line: the ABI document's first sentence */
};

#define KNOB_PRIOS	8
#define KNOB_VALUE_MAX	64	/* longest value we read or write, NUL included */

extern const struct knob knob_table[];
extern const size_t knob_count;

const struct knob *knob_find(const char *name);

/*
 * The names NVIDIA's mlx5 gives DCQCN's parameters in debugfs
 * (cc_params/rp_*, np_*) and in the ecn/ sysfs of its out-of-tree
 * driver, so that scripts for mlx5 carry over.  An alias with a TARGET
 * means the same in the same unit; ZERO_DIFFERS marks one whose value 0
 * means something else on mlx5 (refused, with WHY).  One without a
 * TARGET has no counterpart here and is refused with WHY.
 */
struct knob_alias {
	const char *name;
	const char *target;
	int zero_differs;
	const char *why;
};

extern const struct knob_alias knob_aliases[];
extern const size_t knob_alias_count;

const struct knob_alias *knob_alias_find(const char *name);

/* the alias of knob K, or NULL */
const char *knob_alias_of(const struct knob *k);

/*
 * knob_lookup - NAME (ours or an mlx5 alias) to its knob, for the value
 * VALUE.  NULL with a one-line reason in WHY when the name is unknown or
 * the alias is refused.
 */
const struct knob *knob_lookup(const char *name, const char *value, char *why,
			       size_t why_len);

/*
 * knob_check - is VALUE a well-formed value of knob K?  AVAILABLE is the
 * device's space-separated algorithm list (for KNOB_ALGO/KNOB_PRIO_ALGO).
 * Returns 0, or -1 with a one-line reason in WHY (WHY_LEN bytes).
 */
int knob_check(const struct knob *k, const char *value, const char *available,
	       char *why, size_t why_len);

/*
 * knob_assignment - split "name=value" at the first '='.  Returns 0 and
 * points NAME/VALUE into BUF (which it modifies), or -1 if there is no
 * '=' or the name is empty.
 */
int knob_assignment(char *buf, char **name, char **value);

/* word_in_list - WORD is one of the space-separated words of LIST */
int word_in_list(const char *word, const char *list);

#endif

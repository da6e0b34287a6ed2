/* SPDX-License-Identifier: GPL-2.0 */
/*
 * knobs.h - the congestion control knobs of ports/1/cc/ and
 * ports/1/cc_experimental/.  The kernel lists every numeric knob in
 * cc/knobs, "name unit min max default group [experimental]"; rxe-cc
 * reads that list from the device (its schema) and adds only what the
 * kernel does not publish: the other files of cc/ (the algorithm choice,
 * the DSCPs) with their kinds and defaults, and each knob's meaning in
 * one line, as Documentation/ABI/testing/sysfs-class-infiniband-rxe-cc
 * says it.  The kernel checks knobs against each other too.
 */
#ifndef RXE_CC_KNOBS_H
#define RXE_CC_KNOBS_H

#include <stddef.h>
#include <stdint.h>

enum knob_kind {
	KNOB_UINT,	/* unsigned decimal in [min, max] */
	KNOB_BOOL,	/* exactly 0 or 1 (a numeric knob of range 0..1) */
	KNOB_DSCP,	/* -1 (the QP's own) or 0..63 */
	KNOB_ALGO,	/* an algorithm the device lists in "available" */
	KNOB_PRIO_ALGO,	/* "default" or an algorithm */
	KNOB_RO,	/* read-only */
};

/* the group of algorithm, available, knobs, prio<N>_*: not a knob row */
#define KNOB_GROUP_CHOICE	"choice"
#define KNOB_GROUP_DEVICE	"device"

#define KNOB_PRIOS	8
#define KNOB_NAME_MAX	48
#define KNOB_UNIT_MAX	16
#define KNOB_VALUE_MAX	64	/* longest value we read or write, NUL included */
#define KNOB_MAX	160	/* knobs of one device, ours and the kernel's */
#define KNOBS_TEXT_MAX	16384	/* cc/knobs, one sysfs page */

struct knob {
	char name[KNOB_NAME_MAX];
	enum knob_kind kind;
	char group[KNOB_NAME_MAX];	/* "choice", "device" or an algorithm */
	char unit[KNOB_UNIT_MAX];	/* "" when the value has none */
	char def[KNOB_VALUE_MAX];	/* the default as the file reads */
	uint64_t min, max;		/* KNOB_UINT, KNOB_BOOL */
	int experimental;		/* its file is in cc_experimental/ */
	const char *means;	/* one line, or "" when rxe-cc has none */
};

/* the files of cc/ that cc/knobs does not list, with their meanings */
extern const struct knob knob_attrs[];
extern const size_t knob_attr_count;

/* the meaning of each numeric knob rxe-cc knows, by name */
struct knob_desc {
	const char *name;
	const char *means;	/* the ABI document's first sentence */
};

extern const struct knob_desc knob_descs[];
extern const size_t knob_desc_count;

/* the meaning of knob NAME in one line: "" when rxe-cc has none */
const char *knob_means(const char *name);

/* a device's knobs: the files of knob_attrs[] and the rows of cc/knobs */
struct knob_schema {
	size_t n;
	struct knob k[KNOB_MAX];
};

/*
 * knob_schema_parse - the schema from TEXT, the contents of cc/knobs:
 * knob_attrs[] and each line's knob, in the kernel's order (a row of the
 * kernel's replaces one of ours of the same name).  Returns 0, or -1
 * with a one-line reason in WHY.
 */
int knob_schema_parse(struct knob_schema *s, const char *text, char *why,
		      size_t why_len);

/*
 * knob_schema_load - DEV's schema, from its cc/knobs.  Returns 0, or -1
 * with a one-line message in ERR (a module older than this rxe-cc has
 * no cc/knobs, and ERR says so).
 */
int knob_schema_load(struct knob_schema *s, const char *dev, char *err,
		     size_t err_len);

const struct knob *knob_find(const struct knob_schema *s, const char *name);

/* the directory of K's file: CC_DIR or, experimental, CC_EXP_DIR */
const char *knob_dir(const struct knob *k);

/* reads, writes K's file on DEV, in its directory: 0, or -errno */
int knob_get(const char *dev, const struct knob *k, char *val, size_t len);
int knob_put(const char *dev, const struct knob *k, const char *val);

/*
 * The names NVIDIA's mlx5 gives DCQCN's parameters in debugfs
 * (cc_params/rp_*, np_*) and in the ecn/ sysfs of its out-of-tree
 * driver, so that scripts for mlx5 carry over.  An alias with a TARGET
 * sets that knob: with SCALE 1 in the same unit; otherwise the alias
 * takes UNIT (mlx5's Mb/s) and the knob gets SCALE times the value.
 * ZERO_DIFFERS marks one whose value 0 means something else on mlx5
 * (refused, with WHY).  One without a TARGET has no counterpart here
 * and is refused with WHY.
 */
struct knob_alias {
	const char *name;
	const char *target;
	uint64_t scale;
	const char *unit;
	int zero_differs;
	const char *why;
};

extern const struct knob_alias knob_aliases[];
extern const size_t knob_alias_count;

const struct knob_alias *knob_alias_find(const char *name);

/* the first alias of knob K, or NULL */
const char *knob_alias_of(const struct knob *k);

/*
 * knob_alias_next - the alias of K after PREV (NULL: the first), or
 * NULL: for (a = knob_alias_next(k, NULL); a; a = knob_alias_next(k, a))
 */
const struct knob_alias *knob_alias_next(const struct knob *k,
					 const struct knob_alias *prev);

/* the unit alias A takes for knob K: its own, or K's */
const char *knob_alias_unit(const struct knob_alias *a, const struct knob *k);

/*
 * knob_lookup - NAME (ours or an mlx5 alias) to its knob in S, for the
 * value VALUE; *ALIAS is the alias NAME is, or NULL.  NULL with a
 * one-line reason in WHY when the name is unknown or the alias is
 * refused.
 */
const struct knob *knob_lookup(const struct knob_schema *s, const char *name,
			       const char *value,
			       const struct knob_alias **alias, char *why,
			       size_t why_len);

/*
 * knob_check - is VALUE a well-formed value of knob K?  AVAILABLE is the
 * device's space-separated algorithm list (for KNOB_ALGO/KNOB_PRIO_ALGO).
 * Returns 0, or -1 with a one-line reason in WHY (WHY_LEN bytes).
 */
int knob_check(const struct knob *k, const char *value, const char *available,
	       char *why, size_t why_len);

/*
 * knob_given - VALUE, given for knob K as alias A (NULL: by its own
 * name), checked, and in OUT as K's file takes it: VALUE itself, or for
 * an alias in another unit (mlx5's Mb/s) VALUE times its scale, checked
 * in the alias's unit against K's range divided by the scale.  Returns
 * 0, or -1 with a one-line reason in WHY.
 */
int knob_given(const struct knob *k, const struct knob_alias *a,
	       const char *value, const char *available, char *out,
	       size_t out_len, char *why, size_t why_len);

/*
 * knob_assignment - split "name=value" at the first '='.  Returns 0 and
 * points NAME/VALUE into BUF (which it modifies), or -1 if there is no
 * '=' or the name is empty.
 */
int knob_assignment(char *buf, char **name, char **value);

/* word_in_list - WORD is one of the space-separated words of LIST */
int word_in_list(const char *word, const char *list);

#endif

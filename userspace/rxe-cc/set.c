// SPDX-License-Identifier: GPL-2.0
/*
 * set.c - check every assignment, write them, undo on a refusal.
 */
#include "set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "knobs.h"
#include "sysfs.h"

struct assignment {
	const struct knob *k;
	const struct knob_alias *alias;	/* the name given, if mlx5's */
	char given[KNOB_VALUE_MAX];
	char given_value[KNOB_VALUE_MAX];
	char value[KNOB_VALUE_MAX];	/* to write, in the knob's unit */
	char old[KNOB_VALUE_MAX];
	int done;
};

static int check_all(const char *dev, const struct knob_schema *s, int n,
		     char *const *assign, struct assignment *a, char *err,
		     size_t err_len)
{
	char available[256], buf[2 * KNOB_VALUE_MAX], why[160];
	char *name, *value;
	int e;

	e = knob_read(dev, "available", available, sizeof(available));
	if (e) {
		snprintf(err, err_len, "%s: cannot read cc/available: %s", dev,
			 strerror(-e));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (strlen(assign[i]) >= sizeof(buf) ||
		    snprintf(buf, sizeof(buf), "%s", assign[i]) < 0 ||
		    knob_assignment(buf, &name, &value)) {
			snprintf(err, err_len, "'%.64s' is not knob=value",
				 assign[i]);
			return -1;
		}
		a[i].k = knob_lookup(s, name, value, &a[i].alias, why,
				     sizeof(why));
		if (!a[i].k) {
			snprintf(err, err_len, "%s", why);
			return -1;
		}
		snprintf(a[i].given, sizeof(a[i].given), "%s", name);
		snprintf(a[i].given_value, sizeof(a[i].given_value), "%s", value);
		if (knob_given(a[i].k, a[i].alias, value, available, a[i].value,
			       sizeof(a[i].value), why, sizeof(why))) {
			snprintf(err, err_len, "%s: %s", name, why);
			return -1;
		}
		for (int j = 0; j < i; j++)
			if (a[j].k == a[i].k) {
				if (strcmp(a[j].given, name))
					snprintf(err, err_len, "%s is set twice (as %s and %s)",
						 a[i].k->name, a[j].given, name);
				else
					snprintf(err, err_len, "%s is set twice", name);
				return -1;
			}
		e = knob_get(dev, a[i].k, a[i].old, sizeof(a[i].old));
		if (e) {
			snprintf(err, err_len, "%s: cannot read %s/%s: %s", dev,
				 knob_dir(a[i].k), a[i].k->name, strerror(-e));
			return -1;
		}
	}
	return 0;
}

/* Write back, newest first, what was written: each step undoes one. */
static int undo(const char *dev, struct assignment *a, const int *order,
		int written)
{
	int bad = 0;

	while (written-- > 0)
		if (knob_put(dev, a[order[written]].k, a[order[written]].old))
			bad = 1;
	return bad;
}

/* what each assignment did: the value the knob reads back now */
static void report(const char *dev, int n, const struct assignment *a,
		   struct set_change *c)
{
	for (int i = 0; c && i < n; i++) {
		c[i].k = *a[i].k;
		c[i].alias = a[i].alias;
		snprintf(c[i].given, sizeof(c[i].given), "%s", a[i].given);
		snprintf(c[i].given_value, sizeof(c[i].given_value), "%s",
			 a[i].given_value);
		snprintf(c[i].written, sizeof(c[i].written), "%s", a[i].value);
		snprintf(c[i].old, sizeof(c[i].old), "%s", a[i].old);
		if (knob_get(dev, a[i].k, c[i].now, sizeof(c[i].now)))
			snprintf(c[i].now, sizeof(c[i].now), "%s", a[i].value);
	}
}

int cc_set(const char *dev, int n, char *const *assign,
	   struct set_change *changes, char *err, size_t err_len)
{
	struct assignment a[SET_MAX] = { 0 };
	int order[SET_MAX], written = 0, refused = -1, refusal = 0;
	struct knob_schema s;

	if (!cc_dev_exists(dev)) {
		snprintf(err, err_len, "%s: no such rxe-acc device", dev);
		return -1;
	}
	if (n < 1 || n > SET_MAX) {
		snprintf(err, err_len, "give 1 to %d knob=value", SET_MAX);
		return -1;
	}
	if (knob_schema_load(&s, dev, err, err_len) ||
	    check_all(dev, &s, n, assign, a, err, err_len))
		return -1;

	/* passes until all are written or a pass writes none */
	for (int progress = 1; progress && written < n;) {
		progress = 0;
		for (int i = 0; i < n; i++) {
			int e;

			if (a[i].done)
				continue;
			e = knob_put(dev, a[i].k, a[i].value);
			if (!e) {
				a[i].done = 1;
				order[written++] = i;
				progress = 1;
				continue;
			}
			refused = i;
			refusal = e;
			if (e != -EINVAL) {	/* no order helps */
				progress = 0;
				break;
			}
		}
	}
	if (written == n) {
		report(dev, n, a, changes);
		return 0;
	}
	snprintf(err, err_len, "%s: %s=%s: the kernel refused it (%s)%s", dev,
		 a[refused].k->name, a[refused].value, strerror(-refusal),
		 undo(dev, a, order, written) ?
		 "; restoring the knobs written before it FAILED" :
		 "; nothing changed");
	return -1;
}

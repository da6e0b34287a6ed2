/* SPDX-License-Identifier: GPL-2.0 */
/* show.h - "rxe-cc show": a device's algorithms, knobs and NP. */
#ifndef RXE_CC_SHOW_H
#define RXE_CC_SHOW_H

#include <stdio.h>

#include "json.h"
#include "knobs.h"

/*
 * Prints DEV's configuration, as text on F or, with W, as a JSON object
 * through W; returns 0, or -1 (message on stderr).
 */
int show_dev(FILE *f, const char *dev, struct jw *w);

/* V, a value of knob K as its file reads, typed (number, string, null) */
void knob_json(struct jw *w, const char *key, const struct knob *k,
	       const char *v);

/* the keys that name a device: ifname and port as rdma -j, device */
void json_dev_keys(struct jw *w, const char *dev);

#endif

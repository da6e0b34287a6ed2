/* SPDX-License-Identifier: GPL-2.0 */
/* qpcmd.h - "rxe-cc qp": the RC QPs of a device and their CC state. */
#ifndef RXE_CC_QPCMD_H
#define RXE_CC_QPCMD_H

#include <stdio.h>

#include "qp.h"

struct qp_list {
	int n, cap;
	struct qp_info *qp;
};

/* The RC QPs of DEV into L (emptied first): 0, or -errno (-ENODEV). */
int qp_collect(const char *dev, struct qp_list *l);
void qp_list_free(struct qp_list *l);

/* One QP as a JSON object, DEV included. */
void qp_json(FILE *f, const char *dev, const struct qp_info *qp);

/*
 * Prints DEV's RC QPs, in JSON as objects of an array that SHOWN objects
 * already started (it counts on).  0, or -1 (message on stderr).
 */
int qp_show(FILE *f, const char *dev, int json, int *shown);

/* The column titles of the text table. */
void qp_text_header(FILE *f);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* qpcmd.h - "rxe-cc qp": the RC QPs of a device and their CC state. */
#ifndef RXE_CC_QPCMD_H
#define RXE_CC_QPCMD_H

#include <stdio.h>

#include "json.h"
#include "qp.h"

struct qp_list {
	int n, cap;
	struct qp_info *qp;
};

/*
 * The RC QPs of DEV that FILTER (NULL: all) lets through into L (emptied
 * first): 0, or -errno (-ENODEV; -EPROTONOSUPPORT without rdma netlink).
 */
int qp_collect(const char *dev, const struct qp_filter *filter,
	       struct qp_list *l);
void qp_list_free(struct qp_list *l);

/*
 * One QP as a JSON object, its device included; TOP: a top-level object,
 * which carries "schema".
 */
void qp_json(struct jw *w, const char *dev, const struct qp_info *qp,
	     int top);

/* One QP as a line of the text table, and the table's column titles. */
void qp_text(FILE *f, const char *dev, const struct qp_info *qp);
void qp_text_header(FILE *f);

#endif

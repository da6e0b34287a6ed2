// SPDX-License-Identifier: GPL-2.0
/*
 * qpcmd.c - per-QP congestion state from rdma netlink: rxe-acc's driver
 * attributes (cc_*, dcqcn_*, acc_*) of each RC QP.
 */
#include "qpcmd.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "nl.h"
#include "out.h"

#define IB_QPT_RC	2

static void collect_one(const struct qp_info *qp, void *arg)
{
	struct qp_list *l = arg;

	if (qp->type != IB_QPT_RC || l->n < 0)
		return;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct qp_info *p = realloc(l->qp, cap * sizeof(*p));

		if (!p) {
			l->n = -1;	/* reported by qp_collect */
			return;
		}
		l->qp = p;
		l->cap = cap;
	}
	l->qp[l->n++] = *qp;
}

int qp_collect(const char *dev, struct qp_list *l)
{
	uint32_t index;
	int ret;

	l->n = 0;
	ret = nl_dev_index(dev, &index);
	if (ret)
		return ret;
	ret = nl_qps(index, collect_one, l);
	if (ret < 0)
		return ret;
	if (l->n < 0) {
		l->n = 0;
		return -ENOMEM;
	}
	return 0;
}

void qp_list_free(struct qp_list *l)
{
	free(l->qp);
	memset(l, 0, sizeof(*l));
}

void qp_json(FILE *f, const char *dev, const struct qp_info *qp)
{
	fputs("{\"device\":", f);
	json_string(f, dev);
	fprintf(f, ",\"lqpn\":%" PRIu32, qp->lqpn);
	if (qp->has_rqpn)
		fprintf(f, ",\"rqpn\":%" PRIu32, qp->rqpn);
	fprintf(f, ",\"type\":\"%s\",\"state\":\"%s\",\"pid\":%" PRIu32
		",\"cc_state\":\"%s\",\"driver\":{", qp_type_name(qp->type),
		qp_state_name(qp->state), qp->pid, qp_cc_state(qp));
	for (int i = 0; i < qp->n_drv; i++) {
		const struct qp_drv_attr *d = &qp->drv[i];

		if (i)
			fputc(',', f);
		json_string(f, d->name);
		fputc(':', f);
		if (d->is_string)
			json_string(f, d->str);
		else
			fprintf(f, "%" PRIu64, d->value);
	}
	fputs("}}", f);
}

static void qp_text(FILE *f, const char *dev, const struct qp_info *qp)
{
	const struct qp_drv_attr *algo = qp_drv(qp, "cc_algorithm");
	char rate[24] = "-", line[24] = "-", rqpn[12] = "-", marks[48];

	if (qp_drv(qp, "cc_rate_bps")) {
		fmt_rate(rate, sizeof(rate), qp_drv_u64(qp, "cc_rate_bps", 0));
		fmt_rate(line, sizeof(line),
			 qp_drv_u64(qp, "cc_line_rate_bps", 0));
	}
	if (qp->has_rqpn)
		snprintf(rqpn, sizeof(rqpn), "%" PRIu32, qp->rqpn);
	fprintf(f, "%-10s %6" PRIu32 " %6s %-5s %-6s %-8s %12s %12s %10" PRIu64
		" %8" PRIu64 "  %s\n", dev, qp->lqpn, rqpn,
		qp_state_name(qp->state),
		algo && algo->is_string ? algo->str : "?", qp_cc_state(qp),
		rate, line, qp_drv_u64(qp, "cc_inflight_bytes", 0),
		qp_drv_u64(qp, "acc_halts", 0), qp_marks(qp, marks, sizeof(marks)));
}

void qp_text_header(FILE *f)
{
	fprintf(f, "%-10s %6s %6s %-5s %-6s %-8s %12s %12s %10s %8s  %s\n",
		"dev", "lqpn", "rqpn", "state", "algo", "cc", "rate", "line",
		"inflight_B", "halts", "marks");
}

int qp_show(FILE *f, const char *dev, int json, int *shown)
{
	struct qp_list l = { 0 };
	int ret = qp_collect(dev, &l);

	if (ret) {
		fprintf(stderr, "rxe-cc: %s: %s\n", dev,
			ret == -ENODEV ? "no such RDMA device" : strerror(-ret));
		return -1;
	}
	for (int i = 0; i < l.n; i++) {
		if (json) {
			if ((*shown)++)
				fputc(',', f);
			qp_json(f, dev, &l.qp[i]);
		} else {
			qp_text(f, dev, &l.qp[i]);
		}
	}
	qp_list_free(&l);
	return 0;
}

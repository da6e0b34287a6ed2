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
#include "sysfs.h"

#define IB_QPT_RC	2

static void proc_comm(uint32_t pid, char *comm, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%" PRIu32 "/comm", pid);
	if (sysfs_read_file(path, comm, len))
		*comm = 0;
}

struct collect {
	struct qp_list *l;
	const struct qp_filter *filter;
};

static void collect_one(const struct qp_info *qp, void *arg)
{
	struct collect *c = arg;
	struct qp_list *l = c->l;

	if (qp->type != IB_QPT_RC || l->n < 0 ||
	    (c->filter && !qp_filter_match(c->filter, qp)))
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
	l->qp[l->n] = *qp;
	if (!*qp->comm && qp->pid)	/* as rdma: a user QP's process */
		proc_comm(qp->pid, l->qp[l->n].comm, sizeof(qp->comm));
	l->n++;
}

int qp_collect(const char *dev, const struct qp_filter *filter,
	       struct qp_list *l)
{
	struct collect c = { l, filter };
	uint32_t index;
	int ret;

	l->n = 0;
	ret = nl_dev_index(dev, &index);
	if (ret)
		return ret;
	ret = nl_qps(index, collect_one, &c);
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

void qp_json(struct jw *w, const char *dev, const struct qp_info *qp,
	     int top)
{
	jw_obj_open(w, NULL);
	if (top)
		jw_u64(w, "schema", JSON_SCHEMA);
	jw_str(w, "ifname", dev);
	jw_u64(w, "port", qp->port ? qp->port : 1);
	jw_str(w, "device", dev);
	jw_u64(w, "lqpn", qp->lqpn);
	if (qp->has_rqpn)
		jw_u64(w, "rqpn", qp->rqpn);
	jw_str(w, "type", qp_type_name(qp->type));
	jw_str(w, "state", qp_state_name(qp->state));
	jw_u64(w, "pid", qp->pid);
	if (*qp->comm)
		jw_str(w, "comm", qp->comm);
	jw_str(w, "cc_state", qp_cc_state(qp));
	jw_obj_open(w, "driver");
	for (int i = 0; i < qp->n_drv; i++) {
		const struct qp_drv_attr *d = &qp->drv[i];

		switch (d->kind) {
		case DRV_STR:
			jw_str(w, d->name, d->str);
			break;
		case DRV_S64:
			jw_s64(w, d->name, d->sval);
			break;
		case DRV_U64:
			jw_u64(w, d->name, d->value);
			break;
		}
	}
	jw_obj_close(w);
	jw_obj_close(w);
}

void qp_text(FILE *f, const char *dev, const struct qp_info *qp)
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


// SPDX-License-Identifier: GPL-2.0
/*
 * qp.c - parsing a QP entry of an rdma netlink resource dump.
 */
#include "qp.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <strings.h>
#include <rdma/rdma_netlink.h>
#include <stdio.h>
#include <string.h>

static void copy_str(char *dst, const struct nlattr *a)
{
	size_t n = mnl_attr_get_payload_len(a);
	const char *s = mnl_attr_get_payload(a);

	if (n >= QP_NAME_MAX)
		n = QP_NAME_MAX - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
	dst[strnlen(dst, n)] = 0;
}

/*
 * The driver table is a flat list: a DRIVER_STRING names an entry, an
 * optional PRINT_TYPE follows, then its value (STRING, U32, U64, S32 or
 * S64).
 */
static int parse_driver(const struct nlattr *table, struct qp_info *qp)
{
	const struct nlattr *a;
	struct qp_drv_attr *cur = NULL;

	mnl_attr_for_each_nested(a, table) {
		uint16_t t = mnl_attr_get_type(a);

		switch (t) {
		case RDMA_NLDEV_ATTR_DRIVER_STRING:
			if (!cur) {
				if (qp->n_drv == QP_DRV_MAX)
					return 0;	/* keep what fits */
				cur = &qp->drv[qp->n_drv];
				memset(cur, 0, sizeof(*cur));
				copy_str(cur->name, a);
			} else {
				cur->is_string = 1;
				cur->kind = DRV_STR;
				copy_str(cur->str, a);
				qp->n_drv++;
				cur = NULL;
			}
			break;
		case RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE:
			break;
		case RDMA_NLDEV_ATTR_DRIVER_U32:
		case RDMA_NLDEV_ATTR_DRIVER_S32:
			if (!cur || mnl_attr_validate(a, MNL_TYPE_U32) < 0)
				return -1;
			if (t == RDMA_NLDEV_ATTR_DRIVER_S32) {
				cur->kind = DRV_S64;
				cur->sval = (int32_t)mnl_attr_get_u32(a);
				cur->value = (uint64_t)cur->sval;
			} else {
				cur->kind = DRV_U64;
				cur->value = mnl_attr_get_u32(a);
			}
			qp->n_drv++;
			cur = NULL;
			break;
		case RDMA_NLDEV_ATTR_DRIVER_U64:
		case RDMA_NLDEV_ATTR_DRIVER_S64:
			if (!cur || mnl_attr_validate(a, MNL_TYPE_U64) < 0)
				return -1;
			cur->value = mnl_attr_get_u64(a);
			cur->kind = t == RDMA_NLDEV_ATTR_DRIVER_S64 ?
				DRV_S64 : DRV_U64;
			cur->sval = (int64_t)cur->value;
			qp->n_drv++;
			cur = NULL;
			break;
		default:
			break;
		}
	}
	return cur ? -1 : 0;
}

static int get_u32(const struct nlattr *a, uint32_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return -1;
	*v = mnl_attr_get_u32(a);
	return 0;
}

static int get_u8(const struct nlattr *a, uint8_t *v)
{
	if (mnl_attr_validate(a, MNL_TYPE_U8) < 0)
		return -1;
	*v = mnl_attr_get_u8(a);
	return 0;
}

int qp_parse_entry(const struct nlattr *entry, struct qp_info *qp)
{
	const struct nlattr *a;
	int have_lqpn = 0;

	memset(qp, 0, sizeof(*qp));
	mnl_attr_for_each_nested(a, entry) {
		switch (mnl_attr_get_type(a)) {
		case RDMA_NLDEV_ATTR_RES_LQPN:
			if (get_u32(a, &qp->lqpn))
				return -1;
			have_lqpn = 1;
			break;
		case RDMA_NLDEV_ATTR_RES_RQPN:
			if (get_u32(a, &qp->rqpn))
				return -1;
			qp->has_rqpn = 1;
			break;
		case RDMA_NLDEV_ATTR_RES_PID:
			if (get_u32(a, &qp->pid))
				return -1;
			break;
		case RDMA_NLDEV_ATTR_PORT_INDEX:
			if (get_u32(a, &qp->port))
				return -1;
			break;
		case RDMA_NLDEV_ATTR_RES_TYPE:
			if (get_u8(a, &qp->type))
				return -1;
			break;
		case RDMA_NLDEV_ATTR_RES_STATE:
			if (get_u8(a, &qp->state))
				return -1;
			break;
		case RDMA_NLDEV_ATTR_RES_KERN_NAME:
			copy_str(qp->comm, a);
			break;
		case RDMA_NLDEV_ATTR_DRIVER:
			if (parse_driver(a, qp))
				return -1;
			break;
		default:
			break;
		}
	}
	return have_lqpn ? 0 : -1;
}

const struct qp_drv_attr *qp_drv(const struct qp_info *qp, const char *name)
{
	for (int i = 0; i < qp->n_drv; i++)
		if (!strcmp(qp->drv[i].name, name))
			return &qp->drv[i];
	return NULL;
}

uint64_t qp_drv_u64(const struct qp_info *qp, const char *name, uint64_t def)
{
	const struct qp_drv_attr *d = qp_drv(qp, name);

	return d && !d->is_string ? d->value : def;
}

const char *qp_type_name(uint8_t type)
{
	static const char *const names[] = {
		[0] = "SMI", [1] = "GSI", [2] = "RC", [3] = "UC", [4] = "UD",
		[5] = "RAW_IPV6", [6] = "RAW_ETHERTYPE", [8] = "RAW_PACKET",
		[9] = "XRC_INI", [10] = "XRC_TGT",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ?
		names[type] : "?";
}

const char *qp_state_name(uint8_t state)
{
	static const char *const names[] = {
		"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR",
	};

	return state < sizeof(names) / sizeof(names[0]) ? names[state] : "?";
}

int qp_state_parse(const char *name)
{
	for (int s = 0; s < 7; s++)
		if (!strcasecmp(name, qp_state_name(s)))
			return s;
	return -1;
}

const char *qp_cc_state(const struct qp_info *qp)
{
	const struct qp_drv_attr *algo = qp_drv(qp, "cc_algorithm");

	if (!algo || !strcmp(algo->str, "none") ||
	    !qp_drv(qp, "cc_rate_bps"))
		return "-";
	if (qp_drv_u64(qp, "cc_stopped", 0))
		return "stopped";
	if (qp_drv_u64(qp, "acc_halted", 0))
		return "halted";
	if (qp_drv_u64(qp, "acc_victim_periods", 0))
		return "victim";
	return "run";
}

const char *qp_marks(const struct qp_info *qp, char *buf, size_t len)
{
	if (qp_drv(qp, "acc_ce_periods"))
		snprintf(buf, len, "ce %" PRIu64 "/ue %" PRIu64,
			 qp_drv_u64(qp, "acc_ce_periods", 0),
			 qp_drv_u64(qp, "acc_ue_periods", 0));
	else if (qp_drv(qp, "dcqcn_cnp_handled"))
		snprintf(buf, len, "cnp %" PRIu64,
			 qp_drv_u64(qp, "dcqcn_cnp_handled", 0));
	else
		snprintf(buf, len, "-");
	return buf;
}

int qp_filter_is_key(const char *w)
{
	return !strcmp(w, "lqpn") || !strcmp(w, "pid") || !strcmp(w, "state");
}

/* a decimal number that fits 32 bits, ending at *END */
static int parse_u32(const char *s, char **end, uint32_t *v)
{
	unsigned long long n;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	n = strtoull(s, end, 10);
	if (errno || n > UINT32_MAX)
		return -1;
	*v = (uint32_t)n;
	return 0;
}

static int add_ranges(struct qp_range *r, int *n, const char *list)
{
	const char *p = list;

	if (!*p)
		return -1;
	while (*p) {
		char *end;
		uint32_t lo, hi;

		if (parse_u32(p, &end, &lo))
			return -1;
		hi = lo;
		if (*end == '-' && parse_u32(end + 1, &end, &hi))
			return -1;
		if (hi < lo || *n == QP_FILTER_RANGES ||
		    (*end && *end != ',') || (*end == ',' && !end[1]))
			return -1;
		r[(*n)++] = (struct qp_range){ lo, hi };
		p = *end ? end + 1 : end;
	}
	return 0;
}

int qp_filter_add(struct qp_filter *f, const char *key, const char *list,
		  char *why, size_t why_len)
{
	if (!strcmp(key, "state")) {
		char buf[64], *tok, *save;

		if (!*list || strlen(list) >= sizeof(buf))
			goto bad_state;
		snprintf(buf, sizeof(buf), "%s", list);
		for (tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int s = qp_state_parse(tok);

			if (s < 0)
				goto bad_state;
			f->states |= 1u << s;
		}
		return 0;
bad_state:
		snprintf(why, why_len, "state '%.40s' is not a list of RESET, INIT, RTR, RTS, SQD, SQE, ERR",
			 list);
		return -1;
	}
	if (!strcmp(key, "lqpn") ? add_ranges(f->lqpn, &f->n_lqpn, list) :
	    !strcmp(key, "pid") ? add_ranges(f->pid, &f->n_pid, list) : -1) {
		snprintf(why, why_len, "%s '%.40s' is not a list of numbers and ranges (1,5-7)",
			 key, list);
		return -1;
	}
	return 0;
}

static int in_ranges(const struct qp_range *r, int n, uint32_t v)
{
	if (!n)
		return 1;
	for (int i = 0; i < n; i++)
		if (v >= r[i].lo && v <= r[i].hi)
			return 1;
	return 0;
}

int qp_filter_match(const struct qp_filter *f, const struct qp_info *qp)
{
	return in_ranges(f->lqpn, f->n_lqpn, qp->lqpn) &&
	       in_ranges(f->pid, f->n_pid, qp->pid) &&
	       (!f->states || (qp->state < 32 && f->states & 1u << qp->state));
}

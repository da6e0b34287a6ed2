// SPDX-License-Identifier: GPL-2.0
/*
 * qp.c - parsing a QP entry of an rdma netlink resource dump.
 */
#include "qp.h"

#include <inttypes.h>
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
			cur->value = t == RDMA_NLDEV_ATTR_DRIVER_S32 ?
				(uint64_t)(int64_t)(int32_t)mnl_attr_get_u32(a) :
				mnl_attr_get_u32(a);
			qp->n_drv++;
			cur = NULL;
			break;
		case RDMA_NLDEV_ATTR_DRIVER_U64:
		case RDMA_NLDEV_ATTR_DRIVER_S64:
			if (!cur || mnl_attr_validate(a, MNL_TYPE_U64) < 0)
				return -1;
			cur->value = mnl_attr_get_u64(a);
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

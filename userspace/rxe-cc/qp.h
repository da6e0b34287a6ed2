/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qp.h - one QP of "rdma res show qp" (RDMA_NLDEV_CMD_RES_QP_GET): the
 * core's fields and the driver's attributes (rxe-acc's drv_cc_*,
 * drv_dcqcn_*, drv_acc_*).
 */
#ifndef RXE_CC_QP_H
#define RXE_CC_QP_H

#include <libmnl/libmnl.h>
#include <stddef.h>
#include <stdint.h>

#define QP_DRV_MAX	32
#define QP_NAME_MAX	48

struct qp_drv_attr {
	char name[QP_NAME_MAX];
	int is_string;
	uint64_t value;
	char str[QP_NAME_MAX];
};

struct qp_info {
	uint32_t lqpn, rqpn, pid, port;
	uint8_t type, state;	/* enum ib_qp_type, enum ib_qp_state */
	int has_rqpn;
	char comm[QP_NAME_MAX];
	int n_drv;
	struct qp_drv_attr drv[QP_DRV_MAX];
};

/* Parses one RDMA_NLDEV_ATTR_RES_QP_ENTRY nest: 0, or -1 if malformed. */
int qp_parse_entry(const struct nlattr *entry, struct qp_info *qp);

/* A driver attribute by name (without "drv_"), or NULL. */
const struct qp_drv_attr *qp_drv(const struct qp_info *qp, const char *name);

/* Its number, or DEF when absent or a string. */
uint64_t qp_drv_u64(const struct qp_info *qp, const char *name, uint64_t def);

const char *qp_type_name(uint8_t type);
const char *qp_state_name(uint8_t state);

/*
 * The QP's congestion state in one word: "-" (no CC), "stopped", "halted"
 * (ACC halt), "victim" (ACC UE periods), "run".
 */
const char *qp_cc_state(const struct qp_info *qp);

/*
 * The marks the QP's sender has seen, into BUF: ACC "ce C/ue U" (periods
 * with CE, periods with UE only), DCQCN "cnp N" (CNPs handled), else "-".
 */
const char *qp_marks(const struct qp_info *qp, char *buf, size_t len);

#endif

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

enum qp_drv_kind { DRV_U64, DRV_S64, DRV_STR };

struct qp_drv_attr {
	char name[QP_NAME_MAX];
	enum qp_drv_kind kind;
	int is_string;		/* kind == DRV_STR */
	uint64_t value;		/* DRV_U64; DRV_S64 as (uint64_t)sval */
	int64_t sval;		/* DRV_S64 */
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
/* the state's number from its name (any case): 0..6, or -1 */
int qp_state_parse(const char *name);
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

/*
 * The filters of "rxe-cc qp" as rdma writes them: lqpn and pid take a
 * comma-separated list of numbers and ranges ("5", "1-7,12"), state a
 * list of state names ("RTS,ERR").  An empty filter matches every QP.
 */
#define QP_FILTER_RANGES	16

struct qp_range {
	uint32_t lo, hi;
};

struct qp_filter {
	int n_lqpn, n_pid;
	struct qp_range lqpn[QP_FILTER_RANGES], pid[QP_FILTER_RANGES];
	unsigned int states;	/* bit per enum ib_qp_state; 0: any */
};

/* Adds LIST to the filter KEY (lqpn, pid, state): 0, or -1 (WHY). */
int qp_filter_add(struct qp_filter *f, const char *key, const char *list,
		  char *why, size_t why_len);
int qp_filter_is_key(const char *word);
int qp_filter_match(const struct qp_filter *f, const struct qp_info *qp);

#endif

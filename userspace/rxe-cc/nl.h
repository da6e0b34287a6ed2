/* SPDX-License-Identifier: GPL-2.0 */
/* nl.h - rdma netlink (NETLINK_RDMA, the nldev client) through libmnl. */
#ifndef RXE_CC_NL_H
#define RXE_CC_NL_H

#include <stdint.h>

#include "qp.h"

/* The device's index in its netlink namespace: 0, or -errno (-ENODEV). */
int nl_dev_index(const char *dev, uint32_t *index);

/*
 * Calls FN for every QP of device INDEX.  Returns the number of QPs, or
 * -errno (-ENODEV when the device is gone).
 */
int nl_qps(uint32_t index, void (*fn)(const struct qp_info *qp, void *arg),
	   void *arg);

/*
 * A one-line reason for -errno ERR of the calls above; says which module
 * to load when the kernel has no rdma netlink (-EPROTONOSUPPORT).
 */
const char *nl_strerror(int err);

#endif

/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe_cc_compat.h - the few places where rxe itself differs between the
 * kernels the CC framework is built for (Debian's 6.1, 6.12 and 7.2), so
 * that every other rxe-acc file is the same source on all of them.
 *
 *  - Tasks.  Up to 6.3 the requester, completer and responder are three
 *    tasklets (qp->req.task, qp->comp.task, qp->resp.task).  6.4 made them
 *    work items and merged requester and completer: qp->send_task runs
 *    both, qp->recv_task the responder.  The pacer resumes "the task that
 *    sends requests" and "the task that sends read responses".
 *  - QP state.  Up to 6.3 the responder keeps its own qp->resp.state
 *    (READY from RTR until ERROR or RESET); since 6.4 there is only
 *    qp->attr.qp_state, written under qp->state_lock.
 *  - The netdev.  rxe->ndev is gone in 6.12.9 (the use-after-free fix);
 *    since then the device's netdev is a counted reference from
 *    ib_device_get_netdev(), NULL once the netdev is unregistering.
 *  - The netdev instance lock (6.15).  For a device with locked ops,
 *    NETDEV_UP and NETDEV_CHANGE run under dev->lock, which
 *    __ethtool_get_link_ksettings() takes: a notifier calls the ethtool op
 *    itself there (Documentation/networking/netdevices.rst).
 *  - hrtimer_setup() replaced hrtimer_init() plus a .function store in
 *    6.15; 6.13 already has it.
 *  - Trace events: since 6.10 __assign_str() takes only the field and
 *    copies the string that __string() named.
 *  - Opcode masks: 6.2 added RXE_FLUSH_MASK and RXE_ATOMIC_WRITE_MASK and
 *    moved the later bits up; RXE_CC_CTRL_MASK must stay clear of all of
 *    them (rxe_cc_np.c checks it at build time).
 *  - Lock annotations: with the compiler context analysis (7.x),
 *    __cond_acquires() also names the return value that means "locked".
 *    Detected by its helper macro rather than by version.
 */
#ifndef RXE_CC_COMPAT_H
#define RXE_CC_COMPAT_H

#include <linux/version.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>

/*
 * The kernel built for, in KERNEL_VERSION()'s encoding, from the three
 * numbers (LINUX_VERSION_CODE caps the sublevel at 255).  An out-of-tree
 * build for three kernels is the one place rxe-acc names versions.
 */
#define RXE_CC_KERNEL	KERNEL_VERSION(LINUX_VERSION_MAJOR, \
				       LINUX_VERSION_PATCHLEVEL, \
				       LINUX_VERSION_SUBLEVEL)
/* Built for kernel a.b.c or later. */
#define RXE_CC_SINCE(a, b, c)	(RXE_CC_KERNEL - KERNEL_VERSION(a, b, c) >= 0)

#if RXE_CC_SINCE(6, 4, 0)
#define rxe_cc_req_task(qp)	(&(qp)->send_task)
#define rxe_cc_resp_task(qp)	(&(qp)->recv_task)

/* RTR, RTS, SQD or SQE: what qp->resp.state == QP_STATE_READY meant. */
static inline bool rxe_cc_qp_resp_ready(struct rxe_qp *qp)
{
	enum ib_qp_state state = READ_ONCE(qp->attr.qp_state);

	return state >= IB_QPS_RTR && state < IB_QPS_ERR;
}
#else
#define rxe_cc_req_task(qp)	(&(qp)->req.task)
#define rxe_cc_resp_task(qp)	(&(qp)->resp.task)

static inline bool rxe_cc_qp_resp_ready(struct rxe_qp *qp)
{
	return qp->resp.state == QP_STATE_READY;
}
#endif

/* The device's netdev with a reference (rxe_cc_put_netdev()), or NULL. */
#if RXE_CC_SINCE(6, 12, 9)
static inline struct net_device *rxe_cc_get_netdev(struct rxe_dev *rxe)
{
	return ib_device_get_netdev(&rxe->ib_dev, 1);
}
#else
static inline struct net_device *rxe_cc_get_netdev(struct rxe_dev *rxe)
{
	dev_hold(rxe->ndev);
	return rxe->ndev;
}
#endif

static inline void rxe_cc_put_netdev(struct net_device *ndev)
{
	dev_put(ndev);
}

/*
 * The link settings of @ndev from a NETDEV_UP or NETDEV_CHANGE notifier
 * (RTNL held, and since 6.15 the instance lock of a device with locked
 * ops).
 */
#if RXE_CC_SINCE(6, 15, 0)
#include <linux/ethtool.h>
#include <net/netdev_lock.h>
static inline int
rxe_cc_notifier_link_ksettings(struct net_device *ndev,
			       struct ethtool_link_ksettings *lks)
{
	if (!netdev_need_ops_lock(ndev))
		return __ethtool_get_link_ksettings(ndev, lks);
	netdev_assert_locked(ndev);
	if (!ndev->ethtool_ops->get_link_ksettings)
		return -EOPNOTSUPP;
	memset(lks, 0, sizeof(*lks));
	return ndev->ethtool_ops->get_link_ksettings(ndev, lks);
}
#else
#define rxe_cc_notifier_link_ksettings __ethtool_get_link_ksettings
#endif

#if RXE_CC_SINCE(6, 13, 0)
#define rxe_cc_hrtimer_setup(timer, fn, clock, mode) \
	hrtimer_setup(timer, fn, clock, mode)
#else
static inline void
rxe_cc_hrtimer_setup(struct hrtimer *timer,
		     enum hrtimer_restart (*fn)(struct hrtimer *),
		     clockid_t clock, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
}
#endif

#if RXE_CC_SINCE(6, 10, 0)
#define rxe_cc_assign_str(field, src)	__assign_str(field)
#else
#define rxe_cc_assign_str(field, src)	__assign_str(field, src)
#endif

#if RXE_CC_SINCE(6, 2, 0)
#define RXE_CC_NEWER_OP_MASKS	(RXE_FLUSH_MASK | RXE_ATOMIC_WRITE_MASK)
#else
#define RXE_CC_NEWER_OP_MASKS	0
#endif

#ifdef __cond_acquires_impl_true
#define rxe_cc_cond_acquires(lock)	__cond_acquires(true, lock)
#else
#define rxe_cc_cond_acquires(lock)	__cond_acquires(lock)
#endif

#endif /* RXE_CC_COMPAT_H */

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_sysfs.c - congestion control knobs in
 *                  /sys/class/infiniband/DEV/ports/1/cc/
 *
 *   algorithm            default algorithm of new RC QPs (none|dcqcn|acc)
 *   available            the algorithms this module has
 *   prioN_algorithm      per priority N = DSCP >> 3 of the QP's traffic
 *                        class: "default" or an algorithm (the analogue of
 *                        mlx5's ecn/roce_rp/enable/<prio>)
 *   prioN_np             per priority: 1 (default) the notification point
 *                        answers marks (CNPs, mark echo), 0 it ignores
 *                        them (mlx5's ecn/roce_np/enable/<prio>)
 *   cnp_dscp, ack_dscp   0-63, or -1 (default): the QP's own DSCP
 *   acc_ack_every        receiver: the per-packet ACK run after a mark
 *                        (a clean path ACKs ~4 times a period), to a
 *                        sender that asked for the mark echo, [1, 64]
 *   acc_window_bytes     ACC's cap on bytes in flight at R = C, scaled
 *                        by R / C; 0 (default): none
 *   line_rate_mbps, pacer_burst_us, and the DCQCN (mlx5 names) and ACC
 *   knobs of the table below, in the units their names say.
 *
 * A write is parsed, applied to a copy of all knobs, and the copy checked
 * by the algorithm cores' own validators; a bad value returns -EINVAL and
 * changes nothing.  QPs read the knobs live, so a change applies at once,
 * except the algorithm choice, which a QP makes once when it enters RTS.
 * Documentation/ABI/testing/sysfs-class-infiniband-rxe-cc lists them all.
 *
 * They are a port group, as hfi1's congestion control tables are: rate
 * control is a property of the port, and rxe's device group is taken.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>
#include <rdma/ib_sysfs.h>

#include "rxe.h"
#include "rxe_loc.h"

#define RXE_CC_MAX_DSCP		63
#define RXE_CC_MAX_BURST_US	100000
/* The fastest Ethernet port rxe may be bound to: 800 Gb/s, with margin. */
#define RXE_CC_MAX_LINE_RATE_MBPS	1600000U

struct rxe_cc_knob {
	struct ib_port_attribute attr;
	size_t offset;		/* in struct rxe_cc_params */
	size_t size;		/* of that field: 1, 4 or 8 bytes */
	u64 scale;		/* field units per knob unit */
};

static struct rxe_dev *dev_to_rxe(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

static u64 knob_get(const struct rxe_cc_params *p, const struct rxe_cc_knob *k)
{
	const void *f = (const u8 *)p + k->offset;

	switch (k->size) {
	case 1:
		return READ_ONCE(*(const u8 *)f);
	case 4:
		return READ_ONCE(*(const u32 *)f);
	default:
		return READ_ONCE(*(const u64 *)f);
	}
}

static void knob_set(struct rxe_cc_params *p, const struct rxe_cc_knob *k,
		     u64 v)
{
	void *f = (u8 *)p + k->offset;

	switch (k->size) {
	case 1:
		WRITE_ONCE(*(u8 *)f, v);
		break;
	case 4:
		WRITE_ONCE(*(u32 *)f, v);
		break;
	default:
		WRITE_ONCE(*(u64 *)f, v);
	}
}

/*
 * Checks that no algorithm core makes: the device-level knobs.  The rate
 * knobs are checked against the fastest port rxe supports; each QP clamps
 * them to its own line rate when it reads them.
 */
static int rxe_cc_dev_params_check(const struct rxe_cc_params *p)
{
	struct rxe_cc_dcqcn_params dcqcn = p->dcqcn;
	struct rxe_cc_acc_params acc = p->acc;

	if (p->line_rate_mbps > RXE_CC_MAX_LINE_RATE_MBPS)
		return -EINVAL;
	if (!p->pacer_burst_us || p->pacer_burst_us > RXE_CC_MAX_BURST_US)
		return -EINVAL;
	if (!rxe_cc_in_range(p->ack_every, RXE_CC_ECHO_MIN_EVERY,
			     RXE_CC_ECHO_MAX_EVERY))
		return -EINVAL;
	dcqcn.line_rate_kbps = RXE_CC_MAX_LINE_RATE_MBPS * RXE_CC_DCQCN_KBPS_PER_MBPS;
	acc.line_rate_bps = RXE_CC_MAX_LINE_RATE_MBPS * RXE_CC_BPS_PER_MBPS;
	if (rxe_cc_dcqcn_params_check(&dcqcn) ||
	    rxe_cc_acc_params_check(&acc))
		return -EINVAL;
	return 0;
}

/*
 * Apply one validated write so that seqlock readers never see half of it.
 * Readers hold a QP's cc->lock, which the receive softirq and the soft
 * CC timer take: a writer interrupted by them on its own CPU, while
 * another CPU holds the same cc->lock and waits in read_seqbegin() for
 * the write to end, would deadlock.  So the write runs with bottom halves
 * off.  No reader runs in hard interrupt context.
 */
static void rxe_cc_params_write(struct rxe_dev *rxe,
				const struct rxe_cc_knob *k, u64 v)
{
	write_seqlock_bh(&rxe->cc.params_seq);
	knob_set(&rxe->cc.params, k, v);
	write_sequnlock_bh(&rxe->cc.params_seq);
}

static ssize_t knob_show(struct ib_device *dev, u32 port,
			 struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_knob *k = container_of(attr, struct rxe_cc_knob, attr);
	struct rxe_dev *rxe = dev_to_rxe(dev);

	return sysfs_emit(buf, "%llu\n",
			  div64_u64(knob_get(&rxe->cc.params, k), k->scale));
}

static ssize_t knob_store(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, const char *buf,
			  size_t count)
{
	struct rxe_cc_knob *k = container_of(attr, struct rxe_cc_knob, attr);
	struct rxe_dev *rxe = dev_to_rxe(dev);
	struct rxe_cc_params copy;
	u64 v, field_max;
	int err;

	/* a number past 64 bits is a bad value too, not ERANGE */
	if (kstrtou64(buf, 0, &v))
		return -EINVAL;
	field_max = k->size == 8 ? U64_MAX : (1ULL << (8 * k->size)) - 1;
	if (v > div64_u64(field_max, k->scale))
		return -EINVAL;
	v *= k->scale;

	mutex_lock(&rxe->cc.knob_lock);
	copy = rxe->cc.params;
	knob_set(&copy, k, v);
	err = rxe_cc_dev_params_check(&copy);
	if (!err)
		rxe_cc_params_write(rxe, k, v);
	mutex_unlock(&rxe->cc.knob_lock);

	return err ?: count;
}

#define RXE_CC_KNOB(_name, _field, _scale)				\
static struct rxe_cc_knob rxe_cc_knob_##_name = {			\
	.attr = __ATTR(_name, 0644, knob_show, knob_store),		\
	.offset = offsetof(struct rxe_cc_params, _field),		\
	.size = sizeof_field(struct rxe_cc_params, _field),		\
	.scale = (_scale),						\
}

#define NS_PER_US	1000ULL

RXE_CC_KNOB(line_rate_mbps, line_rate_mbps, 1);
RXE_CC_KNOB(pacer_burst_us, pacer_burst_us, 1);
/*
 * DCQCN, with NVIDIA's mlx5 names and units.  The core keeps rates in kb/s:
 * each mlx5 rate file (Mb/s) has a twin in kb/s over the same storage, so
 * that scaled test-bed values are exact.  A Mb/s file reads whole Mb/s,
 * rounded down.
 */
#define KBPS_PER_MBPS	RXE_CC_DCQCN_KBPS_PER_MBPS
RXE_CC_KNOB(rpg_ai_rate, dcqcn.rpg_ai_rate_kbps, KBPS_PER_MBPS);
RXE_CC_KNOB(rpg_ai_rate_kbps, dcqcn.rpg_ai_rate_kbps, 1);
RXE_CC_KNOB(rpg_hai_rate, dcqcn.rpg_hai_rate_kbps, KBPS_PER_MBPS);
RXE_CC_KNOB(rpg_hai_rate_kbps, dcqcn.rpg_hai_rate_kbps, 1);
RXE_CC_KNOB(rpg_time_reset, dcqcn.rpg_time_reset_us, 1);
RXE_CC_KNOB(rpg_byte_reset, dcqcn.rpg_byte_reset_bytes, 1);
RXE_CC_KNOB(rpg_threshold, dcqcn.rpg_threshold, 1);
RXE_CC_KNOB(rpg_min_rate, dcqcn.rpg_min_rate_kbps, KBPS_PER_MBPS);
RXE_CC_KNOB(rpg_min_rate_kbps, dcqcn.rpg_min_rate_kbps, 1);
RXE_CC_KNOB(rpg_max_rate, dcqcn.rpg_max_rate_kbps, KBPS_PER_MBPS);
RXE_CC_KNOB(rpg_max_rate_kbps, dcqcn.rpg_max_rate_kbps, 1);
RXE_CC_KNOB(rpg_min_dec_fac, dcqcn.rpg_min_dec_fac_pct, 1);
RXE_CC_KNOB(rpg_gd, dcqcn.rpg_gd, 1);
RXE_CC_KNOB(dce_tcp_g, dcqcn.dce_tcp_g, 1);
RXE_CC_KNOB(dce_tcp_rtt, dcqcn.dce_tcp_rtt_us, 1);
RXE_CC_KNOB(rate_reduce_monitor_period, dcqcn.rate_reduce_monitor_period_us, 1);
RXE_CC_KNOB(initial_alpha_value, dcqcn.initial_alpha_value, 1);
RXE_CC_KNOB(rate_to_set_on_first_cnp, dcqcn.rate_to_set_on_first_cnp_kbps,
	    KBPS_PER_MBPS);
RXE_CC_KNOB(rate_to_set_on_first_cnp_kbps, dcqcn.rate_to_set_on_first_cnp_kbps,
	    1);
RXE_CC_KNOB(clamp_tgt_rate, dcqcn.clamp_tgt_rate, 1);
RXE_CC_KNOB(min_time_between_cnps, dcqcn.min_time_between_cnps_us, 1);
/* ACC */
RXE_CC_KNOB(acc_period_us, acc.period_ns, NS_PER_US);
RXE_CC_KNOB(acc_halt_max_us, acc.halt_max_ns, NS_PER_US);
RXE_CC_KNOB(acc_base_rtt_us, acc.base_rtt_ns, NS_PER_US);
RXE_CC_KNOB(acc_min_rate_mbps, acc.min_rate_bps, RXE_CC_BPS_PER_MBPS);
RXE_CC_KNOB(acc_max_rate_mbps, acc.max_rate_bps, RXE_CC_BPS_PER_MBPS);
RXE_CC_KNOB(acc_start_rate_mbps, acc.start_rate_bps, RXE_CC_BPS_PER_MBPS);
RXE_CC_KNOB(acc_theta_ce_pct, acc.theta_ce_permille, 10);
RXE_CC_KNOB(acc_p_thresh, acc.p_thresh, 1);
RXE_CC_KNOB(acc_beta0_ppm, acc.beta0_ppm, 1);
RXE_CC_KNOB(acc_halt, acc.halt, 1);
RXE_CC_KNOB(acc_gate, acc.gate, 1);
RXE_CC_KNOB(acc_window_bytes, acc.window_bytes, 1);
RXE_CC_KNOB(acc_ack_every, ack_every, 1);

/* DSCP of ACKs and CNPs: 0-63, or -1 for the QP's own. */

struct rxe_cc_dscp_attr {
	struct ib_port_attribute attr;
	size_t offset;		/* of an s8 in struct rxe_cc_params */
};

static s8 *dscp_field(struct ib_device *dev, struct ib_port_attribute *attr)
{
	struct rxe_cc_dscp_attr *da =
		container_of(attr, struct rxe_cc_dscp_attr, attr);

	return (s8 *)((u8 *)&dev_to_rxe(dev)->cc.params + da->offset);
}

static ssize_t dscp_show(struct ib_device *dev, u32 port,
			 struct ib_port_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(*dscp_field(dev, attr)));
}

static ssize_t dscp_store(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, const char *buf,
			  size_t count)
{
	s8 v;

	if (kstrtos8(buf, 0, &v))
		return -EINVAL;
	if (v != RXE_CC_DSCP_OF_QP && (v < 0 || v > RXE_CC_MAX_DSCP))
		return -EINVAL;
	WRITE_ONCE(*dscp_field(dev, attr), v);
	return count;
}

#define RXE_CC_DSCP_ATTR(_name)						\
static struct rxe_cc_dscp_attr rxe_cc_##_name = {			\
	.attr = __ATTR(_name, 0644, dscp_show, dscp_store),		\
	.offset = offsetof(struct rxe_cc_params, _name),		\
}

RXE_CC_DSCP_ATTR(cnp_dscp);
RXE_CC_DSCP_ATTR(ack_dscp);

/* Algorithm choice: the default, and one per priority. */

static ssize_t algorithm_show(struct ib_device *dev, u32 port,
			      struct ib_port_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  rxe_cc_algo_name(READ_ONCE(dev_to_rxe(dev)->cc.params.algo)));
}

static ssize_t algorithm_store(struct ib_device *dev, u32 port,
			       struct ib_port_attribute *attr,
			       const char *buf, size_t count)
{
	int algo = rxe_cc_algo_by_name(buf);

	if (algo < 0)
		return algo;
	WRITE_ONCE(dev_to_rxe(dev)->cc.params.algo, algo);
	return count;
}
static IB_PORT_ATTR_RW(algorithm);

static ssize_t available_show(struct ib_device *dev, u32 port,
			      struct ib_port_attribute *attr, char *buf)
{
	return rxe_cc_algos_show(buf);
}
static IB_PORT_ATTR_RO(available);

struct rxe_cc_prio_attr {
	struct ib_port_attribute attr;
	unsigned int prio;
};

static ssize_t prio_algorithm_show(struct ib_device *dev, u32 port,
				   struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_prio_attr *pa =
		container_of(attr, struct rxe_cc_prio_attr, attr);
	int algo = READ_ONCE(dev_to_rxe(dev)->cc.params.prio_algo[pa->prio]);

	return sysfs_emit(buf, "%s\n", rxe_cc_algo_name(algo));
}

static ssize_t prio_algorithm_store(struct ib_device *dev, u32 port,
				    struct ib_port_attribute *attr,
				    const char *buf, size_t count)
{
	struct rxe_cc_prio_attr *pa =
		container_of(attr, struct rxe_cc_prio_attr, attr);
	int algo = sysfs_streq(buf, "default") ? RXE_CC_ALGO_DEFAULT :
						 rxe_cc_algo_by_name(buf);

	if (algo == -EINVAL)
		return -EINVAL;
	WRITE_ONCE(dev_to_rxe(dev)->cc.params.prio_algo[pa->prio], algo);
	return count;
}

static ssize_t prio_np_show(struct ib_device *dev, u32 port,
			    struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_prio_attr *pa =
		container_of(attr, struct rxe_cc_prio_attr, attr);
	u8 mask = READ_ONCE(dev_to_rxe(dev)->cc.params.np_prio_mask);

	return sysfs_emit(buf, "%d\n", !!(mask & BIT(pa->prio)));
}

static ssize_t prio_np_store(struct ib_device *dev, u32 port,
			     struct ib_port_attribute *attr, const char *buf,
			     size_t count)
{
	struct rxe_cc_prio_attr *pa =
		container_of(attr, struct rxe_cc_prio_attr, attr);
	struct rxe_dev *rxe = dev_to_rxe(dev);
	u8 on;

	/* exactly 0 or 1: kstrtobool() would take "1.5" or "none" */
	if (kstrtou8(buf, 0, &on) || on > 1)
		return -EINVAL;
	mutex_lock(&rxe->cc.knob_lock);
	if (on)
		WRITE_ONCE(rxe->cc.params.np_prio_mask,
			   rxe->cc.params.np_prio_mask | BIT(pa->prio));
	else
		WRITE_ONCE(rxe->cc.params.np_prio_mask,
			   rxe->cc.params.np_prio_mask & ~BIT(pa->prio));
	mutex_unlock(&rxe->cc.knob_lock);
	return count;
}

#define RXE_CC_PRIO_ATTR(_n)						\
static struct rxe_cc_prio_attr rxe_cc_prio##_n = {			\
	.attr = __ATTR(prio##_n##_algorithm, 0644,			\
		       prio_algorithm_show, prio_algorithm_store),	\
	.prio = _n,							\
};									\
static struct rxe_cc_prio_attr rxe_cc_prio##_n##_np = {		\
	.attr = __ATTR(prio##_n##_np, 0644, prio_np_show, prio_np_store), \
	.prio = _n,							\
}

RXE_CC_PRIO_ATTR(0);
RXE_CC_PRIO_ATTR(1);
RXE_CC_PRIO_ATTR(2);
RXE_CC_PRIO_ATTR(3);
RXE_CC_PRIO_ATTR(4);
RXE_CC_PRIO_ATTR(5);
RXE_CC_PRIO_ATTR(6);
RXE_CC_PRIO_ATTR(7);

static struct attribute *rxe_cc_attrs[] = {
	&ib_port_attr_algorithm.attr,
	&ib_port_attr_available.attr,
	&rxe_cc_prio0.attr.attr,
	&rxe_cc_prio1.attr.attr,
	&rxe_cc_prio2.attr.attr,
	&rxe_cc_prio3.attr.attr,
	&rxe_cc_prio4.attr.attr,
	&rxe_cc_prio5.attr.attr,
	&rxe_cc_prio6.attr.attr,
	&rxe_cc_prio7.attr.attr,
	&rxe_cc_prio0_np.attr.attr,
	&rxe_cc_prio1_np.attr.attr,
	&rxe_cc_prio2_np.attr.attr,
	&rxe_cc_prio3_np.attr.attr,
	&rxe_cc_prio4_np.attr.attr,
	&rxe_cc_prio5_np.attr.attr,
	&rxe_cc_prio6_np.attr.attr,
	&rxe_cc_prio7_np.attr.attr,
	&rxe_cc_knob_line_rate_mbps.attr.attr,
	&rxe_cc_knob_pacer_burst_us.attr.attr,
	&rxe_cc_cnp_dscp.attr.attr,
	&rxe_cc_ack_dscp.attr.attr,
	&rxe_cc_knob_rpg_ai_rate.attr.attr,
	&rxe_cc_knob_rpg_ai_rate_kbps.attr.attr,
	&rxe_cc_knob_rpg_hai_rate.attr.attr,
	&rxe_cc_knob_rpg_hai_rate_kbps.attr.attr,
	&rxe_cc_knob_rpg_time_reset.attr.attr,
	&rxe_cc_knob_rpg_byte_reset.attr.attr,
	&rxe_cc_knob_rpg_threshold.attr.attr,
	&rxe_cc_knob_rpg_min_rate.attr.attr,
	&rxe_cc_knob_rpg_min_rate_kbps.attr.attr,
	&rxe_cc_knob_rpg_max_rate.attr.attr,
	&rxe_cc_knob_rpg_max_rate_kbps.attr.attr,
	&rxe_cc_knob_rpg_min_dec_fac.attr.attr,
	&rxe_cc_knob_rpg_gd.attr.attr,
	&rxe_cc_knob_dce_tcp_g.attr.attr,
	&rxe_cc_knob_dce_tcp_rtt.attr.attr,
	&rxe_cc_knob_rate_reduce_monitor_period.attr.attr,
	&rxe_cc_knob_initial_alpha_value.attr.attr,
	&rxe_cc_knob_rate_to_set_on_first_cnp.attr.attr,
	&rxe_cc_knob_rate_to_set_on_first_cnp_kbps.attr.attr,
	&rxe_cc_knob_clamp_tgt_rate.attr.attr,
	&rxe_cc_knob_min_time_between_cnps.attr.attr,
	&rxe_cc_knob_acc_period_us.attr.attr,
	&rxe_cc_knob_acc_halt_max_us.attr.attr,
	&rxe_cc_knob_acc_base_rtt_us.attr.attr,
	&rxe_cc_knob_acc_min_rate_mbps.attr.attr,
	&rxe_cc_knob_acc_max_rate_mbps.attr.attr,
	&rxe_cc_knob_acc_start_rate_mbps.attr.attr,
	&rxe_cc_knob_acc_theta_ce_pct.attr.attr,
	&rxe_cc_knob_acc_p_thresh.attr.attr,
	&rxe_cc_knob_acc_beta0_ppm.attr.attr,
	&rxe_cc_knob_acc_halt.attr.attr,
	&rxe_cc_knob_acc_gate.attr.attr,
	&rxe_cc_knob_acc_window_bytes.attr.attr,
	&rxe_cc_knob_acc_ack_every.attr.attr,
	NULL,
};

static const struct attribute_group rxe_cc_attr_group = {
	.name = "cc",
	.attrs = rxe_cc_attrs,
};

const struct attribute_group *rxe_cc_port_groups[] = {
	&rxe_cc_attr_group,
	NULL,
};

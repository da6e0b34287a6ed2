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
 *   knobs                every numeric knob, one line each:
 *                        "name unit min max default group", unit "-"
 *                        for none, group "device" or the algorithm, and
 *                        a last word "experimental" for the knobs of
 *                        ../cc_experimental/
 *   the numeric knobs    the device's (line rate, pacer, receiver) and
 *                        every algorithm's, from the rows of its ops
 *                        table, in the units their names say
 *
 * ports/1/cc_experimental/ holds the knobs of research ablations (rows
 * flagged RXE_CC_KNOB_EXPERIMENTAL): their names and meaning may change.
 *
 * Every write takes one path: parsed, checked against its row's range
 * and, for an algorithm's knob, by the algorithm's own check of all its
 * knobs with the new value; a bad value returns -EINVAL and changes
 * nothing.  Writes are serialised by knob_lock and published under the
 * knobs' seqlock.  QPs read the knobs live, so a change applies at once,
 * except the algorithm choice, which a QP makes once when it enters RTS.
 * Documentation/ABI/testing/sysfs-class-infiniband-rxe-cc lists them all.
 *
 * They are port groups, as hfi1's congestion control tables are: rate
 * control is a property of the port, and rxe's device group is taken.
 */

#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <rdma/ib_sysfs.h>

#include "rxe.h"
#include "rxe_loc.h"

#define RXE_CC_MAX_DSCP		63
#define RXE_CC_MAX_BURST_US	100000

static struct rxe_dev *dev_to_rxe(struct ib_device *ibdev)
{
	return container_of(ibdev, struct rxe_dev, ib_dev);
}

/**
 * rxe_cc_knob_write - set one field of a device's knobs
 * @rxe: the device
 * @offset: of the field in struct rxe_cc_params
 * @size: of the field: 1, 4 or 8 bytes
 * @v: its new value
 * @key: the algorithm whose knob it is, checked with the new value by its
 *	params_check(); RXE_CC_ALGO_NONE for a device knob
 *
 * The one write path of every knob.  Seqlock readers hold a QP's
 * cc->lock, which the receive softirq and the soft CC timer take: a writer
 * interrupted by them on its own CPU, while another CPU holds the same
 * cc->lock and waits in read_seqbegin() for the write to end, would
 * deadlock.  So the write runs with bottom halves off.  No reader runs in
 * hard interrupt context.  Caller holds knob_lock.
 */
static int rxe_cc_knob_write(struct rxe_dev *rxe, size_t offset, u32 size,
			     u64 v, int key)
{
	struct rxe_cc_params *p = &rxe->cc.params;
	const struct rxe_cc_ops *ops = rxe_cc_algo(key);

	lockdep_assert_held(&rxe->cc.knob_lock);
	if (ops) {
		u64 copy[RXE_CC_PARAMS_U64];
		size_t base = offsetof(struct rxe_cc_params, algo_knobs[key]);

		memcpy(copy, p->algo_knobs[key], sizeof(copy));
		rxe_cc_field_set(copy, offset - base, size, v);
		if (ops->params_check(copy))
			return -EINVAL;
	}
	write_seqlock_bh(&rxe->cc.params_seq);
	rxe_cc_field_set(p, offset, size, v);
	write_sequnlock_bh(&rxe->cc.params_seq);
	return 0;
}

static int rxe_cc_knob_write_one(struct rxe_dev *rxe, size_t offset,
				 u32 size, u64 v, int key)
{
	int err;

	mutex_lock(&rxe->cc.knob_lock);
	err = rxe_cc_knob_write(rxe, offset, size, v, key);
	mutex_unlock(&rxe->cc.knob_lock);
	return err;
}

/* A numeric knob: a row of the device's table or of an algorithm's. */
struct rxe_cc_knob_attr {
	struct ib_port_attribute attr;
	const struct rxe_cc_knob *row;
	size_t base;		/* of the row's fields in struct rxe_cc_params */
	int key;		/* the row's algorithm, or RXE_CC_ALGO_NONE */
};

#define DEV_KNOB(_name, _field, _unit, _min, _max)			\
	RXE_CC_KNOB_ROW(struct rxe_cc_params, _name, _field, _unit, 1,	\
			_min, _max, 0)

/*
 * The device's knobs.  acc_ack_every and min_time_between_cnps are the
 * receiver's: how it echoes marks and how often it sends CNPs, whatever
 * its own QPs run.
 */
static const struct rxe_cc_knob rxe_cc_dev_knobs[] = {
	DEV_KNOB("line_rate_mbps", line_rate_mbps, "Mb/s",
		 0, RXE_CC_MAX_LINE_RATE_MBPS),
	DEV_KNOB("pacer_burst_us", pacer_burst_us, "us",
		 1, RXE_CC_MAX_BURST_US),
	DEV_KNOB("acc_ack_every", ack_every, "packets",
		 RXE_CC_ECHO_MIN_EVERY, RXE_CC_ECHO_MAX_EVERY),
	DEV_KNOB("min_time_between_cnps", np_cnp_gap_us, "us",
		 0, RXE_CC_NP_MAX_CNP_GAP_US),
};

static ssize_t knob_show(struct ib_device *dev, u32 port,
			 struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_knob_attr *ka =
		container_of(attr, struct rxe_cc_knob_attr, attr);
	const struct rxe_cc_knob *row = ka->row;

	return sysfs_emit(buf, "%llu\n",
			  div64_u64(rxe_cc_field_get(&dev_to_rxe(dev)->cc.params,
					      ka->base + row->offset, row->size),
				    row->scale));
}

static ssize_t knob_store(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, const char *buf,
			  size_t count)
{
	struct rxe_cc_knob_attr *ka =
		container_of(attr, struct rxe_cc_knob_attr, attr);
	const struct rxe_cc_knob *row = ka->row;
	u64 v;
	int err;

	/* a number past 64 bits is a bad value too, not ERANGE */
	if (kstrtou64(buf, 0, &v) || v < row->min || v > row->max)
		return -EINVAL;
	err = rxe_cc_knob_write_one(dev_to_rxe(dev), ka->base + row->offset,
				    row->size, v * row->scale, ka->key);
	return err ?: count;
}

/* DSCP of ACKs and CNPs: 0-63, or -1 for the QP's own. */

struct rxe_cc_dscp_attr {
	struct ib_port_attribute attr;
	size_t offset;		/* of an s8 in struct rxe_cc_params */
};

static ssize_t dscp_show(struct ib_device *dev, u32 port,
			 struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_dscp_attr *da =
		container_of(attr, struct rxe_cc_dscp_attr, attr);

	return sysfs_emit(buf, "%d\n",
			  (s8)rxe_cc_field_get(&dev_to_rxe(dev)->cc.params,
					da->offset, 1));
}

static ssize_t dscp_store(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, const char *buf,
			  size_t count)
{
	struct rxe_cc_dscp_attr *da =
		container_of(attr, struct rxe_cc_dscp_attr, attr);
	s8 v;
	int err;

	if (kstrtos8(buf, 0, &v))
		return -EINVAL;
	if (v != RXE_CC_DSCP_OF_QP && (v < 0 || v > RXE_CC_MAX_DSCP))
		return -EINVAL;
	err = rxe_cc_knob_write_one(dev_to_rxe(dev), da->offset, 1, (u8)v,
				    RXE_CC_ALGO_NONE);
	return err ?: count;
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
	int err;

	if (algo < 0)
		return algo;
	err = rxe_cc_knob_write_one(dev_to_rxe(dev),
				    offsetof(struct rxe_cc_params, algo), 1,
				    algo, RXE_CC_ALGO_NONE);
	return err ?: count;
}
static IB_PORT_ATTR_RW(algorithm);

static ssize_t available_show(struct ib_device *dev, u32 port,
			      struct ib_port_attribute *attr, char *buf)
{
	return rxe_cc_algos_show(buf);
}
static IB_PORT_ATTR_RO(available);

/*
 * Every numeric knob with its unit, range, default and owner, so that
 * tools need no table of their own:
 * "name unit min max default group [experimental]".
 */
static ssize_t knobs_show(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, char *buf);
static IB_PORT_ATTR_RO(knobs);

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
	int err;

	if (algo == -EINVAL)
		return -EINVAL;
	err = rxe_cc_knob_write_one(dev_to_rxe(dev),
				    offsetof(struct rxe_cc_params,
					     prio_algo[pa->prio]),
				    1, (u8)algo, RXE_CC_ALGO_NONE);
	return err ?: count;
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
	u8 on, mask;
	int err;

	/* exactly 0 or 1: kstrtobool() would take "1.5" or "none" */
	if (kstrtou8(buf, 0, &on) || on > 1)
		return -EINVAL;
	mutex_lock(&rxe->cc.knob_lock);
	mask = rxe->cc.params.np_prio_mask;
	mask = on ? mask | BIT(pa->prio) : mask & ~BIT(pa->prio);
	err = rxe_cc_knob_write(rxe, offsetof(struct rxe_cc_params,
					      np_prio_mask),
				1, mask, RXE_CC_ALGO_NONE);
	mutex_unlock(&rxe->cc.knob_lock);
	return err ?: count;
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

/* The attributes that are not rows of a knob table. */
static struct attribute *rxe_cc_fixed_attrs[] = {
	&ib_port_attr_algorithm.attr,
	&ib_port_attr_available.attr,
	&ib_port_attr_knobs.attr,
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
	&rxe_cc_cnp_dscp.attr.attr,
	&rxe_cc_ack_dscp.attr.attr,
};

/* Made by rxe_cc_sysfs_init() from the knob rows, once, at module load. */
static struct rxe_cc_knob_attr *rxe_cc_knob_attrs;
static unsigned int rxe_cc_n_knob_attrs;
static struct attribute_group rxe_cc_attr_group = { .name = "cc" };
static struct attribute_group rxe_cc_exp_group = { .name = "cc_experimental" };

const struct attribute_group *rxe_cc_port_groups[] = {
	&rxe_cc_attr_group,
	&rxe_cc_exp_group,
	NULL,
};

static ssize_t knobs_show(struct ib_device *dev, u32 port,
			  struct ib_port_attribute *attr, char *buf)
{
	struct rxe_cc_params *def = kmalloc(sizeof(*def), GFP_KERNEL);
	const struct rxe_cc_knob_attr *ka;
	const struct rxe_cc_knob *row;
	unsigned int i;
	int len = 0;

	if (!def)
		return -ENOMEM;
	rxe_cc_params_default(def);
	for (i = 0; i < rxe_cc_n_knob_attrs; i++) {
		ka = &rxe_cc_knob_attrs[i];
		row = ka->row;
		len += sysfs_emit_at(buf, len, "%s %s %llu %llu %llu %s%s\n",
				     row->name, row->unit[0] ? row->unit : "-",
				     row->min, row->max,
				     div64_u64(rxe_cc_field_get(def, ka->base + row->offset,
							 row->size),
					       row->scale),
				     ka->key ? rxe_cc_algo_name(ka->key) : "device",
				     row->flags & RXE_CC_KNOB_EXPERIMENTAL ?
				     " experimental" : "");
	}
	kfree(def);
	return len;
}

static void rxe_cc_knob_attr_init(struct rxe_cc_knob_attr *ka,
				  const struct rxe_cc_knob *row, int key)
{
	sysfs_attr_init(&ka->attr.attr);
	ka->attr.attr.name = row->name;
	ka->attr.attr.mode = 0644;
	ka->attr.show = knob_show;
	ka->attr.store = knob_store;
	ka->row = row;
	ka->key = key;
	ka->base = key == RXE_CC_ALGO_NONE ? 0 :
		   offsetof(struct rxe_cc_params, algo_knobs[key]);
}

/**
 * rxe_cc_sysfs_init - make the knob files from the knob rows
 *
 * The device's rows and every algorithm's, in the groups cc/ and, for the
 * rows flagged experimental, cc_experimental/.  Runs once at module load,
 * before any device exists.
 */
int rxe_cc_sysfs_init(void)
{
	unsigned int n = ARRAY_SIZE(rxe_cc_dev_knobs), n_fixed, i, j, e;
	struct attribute **attrs, **exp;
	const struct rxe_cc_ops *ops;
	int key;

	rxe_cc_for_each_algo(key, ops)
		n += ops->n_knobs;
	rxe_cc_knob_attrs = kcalloc(n, sizeof(*rxe_cc_knob_attrs), GFP_KERNEL);
	n_fixed = ARRAY_SIZE(rxe_cc_fixed_attrs);
	attrs = kcalloc(n_fixed + n + 1, sizeof(*attrs), GFP_KERNEL);
	exp = kcalloc(n + 1, sizeof(*exp), GFP_KERNEL);
	if (!rxe_cc_knob_attrs || !attrs || !exp) {
		kfree(rxe_cc_knob_attrs);
		kfree(attrs);
		kfree(exp);
		return -ENOMEM;
	}

	for (i = 0; i < ARRAY_SIZE(rxe_cc_dev_knobs); i++)
		rxe_cc_knob_attr_init(&rxe_cc_knob_attrs[i],
				      &rxe_cc_dev_knobs[i], RXE_CC_ALGO_NONE);
	rxe_cc_for_each_algo(key, ops)
		for (j = 0; j < ops->n_knobs; j++)
			rxe_cc_knob_attr_init(&rxe_cc_knob_attrs[i++],
					      &ops->knobs[j], key);
	rxe_cc_n_knob_attrs = n;

	memcpy(attrs, rxe_cc_fixed_attrs, sizeof(rxe_cc_fixed_attrs));
	for (i = 0, j = n_fixed, e = 0; i < n; i++) {
		if (rxe_cc_knob_attrs[i].row->flags & RXE_CC_KNOB_EXPERIMENTAL)
			exp[e++] = &rxe_cc_knob_attrs[i].attr.attr;
		else
			attrs[j++] = &rxe_cc_knob_attrs[i].attr.attr;
	}
	rxe_cc_attr_group.attrs = attrs;
	rxe_cc_exp_group.attrs = exp;
	return 0;
}

void rxe_cc_sysfs_exit(void)
{
	kfree(rxe_cc_attr_group.attrs);
	kfree(rxe_cc_exp_group.attrs);
	kfree(rxe_cc_knob_attrs);
	rxe_cc_attr_group.attrs = NULL;
	rxe_cc_exp_group.attrs = NULL;
	rxe_cc_knob_attrs = NULL;
}

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc.c - per-QP congestion control for rdma_rxe: the framework.
 *
 * See rxe_cc.h for the hooks and the locking.  What happens to a packet:
 *
 *   requester ──rxe_cc_req_wait()── room in the window? ──no──> the ACK
 *       │                               pacer has credit? ──no──> pace_timer
 *       │                                yes                    │
 *       ▼                                                       │
 *   rxe_cc_req_sent(): consume credit, record the packet in the request
 *       │               ring (before xmit), W += bytes
 *       ... network (ECT(0) set by rxe_cc_tos(), marks by switches) ...
 *   rxe_cc_rcv_ack(): retire the packets acked, RTT of the newest, mark
 *       └─> ops->on_ack() ─> rate ─> pacer ─> resume the waiting tasks
 *       └─> room in the window ─> resume the tasks it held
 *   cc_timer: ops->on_timer() for periods, halts and increase timers
 *
 * Read responses take the same path from the responder: rxe_cc_resp_wait()
 * and rxe_cc_resp_sent() with the response ring, and read ACKs from the
 * requester (rxe_cc_rcv_ctrl()) instead of ACKs.
 *
 * The algorithm picks a rate; the framework turns it into pacing.  Rate 0
 * means halted: no task is resumed until the rate is non-zero.  An
 * algorithm may also cap the bytes in flight (ops->window_bytes): see
 * rxe_cc_window_admits() for what the cap holds and what lets it go.
 */

#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/rtnetlink.h>
#include <net/inet_ecn.h>
#include <rdma/restrack.h>

#include "rxe.h"
#include "rxe_loc.h"
#include "rxe_hw_counters.h"
#include "rxe_cc_compat.h"

#define CREATE_TRACE_POINTS
#include "rxe_cc_trace.h"

/* The smallest pacer bucket, in full-size packets (see pacer_burst_us). */
#define RXE_CC_BURST_PKTS		2
/*
 * Default of the pacer_burst_us knob: the pacer keeps this much sending
 * time (at the QP's rate) as credit, so that a late timer (hrtimers wake
 * tens of microseconds late on a busy host, milliseconds under emulation)
 * does not cost throughput.
 */
#define RXE_CC_DEFAULT_BURST_US		1000
/* A paced QP asks for an ACK at least every timeout / this. */
#define RXE_CC_ACK_TIMEOUT_FRACTION	4
/* A read response waits for the pacer at most the timeout / this. */
#define RXE_CC_RESP_GAP_FRACTION	4
/* Speed assumed when neither the knob nor ethtool tells one. */
#define RXE_CC_DEFAULT_LINE_RATE_MBPS	10000
/*
 * Read responses nothing acknowledged for this long leave the response
 * ring (rxe_cc_resp_expire_ns()) when the QP has no transport timeout.
 */
#define RXE_CC_RESP_EXPIRE_MS		100

static_assert(RXE_MAX_UNACKED_PSNS < RXE_CC_REQ_SLOTS);
static_assert((RXE_CC_REQ_SLOTS & (RXE_CC_REQ_SLOTS - 1)) == 0);
static_assert((RXE_CC_RESP_SLOTS & (RXE_CC_RESP_SLOTS - 1)) == 0);

/*
 * The algorithms: the built-in table, checked once at module load.  It
 * never changes after that, so readers need no lock.  Keys are small, so
 * that the knobs can store them in a byte; key 0 is "none".
 */
static unsigned int rxe_cc_n_algos;

/* The algorithm with key @key, NULL for none or an unknown key. */
const struct rxe_cc_ops *rxe_cc_algo(int key)
{
	if (key <= RXE_CC_ALGO_NONE || key > rxe_cc_n_algos)
		return NULL;
	return rxe_cc_builtin[key - 1];
}

static int rxe_cc_key_of(const struct rxe_cc_ops *ops)
{
	const struct rxe_cc_ops *o;
	int key;

	rxe_cc_for_each_algo(key, o)
		if (o == ops)
			return key;
	return RXE_CC_ALGO_NONE;
}

/* An ops table the framework can run: the required hooks, sizes, name. */
static bool rxe_cc_ops_valid(const struct rxe_cc_ops *ops)
{
	return ops->name && ops->name[0] && ops->params_default &&
	       ops->params_check && ops->derive && ops->init &&
	       ops->rate_bps && (ops->on_ack || ops->on_cnp) &&
	       ops->params_size <= RXE_CC_PARAMS_SIZE &&
	       ops->priv_size <= RXE_CC_PRIV_SIZE &&
	       (!ops->n_stats || ops->stats) &&
	       ops->n_stats <= RXE_CC_MAX_STATS &&
	       strcmp(ops->name, "none") && strcmp(ops->name, "default");
}

int rxe_cc_init(void)
{
	const struct rxe_cc_ops *ops;
	unsigned int n;

	for (n = 0; (ops = rxe_cc_builtin[n]); n++) {
		if (n + 1 >= RXE_CC_MAX_ALGOS || !rxe_cc_ops_valid(ops)) {
			pr_err("rxe_cc: algorithm %u (%s) is not usable\n", n,
			       ops->name ?: "?");
			return -EINVAL;
		}
	}
	rxe_cc_n_algos = n;
	return rxe_cc_sysfs_init();
}

void rxe_cc_exit(void)
{
	rxe_cc_sysfs_exit();
}

/* Name of the algorithm with key @key, for the knobs. */
const char *rxe_cc_algo_name(int key)
{
	const struct rxe_cc_ops *ops;

	if (key == RXE_CC_ALGO_DEFAULT)
		return "default";
	ops = rxe_cc_algo(key);
	return ops ? ops->name : "none";
}

/* Key of the algorithm named @buf (sysfs input), or -EINVAL. */
int rxe_cc_algo_by_name(const char *buf)
{
	const struct rxe_cc_ops *ops;
	int key;

	if (sysfs_streq(buf, "none"))
		return RXE_CC_ALGO_NONE;
	rxe_cc_for_each_algo(key, ops)
		if (sysfs_streq(buf, ops->name))
			return key;
	return -EINVAL;
}

/*
 * Read the speed of @ndev, the device's netdev.  ethtool needs RTNL;
 * @notifier says that the caller is a NETDEV_UP or NETDEV_CHANGE
 * notifier, which on 6.15 and later also holds the instance lock of a
 * device with locked ops.  A netdev that reports no speed (a link that is
 * down) leaves the last one read.
 */
static void rxe_cc_read_speed(struct rxe_dev *rxe, struct net_device *ndev,
			      bool notifier)
{
	struct ethtool_link_ksettings lks;
	int err;

	ASSERT_RTNL();
	if (notifier)
		err = rxe_cc_notifier_link_ksettings(ndev, &lks);
	else
		err = __ethtool_get_link_ksettings(ndev, &lks);
	if (!err && lks.base.speed != SPEED_UNKNOWN && lks.base.speed)
		WRITE_ONCE(rxe->cc.speed_mbps, lks.base.speed);
}

/* "none" and every registered algorithm, for the available knob. */
int rxe_cc_algos_show(char *buf)
{
	const struct rxe_cc_ops *ops;
	int key, len;

	len = sysfs_emit(buf, "none");
	rxe_cc_for_each_algo(key, ops)
		len += sysfs_emit_at(buf, len, " %s", ops->name);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

/* The knobs of a new device: every algorithm's defaults, stock rxe. */
void rxe_cc_params_default(struct rxe_cc_params *p)
{
	const struct rxe_cc_ops *ops;
	int i;

	memset(p, 0, sizeof(*p));
	rxe_cc_for_each_algo(i, ops)
		ops->params_default(p->algo_knobs[i]);
	p->line_rate_mbps = 0;
	p->pacer_burst_us = RXE_CC_DEFAULT_BURST_US;
	p->np_cnp_gap_us = RXE_CC_NP_DEF_CNP_GAP_US;
	/* ACKs and CNPs stay in the QP's (lossless) class unless asked */
	p->cnp_dscp = RXE_CC_DSCP_OF_QP;
	p->ack_dscp = RXE_CC_DSCP_OF_QP;
	/* Stock behaviour until an administrator asks for more. */
	p->algo = RXE_CC_ALGO_NONE;
	/* A receiver answers marks on every priority, as mlx5's roce_np. */
	p->np_prio_mask = GENMASK(RXE_CC_NUM_PRIO - 1, 0);
	p->ack_every = RXE_CC_ECHO_DEF_EVERY;
	for (i = 0; i < RXE_CC_NUM_PRIO; i++)
		p->prio_algo[i] = RXE_CC_ALGO_DEFAULT;
}

/**
 * rxe_cc_dev_init - a device is created: default knobs and the line rate
 * @rxe: the device
 * @ndev: its netdev, which the caller holds
 *
 * Runs before the device is registered: on 6.12 and later its port has
 * no netdev yet (ib_device_get_netdev() returns NULL), so the speed is
 * read from @ndev itself.
 */
void rxe_cc_dev_init(struct rxe_dev *rxe, struct net_device *ndev)
{
	mutex_init(&rxe->cc.knob_lock);
	seqlock_init(&rxe->cc.params_seq);
	rxe_cc_params_default(&rxe->cc.params);

	/* device creation runs in process context without RTNL */
	rtnl_lock();
	rxe_cc_read_speed(rxe, ndev, false);
	rtnl_unlock();
}

/**
 * rxe_cc_netdev_event - the netdev came up or changed: re-read its speed
 * @rxe: the device
 *
 * Called from the NETDEV_UP and NETDEV_CHANGE notifier only (RTNL held;
 * the instance lock too for a device with locked ops on 6.15+).  QPs read
 * the speed from here when they start, and never take RTNL themselves.
 */
void rxe_cc_netdev_event(struct rxe_dev *rxe)
{
	struct net_device *ndev = rxe_cc_get_netdev(rxe);

	if (!ndev)
		return;
	rxe_cc_read_speed(rxe, ndev, true);
	rxe_cc_put_netdev(ndev);
}

/*
 * The algorithm's knobs as @qp uses them, in cc->params (snd.params).
 * The device's knobs, clamped to the QP's line rate and transport timer
 * by the algorithm's derive(), are derived once per knob write, not on
 * every packet: the cache is keyed on the device's knob sequence (always
 * even once read; odd marks it stale, see rxe_cc_qp_start()) and on the
 * QP's retransmit timeout, which a modify may change at any time.  The
 * copy is taken inside the sequence: a knob write changes one field, but
 * the cores check fields against each other (min <= max), so a QP must
 * never mix two writes.  A QP without a timeout is taken to have the
 * shortest an rxe requester runs, one jiffy: a READ responder left in RTR
 * still answers a requester that has one.  Lock held.
 */
static void rxe_cc_qp_params(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;
	struct rxe_cc_dev *dev = &rxe_cc_qp_dev(qp)->cc;
	unsigned long timeout = READ_ONCE(qp->qp_timeout_jiffies);
	unsigned int seq = read_seqbegin(&dev->params_seq);

	lockdep_assert_held(&cc->lock);
	if (likely(seq == cc->params_seq &&
		   timeout == cc->params_timeout_jiffies))
		return;

	cc->params_timeout_jiffies = timeout;
	cc->snd.rto_ns = jiffies_to_nsecs(timeout ?: 1);
	do {
		seq = read_seqbegin(&dev->params_seq);
		cc->ops->derive(&cc->snd, cc->knobs, cc->params);
	} while (read_seqretry(&dev->params_seq, seq));
	cc->params_seq = seq;
}

/*
 * The QP as its algorithm sees it, up to date for the next hook: its
 * knobs, W, the frame size, no events yet.  Lock held.
 */
static struct rxe_cc_sender *rxe_cc_sender_of(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;

	rxe_cc_qp_params(qp);
	cc->snd.inflight_bytes = rxe_cc_inflight_bytes(cc);
	cc->snd.frame_bytes = rxe_cc_frame_bytes(qp);
	cc->snd.events = 0;
	return &cc->snd;
}

/* Counters and trace events for what the last hook reported; lock held. */
static void rxe_cc_report(struct rxe_qp *qp)
{
	const struct rxe_cc_sender *s = &qp->cc->snd;
	const struct rxe_cc_report *rep = &s->report;
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);

	if (!s->events)
		return;
	if (s->events & RXE_CC_EV_PERIOD)
		trace_rxe_cc_period(qp, &rep->period);
	if (s->events & RXE_CC_EV_HALT) {
		rxe_counter_inc(rxe, RXE_CNT_ACC_HALTS);
		trace_rxe_cc_halt(qp, &rep->halt);
	}
	if (s->events & RXE_CC_EV_HALT_END)
		trace_rxe_cc_halt_end(qp, rep->halt_early, rep->rate_bps);
	if (s->events & RXE_CC_EV_BACKOFF)
		rxe_counter_inc(rxe, RXE_CNT_ACC_VICTIM_BACKOFFS);
	if (s->events & RXE_CC_EV_CNP_HANDLED) {
		rxe_counter_inc(rxe, RXE_CNT_RP_CNP_HANDLED);
		trace_rxe_cc_cnp(qp, RXE_CC_CNP_HANDLED, rep->alpha);
	}
	if (s->events & RXE_CC_EV_CNP_IGNORED) {
		rxe_counter_inc(rxe, RXE_CNT_RP_CNP_IGNORED);
		trace_rxe_cc_cnp(qp, RXE_CC_CNP_IGNORED, rep->alpha);
	}
}

/* Let the tasks the pacer held (RXE_CC_WAIT_* bits of @waiters) run. */
static void rxe_cc_wake(struct rxe_qp *qp, unsigned long waiters)
{
	if (waiters & BIT(RXE_CC_WAIT_REQ))
		rxe_sched_task(rxe_cc_req_task(qp));
	if (waiters & BIT(RXE_CC_WAIT_RESP))
		rxe_sched_task(rxe_cc_resp_task(qp));
}

/*
 * The timers hold no reference on their QP.  A destroy drops the last one
 * before rxe_qp_do_cleanup() cancels them (rxe_cc_qp_stop()), and in that
 * window a callback must not schedule the QP's tasks: since 6.4 that
 * takes a reference, from zero (a refcount_t warning and a leaked QP).
 * Both callbacks therefore start with rxe_get(): a callback that finds
 * the count at zero has nothing left to do.
 *
 * The pace timer is a hard timer, so it does not take cc->lock, which is
 * only ever taken with softirqs off: pace_waiters is atomic for it.  A
 * waiter that rxe_cc_wait() adds after the exchange armed a timer of its
 * own.
 */
static enum hrtimer_restart rxe_cc_pace_timer_fn(struct hrtimer *t)
{
	struct rxe_cc_qp *cc = container_of(t, struct rxe_cc_qp, pace_timer);
	struct rxe_qp *qp = cc->qp;
	unsigned long waiters;

	if (!rxe_get(qp))
		return HRTIMER_NORESTART;

	waiters = xchg(&cc->pace_waiters, 0);
	if (!READ_ONCE(cc->stopped))
		rxe_cc_wake(qp, waiters);
	rxe_put(qp);
	return HRTIMER_NORESTART;
}

static void rxe_cc_arm_timer(struct rxe_qp *qp);

/*
 * How long read responses may wait for their read ACK.  Nothing
 * retransmits a read ACK: once the last one is lost (or the requester
 * stops acknowledging: its notification point switched off, the QP
 * destroyed), only time tells.  The requester's retransmit timer is the
 * bound the transport itself uses: a READ it has not seen answered by
 * then it asks for again, and the responder answers anew.  The responder
 * does not know the requester's timer; both ends of a connection get the
 * same timeout from the connection manager, so the QP's own stands for
 * it, and a QP without one (a READ responder left in RTR) waits
 * RXE_CC_RESP_EXPIRE_MS.
 */
static u64 rxe_cc_resp_expire_ns(struct rxe_qp *qp)
{
	unsigned long timeout = READ_ONCE(qp->qp_timeout_jiffies);

	return timeout ? jiffies_to_nsecs(timeout) :
			 (u64)RXE_CC_RESP_EXPIRE_MS * NSEC_PER_MSEC;
}

/* Forget read responses whose read ACKs are lost for good; lock held. */
static void rxe_cc_resp_expire(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_qp *cc = qp->cc;
	u64 bytes = rxe_cc_ring_expire(&cc->resp, now,
				       rxe_cc_resp_expire_ns(qp));

	if (bytes)
		trace_rxe_cc_resp_expired(qp, cc->resp.next_psn, bytes);
}

/*
 * The algorithm's cap on the bytes in flight, U64_MAX for none; lock held.
 * It also tells the lockless path of rxe_cc_wait() whether there is one:
 * a knob that switches the cap on holds from the QP's next
 * acknowledgment, timer or locked wait on.
 */
static u64 rxe_cc_window(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;
	u64 win = cc->ops->window_bytes ?
		  cc->ops->window_bytes(rxe_cc_sender_of(qp)) : U64_MAX;

	if (cc->windowed != (win != U64_MAX))
		WRITE_ONCE(cc->windowed, win != U64_MAX);
	return win;
}

/*
 * May a new packet of @bytes that @who sends join what is in flight under
 * the cap @win?  Lock held.  A retransmission adds nothing in flight and
 * is never asked about (rxe_cc_wait()): the transport's retry always runs.
 *
 * A request counts W, both directions (they share the path and the
 * pacer).  A read response counts only the read responses in flight: the
 * peer acknowledges this QP's requests in order, so those behind one of
 * its READs wait for that READ's responses; were the responses held for
 * the requests, the two ends of a connection that both read and write
 * could hold each other for good.  Read ACKs come from the peer's receive
 * path, which waits for nothing.  Read responses count, and are held,
 * only once the peer acknowledges them: nothing else would make room.
 *
 * Nothing in flight: the packet goes, however small the cap.  And the
 * cap holds only while acknowledgments come: requests acknowledged by
 * nothing for the transport timeout (100 ms for a QP without one, see
 * rxe_cc_resp_expire_ns()) hold no one any more, so that a QP without a
 * retransmit timer, whose lost tail only a new packet reveals (the
 * responder NAKs the gap), is not held for ever.  Read responses expire
 * from the ring after that time (rxe_cc_resp_expire()).
 */
static bool rxe_cc_window_admits(struct rxe_qp *qp, int who, u32 bytes,
				 u64 win, u64 now)
{
	struct rxe_cc_qp *cc = qp->cc;
	u64 w;

	if (who == RXE_CC_WAIT_RESP) {
		if (!cc->read_acks)
			return true;
		w = cc->resp.inflight_bytes;
	} else {
		w = rxe_cc_inflight_bytes(cc);
	}
	if (!w || w + bytes <= win)
		return true;
	return who == RXE_CC_WAIT_REQ && !rxe_cc_ring_empty(&cc->req) &&
	       now - cc->req.progress_ns >= rxe_cc_resp_expire_ns(qp);
}

/*
 * Bytes left flight (acknowledged, expired), the cap grew or the knob
 * changed: resume the tasks the window held that fit now.  Lock held;
 * one check per task.
 */
static void rxe_cc_window_wake(struct rxe_qp *qp, u64 now)
{
	struct rxe_cc_qp *cc = qp->cc;
	unsigned long waiters = 0;
	u64 win = rxe_cc_window(qp);
	int who;

	for (who = 0; who < RXE_CC_NUM_WAITERS; who++) {
		u32 need = cc->window_need[who];

		if (!need || !rxe_cc_window_admits(qp, who, need, win, now))
			continue;
		cc->window_need[who] = 0;
		if (test_and_clear_bit(who, &cc->pace_waiters))
			waiters |= BIT(who);
	}
	if (waiters)
		rxe_cc_wake(qp, waiters);
}

static enum hrtimer_restart rxe_cc_timer_fn(struct hrtimer *t)
{
	struct rxe_cc_qp *cc = container_of(t, struct rxe_cc_qp, cc_timer);
	struct rxe_qp *qp = cc->qp;
	u64 now;

	if (!rxe_get(qp))
		return HRTIMER_NORESTART;

	spin_lock_bh(&cc->lock);
	/* read under the lock: events reach the core in time order */
	now = rxe_cc_now_ns();
	if (cc->ops && !cc->stopped) {
		rxe_cc_resp_expire(qp, now);
		if (cc->ops->on_timer) {
			cc->ops->on_timer(rxe_cc_sender_of(qp), now);
			rxe_cc_report(qp);
		}
		rxe_cc_rate_changed(qp, now, RXE_CC_WHY_TIMER);
		/* bytes that expired, or a rate that grew, make room */
		if (cc->ops->window_bytes)
			rxe_cc_window_wake(qp, now);
		/*
		 * Idle QPs sleep; the cores catch up lazily on the next event.
		 * Read responses in flight keep the timer only until they
		 * expire.  A task that waits for pacer credit is not idle: at
		 * a rate cut to its floor the next packet, the next event, may
		 * be seconds away, and the increases the timer brings are what
		 * shortens that wait.
		 */
		if (rxe_cc_inflight_bytes(cc) || !cc->rate_bps ||
		    READ_ONCE(cc->pace_waiters))
			rxe_cc_arm_timer(qp);
	}
	spin_unlock_bh(&cc->lock);
	rxe_put(qp);

	return HRTIMER_NORESTART;
}

/* A new QP: its receiver role; sender state comes with an algorithm. */
void rxe_cc_qp_init(struct rxe_qp *qp)
{
	qp->cc = NULL;
	rxe_cc_np_init(qp);
}

static struct rxe_cc_qp *rxe_cc_qp_alloc(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = kzalloc(sizeof(*cc), GFP_KERNEL);

	if (!cc)
		return NULL;
	cc->qp = qp;
	spin_lock_init(&cc->lock);
	cc->stopped = true;
	/* hard: it only schedules tasks, and a soft timer adds a softirq
	 * round trip to every paced packet's wake-up
	 */
	rxe_cc_hrtimer_setup(&cc->pace_timer, rxe_cc_pace_timer_fn,
			     CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	rxe_cc_hrtimer_setup(&cc->cc_timer, rxe_cc_timer_fn, CLOCK_MONOTONIC,
			     HRTIMER_MODE_ABS_SOFT);
	cc->wire_overhead_bytes = RXE_CC_NON_IP_OVERHEAD_BYTES +
				  sizeof(struct iphdr);
	return cc;
}

/*
 * Wire bytes a packet of @qp costs beyond its BTH and payload: its IP
 * header, from the address vector set at RTR, and a VLAN tag when rxe
 * runs on a VLAN device.  An IPv6 QP counted with an IPv4 header would
 * overrun its line by 2 % at a 1024 B MTU.
 */
static u32 rxe_cc_qp_wire_overhead(struct rxe_qp *qp)
{
	u32 bytes = RXE_CC_NON_IP_OVERHEAD_BYTES;
	struct net_device *ndev;

	if (qp->pri_av.network_type == RXE_NETWORK_TYPE_IPV6)
		bytes += sizeof(struct ipv6hdr);
	else
		bytes += sizeof(struct iphdr);
	ndev = rxe_cc_get_netdev(rxe_cc_qp_dev(qp));
	if (ndev && is_vlan_dev(ndev))
		bytes += VLAN_HLEN;
	rxe_cc_put_netdev(ndev);
	return bytes;
}

/* The QP's line rate: the knob, else the netdev's speed, else a guess. */
static u64 rxe_cc_line_rate_bps(struct rxe_dev *rxe)
{
	u32 mbps = READ_ONCE(rxe->cc.params.line_rate_mbps) ?:
		   READ_ONCE(rxe->cc.speed_mbps) ?:
		   RXE_CC_DEFAULT_LINE_RATE_MBPS;

	return mbps * RXE_CC_BPS_PER_MBPS;
}

/* The algorithm of priority @prio on @rxe (RCU held), NULL for none. */
static const struct rxe_cc_ops *rxe_cc_choose(struct rxe_dev *rxe, u8 prio)
{
	int key = READ_ONCE(rxe->cc.params.prio_algo[prio]);

	if (key == RXE_CC_ALGO_DEFAULT)
		key = READ_ONCE(rxe->cc.params.algo);
	return rxe_cc_algo(key);
}

/**
 * rxe_cc_qp_modify - modify_qp is about to apply @attr to @qp
 * @qp: the QP
 * @attr: the new attributes
 * @mask: which of them are set
 *
 * An RC QP that leaves INIT (for RTR, or straight on to RTS) picks its
 * algorithm by the priority its traffic class maps to, or the device
 * default, and gets its sender state here, in process context, where an
 * allocation may sleep and may fail cleanly.  A QP that runs none pays
 * nothing.  Returns 0 or -ENOMEM.
 */
int rxe_cc_qp_modify(struct rxe_qp *qp, struct ib_qp_attr *attr, int mask)
{
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	const struct rxe_cc_ops *ops;
	struct rxe_cc_qp *cc;
	u8 tclass;

	if (qp_type(qp) != IB_QPT_RC || !(mask & IB_QP_STATE) ||
	    (attr->qp_state != IB_QPS_RTR && attr->qp_state != IB_QPS_RTS))
		return 0;
	/* running already: the choice was made when it left INIT */
	if (qp->cc && !READ_ONCE(qp->cc->stopped))
		return 0;

	tclass = mask & IB_QP_AV ? attr->ah_attr.grh.traffic_class :
				   qp->pri_av.grh.traffic_class;
	rcu_read_lock();
	ops = rxe_cc_choose(rxe, rxe_cc_prio_of(tclass));
	rcu_read_unlock();

	if (ops && !qp->cc) {
		cc = rxe_cc_qp_alloc(qp);
		if (!cc)
			return -ENOMEM;
		/* the data path reads qp->cc without a lock */
		smp_store_release(&qp->cc, cc);
	}
	if (qp->cc)
		qp->cc->chosen = ops;
	return 0;
}

/* The wire bytes of a full request packet at @qp's path MTU. */
u32 rxe_cc_frame_bytes(struct rxe_qp *qp)
{
	return qp->mtu + qp->cc->wire_overhead_bytes + RXE_BTH_BYTES +
	       RXE_RETH_BYTES;
}

/*
 * Bucket depth at @rate_bps: two full packets, or pacer_burst_us of
 * sending if more.  It follows the rate, so that a slow QP never bursts
 * more than a millisecond's worth of its own rate.
 */
static u32 rxe_cc_burst_bytes(struct rxe_qp *qp, u64 rate_bps)
{
	u64 pkt = rxe_cc_frame_bytes(qp);
	u64 burst_ns = (u64)READ_ONCE(rxe_cc_qp_dev(qp)->cc.params.pacer_burst_us) *
		       NSEC_PER_USEC;
	u64 burst = mul_u64_u64_div_u64(rate_bps, burst_ns,
					RXE_CC_BIT_NS_PER_BYTE_S);

	return min_t(u64, max(burst, RXE_CC_BURST_PKTS * pkt),
		     RXE_CC_PACER_MAX_BURST_BYTES);
}

/*
 * The ACK spacing of a receiver for a sender that asked for the mark
 * echo (rxe_cc_echo.c): the period of this device's algorithm that asks
 * for it, as knobs are set alike on every host.  0: none.
 */
u64 rxe_cc_echo_period_ns(struct rxe_dev *rxe)
{
	const struct rxe_cc_ops *ops;
	int key;

	rxe_cc_for_each_algo(key, ops)
		if (ops->echo_marks && ops->echo_period_ns)
			return ops->echo_period_ns(rxe->cc.params.algo_knobs[key]);
	return 0;
}

/*
 * The send PSN is known from RTS on, and may be set again on SQD -> RTS:
 * what was in flight is forgotten, nothing is acked of the new sequence.
 */
static void rxe_cc_sync_psn(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;

	rxe_cc_ring_init(&cc->req, cc->req_slots, RXE_CC_REQ_SLOTS,
			 qp->req.psn);
}

/*
 * Called when an RC QP enters RTR and again at RTS.  The algorithm
 * rxe_cc_qp_modify() chose starts at the first of the two: changing the
 * device's choice later does not touch existing QPs.
 */
void rxe_cc_qp_start(struct rxe_qp *qp)
{
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	struct rxe_cc_qp *cc = qp->cc;
	const struct rxe_cc_ops *ops;
	u64 line_bps, now;
	u32 wire_bytes;

	if (!cc)
		return;
	if (!cc->stopped) {
		spin_lock_bh(&cc->lock);
		if (cc->ops && cc->req.next_psn != qp->req.psn &&
		    rxe_cc_ring_empty(&cc->req))
			rxe_cc_sync_psn(qp);
		spin_unlock_bh(&cc->lock);
		return;
	}

	ops = cc->chosen;
	if (!ops)
		return;

	line_bps = rxe_cc_line_rate_bps(rxe);
	/*
	 * Before cc->lock, which softirq takes: the netdev lookup of 6.12
	 * and later takes ib_core's netdev_lock, which process context
	 * holds with softirqs on (lockdep: irq lock inversion).
	 */
	wire_bytes = rxe_cc_qp_wire_overhead(qp);

	spin_lock_bh(&cc->lock);
	now = rxe_cc_now_ns();
	memset(cc->priv, 0, sizeof(cc->priv));
	cc->line_rate_bps = line_bps;
	cc->snd = (struct rxe_cc_sender) {
		.priv = cc->priv,
		.params = cc->params,
		.line_rate_bps = line_bps,
	};
	cc->params_seq = 1;	/* odd: derive anew for this line rate */
	cc->wire_overhead_bytes = wire_bytes;
	rxe_cc_sync_psn(qp);
	/* read responses carry the peer's request PSNs */
	rxe_cc_ring_init(&cc->resp, cc->resp_slots, RXE_CC_RESP_SLOTS,
			 qp->resp.psn);
	cc->resp_wait_ns = 0;
	cc->read_acks = false;
	cc->peer_counts = false;
	cc->echo_seen = (struct rxe_cc_echo_seen) {};
	cc->sent_any = false;
	WRITE_ONCE(cc->pace_waiters, 0);
	memset(cc->window_need, 0, sizeof(cc->window_need));
	cc->window_holds = 0;
	cc->inflight_max_bytes = 0;
	cc->ops = ops;
	cc->knobs = rxe->cc.params.algo_knobs[rxe_cc_key_of(ops)];
	ops->init(rxe_cc_sender_of(qp), now);
	cc->rate_bps = ops->rate_bps(&cc->snd, now);
	rxe_cc_window(qp);
	rxe_cc_pacer_init(&cc->pacer, cc->rate_bps,
			  rxe_cc_burst_bytes(qp, cc->rate_bps), now);
	WRITE_ONCE(cc->stopped, false);
	spin_unlock_bh(&cc->lock);

	trace_rxe_cc_rate(qp, 0, cc->rate_bps, RXE_CC_WHY_START);
}

/*
 * The QP entered ERROR (any context, also softirq): the requester only
 * flushes from now on and responses are dropped, so nothing may pace or
 * time it any more.  A callback already running sees @stopped and does
 * not re-arm; the algorithm stays set for "rdma res" until reset.
 */
void rxe_cc_qp_error(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;

	if (!cc)
		return;

	spin_lock_bh(&cc->lock);
	WRITE_ONCE(cc->stopped, true);
	WRITE_ONCE(cc->pace_waiters, 0);
	spin_unlock_bh(&cc->lock);

	hrtimer_try_to_cancel(&cc->pace_timer);
	hrtimer_try_to_cancel(&cc->cc_timer);
}

/* Reset or destroy: no timer runs or will run after this returns. */
void rxe_cc_qp_stop(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;

	rxe_cc_np_init(qp);
	if (!cc)
		return;
	rxe_cc_qp_error(qp);
	hrtimer_cancel(&cc->pace_timer);
	hrtimer_cancel(&cc->cc_timer);

	spin_lock_bh(&cc->lock);
	cc->ops = NULL;
	spin_unlock_bh(&cc->lock);
}

/*
 * The QP's last reference is gone and its tasks ran for the last time
 * (rxe_qp_do_cleanup()): rxe_cc_qp_stop() cancelled the timers, nothing
 * else can reach the sender state.
 */
void rxe_cc_qp_free(struct rxe_qp *qp)
{
	kfree(qp->cc);
	qp->cc = NULL;
}

/* Arm the algorithm timer at its next deadline; lock held. */
static void rxe_cc_arm_timer(struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;
	u64 next;

	if (cc->stopped || !cc->ops->next_timer_ns)
		return;
	next = cc->ops->next_timer_ns(rxe_cc_sender_of(qp));
	/* 0 and U64_MAX both mean "no deadline"; ktime_t is signed */
	if (!next || next >= KTIME_MAX)
		return;
	if (hrtimer_is_queued(&cc->cc_timer) &&
	    ktime_to_ns(hrtimer_get_expires(&cc->cc_timer)) <= next)
		return;
	hrtimer_start(&cc->cc_timer, ns_to_ktime(next), HRTIMER_MODE_ABS_SOFT);
}

/*
 * The algorithm may have changed its rate: hand it to the pacer, account
 * for it and, if the requester is waiting for credit, let it try again.
 * Lock held.
 */
void rxe_cc_rate_changed(struct rxe_qp *qp, u64 now, enum rxe_cc_why why)
{
	struct rxe_cc_qp *cc = qp->cc;
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	u64 rate = cc->ops->rate_bps(rxe_cc_sender_of(qp), now);
	u64 old = cc->rate_bps;

	if (rate == old)
		return;

	cc->rate_bps = rate;
	rxe_cc_pacer_set_rate(&cc->pacer, rate, now);
	rxe_cc_pacer_set_burst(&cc->pacer, rxe_cc_burst_bytes(qp, rate), now);
	rxe_counter_inc(rxe, rate > old ? RXE_CNT_CC_RATE_INCREASES :
					  RXE_CNT_CC_RATE_DECREASES);
	trace_rxe_cc_rate(qp, old, rate, why);

	if (READ_ONCE(cc->pace_waiters) && rate) {
		hrtimer_try_to_cancel(&cc->pace_timer);
		rxe_cc_wake(qp, xchg(&cc->pace_waiters, 0));
	}
}

/*
 * The algorithm @cc runs, NULL if none or not started: an unlocked peek,
 * for decisions a stale answer cannot harm (a QP starts or stops between
 * two packets) and as the fast path before the lock.
 */
static const struct rxe_cc_ops *rxe_cc_ops_peek(const struct rxe_cc_qp *cc)
{
	return cc ? READ_ONCE(cc->ops) : NULL;
}

/*
 * The prologue of every data-path hook: lock @cc and return true if its
 * algorithm runs, else return false unlocked.  The unlocked peek keeps
 * the common case of a QP without CC (cc NULL) or not started at one
 * branch.
 */
static bool rxe_cc_lock_running(struct rxe_cc_qp *cc)
	rxe_cc_cond_acquires(&cc->lock)
{
	if (!rxe_cc_ops_peek(cc))
		return false;
	spin_lock_bh(&cc->lock);
	if (cc->ops && !cc->stopped)
		return true;
	spin_unlock_bh(&cc->lock);
	return false;
}

/* @who does not wait (any more): no atomic write while it is clear. */
static void rxe_cc_unwait(struct rxe_cc_qp *cc, int who)
{
	if (test_bit(who, &cc->pace_waiters))
		clear_bit(who, &cc->pace_waiters);
}

/*
 * The longest a read response may wait for the pacer.  The requester
 * hears nothing else of its READ, and its retransmit timer, which each
 * response resets, asks for the READ again once a gap outlasts it: at
 * the algorithm's lowest rates (1 Mb/s spaces 4 KiB responses 33 ms)
 * every response would come too late, and the READ would be retried
 * until RETRY_EXC_ERR.  The responder does not know the requester's
 * timeout; the connection manager gives both ends the same, so the QP's
 * own stands for it, and a QP without one (a READ responder left in RTR)
 * assumes the shortest an rxe requester runs, one jiffy, as ACC's halt
 * does.  A response then leaves at least every quarter of that.
 */
static u64 rxe_cc_resp_gap_ns(struct rxe_qp *qp)
{
	unsigned long timeout = READ_ONCE(qp->qp_timeout_jiffies) ?: 1;

	return jiffies_to_nsecs(timeout) / RXE_CC_RESP_GAP_FRACTION;
}

/*
 * A read response of @bytes the pacer would hold for @wait ns: it waits
 * no longer than rxe_cc_resp_gap_ns() from its first ask on, and past
 * that gets its credit at once (rxe_cc_pacer_grant()).  A halt is not cut
 * short here: ACC holds its halts to half the timeout itself, and the
 * first ask after the halt finds the bound run out.  Lock held; returns
 * the wait.
 */
static u64 rxe_cc_resp_bound(struct rxe_qp *qp, u32 bytes, u64 now, u64 wait)
{
	struct rxe_cc_qp *cc = qp->cc;
	u64 due;

	if (!cc->resp_wait_ns)
		cc->resp_wait_ns = now;
	if (wait == RXE_CC_NEVER_NS)
		return wait;
	due = cc->resp_wait_ns + rxe_cc_resp_gap_ns(qp);
	if (now < due)
		return min(wait, due - now);
	rxe_cc_pacer_grant(&cc->pacer, bytes, now);
	return 0;
}

/*
 * Wake the waiters in @wait_ns: the requester and the responder share
 * the pace timer, so an earlier wake-up moves it forward (its callback
 * wakes both, and the later one asks again).
 */
static void rxe_cc_arm_pace(struct rxe_cc_qp *cc, u64 wait_ns)
{
	if (hrtimer_is_queued(&cc->pace_timer) &&
	    ktime_to_ns(hrtimer_get_remaining(&cc->pace_timer)) <= wait_ns)
		return;
	hrtimer_start(&cc->pace_timer, ns_to_ktime(wait_ns), HRTIMER_MODE_REL);
}

/*
 * May a packet at @psn of @bytes on the wire leave now?  If not, @who
 * waits: for room in the window, which an acknowledgment (or the CC timer,
 * when bytes expire) makes, with no timer of its own; else for pacer
 * credit, which the pace timer (or, while halted, the event that ends the
 * halt) brings.
 *
 * A QP without a window may send a packet the pacer had credit for at its
 * last change without the lock or a clock read (struct rxe_cc_pacer,
 * ready_bytes).  The answer is as good as the locked one, which a halt
 * can overtake just as well between this call and rxe_cc_req_sent(); a
 * stopped or not yet started QP does not wait either.  A QP with a window
 * takes the lock: W moves with every packet and acknowledgment.
 */
static bool rxe_cc_wait(struct rxe_qp *qp, u32 psn, u32 bytes, int who)
{
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	struct rxe_cc_ring *ring;
	u64 wait, now;

	/* the pacer writes it once, under the lock: a stale value is late */
	if (cc && !READ_ONCE(cc->windowed) &&
	    bytes <= READ_ONCE(cc->pacer.ready_bytes)) {
		rxe_cc_unwait(cc, who);
		return false;
	}
	if (!rxe_cc_lock_running(cc))
		return false;
	now = rxe_cc_now_ns();
	ring = who == RXE_CC_WAIT_REQ ? &cc->req : &cc->resp;
	if (rxe_cc_ring_is_new(ring, psn) &&
	    !rxe_cc_window_admits(qp, who, bytes, rxe_cc_window(qp), now)) {
		cc->window_need[who] = bytes;
		cc->window_holds++;
		set_bit(who, &cc->pace_waiters);
		spin_unlock_bh(&cc->lock);
		return true;
	}
	cc->window_need[who] = 0;
	wait = rxe_cc_pacer_wait_ns(&cc->pacer, bytes, now);
	if (wait && who == RXE_CC_WAIT_RESP)
		wait = rxe_cc_resp_bound(qp, bytes, now, wait);
	if (wait) {
		set_bit(who, &cc->pace_waiters);
		if (wait != RXE_CC_NEVER_NS)
			rxe_cc_arm_pace(cc, wait);
	} else {
		rxe_cc_unwait(cc, who);
	}
	spin_unlock_bh(&cc->lock);

	return wait != 0;
}

/**
 * rxe_cc_req_wait - may the requester send a packet of @bytes now?
 * @qp: the sending QP; its next packet goes at qp->req.psn
 * @bytes: its size on the wire
 *
 * Returns true if the requester must stop: a timer, an acknowledgment
 * that makes room in the window, or, while halted, the event that ends
 * the halt reschedules it.
 */
bool rxe_cc_req_wait(struct rxe_qp *qp, u32 bytes)
{
	return rxe_cc_wait(qp, qp->req.psn, bytes, RXE_CC_WAIT_REQ);
}

/*
 * rxe_cc_req_wait() for the responder's next read response packet, at
 * the PSN of the read it answers (qp->resp.res, set by read_reply()); the
 * pacer holds it a quarter of the QP's timeout at most
 * (rxe_cc_resp_gap_ns()).
 */
bool rxe_cc_resp_wait(struct rxe_qp *qp, u32 bytes)
{
	return rxe_cc_wait(qp, qp->resp.res->cur_psn, bytes,
			   RXE_CC_WAIT_RESP);
}

/*
 * Data of @bytes left: pay the pacer, tell the algorithm; lock held.  An
 * algorithm whose rate sending cannot move (ACC: its rate comes from
 * ACKs and periods) costs no rate or timer update per packet; its timer,
 * which an idle QP lets lapse, is armed again by the first packet.
 */
static void rxe_cc_xmit(struct rxe_qp *qp, u32 bytes, u64 now)
{
	struct rxe_cc_qp *cc = qp->cc;

	cc->inflight_max_bytes = max(cc->inflight_max_bytes,
				     rxe_cc_inflight_bytes(cc));
	rxe_cc_pacer_consume(&cc->pacer, bytes, now);
	if (!cc->ops->on_xmit ||
	    cc->ops->on_xmit(rxe_cc_sender_of(qp), bytes, now)) {
		rxe_cc_rate_changed(qp, now, RXE_CC_WHY_SENT);
		rxe_cc_arm_timer(qp);
	} else if (!hrtimer_is_queued(&cc->cc_timer)) {
		rxe_cc_arm_timer(qp);
	}
}

/**
 * rxe_cc_req_sent - record a request packet before it is transmitted
 * @qp: the sending QP
 * @psn: its PSN; qp->req.psn is already the next PSN
 * @bytes: its size on the wire
 *
 * Called before rxe_xmit_packet(): over loopback, and whenever the
 * requester is preempted, the ACK can arrive before xmit returns, and it
 * must find the packet recorded.
 */
void rxe_cc_req_sent(struct rxe_qp *qp, u32 psn, u32 bytes)
{
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	u64 now;

	if (!rxe_cc_lock_running(cc))
		return;
	now = rxe_cc_now_ns();
	if (!cc->sent_any) {
		cc->sent_any = true;
		trace_rxe_cc_first_send(qp, psn, cc->rate_bps);
	}
	rxe_cc_unwait(cc, RXE_CC_WAIT_REQ);
	if (rxe_cc_ring_record(&cc->req, psn, qp->req.psn, bytes, now))
		rxe_cc_xmit(qp, bytes, now);
	else	/* a retransmission: nothing new in flight */
		rxe_cc_pacer_consume(&cc->pacer, bytes, now);
	spin_unlock_bh(&cc->lock);
}

/**
 * rxe_cc_req_unsent - rxe_xmit_packet() failed: forget rxe_cc_req_sent()
 * @qp: the sending QP
 * @psn: the PSN of the packet that did not leave
 * @bytes: its size on the wire
 *
 * The requester rolls back to @psn and will build the packet again.  If
 * an ACK took the record in the meantime, the packet counts as sent and
 * lost instead, which its retransmission accounts for.  The pacer credit
 * is given back.
 */
void rxe_cc_req_unsent(struct rxe_qp *qp, u32 psn, u32 bytes)
{
	struct rxe_cc_qp *cc = rxe_cc_of(qp);

	if (!rxe_cc_lock_running(cc))
		return;
	if (rxe_cc_ring_unrecord(&cc->req, psn, bytes))
		rxe_cc_pacer_refund(&cc->pacer, bytes, rxe_cc_now_ns());
	spin_unlock_bh(&cc->lock);
}

/* Build-time BTH bits of a data packet: ask the receiver to echo marks. */
void rxe_cc_data_bth(struct rxe_qp *qp, struct rxe_pkt_info *pkt)
{
	const struct rxe_cc_ops *ops = rxe_cc_ops_peek(rxe_cc_of(qp));

	if (ops && ops->echo_marks)
		bth_set_cc_echo_req(pkt, 1);
}

/**
 * rxe_cc_resp_sent - a read response packet is about to be transmitted
 * @qp: the responder QP
 * @psn: its PSN
 * @bytes: its size on the wire
 *
 * Recorded before xmit, as requests are, so that a read ACK is believed
 * only for a response that was sent.  They are in flight for the
 * algorithm only once the peer has shown that it acknowledges them
 * (rxe_cc_rcv_read_ack()), and only until they expire
 * (rxe_cc_resp_expire_ns()): a peer that stops acknowledging must not
 * leave them in flight for ever.
 */
void rxe_cc_resp_sent(struct rxe_qp *qp, u32 psn, u32 bytes)
{
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	u64 now;

	if (!rxe_cc_lock_running(cc))
		return;
	now = rxe_cc_now_ns();
	rxe_cc_unwait(cc, RXE_CC_WAIT_RESP);
	cc->resp_wait_ns = 0;
	rxe_cc_resp_expire(qp, now);
	rxe_cc_ring_record(&cc->resp, psn, (psn + 1) & BTH_PSN_MASK, bytes,
			   now);
	rxe_cc_xmit(qp, bytes, now);
	spin_unlock_bh(&cc->lock);
}

/*
 * How many packets may go without asking for an ACK.  The algorithm says
 * how dense its ACK clock must be; on top of that a paced QP asks at least
 * once per quarter of its transport timeout: stock rxe asks only every 66
 * packets, and 66 packets at a low rate outlast the retransmit timer,
 * which then fires and resends data that was never lost.
 */
u32 rxe_cc_ack_req_every(struct rxe_qp *qp, u32 stock)
{
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	const struct rxe_cc_ops *ops = rxe_cc_ops_peek(cc);
	u64 window_ns, pkt_ns;
	u32 every = stock;

	if (!ops)
		return stock;
	/* a peer that counts marks sets the density of its ACKs itself */
	if (ops->ack_req_every && !READ_ONCE(cc->peer_counts))
		every = min(ops->ack_req_every, every);
	if (qp->qp_timeout_jiffies) {
		window_ns = jiffies_to_nsecs(qp->qp_timeout_jiffies) /
			    RXE_CC_ACK_TIMEOUT_FRACTION;
		pkt_ns = rxe_cc_tx_time_ns(qp->mtu + cc->wire_overhead_bytes,
					   READ_ONCE(cc->rate_bps));
		if (pkt_ns)
			every = min_t(u64, every,
				      max_t(u64, 1, div64_u64(window_ns, pkt_ns)));
	}
	return every;
}

/*
 * The PSN a response acknowledges: an ACK, atomic ACK or read response
 * acknowledges everything up to its PSN; a NAK (its PSN is the one it
 * refuses) acknowledges everything before it.  False: nothing.
 */
static bool rxe_cc_acked_psn(struct rxe_pkt_info *pkt, u32 *psn)
{
	if (pkt->mask & RXE_AETH_MASK) {
		u8 syn = aeth_syn(pkt);

		switch (syn & AETH_TYPE_MASK) {
		case AETH_ACK:
			break;
		case AETH_NAK:
		case AETH_RNR_NAK:
			*psn = (pkt->psn - 1) & BTH_PSN_MASK;
			return true;
		default:
			return false;
		}
	}
	*psn = pkt->psn;
	return true;
}

/*
 * An acknowledgment of @ring's packets up to @psn came in: retire them
 * and tell the algorithm.  @ack->ce_pkts and ue_pkts are the marked
 * packets it counted (@counted), or else @mark is the single-bit echo,
 * which reads as the mark of every packet it covers.  The caller checked
 * that @psn is in the ring's window (rxe_cc_ring_in_window()): the last
 * PSN acknowledged or a newer one sent, as the completer accepts it.
 * Lock held, QP running.
 */
static void rxe_cc_acked(struct rxe_qp *qp, struct rxe_cc_ring *ring,
			 u32 psn, enum rxe_cc_mark mark, bool counted,
			 struct rxe_cc_ack *ack)
{
	struct rxe_cc_qp *cc = qp->cc;
	struct rxe_dev *rxe = rxe_cc_qp_dev(qp);
	u16 tail = ring->tail;
	u64 now;

	if (!cc->ops->echo_marks) {
		mark = RXE_CC_MARK_NO;
		ack->ce_pkts = 0;
		ack->ue_pkts = 0;
	}
	now = rxe_cc_now_ns();
	if (rxe_cc_ring_acks_new(ring, psn)) {
		ack->bytes = rxe_cc_ring_retire(ring, psn, now, &ack->rtt_ns);
		ack->pkts = (u16)(ring->tail - tail) & ring->mask;
	} else if (mark == RXE_CC_MARK_NO) {
		return;	/* a duplicate, and nothing to learn from it */
	}
	if (!counted) {
		ack->ce_pkts = mark == RXE_CC_MARK_CE ? max(ack->pkts, 1U) : 0;
		ack->ue_pkts = mark == RXE_CC_MARK_UE ? max(ack->pkts, 1U) : 0;
	}

	if (mark == RXE_CC_MARK_CE)
		rxe_counter_inc(rxe, RXE_CNT_ACC_CE_ACKS);
	else if (mark == RXE_CC_MARK_UE)
		rxe_counter_inc(rxe, RXE_CNT_ACC_UE_ACKS);
	trace_rxe_cc_ack(qp, psn, ack->bytes, mark, ack->rtt_ns);

	if (cc->ops->on_ack) {
		cc->ops->on_ack(rxe_cc_sender_of(qp), ack, now);
		rxe_cc_report(qp);
	}
	rxe_cc_rate_changed(qp, now, RXE_CC_WHY_ACK);
	rxe_cc_arm_timer(qp);
	if (cc->ops->window_bytes)
		rxe_cc_window_wake(qp, now);
}

/* Read responses: the only responses that carry data. */
bool rxe_cc_is_read_resp(const struct rxe_pkt_info *pkt)
{
	return !(pkt->mask & RXE_REQ_MASK) && (pkt->mask & RXE_PAYLOAD_MASK);
}

/**
 * rxe_cc_rcv_ack - a response for sender QP pkt->qp arrived
 * @pkt: the ACK, NAK, atomic ACK or read response
 *
 * Cumulative: everything up to the acknowledged PSN is acknowledged.  A
 * duplicate of the last acknowledgment (the receiver answers a duplicate
 * request with one) acknowledges nothing new, but its echoed mark counts;
 * an older PSN, or one never sent, is stale or forged, and the completer
 * drops it: so does the algorithm.  A read response is also data this QP
 * receives: the notification point sees it.
 */
void rxe_cc_rcv_ack(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	struct rxe_cc_ack ack = {};
	enum rxe_cc_mark mark;
	u32 psn;

	if (rxe_cc_is_read_resp(pkt))
		rxe_cc_np_rcv_resp(pkt);

	if (!rxe_cc_acked_psn(pkt, &psn))
		return;
	mark = rxe_cc_echoed_mark(pkt);
	if (!rxe_cc_lock_running(cc))
		return;
	/*
	 * A peer that counts reports the marks of our WRITEs and SENDs in
	 * its next counting ACK, not in the single bit of this one; the
	 * marks of READs it echoes in that bit of their read responses.
	 */
	if (cc->peer_counts && !rxe_cc_is_read_resp(pkt))
		mark = RXE_CC_MARK_NO;
	if (rxe_cc_ring_in_window(&cc->req, psn))
		rxe_cc_acked(qp, &cc->req, psn, mark, false, &ack);
	spin_unlock_bh(&cc->lock);
}

/**
 * rxe_cc_rcv_ack_counts - a response that counts marks arrived
 * @pkt: the ACK, NAK or atomic ACK
 * @ce_wire: its CE counter (2 bits, cumulative, wrapping)
 * @ue_wire: its UE counter
 *
 * As rxe_cc_rcv_ack() for an ACK, NAK or atomic ACK (read responses
 * carry no counters), with the marked packets the counters report since
 * the previous one read.  One outside the window is not read at all: its
 * counters would desync the next genuine ACK's.  Its peer counts marks,
 * and so coalesces its ACKs: once one of them has acknowledged something
 * new, this QP no longer asks for an ACK per packet.
 *
 * @ce_pkts: the CE-marked packets it reported, 0 if the QP runs no
 *	algorithm
 * @ue_pkts: the UE-marked packets it reported
 */
void rxe_cc_rcv_ack_counts(struct rxe_pkt_info *pkt, u8 ce_wire, u8 ue_wire,
			   u32 *ce_pkts, u32 *ue_pkts)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	struct rxe_cc_ack ack = {};
	enum rxe_cc_mark mark = RXE_CC_MARK_NO;
	u32 psn;

	*ce_pkts = 0;
	*ue_pkts = 0;
	if (!rxe_cc_acked_psn(pkt, &psn) || !rxe_cc_lock_running(cc))
		return;
	if (!rxe_cc_ring_in_window(&cc->req, psn)) {
		spin_unlock_bh(&cc->lock);
		return;
	}
	/* the duplicate, which acknowledges nothing, still moves them */
	rxe_cc_echo_decode(&cc->echo_seen, ce_wire, ue_wire, &ack.ce_pkts,
			   &ack.ue_pkts);
	if (rxe_cc_ring_acks_new(&cc->req, psn))
		WRITE_ONCE(cc->peer_counts, true);
	if (ack.ce_pkts)
		mark = RXE_CC_MARK_CE;
	else if (ack.ue_pkts)
		mark = RXE_CC_MARK_UE;
	rxe_cc_acked(qp, &cc->req, psn, mark, true, &ack);
	spin_unlock_bh(&cc->lock);
	*ce_pkts = ack.ce_pkts;
	*ue_pkts = ack.ue_pkts;
}

/* A CNP for sender QP pkt->qp arrived (DCQCN reaction point). */
static void rxe_cc_rcv_cnp(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	u64 now;

	if (!rxe_cc_lock_running(cc)) {
		rxe_counter_inc(pkt->rxe, RXE_CNT_RP_CNP_IGNORED);
		return;
	}
	if (cc->ops->on_cnp) {
		now = rxe_cc_now_ns();
		cc->ops->on_cnp(rxe_cc_sender_of(qp), now);
		rxe_cc_report(qp);
		rxe_cc_rate_changed(qp, now, RXE_CC_WHY_CNP);
		rxe_cc_arm_timer(qp);
	} else {	/* an algorithm that does not react to CNPs */
		rxe_counter_inc(pkt->rxe, RXE_CNT_RP_CNP_IGNORED);
	}
	spin_unlock_bh(&cc->lock);
}

/*
 * The peer acknowledged the read responses of QP pkt->qp up to pkt->psn,
 * echoing the marks it saw on them (ACC): the first one that acknowledges
 * a response this QP sent switches on the accounting of read responses.
 * One for a PSN outside the response ring's window is stale or forged.
 */
static void rxe_cc_rcv_read_ack(struct rxe_pkt_info *pkt)
{
	struct rxe_qp *qp = pkt->qp;
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	enum rxe_cc_mark mark = rxe_cc_echoed_mark(pkt);
	struct rxe_cc_ack ack = {};

	if (!rxe_cc_lock_running(cc))
		return;
	if (rxe_cc_ring_in_window(&cc->resp, pkt->psn)) {
		if (rxe_cc_ring_acks_new(&cc->resp, pkt->psn))
			cc->read_acks = true;
		rxe_cc_acked(qp, &cc->resp, pkt->psn, mark, false, &ack);
	}
	spin_unlock_bh(&cc->lock);
}

/**
 * rxe_cc_rcv_ctrl - a congestion control packet for QP pkt->qp arrived
 * @pkt: a CNP, or an acknowledgment of read responses
 */
void rxe_cc_rcv_ctrl(struct rxe_pkt_info *pkt)
{
	if (pkt->opcode == RXE_OPCODE_CC_READ_ACK)
		rxe_cc_rcv_read_ack(pkt);
	else
		rxe_cc_rcv_cnp(pkt);
}

/**
 * rxe_cc_tos - the IP TOS byte of a packet
 * @pkt: the packet being built
 * @tclass: the traffic class of its address vector
 *
 * Data of a CC-enabled QP (requests and read responses) is ECN-capable,
 * ECT(0), so that switches can mark it.  ACKs keep the QP's DSCP, and so
 * its PFC priority, unless the ack_dscp knob moves them (a switch may
 * then serve them ahead of data; that class must be lossless too), and
 * are Not-ECT whatever ECN bits the traffic class holds: no end reads a
 * mark on an ACK, so an ACK has no business claiming ECN capability.
 * CNPs are ECT(0) as in the common 0xC2 template and read ACKs Not-ECT;
 * rxe_cc_np.c gives both their DSCP.  Everything else keeps the traffic
 * class verbatim, as stock rxe does.
 */
u8 rxe_cc_tos(struct rxe_pkt_info *pkt, u8 tclass)
{
	struct rxe_qp *qp = pkt->qp;
	s8 dscp;

	if (!qp)
		return tclass;
	switch (pkt->opcode) {
	case IB_OPCODE_RC_ACKNOWLEDGE:
	case IB_OPCODE_RC_ATOMIC_ACKNOWLEDGE:
		dscp = READ_ONCE(pkt->rxe->cc.params.ack_dscp);
		if (dscp != RXE_CC_DSCP_OF_QP)
			return dscp << 2;
		return tclass & ~INET_ECN_MASK;
	case RXE_OPCODE_CC_READ_ACK:
		return tclass & ~INET_ECN_MASK;
	case RXE_OPCODE_ROCE_CNP:
		return (tclass & ~INET_ECN_MASK) | INET_ECN_ECT_0;
	}
	if (!rxe_cc_ops_peek(rxe_cc_of(qp)))
		return tclass;
	return (tclass & ~INET_ECN_MASK) | INET_ECN_ECT_0;
}

static int rxe_cc_fill_res(struct sk_buff *msg, struct rxe_qp *qp)
{
	struct rxe_cc_qp *cc = qp->cc;
	const struct rxe_cc_ops *ops = cc ? cc->ops : NULL;

	/*
	 * Not CC state, but what paces every QP from below: the QP's skbs
	 * the stack has not freed, which hold its requester back at
	 * RXE_INFLIGHT_SKBS_PER_QP_HIGH (CNPs and read ACKs are not among
	 * them).
	 */
	if (rdma_nl_put_driver_u32(msg, "skb_out", atomic_read(&qp->skb_out)))
		return -EMSGSIZE;
	if (rdma_nl_put_driver_string(msg, "cc_algorithm",
				      ops ? ops->name : "none"))
		return -EMSGSIZE;
	if (!ops)
		return 0;
	if (rdma_nl_put_driver_u64(msg, "cc_rate_bps", cc->rate_bps) ||
	    rdma_nl_put_driver_u64(msg, "cc_line_rate_bps", cc->line_rate_bps) ||
	    rdma_nl_put_driver_u64(msg, "cc_inflight_bytes",
				   rxe_cc_inflight_bytes(cc)) ||
	    rdma_nl_put_driver_u32(msg, "cc_stopped", cc->stopped) ||
	    rdma_nl_put_driver_u32(msg, "cc_peer_counts", cc->peer_counts) ||
	    rdma_nl_put_driver_u32(msg, "cc_read_acks", cc->read_acks) ||
	    rdma_nl_put_driver_u64(msg, "cc_inflight_max_bytes",
				   cc->inflight_max_bytes))
		return -EMSGSIZE;
	if (ops->window_bytes) {
		u64 win = rxe_cc_window(qp);

		/* 0: no cap */
		if (rdma_nl_put_driver_u64(msg, "cc_window_bytes",
					   win == U64_MAX ? 0 : win) ||
		    rdma_nl_put_driver_u64(msg, "cc_window_holds",
					   cc->window_holds))
			return -EMSGSIZE;
	}
	if (ops->n_stats) {
		u64 v[RXE_CC_MAX_STATS];
		u32 i;

		ops->stats(rxe_cc_sender_of(qp), v);
		for (i = 0; i < ops->n_stats; i++)
			if (rdma_nl_put_driver_u64(msg, ops->stat_names[i], v[i]))
				return -EMSGSIZE;
	}
	return 0;
}

/*
 * Per-QP state for "rdma res show qp -dd": the driver attribute table,
 * filled under the QP's CC lock so that its figures belong together
 * (netlink only copies into the message, it does not sleep).
 */
int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp)
{
	struct rxe_qp *qp = to_rqp(ibqp);
	struct rxe_cc_qp *cc = rxe_cc_of(qp);
	struct nlattr *table;
	int err;

	table = nla_nest_start(msg, RDMA_NLDEV_ATTR_DRIVER);
	if (!table)
		return -EMSGSIZE;
	if (cc) {
		spin_lock_bh(&cc->lock);
		err = rxe_cc_fill_res(msg, qp);
		spin_unlock_bh(&cc->lock);
	} else {
		err = rxe_cc_fill_res(msg, qp);
	}
	if (err) {
		nla_nest_cancel(msg, table);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, table);
	return 0;
}

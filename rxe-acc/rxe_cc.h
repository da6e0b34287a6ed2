/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * rxe_cc.h - per-QP congestion control for rdma_rxe: the framework.
 *
 * The model is Linux TCP's tcp_congestion_ops: named algorithms, a per
 * device default, a per-QP choice made once, and hooks that the transport
 * calls at fixed points.  Each algorithm is a hermetic file pair, shared
 * with the user-space tests and the simulator (rxe_cc_algos.c lists
 * them); this framework owns locking, timers, pacing, the wire (ECN,
 * CNPs, echoed marks), knobs, counters and trace events.
 *
 * Hooks, one line each in the rxe files:
 *
 *   rxe_cc_init/exit()       module load/unload: register the algorithms
 *   rxe_cc_dev_init()        device creation: default knobs, line rate
 *   rxe_cc_netdev_event()    netdev up/change (RTNL held): line rate
 *   rxe_cc_qp_init()         QP creation: the receiver role, no sender state
 *   rxe_cc_qp_modify()       modify_qp, before the attributes are applied:
 *                            an RC QP leaving INIT picks its algorithm by
 *                            its priority (traffic class) or the device
 *                            default, and gets sender state if it runs one
 *   rxe_cc_qp_start()        RC QP enters RTR, then RTS: start the algorithm
 *   rxe_cc_qp_error()        QP enters ERROR: no timer fires any more
 *   rxe_cc_qp_stop()         QP reset/destroy: cancel every timer
 *   rxe_cc_qp_free()         QP cleanup, after its tasks: free sender state
 *   rxe_cc_req_wait()        requester, before building a packet: may it
 *                            leave now?  If not a timer (pacing) or an
 *                            acknowledgment (a window) resumes the task
 *   rxe_cc_req_sent()        requester, after building a packet and before
 *                            rxe_xmit_packet(): record it, so that an ACK
 *                            that comes back inside xmit finds it
 *   rxe_cc_req_unsent()      requester, xmit failed: forget that record
 *   rxe_cc_data_bth()        request or read response: BTH bits (ask
 *                            the receiver to echo marks)
 *   rxe_cc_resp_wait()       responder, before a read response packet
 *   rxe_cc_resp_sent()       responder, a read response packet is
 *                            about to be transmitted
 *   rxe_cc_ack_req_every()   requester: ask for an ACK every N packets
 *   rxe_cc_rcv_ack()         receive path: an ACK/response for a sender QP
 *   rxe_cc_rcv_ctrl()        receive path: a CNP, or an acknowledgment
 *                            of read responses, for a sender QP
 *   rxe_cc_np_rcv()          receive path: a request for a responder QP
 *   rxe_cc_np_ack_mark()     responder: echo marks in the ACK it builds
 *   rxe_cc_np_echo_init()    QP creation and reset: the mark counters
 *   rxe_cc_np_req()          responder: a request accepted in sequence
 *                            (count its mark)
 *   rxe_cc_np_ack_due()      responder: ACK it even without AckReq?
 *   rxe_cc_np_ack_counts()   responder: the mark counters in the ACK
 *   rxe_cc_rcv_ack_echo()    receive path: an ACK/response for a sender
 *                            QP, with or without mark counters
 *   rxe_cc_tos()             IP header: DSCP and ECN of every packet
 *
 * Sender accounting is by packet, not by PSN (rxe_cc_ring.c): a read
 * request spans as many PSNs as it has response packets, so a table
 * indexed by PSN would alias.  The work under the lock is bounded by the
 * ring size, whatever the message size.  The requester never has more
 * request packets outstanding than unacknowledged PSNs
 * (RXE_MAX_UNACKED_PSNS), which the request ring holds.  Read responses
 * get a ring of their own once the peer acknowledges them (ACC).
 *
 * Memory: a QP pays only for what it runs.  Every QP embeds its receiver
 * role (two words: the marks to echo, the time of its last CNP) and a
 * pointer, all three in what were alignment holes of struct rxe_qp, which
 * stays 2048 bytes (kmalloc-2k) on 64-bit; the sender state
 * (struct rxe_cc_qp: timers, pacer, rings and the algorithm's private
 * area) is allocated when an RC QP that runs an algorithm leaves INIT,
 * in process context, and freed with the QP.  The pointer is set once and
 * cleared only after the QP's tasks are gone, so the data path reads it
 * without a lock.  UD, GSI and RC QPs that run "none" have none.
 *
 * An algorithm is one hermetic file pair (rxe_cc_core.h: struct
 * rxe_cc_ops) that knows nothing of QPs: its hooks see a struct
 * rxe_cc_sender the framework fills in, and report what they did in its
 * events, which the framework turns into counters and trace events.  Its
 * ops table also lists its knobs and statistics, from which the sysfs
 * files and the "rdma res" attributes are made; its private state fits
 * in RXE_CC_PRIV_SIZE bytes of the sender state.
 *
 * Concurrency: the requester and completer tasks, the receive softirq and
 * the soft CC timer all touch a QP's state, so it is guarded by one
 * spinlock, taken with bottom halves off (the tasks may also run in
 * process context).  No user runs in hard interrupt context: the pace
 * timer, a hard hrtimer, only exchanges the atomic pace_waiters.  Nothing
 * here sleeps or allocates in the data path.
 */
#ifndef RXE_CC_H
#define RXE_CC_H

#include <linux/atomic.h>
#include <linux/hrtimer.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>

#include "rxe_cc_pacer.h"
#include "rxe_cc_ring.h"
#include "rxe_cc_echo.h"

struct rxe_dev;
struct rxe_qp;
struct rxe_pkt_info;
struct sk_buff;
struct attribute_group;
struct ib_qp;
struct ib_qp_attr;

/*
 * Algorithms are named by a small key, their place in rxe_cc_builtin[]
 * plus one: the knobs store keys, 0 is "none" (stock rxe, no sender
 * state).
 */
#define RXE_CC_ALGO_NONE		0
#define RXE_CC_MAX_ALGOS		8
/* Bytes of per-QP private state an algorithm may use. */
#define RXE_CC_PRIV_U64			80
#define RXE_CC_PRIV_SIZE		(RXE_CC_PRIV_U64 * sizeof(u64))
/* Statistics an algorithm may report per QP ("rdma res show qp -dd"). */
#define RXE_CC_MAX_STATS		16
/* Bytes of knobs an algorithm may have (and cache per QP, derived). */
#define RXE_CC_PARAMS_U64		16
#define RXE_CC_PARAMS_SIZE		(RXE_CC_PARAMS_U64 * sizeof(u64))

/* Priorities a QP's traffic class maps to: DSCP >> 3, as dscp2prio does. */
#define RXE_CC_NUM_PRIO			8
/* "use the device default" in prio_algo[] */
#define RXE_CC_ALGO_DEFAULT		(-1)

/* Packets in flight the rings track (powers of 2). */
#define RXE_CC_REQ_SLOTS		256
#define RXE_CC_RESP_SLOTS		64

/* cnp_dscp/ack_dscp value: keep the DSCP (and PFC priority) of the QP. */
#define RXE_CC_DSCP_OF_QP		(-1)

/* The fastest Ethernet port rxe may be bound to: 800 Gb/s, with margin. */
#define RXE_CC_MAX_LINE_RATE_MBPS	1600000U

/*
 * Device-wide knobs (sysfs cc/); QPs read them live.  Each algorithm's
 * own knobs are a blob its ops table describes (struct rxe_cc_knob rows),
 * at algo_knobs[key].
 */
struct rxe_cc_params {
	u64 algo_knobs[RXE_CC_MAX_ALGOS][RXE_CC_PARAMS_U64];
	u32 line_rate_mbps;		/* 0: the netdev's speed */
	u32 pacer_burst_us;		/* bucket depth in time at the rate */
	u32 np_cnp_gap_us;		/* receiver: min_time_between_cnps */
	s8 cnp_dscp;			/* DSCP of CNPs, or RXE_CC_DSCP_OF_QP */
	s8 ack_dscp;			/* DSCP of ACKs, or RXE_CC_DSCP_OF_QP */
	u8 algo;			/* algorithm key: the default */
	u8 np_prio_mask;		/* BIT(prio): notification point on */
	u8 ack_every;			/* receiver: ACK per N clean packets */
	s8 prio_algo[RXE_CC_NUM_PRIO];	/* key per priority, or ALGO_DEFAULT */
};

struct rxe_cc_dev {
	struct mutex knob_lock;		/* serialises knob writes */
	seqlock_t params_seq;		/* readers copy a consistent set */
	struct rxe_cc_params params;
	u32 speed_mbps;			/* netdev speed, 0: unknown */
};

/*
 * The tasks that may wait for pacer credit or for room in the window (bit
 * numbers in pace_waiters).
 */
enum rxe_cc_waiter {
	RXE_CC_WAIT_REQ,
	RXE_CC_WAIT_RESP,
	RXE_CC_NUM_WAITERS,
};

/* Sender state of an RC QP that runs an algorithm (allocated). */
struct rxe_cc_qp {
	struct rxe_qp *qp;		/* back pointer, for the timers */
	const struct rxe_cc_ops *ops;	/* running: NULL until started */
	const struct rxe_cc_ops *chosen; /* what rxe_cc_qp_modify() picked */
	const void *knobs;		/* the device's knobs of ops */
	spinlock_t lock;		/* _bh: never taken in hard irq context */
	bool stopped;			/* no timer may be armed */
	bool sent_any;			/* a packet left since the start */
	bool windowed;			/* the algorithm caps W: no fast path */
	unsigned long pace_waiters;	/* RXE_CC_WAIT_* bits, atomic */
	/* bytes of the packet a waiter holds for room in the window, 0: none */
	u32 window_need[RXE_CC_NUM_WAITERS];
	u64 window_holds;		/* packets the window held */
	u64 inflight_max_bytes;		/* the largest W since the start */
	struct hrtimer pace_timer;	/* resumes the waiting tasks */
	struct hrtimer cc_timer;	/* the algorithm's own deadlines */
	struct rxe_cc_pacer pacer;
	u64 resp_wait_ns;		/* a read response waits since, or 0 */
	bool read_acks;			/* the peer acknowledges read responses */
	bool peer_counts;		/* its ACKs count marks: it coalesces */
	struct rxe_cc_echo_seen echo_seen; /* the counters last read */
	u64 rate_bps;			/* what the pacer was last given */
	u64 line_rate_bps;
	u32 wire_overhead_bytes;	/* beyond BTH + payload, see below */
	struct rxe_cc_ring req;		/* request packets in flight */
	struct rxe_cc_ring resp;	/* read responses in flight */
	/* what the algorithm sees of the QP: see rxe_cc_sender_of() */
	struct rxe_cc_sender snd;
	u64 priv[RXE_CC_PRIV_U64];	/* the algorithm's state (snd.priv) */
	/* the knobs as this QP uses them (snd.params): rxe_cc_qp_params() */
	unsigned int params_seq;	/* the device's knob sequence; odd: stale */
	unsigned long params_timeout_jiffies;
	u64 params[RXE_CC_PARAMS_U64];
	struct rxe_cc_sent req_slots[RXE_CC_REQ_SLOTS];
	struct rxe_cc_sent resp_slots[RXE_CC_RESP_SLOTS];
};

/*
 * W: the bytes of this QP in flight, both directions; read responses
 * only once the peer has shown that it acknowledges them.
 */
static inline u64 rxe_cc_inflight_bytes(const struct rxe_cc_qp *cc)
{
	return cc->req.inflight_bytes +
	       (cc->read_acks ? cc->resp.inflight_bytes : 0);
}

/* Why a QP's rate changed (trace event rxe_cc_rate). */
enum rxe_cc_why {
	RXE_CC_WHY_START,		/* the algorithm started */
	RXE_CC_WHY_TIMER,		/* its timer fired */
	RXE_CC_WHY_SENT,		/* data left */
	RXE_CC_WHY_ACK,			/* an acknowledgment came in */
	RXE_CC_WHY_CNP,			/* a CNP came in */
};

/* What happened to a CNP (trace event rxe_cc_cnp). */
enum rxe_cc_cnp_what {
	RXE_CC_CNP_SENT,		/* the notification point sent one */
	RXE_CC_CNP_HANDLED,		/* DCQCN opened a rate decrease */
	RXE_CC_CNP_IGNORED,		/* folded into a pending decrease */
};

/*
 * The algorithms built into rdma_rxe (rxe_cc_algos.c), NULL-terminated:
 * adding one is its file pair, a line there and one in the Makefile.
 */
extern const struct rxe_cc_ops *const rxe_cc_builtin[];
extern const struct attribute_group *rxe_cc_port_groups[];

/*
 * The sender state of @qp, NULL if it runs no algorithm: set once, in
 * process context, before the QP can send; the data path reads it here.
 */
#define rxe_cc_of(qp)			smp_load_acquire(&(qp)->cc)

/* Every built-in algorithm @ops with its key @key, from 1. */
#define rxe_cc_for_each_algo(key, ops)					\
	for ((key) = 1; ((ops) = rxe_cc_algo(key)); (key)++)

/* The priority a traffic class maps to: DSCP >> 3, as dscp2prio does. */
#define rxe_cc_prio_of(tclass)		((u8)(tclass) >> 5)

/* The priority of a QP (a macro: struct rxe_qp is not complete here). */
#define rxe_cc_qp_prio(qp)	rxe_cc_prio_of((qp)->pri_av.grh.traffic_class)

/*
 * The clock of every CC event, sender and receiver alike (monotonic;
 * read under the QP's lock by the sender).
 */
static inline u64 rxe_cc_now_ns(void)
{
	return ktime_get_ns();
}

/* rxe_cc.c */
int rxe_cc_init(void);
void rxe_cc_exit(void);
const struct rxe_cc_ops *rxe_cc_algo(int key);
int rxe_cc_algo_by_name(const char *buf);
const char *rxe_cc_algo_name(int key);
int rxe_cc_algos_show(char *buf);
u32 rxe_cc_frame_bytes(struct rxe_qp *qp);
u64 rxe_cc_echo_period_ns(struct rxe_dev *rxe);
void rxe_cc_params_default(struct rxe_cc_params *p);
void rxe_cc_dev_init(struct rxe_dev *rxe, struct net_device *ndev);
void rxe_cc_netdev_event(struct rxe_dev *rxe);
void rxe_cc_qp_init(struct rxe_qp *qp);
int rxe_cc_qp_modify(struct rxe_qp *qp, struct ib_qp_attr *attr, int mask);
void rxe_cc_qp_start(struct rxe_qp *qp);
void rxe_cc_qp_error(struct rxe_qp *qp);
void rxe_cc_qp_stop(struct rxe_qp *qp);
void rxe_cc_qp_free(struct rxe_qp *qp);
bool rxe_cc_req_wait(struct rxe_qp *qp, u32 bytes);
void rxe_cc_req_sent(struct rxe_qp *qp, u32 psn, u32 bytes);
void rxe_cc_req_unsent(struct rxe_qp *qp, u32 psn, u32 bytes);
void rxe_cc_data_bth(struct rxe_qp *qp, struct rxe_pkt_info *pkt);
bool rxe_cc_resp_wait(struct rxe_qp *qp, u32 bytes);
void rxe_cc_resp_sent(struct rxe_qp *qp, u32 psn, u32 bytes);
u32 rxe_cc_ack_req_every(struct rxe_qp *qp, u32 stock);
void rxe_cc_rcv_ack(struct rxe_pkt_info *pkt);
void rxe_cc_rcv_ack_counts(struct rxe_pkt_info *pkt, u8 ce_wire, u8 ue_wire,
			   u32 *ce_pkts, u32 *ue_pkts);
void rxe_cc_rcv_ctrl(struct rxe_pkt_info *pkt);
u8 rxe_cc_tos(struct rxe_pkt_info *pkt, u8 tclass);
int rxe_cc_fill_res_qp_entry(struct sk_buff *msg, struct ib_qp *ibqp);
void rxe_cc_rate_changed(struct rxe_qp *qp, u64 now_ns, enum rxe_cc_why why);

/* rxe_cc_sysfs.c */
int rxe_cc_sysfs_init(void);
void rxe_cc_sysfs_exit(void);

/* rxe_cc_np.c: notification point and mark echo */
void rxe_cc_np_init(struct rxe_qp *qp);
void rxe_cc_np_rcv(struct rxe_pkt_info *pkt);
void rxe_cc_np_rcv_resp(struct rxe_pkt_info *pkt);
void rxe_cc_np_ack_mark(struct rxe_qp *qp, struct rxe_pkt_info *ack);
bool rxe_cc_is_read_resp(const struct rxe_pkt_info *pkt);
enum rxe_cc_mark rxe_cc_echoed_mark(struct rxe_pkt_info *pkt);
enum rxe_cc_mark rxe_cc_ecn_to_mark(u8 ecn);
bool rxe_cc_np_on(struct rxe_qp *qp, struct rxe_dev *rxe);

/* rxe_cc_np_echo.c: coalesced ACKs that count marks */
void rxe_cc_np_echo_init(struct rxe_qp *qp);
void rxe_cc_np_req(struct rxe_qp *qp, struct rxe_pkt_info *pkt);
bool rxe_cc_np_ack_due(struct rxe_qp *qp);
void rxe_cc_np_ack_counts(struct rxe_qp *qp, struct rxe_pkt_info *ack);
void rxe_cc_rcv_ack_echo(struct rxe_pkt_info *pkt);

#define RXE_CC_BPS_PER_MBPS		1000000ULL

/* The device of a QP (a macro: struct rxe_qp is not complete here). */
#define rxe_cc_qp_dev(qp)		to_rdev((qp)->ibqp.device)

/*
 * Wire bytes of a RoCEv2 packet beyond the BTH and its payload: Ethernet,
 * IP and UDP headers, the ICRC, and what every Ethernet frame costs on
 * layer 1 (FCS, preamble + SFD, minimum inter-frame gap).  Line rates are
 * layer-1 rates: a pacer that left out the last three would overrun its
 * line by 2 % at a 1024 B MTU and build a standing queue in the NIC that
 * no switch marks.  The IP header (20 or 40 B) and a VLAN tag depend on
 * the QP: rxe_cc_qp_start() adds them up in cc.wire_overhead_bytes.
 */
#define RXE_CC_ETH_L1_OVERHEAD_BYTES	(ETH_FCS_LEN + 8 + 12)
#define RXE_CC_NON_IP_OVERHEAD_BYTES	(ETH_HLEN + 8 + RXE_ICRC_SIZE + \
					 RXE_CC_ETH_L1_OVERHEAD_BYTES)

/*
 * Per-packet wire bytes of @qp beyond its BTH and payload (rxe_req.c);
 * only a QP with sender state paces, so 0 will do for the others.  The
 * sender state is published once (rxe_cc_of()), like every other reader
 * outside the lock.
 */
#define rxe_cc_wire_overhead_bytes(qp) ({				\
	const struct rxe_cc_qp *__cc = rxe_cc_of(qp);			\
									\
	__cc ? __cc->wire_overhead_bytes : 0;				\
})

#endif /* RXE_CC_H */

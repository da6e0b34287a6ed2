// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * net.h - the packet, link, switch and host models of the simulator.
 *
 * ns-3's Simulator is the event engine (Schedule/Cancel/Now, ns time); the
 * network elements are our own compact classes rather than ns-3 NetDevices:
 * Debian's ns-3 has no PFC-capable device, and a packet here is a plain
 * struct, which keeps a 100 Gb/s fabric at millions of events per second.
 *
 *   host --Port==link==Port-- switch --Port==link==Port-- host
 *
 * A Port is one direction of a full-duplex link: it owns the egress queues
 * (one per priority), serialises at rate_bps and delivers after delay_ns.
 * A PAUSE received on a Port stops that Port's egress of the priority.
 */
#ifndef SIM_NET_H
#define SIM_NET_H

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "ns3/event-id.h"

#include "cores.h"

namespace sim {

using u64 = uint64_t;
using u32 = uint32_t;

constexpr int kPrioCtrl = 0;	// ACK, CNP: strict priority, not paused
constexpr int kPrioData = 1;	// RoCE data: the lossless (PFC) class
constexpr int kNPrio = 2;
constexpr int kMaxHops = 6;	// INT stack depth (HPCC)
constexpr u32 kHdrBytes = 48;	// Eth + IP + UDP + BTH + ICRC
constexpr u32 kCtrlBytes = 64;	// ACK, CNP, PFC frame on the wire
constexpr u64 kQuantumBits = 512;	// one PFC pause quantum

enum class PktType : uint8_t { Data, Ack, Nak, Cnp, Pause };

// One switch hop as HPCC's INT records it at dequeue.
struct IntHop {
	u64 ts_ns;
	u64 tx_bytes;
	u64 qlen_bytes;
	u64 rate_bps;
};

struct Pkt {
	PktType type;
	uint8_t prio;
	uint8_t ecn;		// LSW_ECN_*
	uint8_t nhop;
	uint8_t echo_ce, echo_ue;	// ACK/NAK: the receiver's mark counters
	u32 src, dst;		// host ids
	u32 flow;
	u32 bytes;		// on the wire
	u32 payload;
	u64 psn;		// data: sequence; ACK/NAK: next expected
	u64 ts_ns;		// data: sent; ACK: echoed from the data packet
	uint16_t quanta;	// Pause: 0 = resume
	int in_port;		// switch bookkeeping: ingress port
	IntHop hop[kMaxHops];
};

class Node;

struct PortStats {
	u64 tx_pkts = 0, tx_bytes = 0;
	u64 pause_rx = 0;		// PAUSE frames (not resumes) received
	u64 ce_marks = 0, ue_marks = 0;	// set here (switch egress)
	u64 paused_ns = 0;		// data egress time spent paused
	u64 max_q_bytes = 0;
	u64 q_area = 0;			// integral of the data queue, B * ns
	u64 q_since_ns = 0;
};

struct Port {
	Node *node = nullptr;
	int idx = 0;
	Node *peer = nullptr;
	int peer_idx = 0;
	u64 rate_bps = 0;
	u64 delay_ns = 0;
	std::deque<Pkt *> q[kNPrio];
	u64 q_bytes[kNPrio] = {};
	std::deque<Pkt *> pfc;	// PFC frames: before everything, never paused
	bool busy = false;
	u64 paused_until_ns[kNPrio] = {};
	u64 pause_start_ns[kNPrio] = {};
	ns3::EventId wake[kNPrio];
	u64 tx_bytes_total = 0;	// INT txBytes
	struct lsw_tcd tcd;	// data priority only
	PortStats st;

	bool Paused(int prio, u64 now) const { return now < paused_until_ns[prio]; }
};

class Node {
public:
	explicit Node(int id) : id_(id) {}
	virtual ~Node() = default;
	int id() const { return id_; }
	std::vector<Port> ports;

	// A packet arrives on port @in (after serialisation and delay).
	virtual void Receive(Pkt *p, int in) = 0;
	// The port may send: give it the next packet of @prio or nullptr.
	virtual Pkt *Pull(Port &, int) { return nullptr; }
	// A packet left the queue of @port (switch: marking, buffer release).
	virtual void OnDequeue(Port &, Pkt *) {}

	void TryTx(int port);
	void SendPfc(int port, int prio, uint16_t quanta);
	void HandlePause(const Pkt *p, int in);

protected:
	int id_;
};

// Connects a's port to b's port in both directions.
void Connect(Node *a, Node *b, u64 rate_bps, u64 delay_ns);

u64 NowNs();
u64 TxNs(u64 bytes, u64 rate_bps);
u64 PauseNs(uint16_t quanta, u64 rate_bps);

/* ---- switch ---------------------------------------------------------- */

enum class Marking { Off, Red, Tcd };

struct SwitchCfg {
	u64 buffer_bytes = 32ull << 20;	// shared buffer
	u64 xoff_bytes = 512 << 10;	// per ingress and priority
	// 16 KB of hysteresis: with 2 MTU, max(T_on) at 400 Gb/s (~3 us) is
	// shorter than one pause round trip and TCD reads victims as CE
	u64 xon_bytes = (512 << 10) - (16 << 10);
	uint16_t pause_quanta = 0xffff;
	Marking marking = Marking::Off;
	u64 red_kmin = 100 << 10, red_kmax = 400 << 10;
	double red_pmax = 0.2;
	// > 0: red_kmin/kmax are for a port of this rate and scale with
	// each port's rate (the HPCC simulator's KMIN_MAP/KMAX_MAP); 0: the
	// same thresholds at every port
	u64 red_ref_bps = 0;
	u64 tcd_k_bytes = 30000;	// ours, by measurement (sim/README.md)
	u64 tcd_period_ns = 10000;
	double tcd_epsilon = 0.05;
	// how NO/CE is decided outside UE (lsw_mark.h); DEQUEUE marks each
	// packet by its queue, a step at K or RED K..tcd_kmax with tcd_pmax
	lsw_tcd_rule tcd_rule = LSW_TCD_RULE_DEQUEUE;
	u64 tcd_kmax_bytes = 0;
	double tcd_pmax = 1.0;
	bool int_enabled = false;	// HPCC
	bool pfc_enabled = true;
};

struct SwitchStats {
	u64 drops[kNPrio] = {};
	u64 pause_tx = 0, resume_tx = 0;
	u64 first_pause_ns = ~0ull, first_resume_ns = ~0ull;
	u64 max_used_bytes = 0;
	u64 ce_marks = 0, ue_marks = 0;
};

// The ECMP hash of a flow at a switch salted with @salt.
u32 EcmpHash(u32 flow, u32 salt);

class Switch : public Node {
public:
	Switch(int id, const SwitchCfg &c, u64 seed);
	void Init();		// after Connect: TCD per port
	void Receive(Pkt *p, int in) override;
	void OnDequeue(Port &port, Pkt *p) override;

	// dst host -> candidate egress ports (ECMP by flow hash)
	std::vector<std::vector<int>> routes;
	// Which layer of the fabric: "tor", "agg", "core", "spine", "switch".
	const char *tier = "switch";
	// Per-switch hash seed, as real ECMP has: with one hash at every
	// tier a flow's choice at the ToR would fix its choice at the
	// aggregation switch and leave most core links idle.
	u32 ecmp_salt = 0;
	SwitchCfg cfg;
	SwitchStats st;
	u64 used_bytes = 0;
	std::vector<std::vector<u64>> ingress_bytes;	// [port][prio]
	std::vector<std::vector<bool>> pause_sent;	// [port][prio]

private:
	void Refresh(int port, int prio);
	void Accrue(Port &eg, u64 now);
	u64 rng_;
	std::vector<struct lsw_red> red_;	// per port
};

/* ---- host ------------------------------------------------------------ */

enum class Algo { None, Dcqcn, Acc, AccNoHalt, Timely, Hpcc };
const char *AlgoName(Algo a);
bool ParseAlgo(const std::string &s, Algo *a);

struct HostCfg {
	Algo algo = Algo::None;
	u32 mtu_payload = 1000;
	u32 ack_every = 1;		// coalesce: one ACK per N clean packets
	u64 acc_period_ns = 10000;
	u64 base_rtt_ns = 0;		// 0: the cores measure it
	u64 window_bytes = 0;		// inflight cap for every core; 0 = none
	// ACC only (a start rule the core does not have; see cc.cc): an
	// inflight cap, fixed or, if acc_var_window, scaled by R / C
	u64 acc_window_bytes = 0;
	bool acc_var_window = false;
	// 0 = the core's default (or 8 periods for the halt cap)
	u32 acc_theta_permille = 0;
	u64 acc_halt_max_ns = 0;
	int acc_gate = -1;		// the increase rule; -1 = the core's default
	// DCQCN: 0 (or -1 where 0 is a value) = the core's default
	u32 dcqcn_time_reset_us = 0;
	long long dcqcn_byte_reset = -1;	// 0: no byte counter
	u32 dcqcn_ai_mbps = 0, dcqcn_hai_mbps = 0;
	u32 dcqcn_alpha_us = 0, dcqcn_rrmp_us = 0;
	u32 dcqcn_min_rate_mbps = 0;
	int dcqcn_g = -1;		// dce_tcp_g, of 1024 (alpha's old weight)
	// TIMELY, HPCC: 0 (or -1) = the core's default
	u32 timely_tlow_us = 0, timely_thigh_us = 0, timely_min_rtt_us = 0;
	u32 timely_min_rate_mbps = 0;
	u32 hpcc_ai_mbps = 0;		// W_AI = this rate over T
	int hpcc_max_stage = -1;
	// the HPCC simulator's overheads (its run.py): INT bytes on every
	// HPCC data packet, and ACKs/CNPs in the data class (PFC, FIFO with
	// data) instead of strict priority
	u32 int_bytes = 0;
	bool ack_data_class = false;
	u32 HdrBytes() const
	{
		return kHdrBytes + (algo == Algo::Hpcc ? int_bytes : 0);
	}
};

class Cc;

struct Flow {
	u32 id;
	u32 src, dst;
	u64 size_bytes;
	u64 start_ns;
	u64 finish_ns = 0;
	u64 npkts;
	u64 snd_nxt = 0, snd_una = 0;	// packet sequence numbers
	std::unique_ptr<Cc> cc;
	ns3::EventId timer;
	u64 timer_at = 0;
	// receiver side
	u64 rcv_nxt = 0;
	u64 marks_ce = 0, marks_ue = 0;	// seen by the receiver
	struct rxe_cc_echo echo = {};	// when to ACK, marks counted
	uint8_t rcv_mark = 0;	// strongest mark since the last ACK
	struct rxe_cc_echo_seen echo_seen = {};	// sender: counters read
	u32 pend_ce = 0, pend_ue = 0;	// counted by ACKs that acked nothing
	struct rxe_cc_np np;		// the notification point
};

struct HostStats {
	u64 data_tx = 0, acks_tx = 0, cnps_tx = 0, naks_tx = 0;
	u64 retx = 0;
	u64 last_rx_ns = 0;	// last data packet received (deadlock check)
};

class Host : public Node {
public:
	Host(int id, const HostCfg &c) : Node(id), cfg(c) {}
	void Receive(Pkt *p, int in) override;
	Pkt *Pull(Port &port, int prio) override;
	void StartFlow(Flow *f);

	HostCfg cfg;
	HostStats st;
	std::vector<Flow *> active;	// sending
	std::vector<Flow *> *all = nullptr;	// every flow, by id
	void (*on_done)(Flow *) = nullptr;

private:
	void OnData(Pkt *p);
	void OnAck(Pkt *p);
	void OnCnp(Pkt *p);
	void SendCtrl(Pkt *p);
	void ArmTimer(Flow *f);
	void CcTimer(Flow *f);
	void Wake(u64 at_ns);
	size_t rr_ = 0;
	ns3::EventId wake_;
	u64 wake_at_ = 0;
};

}  // namespace sim

#endif

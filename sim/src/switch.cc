// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * switch.cc - an output-queued switch with a shared buffer, per-ingress
 * PFC, RED/ECN and TCD (the very lsw_mark.c of the lab switch).
 *
 * Buffer accounting is per (ingress port, priority), as on Broadcom-class
 * switches: a packet is charged to the port it came in on until it leaves.
 * Crossing XOFF sends a PAUSE upstream on that port (refreshed at half its
 * duration); falling to XON sends a resume (quanta 0).  The lossless class
 * never drops while the XOFF headroom covers the in-flight bytes; a drop
 * is counted, never hidden, and the tests assert there are none.
 */
#include <algorithm>

#include "net.h"

#include "ns3/simulator.h"

#include "cores.h"

namespace sim {

Switch::Switch(int id, const SwitchCfg &c, u64 seed)
	: Node(id), cfg(c), rng_(seed ? seed : 1)
{
}

void Switch::Init()
{
	u64 now = NowNs();

	ingress_bytes.assign(ports.size(), std::vector<u64>(kNPrio, 0));
	pause_sent.assign(ports.size(), std::vector<bool>(kNPrio, false));
	red_.resize(ports.size());
	for (Port &pt : ports) {
		double scale = cfg.red_ref_bps ?
			(double)pt.rate_bps / (double)cfg.red_ref_bps : 1.0;

		lsw_red_init(&red_[pt.idx], (u64)(cfg.red_kmin * scale),
			     (u64)(cfg.red_kmax * scale), cfg.red_pmax);
		u64 ton = lsw_tcd_max_ton_ns(cfg.xoff_bytes - cfg.xon_bytes,
					     cfg.tcd_epsilon, pt.rate_bps,
					     1048, pt.delay_ns);
		lsw_tcd_init(&pt.tcd, cfg.tcd_k_bytes, cfg.tcd_period_ns, ton,
			     now);
		lsw_tcd_set_rule(&pt.tcd, cfg.tcd_rule, cfg.tcd_kmax_bytes,
				 cfg.tcd_pmax, 1048);
	}
}

// murmur3's 32-bit finaliser: every bit of flow and salt reaches every
// bit of the result, so the choices of two tiers are independent.
u32 EcmpHash(u32 flow, u32 salt)
{
	u32 h = flow ^ (salt * 0x9e3779b9u);

	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	h ^= h >> 16;
	return h;
}

void Switch::Refresh(int port, int prio)
{
	u64 half = PauseNs(cfg.pause_quanta, ports[port].rate_bps) / 2;

	ns3::Simulator::Schedule(ns3::NanoSeconds(half), [this, port, prio]() {
		if (!pause_sent[port][prio])
			return;
		st.pause_tx++;
		SendPfc(port, prio, cfg.pause_quanta);
		Refresh(port, prio);
	});
}

// The time integral of the data queue, brought up to now before it changes.
void Switch::Accrue(Port &eg, u64 now)
{
	eg.st.q_area += eg.q_bytes[kPrioData] * (now - eg.st.q_since_ns);
	eg.st.q_since_ns = now;
}

void Switch::Receive(Pkt *p, int in)
{
	u64 now = NowNs();

	if (p->type == PktType::Pause) {
		Port &pt = ports[in];

		if (p->prio == kPrioData && cfg.marking == Marking::Tcd)
			lsw_tcd_on_pfc(&pt.tcd, pt.q_bytes[kPrioData],
				       p->quanta ? PauseNs(p->quanta, pt.rate_bps) : 0,
				       now);
		HandlePause(p, in);
		delete p;
		return;
	}
	const std::vector<int> &cand = routes[p->dst];
	int out = cand.size() == 1 ? cand[0] :
		  cand[EcmpHash(p->flow, ecmp_salt) % cand.size()];
	Port &eg = ports[out];
	int prio = p->prio;

	if (used_bytes + p->bytes > cfg.buffer_bytes) {
		st.drops[prio]++;
		delete p;
		return;
	}
	used_bytes += p->bytes;
	st.max_used_bytes = std::max(st.max_used_bytes, used_bytes);
	ingress_bytes[in][prio] += p->bytes;
	p->in_port = in;
	if (prio == kPrioData && cfg.marking == Marking::Tcd)
		lsw_tcd_catch_up(&eg.tcd, eg.q_bytes[prio], now);
	Accrue(eg, now);
	eg.q[prio].push_back(p);
	eg.q_bytes[prio] += p->bytes;
	eg.st.max_q_bytes = std::max(eg.st.max_q_bytes, eg.q_bytes[prio]);
	if (cfg.pfc_enabled && prio == kPrioData && !pause_sent[in][prio] &&
	    ingress_bytes[in][prio] >= cfg.xoff_bytes) {
		pause_sent[in][prio] = true;
		st.pause_tx++;
		st.first_pause_ns = std::min(st.first_pause_ns, now);
		SendPfc(in, prio, cfg.pause_quanta);
		Refresh(in, prio);
	}
	TryTx(out);
}

void Switch::OnDequeue(Port &eg, Pkt *p)
{
	u64 now = NowNs();
	int prio = p->prio;
	int in = p->in_port;

	if (p->type == PktType::Data) {
		u64 q = eg.q_bytes[prio];	// already without p

		eg.q_bytes[prio] += p->bytes;	// accrue what was there
		Accrue(eg, now);
		eg.q_bytes[prio] -= p->bytes;

		if (cfg.marking == Marking::Red && p->ecn != LSW_ECN_NOT_ECT &&
		    lsw_red_mark(&red_[eg.idx], q, &rng_)) {
			p->ecn = LSW_ECN_CE;
			st.ce_marks++;
			eg.st.ce_marks++;
		} else if (cfg.marking == Marking::Tcd) {
			// the queue was q + p->bytes until this instant
			lsw_tcd_state s = lsw_tcd_dequeue(&eg.tcd, q + p->bytes,
							  now, &rng_);
			uint8_t e = lsw_tcd_remark(s, p->ecn);

			bool ce = e == LSW_ECN_CE && p->ecn != LSW_ECN_CE;
			bool ue = e == LSW_ECN_ECT1 && p->ecn == LSW_ECN_ECT0;

			st.ce_marks += ce;
			st.ue_marks += ue;
			eg.st.ce_marks += ce;
			eg.st.ue_marks += ue;
			p->ecn = e;
		}
		if (cfg.int_enabled && p->nhop < kMaxHops)
			p->hop[p->nhop++] = IntHop{now, eg.tx_bytes_total, q,
						   eg.rate_bps};
	}
	used_bytes -= p->bytes;
	ingress_bytes[in][prio] -= p->bytes;
	if (pause_sent[in][prio] && ingress_bytes[in][prio] <= cfg.xon_bytes) {
		pause_sent[in][prio] = false;
		st.resume_tx++;
		st.first_resume_ns = std::min(st.first_resume_ns, NowNs());
		SendPfc(in, prio, 0);
	}
}

}  // namespace sim

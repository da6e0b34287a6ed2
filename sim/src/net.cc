// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * net.cc - links, ports and PFC frames (the part every node shares).
 */
#include "net.h"

#include "ns3/simulator.h"

namespace sim {

u64 NowNs()
{
	return (u64)ns3::Simulator::Now().GetNanoSeconds();
}

u64 TxNs(u64 bytes, u64 rate_bps)
{
	// ceil, so that back-to-back packets never overlap on the wire
	return (bytes * 8 * 1000000000ull + rate_bps - 1) / rate_bps;
}

u64 PauseNs(uint16_t quanta, u64 rate_bps)
{
	return (quanta * kQuantumBits * 1000000000ull + rate_bps - 1) / rate_bps;
}

void Connect(Node *a, Node *b, u64 rate_bps, u64 delay_ns)
{
	Port pa, pb;

	pa.node = a; pa.idx = (int)a->ports.size();
	pb.node = b; pb.idx = (int)b->ports.size();
	pa.peer = b; pa.peer_idx = pb.idx;
	pb.peer = a; pb.peer_idx = pa.idx;
	pa.rate_bps = pb.rate_bps = rate_bps;
	pa.delay_ns = pb.delay_ns = delay_ns;
	a->ports.push_back(pa);
	b->ports.push_back(pb);
}

static void Deliver(Node *n, Pkt *p, int in)
{
	n->Receive(p, in);
}

static void TxDone(Node *n, int port)
{
	n->ports[port].busy = false;
	n->TryTx(port);
}

/*
 * Strict priority: PFC frames, then control, then data.  A paused priority
 * is skipped; its wake event resumes the port when the pause expires.
 */
void Node::TryTx(int pi)
{
	Port &pt = ports[pi];
	u64 now = NowNs();
	Pkt *p = nullptr;

	if (pt.busy)
		return;
	if (!pt.pfc.empty()) {
		p = pt.pfc.front();
		pt.pfc.pop_front();
	}
	for (int prio = 0; !p && prio < kNPrio; prio++) {
		if (pt.Paused(prio, now))
			continue;
		if (!pt.q[prio].empty()) {
			p = pt.q[prio].front();
			pt.q[prio].pop_front();
			pt.q_bytes[prio] -= p->bytes;
			OnDequeue(pt, p);
		} else {
			p = Pull(pt, prio);
		}
	}
	if (!p)
		return;
	u64 tx = TxNs(p->bytes, pt.rate_bps);
	pt.busy = true;
	pt.st.tx_pkts++;
	pt.st.tx_bytes += p->bytes;
	pt.tx_bytes_total += p->bytes;
	ns3::Simulator::Schedule(ns3::NanoSeconds(tx), &TxDone, this, pi);
	ns3::Simulator::Schedule(ns3::NanoSeconds(tx + pt.delay_ns), &Deliver,
				 pt.peer, p, pt.peer_idx);
}

void Node::SendPfc(int pi, int prio, uint16_t quanta)
{
	Pkt *p = new Pkt();

	p->type = PktType::Pause;
	p->prio = (uint8_t)prio;
	p->quanta = quanta;
	p->bytes = kCtrlBytes;
	ports[pi].pfc.push_back(p);
	TryTx(pi);
}

static void PauseExpired(Node *n, int pi, int prio)
{
	Port &pt = n->ports[pi];

	pt.st.paused_ns += NowNs() - pt.pause_start_ns[prio];
	n->TryTx(pi);
}

// 802.1Qbb: quanta > 0 (re)starts the pause timer, 0 ends it now.
void Node::HandlePause(const Pkt *p, int in)
{
	Port &pt = ports[in];
	u64 now = NowNs();
	int prio = p->prio;
	bool was = pt.Paused(prio, now);

	if (was) {
		pt.wake[prio].Cancel();
		pt.st.paused_ns += now - pt.pause_start_ns[prio];
	}
	if (!p->quanta) {
		pt.paused_until_ns[prio] = now;
		TryTx(in);
		return;
	}
	pt.st.pause_rx++;
	pt.pause_start_ns[prio] = now;
	pt.paused_until_ns[prio] = now + PauseNs(p->quanta, pt.rate_bps);
	pt.wake[prio] = ns3::Simulator::Schedule(
		ns3::NanoSeconds(pt.paused_until_ns[prio] - now), &PauseExpired,
		this, in, prio);
}

}  // namespace sim

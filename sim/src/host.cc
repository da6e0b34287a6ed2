// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * host.cc - a RoCE-like RNIC: RC go-back-N senders paced by their CC core,
 * a receiver that ACKs as rxe does (rxe_cc_echo.c: a marked packet and
 * the ack_every after it one by one, otherwise every ack_every packets;
 * each ACK counts the CE- and UE-marked packets in 2-bit wrapping
 * counters and echoes the strongest mark since the last ACK) and a DCQCN
 * notification point that answers CE with a CNP.
 *
 * The NIC's data egress is shared round-robin by the flows whose pacer
 * allows a packet now; when none does, the port sleeps until the earliest
 * pacer deadline.  Control packets (ACK, CNP) use the higher priority.
 */
#include <algorithm>

#include "cc.h"
#include "net.h"

#include "ns3/simulator.h"

#include "cores.h"

namespace sim {

static int MarkOf(uint8_t ecn)
{
	if (ecn == LSW_ECN_CE)
		return RXE_CC_MARK_CE;
	if (ecn == LSW_ECN_ECT1)
		return RXE_CC_MARK_UE;
	return RXE_CC_MARK_NO;
}

static uint8_t Stronger(uint8_t a, uint8_t b)
{
	return MarkOf(a) >= MarkOf(b) ? a : b;
}

// The notification point, as rxe_cc_np.c: one CNP per QP per gap at most.
static bool CnpDue(struct rxe_cc_np *np, u64 now)
{
	u32 now_us = rxe_cc_np_stamp_us(now);

	if (!rxe_cc_np_cnp_due(np->last_cnp_us, now_us,
			       RXE_CC_NP_DEF_CNP_GAP_US))
		return false;
	np->last_cnp_us = now_us;
	return true;
}

void Host::StartFlow(Flow *f)
{
	u64 now = NowNs();

	f->npkts = (f->size_bytes + cfg.mtu_payload - 1) / cfg.mtu_payload;
	f->cc = MakeCc(cfg, ports[0].rate_bps, cfg.mtu_payload + cfg.HdrBytes(), now);
	f->np.last_cnp_us = 0;
	active.push_back(f);
	ArmTimer(f);
	TryTx(0);
}

void Host::ArmTimer(Flow *f)
{
	u64 at = f->cc->NextTimerNs();
	u64 now = NowNs();

	if (f->timer.IsRunning() && f->timer_at == at)
		return;
	f->timer.Cancel();
	if (at == ~0ull || f->finish_ns)
		return;
	f->timer_at = at;
	f->timer = ns3::Simulator::Schedule(
		ns3::NanoSeconds(at > now ? at - now : 0), &Host::CcTimer, this, f);
}

void Host::CcTimer(Flow *f)
{
	f->cc->OnTimer(NowNs());
	ArmTimer(f);
	if (f->cc->SyncPacer(NowNs()))
		TryTx(0);
}

void Host::Wake(u64 at)
{
	u64 now = NowNs();

	if (wake_.IsRunning() && wake_at_ <= at)
		return;
	wake_.Cancel();
	wake_at_ = at;
	wake_ = ns3::Simulator::Schedule(ns3::NanoSeconds(at - now),
					 &Node::TryTx, (Node *)this, 0);
}

Pkt *Host::Pull(Port &port, int prio)
{
	u64 now = NowNs();
	u64 next = ~0ull;

	if (prio != kPrioData || active.empty())
		return nullptr;
	for (size_t k = 0; k < active.size(); k++) {
		Flow *f = active[(rr_ + k) % active.size()];
		Cc *cc = f->cc.get();
		u32 pay = (u32)std::min<u64>(cfg.mtu_payload,
			f->size_bytes - f->snd_nxt * cfg.mtu_payload);
		u32 wire = pay + cfg.HdrBytes();

		if (f->snd_nxt >= f->npkts)
			continue;
		if (cc->inflight_bytes + wire > cc->WindowBytes() ||
		    (cfg.window_bytes &&
		     cc->inflight_bytes + wire > cfg.window_bytes))
			continue;	// woken by the next ACK
		cc->SyncPacer(now);
		u64 w = rxe_cc_pacer_wait_ns(&cc->pacer, wire, now);
		if (w) {
			if (w != RXE_CC_NEVER_NS)
				next = std::min(next, now + w);
			continue;
		}
		rxe_cc_pacer_consume(&cc->pacer, wire, now);
		cc->OnSend(wire, now);
		cc->inflight_bytes += wire;
		rr_ = (rr_ + k + 1) % active.size();

		Pkt *p = new Pkt();
		p->type = PktType::Data;
		p->prio = kPrioData;
		p->ecn = LSW_ECN_ECT0;
		p->src = (u32)id_;
		p->dst = f->dst;
		p->flow = f->id;
		p->bytes = wire;
		p->payload = pay;
		p->psn = f->snd_nxt++;
		p->ts_ns = now;
		st.data_tx++;
		return p;
	}
	if (next != ~0ull)
		Wake(next);
	(void)port;
	return nullptr;
}

void Host::SendCtrl(Pkt *p)
{
	p->prio = cfg.ack_data_class ? kPrioData : kPrioCtrl;
	p->bytes = kCtrlBytes;
	ports[0].q[p->prio].push_back(p);
	ports[0].q_bytes[p->prio] += p->bytes;
	TryTx(0);
}

void Host::Receive(Pkt *p, int in)
{
	switch (p->type) {
	case PktType::Pause:
		HandlePause(p, in);
		delete p;
		return;
	case PktType::Data: OnData(p); return;
	case PktType::Ack:
	case PktType::Nak: OnAck(p); return;
	case PktType::Cnp: OnCnp(p); return;
	}
}

void Host::OnData(Pkt *p)
{
	Flow *f = (*all)[p->flow];
	u64 now = NowNs();
	bool last = p->psn + 1 == f->npkts;
	PktType kind = PktType::Ack;

	st.last_rx_ns = now;

	f->marks_ce += p->ecn == LSW_ECN_CE;
	f->marks_ue += p->ecn == LSW_ECN_ECT1;
	if (p->ecn == LSW_ECN_CE && cfg.algo == Algo::Dcqcn &&
	    CnpDue(&f->np, now)) {
		Pkt *c = new Pkt();
		c->type = PktType::Cnp;
		c->src = (u32)id_;
		c->dst = p->src;
		c->flow = p->flow;
		st.cnps_tx++;
		SendCtrl(c);
	}
	if (p->psn == f->rcv_nxt) {
		f->rcv_nxt++;
		f->rcv_mark = Stronger(f->rcv_mark, p->ecn);
		if (!rxe_cc_echo_rcv(&f->echo, (enum rxe_cc_mark)MarkOf(p->ecn),
				     cfg.ack_every, now, cfg.acc_period_ns) &&
		    !last) {
			delete p;
			return;
		}
	} else if (p->psn > f->rcv_nxt) {
		kind = PktType::Nak;	// go-back-N: ask from rcv_nxt
		st.naks_tx++;
	}
	Pkt *a = new Pkt(*p);
	a->type = kind;
	a->src = (u32)id_;
	a->dst = p->src;
	a->psn = f->rcv_nxt;
	a->ecn = f->rcv_mark;
	a->echo_ce = f->echo.ce_pkts;
	a->echo_ue = f->echo.ue_pkts;
	a->payload = 0;
	f->rcv_mark = LSW_ECN_ECT0;
	rxe_cc_echo_sent(&f->echo, now);
	st.acks_tx++;
	delete p;
	SendCtrl(a);
}

void Host::OnAck(Pkt *a)
{
	Flow *f = (*all)[a->flow];
	u64 now = NowNs();
	struct rxe_cc_ack ack = {};
	u32 ce, ue;

	// every ACK moves the counters, also one that acknowledges nothing
	rxe_cc_echo_decode(&f->echo_seen, a->echo_ce, a->echo_ue, &ce, &ue);
	f->pend_ce += ce;
	f->pend_ue += ue;
	if (f->finish_ns || a->psn <= f->snd_una) {
		if (a->type == PktType::Nak && !f->finish_ns) {
			st.retx += f->snd_nxt - a->psn;
			f->snd_nxt = a->psn;
			TryTx(0);
		}
		delete a;
		return;
	}
	u64 acked = a->psn - f->snd_una;
	u64 bytes = std::min<u64>(acked * cfg.mtu_payload,
				  f->size_bytes - f->snd_una * cfg.mtu_payload) +
		    acked * cfg.HdrBytes();
	Cc *cc = f->cc.get();

	f->snd_una = a->psn;
	cc->inflight_bytes -= std::min(cc->inflight_bytes, bytes);
	ack.bytes = (u32)bytes;
	ack.pkts = (u32)acked;
	ack.ce_pkts = f->pend_ce;
	ack.ue_pkts = f->pend_ue;
	ack.rtt_ns = now - a->ts_ns;
	f->pend_ce = 0;
	f->pend_ue = 0;
	cc->OnAcks(ack, MarkOf(a->ecn), a, now);
	if (a->type == PktType::Nak) {
		st.retx += f->snd_nxt - a->psn;
		f->snd_nxt = a->psn;
	}
	delete a;
	if (f->snd_una >= f->npkts) {
		f->finish_ns = now;
		f->timer.Cancel();
		active.erase(std::find(active.begin(), active.end(), f));
		rr_ = 0;
		if (on_done)
			on_done(f);
		return;
	}
	ArmTimer(f);
	cc->SyncPacer(now);
	TryTx(0);
}

void Host::OnCnp(Pkt *c)
{
	Flow *f = (*all)[c->flow];

	delete c;
	if (f->finish_ns)
		return;
	f->cc->OnCnp(NowNs());
	ArmTimer(f);
	if (f->cc->SyncPacer(NowNs()))
		TryTx(0);
}

}  // namespace sim

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cc.h - a flow's congestion control: the hermetic cores of rxe-acc/
 * (compiled verbatim as C) behind one small interface, plus the pacer
 * that turns their rate into packet departures, as the rxe glue does.
 */
#ifndef SIM_CC_H
#define SIM_CC_H

#include <memory>
#include <string>

#include "net.h"

#include "cores.h"

namespace sim {

class Cc {
public:
	virtual ~Cc() = default;
	virtual void OnSend(u32 bytes, u64 now) { (void)bytes; (void)now; }
	// @mark is the echoed rxe_cc_mark; @ack carries INT (HPCC).
	virtual void OnAck(u32 acked_bytes, int mark, u64 rtt_ns,
			   const Pkt *ack, u64 now) = 0;
	// An ACK of @a.pkts packets that counted the marked ones (ACC reads
	// the counts; the others read the strongest mark, @mark).
	virtual void OnAcks(const struct rxe_cc_ack &a, int mark,
			    const Pkt *ack, u64 now)
	{
		OnAck(a.bytes, mark, a.rtt_ns, ack, now);
	}
	virtual void OnCnp(u64 now) { (void)now; }
	virtual void OnTimer(u64 now) { (void)now; }
	virtual u64 NextTimerNs() { return ~0ull; }
	virtual u64 RateBps(u64 now) = 0;
	// Bytes that may be in flight (window-based cores); ~0 = no window.
	virtual u64 WindowBytes() { return ~0ull; }
	// The core's knobs as set from the options, JSON members.
	virtual std::string ParamsJson() { return ""; }

	// Brings the pacer to RateBps(now); true if the rate changed.
	bool SyncPacer(u64 now);
	struct rxe_cc_pacer pacer;
	u64 paced_bps = 0;
	u64 line_bps = 0;
	u64 inflight_bytes = 0;	// sent, not acknowledged
};

std::unique_ptr<Cc> MakeCc(const HostCfg &cfg, u64 line_bps, u32 burst_bytes,
			   u64 now);

}  // namespace sim

#endif

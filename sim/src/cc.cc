// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cc.cc - the glue between a simulated flow and the rxe-acc cores.  Each
 * class mirrors what rxe_cc_algos.c does for a QP: the same calls, in the
 * same order, with the line rate of the host's port.
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "cc.h"

#include "cores.h"

namespace sim {

bool Cc::SyncPacer(u64 now)
{
	u64 r = RateBps(now);

	if (r == paced_bps)
		return false;
	rxe_cc_pacer_set_rate(&pacer, r, now);
	paced_bps = r;
	return true;
}

namespace {

void Die(const char *what)
{
	std::fprintf(stderr, "sim: %s\n", what);
	std::exit(2);
}

class NoCc : public Cc {
public:
	void OnAck(u32, int, u64, const Pkt *, u64) override {}
	u64 RateBps(u64) override { return line_bps; }
};

// A knob given on the command line (0 = keep the core's default).
void Set(u32 *knob, u32 v)
{
	if (v)
		*knob = v;
}

class DcqcnCc : public Cc {
public:
	DcqcnCc(const HostCfg &c, u64 line, u64 now)
	{
		rxe_cc_dcqcn_params_default(&p_);
		p_.line_rate_kbps = (u32)(line / RXE_CC_DCQCN_KBPS);
		Set(&p_.rpg_time_reset_us, c.dcqcn_time_reset_us);
		if (c.dcqcn_byte_reset >= 0)
			p_.rpg_byte_reset_bytes = (u32)c.dcqcn_byte_reset;
		Set(&p_.rpg_min_rate_kbps,
		    c.dcqcn_min_rate_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
		if (c.dcqcn_g >= 0)
			p_.dce_tcp_g = (u32)c.dcqcn_g;
		Set(&p_.rpg_ai_rate_kbps, c.dcqcn_ai_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
		Set(&p_.rpg_hai_rate_kbps, c.dcqcn_hai_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
		Set(&p_.dce_tcp_rtt_us, c.dcqcn_alpha_us);
		Set(&p_.rate_reduce_monitor_period_us, c.dcqcn_rrmp_us);
		if (rxe_cc_dcqcn_params_check(&p_))
			Die("bad DCQCN parameters");
		rxe_cc_dcqcn_init(&rp_, &p_, now);
	}
	void OnSend(u32 bytes, u64 now) override
	{
		rxe_cc_dcqcn_on_bytes_sent(&rp_, &p_, bytes, now, nullptr);
	}
	void OnAck(u32, int, u64, const Pkt *, u64) override {}
	void OnCnp(u64 now) override
	{
		rxe_cc_dcqcn_on_cnp(&rp_, &p_, now, nullptr);
	}
	void OnTimer(u64 now) override
	{
		rxe_cc_dcqcn_on_timer(&rp_, &p_, now, nullptr);
	}
	u64 NextTimerNs() override
	{
		return rxe_cc_dcqcn_next_timer_ns(&rp_, &p_);
	}
	u64 RateBps(u64) override { return rxe_cc_dcqcn_rate_bps(&rp_); }
	std::string ParamsJson() override
	{
		std::ostringstream o;

		o << "\"ai_kbps\":" << p_.rpg_ai_rate_kbps
		  << ",\"hai_kbps\":" << p_.rpg_hai_rate_kbps
		  << ",\"time_reset_us\":" << p_.rpg_time_reset_us
		  << ",\"byte_reset_bytes\":" << p_.rpg_byte_reset_bytes
		  << ",\"min_rate_kbps\":" << p_.rpg_min_rate_kbps
		  << ",\"g\":" << p_.dce_tcp_g
		  << ",\"alpha_us\":" << p_.dce_tcp_rtt_us
		  << ",\"rrmp_us\":" << p_.rate_reduce_monitor_period_us;
		return o.str();
	}

private:
	struct rxe_cc_dcqcn_params p_;
	struct rxe_cc_dcqcn_rp rp_;
};

/*
 * "ACC without halt" (the paper's ablation) is the core's halt = 0.
 *
 * The core starts a flow at C with no window (rxe_cc_acc.c: "a new QP
 * starts at C"), and its first reaction needs a closed period with CE
 * marks.  --acc-window-bytes W caps a flow's bytes in flight at W (one
 * BDP: no flow can put more than one pipe into the fabric before its
 * first ACK), and --acc-var-window scales W by R / C as the window of
 * HPCC's simulator does (VAR_WIN), so that a halted-then-slowed flow
 * also keeps fewer bytes in flight.  Off by default: it is a candidate
 * rule for the core, tried here first.
 */
class AccCc : public Cc {
public:
	AccCc(const HostCfg &c, u64 line, u64 now)
		: window_(c.acc_window_bytes), var_(c.acc_var_window)
	{
		rxe_cc_acc_params_default(&p_);
		p_.line_rate_bps = line;
		p_.period_ns = c.acc_period_ns;
		p_.halt_max_ns = c.acc_halt_max_ns ? c.acc_halt_max_ns :
						     8 * c.acc_period_ns;
		Set(&p_.theta_ce_permille, c.acc_theta_permille);
		p_.base_rtt_ns = c.base_rtt_ns;
		p_.halt = c.algo != Algo::AccNoHalt;
		if (c.acc_var_window)
			p_.window_bytes = c.acc_window_bytes;
		if (c.acc_gate >= 0)
			p_.gate = (u32)c.acc_gate;
		if (rxe_cc_acc_params_check(&p_))
			Die("bad ACC parameters");
		rxe_cc_acc_init(&st_, &p_, now);
	}
	void OnSend(u32 bytes, u64 now) override
	{
		rxe_cc_acc_on_send(&st_, bytes, now);
	}
	void OnAck(u32 bytes, int mark, u64 rtt, const Pkt *, u64 now) override
	{
		struct rxe_cc_acc_ev ev;

		rxe_cc_acc_on_ack(&st_, &p_, bytes, (enum rxe_cc_mark)mark, rtt,
				  now, &ev);
	}
	void OnAcks(const struct rxe_cc_ack &a, int, const Pkt *,
		    u64 now) override
	{
		struct rxe_cc_acc_ev ev;

		rxe_cc_acc_on_acks(&st_, &p_, &a, now, &ev);
	}
	void OnTimer(u64 now) override
	{
		struct rxe_cc_acc_ev ev;

		rxe_cc_acc_on_timer(&st_, &p_, now, &ev);
	}
	u64 NextTimerNs() override { return rxe_cc_acc_next_timer_ns(&st_); }
	u64 RateBps(u64 now) override { return rxe_cc_acc_rate_bps(&st_, now); }
	std::string ParamsJson() override
	{
		std::ostringstream o;

		o << "\"period_ns\":" << p_.period_ns
		  << ",\"halt_max_ns\":" << p_.halt_max_ns
		  << ",\"base_rtt_ns\":" << p_.base_rtt_ns
		  << ",\"gate\":" << p_.gate
		  << ",\"halt\":" << p_.halt
		  << ",\"window_bytes\":" << p_.window_bytes;
		return o.str();
	}
	u64 WindowBytes() override
	{
		if (!window_)
			return ~0ull;
		if (!var_)
			return window_;
		// the core's cap, at least one packet: a slowed flow must send
		return rxe_cc_acc_window_bytes(&st_, &p_,
					       (u32)pacer.burst_bytes);
	}

private:
	struct rxe_cc_acc_params p_;
	struct rxe_cc_acc st_;
	u64 window_;
	bool var_;
};

class TimelyCc : public Cc {
public:
	TimelyCc(const HostCfg &c, u64 line, u64 now)
	{
		rxe_cc_timely_params_default(&p_);
		p_.line_rate_bps = line;
		if (c.base_rtt_ns)
			p_.min_rtt_ns = c.base_rtt_ns;
		if (c.timely_min_rtt_us)
			p_.min_rtt_ns = c.timely_min_rtt_us * 1000ull;
		if (c.timely_tlow_us)
			p_.t_low_ns = c.timely_tlow_us * 1000ull;
		if (c.timely_thigh_us)
			p_.t_high_ns = c.timely_thigh_us * 1000ull;
		if (c.timely_min_rate_mbps)
			p_.min_rate_bps = c.timely_min_rate_mbps * 1000000ull;
		if (rxe_cc_timely_params_check(&p_))
			Die("bad TIMELY parameters");
		rxe_cc_timely_init(&st_, &p_, now);
	}
	void OnAck(u32 bytes, int, u64 rtt, const Pkt *, u64 now) override
	{
		rxe_cc_timely_on_ack(&st_, &p_, bytes, rtt, now);
	}
	u64 RateBps(u64) override { return rxe_cc_timely_rate_bps(&st_); }
	std::string ParamsJson() override
	{
		std::ostringstream o;

		o << "\"add_step_bps\":" << p_.add_step_bps
		  << ",\"t_low_ns\":" << p_.t_low_ns
		  << ",\"t_high_ns\":" << p_.t_high_ns
		  << ",\"min_rtt_ns\":" << p_.min_rtt_ns
		  << ",\"min_rate_bps\":" << p_.min_rate_bps;
		return o.str();
	}

private:
	struct rxe_cc_timely_params p_;
	struct rxe_cc_timely st_;
};

class HpccCc : public Cc {
public:
	HpccCc(const HostCfg &c, u64 line, u64 now)
	{
		rxe_cc_hpcc_params_default(&p_);
		p_.line_rate_bps = line;
		p_.base_rtt_ns = c.base_rtt_ns ? c.base_rtt_ns : 10000;
		// a rate step over T as the window step, as HPCC's simulator
		// adds RATE_AI to a rate whose window is rate * T
		if (c.hpcc_ai_mbps)
			p_.w_ai_bytes = std::max<u64>(1, c.hpcc_ai_mbps *
						      p_.base_rtt_ns / 8000);
		if (c.hpcc_max_stage >= 0)
			p_.max_stage = (u32)c.hpcc_max_stage;
		if (rxe_cc_hpcc_params_check(&p_))
			Die("bad HPCC parameters");
		rxe_cc_hpcc_init(&st_, &p_, now);
	}
	void OnSend(u32 bytes, u64) override
	{
		rxe_cc_hpcc_on_send(&st_, bytes);
	}
	void OnAck(u32 bytes, int, u64, const Pkt *ack, u64 now) override
	{
		struct rxe_cc_hpcc_int hops[RXE_CC_HPCC_MAX_HOPS];
		u32 n = ack->nhop < RXE_CC_HPCC_MAX_HOPS ? ack->nhop :
							   RXE_CC_HPCC_MAX_HOPS;

		for (u32 i = 0; i < n; i++) {
			hops[i].ts_ns = ack->hop[i].ts_ns;
			hops[i].tx_bytes = ack->hop[i].tx_bytes;
			hops[i].qlen_bytes = ack->hop[i].qlen_bytes;
			hops[i].rate_bps = ack->hop[i].rate_bps;
		}
		rxe_cc_hpcc_on_ack(&st_, &p_, bytes, hops, n, now);
	}
	u64 RateBps(u64) override { return rxe_cc_hpcc_rate_bps(&st_); }
	u64 WindowBytes() override { return rxe_cc_hpcc_window_bytes(&st_); }
	std::string ParamsJson() override
	{
		std::ostringstream o;

		o << "\"base_rtt_ns\":" << p_.base_rtt_ns
		  << ",\"w_ai_bytes\":" << p_.w_ai_bytes
		  << ",\"max_stage\":" << p_.max_stage;
		return o.str();
	}

private:
	struct rxe_cc_hpcc_params p_;
	struct rxe_cc_hpcc st_;
};

}  // namespace

std::unique_ptr<Cc> MakeCc(const HostCfg &cfg, u64 line_bps, u32 burst_bytes,
			   u64 now)
{
	std::unique_ptr<Cc> cc;

	switch (cfg.algo) {
	case Algo::None: cc.reset(new NoCc()); break;
	case Algo::Dcqcn: cc.reset(new DcqcnCc(cfg, line_bps, now)); break;
	case Algo::Acc:
	case Algo::AccNoHalt: cc.reset(new AccCc(cfg, line_bps, now)); break;
	case Algo::Timely: cc.reset(new TimelyCc(cfg, line_bps, now)); break;
	case Algo::Hpcc: cc.reset(new HpccCc(cfg, line_bps, now)); break;
	}
	cc->line_bps = line_bps;
	cc->paced_bps = cc->RateBps(now);
	rxe_cc_pacer_init(&cc->pacer, cc->paced_bps, burst_bytes, now);
	return cc;
}

}  // namespace sim

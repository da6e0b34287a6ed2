// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cc.cc - the glue between a simulated flow and the rxe-acc cores: the
 * module's algorithms through their ops tables (cc_host.c, the calls
 * rxe_cc.c makes for a QP, in the same order), with the line rate of the
 * host's port; TIMELY and HPCC, which only the simulator runs, directly.
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

/*
 * An algorithm of the module (struct rxe_cc_ops), run by the same generic
 * host the unit tests use (cc_host.c): the hooks, the sender context and
 * the knob rows are the module's.  Knobs are set by their sysfs names;
 * those the options give in finer units than the file's (ns) are set in
 * the field's own unit.
 */
class OpsCc : public Cc {
public:
	OpsCc(const struct rxe_cc_ops *ops, u64 line, u32 frame)
	{
		if (cc_host_init(&h_, ops, line, 0, frame))
			Die("bad algorithm");
	}
	// @value in the file's unit; 0 keeps the default unless @zero_ok
	void Knob(const char *name, u64 value, bool zero_ok = false)
	{
		if (!value && !zero_ok)
			return;
		if (cc_host_set(&h_, name, value))
			Die(name);
	}
	// @value in the field's unit (the file's unit times its scale); a
	// whole number of the file's unit is checked against the row too
	void KnobRaw(const char *name, u64 value)
	{
		const struct rxe_cc_knob *k = cc_host_knob(&h_, name);

		if (k && value % k->scale == 0)
			Knob(name, value / k->scale, true);
		else if (cc_host_set_field(&h_, name, value))
			Die(name);
	}
	void Start(u64 now) { cc_host_start(&h_, now); }
	void OnSend(u32 bytes, u64 now) override
	{
		cc_host_send(&h_, bytes, now);
	}
	void OnAck(u32 bytes, int mark, u64 rtt, const Pkt *, u64 now) override
	{
		struct rxe_cc_ack a = {};

		a.bytes = bytes;
		a.pkts = 1;
		a.ce_pkts = mark == RXE_CC_MARK_CE;
		a.ue_pkts = mark == RXE_CC_MARK_UE;
		a.rtt_ns = rtt;
		cc_host_ack(&h_, &a, now);
	}
	void OnAcks(const struct rxe_cc_ack &a, int, const Pkt *,
		    u64 now) override
	{
		cc_host_ack(&h_, &a, now);
	}
	void OnCnp(u64 now) override { cc_host_cnp(&h_, now); }
	void OnTimer(u64 now) override { cc_host_timer(&h_, now); }
	u64 NextTimerNs() override { return cc_host_next_timer_ns(&h_); }
	u64 RateBps(u64 now) override { return cc_host_rate_bps(&h_, now); }
	u64 WindowBytes() override
	{
		return fixed_window_ ? fixed_window_ : cc_host_window_bytes(&h_);
	}
	// every knob, by its sysfs name, in the file's unit
	std::string ParamsJson() override
	{
		std::ostringstream o;

		for (u32 i = 0; i < h_.ops->n_knobs; i++) {
			u64 v = 0;

			cc_host_get(&h_, h_.ops->knobs[i].name, &v);
			o << (i ? "," : "") << "\"" << h_.ops->knobs[i].name
			  << "\":" << v;
		}
		return o.str();
	}

	u64 fixed_window_ = 0;	// a cap the simulator adds, 0: none

private:
	struct cc_host h_;
};

std::unique_ptr<Cc> MakeDcqcn(const HostCfg &c, u64 line, u32 frame)
{
	std::unique_ptr<OpsCc> cc(new OpsCc(&rxe_cc_dcqcn_ops, line, frame));

	cc->Knob("rpg_time_reset", c.dcqcn_time_reset_us);
	if (c.dcqcn_byte_reset >= 0)
		cc->Knob("rpg_byte_reset", (u64)c.dcqcn_byte_reset, true);
	cc->Knob("rpg_min_rate_kbps",
		 (u64)c.dcqcn_min_rate_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
	if (c.dcqcn_g >= 0)
		cc->Knob("dce_tcp_g", (u64)c.dcqcn_g, true);
	cc->Knob("rpg_ai_rate_kbps",
		 (u64)c.dcqcn_ai_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
	cc->Knob("rpg_hai_rate_kbps",
		 (u64)c.dcqcn_hai_mbps * RXE_CC_DCQCN_KBPS_PER_MBPS);
	cc->Knob("dce_tcp_rtt", c.dcqcn_alpha_us);
	cc->Knob("rate_reduce_monitor_period", c.dcqcn_rrmp_us);
	return cc;
}

/*
 * "ACC without halt" (the paper's ablation) is acc_halt = 0.
 *
 * The core starts a flow at C with no window (rxe_cc_acc.c: "a new QP
 * starts at C"), and its first reaction needs a closed period with CE
 * marks.  --acc-window-bytes W caps a flow's bytes in flight at W (one
 * BDP: no flow can put more than one pipe into the fabric before its
 * first ACK), and --acc-var-window scales W by R / C as the window of
 * HPCC's simulator does (VAR_WIN): that is the core's acc_window_bytes,
 * so that a halted-then-slowed flow also keeps fewer bytes in flight.
 * Off by default.
 */
/* TIMELY as in the module; the options set its knobs in finer units. */
std::unique_ptr<Cc> MakeTimely(const HostCfg &c, u64 line, u32 frame)
{
	std::unique_ptr<OpsCc> cc(new OpsCc(&rxe_cc_timely_ops, line, frame));

	if (c.base_rtt_ns)
		cc->KnobRaw("timely_min_rtt_us", c.base_rtt_ns);
	cc->Knob("timely_min_rtt_us", c.timely_min_rtt_us);
	// T_high first: the core checks T_low <= T_high on every write
	cc->Knob("timely_t_high_us", c.timely_thigh_us);
	cc->Knob("timely_t_low_us", c.timely_tlow_us);
	cc->Knob("timely_min_rate_kbps", (u64)c.timely_min_rate_mbps * 1000);
	return cc;
}

std::unique_ptr<Cc> MakeAcc(const HostCfg &c, u64 line, u32 frame)
{
	std::unique_ptr<OpsCc> cc(new OpsCc(&rxe_cc_acc_ops, line, frame));

	// the cap first: the core checks halt_max >= T on every write
	cc->KnobRaw("acc_halt_max_us", c.acc_halt_max_ns ? c.acc_halt_max_ns :
					8 * c.acc_period_ns);
	cc->KnobRaw("acc_period_us", c.acc_period_ns);
	if (c.acc_theta_permille)
		cc->KnobRaw("acc_theta_ce_pct", c.acc_theta_permille);
	cc->KnobRaw("acc_base_rtt_us", c.base_rtt_ns);
	cc->Knob("acc_halt", c.algo != Algo::AccNoHalt, true);
	if (c.acc_var_window)
		cc->Knob("acc_window_bytes", c.acc_window_bytes, true);
	else
		cc->fixed_window_ = c.acc_window_bytes;
	if (c.acc_gate >= 0)
		cc->Knob("acc_gate", (u64)c.acc_gate, true);
	return cc;
}

class HpccCc : public Cc {
public:
	HpccCc(const HostCfg &c, u64 line, u64 now)
	{
		hpcc_params_default(&p_);
		p_.line_rate_bps = line;
		p_.base_rtt_ns = c.base_rtt_ns ? c.base_rtt_ns : 10000;
		// a rate step over T as the window step, as HPCC's simulator
		// adds RATE_AI to a rate whose window is rate * T
		if (c.hpcc_ai_mbps)
			p_.w_ai_bytes = std::max<u64>(1, c.hpcc_ai_mbps *
						      p_.base_rtt_ns / 8000);
		if (c.hpcc_max_stage >= 0)
			p_.max_stage = (u32)c.hpcc_max_stage;
		if (hpcc_params_check(&p_))
			Die("bad HPCC parameters");
		hpcc_init(&st_, &p_, now);
	}
	void OnSend(u32 bytes, u64) override
	{
		hpcc_on_send(&st_, bytes);
	}
	void OnAck(u32 bytes, int, u64, const Pkt *ack, u64 now) override
	{
		struct hpcc_int hops[HPCC_MAX_HOPS];
		u32 n = ack->nhop < HPCC_MAX_HOPS ? ack->nhop :
							   HPCC_MAX_HOPS;

		for (u32 i = 0; i < n; i++) {
			hops[i].ts_ns = ack->hop[i].ts_ns;
			hops[i].tx_bytes = ack->hop[i].tx_bytes;
			hops[i].qlen_bytes = ack->hop[i].qlen_bytes;
			hops[i].rate_bps = ack->hop[i].rate_bps;
		}
		hpcc_on_ack(&st_, &p_, bytes, hops, n, now);
	}
	u64 RateBps(u64) override { return hpcc_rate_bps(&st_); }
	u64 WindowBytes() override { return hpcc_window_bytes(&st_); }
	std::string ParamsJson() override
	{
		std::ostringstream o;

		o << "\"base_rtt_ns\":" << p_.base_rtt_ns
		  << ",\"w_ai_bytes\":" << p_.w_ai_bytes
		  << ",\"max_stage\":" << p_.max_stage;
		return o.str();
	}

private:
	struct hpcc_params p_;
	struct hpcc st_;
};

}  // namespace

std::unique_ptr<Cc> MakeCc(const HostCfg &cfg, u64 line_bps, u32 burst_bytes,
			   u64 now)
{
	std::unique_ptr<Cc> cc;

	switch (cfg.algo) {
	case Algo::None: cc.reset(new NoCc()); break;
	case Algo::Dcqcn: cc = MakeDcqcn(cfg, line_bps, burst_bytes); break;
	case Algo::Acc:
	case Algo::AccNoHalt: cc = MakeAcc(cfg, line_bps, burst_bytes); break;
	case Algo::Timely: cc = MakeTimely(cfg, line_bps, burst_bytes); break;
	case Algo::Hpcc: cc.reset(new HpccCc(cfg, line_bps, now)); break;
	}
	if (auto *ops_cc = dynamic_cast<OpsCc *>(cc.get()))
		ops_cc->Start(now);
	cc->line_bps = line_bps;
	cc->paced_bps = cc->RateBps(now);
	rxe_cc_pacer_init(&cc->pacer, cc->paced_bps, burst_bytes, now);
	return cc;
}

}  // namespace sim

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * main.cc - the command line of rxe-acc-sim, the run and its report.
 *
 *   rxe-acc-sim --topo incast|victim|burst|leafspine|ring|fattree --algo none|dcqcn|acc|
 *               acc-nohalt|timely|hpcc [--workload web|hadoop --load 0.5]
 *               [--time-us T] [--fct FILE] [knobs]
 *
 * Prints one JSON object (the run's counters); --fct writes one CSV line
 * per flow (size, start, FCT, ideal FCT) for sim/tools/report.py.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cc.h"
#include "scenario.h"

#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

using namespace sim;

namespace {

bool Arg(int &i, int argc, char **argv, const char *name, std::string *v)
{
	if (std::strcmp(argv[i], name) || i + 1 >= argc)
		return false;
	*v = argv[++i];
	return true;
}

// --topo burst --sample-ns N: [t_ns, root queue, F0 and F1 acknowledged
// bytes, F0 and F1 paced rate in Mb/s, F0's CE- and UE-marked packets
// received so far] every N ns.
std::ostringstream g_samples;

void Usage()
{
	std::fprintf(stderr, "usage: rxe-acc-sim --topo incast|victim|burst|leafspine|ring|fattree "
		     "--algo none|dcqcn|acc|acc-nohalt|timely|hpcc [--workload "
		     "web|hadoop] [--load F] [--time-us N] [--seed N] [--fct F]\n"
		     "  [--senders N] [--bytes N] [--tors N] [--hosts-per-tor N] "
		     "[--spines N] [--host-gbps N] [--core-gbps N] [--delay-ns N]\n"
		     "  [--pods N] [--tors-per-pod N] [--aggs-per-pod N] "
		     "[--cores N] [--check-routes]\n"
		     "  [--xoff N] [--xon N] [--quanta N] [--no-pfc] "
		     "[--marking off|red|tcd] [--tcd-k N] [--tcd-period-ns N]\n"
		     "  [--tcd-rule dequeue|period] [--tcd-kmax N] [--tcd-pmax F]\n"
		     "  [--ack-every N] [--acc-period-ns N] [--drain-us N] "
		     "[--host-mbps N] [--core-mbps N] [--red-kmin N] [--red-kmax N]\n"
		     "  [--red-ref-gbps N (RED thresholds scale with port rate)]\n"
		     "  [--acc-theta-permille N] [--acc-halt-max-ns N] [--acc-gate N] "
		     "[--dcqcn-time-reset-us N] [--dcqcn-byte-reset N]\n"
		     "  [--dcqcn-ai-mbps N] [--dcqcn-hai-mbps N] "
		     "[--dcqcn-alpha-us N] [--dcqcn-rrmp-us N]\n"
		     "  [--dcqcn-min-rate-mbps N] [--dcqcn-g N (of 1024)] "
		     "(--dcqcn-byte-reset 0: no byte counter)\n"
		     "  [--timely-tlow-us N] [--timely-thigh-us N] "
		     "[--timely-min-rtt-us N] [--timely-min-rate-mbps N]\n"
		     "  [--hpcc-ai-mbps N] [--hpcc-max-stage N]\n"
		     "  [--window-bytes N] [--base-rtt-ns N] [--scheduler T]\n"
		     "  [--acc-window-bytes N] [--acc-var-window]\n"
		     "  [--int-bytes N] [--ack-data-class]\n"
		     "  [--burst-bytes N] [--burst-at-us N] [--sample-ns N] "
		     "[--burst-at sender-switch|receiver-switch] (--topo burst)\n");
	std::exit(2);
}

Opts Parse(int argc, char **argv)
{
	Opts o;
	std::string v, marking;

	for (int i = 1; i < argc; i++) {
		if (Arg(i, argc, argv, "--topo", &o.topo)) continue;
		if (Arg(i, argc, argv, "--workload", &o.workload)) continue;
		if (Arg(i, argc, argv, "--cdf-dir", &o.cdf_dir)) continue;
		if (Arg(i, argc, argv, "--fct", &o.fct_path)) continue;
		if (Arg(i, argc, argv, "--marking", &marking)) continue;
		if (Arg(i, argc, argv, "--scheduler", &o.scheduler)) continue;
		if (Arg(i, argc, argv, "--burst-at", &o.burst_place)) {
			if (o.burst_place != "sender-switch" &&
			    o.burst_place != "receiver-switch")
				Usage();
			continue;
		}
		if (Arg(i, argc, argv, "--tcd-rule", &v)) {
			if (lsw_tcd_parse_rule(v.c_str(), &o.sw.tcd_rule))
				Usage();
			continue;
		}
		if (Arg(i, argc, argv, "--algo", &v)) {
			if (!ParseAlgo(v, &o.algo))
				Usage();
			continue;
		}
		if (!std::strcmp(argv[i], "--acc-var-window")) {
			o.host.acc_var_window = true;
			continue;
		}
		if (!std::strcmp(argv[i], "--check-routes")) {
			o.check_routes = true;
			continue;
		}
		if (!std::strcmp(argv[i], "--ack-data-class")) {
			o.host.ack_data_class = true;
			continue;
		}
		if (!std::strcmp(argv[i], "--no-pfc")) {
			o.sw.pfc_enabled = false;
			continue;
		}
		std::string name = argv[i];
		if (i + 1 >= argc)
			Usage();
		double x = std::atof(argv[++i]);
		u64 n = (u64)x;
		if (name == "--load") o.load = x;
		else if (name == "--time-us") o.time_us = n;
		else if (name == "--drain-us") o.drain_us = n;
		else if (name == "--seed") o.seed = n;
		else if (name == "--senders") o.senders = (int)n;
		else if (name == "--bytes") o.incast_bytes = n;
		else if (name == "--tors") o.tors = (int)n;
		else if (name == "--hosts-per-tor") o.hosts_per_tor = (int)n;
		else if (name == "--spines") o.spines = (int)n;
		else if (name == "--pods") o.pods = (int)n;
		else if (name == "--tors-per-pod") o.tors_per_pod = (int)n;
		else if (name == "--aggs-per-pod") o.aggs_per_pod = (int)n;
		else if (name == "--cores") o.cores = (int)n;
		else if (name == "--host-gbps") o.host_bps = n * 1000000000ull;
		else if (name == "--core-gbps") o.core_bps = n * 1000000000ull;
		else if (name == "--host-mbps") o.host_bps = n * 1000000ull;
		else if (name == "--core-mbps") o.core_bps = n * 1000000ull;
		else if (name == "--red-kmin") o.sw.red_kmin = n;
		else if (name == "--red-kmax") o.sw.red_kmax = n;
		else if (name == "--red-ref-gbps") o.sw.red_ref_bps = n * 1000000000ull;
		else if (name == "--acc-theta-permille") o.host.acc_theta_permille = (u32)n;
		else if (name == "--acc-halt-max-ns") o.host.acc_halt_max_ns = n;
		else if (name == "--acc-gate") o.host.acc_gate = (int)n;
		else if (name == "--dcqcn-time-reset-us") o.host.dcqcn_time_reset_us = (u32)n;
		else if (name == "--dcqcn-byte-reset") o.host.dcqcn_byte_reset = (long long)n;
		else if (name == "--dcqcn-min-rate-mbps") o.host.dcqcn_min_rate_mbps = (u32)n;
		else if (name == "--dcqcn-g") o.host.dcqcn_g = (int)n;
		else if (name == "--timely-tlow-us") o.host.timely_tlow_us = (u32)n;
		else if (name == "--timely-thigh-us") o.host.timely_thigh_us = (u32)n;
		else if (name == "--timely-min-rtt-us") o.host.timely_min_rtt_us = (u32)n;
		else if (name == "--timely-min-rate-mbps") o.host.timely_min_rate_mbps = (u32)n;
		else if (name == "--hpcc-ai-mbps") o.host.hpcc_ai_mbps = (u32)n;
		else if (name == "--hpcc-max-stage") o.host.hpcc_max_stage = (int)n;
		else if (name == "--dcqcn-ai-mbps") o.host.dcqcn_ai_mbps = (u32)n;
		else if (name == "--dcqcn-hai-mbps") o.host.dcqcn_hai_mbps = (u32)n;
		else if (name == "--dcqcn-alpha-us") o.host.dcqcn_alpha_us = (u32)n;
		else if (name == "--dcqcn-rrmp-us") o.host.dcqcn_rrmp_us = (u32)n;
		else if (name == "--delay-ns") o.delay_ns = n;
		else if (name == "--xoff") o.sw.xoff_bytes = n;
		else if (name == "--buffer") o.sw.buffer_bytes = n;
		else if (name == "--xon") o.sw.xon_bytes = n;
		else if (name == "--quanta") o.sw.pause_quanta = (uint16_t)n;
		else if (name == "--tcd-k") o.sw.tcd_k_bytes = n;
		else if (name == "--tcd-period-ns") o.sw.tcd_period_ns = n;
		else if (name == "--tcd-kmax") o.sw.tcd_kmax_bytes = n;
		else if (name == "--int-bytes") o.host.int_bytes = (u32)n;
		else if (name == "--burst-bytes") o.burst_bytes = n;
		else if (name == "--burst-at-us") o.burst_at_us = n;
		else if (name == "--sample-ns") o.sample_ns = n;
		else if (name == "--tcd-pmax") o.sw.tcd_pmax = x;
		else if (name == "--ack-every") o.host.ack_every = (u32)n;
		else if (name == "--acc-period-ns") o.host.acc_period_ns = n;
		else if (name == "--base-rtt-ns") o.host.base_rtt_ns = n;
		else if (name == "--window-bytes") o.host.window_bytes = n;
		else if (name == "--acc-window-bytes") o.host.acc_window_bytes = n;
		else Usage();
	}
	o.host.algo = o.algo;
	if (!o.hosts_per_tor)
		o.hosts_per_tor = o.topo == "fattree" ? 16 : 8;
	// each algorithm with the switch marking it was designed with
	if (marking.empty())
		marking = o.algo == Algo::Dcqcn ? "red" :
			  (o.algo == Algo::Acc || o.algo == Algo::AccNoHalt) ?
			  "tcd" : "off";
	o.sw.marking = marking == "red" ? Marking::Red :
		       marking == "tcd" ? Marking::Tcd : Marking::Off;
	o.sw.int_enabled = o.algo == Algo::Hpcc;
	return o;
}

void Report(const Opts &o, double wall_s, double cpu_s)
{
	u64 drops_lossless = 0, drops_ctrl = 0, pause_tx = 0, resume_tx = 0;
	u64 pause_rx_host = 0, max_q = 0, max_used = 0;
	u64 paused_ns = 0, host_paused_ns = 0;
	u64 first_pause = ~0ull, first_resume = ~0ull;
	std::ostringstream ports;

	for (Switch *s : g_sw) {
		drops_lossless += s->st.drops[kPrioData];
		drops_ctrl += s->st.drops[kPrioCtrl];
		pause_tx += s->st.pause_tx;
		resume_tx += s->st.resume_tx;
		max_used = std::max(max_used, s->st.max_used_bytes);
		first_pause = std::min(first_pause, s->st.first_pause_ns);
		first_resume = std::min(first_resume, s->st.first_resume_ns);
		for (const Port &p : s->ports) {
			max_q = std::max(max_q, p.st.max_q_bytes);
			paused_ns += p.st.paused_ns;
			ports << (ports.tellp() ? "," : "") << "{\"sw\":" << s->id()
			      << ",\"tier\":\"" << s->tier << "\",\"peer\":\""
			      << (dynamic_cast<const Switch *>(p.peer) ?
				  static_cast<const Switch *>(p.peer)->tier : "host")
			      << "\",\"port\":" << p.idx << ",\"tx_bytes\":"
			      << p.st.tx_bytes << ",\"ce\":" << p.st.ce_marks
			      << ",\"ue\":" << p.st.ue_marks << ",\"pause_rx\":"
			      << p.st.pause_rx << ",\"max_q\":" << p.st.max_q_bytes
			      << ",\"q_mean\":" << p.st.q_area / std::max<u64>(NowNs(), 1)
			      << ",\"tcd\":" << (int)p.tcd.state << ",\"q\":" << p.q_bytes[kPrioData]
			      << ",\"qc\":" << p.q_bytes[kPrioCtrl] << ",\"busy\":" << p.busy
			      << ",\"paused\":" << p.Paused(kPrioData, NowNs()) << "}";
		}
	}
	for (Host *h : g_host) {
		pause_rx_host += h->ports[0].st.pause_rx;
		host_paused_ns += h->ports[0].st.paused_ns;
	}
	std::ostringstream flows;
	u64 retx = 0, last_rx = 0;
	for (Host *h : g_host) {
		retx += h->st.retx;
		last_rx = std::max(last_rx, h->st.last_rx_ns);
	}
	/*
	 * Deadlock: flows remain, yet no host has received data for 1 ms
	 * while switch buffers still hold packets (PFC holds them forever).
	 */
	u64 held = 0;
	for (Switch *s : g_sw)
		held += s->used_bytes;
	bool deadlock = g_done < g_flows.size() && held &&
			NowNs() - last_rx >= 1000000;
	for (const Flow *f : g_flows)
		if (f->size_bytes && (g_flows.size() <= 16 || o.topo == "burst"))
			flows << (flows.tellp() ? "," : "") << "{\"id\":" << f->id
			      << ",\"fct_ns\":" << (f->finish_ns ? f->finish_ns - f->start_ns : 0)
			      << ",\"ideal_ns\":" << IdealNs(o, f)
			      << ",\"ce\":" << f->marks_ce << ",\"ue\":" << f->marks_ue << "}";
	if (!o.fct_path.empty()) {
		std::ofstream out(o.fct_path);
		out << "id,src,dst,size_bytes,start_ns,fct_ns,ideal_ns\n";
		for (const Flow *f : g_flows)
			out << f->id << "," << f->src << "," << f->dst << ","
			    << f->size_bytes << "," << f->start_ns << ","
			    << (f->finish_ns ? f->finish_ns - f->start_ns : 0) << ","
			    << IdealNs(o, f) << "\n";
	}
	u64 offered = 0;
	for (const Flow *f : g_flows)
		offered += f->size_bytes;
	// the knobs the core of the first flow that ran was given
	std::string params;
	for (const Flow *f : g_flows)
		if (f->cc) {
			params = f->cc->ParamsJson();
			break;
		}
	u64 events = ns3::Simulator::GetEventCount();
	std::printf("{\"algo\":\"%s\",\"topo\":\"%s\",\"workload\":\"%s\","
		    "\"load\":%.2f,\"hosts\":%zu,\"switches\":%zu,"
		    "\"flows\":%zu,\"offered_bytes\":%llu,\"done\":%llu,"
		    "\"sim_ns\":%llu,\"events\":%llu,\"wall_s\":%.3f,"
		    "\"cpu_s\":%.3f,\"events_per_s\":%.0f,"
		    "\"events_per_cpu_s\":%.0f,\"drops_lossless\":%llu,"
		    "\"drops_ctrl\":%llu,\"pause_tx\":%llu,\"resume_tx\":%llu,"
		    "\"pause_rx_host\":%llu,\"paused_ns\":%llu,"
		    "\"host_paused_ns\":%llu,\"first_pause_ns\":%lld,"
		    "\"first_resume_ns\":%lld,\"max_q_bytes\":%llu,"
		    "\"max_buffer_bytes\":%llu,\"retx_pkts\":%llu,"
		    "\"last_rx_ns\":%llu,\"held_bytes\":%llu,\"deadlock\":%s,"
		    "%s,\"cc_params\":{%s},\"ports\":[%s],\"flow_list\":[%s],"
		    "\"samples\":[%s]}\n",
		    AlgoName(o.algo), o.topo.c_str(), o.workload.c_str(), o.load,
		    g_host.size(), g_sw.size(), g_flows.size(),
		    (unsigned long long)offered, (unsigned long long)g_done,
		    (unsigned long long)NowNs(), (unsigned long long)events, wall_s,
		    cpu_s, events / std::max(wall_s, 1e-9),
		    events / std::max(cpu_s, 1e-9),
		    (unsigned long long)drops_lossless, (unsigned long long)drops_ctrl,
		    (unsigned long long)pause_tx, (unsigned long long)resume_tx,
		    (unsigned long long)pause_rx_host, (unsigned long long)paused_ns,
		    (unsigned long long)host_paused_ns,
		    first_pause == ~0ull ? -1LL : (long long)first_pause,
		    first_resume == ~0ull ? -1LL : (long long)first_resume,
		    (unsigned long long)max_q, (unsigned long long)max_used,
		    (unsigned long long)retx, (unsigned long long)last_rx,
		    (unsigned long long)held, deadlock ? "true" : "false",
		    FabricJson(false).c_str(), params.c_str(), ports.str().c_str(),
		    flows.str().c_str(), g_samples.str().c_str());
}

void Sample(const Opts *o)
{
	u64 now = NowNs();
	const Port &root = g_sw[1]->ports[2];

	g_samples << (g_samples.tellp() ? "," : "") << "[" << now << ","
		  << root.q_bytes[kPrioData];
	for (int i = 0; i < 2; i++)
		g_samples << "," << g_flows[i]->snd_una * o->host.mtu_payload;
	for (int i = 0; i < 2; i++)
		g_samples << "," << (g_flows[i]->finish_ns ? 0 :
				     g_flows[i]->cc->RateBps(now) / 1000000);
	g_samples << "," << g_flows[0]->marks_ce << "," << g_flows[0]->marks_ue
		  << "]";
	if (g_done < g_flows.size())
		ns3::Simulator::Schedule(ns3::NanoSeconds(o->sample_ns),
					 &Sample, o);
}

// Stops the run once every flow is done (timers would otherwise tick on).
void Watch(u64 end_ns)
{
	if ((g_done == g_flows.size() && NowNs() > 0) || NowNs() >= end_ns) {
		ns3::Simulator::Stop();
		return;
	}
	ns3::Simulator::Schedule(ns3::MicroSeconds(10), &Watch, end_ns);
}

}  // namespace

int main(int argc, char **argv)
{
	Opts o = Parse(argc, argv);

	if (!o.scheduler.empty())
		ns3::GlobalValue::Bind("SchedulerType",
				       ns3::StringValue(o.scheduler));

	// The CC knobs pass the core's check at once: a flow builds its CC
	// only when it starts, so a run without a flow would take any.
	MakeCc(o.host, o.host_bps, o.host.mtu_payload + o.host.HdrBytes(), 0);
	if (!BuildTopology(o))
		Usage();
	if (o.check_routes) {
		std::printf("{\"topo\":\"%s\",\"hosts\":%zu,\"switches\":%zu,%s}\n",
			    o.topo.c_str(), g_host.size(), g_sw.size(),
			    FabricJson(true).c_str());
		return 0;
	}
	Scenario(o);
	if (o.topo == "burst" && o.sample_ns)
		ns3::Simulator::Schedule(ns3::NanoSeconds(0), &Sample,
					 (const Opts *)&o);
	ns3::Simulator::Schedule(ns3::MicroSeconds(10), &Watch,
				 (o.time_us + o.drain_us) * 1000);
	// wall time is what a run costs here; CPU time what it would cost
	// on an idle machine (this one is shared)
	auto t0 = std::chrono::steady_clock::now();
	std::clock_t c0 = std::clock();
	ns3::Simulator::Run();
	double cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;
	double wall = std::chrono::duration<double>(
		std::chrono::steady_clock::now() - t0).count();
	Report(o, wall, cpu);
	ns3::Simulator::Destroy();
	return 0;
}


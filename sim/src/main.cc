// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * main.cc - topologies, workloads and the command line of rxe-acc-sim.
 *
 *   rxe-acc-sim --topo incast|victim|leafspine --algo none|dcqcn|acc|
 *               acc-nohalt|timely|hpcc [--workload web|hadoop --load 0.5]
 *               [--time-us T] [--fct FILE] [knobs]
 *
 * Prints one JSON object (the run's counters); --fct writes one CSV line
 * per flow (size, start, FCT, ideal FCT) for sim/tools/report.py.
 */
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cc.h"
#include "net.h"

#include "ns3/global-value.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

using namespace sim;

namespace {

struct Opts {
	std::string topo = "incast";
	std::string workload = "";
	std::string cdf_dir = SIM_DATA_DIR;	// the Makefile sets it
	std::string fct_path;
	std::string scheduler;	// ns-3 SchedulerType, e.g. ns3::HeapScheduler
	Algo algo = Algo::None;
	double load = 0.5;
	u64 time_us = 1000;	// arrivals (workload) or flow start window
	u64 drain_us = 20000;	// extra time for the last flows to finish
	u64 seed = 1;
	u64 host_bps = 100000000000ull, core_bps = 400000000000ull;
	u64 delay_ns = 1000;
	int senders = 2;	// incast fan-in
	u64 incast_bytes = 1000000;
	int tors = 4, hosts_per_tor = 8, spines = 2;
	SwitchCfg sw;
	HostCfg host;
};

std::vector<Switch *> g_sw;
std::vector<Host *> g_host;
std::vector<Flow *> g_flows;
u64 g_done = 0;

void OnDone(Flow *)
{
	g_done++;
}

Switch *NewSwitch(const Opts &o)
{
	Switch *s = new Switch((int)g_sw.size(), o.sw, o.seed * 7919 + g_sw.size());
	g_sw.push_back(s);
	return s;
}

Host *NewHost(const Opts &o)
{
	Host *h = new Host((int)g_host.size(), o.host);
	h->all = &g_flows;
	h->on_done = &OnDone;
	g_host.push_back(h);
	return h;
}

// Routes of a switch: every host reachable on the given ports.
void Route(Switch *s, int host, std::vector<int> ports)
{
	if (s->routes.size() < g_host.size())
		s->routes.resize(g_host.size());
	s->routes[host] = std::move(ports);
}

// incast: hosts 0..n-1 send to host n through one switch.
void BuildIncast(const Opts &o)
{
	Switch *s = NewSwitch(o);

	for (int i = 0; i <= o.senders; i++)
		Connect(NewHost(o), s, o.host_bps, o.delay_ns);
	for (int i = 0; i <= o.senders; i++)
		Route(s, i, {i});
}

/*
 * The two-switch victim case (the TCD paper's Fig. 1):
 *
 *   h0, h1 --\                /-- h3 (root receiver: h0,h1,h2 -> h3)
 *   h4 ------ S0 ==link== S1 --- h2
 *                            \-- h5 (victim receiver: h4 -> h5)
 *
 * S1's port to h3 is the root of congestion (CE); S0's port to S1 is
 * paused by S1 and carries h4's victim flow (UE).
 */
void BuildVictim(const Opts &o)
{
	Switch *s0 = NewSwitch(o), *s1 = NewSwitch(o);
	u64 r = o.host_bps;

	for (int i = 0; i < 6; i++)
		NewHost(o);
	Connect(g_host[0], s0, r, o.delay_ns);	// s0 port 0
	Connect(g_host[1], s0, r, o.delay_ns);	// s0 port 1
	Connect(g_host[4], s0, r, o.delay_ns);	// s0 port 2
	// the inter-switch link at the core rate: it is a victim, not a root
	Connect(s0, s1, o.core_bps, o.delay_ns);	// s0 port 3, s1 port 0
	Connect(g_host[2], s1, r, o.delay_ns);	// s1 port 1
	Connect(g_host[3], s1, r, o.delay_ns);	// s1 port 2
	Connect(g_host[5], s1, r, o.delay_ns);	// s1 port 3
	int s0p[6] = {0, 1, 3, 3, 2, 3}, s1p[6] = {0, 0, 1, 2, 0, 3};
	for (int h = 0; h < 6; h++) {
		Route(s0, h, {s0p[h]});
		Route(s1, h, {s1p[h]});
	}
}

/*
 * A cyclic buffer dependency: n switches in a ring, routed clockwise
 * only, three hosts each.  At switch i, h(3i) sends two hops clockwise
 * and h(3i+1) one hop, both to the third host of the switch reached, so
 * every ring link carries three flows into one 100 Gb/s port and every
 * switch's ingress from the ring waits on its egress to the ring: with
 * PFC and no congestion control the pauses can close the cycle.
 */
void BuildRing(const Opts &o)
{
	int n = o.spines < 3 ? 3 : o.spines;	// --spines: ring size
	std::vector<Switch *> sw;
	u64 r = o.host_bps;

	for (int i = 0; i < n; i++)
		sw.push_back(NewSwitch(o));
	for (int i = 0; i < 3 * n; i++)
		NewHost(o);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			Connect(g_host[3 * i + k], sw[i], r, o.delay_ns);
	std::vector<int> cw(n);	// each switch's port to its clockwise peer
	for (int i = 0; i < n; i++) {
		cw[i] = (int)sw[i]->ports.size();
		Connect(sw[i], sw[(i + 1) % n], r, o.delay_ns);
	}
	for (int i = 0; i < n; i++)
		for (int h = 0; h < 3 * n; h++)
			Route(sw[i], h, {h / 3 == i ? h % 3 : cw[i]});
}

// Two-tier Clos: tors x hosts_per_tor hosts, every ToR to every spine.
void BuildLeafSpine(const Opts &o)
{
	std::vector<Switch *> tor, spine;
	int nh = o.tors * o.hosts_per_tor;

	for (int t = 0; t < o.tors; t++)
		tor.push_back(NewSwitch(o));
	for (int s = 0; s < o.spines; s++)
		spine.push_back(NewSwitch(o));
	for (int h = 0; h < nh; h++)
		NewHost(o);
	for (int t = 0; t < o.tors; t++)
		for (int i = 0; i < o.hosts_per_tor; i++)
			Connect(g_host[t * o.hosts_per_tor + i], tor[t],
				o.host_bps, o.delay_ns);
	for (int t = 0; t < o.tors; t++)
		for (int s = 0; s < o.spines; s++)
			Connect(tor[t], spine[s], o.core_bps, o.delay_ns);
	for (int t = 0; t < o.tors; t++) {
		std::vector<int> up;
		for (int s = 0; s < o.spines; s++)
			up.push_back(o.hosts_per_tor + s);
		for (int h = 0; h < nh; h++)
			Route(tor[t], h, h / o.hosts_per_tor == t ?
				std::vector<int>{h % o.hosts_per_tor} : up);
	}
	for (int s = 0; s < o.spines; s++)
		for (int h = 0; h < nh; h++)
			Route(spine[s], h, {h / o.hosts_per_tor});
}

Flow *AddFlow(u32 src, u32 dst, u64 bytes, u64 start_ns)
{
	Flow *f = new Flow();

	f->id = (u32)g_flows.size();
	f->src = src;
	f->dst = dst;
	f->size_bytes = bytes;
	f->start_ns = start_ns;
	g_flows.push_back(f);
	ns3::Simulator::Schedule(ns3::NanoSeconds(start_ns), &Host::StartFlow,
				 g_host[src], f);
	return f;
}

struct Cdf {
	std::vector<double> size, pct;
	double Sample(double u) const	// u in [0, 100)
	{
		for (size_t i = 1; i < pct.size(); i++)
			if (u <= pct[i]) {
				double w = pct[i] == pct[i - 1] ? 0 :
					(u - pct[i - 1]) / (pct[i] - pct[i - 1]);
				return size[i - 1] + w * (size[i] - size[i - 1]);
			}
		return size.back();
	}
	double Mean() const
	{
		double m = 0;
		for (size_t i = 1; i < pct.size(); i++)
			m += (pct[i] - pct[i - 1]) / 100 *
			     (size[i] + size[i - 1]) / 2;
		return m;
	}
};

Cdf LoadCdf(const std::string &path)
{
	std::ifstream in(path);
	std::string line;
	Cdf c;

	if (!in) {
		std::fprintf(stderr, "sim: cannot read %s\n", path.c_str());
		std::exit(2);
	}
	while (std::getline(in, line)) {
		double s, p;
		if (line.empty() || line[0] == '#')
			continue;
		if (std::sscanf(line.c_str(), "%lf %lf", &s, &p) == 2) {
			c.size.push_back(s);
			c.pct.push_back(p);
		}
	}
	return c;
}

// xorshift64*: the workload must not depend on the library's RNG streams.
double Uniform(u64 *s)
{
	u64 x = *s;
	x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
	*s = x;
	return (double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0;
}

// Poisson arrivals per host at o.load of its link, uniform destinations.
void Workload(const Opts &o)
{
	Cdf cdf = LoadCdf(o.cdf_dir + "/" +
			  (o.workload == "web" ? "websearch.cdf" : "hadoop.cdf"));
	double mean = cdf.Mean();
	double lambda_per_ns = o.load * (double)o.host_bps / 8 / mean / 1e9;
	u64 rng = o.seed * 0x9E3779B97F4A7C15ULL + 1;
	size_t n = g_host.size();

	for (size_t h = 0; h < n; h++) {
		double t = 0;
		for (;;) {
			t += -std::log(1 - Uniform(&rng)) / lambda_per_ns;
			if (t >= o.time_us * 1000.0)
				break;
			u32 dst = (u32)((h + 1 + (size_t)(Uniform(&rng) * (n - 1))) % n);
			u64 bytes = std::max<u64>(1, (u64)cdf.Sample(Uniform(&rng) * 100));
			AddFlow((u32)h, dst, bytes, (u64)t);
		}
	}
}

void Scenario(const Opts &o)
{
	if (!o.workload.empty()) {
		Workload(o);
		return;
	}
	if (o.topo == "incast") {
		for (int i = 0; i < o.senders; i++)
			AddFlow(i, o.senders, o.incast_bytes, 0);
	} else if (o.topo == "ring") {
		int n = (int)g_sw.size();
		for (int i = 0; i < n; i++) {
			AddFlow(3 * i, 3 * ((i + 2) % n) + 2, o.incast_bytes, 0);
			AddFlow(3 * i + 1, 3 * ((i + 1) % n) + 2, o.incast_bytes, 0);
		}
	} else if (o.topo == "victim") {
		// h0, h1, h2 -> h3 (root), h4 -> h5 (victim), all at once
		for (u32 s : {0u, 1u, 2u})
			AddFlow(s, 3, o.incast_bytes, 0);
		AddFlow(4, 5, o.incast_bytes, 0);
	}
}

/*
 * Ideal FCT: the flow alone on an idle path: the first packet's
 * store-and-forward over every hop, the rest at the host rate, the last
 * ACK back.  Slowdown = FCT / ideal.
 */
u64 IdealNs(const Opts &o, const Flow *f)
{
	u64 links = 2;
	if (o.topo == "leafspine" &&
	    f->src / o.hosts_per_tor != f->dst / o.hosts_per_tor)
		links = 4;
	if (o.topo == "victim" && (f->src == 0 || f->src == 1 || f->src == 4))
		links = 3;
	if (o.topo == "ring")
		links = 2 + (f->dst / 3 + g_sw.size() - f->src / 3) % g_sw.size();
	u64 mtu = o.host.mtu_payload;
	u64 npk = (f->size_bytes + mtu - 1) / mtu;
	u64 wire = f->size_bytes + npk * kHdrBytes;
	u64 first = std::min<u64>(wire, mtu + kHdrBytes);
	u64 r = o.host_bps;
	return links * (2 * o.delay_ns + TxNs(first, r) + TxNs(kCtrlBytes, r)) +
	       TxNs(wire - first, r);
}

bool Arg(int &i, int argc, char **argv, const char *name, std::string *v)
{
	if (std::strcmp(argv[i], name) || i + 1 >= argc)
		return false;
	*v = argv[++i];
	return true;
}

void Usage()
{
	std::fprintf(stderr, "usage: rxe-acc-sim --topo incast|victim|leafspine|ring "
		     "--algo none|dcqcn|acc|acc-nohalt|timely|hpcc [--workload "
		     "web|hadoop] [--load F] [--time-us N] [--seed N] [--fct F]\n"
		     "  [--senders N] [--bytes N] [--tors N] [--hosts-per-tor N] "
		     "[--spines N] [--host-gbps N] [--core-gbps N] [--delay-ns N]\n"
		     "  [--xoff N] [--xon N] [--quanta N] [--no-pfc] "
		     "[--marking off|red|tcd] [--tcd-k N] [--tcd-period-ns N]\n"
		     "  [--ack-every N] [--acc-period-ns N] [--drain-us N] "
		     "[--host-mbps N] [--core-mbps N] [--red-kmin N] [--red-kmax N]\n"
		     "  [--acc-theta-permille N] [--acc-halt-max-ns N] "
		     "[--dcqcn-time-reset-us N] [--dcqcn-byte-reset N]\n"
		     "  [--dcqcn-ai-mbps N] [--dcqcn-hai-mbps N] "
		     "[--dcqcn-alpha-us N] [--dcqcn-rrmp-us N]\n");
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
		if (Arg(i, argc, argv, "--algo", &v)) {
			if (!ParseAlgo(v, &o.algo))
				Usage();
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
		else if (name == "--host-gbps") o.host_bps = n * 1000000000ull;
		else if (name == "--core-gbps") o.core_bps = n * 1000000000ull;
		else if (name == "--host-mbps") o.host_bps = n * 1000000ull;
		else if (name == "--core-mbps") o.core_bps = n * 1000000ull;
		else if (name == "--red-kmin") o.sw.red_kmin = n;
		else if (name == "--red-kmax") o.sw.red_kmax = n;
		else if (name == "--acc-theta-permille") o.host.acc_theta_permille = (u32)n;
		else if (name == "--acc-halt-max-ns") o.host.acc_halt_max_ns = n;
		else if (name == "--dcqcn-time-reset-us") o.host.dcqcn_time_reset_us = (u32)n;
		else if (name == "--dcqcn-byte-reset") o.host.dcqcn_byte_reset = (u32)n;
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
		else if (name == "--ack-every") o.host.ack_every = (u32)n;
		else if (name == "--acc-period-ns") o.host.acc_period_ns = n;
		else if (name == "--base-rtt-ns") o.host.base_rtt_ns = n;
		else Usage();
	}
	o.host.algo = o.algo;
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

void Report(const Opts &o, double wall_s)
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
			      << ",\"port\":" << p.idx << ",\"ce\":" << p.st.ce_marks
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
		if (f->size_bytes && g_flows.size() <= 16)
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
	u64 events = ns3::Simulator::GetEventCount();
	std::printf("{\"algo\":\"%s\",\"topo\":\"%s\",\"workload\":\"%s\","
		    "\"load\":%.2f,\"hosts\":%zu,\"flows\":%zu,\"done\":%llu,"
		    "\"sim_ns\":%llu,\"events\":%llu,\"wall_s\":%.3f,"
		    "\"events_per_s\":%.0f,\"drops_lossless\":%llu,"
		    "\"drops_ctrl\":%llu,\"pause_tx\":%llu,\"resume_tx\":%llu,"
		    "\"pause_rx_host\":%llu,\"paused_ns\":%llu,"
		    "\"host_paused_ns\":%llu,\"first_pause_ns\":%lld,"
		    "\"first_resume_ns\":%lld,\"max_q_bytes\":%llu,"
		    "\"max_buffer_bytes\":%llu,\"retx_pkts\":%llu,"
		    "\"last_rx_ns\":%llu,\"held_bytes\":%llu,\"deadlock\":%s,"
		    "\"ports\":[%s],\"flow_list\":[%s]}\n",
		    AlgoName(o.algo), o.topo.c_str(), o.workload.c_str(), o.load,
		    g_host.size(), g_flows.size(), (unsigned long long)g_done,
		    (unsigned long long)NowNs(), (unsigned long long)events, wall_s,
		    events / std::max(wall_s, 1e-9),
		    (unsigned long long)drops_lossless, (unsigned long long)drops_ctrl,
		    (unsigned long long)pause_tx, (unsigned long long)resume_tx,
		    (unsigned long long)pause_rx_host, (unsigned long long)paused_ns,
		    (unsigned long long)host_paused_ns,
		    first_pause == ~0ull ? -1LL : (long long)first_pause,
		    first_resume == ~0ull ? -1LL : (long long)first_resume,
		    (unsigned long long)max_q, (unsigned long long)max_used,
		    (unsigned long long)retx, (unsigned long long)last_rx,
		    (unsigned long long)held, deadlock ? "true" : "false",
		    ports.str().c_str(),
		    flows.str().c_str());
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

	if (o.topo == "incast")
		BuildIncast(o);
	else if (o.topo == "victim")
		BuildVictim(o);
	else if (o.topo == "leafspine")
		BuildLeafSpine(o);
	else if (o.topo == "ring")
		BuildRing(o);
	else
		Usage();
	for (Switch *s : g_sw) {
		if (s->routes.size() < g_host.size())
			s->routes.resize(g_host.size());
		s->Init();
	}
	for (Host *h : g_host)
		h->Init();
	Scenario(o);
	ns3::Simulator::Schedule(ns3::MicroSeconds(10), &Watch,
				 (o.time_us + o.drain_us) * 1000);
	auto t0 = std::chrono::steady_clock::now();
	ns3::Simulator::Run();
	double wall = std::chrono::duration<double>(
		std::chrono::steady_clock::now() - t0).count();
	Report(o, wall);
	ns3::Simulator::Destroy();
	return 0;
}

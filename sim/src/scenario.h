// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * scenario.h - what one run simulates: the options, the nodes and flows
 * built from them (topo.cc), the traffic (workload.cc).
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include <string>
#include <vector>

#include "net.h"

namespace sim {

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
	// burst: N = senders bursts of burst_bytes to F1's receiver at
	// burst_at_us, from hosts on F0's switch S0 ("sender-switch") or on
	// the receivers' switch S1 ("receiver-switch"); sample_ns > 0 records
	// the root queue, F0's and F1's acknowledged bytes and paced rates
	// every sample_ns
	std::string burst_place = "sender-switch";
	u64 burst_bytes = 64 << 10;
	u64 burst_at_us = 100;
	u64 sample_ns = 0;
	int tors = 4, hosts_per_tor = 0, spines = 2;	// 0: topology's default
	// fattree: pods of tors_per_pod ToRs and aggs_per_pod aggregation
	// switches; each aggregation switch reaches cores / aggs_per_pod cores
	int pods = 5, tors_per_pod = 4, aggs_per_pod = 4, cores = 16;
	bool check_routes = false;	// walk every ECMP path, print, no run
	SwitchCfg sw;
	HostCfg host;
};

// The run's nodes and flows (one simulation per process).
extern std::vector<Switch *> g_sw;
extern std::vector<Host *> g_host;
extern std::vector<Flow *> g_flows;
extern u64 g_done;

// Builds o.topo; false if unknown.
bool BuildTopology(const Opts &o);
// Schedules the flows: the workload, or the topology's fixed flows.
void Scenario(const Opts &o);
// FCT of the flow alone on an idle path.
u64 IdealNs(const Opts &o, const Flow *f);

// Links a packet from host @src to host @dst crosses (first ECMP choice).
int PathLinks(u32 src, u32 dst);
// JSON members (no braces): links per tier pair and, if @walk, every ECMP
// path of every host pair (reachability, path counts, longest path).
std::string FabricJson(bool walk);

}  // namespace sim

#endif

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * workload.cc - flows: Poisson arrivals with sizes from a CDF file (web
 * search, Hadoop), or each topology's fixed flows; and the ideal FCT.
 */
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cc.h"
#include "scenario.h"

#include "ns3/simulator.h"

namespace sim {

namespace {

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

}  // namespace

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
	} else if (o.topo == "burst") {
		// F0 h0 -> h2, F1 h1 -> h3 from 0; the bursts to h3 together
		AddFlow(0, 2, o.incast_bytes, 0);
		AddFlow(1, 3, o.incast_bytes, 0);
		for (int i = 0; i < o.senders; i++)
			AddFlow(4 + i, 3, o.burst_bytes, o.burst_at_us * 1000);
	}
}

/*
 * Ideal FCT: the flow alone on an idle path: the first packet's
 * store-and-forward over every hop, the rest at the host rate, the last
 * ACK back.  Slowdown = FCT / ideal.
 */
u64 IdealNs(const Opts &o, const Flow *f)
{
	u64 links = (u64)PathLinks(f->src, f->dst);
	u64 mtu = o.host.mtu_payload;
	u64 npk = (f->size_bytes + mtu - 1) / mtu;
	u64 wire = f->size_bytes + npk * kHdrBytes;
	u64 first = std::min<u64>(wire, mtu + kHdrBytes);
	u64 r = o.host_bps;
	return links * (2 * o.delay_ns + TxNs(first, r) + TxNs(kCtrlBytes, r)) +
	       TxNs(wire - first, r);
}

}  // namespace sim

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * topo.cc - the topologies: incast, the two-switch victim case, the
 * cyclic-buffer-dependency ring, the leaf-spine and the three-tier fat
 * tree of the HPCC and ACC papers.
 */
#include "scenario.h"

namespace sim {

std::vector<Switch *> g_sw;
std::vector<Host *> g_host;
std::vector<Flow *> g_flows;
u64 g_done = 0;

static void OnDone(Flow *)
{
	g_done++;
}

namespace {

Switch *NewSwitch(const Opts &o, const char *tier = "switch")
{
	Switch *s = new Switch((int)g_sw.size(), o.sw, o.seed * 7919 + g_sw.size());
	s->tier = tier;
	s->ecmp_salt = (u32)(o.seed * 7919 + g_sw.size());
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
 * The ACC paper's Figure 1 case: two long flows and a burst.
 *
 *   h0 (F0) ----\                 /-- h2 (R0: F0's receiver)
 *   h1 (F1) ---- S0 ==link== S1 --- h3 (R1: F1's and the bursts' receiver)
 *   h4 .. h(3+N) (the N burst senders): on S0 or on S1
 *
 * S1's port to h3 (port 2) is the root.  With the senders on S0
 * ("sender-switch") F1 and the bursts all enter S1 from S0, and S0's
 * port to S1 carries N x 100 Gb/s of bursts into 400 Gb/s: it is
 * congested itself, and F0 crosses it.  With the senders on S1
 * ("receiver-switch") only F1 enters the root's queue from S0; when
 * its share of that queue passes XOFF, S1 pauses S0's link and stops
 * F0, which crosses no congested port: a pure victim.
 */
void BuildBurst(const Opts &o)
{
	Switch *s0 = NewSwitch(o), *s1 = NewSwitch(o);
	bool on_s1 = o.burst_place == "receiver-switch";
	u64 r = o.host_bps;
	int n = o.senders;

	for (int i = 0; i < 4 + n; i++)
		NewHost(o);
	Connect(g_host[0], s0, r, o.delay_ns);	// s0 port 0
	Connect(g_host[1], s0, r, o.delay_ns);	// s0 port 1
	Connect(s0, s1, o.core_bps, o.delay_ns);	// s0 port 2, s1 port 0
	Connect(g_host[2], s1, r, o.delay_ns);	// s1 port 1
	Connect(g_host[3], s1, r, o.delay_ns);	// s1 port 2
	// the senders: s0 port h - 1, or s1 port h - 1
	for (int h = 4; h < 4 + n; h++)
		Connect(g_host[h], on_s1 ? s1 : s0, r, o.delay_ns);
	for (int h = 0; h < 4 + n; h++) {
		bool at_s1 = h == 2 || h == 3 || (h >= 4 && on_s1);
		bool at_s0 = !at_s1;

		Route(s0, h, {at_s1 ? 2 : (h < 2 ? h : h - 1)});
		Route(s1, h, {at_s0 ? 0 : h - 1});
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
		tor.push_back(NewSwitch(o, "tor"));
	for (int s = 0; s < o.spines; s++)
		spine.push_back(NewSwitch(o, "spine"));
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

/*
 * The three-tier fat tree of HPCC's simulator (its topology file fat.txt),
 * which the ACC paper's setup matches in every figure it gives (320
 * servers, 100 Gb/s to the ToR, 400 Gb/s above, 1 us links):
 *
 *   pods x tors_per_pod ToRs, hosts_per_tor hosts each (5 x 4 x 16 = 320)
 *   pods x aggs_per_pod aggregation switches (5 x 4 = 20)
 *   cores core switches (16), in aggs_per_pod planes of
 *   cores / aggs_per_pod: aggregation switch j of every pod connects to
 *   the cores of plane j.
 *
 * Every ToR reaches every aggregation switch of its pod.  With the
 * defaults no tier is oversubscribed: a ToR has 16 x 100 Gb/s down and
 * 4 x 400 Gb/s up, an aggregation switch 4 x 400 down and 4 x 400 up.
 * Routing is shortest-path with ECMP: up to the first switch that can
 * reach the destination downwards (ToR, aggregation or core), down from
 * there; a host pair in two pods has aggs_per_pod x cores/aggs_per_pod
 * equal paths.
 */
void BuildFatTree(const Opts &o)
{
	int np = o.pods, tpp = o.tors_per_pod, app = o.aggs_per_pod;
	int hpt = o.hosts_per_tor, per_plane = o.cores / o.aggs_per_pod;
	int nh = np * tpp * hpt;
	std::vector<Switch *> tor, agg, core;

	for (int i = 0; i < np * tpp; i++)
		tor.push_back(NewSwitch(o, "tor"));
	for (int i = 0; i < np * app; i++)
		agg.push_back(NewSwitch(o, "agg"));
	for (int i = 0; i < o.cores; i++)
		core.push_back(NewSwitch(o, "core"));
	for (int h = 0; h < nh; h++)
		NewHost(o);
	// ToR t: ports 0..hpt-1 its hosts, then one per agg of its pod
	for (int t = 0; t < np * tpp; t++)
		for (int i = 0; i < hpt; i++)
			Connect(g_host[t * hpt + i], tor[t], o.host_bps, o.delay_ns);
	// agg: ports 0..tpp-1 the ToRs of its pod, then its plane's cores;
	// core: port p = the agg of pod p in its plane
	for (int p = 0; p < np; p++)
		for (int a = 0; a < app; a++)
			for (int t = 0; t < tpp; t++)
				Connect(tor[p * tpp + t], agg[p * app + a],
					o.core_bps, o.delay_ns);
	for (int p = 0; p < np; p++)
		for (int a = 0; a < app; a++)
			for (int c = 0; c < per_plane; c++)
				Connect(agg[p * app + a], core[a * per_plane + c],
					o.core_bps, o.delay_ns);
	std::vector<int> tor_up, agg_up;
	for (int a = 0; a < app; a++)
		tor_up.push_back(hpt + a);
	for (int c = 0; c < per_plane; c++)
		agg_up.push_back(tpp + c);
	for (int h = 0; h < nh; h++) {
		int t = h / hpt, p = t / tpp;

		for (int i = 0; i < np * tpp; i++)
			Route(tor[i], h, i == t ? std::vector<int>{h % hpt} :
				tor_up);
		for (int i = 0; i < np * app; i++)
			Route(agg[i], h, i / app == p ?
				std::vector<int>{t % tpp} : agg_up);
		for (int i = 0; i < o.cores; i++)
			Route(core[i], h, {p});
	}
}

}  // namespace

bool BuildTopology(const Opts &o)
{
	if (o.topo == "incast")
		BuildIncast(o);
	else if (o.topo == "victim")
		BuildVictim(o);
	else if (o.topo == "burst")
		BuildBurst(o);
	else if (o.topo == "leafspine")
		BuildLeafSpine(o);
	else if (o.topo == "ring")
		BuildRing(o);
	else if (o.topo == "fattree" && o.aggs_per_pod > 0 &&
		 o.cores % o.aggs_per_pod == 0 && o.cores > 0)
		BuildFatTree(o);
	else
		return false;
	for (Switch *s : g_sw) {
		if (s->routes.size() < g_host.size())
			s->routes.resize(g_host.size());
		s->Init();
	}
	return true;
}

}  // namespace sim

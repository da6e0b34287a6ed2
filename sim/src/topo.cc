// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * topo.cc - the topologies: incast, the two-switch victim case, the
 * cyclic-buffer-dependency ring and the leaf-spine.
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

}  // namespace

bool BuildTopology(const Opts &o)
{
	if (o.topo == "incast")
		BuildIncast(o);
	else if (o.topo == "victim")
		BuildVictim(o);
	else if (o.topo == "leafspine")
		BuildLeafSpine(o);
	else if (o.topo == "ring")
		BuildRing(o);
	else
		return false;
	for (Switch *s : g_sw) {
		if (s->routes.size() < g_host.size())
			s->routes.resize(g_host.size());
		s->Init();
	}
	for (Host *h : g_host)
		h->Init();
	return true;
}

}  // namespace sim

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * paths.cc - what the routing tables of a built topology give: the links
 * of a host pair's path (for the ideal FCT), the links per tier, and an
 * exhaustive walk of every ECMP path of every host pair (--check-routes),
 * so that a topology's tests assert on the tables the switches really use.
 */
#include <algorithm>
#include <map>
#include <sstream>

#include "scenario.h"

namespace sim {

namespace {

constexpr int kMaxSwitchHops = 16;	// a longer walk is a routing loop

const char *TierOf(const Node *n)
{
	const Switch *s = dynamic_cast<const Switch *>(n);

	return s ? s->tier : "host";
}

struct Walk {
	u32 dst;
	u64 paths = 0;		// ECMP paths that reach dst
	u64 misses = 0;		// paths that end elsewhere, loop or dead-end
	int max_links = 0;

	// From switch @s, @links links so far.
	void From(const Switch *s, int links)
	{
		const std::vector<int> &cand = s->routes[dst];

		if (links > kMaxSwitchHops || cand.empty()) {
			misses++;
			return;
		}
		for (int port : cand) {
			const Node *next = s->ports[port].peer;
			const Switch *ns = dynamic_cast<const Switch *>(next);

			if (ns) {
				From(ns, links + 1);
			} else if (next->id() == (int)dst) {
				paths++;
				max_links = std::max(max_links, links + 1);
			} else {
				misses++;
			}
		}
	}
};

}  // namespace

int PathLinks(u32 src, u32 dst)
{
	const Node *n = g_host[src]->ports[0].peer;
	int links = 1;

	for (const Switch *s; (s = dynamic_cast<const Switch *>(n)) &&
	     links <= kMaxSwitchHops; links++)
		n = s->ports[s->routes[dst].at(0)].peer;
	return links;
}

std::string FabricJson(bool walk)
{
	struct Tier {
		u64 count = 0, min_bps = ~0ull, max_bps = 0;
	};
	std::map<std::string, Tier> tiers;
	std::ostringstream js;

	for (const Switch *s : g_sw)
		for (const Port &p : s->ports) {
			bool host = !dynamic_cast<const Switch *>(p.peer);

			if (!host && p.peer->id() < s->id())
				continue;	// each switch link once
			Tier &t = tiers[std::string(TierOf(host ? p.peer : s)) +
					"-" + TierOf(host ? s : p.peer)];
			t.count++;
			t.min_bps = std::min(t.min_bps, p.rate_bps);
			t.max_bps = std::max(t.max_bps, p.rate_bps);
		}
	js << "\"links\":[";
	bool first = true;
	for (const auto &kv : tiers) {
		js << (first ? "" : ",") << "{\"tiers\":\"" << kv.first
		   << "\",\"count\":" << kv.second.count << ",\"min_gbps\":"
		   << kv.second.min_bps / 1000000000.0 << ",\"max_gbps\":"
		   << kv.second.max_bps / 1000000000.0 << "}";
		first = false;
	}
	js << "]";
	if (!walk)
		return js.str();

	// paths per host pair, by the number of links of the pair's paths
	std::map<int, std::pair<u64, u64>> by_len;	// links -> (pairs, paths)
	u64 pairs = 0, unreachable = 0, misses = 0;
	u64 min_paths = ~0ull, max_paths = 0;
	for (u32 src = 0; src < g_host.size(); src++)
		for (u32 dst = 0; dst < g_host.size(); dst++) {
			if (src == dst)
				continue;
			Walk w{dst};
			w.From(dynamic_cast<const Switch *>(
				       g_host[src]->ports[0].peer), 1);
			pairs++;
			unreachable += !w.paths;
			misses += w.misses;
			min_paths = std::min(min_paths, w.paths);
			max_paths = std::max(max_paths, w.paths);
			by_len[w.max_links].first++;
			by_len[w.max_links].second += w.paths;
		}
	js << ",\"routes\":{\"pairs\":" << pairs << ",\"unreachable\":"
	   << unreachable << ",\"misrouted_paths\":" << misses
	   << ",\"min_paths\":" << min_paths << ",\"max_paths\":" << max_paths
	   << ",\"by_links\":[";
	first = true;
	for (const auto &kv : by_len) {
		js << (first ? "" : ",") << "{\"links\":" << kv.first
		   << ",\"pairs\":" << kv.second.first << ",\"paths\":"
		   << kv.second.second << "}";
		first = false;
	}
	js << "]}";
	return js.str();
}

}  // namespace sim

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* algo.cc - names of the congestion-control choices. */
#include "net.h"

namespace sim {

static const struct {
	Algo a;
	const char *name;
} kAlgos[] = {
	{Algo::None, "none"},	{Algo::Dcqcn, "dcqcn"},
	{Algo::Acc, "acc"},	{Algo::AccNoHalt, "acc-nohalt"},
	{Algo::Timely, "timely"}, {Algo::Hpcc, "hpcc"},
};

const char *AlgoName(Algo a)
{
	for (const auto &e : kAlgos)
		if (e.a == a)
			return e.name;
	return "?";
}

bool ParseAlgo(const std::string &s, Algo *a)
{
	for (const auto &e : kAlgos)
		if (s == e.name) {
			*a = e.a;
			return true;
		}
	return false;
}

}  // namespace sim

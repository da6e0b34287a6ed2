#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Short flows of the web-search workload, scaled to the test bed.

The web-search flow-size distribution (Alizadeh et al., DCTCP, SIGCOMM'10;
the CDF as tabulated with HPCC's traffic generator) in bytes at the
reference fabric, carried to the test bed by the BDP ratio k_b of
eval/scaling.py (a flow keeps its size in bandwidth-delay products).  A
flow is "small" when its reference size is below SMALL_REF_BYTES (100 KB,
the usual cut of the FCT figures).

  websearch.py specs SEED NFLOWS HOSTS DST T0_S T1_S [--line-bps B]
      one e2e flow spec per line ("SRC DST START_S ITERS SIZE"): NFLOWS
      flows, round-robin over HOSTS (comma-separated host numbers), start
      times evenly spaced over [T0_S, T1_S), sizes drawn (seeded) from the
      scaled CDF
  websearch.py cdf [--line-bps B]      the scaled CDF (bytes, fraction)
Python 3 stdlib only.
"""
import argparse
import math
import random
import sys

import scaling

# (reference bytes, cumulative fraction): the web-search CDF.
WEBSEARCH_CDF = [
    (0, 0.00), (10_000, 0.15), (20_000, 0.20), (30_000, 0.30),
    (50_000, 0.40), (80_000, 0.53), (200_000, 0.60), (1_000_000, 0.70),
    (2_000_000, 0.80), (5_000_000, 0.90), (10_000_000, 0.97),
    (30_000_000, 1.00)]
SMALL_REF_BYTES = 100_000
MSG_MAX_BYTES = 65536     # perftest message size cap (as the long flows)
MIN_MSGS = 5              # perftest takes -n 5 at least


def k_bytes(line_bps=scaling.BED_LINE_BPS, rtt_us=scaling.BED_RTT_US):
    """The BDP ratio of the mlx5 reference (25 Gb/s, 40 us) to the bed."""
    return scaling.factors('mlx5', line_bps, rtt_us)[2]


def scaled_cdf(k_b):
    return [(b * k_b, f) for b, f in WEBSEARCH_CDF]


def draw(cdf, u):
    """Inverse of the piecewise-linear CDF at u in [0, 1]: bytes (>= 1)."""
    for (b0, f0), (b1, f1) in zip(cdf, cdf[1:]):
        if u <= f1:
            if f1 == f0:
                return max(1, int(round(b1)))
            return max(1, int(round(b0 + (b1 - b0) * (u - f0) / (f1 - f0))))
    return max(1, int(round(cdf[-1][0])))


def messages(size_bytes):
    """(iters, msg_bytes) of a perftest flow of about size_bytes: messages of
    at most MSG_MAX_BYTES, at least MIN_MSGS of them (perftest refuses
    fewer)."""
    iters = max(MIN_MSGS, math.ceil(size_bytes / MSG_MAX_BYTES))
    return iters, max(1, math.ceil(size_bytes / iters))


def specs(seed, nflows, hosts, dst, t0_s, t1_s, k_b):
    """[(src, dst, start_s, iters, msg_bytes)] of the short flows."""
    rng = random.Random(seed)
    cdf = scaled_cdf(k_b)
    out = []
    for i in range(nflows):
        size = draw(cdf, rng.random())
        iters, msg = messages(size)
        start = t0_s + (t1_s - t0_s) * i / nflows
        out.append((hosts[i % len(hosts)], dst, round(start, 3), iters, msg))
    return out


def main(argv):
    ap = argparse.ArgumentParser(prog='websearch.py')
    ap.add_argument('cmd', choices=('specs', 'cdf'))
    ap.add_argument('args', nargs='*')
    ap.add_argument('--line-bps', type=float, default=scaling.BED_LINE_BPS)
    a = ap.parse_args(argv)
    k_b = k_bytes(a.line_bps)
    if a.cmd == 'cdf':
        for b, f in scaled_cdf(k_b):
            print('%d %.2f' % (b, f))
        return 0
    if len(a.args) != 6:
        ap.error('specs SEED NFLOWS HOSTS DST T0_S T1_S')
    seed, n, hosts, dst, t0, t1 = a.args
    for s in specs(int(seed), int(n), [int(h) for h in hosts.split(',')],
                   int(dst), float(t0), float(t1), k_b):
        print('%d %d %g %d %d' % s)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-flow rates of ib_read_bw flows in one test-bed run.

  read_figures.py RUN_DIR [--prio 3]

eval/metrics.py measures a flow at its client's lsw port, where WRITE data
enters the switch.  READ data flows the other way: from the server (the
flow's dst host) to the client.  This measures each ib_read_bw flow at its
server's port (bytes lsw received from it on the priority) and prints
key=value lines: window_s (the all-active window: latest start to earliest
end of the flows' byte counters), flowI_mbps (flow I's mean rate over that
window), fair_mbps (their mean) and flows (the count).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'eval'))
import metrics  # noqa: E402  (the test bed's own parsers)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('run')
    ap.add_argument('--prio', type=int, default=3)
    a = ap.parse_args()
    _, ports = metrics.load_counters(os.path.join(a.run, 'lsw-counters.json'))
    ts = metrics.load_csv(os.path.join(a.run, 'lsw-timeseries.csv'))
    flows = [f for f in metrics.load_flows(os.path.join(a.run, 'flows.tsv'))
             if f['tool'] == 'ib_read_bw']
    cum, spans = {}, {}
    for f in flows:
        hp = metrics.host_port(ports, 'h%d' % f['dst'])
        rows = ts.get((hp[0], hp[1], a.prio), []) if hp else []
        cum[f['id']] = [(r['time_ns'], r['bytes_in']) for r in rows]
        spans[f['id']] = metrics.active_interval(cum[f['id']])
    live = [s for s in spans.values() if s]
    if len(live) != len(flows) or len(flows) < 2:
        print('flows=%d active=%d' % (len(flows), len(live)))
        return 1
    w0, w1 = max(s[0] for s in live), min(s[1] for s in live)
    if w1 <= w0:
        print('flows=%d window_s=0' % len(flows))
        return 1
    rates = {}
    for i, c in cum.items():
        rates[i] = (metrics.interp(c, w1) - metrics.interp(c, w0)) * 8e3 / (w1 - w0)
    print('flows=%d' % len(flows))
    print('window_s=%.3f' % ((w1 - w0) / 1e9))
    for i in sorted(rates):
        print('flow%d_mbps=%.3f' % (i, rates[i]))
    print('fair_mbps=%.3f' % (sum(rates.values()) / len(rates)))
    return 0


if __name__ == '__main__':
    sys.exit(main())

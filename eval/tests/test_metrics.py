#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of eval/metrics.py against hand-computed values (TAP)."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import metrics as M  # noqa: E402

CASES = []


def case(fn):
    CASES.append(fn)
    return fn


def close(a, b, tol=1e-9):
    return a is not None and abs(a - b) <= tol * max(1.0, abs(b))


@case
def jain_equal_and_skewed():
    # (1+1+1+1)^2 / (4*4) = 1; (1+3)^2 / (2*(1+9)) = 16/20 = 0.8;
    # one flow starved of two: (2)^2/(2*4) = 0.5
    assert close(M.jain([5, 5, 5, 5]), 1.0)
    assert close(M.jain([1, 3]), 0.8)
    assert close(M.jain([2, 0]), 0.5)
    assert M.jain([]) is None and M.jain([0, 0]) is None


@case
def percentile_nearest_rank():
    v = [15, 20, 35, 40, 50]          # classic nearest-rank example
    assert M.percentile(v, 5) == 15   # ceil(0.25) = 1st
    assert M.percentile(v, 30) == 20  # ceil(1.5) = 2nd
    assert M.percentile(v, 40) == 20  # ceil(2.0) = 2nd
    assert M.percentile(v, 50) == 35  # ceil(2.5) = 3rd
    assert M.percentile(v, 100) == 50
    assert M.percentile(list(range(1, 1001)), 99.9) == 999
    assert M.percentile([], 50) is None


@case
def rate_series_from_cumulative_bytes():
    # 1000 B every 1 ms from t=0 to 10 ms: 8 Mb/s; bins of 2 ms -> 5 bins.
    s = [(i * 1_000_000, i * 1000) for i in range(11)]
    r = M.rate_series(s, 0, 10_000_000, 2_000_000)
    assert len(r) == 5
    assert all(close(x, 8e6) for _, x in r)
    # Interpolation inside a sample gap: samples at 0 and 4 ms only.
    r = M.rate_series([(0, 0), (4_000_000, 4000)], 1_000_000, 3_000_000, 1_000_000)
    assert [round(x) for _, x in r] == [8_000_000, 8_000_000]


@case
def active_interval_brackets_changes():
    s = [(0, 0), (10, 0), (20, 5), (30, 9), (40, 9), (50, 9)]
    assert M.active_interval(s) == (10, 30)
    assert M.active_interval([(0, 3), (1, 3)]) is None


@case
def convergence_band():
    b = 100
    # fair 10: flow A 20,14,11,10,9.5 ; flow B 0,6,9,10,10.5
    # within +-10 % (9..11): bin 2 (11, 9) yes, bin 3 yes, bin 4 yes -> 2 bins
    # from the first bin = 200 ns = 2e-7 s
    a = [(i * b, x) for i, x in enumerate([20, 14, 11, 10, 9.5])]
    c = [(i * b, x) for i, x in enumerate([0, 6, 9, 10, 10.5])]
    assert close(M.convergence_time([a, c], 10.0, 0.10), 2e-7)
    # A late excursion resets it: converged only from the last bin.
    c2 = [(i * b, x) for i, x in enumerate([10, 10, 10, 5, 10])]
    a2 = [(i * b, x) for i, x in enumerate([10, 10, 10, 15, 10])]
    assert close(M.convergence_time([a2, c2], 10.0), 4e-7)
    # Never within band at the end: None.
    assert M.convergence_time([[(0, 1), (1, 1)]], 10.0) is None
    # Within band from the start: 0.
    assert M.convergence_time([[(0, 10), (1, 10.9)]], 10.0) == 0.0


@case
def queue_peak_and_time_weighted_mean():
    # q=0 for 1 s, 100 for 3 s, 0 at the end: mean = 300/4 = 75, peak 100
    s = [(0, 0), (1e9, 100), (4e9, 0)]
    peak, mean = M.queue_stats(s)
    assert peak == 100 and close(mean, 75.0)
    # window [1 s, 4 s): only the sample at 1 s -> held 100
    peak, mean = M.queue_stats(s, 1e9, 4e9)
    assert peak == 100 and close(mean, 100.0)


@case
def paused_time_sample_and_hold():
    # paused from 2 to 5 and from 7 to 8: 4 units
    s = [(0, 0), (2, 1), (3, 1), (5, 0), (7, 1), (8, 0), (9, 0)]
    assert M.held_time(s) == 4


@case
def utilisation_counts_wire_overhead():
    # 1000 frames of 976 B + 24 B overhead = 1e6 B = 8e6 bit in 1 s at
    # 10 Mb/s -> 0.8
    assert close(M.utilisation(976_000, 1000, 10_000_000, 0, 1_000_000_000), 0.8)
    assert M.utilisation(1, 1, 10, 5, 5) is None


@case
def parsers_perftest_and_trace():
    bw = (" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n"
          " 65536      200              4.29               2.47   \t\t   0.000040\n")
    assert close(M.parse_perftest_bw(bw), 2.47)
    lat = "#, usec\n1, 4000.5\n2, 3999.25\n 3 , 12\n"
    assert M.parse_perftest_lat(lat) == [4000.5, 3999.25, 12.0]
    tr = ("# tracer: nop\n"
          "  ib_write_bw-123 [000] ..s1  12.500000: rxe_cc_rate: qp=17 rate_mbps=20 alpha=0x400 algo=acc\n"
          "  <idle>-0 [000] ..s1  12.750000: rxe_cc_halt: qp=17 halt_us=300\n")
    ev = M.parse_trace(tr)
    assert len(ev) == 2
    assert ev[0] == (12.5, 'rxe_cc_rate', {'qp': 17, 'rate_mbps': 20, 'alpha': 1024, 'algo': 'acc'})
    assert ev[1][1] == 'rxe_cc_halt' and ev[1][2]['halt_us'] == 300


@case
def analyse_synthetic_run():
    # Two senders h0, h1 -> h2 at 10 Mb/s; samples every 100 ms for 1 s.
    # h0 sends 125000 B/s*... : cumulative bytes_in h0 = 62500*k (5 Mb/s),
    # h1 = 62500*k for k>=2 (starts at 0.2 s); bottleneck queue 1000 B.
    d = tempfile.mkdtemp()
    rows = ['time_ns,switch,port,prio,queue_bytes,paused,tcd_state,ingress_bytes,host_queue_bytes,bytes_in,bytes_out']
    for k in range(11):
        t = k * 100_000_000
        rows.append('%d,s1,h0,3,0,0,NO,0,0,%d,0' % (t, 62500 * k))
        rows.append('%d,s1,h1,3,0,0,NO,0,0,%d,0' % (t, 62500 * max(0, k - 2)))
        rows.append('%d,s1,h2,3,%d,%d,NO,0,0,0,%d' % (t, 1000, k % 2, 125000 * k))
    open(os.path.join(d, 'lsw-timeseries.csv'), 'w').write('\n'.join(rows) + '\n')

    def pr(p, **kw):
        base = {'prio': p, 'bytes_in': 0, 'frames_out': 0, 'bytes_out': 0,
                'drops': 0, 'pfc_tx': 0, 'xoff_tx': 0, 'paused_ns': 0,
                'host_paused_ns': 0, 'queue_peak_bytes': 0, 'ce_marks': 0,
                'ue_marks': 0, 'ect0_in': 0, 'ect1_in': 0, 'ce_in': 0,
                'tx_first_ns': 0, 'tx_last_ns': 0, 'host_drops': 0}
        base.update(kw)
        return base
    js = {'time_ns': 0, 'switches': [{'name': 's1', 'ports': [
        {'name': 'h0', 'rate_bps': 10_000_000, 'prio': [pr(3, bytes_in=625000, pfc_tx=4, xoff_tx=2, host_paused_ns=300_000_000)]},
        {'name': 'h1', 'rate_bps': 10_000_000, 'prio': [pr(3, bytes_in=500000)]},
        # 1225 frames * (1000 - 24 + 24): frames_out*1000 B of wire = 1.25 MB
        # over 1 s at 10 Mb/s -> utilisation 1.0
        {'name': 'h2', 'rate_bps': 10_000_000, 'prio': [pr(3, bytes_out=1250000 - 1250 * 24, frames_out=1250,
                                                           tx_first_ns=0, tx_last_ns=1_000_000_000, queue_peak_bytes=1500)]}]}]}
    json.dump(js, open(os.path.join(d, 'lsw-counters.json'), 'w'))
    open(os.path.join(d, 'flows.tsv'), 'w').write(
        '# id\n0\t0\t2\tib_write_bw\t0\t10\t65536\t0\t1.0\t2.0\n'
        '1\t1\t2\tib_write_bw\t0.2\t10\t65536\t0\t1.2\t2.0\n')
    m = M.analyse(d, 's1:h2', bin_ms=100)
    assert close(m['utilisation'], 1.0)
    assert close(m['flows'][0]['lsw_mbps'], 5.0)
    assert close(m['flows'][1]['lsw_mbps'], 5.0)
    assert close(m['jain'], 1.0) and m['converge_s'] == 0.0
    assert close(m['window_s'], 0.8)
    # h1 starts moving at 0.2 s: window [0.2 s, 1.0 s], 5 Mb/s each
    assert m['window_t0_ns'] == 200_000_000 and m['window_t1_ns'] == 1_000_000_000
    assert close(m['flows'][0]['window_mbps'], 5.0)
    assert close(m['flows'][1]['window_mbps'], 5.0)
    assert m['queue_peak_bytes'] == 1500 and close(m['queue_mean_bytes'], 1000.0)
    assert m['pfc_tx'] == 4 and close(m['paused_s'], 0.3) and m['spread_ports'] == 1
    assert os.path.exists(os.path.join(d, 'rates.dat'))


def main():
    print('TAP version 13')
    print('1..%d' % len(CASES))
    failed = 0
    for i, fn in enumerate(CASES, 1):
        try:
            fn()
            print('ok %d - %s' % (i, fn.__name__.replace('_', ' ')))
        except Exception as e:  # noqa: BLE001 - report any failure as TAP
            failed += 1
            print('not ok %d - %s' % (i, fn.__name__.replace('_', ' ')))
            print('# %s: %r' % (type(e).__name__, e))
            import traceback
            for line in traceback.format_exc().splitlines():
                print('# ' + line)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

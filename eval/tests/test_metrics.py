#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of eval/metrics.py against hand-computed values (TAP)."""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
import metrics as M  # noqa: E402
import onset as O  # noqa: E402
import scaling as S  # noqa: E402
import fct as F  # noqa: E402
import websearch as W  # noqa: E402
import interleave as IL  # noqa: E402
from tap import case, run  # noqa: E402


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
def window_rates_slide_over_cumulative_bytes():
    # 1000 B every 1 ms: 8 Mb/s; 2 ms windows stepped by 1 ms from 0 to
    # 5 ms end at 2, 3, 4 and 5 ms.
    s = [(i * 1_000_000, i * 1000) for i in range(11)]
    r = O.window_rates(s, 0, 5_000_000, 2_000_000, 1_000_000)
    assert [t for t, _ in r] == [2_000_000, 3_000_000, 4_000_000, 5_000_000]
    assert all(close(x, 8e6) for _, x in r)
    assert O.first_change([(0, 5), (10, 5), (20, 6), (30, 7)]) == 10
    assert O.first_change([(0, 5), (10, 5)]) is None


@case
def rate_window_counts_frames_of_the_fair_share():
    t_ns = 4_000_000                    # T = 4 ms
    # 2:1 at 20 Mb/s, 1100 B frames: 20 frames take 17.6 ms < 5 T.
    assert O.window_ns(t_ns, t_ns // 4, 10e6, 1100) == 5 * t_ns
    # 8:1: 20 frames at 2.5 Mb/s take 70.4 ms, rounded up to T / 4.
    assert O.window_ns(t_ns, t_ns // 4, 2.5e6, 1100) == 71_000_000
    # No frame size or share: periods only.
    assert O.window_ns(t_ns, t_ns // 4, 2.5e6, 0) == 5 * t_ns
    assert O.window_ns(t_ns, t_ns // 4, 0, 1100) == 5 * t_ns


@case
def frame_window_sees_a_steady_8to1_share_as_steady():
    # Eight flows, each a 1100 B frame every 3.52 ms (exactly 2.5 Mb/s),
    # sampled every ms as lsw does.  Over 5 T (20 ms) a window holds 5 or
    # 6 frames, -12 % or +6 % of the share; over 20 frames, 20 or 21.
    t_ns, frame_ns, fair = 4_000_000, 3_520_000, 2.5e6
    series_5t, series_fr = [], []
    for k in range(8):
        off = k * 440_000
        cum = [(i * 1_000_000, 1100 * max(0, (i * 1_000_000 - off) // frame_ns + 1))
               for i in range(2000)]
        for win, out in ((5 * t_ns, series_5t),
                         (O.window_ns(t_ns, t_ns // 4, fair, 1100), series_fr)):
            out.append(O.window_rates(cum, 0, 1_999_000_000, win, t_ns // 4))
    _, share_5t = O.convergence(series_5t, fair)
    _, share_fr = O.convergence(series_fr, fair)
    assert share_5t < 0.5, share_5t
    assert share_fr == 1.0, share_fr


@case
def convergence_from_onset_and_share_within():
    # fair 10: A 20,14,11,10,9.5,12 ; B 0,6,9,10,10.5,8 at t = 0..5.
    # Within +-10 % (9..11) at t = 2, 3, 4, not at 5: converged at t = 2,
    # then within at 3 of the 4 samples from it.
    a = [(i, x) for i, x in enumerate([20, 14, 11, 10, 9.5, 12])]
    b = [(i, x) for i, x in enumerate([0, 6, 9, 10, 10.5, 8])]
    t, share = O.convergence([a, b], 10.0, 0.10)
    assert t == 2 and close(share, 0.75)
    # A late excursion does not move the convergence time (the old rule
    # would have said "never" here).
    assert O.convergence([[(0, 1), (1, 1)]], 10.0) == (None, 0.0)
    assert O.convergence([[(0, 10), (1, 10.9)]], 10.0) == (0, 1.0)


@case
def spread_p5_p95_over_fair_share():
    # values / fair: 0.8 1.0 1.2 0.9 1.1 1.0 -> sorted 0.8 0.9 1.0 1.0 1.1
    # 1.2; nearest rank p5 = 1st (0.8), p95 = ceil(5.7) = 6th (1.2)
    s1 = [(0, 8), (1, 10), (2, 12)]
    s2 = [(0, 9), (1, 11), (2, 10)]
    p5, p95 = O.spread([s1, s2], 10.0)
    assert close(p5, 0.8) and close(p95, 1.2)
    assert O.spread([], 10.0) == (None, None)


@case
def trace_onset_halts_and_rates():
    ev = [(1.0, 'rxe_cc_first_send', {'dev': 'rxe_h0', 'qpn': 17, 'rate_bps': 20e6}),
          (1.0, 'rxe_cc_rate', {'dev': 'rxe_h0', 'qpn': 17, 'new_bps': 5e6}),
          (2.0, 'rxe_cc_halt', {'dev': 'rxe_h0', 'qpn': 17}),
          (2.5, 'rxe_cc_halt_end', {'dev': 'rxe_h0', 'qpn': 17, 'rate_bps': 4e6}),
          (3.0, 'rxe_cc_first_send', {'dev': 'rxe_h1', 'qpn': 17, 'rate_bps': 20e6}),
          (3.1, 'rxe_cc_halt', {'dev': 'rxe_h1', 'qpn': 17}),
          (3.5, 'rxe_cc_halt', {'dev': 'rxe_h0', 'qpn': 17}),
          (4.2, 'rxe_cc_halt', {'dev': 'rxe_h1', 'qpn': 17}),
          (5.0, 'rxe_cc_first_send', {'dev': 'rxe_h0', 'qpn': 18, 'rate_bps': 1}),
          (6.0, 'rxe_cc_halt', {'dev': 'rxe_h0', 'qpn': 17})]
    # The last device's first packet; a second QP of rxe_h0 does not count.
    assert O.trace_onset(ev) == 3.0
    assert O.trace_onset(ev, devs={'rxe_h0'}) == 1.0
    # Halts at 3.1, 3.5 and 4.2 in [3, 5): 3 in 2 s.
    assert close(O.halts_per_s(ev, 3.0, 5.0), 1.5)
    r = O.trace_rates(ev, 1.5, 2.9)
    assert r[('rxe_h0', 17)] == [(1.5, 5e6), (2.0, 0.0), (2.5, 4e6)]


@case
def trace_within_from_first_halt_end():
    q0, q1 = {'dev': 'rxe_h0', 'qpn': 17}, {'dev': 'rxe_h1', 'qpn': 17}
    ev = [(0.0, 'rxe_cc_first_send', dict(q0, rate_bps=20e6)),
          (1.0, 'rxe_cc_halt', q0),
          (1.5, 'rxe_cc_halt_end', dict(q0, rate_bps=10e6)),
          (2.5, 'rxe_cc_rate', dict(q0, new_bps=11.5e6)),
          (3.0, 'rxe_cc_halt', q0),
          (3.5, 'rxe_cc_halt_end', dict(q0, rate_bps=9.5e6)),
          (0.5, 'rxe_cc_first_send', dict(q1, rate_bps=20e6)),
          (4.0, 'rxe_cc_halt', {'dev': 'rxe_h2', 'qpn': 1})]
    ev.sort(key=lambda e: e[0])
    # h0 from its first halt end (1.5 s) to 5.5 s: 10 Mb/s for 1 s, 11.5
    # (out) 0.5 s, halted 0.5 s, 9.5 for 2 s: 3 of 4 s within 10 %.  h1
    # never halted: not counted; neither is a halt end before t_from.
    w = O.trace_within(ev, 0.5, 5.5, 10e6)
    assert list(w) == [('rxe_h0', 17)] and close(w[('rxe_h0', 17)], 0.75)
    # From 2 s the first halt end is 3.5 s: 9.5 Mb/s to the end.
    assert close(O.trace_within(ev, 2.0, 5.5, 10e6)[('rxe_h0', 17)], 1.0)
    assert O.trace_within(ev, 0.5, 1.2, 10e6) == {}


@case
def scaling_rule_by_hand():
    # mlx5 at 25 Gb/s, 40 us -> 20 Mb/s, 4 ms: k_t 100, k_r 0.0008, k_b 0.08
    k_t, k_r, k_b = S.factors('mlx5')
    assert close(k_t, 100) and close(k_r, 0.0008) and close(k_b, 0.08)
    k = dict(S.knobs('mlx5', extra=False))
    assert k['rpg_time_reset'] == 30000 and k['dce_tcp_rtt'] == 100
    assert k['rpg_ai_rate_kbps'] == 4 and k['rpg_hai_rate_kbps'] == 40
    assert k['rpg_byte_reset'] == 2621          # 32767 * 0.08 = 2621.4
    assert k['rpg_min_rate_kbps'] == 1          # 0.8 rounds to 1 (floor 1)
    assert k['dce_tcp_g'] == 1019 and k['rpg_threshold'] == 1
    # BDP 10 KB: K = 15 KB; RED Kmax = min(30 KB, 0.9 * 30 KB) = 27 KB
    m = S.marking('mlx5')
    assert (m['kmin'], m['kmax'], m['xoff']) == (15000, 27000, 30000)
    assert m['kmax'] < m['xoff']
    assert S.marking('paper')['kmin'] == S.marking('paper')['kmax'] == 15000
    assert S.marking('acc') == {'mode': 'tcd', 'k': 15000, 'xoff': 30000}
    # paper at 40 Gb/s: k_r 0.0005; AI 40 Mb/s -> 20 kb/s, B 10 MB -> 500 KB
    p = dict(S.knobs('paper', extra=False))
    assert p['rpg_ai_rate_kbps'] == 20 and p['rpg_byte_reset'] == 500000
    assert p['min_time_between_cnps'] == 5000 and p['clamp_tgt_rate'] == 1
    # frame 4178 B * 0.08 = 334 B: MTU 256 (338 B) is the nearest
    assert S.bed_mtu('mlx5') == 256
    # ACC's cap is written before its period (sysfs checks cap >= period)
    names = [n for n, _ in S.knobs('acc')]
    assert names.index('acc_halt_max_us') < names.index('acc_period_us')
    # ACC's in-flight cap only when asked: 125 KB (25 Gb/s x 40 us) x k_b
    assert 'acc_window_bytes' not in names
    assert dict(S.knobs('acc', window=True))['acc_window_bytes'] == 10000
    assert dict(S.knobs('acc', 40e6, window=True))['acc_window_bytes'] == 20000
    assert 'acc_window_bytes' not in dict(S.knobs('mlx5', window=True))


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
    # 2.47 MiB/s = 2.47 * 2^20 * 8 bit/s = 20.72 Mb/s
    assert close(M.perftest_mbps(M.parse_perftest_bw(bw)), 20.72, 0.01)
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
        '1\t1\t2\tib_write_bw\t0.2\t10\t65536\t0\t1.2\t2.0\n'
        # a short flow of host 3 (no lsw port of its own here): FCT only,
        # not in the window, Jain or convergence below
        '2\t3\t2\tib_write_bw\t0.9\t2\t1024\t0\t1.9\t2.0\n')
    open(os.path.join(d, 'flow-2.client.txt'), 'w').write(
        ' #bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]\n'
        ' 1024       2           0.60            0.50               0.000512\n')
    m = M.analyse(d, 's1:h2', bin_ms=100, period_ms=100, short_hosts=[3],
                  small_bytes=4096)
    assert len(m['flows']) == 2 and len(m['short_flows']) == 1
    # 2048 B at 0.5 MiB/s = 3.90625 ms; ideal 2260 B at 10 Mb/s + 100 ms
    assert close(m['short_flows'][0]['fct_ms'], 3.90625)
    assert close(m['fct_small_p50'], 0.00390625 / (2260 * 8 / 10e6 + 0.1))
    assert m['fct_small_n'] == 1 and m['small_bytes'] == 4096
    assert m['fct_censored'] == 0
    # Both columns print 0: below perftest's resolution, the floor of
    # 2 s per message is the FCT (5 messages: 10 s), counted as censored.
    assert F.fct_floor_s(5) == 10.0
    with open(os.path.join(d, 'flow-2.client.txt'), 'w') as fh:
        fh.write(' 1024       2           0.00            0.00               0.000000\n')
    m = M.analyse(d, 's1:h2', bin_ms=100, period_ms=100, short_hosts=[3],
                  small_bytes=4096)
    assert m['fct_censored'] == 1 and close(m['short_flows'][0]['fct_ms'], 4000.0)
    assert close(m['utilisation'], 1.0)
    assert close(m['flows'][0]['lsw_mbps'], 5.0)
    assert close(m['flows'][1]['lsw_mbps'], 5.0)
    assert close(m['jain'], 1.0) and close(m['fair_mbps'], 5.0)
    # Onset: h1's first change, 0.2 s.  Windows of 5 periods (0.5 s): the
    # first ends at 0.7 s, both flows at exactly 5 Mb/s from there.
    assert m['onset_ns'] == 200_000_000
    assert close(m['converge_ms'], 500.0) and close(m['converge_periods'], 5.0)
    assert close(m['within_share'], 1.0)
    assert close(m['spread_p5'], 1.0) and close(m['spread_p95'], 1.0)
    assert m['queue_p99_bytes'] == 1000 and 'halts_per_s' not in m
    assert close(m['window_s'], 0.8)
    # h1 starts moving at 0.2 s: window [0.2 s, 1.0 s], 5 Mb/s each
    assert m['window_t0_ns'] == 200_000_000 and m['window_t1_ns'] == 1_000_000_000
    assert close(m['flows'][0]['window_mbps'], 5.0)
    assert close(m['flows'][1]['window_mbps'], 5.0)
    assert m['queue_peak_bytes'] == 1500 and close(m['queue_mean_bytes'], 1000.0)
    # h2's egress grows in every 100 ms sample from 0 to 1 s
    assert close(m['busy_s'], 1.0)
    assert m['pfc_tx'] == 4 and close(m['paused_s'], 0.3) and m['spread_ports'] == 1
    assert os.path.exists(os.path.join(d, 'rates.dat'))
    # R counts wire bits: frames of 976 B plus 24 B of wire overhead make
    # the 5 Mb/s share at the switch 5.123 Mb/s of wire.  R = 5.6 Mb/s is
    # 9.3 % above that (within 10 %), though 12 % above 5 Mb/s.
    tr = ['rxe_cc_first_send: dev=rxe_h0 qpn=17 rate_bps=10000000',
          'rxe_cc_first_send: dev=rxe_h1 qpn=17 rate_bps=10000000',
          'rxe_cc_halt: dev=rxe_h0 qpn=17',
          'rxe_cc_halt_end: dev=rxe_h0 qpn=17 rate_bps=5600000']
    open(os.path.join(d, 'trace.txt'), 'w').write(''.join(
        ' ib_write_bw-1 [000] ..... %.6f: %s\n' % (t, line)
        for t, line in zip((1.0, 1.2, 1.25, 1.3), tr)))
    m = M.analyse(d, 's1:h2', bin_ms=100, period_ms=100, short_hosts=[3],
                  small_bytes=4096)
    assert m['trace_halts'] == 1 and close(m['trace_onset_s'], 1.2)
    assert close(m['trace_within_share'], 1.0)
    open(os.path.join(d, 'trace.txt'), 'a').write(
        ' ib_write_bw-1 [000] ..... 1.600000: rxe_cc_rate: dev=rxe_h0 qpn=17 '
        'old_bps=5600000 new_bps=5700000 why=timer\n')
    # 5.7 Mb/s is 11.3 % above the wire share from 1.6 s: 0.3 of 0.7 s in.
    m = M.analyse(d, 's1:h2', bin_ms=100, period_ms=100, short_hosts=[3],
                  small_bytes=4096)
    assert close(m['trace_within_share'], 0.3 / 0.7)


@case
def fct_from_perftest_average_and_slowdown():
    # 2 x 1024 B at 0.5 MB/s (2^20 B/MB): 2048 / 524288 = 3.90625 ms
    assert close(F.fct_s(2, 1024, 0.5), 2048 / 524288)
    assert F.fct_s(2, 1024, 0) is None and F.fct_s(2, 1024, None) is None
    # 2 x 39 B in 5 ms: BW prints 0.01 (+-33 %), MsgRate 0.000400 (+-0.1 %):
    # the message rate wins, 2 / 400 = 5 ms
    assert close(F.fct_s(2, 39, 0.01, 0.000400), 0.005)
    # 10 x 64 KiB in 1 s: BW 0.62 (+-0.8 %) beats MsgRate 0.000010 (+-5 %)
    assert close(F.fct_s(10, 65536, 0.625, 0.000010), 1.0)
    # wire: each 1024 B message is one frame (+106 B), a 1025 B one two
    assert F.wire_bytes(2, 1024) == 2 * (1024 + 106)
    assert F.wire_bytes(1, 1025) == 1025 + 2 * 106
    # ideal at 8 Mb/s, RTT 4 ms: 2260 B * 8 / 8e6 = 2.26 ms + 4 ms
    assert close(F.ideal_fct_s(2, 1024, 8e6, 0.004), 0.00626)
    # slowdowns 1, 2, 3 (small: <= 2048 B) and 10 (large); a failed flow
    # (None) is left out
    i = F.ideal_fct_s(2, 1024, 8e6, 0.004)
    j = F.ideal_fct_s(4, 65536, 8e6, 0.004)
    r = F.slowdowns([(2, 1024, i), (2, 1024, 2 * i), (2, 1024, 3 * i),
                     (4, 65536, 10 * j), (2, 1024, None)], 8e6, 0.004, 2048)
    assert r['n'] == 4 and r['small_n'] == 3
    assert close(r['small_p50'], 2.0) and close(r['small_p99'], 3.0)
    assert close(r['p50'], 2.0) and close(r['p99'], 10.0)


@case
def websearch_sizes_scaled_and_drawn():
    # k_b of 25 Gb/s, 40 us -> 20 Mb/s, 4 ms: (4000/40) * (20e6/25e9) = 0.08
    k = W.k_bytes(20e6, 4000)
    assert close(k, 0.08)
    cdf = W.scaled_cdf(k)
    assert cdf[1] == (800.0, 0.15) and cdf[-1] == (2_400_000.0, 1.0)
    # inverse CDF, linear inside a step: u = 0.15 -> 800 B; u = 0.175 is
    # halfway from 800 to 1600 B; u = 0 -> at least 1 B
    assert W.draw(cdf, 0.15) == 800 and W.draw(cdf, 0.175) == 1200
    assert W.draw(cdf, 0.0) == 1 and W.draw(cdf, 1.0) == 2_400_000
    # messages: at least 5 (perftest's minimum), at most 64 KiB each
    assert W.messages(100) == (5, 20) and W.messages(101) == (5, 21)
    assert W.messages(400_000) == (7, 57143)
    sp = W.specs(7, 6, [3, 4], 2, 2.0, 5.0, k)
    assert [x[0] for x in sp] == [3, 4, 3, 4, 3, 4] and all(x[1] == 2 for x in sp)
    assert [x[2] for x in sp] == [2.0, 2.5, 3.0, 3.5, 4.0, 4.5]
    assert sp == W.specs(7, 6, [3, 4], 2, 2.0, 5.0, k)  # seeded


@case
def echoes_per_sender_device():
    ev = [(1.0, 'rxe_cc_period', {'dev': 'rxe_h0', 'class': 'congested',
                                  'n_ack': 5, 'n_pkt': 5, 'n_ce': 4,
                                  'n_ue': 0}),
          (1.1, 'rxe_cc_period', {'dev': 'rxe_h1', 'class': 'victim',
                                  'n_ack': 6, 'n_ce': 0, 'n_ue': 5}),
          (1.2, 'rxe_cc_period', {'dev': 'rxe_h0', 'class': 'uncongested',
                                  'n_ack': 5, 'n_pkt': 40, 'n_ce': 1,
                                  'n_ue': 1}),
          (1.3, 'rxe_cc_cnp', {'dev': 'rxe_h1', 'what': 'handled'}),
          (1.4, 'rxe_cc_cnp', {'dev': 'rxe_h1', 'what': 'ignored'}),
          (1.5, 'rxe_cc_cnp', {'dev': 'rxe_h2', 'what': 'sent'}),
          (1.6, 'rxe_cc_halt', {'dev': 'rxe_h0'})]
    e = M.echoes_by_dev(ev)
    assert e['rxe_h0'] == {'acks': 10, 'pkts': 45, 'ce': 5, 'ue': 1,
                           'congested': 1, 'victim': 0, 'cnps': 0}
    # a trace from before n_pkt: no packets counted
    assert e['rxe_h1'] == {'acks': 6, 'pkts': 0, 'ce': 0, 'ue': 5,
                           'congested': 0, 'victim': 1, 'cnps': 1}
    assert e['rxe_h2']['cnps'] == 0 and 'rxe_h3' not in e


@case
def victim_rate_while_bursts_send():
    assert M.span_union([None, (5, 9), (2, 7)]) == (2, 9)
    assert M.span_union([None]) is None
    # 1000 B per ms = 8 Mb/s; over [2 ms, 6 ms]
    s = [(i * 1_000_000, i * 1000) for i in range(11)]
    assert close(M.mean_mbps(s, 2_000_000, 6_000_000), 8.0)
    assert M.mean_mbps(s, 6, 6) is None
    assert close(M.overlap_s((0, 3_000_000_000), (2_000_000_000, 9)), 0.0)
    assert close(M.overlap_s((0, 3_000_000_000), (2_000_000_000, 5_000_000_000)), 1.0)
    assert M.overlap_s(None, (0, 1)) == 0.0



def il_run(turns, hw):
    """An interleaved run directory: turns {(round, k): MiB/s or None (a
    failed turn)}, hw {(round, k): {counter: (before, after)}} of the
    receiver."""
    d = tempfile.mkdtemp()
    with open(os.path.join(d, 'rounds.tsv'), 'w') as fh:
        fh.write('# round k algo rc t0 t1\n')
        for (r, k), v in sorted(turns.items()):
            fh.write('%d\t%d\tx\t%d\t0\t1\n' % (r, k, 0 if v else 1))
            t = os.path.join(d, 'r%d-a%d' % (r, k))
            os.makedirs(t)
            if v:
                with open(os.path.join(t, 'flow-0.client.txt'), 'w') as f2:
                    f2.write(' #bytes #iterations BW peak[MB/sec] BW average[MB/sec] MsgRate[Mpps]\n'
                             ' 65536 2000 %.2f %.2f 0.000400\n' % (v, v))
            for i, tag in enumerate(('before', 'after')):
                with open(os.path.join(t, 'hw-counters-%s-rxe_h1.txt' % tag), 'w') as fh2:
                    for name, ba in hw.get((r, k), {}).items():
                        fh2.write('%s %d\n' % (name, ba[i]))
    return d


@case
def interleave_split_rounds_and_ratios():
    # k 0 = none at 30, 20 MiB/s; k 1 = acc at 27, 20: rounds 0.9 and 1.0
    d = il_run({(1, 0): 30, (1, 1): 27, (2, 1): 20, (2, 0): 20},
               {(1, 0): {'sent_pkts': (0, 8), 'rcvd_pkts': (0, 500),
                         'out_of_seq_request': (0, 0)},
                (2, 0): {'sent_pkts': (8, 16), 'rcvd_pkts': (500, 1000),
                         'out_of_seq_request': (0, 2)},
                (1, 1): {'sent_pkts': (16, 46), 'rcvd_pkts': (1000, 1500),
                         'out_of_seq_request': (2, 3)},
                (2, 1): {'sent_pkts': (46, 66), 'rcvd_pkts': (1500, 2000),
                         'out_of_seq_request': (3, 5)}})
    r = IL.split(d, ['none', 'acc'])
    mb = M.MBPS_PER_PERFTEST_MIBPS
    # bytes over time of equal-byte turns: harmonic mean, 2/(1/30+1/20) = 24
    assert close(r['none']['flows'][0]['perftest_mbps'], 24 * mb)
    assert close(r['acc']['turns_mbps'][0], 27 * mb)
    assert [round(x, 9) for x in r['acc']['ratio_rounds_none']] == [0.9, 1.0]
    assert close(r['acc']['ratio_none_median'], 0.95)
    # counters add up over an algorithm's own turns only
    assert close(r['none']['acks_per_1000'], 16.0) and r['none']['retries'] == 2
    assert close(r['acc']['acks_per_1000'], 50.0) and r['acc']['retries'] == 3
    assert 'ratio_rounds_none' not in r['none']


@case
def interleave_split_failed_and_missing():
    # a failed turn: no pooled rate, counted; k 1 absent (kernel lacks it);
    # a turn without counters: none summed
    d = il_run({(1, 0): 30, (2, 0): None}, {})
    r = IL.split(d, ['none', 'acc'])
    assert r['none']['perftest_failed'] == 1
    assert r['none']['flows'][0]['perftest_mbps'] is None
    assert r['none']['turns_mbps'][1] is None and 'acc' not in r
    assert r['none']['acks_per_1000'] is None and r['none']['retries'] is None

if __name__ == '__main__':
    sys.exit(run())

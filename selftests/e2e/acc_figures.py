#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The ACC figures of a cc-acc.sh run, as "key value" lines on stdout.

  acc_figures.py incast DIR PERIOD_US LINE_MBPS
      2:1 incast h0, h1 -> h2 on one switch (guest trace, lsw 1 ms samples).
      The guest trace clock and lsw's clock are not synchronised; every
      interval is measured on one clock.  (lsw silences cannot time the
      halts: a halt shorter than 5 ms goes unseen, and the VM has natural
      3-6 ms gaps without any halt.)
        onset        trace: the second QP's first packet (rxe_cc_first_send)
        halt_ms      trace: when the later of the two QPs started its
                     first halt (rxe_cc_halt) after the onset.
                     halt_periods: in T
        r0_mbps      r as measured at those halts' start (it sizes
                     t_halt), and r0_dev_pct, the larger deviation from
                     the fair share line / 2 (layer-1 bytes)
        r_mbps       R, the rate each QP resumed at when that halt ended
                     (rxe_cc_halt_end: r refined by the halt's ACKs), and
                     r_dev_pct, the larger deviation from line / 2
        resume_ms    trace: when both had ended that halt
        queue_min_drain, util_drain
                     lsw: bottleneck queue minimum and utilisation over the
                     halts mapped onto lsw's clock (lsw onset = the second
                     flow's first byte at the switch, plus the trace
                     offsets), to one T after the later resume
        util_after, queue_*_after
                     lsw: from there to the end of the common window
        lsw_halts_ms the first >= 5 ms silence of each flow at the switch
                     (informational: a halt shorter than 5 ms is missed)
  acc_figures.py victim TRACE DEV P_THRESH
      "victim_periods early_cuts cuts ce_cuts" of DEV's QP: its
      class=victim periods; its rate cuts; ce_cuts, those made at the close
      of a period with CE (possibly, congested: ACC's answer to CE, not the
      victim rule); early_cuts, the others that came before more than
      P_THRESH consecutive victim periods (a victim cut too soon, or a cut
      in a period without marks).
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'eval'))
import metrics as M  # noqa: E402

SILENCE_NS = 5_000_000
NS_PER_MS = 1e6


def first_silence(cum, t_from, min_ns=SILENCE_NS):
    """(start, end) of the first run of samples without new bytes that lasts
    at least min_ns after t_from, or None."""
    last_t = None
    for (ta, va), (tb, vb) in zip(cum, cum[1:]):
        if ta < t_from:
            continue
        if vb == va:
            if last_t is None:
                last_t = ta
        elif last_t is not None and ta - last_t >= min_ns:
            return last_t, ta
        else:
            last_t = None
    return None


def egress_util(bytes_out, frame_bytes, t0, t1, line_mbps):
    """Bottleneck utilisation in [t0, t1] (metrics.utilisation), from its
    bytes_out samples; the frames in the window are counted at the run's
    mean frame size, which lsw's counters give."""
    b = M.interp(bytes_out, t1) - M.interp(bytes_out, t0)
    return M.utilisation(b, b / frame_bytes, line_mbps * 1e6, t0, t1)


def trace_halts(d, devs):
    """Trace figures of the first halt of each dev after the later QP's
    first packet: (onset_s, {dev: (halt_s, r0_mbps, end_s, r_mbps)}), or
    None."""
    ev = M.parse_trace(open(d + '/trace.txt').read())
    firsts = {}
    for t, n, k in ev:
        if n == 'rxe_cc_first_send' and k.get('dev') in devs:
            firsts.setdefault(k['dev'], t)
    if len(firsts) < len(devs):
        return None
    onset = max(firsts.values())
    halts, ends = {}, {}
    for t, n, k in ev:
        dev = k.get('dev')
        if t < onset or dev not in devs:
            continue
        if n == 'rxe_cc_halt' and dev not in halts:
            halts[dev] = (t, k['ack_rate_bps'] / 1e6)
        elif n == 'rxe_cc_halt_end' and dev in halts and dev not in ends:
            ends[dev] = (t, k['rate_bps'] / 1e6)
    if len(ends) < len(devs):
        return None
    return onset, {k: halts[k] + ends[k] for k in devs}


def incast(d, period_us, line_mbps):
    T = period_us * 1000
    ts = M.load_csv(d + '/lsw-timeseries.csv', 3)
    mj = json.load(open(d + '/metrics.json'))
    cum = {h: [(r['time_ns'], r['bytes_in']) for r in ts[('s1', h, 3)]]
           for h in ('h0', 'h1')}
    span = {h: M.active_interval(cum[h]) for h in cum}
    lsw_onset = max(span[h][0] for h in cum)
    w1 = min(span[h][1] for h in cum)
    out = {'period_ms': T / NS_PER_MS}
    fair = line_mbps / 2
    th = trace_halts(d, ('rxe_h0', 'rxe_h1'))
    if th:
        onset, h = th
        rel = {k: ((a - onset) * 1e9, (b - onset) * 1e9, r, r0)
               for k, (a, r0, b, r) in h.items()}
        t_halt = max(v[0] for v in rel.values())
        t_res = max(v[1] for v in rel.values())
        out['halt_ms'] = t_halt / NS_PER_MS
        out['halt_periods'] = t_halt / T
        out['resume_ms'] = t_res / NS_PER_MS
        out['resume_periods'] = t_res / T
        for key, i in (('r', 2), ('r0', 3)):
            out[key + '_mbps'] = ' '.join('%.2f' % rel[k][i] for k in sorted(rel))
            out[key + '_dev_pct'] = max(abs(v[i] - fair) / fair * 100
                                        for v in rel.values())
        out['halts_ms'] = ' '.join('%.1f..%.1f' % (rel[k][0] / NS_PER_MS, rel[k][1] / NS_PER_MS)
                                   for k in sorted(rel))
        t0 = lsw_onset + min(v[0] for v in rel.values())
        t1 = lsw_onset + t_res + T
        q = [(r['time_ns'], r['queue_bytes']) for r in ts[('s1', 'h2', 3)]]
        bo = [(r['time_ns'], r['bytes_out']) for r in ts[('s1', 'h2', 3)]]
        c = M.load_counters(d + '/lsw-counters.json')[0][('s1', 'h2', 3)]
        fsz = c['bytes_out'] / max(1, c['frames_out'])
        drain = [v for t, v in q if t0 <= t <= t1]
        if drain:
            out['queue_min_drain'] = min(drain)
            out['util_drain'] = egress_util(bo, fsz, t0, t1, line_mbps)
        after = [v for t, v in q if t1 <= t <= w1]
        if after:
            out['queue_mean_after'] = sum(after) / len(after)
            out['queue_p95_after'] = M.percentile(after, 95)
            out['util_after'] = egress_util(bo, fsz, t1, w1, line_mbps)
    halts = {h: first_silence(cum[h], lsw_onset) for h in cum}
    out['lsw_halts_ms'] = ' '.join(
        '%.0f..%.0f' % ((v[0] - lsw_onset) / NS_PER_MS, (v[1] - lsw_onset) / NS_PER_MS)
        if v else '-' for v in halts.values())
    out['fair_l1_mbps'] = fair
    out['window_fair_mbps'] = sum(f.get('window_mbps', 0) for f in mj['flows'][:2]) / 2
    for k, v in out.items():
        print(k, '%.3f' % v if isinstance(v, float) else v)


def victim(trace, dev, p_thresh):
    try:
        ev = M.parse_trace(open(trace).read())
    except OSError:
        ev = []
    run = vp = early = cuts = ce_cuts = 0
    last = None
    for _, n, k in ev:
        if k.get('dev') != dev:
            continue
        if n == 'rxe_cc_period':
            last = k['class']
            if last == 'victim':
                vp += 1
                run += 1
            elif last not in ('no_ack', 'halted'):
                run = 0
        elif (n == 'rxe_cc_rate' and 0 < k['new_bps'] < k['old_bps'] and
              k['why'] != 'start'):
            cuts += 1
            if last in ('possibly', 'congested'):
                # the period that closed carried CE: ACC's answer to CE
                ce_cuts += 1
            elif run <= p_thresh:
                # a victim cut too soon, or a cut without marks at all
                early += 1
            run = 0
    print(vp, early, cuts, ce_cuts)


def main(argv):
    if len(argv) == 5 and argv[1] == 'incast':
        incast(argv[2], int(argv[3]), float(argv[4]))
    elif len(argv) == 5 and argv[1] == 'victim':
        victim(argv[2], argv[3], int(argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The ACC figures of a cc-acc.sh run, as "key value" lines on stdout.

  acc_figures.py incast DIR PERIOD_US LINE_MBPS
      2:1 incast h0, h1 -> h2 on one switch (lsw 1 ms samples, guest trace):
        onset        the second flow's first byte at the switch (lsw clock)
        halt_ms      when the later of the two flows stopped for its first
                     halt: the start of its first >= 5 ms silence at the
                     switch after the onset (lsw; the halt decision is a
                     little earlier, by what sat in the host's NIC queue)
        halt_periods halt_ms in periods T: from then on both QPs hold
                     R = r, their measured ACK rate
        resume_ms    when both have resumed (the end of those silences)
        r_mbps       r of each QP's first halt after the second QP's start
                     (trace rxe_cc_halt ack_rate_bps, layer-1 bytes), and
                     r_dev_pct, the larger deviation from line / 2
        queue_min_drain, util_drain
                     bottleneck queue minimum and utilisation from the first
                     halt start to one T after the later resume
        util_after, queue_*_after
                     from the later resume to the end of the common window
  acc_figures.py victim TRACE DEV P_THRESH
      "victim_periods early_cuts cuts" of DEV's QP: its class=victim periods,
      and its rate cuts, those among them that came before more than
      P_THRESH consecutive victim periods.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'eval'))
import metrics as M  # noqa: E402

SILENCE_NS = 5_000_000
TWO_MTU_BYTES = 2200
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


def egress_util(d, ts, t0, t1, line_mbps):
    """Bottleneck (s1:h2) utilisation in [t0, t1]: frame bytes plus the
    run's per-frame wire overhead, over the line rate."""
    bo = [(r['time_ns'], r['bytes_out']) for r in ts[('s1', 'h2', 3)]]
    prios, _ = M.load_counters(d + '/lsw-counters.json')
    c = prios[('s1', 'h2', 3)]
    fsz = c['bytes_out'] / max(1, c['frames_out'])
    b = M.interp(bo, t1) - M.interp(bo, t0)
    return b * (fsz + M.WIRE_OVERHEAD) / fsz * 8e9 / (line_mbps * 1e6 * (t1 - t0))


def first_halts(d, devs):
    """{dev: r_mbps} of each dev's first rxe_cc_halt after the later QP
    start, from the guest trace."""
    ev = M.parse_trace(open(d + '/trace.txt').read())
    starts = [t for t, n, k in ev if n == 'rxe_cc_rate' and
              k.get('why') == 'start' and k.get('dev') in devs]
    if len(starts) < len(devs):
        return {}
    on = max(starts)
    out = {}
    for t, n, k in ev:
        if n == 'rxe_cc_halt' and t >= on and k['dev'] in devs and k['dev'] not in out:
            out[k['dev']] = k['ack_rate_bps'] / 1e6
    return out


def incast(d, period_us, line_mbps):
    T = period_us * 1000
    ts = M.load_csv(d + '/lsw-timeseries.csv', 3)
    mj = json.load(open(d + '/metrics.json'))
    cum = {h: [(r['time_ns'], r['bytes_in']) for r in ts[('s1', h, 3)]]
           for h in ('h0', 'h1')}
    span = {h: M.active_interval(cum[h]) for h in cum}
    onset = max(span[h][0] for h in cum)
    w1 = min(span[h][1] for h in cum)
    out = {'period_ms': T / NS_PER_MS}
    halts = {h: first_silence(cum[h], onset) for h in cum}
    if all(halts.values()):
        t_halt = max(a for a, _ in halts.values())
        t_res = max(b for _, b in halts.values())
        h0 = min(a for a, _ in halts.values())
        out['halt_ms'] = (t_halt - onset) / NS_PER_MS
        out['halt_periods'] = (t_halt - onset) / T
        out['resume_ms'] = (t_res - onset) / NS_PER_MS
        out['resume_periods'] = (t_res - onset) / T
        out['first_halts_ms'] = ' '.join(
            '%.0f..%.0f' % ((a - onset) / NS_PER_MS, (b - onset) / NS_PER_MS)
            for a, b in halts.values())
        q = [(r['time_ns'], r['queue_bytes']) for r in ts[('s1', 'h2', 3)]]
        drain = [v for t, v in q if h0 <= t <= t_res + T]
        out['queue_min_drain'] = min(drain)
        out['queue_below_2mtu_drain'] = int(min(drain) < TWO_MTU_BYTES)
        out['util_drain'] = egress_util(d, ts, h0, t_res + T, line_mbps)
        after = [v for t, v in q if t_res <= t <= w1]
        if after and w1 > t_res:
            out['queue_mean_after'] = sum(after) / len(after)
            out['queue_p95_after'] = M.percentile(after, 95)
            out['util_after'] = egress_util(d, ts, t_res, w1, line_mbps)
    fair = line_mbps / 2
    r = first_halts(d, ('rxe_h0', 'rxe_h1'))
    if len(r) == 2:
        out['r_mbps'] = ' '.join('%.2f' % r[k] for k in sorted(r))
        out['r_dev_pct'] = max(abs(v - fair) / fair * 100 for v in r.values())
    out['fair_l1_mbps'] = fair
    out['window_fair_mbps'] = sum(f.get('window_mbps', 0) for f in mj['flows'][:2]) / 2
    for k, v in out.items():
        print(k, '%.3f' % v if isinstance(v, float) else v)


def victim(trace, dev, p_thresh):
    try:
        ev = M.parse_trace(open(trace).read())
    except OSError:
        ev = []
    run = vp = early = cuts = 0
    for _, n, k in ev:
        if k.get('dev') != dev:
            continue
        if n == 'rxe_cc_period':
            if k['class'] == 'victim':
                vp += 1
                run += 1
            elif k['class'] not in ('no_ack', 'halted'):
                run = 0
        elif (n == 'rxe_cc_rate' and 0 < k['new_bps'] < k['old_bps'] and
              k['why'] != 'start'):
            cuts += 1
            if run <= p_thresh:
                early += 1
            run = 0
    print(vp, early, cuts)


def main(argv):
    if len(argv) == 5 and argv[1] == 'incast':
        incast(argv[2], int(argv[3]), float(argv[4]))
    elif len(argv) == 5 and argv[1] == 'victim':
        victim(argv[2], argv[3], int(argv[4]))
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)

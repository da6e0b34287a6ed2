# SPDX-License-Identifier: GPL-2.0
"""Metrics from the onset of congestion (python3 stdlib only).

The onset is the moment the last flow sends its first packet: on lsw's
clock, the first change of its sender port's byte counter; on the guest's
trace clock, its QP's rxe_cc_first_send.  Everything here is measured from
it, in nanoseconds and in periods T (the test bed's RTT, eval/scaling.py).

  * window rate: a flow's throughput over the sliding window [t - W, t],
    sampled every step; W = WINDOW_PERIODS periods, or longer if the fair
    share sends fewer than WINDOW_FRAMES frames in that (window_ns), so
    that one frame is at most 5 % of a window at any number of flows: at
    20 Mb/s a period holds ~4 frames of a 2:1 share and ~1 of an 8:1 one;
  * convergence: the first t >= onset + W at which every flow's window
    rate is within +-band of the fair share (None: never), and the share
    of the samples from then to the end of the all-active window at which
    that still holds;
  * spread: the 5th and 95th percentiles of every flow's window rates over
    the all-active window, divided by the fair share;
  * halts per second: rxe_cc_halt events of the flows after the onset per
    second of the all-active window (all flows, and per flow);
  * paced rate within the band (the trace): for each QP, the share of the
    time from the end of its first halt after the onset to the end of the
    all-active window during which its paced rate R (0 while halted) is
    within +-band of the fair share; the mean over the QPs.  R is what the
    algorithm asks for: it shows the rule's own stability, free of the
    window noise of the rates measured at the switch.  R counts wire bits
    (frame, FCS, preamble and gap), so the caller gives the fair share in
    those too, not in the frame bits the switch counts.
"""
from stats import interp, percentile

WINDOW_PERIODS = 5
WINDOW_FRAMES = 20


def window_ns(period_ns, step_ns, fair_bps, frame_bytes):
    """W: WINDOW_PERIODS periods, stretched to WINDOW_FRAMES frames of
    frame_bytes at fair_bps when those take longer (a whole number of
    sampling steps)."""
    w = WINDOW_PERIODS * period_ns
    if fair_bps > 0 and frame_bytes > 0:
        need = WINDOW_FRAMES * frame_bytes * 8e9 / fair_bps
        if need > w:
            w = -(-int(need) // step_ns) * step_ns
    return w


def first_change(samples):
    """Time of the sample before a cumulative counter first changes."""
    for (t0, v0), (_, v1) in zip(samples, samples[1:]):
        if v1 != v0:
            return t0
    return None


def window_rates(cum, t_from, t_to, win_ns, step_ns):
    """[(t, b/s)] of bytes in [t - win, t] for t = t_from + win, + step, ...
    up to t_to, from cumulative byte samples [(t_ns, bytes)]."""
    out = []
    t = t_from + win_ns
    while t <= t_to and cum:
        b = interp(cum, t) - interp(cum, t - win_ns)
        out.append((t, b * 8e9 / win_ns))
        t += step_ns
    return out


def convergence(series, fair, band=0.10):
    """series: per flow, aligned [(t, rate)].  (t of the first sample at
    which all flows are within +-band * fair, share of the samples from it
    on that are), or (None, 0.0)."""
    if not series or not series[0] or fair <= 0:
        return None, 0.0
    n = min(len(s) for s in series)
    ok = [all(abs(s[i][1] - fair) <= band * fair for s in series)
          for i in range(n)]
    if True not in ok:
        return None, 0.0
    k = ok.index(True)
    return series[0][k][0], sum(ok[k:]) / (n - k)


def spread(series, fair):
    """(p5, p95) of all flows' window rates, over the fair share."""
    vals = [r / fair for s in series for _, r in s] if fair > 0 else []
    if not vals:
        return None, None
    return percentile(vals, 5), percentile(vals, 95)


def trace_onset(events, devs=None):
    """Trace-clock onset (s): the latest rxe_cc_first_send, per device when
    devs is given (one QP per sender device); None without events."""
    firsts = {}
    for t, name, kv in events:
        if name != 'rxe_cc_first_send':
            continue
        dev = kv.get('dev')
        if devs is not None and dev not in devs:
            continue
        firsts.setdefault(dev, t)
    return max(firsts.values()) if firsts else None


def halts_per_s(events, t_from_s, t_to_s):
    """rxe_cc_halt events in [t_from_s, t_to_s) per second."""
    if t_to_s <= t_from_s:
        return None
    n = sum(1 for t, name, _ in events
            if name == 'rxe_cc_halt' and t_from_s <= t < t_to_s)
    return n / (t_to_s - t_from_s)


def trace_within(events, t_from_s, t_to_s, fair_bps, band=0.10):
    """Per QP (dev, qpn) that ended a halt in [t_from_s, t_to_s): the share
    of [its first halt end, t_to_s) with its paced rate within +-band *
    fair_bps.  {} when no QP halted."""
    firsts = {}
    for t, name, kv in events:
        if name == 'rxe_cc_halt_end' and t_from_s <= t < t_to_s:
            firsts.setdefault((kv.get('dev', ''), kv.get('qpn', kv.get('qp', 0))), t)
    rates = trace_rates(events, t_from_s, t_to_s)
    out = {}
    for key, t0 in firsts.items():
        pts = [p for p in rates.get(key, []) if p[0] < t_to_s]
        steps = pts + [(t_to_s, 0.0)]
        inside = total = 0.0
        for (ta, r), (tb, _) in zip(steps, steps[1:]):
            a, b = max(ta, t0), min(tb, t_to_s)
            if b <= a:
                continue
            total += b - a
            if abs(r - fair_bps) <= band * fair_bps:
                inside += b - a
        if total > 0:
            out[key] = inside / total
    return out


def trace_rates(events, t_from_s, t_to_s):
    """{(dev, qpn): [(t_s, b/s)]} step functions of each QP's paced rate from
    the trace in [t_from_s, t_to_s]: rxe_cc_rate sets it, rxe_cc_halt sets 0
    until rxe_cc_halt_end, rxe_cc_first_send starts it."""
    out = {}
    for t, name, kv in events:
        if t > t_to_s:
            break
        key = (kv.get('dev', ''), kv.get('qpn', kv.get('qp', 0)))
        if name == 'rxe_cc_rate':
            r = kv.get('new_bps')
        elif name in ('rxe_cc_halt_end', 'rxe_cc_first_send'):
            r = kv.get('rate_bps')
        elif name == 'rxe_cc_halt':
            r = 0
        else:
            continue
        if r is None:
            continue
        out.setdefault(key, []).append((t, float(r)))
    clipped = {}
    for k, v in out.items():
        before = [r for t, r in v if t < t_from_s]
        pts = [(t_from_s, before[-1])] if before else []
        clipped[k] = pts + [(t, r) for t, r in v if t >= t_from_s]
    return clipped

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Metrics of one test-bed run, from RAW data (python3 stdlib only).

Inputs in RUN_DIR (written by selftests/e2e/lib-host.sh and lib-guest.sh):
  lsw-counters.json    lsw counters (exact totals, virtual clock)
  lsw-timeseries.csv   time_ns,switch,port,prio,queue_bytes,paused,tcd_state,
                       ingress_bytes,host_queue_bytes,bytes_in,bytes_out,
                       pfc_tx,paused_ns
  flows.tsv            id src dst tool start_s iters size rc t0 t1
  flow-I.client.txt    perftest output (cross-check; latency samples with -H)
  trace.txt            rxe_cc trace events (key=value pairs), if any

  metrics.py analyse RUN_DIR --bottleneck SW:PORT [--prio 3] [--bin-ms 200]
      [--victim FLOW_ID] [--short-hosts K,K --small-bytes B]
                           writes RUN_DIR/metrics.json and the plain data
                           files RUN_DIR/{rates,queue,cc-rate}.dat; prints JSON
A flow is measured at its sender's lsw host port ("h<src>", bytes the switch
received from it): one flow per sender host.  Definitions (unit-tested in
eval/tests/test_metrics.py):
  * rate series: cumulative bytes interpolated at bin edges, 8*diff/bin;
  * Jain's index: (sum x)^2 / (n * sum x^2);
  * window_mbps (per flow): its mean rate over the all-active window
    [window_t0_ns, window_t1_ns] (latest start, earliest end);
  * fair share: the flows' mean over the all-active window / n;
  * from the onset (eval/onset.py): convergence in ms and periods, the share
    of time within +-band after it, the rate spread p5/p95, halts per
    second; the queue mean and p99 over the all-active window;
  * utilisation: bottleneck egress wire bits (frame + overhead) over
    rate * (tx_last - tx_first) from the counters;
  * queue mean: time-weighted (sample and hold) over the busy interval
    (busy_s: the bottleneck egress from its first to its last change);
  * percentile: nearest rank, the ceil(p/100 * n)-th smallest value;
  * short flows (the flows of --short-hosts): not in the rates, fairness
    or convergence; their FCT and slowdown as eval/fct.py defines them,
    small = at most --small-bytes;
  * victim_burst_mbps: the victim flow's mean over the span in which the
    short (bursting) hosts' ports carry bytes (first start, last end),
    only when the victim was active in it (burst_overlap_s > 0);
  * echoes per flow (of its sender's device, from the trace): ACKs, CE and
    UE echoes summed over ACC's closed periods (rxe_cc_period), the periods
    ACC classed congested and victim, and the CNPs the sender handled.
"""
import argparse
import json
import math
import os
import re
import sys

import fct as F
import onset as O
from stats import interp, jain, percentile  # noqa: F401 (tests use M.*)

WIRE_OVERHEAD = 24  # lsw default (preamble, SFD, FCS, IFG)


# ---------------------------------------------------------------- pure maths
def rate_series(samples, t_start, t_end, bin_ns):
    """[(bin start, b/s)] from cumulative byte samples [(t_ns, bytes)]."""
    out = []
    t = t_start
    while t + bin_ns <= t_end:
        b = interp(samples, t + bin_ns) - interp(samples, t)
        out.append((t, b * 8 * 1e9 / bin_ns))
        t += bin_ns
    return out


def active_interval(samples):
    """(first, last) sample time bracketing every change of a cumulative
    counter, or None if it never changed."""
    first = last = None
    for (t0, v0), (t1, v1) in zip(samples, samples[1:]):
        if v1 != v0:
            if first is None:
                first = t0
            last = t1
    return None if first is None else (first, last)


def queue_stats(samples, t_start=None, t_end=None):
    """(peak, time-weighted mean) of [(t_ns, q)], each sample held until the
    next, restricted to [t_start, t_end)."""
    pts = [(t, q) for t, q in samples
           if (t_start is None or t >= t_start) and (t_end is None or t < t_end)]
    if not pts:
        return 0, 0.0
    peak = max(q for _, q in pts)
    if len(pts) == 1:
        return peak, float(pts[0][1])
    area = sum(q * (t1 - t0) for (t0, q), (t1, _) in zip(pts, pts[1:]))
    return peak, area / (pts[-1][0] - pts[0][0])


def held_time(samples):
    """Total time a 0/1 flag [(t_ns, flag)] is 1, sample and hold (ns)."""
    return sum(t1 - t0 for (t0, f), (t1, _) in zip(samples, samples[1:]) if f)


def utilisation(bytes_out, frames_out, rate_bps, t_first_ns, t_last_ns,
                overhead=WIRE_OVERHEAD):
    if t_last_ns <= t_first_ns or rate_bps <= 0:
        return None
    bits = (bytes_out + frames_out * overhead) * 8
    return bits * 1e9 / (rate_bps * (t_last_ns - t_first_ns))


# ------------------------------------------------------------------ parsers
def parse_kv(line):
    """key=value pairs of one trace line (values: number when they parse)."""
    out = {}
    for k, v in re.findall(r'([A-Za-z_][\w.]*)=("[^"]*"|[^\s,]+)', line):
        v = v.strip('"')
        try:
            out[k] = int(v, 0)
        except ValueError:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    return out


def parse_trace(text):
    """[(t_s, event, {k: v})] of ftrace text lines "... TIME: EVENT: k=v ..."."""
    ev = []
    for line in text.splitlines():
        if line.startswith('#'):
            continue
        m = re.search(r'\s(\d+\.\d+):\s+(\w+):\s*(.*)$', line)
        if m:
            ev.append((float(m.group(1)), m.group(2), parse_kv(m.group(3))))
    return ev


def perftest_bw_field(text, col):
    """Column col of the last ib_*_bw result line ("bytes iters peak avg
    msgrate"), as a float, or None."""
    v = None
    for line in text.splitlines():
        f = line.split()
        if len(f) >= 5 and f[0].isdigit() and f[1].isdigit():
            try:
                v = float(f[col])
            except ValueError:
                pass
    return v


# perftest's "MB/sec" is MiB/s (its --help: "MiB=2^20 byte").
MBPS_PER_PERFTEST_MIBPS = 2 ** 20 * 8 / 1e6


def parse_perftest_bw(text):
    """Average MiB/s of ib_*_bw (perftest prints it as MB/sec)."""
    return perftest_bw_field(text, 3)


def perftest_mbps(mibps):
    """Mb/s (10^6 bit/s) of a perftest bandwidth in MiB/s."""
    return mibps * MBPS_PER_PERFTEST_MIBPS


def parse_perftest_msgrate(text):
    """Message rate (Mpps) of ib_*_bw."""
    return perftest_bw_field(text, 4)


def parse_perftest_lat(text):
    """Latency samples (us) of ib_*_lat -H ("N, value" lines)."""
    return [float(m.group(1)) for m in
            re.finditer(r'^\s*\d+\s*,\s*([0-9.]+)\s*$', text, re.M)]


def load_csv(path, prio=None):
    """{(switch, port, prio): [row dict]} in time order."""
    series = {}
    with open(path) as f:
        head = f.readline().strip().split(',')
        for line in f:
            r = line.rstrip('\n').split(',')
            if len(r) != len(head):
                continue
            d = dict(zip(head, r))
            p = int(d['prio'])
            if prio is not None and p != prio:
                continue
            for k in ('time_ns', 'queue_bytes', 'paused', 'ingress_bytes',
                      'host_queue_bytes', 'bytes_in', 'bytes_out'):
                if k in d:
                    d[k] = int(d[k])
            series.setdefault((d['switch'], d['port'], p), []).append(d)
    return series


def load_counters(path):
    """{(switch, port, prio): counters} plus {(switch, port): port info}."""
    with open(path) as f:
        js = json.load(f)
    return counters_of(js)


def counters_of(js):
    prios, ports = {}, {}
    for sw in js['switches']:
        for pt in sw['ports']:
            ports[(sw['name'], pt['name'])] = pt
            for pr in pt['prio']:
                prios[(sw['name'], pt['name'], pr['prio'])] = pr
    return prios, ports


def load_flows(path):
    flows = []
    with open(path) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            r = line.split('\t')
            flows.append({'id': int(r[0]), 'src': int(r[1]), 'dst': int(r[2]),
                          'tool': r[3], 'start_s': float(r[4]),
                          'iters': int(r[5]), 'size': int(r[6]),
                          'rc': int(r[7]), 't0': float(r[8]), 't1': float(r[9])})
    return flows


# ------------------------------------------------------------------ analyse
def host_port(ports, host):
    for (sw, name) in ports:
        if name == host:
            return sw, name
    return None


def span_union(spans):
    """(earliest start, latest end) of the intervals that exist, or None."""
    spans = [s for s in spans if s]
    if not spans:
        return None
    return min(s[0] for s in spans), max(s[1] for s in spans)


def overlap_s(a, b):
    """Seconds two (t0_ns, t1_ns) intervals share (0 if either is None)."""
    if not a or not b:
        return 0.0
    return max(0, min(a[1], b[1]) - max(a[0], b[0])) / 1e9


def mean_mbps(cum, t0_ns, t1_ns):
    """Mean Mb/s of cumulative bytes samples over [t0_ns, t1_ns]."""
    if t1_ns <= t0_ns:
        return None
    return (interp(cum, t1_ns) - interp(cum, t0_ns)) * 8e3 / (t1_ns - t0_ns)


def echoes_by_dev(ev):
    """{dev: {'acks', 'pkts', 'ce', 'ue', 'congested', 'victim', 'cnps'}}:
    what each sender device's QPs were told (ACC periods, DCQCN CNPs
    handled).  ACKs may be coalesced: 'pkts' are the packets they
    acknowledged, 'ce' and 'ue' the marked packets they counted."""
    out = {}
    for _, name, kv in ev:
        if name not in ('rxe_cc_period', 'rxe_cc_cnp'):
            continue
        d = out.setdefault(kv.get('dev'), {'acks': 0, 'pkts': 0,
                                           'ce': 0, 'ue': 0,
                                           'congested': 0, 'victim': 0,
                                           'cnps': 0})
        if name == 'rxe_cc_cnp':
            d['cnps'] += kv.get('what') == 'handled'
            continue
        d['acks'] += kv.get('n_ack', 0)
        d['pkts'] += kv.get('n_pkt', 0)
        d['ce'] += kv.get('n_ce', 0)
        d['ue'] += kv.get('n_ue', 0)
        if kv.get('class') in ('congested', 'victim'):
            d[kv['class']] += 1
    return out


def short_flow_metrics(run, flows, line_bps, rtt_s, small_bytes):
    """FCT (eval/fct.py) of each short flow into a list, plus slowdowns."""
    rows, sample = [], []
    for f in flows:
        try:
            with open(os.path.join(run, 'flow-%d.client.txt' % f['id'])) as fh:
                text = fh.read()
            bw, mr = parse_perftest_bw(text), parse_perftest_msgrate(text)
        except OSError:
            bw = mr = None
        t = F.fct_s(f['iters'], f['size'], bw, mr) if f['rc'] == 0 else None
        censored = f['rc'] == 0 and bw == 0 and mr == 0
        if censored:
            t = F.fct_floor_s(f['iters'])
        ideal = F.ideal_fct_s(f['iters'], f['size'], line_bps, rtt_s)
        rows.append({'id': f['id'], 'src': f['src'], 'rc': f['rc'],
                     'censored': censored,
                     'bytes': f['iters'] * f['size'],
                     'fct_ms': t * 1e3 if t is not None else None,
                     'slowdown': t / ideal if t is not None else None})
        sample.append((f['iters'], f['size'], t))
    sd = F.slowdowns(sample, line_bps, rtt_s, small_bytes)
    sd['censored'] = sum(r['censored'] for r in rows)
    return rows, sd


# What only a switch can measure: a lab without switch commands (eval/lab,
# "host_side" counters) reports these as not measured (None), not as 0.
SWITCH_ONLY = {'switch_queue_bytes': ('queue_peak_bytes', 'queue_mean_bytes',
                                      'queue_active_mean_bytes',
                                      'queue_p99_bytes'),
               'switch_pfc_frames': ('pfc_tx', 'xoff_tx'),
               'switch_paused_ns': ('paused_s', 'paused_ns', 'spread_ports')}
HOST_SIDE_NEVER = ('drops', 'host_drops', 'host_paused_ns', 'ce_marks',
                   'ue_marks', 'ect0_in', 'ect1_in', 'ce_in')


def analyse(run, bottleneck, prio=3, bin_ms=200, victim=None, band=0.10,
            period_ms=4.0, short_hosts=(), small_bytes=0, devs=None):
    """The metrics of one run.  devs: the RDMA device of each host index
    (default rxe_hK, the test bed's names)."""
    with open(os.path.join(run, 'lsw-counters.json')) as fh:
        cjs = json.load(fh)
    prios, ports = counters_of(cjs)
    ts = load_csv(os.path.join(run, 'lsw-timeseries.csv'))
    flows = load_flows(os.path.join(run, 'flows.tsv'))
    bsw, bport = bottleneck.split(':')
    bin_ns = int(bin_ms * 1e6)
    m = {'bottleneck': bottleneck, 'prio': prio, 'bin_ms': bin_ms,
         'period_ms': period_ms, 'flows': []}

    # Per flow (long bw flows only): bytes the switch got from the sender
    # port.  Short flows share their sender's port: FCT only.
    short = [f for f in flows if f['tool'] == 'ib_write_bw' and f['src'] in short_hosts]
    bw_flows = [f for f in flows if f['tool'] == 'ib_write_bw' and f['src'] not in short_hosts]
    srcs = [f['src'] for f in bw_flows]
    cum, spans = {}, {}
    for f in bw_flows:
        hp = host_port(ports, 'h%d' % f['src'])
        rows = ts.get((hp[0], hp[1], prio), [])
        cum[f['id']] = [(r['time_ns'], r['bytes_in']) for r in rows]
        spans[f['id']] = active_interval(cum[f['id']])
        c = prios.get((hp[0], hp[1], prio), {})
        ent = {'id': f['id'], 'src': f['src'], 'dst': f['dst'], 'rc': f['rc'],
               'shared_port': srcs.count(f['src']) > 1,
               'bytes': c.get('bytes_in', 0)}
        sp = spans[f['id']]
        if sp:
            ent['lsw_mbps'] = (interp(cum[f['id']], sp[1]) -
                               interp(cum[f['id']], sp[0])) * 8e3 / (sp[1] - sp[0])
            ent['active_s'] = (sp[1] - sp[0]) / 1e9
        try:
            with open(os.path.join(run, 'flow-%d.client.txt' % f['id'])) as fh:
                bw = parse_perftest_bw(fh.read())
            ent['perftest_mbps'] = (perftest_mbps(bw) if bw is not None
                                  else None)
        except OSError:
            ent['perftest_mbps'] = None
        m['flows'].append(ent)

    # Bottleneck egress: utilisation from exact counters, queue from CSV.
    bc = prios.get((bsw, bport, prio), {})
    rate = ports.get((bsw, bport), {}).get('rate_bps', 0)
    m['line_rate_mbps'] = rate / 1e6
    m['utilisation'] = utilisation(bc.get('bytes_out', 0), bc.get('frames_out', 0),
                                   rate, bc.get('tx_first_ns', 0),
                                   bc.get('tx_last_ns', 0))
    if m['utilisation'] is not None:
        m['bottleneck_mbps'] = m['utilisation'] * rate / 1e6
    m['queue_peak_bytes'] = bc.get('queue_peak_bytes', 0)
    brow = ts.get((bsw, bport, prio), [])
    bcum = [(r['time_ns'], r['bytes_out']) for r in brow]
    busy = active_interval(bcum)
    qs = [(r['time_ns'], r['queue_bytes']) for r in brow]
    m['queue_mean_bytes'] = queue_stats(qs, *busy)[1] if busy else 0.0
    # The span that mean covers: mean times busy_s is the queue's mass,
    # which readings of means tile exactly however seldom they come
    # (eval/lab's test prints it per second of the all-active window).
    m['busy_s'] = (busy[1] - busy[0]) / 1e9 if busy else 0.0

    # All-active window: fairness and convergence.
    live = [spans[i] for i in spans if spans[i]]
    if len(live) >= 2:
        w0, w1 = max(s[0] for s in live), min(s[1] for s in live)
        m['window_s'] = max(0.0, (w1 - w0) / 1e9)
        if w1 > w0:
            # Each flow's mean over the all-active window (exact bytes).
            m['window_t0_ns'], m['window_t1_ns'] = w0, w1
            for ent in m['flows']:
                c = cum.get(ent['id'])
                if c and spans[ent['id']]:
                    ent['window_mbps'] = ((interp(c, w1) - interp(c, w0)) *
                                          8e3 / (w1 - w0))
        if w1 > w0:
            rates = [e['window_mbps'] for e in m['flows'] if 'window_mbps' in e]
            m['jain'] = jain(rates)
            m['fair_mbps'] = sum(rates) / len(rates)
    elif len(live) == 1:
        m['jain'] = 1.0

    # rxe_cc trace (guest clock).
    tr = os.path.join(run, 'trace.txt')
    ev = []
    if os.path.exists(tr):
        with open(tr) as fh:
            ev = parse_trace(fh.read())
    m['trace_events'] = len(ev)
    m['trace_halts'] = sum(1 for e in ev if e[1] == 'rxe_cc_halt')
    frame_bytes = (bc.get('bytes_out', 0) / bc['frames_out']
                   if bc.get('frames_out') else 0)
    onset_metrics(m, cum, spans, qs, ev, period_ms, band, frame_bytes)
    echo = echoes_by_dev(ev)
    for ent in m['flows']:
        ent.update({'echo_' + k: v for k, v in
                    echo.get(devs[ent['src']] if devs else 'rxe_h%d' % ent['src'],
                             {}).items()})
    if short:
        m['short_flows'], sd = short_flow_metrics(
            run, short, rate, period_ms / 1e3, small_bytes)
        m.update({'fct_' + k: v for k, v in sd.items()})
        m['small_bytes'] = small_bytes
    write_onset_dat(run, m, cum, spans, qs, ev, period_ms)

    # PFC: every port, this priority; host NIC models included.
    tot = {'pfc_tx': 0, 'xoff_tx': 0, 'paused_ns': 0, 'host_paused_ns': 0,
           'drops': 0, 'host_drops': 0, 'ce_marks': 0, 'ue_marks': 0,
           'ect0_in': 0, 'ect1_in': 0, 'ce_in': 0}
    paused_ports = []
    for (sw, pt, p), c in prios.items():
        for k in ('drops', 'host_drops', 'ect0_in', 'ect1_in', 'ce_in'):
            tot[k] += c.get(k, 0)
        if p != prio:
            continue
        for k in tot:
            if k not in ('drops', 'host_drops', 'ect0_in', 'ect1_in', 'ce_in'):
                tot[k] += c.get(k, 0)
        if c.get('paused_ns', 0) or c.get('host_paused_ns', 0):
            paused_ports.append({'port': '%s:%s' % (sw, pt),
                                 'paused_s': c.get('paused_ns', 0) / 1e9,
                                 'host_paused_s': c.get('host_paused_ns', 0) / 1e9})
    m.update(tot)
    m['paused_s'] = (tot['paused_ns'] + tot['host_paused_ns']) / 1e9
    m['paused_ports'] = paused_ports
    m['spread_ports'] = len(paused_ports)
    m['perftest_failed'] = sum(1 for f in flows if f['rc'] != 0)

    if victim is not None:
        v = [f for f in m['flows'] if f['id'] == victim]
        m['victim_mbps'] = v[0].get('lsw_mbps') if v else None
        # The victim while the short (bursting) hosts send.
        bports = [host_port(ports, 'h%d' % h) for h in short_hosts]
        bs = span_union([active_interval([(r['time_ns'], r['bytes_in'])
                                          for r in ts.get(hp + (prio,), [])])
                         for hp in bports if hp])
        if v and bs and victim in cum:
            m['burst_t0_ns'], m['burst_t1_ns'] = bs
            m['burst_overlap_s'] = overlap_s(spans.get(victim), bs)
            # Without an overlap the bursts came after the victim ended
            # (perftest set-up is seconds per process in TCG): no figure.
            if m['burst_overlap_s'] > 0:
                m['victim_burst_mbps'] = mean_mbps(cum[victim], *bs)

    # Latency samples (ib_write_lat -H), nearest-rank percentiles.
    for f in flows:
        if f['tool'] != 'ib_write_lat':
            continue
        try:
            with open(os.path.join(run, 'flow-%d.client.txt' % f['id'])) as fh:
                lat = parse_perftest_lat(fh.read())
        except OSError:
            lat = []
        if lat:
            m['lat_n'] = len(lat)
            for p in (50, 90, 99, 99.9):
                m['lat_p%g_us' % p] = percentile(lat, p)

    if cjs.get('host_side'):
        m['host_side'] = True
        for k in HOST_SIDE_NEVER:
            m[k] = None
        for cmd, keys in SWITCH_ONLY.items():
            if cmd not in cjs.get('measured', []):
                for k in keys:
                    m[k] = None
    write_dat(run, cum, spans, brow, bin_ns, ev, ts, prio)
    with open(os.path.join(run, 'metrics.json'), 'w') as fh:
        json.dump(m, fh, indent=1, sort_keys=True)
    return m


def onset_metrics(m, cum, spans, qs, ev, period_ms, band, frame_bytes=0):
    """The figures from the onset (eval/onset.py) into m; frame_bytes, the
    bottleneck's mean frame, sets the rate window's floor in frames."""
    period_ns = int(period_ms * 1e6)
    live = {i: cum[i] for i in spans if spans[i]}
    starts = [O.first_change(c) for c in live.values()]
    if len(live) < 2 or 'window_t1_ns' not in m or None in starts:
        return
    onset, end = max(starts), m['window_t1_ns']
    fair = m['fair_mbps'] * 1e6
    step = period_ns // 4
    win = O.window_ns(period_ns, step, fair, frame_bytes)
    m['rate_window_periods'] = win / period_ns
    series = [O.window_rates(c, onset, end, win, step) for c in live.values()]
    m['onset_ns'] = onset
    t_conv, share = O.convergence(series, fair, band)
    if t_conv is not None:
        m['converge_ms'] = (t_conv - onset) / 1e6
        m['converge_periods'] = (t_conv - onset) / period_ns
    m['within_share'] = share
    m['spread_p5'], m['spread_p95'] = O.spread(series, fair)
    qw = [q for t, q in qs if onset <= t <= end]
    if qw:
        m['queue_p99_bytes'] = O.percentile(qw, 99)
        m['queue_active_mean_bytes'] = queue_stats(qs, onset, end)[1]
    t_on = O.trace_onset(ev)
    if t_on is not None:
        m['trace_onset_s'] = t_on
        t_end = t_on + (end - onset) / 1e9
        m['halts_per_s'] = O.halts_per_s(ev, t_on, t_end)
        if m['halts_per_s'] is not None:
            m['halts_per_s_flow'] = m['halts_per_s'] / len(live)
        # R is paced in wire bits (frame + preamble, FCS, gap: the core's
        # unit), the flows' rates at the switch count frame bytes.
        l1 = (frame_bytes + WIRE_OVERHEAD) / frame_bytes if frame_bytes else 1
        within = O.trace_within(ev, t_on, t_end, fair * l1, band)
        if within:
            m['trace_within_share'] = sum(within.values()) / len(within)


ONSET_BEFORE, ONSET_AFTER = 5, 30   # periods shown around the onset


def write_onset_dat(run, m, cum, spans, qs, ev, period_ms):
    """Data of the onset plot, time in periods from the onset:
    onset-lsw.dat (t, queue KB, each flow's Mb/s over the last period at
    lsw) and onset-trace.dat (t, QP index, paced Mb/s from the trace)."""
    if 'onset_ns' not in m:
        return
    T = period_ms * 1e6
    on = m['onset_ns']
    ids = [i for i in sorted(cum) if spans[i]]
    win = O.window_rates
    ser = [win(cum[i], on - (ONSET_BEFORE + 1) * T, on + ONSET_AFTER * T,
               int(T), int(T / 4)) for i in ids]
    qd = dict(qs)
    with open(os.path.join(run, 'onset-lsw.dat'), 'w') as fh:
        fh.write('# t_periods queue_kb ' +
                 ' '.join('flow%d_mbps' % i for i in ids) + '\n')
        for k in range(min(len(x) for x in ser) if ser else 0):
            t = ser[0][k][0]
            q = qd.get(t)
            if q is None:   # the queue sample at or before t
                q = max(((tt, qq) for tt, qq in qs if tt <= t),
                        default=(0, 0))[1]
            fh.write('%.3f %.3f %s\n' % ((t - on) / T, q / 1e3, ' '.join(
                '%.3f' % (x[k][1] / 1e6) for x in ser)))
    with open(os.path.join(run, 'onset-trace.dat'), 'w') as fh:
        fh.write('# t_periods qp rate_mbps (steps; halts at 0)\n')
        t_on = m.get('trace_onset_s')
        if t_on is None:
            return
        t0, t1 = t_on - ONSET_BEFORE * T / 1e9, t_on + ONSET_AFTER * T / 1e9
        for n, (key, pts) in enumerate(sorted(O.trace_rates(ev, t0, t1).items())):
            for t, r in pts + [(t1, pts[-1][1])]:
                fh.write('%.3f %d %.3f\n' % ((t - t_on) * 1e9 / T, n, r / 1e6))
            fh.write('\n\n')


def write_dat(run, cum, spans, brow, bin_ns, ev, ts, prio):
    """Plain data files beside the raw ones: rates.dat (t_s, Mb/s per flow),
    queue.dat (t_s, KB of the bottleneck queue, its egress paused flag),
    cc-rate.dat (t_s, qp, Mb/s, halt) from trace events.  (PFC per port
    over time is drawn from lsw-timeseries.csv: eval/figures.py.)"""
    live = [s for s in spans.values() if s]
    t0 = min(s[0] for s in live) if live else (brow[0]['time_ns'] if brow else 0)
    t1 = max(s[1] for s in live) if live else t0
    ids = sorted(cum)
    with open(os.path.join(run, 'rates.dat'), 'w') as fh:
        fh.write('# t_s ' + ' '.join('flow%d_mbps' % i for i in ids) + '\n')
        ser = [rate_series(cum[i], t0, t1, bin_ns) for i in ids]
        for k in range(len(ser[0]) if ser else 0):
            fh.write('%.3f %s\n' % ((ser[0][k][0] - t0) / 1e9,
                                    ' '.join('%.3f' % (s[k][1] / 1e6) for s in ser)))
    with open(os.path.join(run, 'queue.dat'), 'w') as fh:
        fh.write('# t_s queue_kb paused\n')
        for r in brow:
            if t0 - 1e9 <= r['time_ns'] <= t1 + 1e9:
                fh.write('%.3f %.3f %d\n' % ((r['time_ns'] - t0) / 1e9,
                                             r['queue_bytes'] / 1e3, r['paused']))
    with open(os.path.join(run, 'cc-rate.dat'), 'w') as fh:
        fh.write('# t_s qp rate_mbps halt\n')
        if ev:
            e0 = ev[0][0]
            # QP numbers repeat across devices (every host's first QP is
            # 17): number the (dev, qpn) pairs so that each QP gets a colour.
            qp_ids = {}
            for t, name, kv in ev:
                key = (kv.get('dev', ''), kv.get('qp', kv.get('qpn', 0)))
                qp = qp_ids.setdefault(key, len(qp_ids) + 1)
                r = kv.get('rate_mbps', kv.get('rate', None))
                if r is None and 'new_bps' in kv:     # rxe_cc_rate
                    r = '%.3f' % (float(kv['new_bps']) / 1e6)
                elif r is None and 'rate_bps' in kv:  # rxe_cc_halt_end
                    r = '%.3f' % (float(kv['rate_bps']) / 1e6)
                halt = 1 if 'halt' in name else 0
                if r is None and not halt:
                    continue
                fh.write('%.6f %s %s %d\n' % (t - e0, qp, r if r is not None else 'NaN', halt))


def main(argv):
    ap = argparse.ArgumentParser(prog='metrics.py')
    sub = ap.add_subparsers(dest='cmd', required=True)
    a = sub.add_parser('analyse')
    a.add_argument('run')
    a.add_argument('--bottleneck', required=True)
    a.add_argument('--prio', type=int, default=3)
    a.add_argument('--bin-ms', type=float, default=200)
    a.add_argument('--victim', type=int)
    a.add_argument('--band', type=float, default=0.10)
    a.add_argument('--period-ms', type=float, default=4.0)
    a.add_argument('--short-hosts', default='',
                   help='hosts (numbers, comma-separated) of short flows')
    a.add_argument('--small-bytes', type=int, default=0)
    a.add_argument('--devs', default='',
                   help='RDMA device of each host index, comma-separated')
    g = sub.add_parser('get', help='print one field of a metrics.json')
    g.add_argument('file')
    g.add_argument('field')
    args = ap.parse_args(argv)
    if args.cmd == 'analyse':
        m = analyse(args.run, args.bottleneck, args.prio, args.bin_ms,
                    args.victim, args.band, args.period_ms,
                    [int(h) for h in args.short_hosts.split(',') if h],
                    args.small_bytes,
                    [d for d in args.devs.split(',') if d] or None)
        json.dump(m, sys.stdout, indent=1, sort_keys=True)
        print()
    else:
        with open(args.file) as fh:
            v = json.load(fh)
        for k in args.field.split('.'):
            v = v[int(k)] if isinstance(v, list) else v.get(k)
            if v is None:
                break
        print('' if v is None else v)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

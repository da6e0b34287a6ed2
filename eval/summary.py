#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""summary.py brief METRICS.json | summary OUT_DIR | json OUT_DIR
(python3 stdlib only)

brief: a few lines for the progress log.  summary: summary.md on stdout:
per scenario the compact table (one row per algorithm: the median of its
repeats and the smallest-largest), then every run (scenario x algorithm x
repeat from OUT_DIR/runs.tsv and each run's metrics.json), then the ratios
of the medians.  json: the medians as JSON (what Documentation's quoted
figures are checked against, eval/tests/test_docs_figures.py)."""
import json
import os
import re
import sys

COLS = [  # (header, key, format, scale)
    ('flows Mb/s (all active)', 'flows_window', None, None),
    ('perftest Mb/s', 'flows_perftest', None, None),
    ('bottleneck Mb/s', 'bottleneck_mbps', '%.1f', 1),
    ('util', 'utilisation', '%.3f', 1),
    ('Jain', 'jain', '%.3f', 1),
    ('converge ms', 'converge_ms', '%.0f', 1),
    ('converge T', 'converge_periods', '%.1f', 1),
    ('rate window T', 'rate_window_periods', '%.1f', 1),
    ('then within ±10 %', 'within_share', '%.2f', 1),
    ('spread p5-p95', 'spread', None, None),
    ('halts/s', 'halts_per_s', '%.1f', 1),
    ('halts/s per flow', 'halts_per_s_flow', '%.1f', 1),
    ('R within ±10 % (trace)', 'trace_within_share', '%.2f', 1),
    ('q mean KB', 'queue_active_mean_bytes', '%.1f', 1e-3),
    ('q p99 KB', 'queue_p99_bytes', '%.1f', 1e-3),
    ('q peak KB', 'queue_peak_bytes', '%.1f', 1e-3),
    ('PFC frames', 'pfc_tx', '%d', 1),
    ('paused s', 'paused_s', '%.2f', 1),
    ('paused ports', 'spread_ports', '%d', 1),
    ('drops', 'drops_all', '%d', 1),
    ('CE/UE marks', 'marks', None, None),
    ('victim Mb/s', 'victim_mbps', '%.1f', 1),
    ('victim Mb/s during bursts', 'victim_burst_mbps', '%.2f', 1),
    ('victim and bursts overlap s', 'burst_overlap_s', '%.1f', 1),
    ('echoed CE/UE per flow', 'flow_echo', None, None),
    ('congested/victim periods per flow', 'flow_classes', None, None),
    ('CNPs per flow', 'flow_cnps', None, None),
    ('short flows FCT slowdown p50/p99 (n)', 'fct_all', None, None),
    ('small flows FCT slowdown p50/p99 (n)', 'fct_small', None, None),
    ('lat p50 us', 'lat_p50_us', '%.0f', 1),
    ('lat p99 us', 'lat_p99_us', '%.0f', 1),
]
# The headline columns (the report's table and `brief`).
HEADLINE = ['flows_window', 'utilisation', 'jain', 'converge_ms',
            'converge_periods', 'rate_window_periods', 'within_share',
            'trace_within_share', 'spread',
            'halts_per_s_flow',
            'queue_active_mean_bytes', 'queue_p99_bytes', 'pfc_tx', 'paused_s']
RATIO_KEYS = ['utilisation', 'converge_ms', 'within_share',
              'queue_active_mean_bytes', 'queue_p99_bytes', 'pfc_tx',
              'paused_s', 'victim_mbps', 'victim_burst_mbps', 'lat_p50_us', 'lat_p99_us',
              'flow_sum_mbps', 'fct_small_p50', 'fct_small_p99']
# Ratios shown per scenario: (numerator, denominator) algorithms.
RATIO_PAIRS = [('acc', 'dcqcn'), ('acc', 'dcqcn-paper'), ('acc', 'none'),
               ('dcqcn', 'none'), ('acc', 'acc-nohalt')]


# The compact table: (header, key, format, scale, better: +1 higher, -1 lower).
COMPACT = [('util', 'utilisation', '%.3f', 1, +1),
           ('Jain', 'jain', '%.3f', 1, +1),
           ('converge ms', 'converge_ms', '%.0f', 1, -1),
           ('within ±10 %', 'within_share', '%.2f', 1, +1),
           ('q mean KB', 'queue_active_mean_bytes', '%.1f', 1e-3, -1),
           ('q p99 KB', 'queue_p99_bytes', '%.1f', 1e-3, -1),
           ('PFC frames', 'pfc_tx', '%.0f', 1, -1),
           ('paused s', 'paused_s', '%.2f', 1, -1)]
# Scenario figures that replace a compact column where the scenario has them.
COMPACT_EXTRA = [('victim Mb/s', 'victim_mbps', '%.1f', 1, +1),
                 ('small FCT p99', 'fct_small_p99', '%.1f', 1, -1),
                 ('lat p99 us', 'lat_p99_us', '%.0f', 1, -1)]
ALGO_ORDER = ['none', 'dcqcn', 'dcqcn-paper', 'acc', 'acc-nohalt', 'timely']


def num(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def med_spread(vals):
    """(median, smallest, largest, n) of the numbers in vals, or None."""
    v = sorted(x for x in vals if num(x) is not None)
    if not v:
        return None
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return med, v[0], v[-1], n


def by_algo(runs, scen):
    """{algo: [run, ...]} of the passed runs of scen, algorithms in order."""
    out = {}
    for r in runs:
        if r['scen'] == scen and r['status'] == 'ok' and r['m']:
            out.setdefault(r['algo'], []).append(r)
    return dict(sorted(out.items(), key=lambda kv: ALGO_ORDER.index(kv[0])
                       if kv[0] in ALGO_ORDER else 99))


def representative(byr):
    """{algo: the run whose convergence time is the median of its repeats
    (a run that never converged counts as the longest)}: the run the
    report draws over time."""
    out = {}
    for a, rs in byr.items():
        key = sorted(rs, key=lambda r: (num(r['m'].get('converge_ms')) is None,
                                        num(r['m'].get('converge_ms')) or 0))
        out[a] = key[(len(key) - 1) // 2]
    return out


def medians(runs):
    """{scen: {algo: {key: (median, lo, hi, n)}}} over the compact keys and
    the ratio keys."""
    keys = {c[1] for c in COMPACT + COMPACT_EXTRA} | set(RATIO_KEYS)
    out = {}
    for s in sorted({r['scen'] for r in runs}):
        for a, rs in by_algo(runs, s).items():
            d = out.setdefault(s, {}).setdefault(a, {'runs': len(rs)})
            for k in keys:
                ms = med_spread(r['m'].get(k) for r in rs)
                if ms:
                    d[k] = ms
    return out


def compact_cols(med):
    """The compact columns a scenario's medians have (at most 8)."""
    cols = [c for c in COMPACT_EXTRA if any(c[1] in d for d in med.values())]
    base = [c for c in COMPACT if any(c[1] in d for d in med.values())]
    return (base[:8 - len(cols)] + cols)[:8]


def fmt_ms(ms, f, scale):
    """'median (lo-hi)', or the value alone for one run."""
    if ms is None:
        return '–'
    med, lo, hi, n = ms
    if n == 1 or lo == hi:
        return f % (med * scale)
    return '%s (%s–%s)' % (f % (med * scale), f % (lo * scale), f % (hi * scale))


def best_worst(med, key, better):
    """({algos with the best median}, {with the worst}) of a column; two
    empty sets when fewer than two algorithms have it or all are equal."""
    v = {a: d[key][0] for a, d in med.items() if key in d}
    if len(v) < 2 or min(v.values()) == max(v.values()):
        return set(), set()
    lo = {a for a, x in v.items() if x == min(v.values())}
    hi = {a for a, x in v.items() if x == max(v.values())}
    return (hi, lo) if better > 0 else (lo, hi)


def compact_md(scen, med):
    cols = compact_cols(med)
    if not cols:
        return
    print('| %s | n | %s |' % (scen, ' | '.join('%s %s' % (c[0], '↑' if c[4] > 0 else '↓')
                                               for c in cols)))
    print('|' + '---|' * (2 + len(cols)))
    for a, d in med.items():
        cells = []
        for h, k, f, sc, better in cols:
            t = fmt_ms(d.get(k), f, sc)
            b, w = best_worst(med, k, better)
            cells.append('**%s**' % t if a in b else t)
        print('| %s | %d | %s |' % (a, d['runs'], ' | '.join(cells)))


def derived(m):
    m = dict(m)
    fl = m.get('flows', [])
    m['flows_lsw'] = ' '.join('%.1f' % f['lsw_mbps'] for f in fl if f.get('lsw_mbps') is not None)
    m['flows_window'] = ' '.join('%.2f' % f['window_mbps'] for f in fl
                                 if f.get('window_mbps') is not None)
    if m.get('spread_p5') is not None:
        m['spread'] = '%.2f-%.2f' % (m['spread_p5'], m['spread_p95'])
    m['flows_perftest'] = ' '.join('%.1f' % f['perftest_mbps'] for f in fl
                                   if f.get('perftest_mbps') is not None)
    m['flow_sum_mbps'] = sum(f.get('perftest_mbps') or 0 for f in fl)
    if m.get('host_side'):     # a lab measured from its hosts: no switch
        m['drops_all'] = m['ecn_in'] = m['marks'] = None
    else:
        m['drops_all'] = m.get('drops', 0) + m.get('host_drops', 0)
        m['ecn_in'] = '%d/%d/%d' % (m.get('ect0_in', 0), m.get('ect1_in', 0),
                                    m.get('ce_in', 0))
        m['marks'] = '%d/%d' % (m.get('ce_marks', 0), m.get('ue_marks', 0))
    if any('echo_acks' in f for f in fl):
        m['flow_echo'] = ' '.join('%d/%d' % (f.get('echo_ce', 0), f.get('echo_ue', 0))
                                  for f in fl)
        m['flow_classes'] = ' '.join('%d/%d' % (f.get('echo_congested', 0),
                                                f.get('echo_victim', 0)) for f in fl)
        m['flow_cnps'] = ' '.join('%d' % f.get('echo_cnps', 0) for f in fl)
    for name, pre in (('fct_all', 'fct_'), ('fct_small', 'fct_small_')):
        if m.get(pre + 'n'):
            m[name] = '%.1f/%.1f (%d)' % (m[pre + 'p50'], m[pre + 'p99'], m[pre + 'n'])
    if m.get('fct_censored') and m.get('fct_all'):
        m['fct_all'] += ', %d at the floor' % m['fct_censored']
    return m


def fmt(m, key, f, scale):
    v = m.get(key)
    if v is None or v == '':
        return '–'
    if f is None:
        return str(v)
    return f % (v * scale) if scale != 1 else f % v


def brief(path):
    with open(path) as fh:
        m = derived(json.load(fh))
    print('flows Mb/s all-active [%s] perftest [%s]; bottleneck %s Mb/s of %s (util %s)'
          % (m['flows_window'], m['flows_perftest'], fmt(m, 'bottleneck_mbps', '%.1f', 1),
             fmt(m, 'line_rate_mbps', '%.0f', 1), fmt(m, 'utilisation', '%.3f', 1)))
    print('Jain %s, converge %s ms (%s T), then within %s, spread %s, halts/s per flow %s,'
          ' paced rate within %s (trace)'
          % (fmt(m, 'jain', '%.3f', 1), fmt(m, 'converge_ms', '%.0f', 1),
             fmt(m, 'converge_periods', '%.1f', 1), fmt(m, 'within_share', '%.2f', 1),
             fmt(m, 'spread', None, None), fmt(m, 'halts_per_s_flow', '%.1f', 1),
             fmt(m, 'trace_within_share', '%.2f', 1)))
    print('queue mean %s KB p99 %s KB peak %s KB, PFC %s frames, paused %s s, drops %s'
          % (fmt(m, 'queue_active_mean_bytes', '%.1f', 1e-3), fmt(m, 'queue_p99_bytes', '%.1f', 1e-3),
             fmt(m, 'queue_peak_bytes', '%.1f', 1e-3),
             fmt(m, 'pfc_tx', '%d', 1), fmt(m, 'paused_s', '%.2f', 1),
             fmt(m, 'drops_all', '%d', 1)))
    if m.get('flow_echo'):
        print('per flow: echoed CE/UE %s, congested/victim periods %s, CNPs %s'
              % (m['flow_echo'], m['flow_classes'], m['flow_cnps']))
    if m.get('fct_all'):
        print('short flows: FCT slowdown p50/p99 (n) %s, small ones %s'
              % (m['fct_all'], m.get('fct_small', '–')))
    if m.get('interleaved'):
        print('S1 turns Mb/s %s; ACKs per 1000 packets %s, retries %s%s'
              % (' '.join('%.1f' % x if x else '–' for x in m['turns_mbps']),
                 fmt(m, 'acks_per_1000', '%.1f', 1), fmt(m, 'retries', '%d', 1),
                 '' if m.get('ratio_none_median') is None else
                 '; ÷ none per round %s, median %.3f'
                 % (' '.join('%.3f' % x for x in m['ratio_rounds_none']),
                    m['ratio_none_median'])))
    if m.get('lat_n'):
        print('latency p50 %s us, p99 %s us (%d samples)'
              % (fmt(m, 'lat_p50_us', '%.0f', 1), fmt(m, 'lat_p99_us', '%.0f', 1), m['lat_n']))


def load_runs(out):
    """[{scen, algo, status, wall, dir, m}] of OUT/runs.tsv, m = the run's
    derived metrics ({} unless it passed)."""
    runs = []
    with open(os.path.join(out, 'runs.tsv')) as fh:
        for line in fh:
            s, a, st, wall, d = line.rstrip('\n').split('\t')
            m = {}
            mp = os.path.join(d, 'metrics.json')
            if st == 'ok' and os.path.exists(mp):
                with open(mp) as f2:
                    m = derived(json.load(f2))
                if not a.startswith('acc'):    # halts are ACC's alone
                    m['halts_per_s'] = m['halts_per_s_flow'] = None
            runs.append({'scen': s, 'algo': a, 'status': st, 'wall': int(wall),
                         'dir': d, 'm': m, 'rep': os.path.basename(d)
                         if re.fullmatch(r'r\d+', os.path.basename(d)) else 'r1'})
    return runs


def summary(out):
    loaded = load_runs(out)
    runs = [(r['scen'], r['algo'], r['status'], r['wall'], r['m'])
            for r in loaded]
    print('# rxe-acc evaluation\n')
    med = medians(loaded)
    if med:
        print('## Medians\n')
        print('Per algorithm the median of its repeats, the smallest and largest in')
        print('brackets (n: the runs that passed); ↑ higher is better, ↓ lower is')
        print('better, the best median in bold.  Every run is in the table below.\n')
        for s in med:
            compact_md(s, med[s])
            print()
        print('## Every run\n')
    print('Raw data per run in `SCENARIO/ALGO/` (lsw counters JSON + CSV, perftest')
    print('output, rdma counters, rxe_cc trace).  Flow rates are lsw-measured frame')
    print('bytes (a flow = its sender port) over the window in which all flows are')
    print('active; "perftest" is perftest\'s own average over each flow\'s life.')
    print('Convergence counts from the onset (the last flow\'s first packet) in ms')
    print('and periods T, on rates over a sliding window of 5 T, or of 20 frames of')
    print('the fair share where that is longer ("rate window T"); queue mean and p99')
    print('are over the all-active window.')
    print('Absolute figures are TCG-scaled: compare algorithms as ratios.\n')
    print('| scenario | algo | repeat | status | wall s | ' + ' | '.join(c[0] for c in COLS) + ' |')
    print('|' + '---|' * (5 + len(COLS)))
    for r in loaded:
        m = r['m']
        cells = [fmt(m, k, f, sc) for _, k, f, sc in COLS] if m else ['–'] * len(COLS)
        print('| %s | %s | %s | %s | %d | %s |' % (r['scen'], r['algo'], r['rep'], r['status'],
                                                 r['wall'], ' | '.join(cells)))
    by = {(s, a): {k: v[0] for k, v in d.items() if isinstance(v, tuple)}
          for s in med for a, d in med[s].items()}
    print('\n## Ratios of the medians\n')
    label = {k: h for h, k, _, _ in COLS}
    label.update({'flow_sum_mbps': 'perftest Mb/s summed', 'fct_small_p50': 'small FCT p50',
                  'fct_small_p99': 'small FCT p99'})
    print('| scenario | ratio | ' + ' | '.join(label.get(k, k) for k in RATIO_KEYS) + ' |')
    print('|' + '---|' * (2 + len(RATIO_KEYS)))
    any_ratio = False
    for s in sorted({r[0] for r in runs}):
        for num, den in RATIO_PAIRS:
            if (s, num) not in by or (s, den) not in by:
                continue
            any_ratio = True
            cells = []
            for k in RATIO_KEYS:
                x, y = by[(s, num)].get(k), by[(s, den)].get(k)
                cells.append('%.2f' % (x / y) if isinstance(x, (int, float)) and
                             isinstance(y, (int, float)) and y else '–')
            print('| %s | %s÷%s | %s |' % (s, num.upper(), den.upper(), ' | '.join(cells)))
    if not any_ratio:
        print('(no scenario has two algorithms that both ran)')
    il = [(s, a, m) for s, a, st, _, m in runs if m and m.get('interleaved')]
    if il:
        print('\n## S1: the algorithms taking turns on one VM\n')
        print('Each round runs one flow per algorithm, one after another (the order '
              'reversed every other round); the ratio table above divides the '
              'rounds taken together, this one round by round.\n')
        print('| algo | Mb/s per round | ÷ none per round | median | ACKs/1000 pkts | retries |')
        print('|---|---|---|---|---|---|')
        for s, a, m in il:
            print('| %s | %s | %s | %s | %s | %s |' % (
                a, ' '.join('%.1f' % x if x else '–' for x in m['turns_mbps']),
                ' '.join('%.3f' % x for x in m.get('ratio_rounds_none', [])) or '–',
                fmt(m, 'ratio_none_median', '%.3f', 1), fmt(m, 'acks_per_1000', '%.1f', 1),
                fmt(m, 'retries', '%d', 1)))
    skipped = [r for r in runs if r[2] == 'SKIP']
    if skipped:
        print('\nSkipped: ' + ', '.join('%s/%s' % (r[0], r[1]) for r in skipped) +
              ' (the kernel lacks the algorithm or a knob the run needs, or the'
              ' ablation does not run in that scenario; see run.log)')
    failed = [r for r in runs if r[2] == 'FAIL']
    if failed:
        print('\nFailed: ' + ', '.join('%s/%s' % (r[0], r[1]) for r in failed) +
              ' (see SCENARIO/ALGO/run.log and failed-step)')
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == 'brief':
        brief(argv[1])
        return 0
    if len(argv) == 2 and argv[0] == 'summary':
        return summary(argv[1])
    if len(argv) == 2 and argv[0] == 'json':
        json.dump(medians(load_runs(argv[1])), sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

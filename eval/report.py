#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py OUT_DIR: OUT_DIR/report.html, one self-contained page per
evaluation run (PNGs embedded): the headline ratios in one sentence, the
table, the onset plots, the long plots, the knobs each algorithm ran
with, the scaling rule and the caveats.  python3 stdlib only."""
import base64
import html
import os
import sys

import scaling
import summary

LOADED = 3.0   # 1-minute load average above which a run is suspect (2 CPUs)
NAMES = {'none': 'none', 'dcqcn': 'DCQCN (mlx5, scaled)',
         'dcqcn-paper': 'DCQCN (paper, scaled)', 'acc': 'ACC',
         'acc-nohalt': 'ACC without the halt (ablation)'}
# Scenario columns beside the headline ones, shown when a run has them.
EXTRA = ['victim_mbps', 'victim_burst_mbps', 'burst_overlap_s', 'flow_echo', 'flow_classes',
         'flow_cnps', 'fct_all', 'fct_small', 'lat_p50_us', 'lat_p99_us']
CAVEATS = [
    'The test bed is a TCG virtual machine behind a software switch: '
    '20 Mb/s links and a 4 ms control RTT stand for 25-40 Gb/s and 40 us. '
    'Compare algorithms as ratios; absolute times are the test bed\'s.',
    'The scaling rule also asks for the frame to shrink with the BDP '
    '(RoCE MTU 256 for a reference MTU of 4096): the test bed runs MTU '
    '1024, about 9 frames per RTT.  The unit simulation '
    '(selftests/unit/test_scaling_sim.c) shows what that costs: ACC and '
    'DCQCN-paper curves stay within 0.055 and 0.073 of the line rate of '
    'the reference, DCQCN with mlx5 knobs does not (0.32; its 1 us alpha '
    'and 4 us monitor periods are shorter than a frame here).',
    'Rates at lsw are frame bytes at the sender port; one flow per host.',
    'Convergence uses windows of %d periods (one frame is ~4 %% of a share '
    'there), so it cannot be shorter than that.' % 5,
    'One run per algorithm: a single VM run is one sample of the host\'s '
    'timing (2 cores shared with other jobs).',
    'Short-flow FCT is perftest\'s own time from its first post to its last '
    'completion; slowdown divides it by the wire time at the line rate plus '
    'one period T (4 ms, above the 1.3-2.2 ms base RTT), so 1 is a flow '
    'that met no queue.  Few small flows per run: p99 is close to the max.',
    'In the victim case F0 and F1 share the s1 -> s2 link, so both are '
    'congested there (CE) as well as paused by the bursts (UE); the '
    'per-flow echo counts show both.',
]


def img(path, alt):
    if not os.path.exists(path):
        return '<p><em>(no %s)</em></p>' % html.escape(alt)
    with open(path, 'rb') as fh:
        b64 = base64.b64encode(fh.read()).decode()
    return '<img alt="%s" src="data:image/png;base64,%s">' % (html.escape(alt), b64)


def host_load(r):
    """Max of the 1-minute load averages eval/run recorded around the run."""
    try:
        with open(os.path.join(r['dir'], 'host-load.txt')) as fh:
            return max(float(x) for x in fh.read().split())
    except (OSError, ValueError):
        return None


def ratio(a, b, key):
    x, y = a.get(key), b.get(key)
    if isinstance(x, (int, float)) and isinstance(y, (int, float)) and y:
        return x / y
    return None


def headline(runs):
    """One sentence per scenario: ACC against each DCQCN preset."""
    out = []
    for s in sorted({r['scen'] for r in runs}):
        by = {r['algo']: r['m'] for r in runs if r['scen'] == s and r['m']}
        il = ['%s at %.2f× none\'s throughput (rounds %s)'
              % (NAMES.get(a, a), m['ratio_none_median'],
                 ', '.join('%.2f' % x for x in m['ratio_rounds_none']))
              for a, m in by.items() if m.get('ratio_none_median') is not None]
        if il:
            out.append('%s: one flow, the VM\'s CPU the limit, the algorithms '
                       'taking turns on one VM: %s (median of the rounds).'
                       % (s, '; '.join(il)))
        if 'acc' not in by:
            continue
        for base in ('dcqcn', 'dcqcn-paper'):
            if base not in by:
                continue
            a, b = by['acc'], by[base]
            parts = []
            c = ratio(a, b, 'converge_ms')
            if c is not None:
                parts.append('converges in %.2f× the time (%s against %s ms)'
                             % (c, summary.fmt(a, 'converge_ms', '%.0f', 1),
                                summary.fmt(b, 'converge_ms', '%.0f', 1)))
            elif a.get('converge_ms') is not None:
                parts.append('converges in %.0f ms where %s never does'
                             % (a['converge_ms'], NAMES[base]))
            for key, what in (('queue_p99_bytes', 'p99 queue'),
                              ('queue_active_mean_bytes', 'mean queue')):
                q = ratio(a, b, key)
                if q is not None:
                    parts.append('keeps %.2f× the %s' % (q, what))
            parts.append('sends %s PFC frames against %s' %
                         (summary.fmt(a, 'pfc_tx', '%d', 1),
                          summary.fmt(b, 'pfc_tx', '%d', 1)))
            u = ratio(a, b, 'utilisation')
            if u is not None:
                parts.append('at %.2f× the utilisation' % u)
            out.append('%s: against %s, ACC %s.' % (s, NAMES[base], ', '.join(parts)))
    return out


def table(runs):
    cols = [c for c in summary.COLS if c[1] in summary.HEADLINE or
            (c[1] in EXTRA and any(r['m'].get(c[1]) is not None for r in runs))]
    h = ['<table><tr><th>scenario</th><th>algorithm</th><th>status</th>'
         '<th>host load</th>']
    h += ['<th>%s</th>' % html.escape(c[0]) for c in cols]
    h.append('</tr>')
    for r in runs:
        cells = [summary.fmt(r['m'], k, f, sc) if r['m'] else '–'
                 for _, k, f, sc in cols]
        load = host_load(r)
        h.append('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s</tr>' % (
            r['scen'], NAMES.get(r['algo'], r['algo']), r['status'],
            '–' if load is None else '%.1f' % load,
            ''.join('<td>%s</td>' % html.escape(str(c)) for c in cells)))
    h.append('</table>')
    return '\n'.join(h)


def knobs_of_run(r):
    """The CC knobs the first sender device ran with, and lsw's marking."""
    out = []
    p = os.path.join(r['dir'], 'cc-rxe_h0.txt')
    if os.path.exists(p):
        with open(p) as fh:
            out.append(fh.read().strip())
    p = os.path.join(r['dir'], 'lsw.conf')
    if os.path.exists(p):
        with open(p) as fh:
            out += [ln.strip() for ln in fh
                    if ln.split()[:1] and ln.split()[0] in
                    ('red_kmin', 'red_kmax', 'red_pmax', 'tcd_threshold',
                     'xoff', 'xon', 'switch')]
    return '\n'.join(out)


def page(out):
    runs = summary.load_runs(out)
    scens = sorted({r['scen'] for r in runs})
    b = ['<!DOCTYPE html><html><head><meta charset="utf-8">',
         '<title>rxe-acc evaluation</title><style>',
         'body{font-family:sans-serif;max-width:1400px;margin:1em auto;padding:0 1em}',
         'table{border-collapse:collapse;font-size:13px}',
         'td,th{border:1px solid #bbb;padding:3px 6px;text-align:right}',
         'th{background:#eee} img{max-width:100%;display:block;margin:.5em 0}',
         'pre{background:#f6f6f6;padding:.5em;font-size:12px;overflow:auto}',
         '</style></head><body>',
         '<h1>rxe-acc evaluation: %s</h1>' % html.escape(os.path.basename(out))]
    b.append('<h2>Headline</h2>')
    b += ['<p>%s</p>' % html.escape(x) for x in headline(runs)] or ['<p>(no pair ran)</p>']
    loads = [x for x in map(host_load, runs) if x is not None]
    if loads and max(loads) > LOADED:
        b.append('<p><strong>Warning: the host was loaded (1-minute load '
                 'average up to %.1f on %d CPUs) during these runs.  A '
                 'starved VM cannot fill the link, stalls and then sends in '
                 'bursts: utilisation, queue and PFC figures are then the '
                 'host\'s, not the algorithms\'.  Re-run on an idle host.'
                 '</strong></p>' % (max(loads), os.cpu_count() or 0))
    apart = ['%s/%s' % (r['scen'], r['algo']) for r in runs
             if r['m'] and not r['m'].get('window_s')
             and len(r['m'].get('flows', [])) > 1]
    if apart:
        b.append('<p><strong>No incast in %s: lsw never saw the flows send '
                 'at the same time (the second started after the first had '
                 'finished), so there is nothing to converge.</strong></p>'
                 % ', '.join(apart))
    b.append('<h2>Table</h2>')
    b.append('<p>Flow rates over the window in which all flows are active; '
             'convergence from the onset (the last flow\'s first packet) until '
             'every flow is within ±10 % of the fair share, in ms and periods '
             'T = 4 ms; then the share of time they stay there; spread = p5-p95 '
             'of the flows\' rates ÷ fair share, each over a window of 5 T or of '
             '20 frames of the fair share if longer (column "rate window T"); queue over '
             'the all-active window.  Definitions: eval/metrics.py, '
             'eval/onset.py.</p>')
    b.append(table(runs))
    for s in scens:
        b.append('<h2>%s: the onset</h2>' % s)
        b.append(img(os.path.join(out, s, 'onset.png'), '%s onset' % s))
        b.append('<h2>%s: the whole run</h2>' % s)
        for r in runs:
            if r['scen'] == s and r['status'] == 'ok':
                b.append('<h3>%s</h3>' % NAMES.get(r['algo'], r['algo']))
                b.append(img(os.path.join(r['dir'], 'rates.png'), 'rates'))
                if os.path.exists(os.path.join(r['dir'], 'cc-rate.png')):
                    b.append(img(os.path.join(r['dir'], 'cc-rate.png'), 'cc rate'))
        b.append(img(os.path.join(out, s, 'queue.png'), 'queue'))
        b.append(img(os.path.join(out, s, 'pauses.png'), 'pauses'))
    b.append('<h2>Knobs each algorithm ran with</h2>')
    seen = set()
    for r in runs:
        if r['algo'] in seen:
            continue
        seen.add(r['algo'])
        b.append('<h3>%s</h3><pre>%s</pre>' % (NAMES.get(r['algo'], r['algo']),
                                              html.escape(knobs_of_run(r))))
    b.append('<h2>The scaling rule</h2>')
    b.append('<p>Documentation/rxe-acc/scaling.rst; computed by eval/scaling.py '
             'and proved by selftests/unit/test_scaling_sim.c.  Times × RTT '
             'here ÷ RTT ref; rates × line here ÷ line ref; byte counter and '
             'frame × the BDP ratio; one marking point K = 1.5 BDP for both '
             'algorithms; RED Kmax = min(2 K, 0.9 XOFF).</p>')
    b.append('<pre>%s</pre>' % html.escape(scaling.table(scaling.BED_LINE_BPS,
                                                         scaling.BED_RTT_US)))
    b.append('<h2>Caveats</h2><ul>')
    b += ['<li>%s</li>' % html.escape(c) for c in CAVEATS]
    b.append('</ul></body></html>')
    with open(os.path.join(out, 'report.html'), 'w') as fh:
        fh.write('\n'.join(b))
    return os.path.join(out, 'report.html')


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    print(page(argv[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

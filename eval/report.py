#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py OUT_DIR: OUT_DIR/report.html, one self-contained page per
evaluation (PNGs embedded): per scenario a headline in medians of the
repeats against the baseline a reader can trust, the compact table (the
best median green, the worst red), the figures of eval/figures.py, then
every run's table, the knobs each algorithm changed from the defaults, the
scaling rule and the caveats.  python3 stdlib only."""
import base64
import html
import os
import sys

import scaling
import summary

LOADED = 3.0   # 1-minute load average above which a run is suspect (2 CPUs)
NAMES = {'none': 'none', 'dcqcn': 'DCQCN (mlx5, scaled)',
         'dcqcn-paper': 'DCQCN (paper, scaled)', 'acc': 'ACC',
         'acc-nohalt': 'ACC without the halt (ablation)',
         'timely': 'TIMELY (scaled)'}
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
    'A VM run is one sample of the host\'s timing (2 cores shared with '
    'other jobs): the headline and the compact table give the median of '
    'the repeats and their smallest-largest; the curves over time show '
    'one repeat per algorithm, the one with the median convergence time.',
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


# The figures of eval/figures.py per scenario, in the page's order.
FIGS = [('bars.png', 'The headline metrics, every repeat'),
        ('onset.png', 'The onset'),
        ('rates.png', 'Per-flow rate over the whole run'),
        ('queue.png', 'Bottleneck queue over the whole run'),
        ('queue-cdf.png', 'Queue CDF'),
        ('share-cdf.png', 'Fairness: rate ÷ fair share CDF'),
        ('pfc.png', 'PFC frames and paused time per port'),
        ('dcqcn.png', 'DCQCN: CNPs and alpha'),
        ('fct-cdf.png', 'Short flows: FCT slowdown CDF'),
        ('lat-cdf.png', 'Latency CDF')]
# The DCQCN preset a reader can trust on the test bed, and the one the
# scaling does not carry (the caveats give the unit simulation's figures).
TRUSTED, UNFAITHFUL = 'dcqcn-paper', 'dcqcn'


def ms_text(d, key, f, scale=1):
    return summary.fmt_ms(d.get(key), f, scale)


def vs(a, b, key, f, scale=1, unit=''):
    """'X (lo–hi) against Y (lo–hi) UNIT' of two algorithms' medians."""
    return '%s against %s%s' % (ms_text(a, key, f, scale), ms_text(b, key, f, scale), unit)


def none_at_all(*ds, key):
    """True when every run of every one of the algorithms ds had key 0."""
    return all(d.get(key) is not None and d[key][2] == 0 for d in ds)


def pfc_vs(a, b):
    """ACC's PFC frames and paused time against b's; 'neither ...' where
    neither had any, not '0 against 0'."""
    if none_at_all(a, b, key='pfc_tx') and none_at_all(a, b, key='paused_s'):
        return 'neither sends a PFC frame'
    text = 'sends %s PFC frames' % vs(a, b, 'pfc_tx', '%.0f')
    if none_at_all(a, b, key='paused_s'):
        return text + ' (neither paused)'
    return text + ' (paused %s s)' % vs(a, b, 'paused_s', '%.2f')


def headline(runs):
    """Per scenario: ACC against none and against the DCQCN preset that
    survives the scaling, in medians with their spread; the unfaithfully
    scaled preset named as such."""
    out = []
    med = summary.medians(runs)
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
        d = med.get(s, {})
        if 'acc' not in d or s == 'S1':
            continue
        acc = d['acc']
        n = acc['runs']
        parts = []
        if 'none' in d:
            parts.append('against no congestion control, ACC keeps a mean queue of %s '
                         'and %s'
                         % (vs(acc, d['none'], 'queue_active_mean_bytes', '%.1f', 1e-3, ' KB'),
                            pfc_vs(acc, d['none'])))
        if TRUSTED in d:
            b = d[TRUSTED]
            parts.append('against %s, the DCQCN baseline this test bed scales '
                         'faithfully, ACC converges in %s, keeps a mean queue of %s '
                         'and a p99 of %s, at a utilisation of %s'
                         % (NAMES[TRUSTED], vs(acc, b, 'converge_ms', '%.0f', 1, ' ms'),
                            vs(acc, b, 'queue_active_mean_bytes', '%.1f', 1e-3, ' KB'),
                            vs(acc, b, 'queue_p99_bytes', '%.1f', 1e-3, ' KB'),
                            vs(acc, b, 'utilisation', '%.3f')))
        for extra in ('victim_mbps', 'fct_small_p99', 'lat_p99_us'):
            for base in (TRUSTED, 'none'):
                if extra in acc and base in d and extra in d[base]:
                    what = {'victim_mbps': 'the victim flow gets %s Mb/s',
                            'fct_small_p99': 'small flows\' p99 FCT slowdown is %s',
                            'lat_p99_us': 'p99 latency is %s us'}[extra]
                    f = '%.0f' if extra == 'lat_p99_us' else '%.1f'
                    parts.append(what % vs(acc, d[base], extra, f) +
                                 ' (ACC against %s)' % NAMES[base])
                    break
        if not parts:
            continue
        out.append('%s, median of %d run%s each (smallest–largest in brackets): %s.'
                   % (s, n, '' if n == 1 else 's', '; '.join(parts)))
        if UNFAITHFUL in d:
            b = d[UNFAITHFUL]
            out.append('%s: %s is shown for reference only: the scaling does not carry '
                       'its preset (its 1 us alpha and 4 us monitor periods are shorter '
                       'than a frame here; in the unit simulation its curve is 0.32 of the '
                       'line rate off the reference, against 0.073 for the paper\'s knobs). '
                       'ACC against it: convergence %s, mean queue %s, %s.'
                       % (s, NAMES[UNFAITHFUL], vs(acc, b, 'converge_ms', '%.0f', 1, ' ms'),
                          vs(acc, b, 'queue_active_mean_bytes', '%.1f', 1e-3, ' KB'),
                          'no PFC frame from either' if none_at_all(acc, b, key='pfc_tx')
                          else 'PFC frames ' + vs(acc, b, 'pfc_tx', '%.0f')))
    return out


def compact(runs, scen):
    """The compact table of scen: medians (smallest–largest), ≤ 10 columns,
    the best median of a column green, the worst red."""
    med = summary.medians(runs).get(scen, {})
    cols = summary.compact_cols(med)
    if not med or not cols:
        return ''
    h = ['<table class="compact"><tr><th>algorithm</th><th>runs</th>']
    h += ['<th>%s %s</th>' % (html.escape(c[0]), '↑' if c[4] > 0 else '↓') for c in cols]
    h.append('</tr>')
    for a, d in med.items():
        cells = []
        for _, k, f, sc, better in cols:
            b, w = summary.best_worst(med, k, better)
            cls = ' class="best"' if a in b else ' class="worst"' if a in w else ''
            cells.append('<td%s>%s</td>' % (cls, html.escape(summary.fmt_ms(d.get(k), f, sc))))
        h.append('<tr><td>%s</td><td>%d</td>%s</tr>' % (html.escape(NAMES.get(a, a)),
                                                      d['runs'], ''.join(cells)))
    h.append('</table>')
    return '\n'.join(h)


def table(runs):
    cols = [c for c in summary.COLS if c[1] in summary.HEADLINE or
            (c[1] in EXTRA and any(r['m'].get(c[1]) is not None for r in runs))]
    h = ['<table class="full"><tr><th>scenario</th><th>algorithm</th><th>repeat</th>'
         '<th>status</th><th>host load</th>']
    h += ['<th>%s</th>' % html.escape(c[0]) for c in cols]
    h.append('</tr>')
    for r in runs:
        cells = [summary.fmt(r['m'], k, f, sc) if r['m'] else '–'
                 for _, k, f, sc in cols]
        load = host_load(r)
        h.append('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>%s</tr>' % (
            r['scen'], NAMES.get(r['algo'], r['algo']), r.get('rep', 'r1'), r['status'],
            '–' if load is None else '%.1f' % load,
            ''.join('<td>%s</td>' % html.escape(str(c)) for c in cells)))
    h.append('</table>')
    return '\n'.join(h)


def read_knobs(path, dev=None):
    """{name: value} of a knob dump ("name=value", or "dev name=value")."""
    out = {}
    try:
        with open(path) as fh:
            for ln in fh:
                w = ln.strip().split(' ', 1)
                if dev is not None:
                    if len(w) != 2 or w[0] != dev:
                        continue
                    ln = w[1]
                k, _, v = ln.strip().partition('=')
                if k:
                    out[k] = v
    except OSError:
        pass
    return out


def knobs_of_run(r):
    """The CC knobs the first sender device changed from the kernel's
    defaults (a Mb/s knob left out where its kb/s twin says the same,
    since the Mb/s one rounds down), and lsw's marking."""
    out = []
    ran = read_knobs(os.path.join(r['dir'], 'cc-rxe_h0.txt'))
    dflt = read_knobs(os.path.join(r['dir'], 'knobs-before.txt'), 'rxe_h0')
    for k in sorted(ran):
        if k == 'available':
            continue
        if k.endswith('_mbps') and k[:-5] + '_kbps' in ran:
            continue
        if k == 'algorithm' or ran[k] != dflt.get(k):
            out.append('%s=%s%s' % (k, ran[k], '' if k not in dflt or k == 'algorithm'
                                    else '   (default %s)' % dflt[k]))
    p = os.path.join(r['dir'], 'lsw.conf')
    if os.path.exists(p):
        with open(p) as fh:
            out += ['lsw: ' + ln.strip() for ln in fh
                    if ln.split()[:1] and ln.split()[0] in
                    ('marking', 'red_kmin', 'red_kmax', 'red_pmax', 'tcd_threshold',
                     'xoff', 'xon')]
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
         'td.best{background:#d9f2d9} td.worst{background:#f8d7d3}',
         'table.compact{font-size:14px} p.headline{font-size:15px}',
         'pre{background:#f6f6f6;padding:.5em;font-size:12px;overflow:auto}',
         '</style></head><body>',
         '<h1>rxe-acc evaluation: %s</h1>' % html.escape(os.path.basename(out))]
    b.append('<h2>Headline</h2>')
    b += ['<p class="headline">%s</p>' % html.escape(x) for x in headline(runs)] or \
        ['<p class="headline">No comparison: no scenario ran ACC beside another '
         'algorithm, so there is no headline; every run\'s figures are in the tables '
         'below.</p>']
    loads = [x for x in map(host_load, runs) if x is not None]
    if loads and max(loads) > LOADED:
        b.append('<p><strong>Warning: the host was loaded (1-minute load '
                 'average up to %.1f on %d CPUs) during these runs.  A '
                 'starved VM cannot fill the link, stalls and then sends in '
                 'bursts: utilisation, queue and PFC figures are then the '
                 'host\'s, not the algorithms\'.  Re-run on an idle host.'
                 '</strong></p>' % (max(loads), os.cpu_count() or 0))
    apart = ['%s/%s/%s' % (r['scen'], r['algo'], r.get('rep', 'r1')) for r in runs
             if r['m'] and not r['m'].get('window_s')
             and len(r['m'].get('flows', [])) > 1]
    if apart:
        b.append('<p><strong>No incast in %s: lsw never saw the flows send '
                 'at the same time (the second started after the first had '
                 'finished), so there is nothing to converge.</strong></p>'
                 % ', '.join(apart))
    for s in scens:
        t = compact(runs, s)
        if t:
            b.append('<h2>%s: medians of the repeats</h2>' % s)
            b.append('<p>↑ higher is better, ↓ lower is better; green the best '
                     'median of a column, red the worst; smallest–largest of the '
                     'repeats in brackets.  Every run is in the full table below.</p>')
            b.append(t)
        for f, cap in FIGS:
            path = os.path.join(out, s, f)
            if os.path.exists(path):
                b.append('<h3>%s: %s</h3>' % (s, html.escape(cap)))
                b.append(img(path, '%s %s' % (s, f)))
    b.append('<h2>Every run</h2>')
    b.append('<p>Flow rates over the window in which all flows are active; '
             'convergence from the onset (the last flow\'s first packet) until '
             'every flow is within ±10 % of the fair share, in ms and periods '
             'T = 4 ms; then the share of time they stay there; spread = p5-p95 '
             'of the flows\' rates ÷ fair share, each over a window of 5 T or of '
             '20 frames of the fair share if longer (column "rate window T"); '
             '"R within ±10 %": the share of time the paced rate in the trace was '
             'within ±10 % of the fair share; queue over the all-active window; '
             'host load: the 1-minute load average around the run (2 CPUs).  '
             'Halts are ACC\'s alone ("–" for the others).  Definitions: '
             'eval/metrics.py, eval/onset.py.</p>')
    b.append(table(runs))
    b.append('<h2>Knobs each algorithm changed from the defaults</h2>')
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

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""docfigs.py: the demo's figures in README.md and results.rst come from a
committed summary of one run, not from memory (python3 stdlib only).

  docfigs.py snapshot OUT_DIR [--total-s S] [--commit C]
        (S: OUT_DIR/elapsed-s, which eval/run writes, unless given)
        writes eval/results/demo-summary.json (the medians of OUT_DIR, as
        summary.py json gives them, and where they come from: the run's
        name, the commit, repeats, wall time, host load) and
        eval/results/demo-summary.md (OUT_DIR/summary.md)
  docfigs.py update    rewrites the generated blocks of README.md and
                       Documentation/rxe-acc/results.rst from the JSON
  docfigs.py check     exit 1 if a block differs from what update writes
                       (eval-unit runs it: eval/tests/test_report.py)
  docfigs.py compare OUT_DIR
                       `make demo`'s last word: the medians of OUT_DIR
                       beside the committed run's, the figures the README
                       quotes, each with its band and whether this run
                       is inside it (exit 0 either way)

A block runs from a line "<!-- BEGIN demo-figures (eval/docfigs.py) -->"
(README) or ".. BEGIN demo-figures (eval/docfigs.py)" (rst) to the
matching END line; everything between is generated.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..')
sys.path.insert(0, HERE)
import summary as S  # noqa: E402

JSON = os.path.join(HERE, 'results', 'demo-summary.json')
MD = os.path.join(HERE, 'results', 'demo-summary.md')
SCEN = 'S2-2to1'
NAMES = {'none': 'none', 'dcqcn': 'DCQCN (mlx5 knobs)', 'dcqcn-paper': 'DCQCN (paper knobs)',
         'acc': 'ACC'}
ROWS = [('util', 'utilisation', '%.3f', 1), ('Jain', 'jain', '%.3f', 1),
        ('converge ms', 'converge_ms', '%.0f', 1),
        ('q mean KB', 'queue_active_mean_bytes', '%.1f', 1e-3),
        ('q p99 KB', 'queue_p99_bytes', '%.1f', 1e-3),
        ('PFC frames', 'pfc_tx', '%.0f', 1), ('paused s', 'paused_s', '%.2f', 1)]


def snapshot(out, total_s=None, commit=None):
    runs = S.load_runs(out)
    med = S.medians(runs)
    loads = []
    for r in runs:
        try:
            with open(os.path.join(r['dir'], 'host-load.txt')) as fh:
                loads += [float(x) for x in fh.read().split()]
        except (OSError, ValueError):
            pass
    if commit is None:
        commit = subprocess.run(['git', '-C', TOP, 'rev-parse', '--short', 'HEAD'],
                                capture_output=True, text=True).stdout.strip()
    meta = {'run': os.path.basename(os.path.normpath(out)), 'commit': commit,
            'runs': len(runs), 'passed': sum(r['status'] == 'ok' for r in runs),
            'repeats': max((d['runs'] for s in med.values() for d in s.values()), default=0),
            'runs_wall_s': sum(r['wall'] for r in runs),
            'total_s': total_s,
            'load_min': min(loads) if loads else None,
            'load_max': max(loads) if loads else None}
    os.makedirs(os.path.dirname(JSON), exist_ok=True)
    with open(JSON, 'w') as fh:
        json.dump({'meta': meta, 'medians': med}, fh, indent=1, sort_keys=True)
        fh.write('\n')
    shutil.copyfile(os.path.join(out, 'summary.md'), MD)


def load():
    with open(JSON) as fh:
        js = json.load(fh)
    return js['meta'], js['medians'].get(SCEN, {})


def v(d, a, key, f, scale=1):
    """'median (lo–hi)' of algorithm a's key, or '–'."""
    return S.fmt_ms(tuple(d[a][key]) if a in d and key in d[a] else None, f, scale)


def pfc_vs(d, a, b):
    """a's PFC frames and paused time against b's, or 'neither ...' where
    every run of both had none (no '0 against 0')."""
    def zero(k):
        return all(x in d and k in d[x] and d[x][k][2] == 0 for x in (a, b))
    if zero('pfc_tx') and zero('paused_s'):
        return 'neither sent a PFC frame'
    text = 'sent %s PFC frames against %s' % (v(d, a, 'pfc_tx', '%.0f'), v(d, b, 'pfc_tx', '%.0f'))
    if zero('paused_s'):
        return text + ' (neither paused)'
    return text + ' (paused %s s against %s s)' % (v(d, a, 'paused_s', '%.2f'),
                                                  v(d, b, 'paused_s', '%.2f'))


def minutes(s):
    return '%d min %02d s' % (s // 60, s % 60)


def source(meta):
    t = ('%s in all' % minutes(meta['total_s'])) if meta.get('total_s') else \
        ('%s of VM runs' % minutes(meta['runs_wall_s']))
    return ('`make demo` run `%s` (commit %s, %d runs: 4 algorithms x %d repeats, %s, '
            'host load %.1f-%.1f on 2 cores)'
            % (meta['run'], meta['commit'], meta['runs'], meta['repeats'], t,
               meta['load_min'] or 0, meta['load_max'] or 0))


def readme_block(meta, d):
    src = source(meta)
    lines = [
        '* The demo, medians of %d repeats with the smallest and largest in brackets, '
        'from %s; `eval/results/demo-summary.md` has every run, and `eval/docfigs.py` '
        'writes this paragraph from it:' % (meta['repeats'], src),
        '  * against no congestion control, ACC kept a mean queue of %s KB against %s KB '
        'and %s;'
        % (v(d, 'acc', 'queue_active_mean_bytes', '%.1f', 1e-3),
           v(d, 'none', 'queue_active_mean_bytes', '%.1f', 1e-3), pfc_vs(d, 'acc', 'none')),
        '  * against DCQCN with its paper\'s knobs (the DCQCN preset the scaling '
        'carries), ACC converged in %s ms against %s ms, with a mean queue of %s KB '
        'against %s KB, at a utilisation of %s against %s;'
        % (v(d, 'acc', 'converge_ms', '%.0f'), v(d, 'dcqcn-paper', 'converge_ms', '%.0f'),
           v(d, 'acc', 'queue_active_mean_bytes', '%.1f', 1e-3),
           v(d, 'dcqcn-paper', 'queue_active_mean_bytes', '%.1f', 1e-3),
           v(d, 'acc', 'utilisation', '%.3f'), v(d, 'dcqcn-paper', 'utilisation', '%.3f')),
        '  * DCQCN with mlx5\'s knobs (not faithfully scaled: its 1 us alpha and 4 us '
        'periods are shorter than a frame here) converged in %s ms, mean queue %s KB, '
        '%s PFC frames.'
        % (v(d, 'dcqcn', 'converge_ms', '%.0f'),
           v(d, 'dcqcn', 'queue_active_mean_bytes', '%.1f', 1e-3),
           v(d, 'dcqcn', 'pfc_tx', '%.0f')),
    ]
    if (meta.get('load_max') or 0) > 3:
        lines.append('  * The host was loaded (1-minute load up to %.1f on 2 cores) during '
                     'that run: the VMs were starved at times, which lowers utilisation and '
                     'lengthens convergence for every algorithm; compare them with each '
                     'other, not with an idle host\'s run.' % meta['load_max'])
    out = []
    for ln in lines:
        ind = len(ln) - len(ln.lstrip(' ')) + 2
        out += textwrap.wrap(ln, 76, subsequent_indent=' ' * ind, break_on_hyphens=False)
    return out


def rst_block(meta, d):
    algos = [a for a in ('none', 'dcqcn', 'dcqcn-paper', 'acc') if a in d]
    cells = [[h] + [v(d, a, k, f, sc) for a in algos] for h, k, f, sc in ROWS]
    head = ['metric'] + [NAMES[a] for a in algos]
    w = [max(len(r[i]) for r in cells + [head]) for i in range(len(head))]
    rule = '  '.join('=' * x for x in w)

    def row(r):
        return '  '.join(c.ljust(x) for c, x in zip(r, w)).rstrip()
    out = textwrap.wrap('From %s; medians, the smallest and largest of the repeats in '
                        'brackets (``eval/results/demo-summary.md`` has every run; '
                        '``eval/docfigs.py`` writes this table, and ``make check`` fails '
                        'when it no longer matches that summary).'
                        % source(meta).replace('`', '``'), 76, break_on_hyphens=False)
    out += ['', rule, row(head), rule] + [row(r) for r in cells] + [rule]
    return [''] + out + ['']     # rst: a comment line ends at a blank one


# What `make demo` compares with the committed run: the README's figures,
# (algorithm, key, label, format, scale, band).  A band is (relative,
# absolute): this run's median is within it when it differs from the
# committed median by at most the larger of relative x the committed
# median and the absolute floor (for figures near zero); a relative
# band given as a factor ('x', F) means within F times either way.
# The bands are wide: repeats of one run spread this much already
# (eval/results/demo-summary.md: convergence 32-2740 ms for DCQCN-mlx5,
# PFC frames 20-180 for ACC), and a host's load moves every figure.
COMPARE = [
    ('acc', 'queue_active_mean_bytes', 'ACC q mean KB', '%.1f', 1e-3, (0.5, 3000)),
    ('none', 'queue_active_mean_bytes', 'none q mean KB', '%.1f', 1e-3, (0.5, 3000)),
    ('dcqcn-paper', 'queue_active_mean_bytes', 'DCQCN-paper q mean KB', '%.1f', 1e-3,
     (0.5, 3000)),
    ('dcqcn', 'queue_active_mean_bytes', 'DCQCN-mlx5 q mean KB', '%.1f', 1e-3, (0.5, 3000)),
    ('acc', 'pfc_tx', 'ACC PFC frames', '%.0f', 1, (0.5, 100)),
    ('none', 'pfc_tx', 'none PFC frames', '%.0f', 1, (0.5, 100)),
    ('dcqcn', 'pfc_tx', 'DCQCN-mlx5 PFC frames', '%.0f', 1, (0.5, 100)),
    ('acc', 'paused_s', 'ACC paused s', '%.2f', 1, (0.5, 0.25)),
    ('none', 'paused_s', 'none paused s', '%.2f', 1, (0.5, 0.25)),
    ('acc', 'converge_ms', 'ACC converge ms', '%.0f', 1, (('x', 3), 50)),
    ('dcqcn-paper', 'converge_ms', 'DCQCN-paper converge ms', '%.0f', 1, (('x', 3), 50)),
    ('dcqcn', 'converge_ms', 'DCQCN-mlx5 converge ms', '%.0f', 1, (('x', 3), 50)),
    ('acc', 'utilisation', 'ACC util', '%.3f', 1, (0.25, 0)),
    ('dcqcn-paper', 'utilisation', 'DCQCN-paper util', '%.3f', 1, (0.25, 0)),
]


def band_text(band, f, scale):
    """'±50 % or ±3', '×/÷ 3 or ±50' (the floor in the metric's unit)."""
    rel, floor = band
    r = ('×/÷ %g' % rel[1]) if isinstance(rel, tuple) else ('±%g %%' % (rel * 100))
    return r + ((' or ±%g' % float(f % (floor * scale))) if floor else '')


def within(committed, now, band):
    """Is this run's median now inside the band around the committed one?"""
    rel, floor = band
    if abs(now - committed) <= floor:
        return True
    if isinstance(rel, tuple):
        k = rel[1]
        return committed > 0 and now > 0 and committed / k <= now <= committed * k
    return abs(now - committed) <= rel * abs(committed)


def compare(out, committed=None):
    """(lines of the table, rows within, rows compared) for OUT_DIR's
    medians against the committed run's (committed: (meta, medians of
    SCEN), default the JSON's)."""
    meta, d = committed or load()
    now = S.medians(S.load_runs(out)).get(SCEN, {})
    rows = [('metric', 'committed', 'this run', 'band', 'within band?')]
    ok = n = 0
    for a, key, label, f, scale, band in COMPARE:
        c = d.get(a, {}).get(key)
        t = now.get(a, {}).get(key)
        if c is None:
            continue
        if t is None:
            rows.append((label, S.fmt_ms(tuple(c), f, scale), '–', band_text(band, f, scale),
                         'not measured'))
            continue
        n += 1
        w = within(c[0], t[0], band)
        ok += w
        rows.append((label, S.fmt_ms(tuple(c), f, scale), S.fmt_ms(tuple(t), f, scale),
                     band_text(band, f, scale), 'yes' if w else 'NO'))
    wid = [max(len(r[i]) for r in rows) for i in range(5)]
    lines = ['demo: this run against the committed one the README quotes '
             '(eval/results/demo-summary.json: %s, commit %s, %d repeats, host load '
             '%.1f-%.1f); medians, the smallest and largest in brackets:'
             % (meta['run'], meta['commit'], meta['repeats'], meta.get('load_min') or 0,
                meta.get('load_max') or 0)]
    for i, r in enumerate(rows):
        lines.append(' | '.join(x.ljust(w) for x, w in zip(r, wid)).rstrip())
        if i == 0:
            lines.append('-+-'.join('-' * w for w in wid))
    loads = []
    for r in S.load_runs(out):
        try:
            with open(os.path.join(r['dir'], 'host-load.txt')) as fh:
                loads += [float(x) for x in fh.read().split()]
        except (OSError, ValueError):
            pass
    verdict = ('every figure within its band: this run reproduces the README\'s'
               if ok == n and n else
               '%d of %d figures within their band' % (ok, n))
    lines.append('demo: %s%s.' % (verdict, (' (this run\'s host load %.1f-%.1f)'
                                          % (min(loads), max(loads))) if loads else ''))
    if n and ok < n:
        lines.append('demo: a figure outside its band is one sample of a noisy test bed '
                     'unless several are: a loaded host (compare the loads) lowers '
                     'utilisation and lengthens convergence for every algorithm.')
    return lines, ok, n


BLOCKS = [(os.path.join(TOP, 'README.md'), '<!-- BEGIN demo-figures (eval/docfigs.py) -->',
           '<!-- END demo-figures -->', readme_block),
          (os.path.join(TOP, 'Documentation', 'rxe-acc', 'results.rst'),
           '.. BEGIN demo-figures (eval/docfigs.py)', '.. END demo-figures', rst_block)]


def render(path, begin, end, fn, meta, d):
    """(the file's text, what update makes of it), or None without markers."""
    with open(path) as fh:
        text = fh.read()
    m = re.search(r'^%s\n.*?^%s$' % (re.escape(begin), re.escape(end)), text, re.M | re.S)
    if not m:
        return text, None
    block = begin + '\n' + '\n'.join(fn(meta, d)) + '\n' + end
    return text, text[:m.start()] + block + text[m.end():]


def main(argv):
    if len(argv) >= 2 and argv[0] == 'snapshot':
        total = commit = None
        try:       # eval/run writes it when it ends
            with open(os.path.join(argv[1], 'elapsed-s')) as fh:
                total = int(fh.read())
        except (OSError, ValueError):
            pass
        if '--total-s' in argv:
            total = int(argv[argv.index('--total-s') + 1])
        if '--commit' in argv:
            commit = argv[argv.index('--commit') + 1]
        snapshot(argv[1], total, commit)
        return 0
    if len(argv) == 2 and argv[0] == 'compare':
        print('\n'.join(compare(argv[1])[0]))
        return 0
    if argv in (['update'], ['check']):
        meta, d = load()
        bad = 0
        for path, begin, end, fn in BLOCKS:
            old, new = render(path, begin, end, fn, meta, d)
            rel = os.path.relpath(path, TOP)
            if new is None:
                print('%s: no "%s" block' % (rel, begin), file=sys.stderr)
                bad += 1
            elif argv[0] == 'update' and new != old:
                with open(path, 'w') as fh:
                    fh.write(new)
                print('%s: updated' % rel)
            elif argv[0] == 'check' and new != old:
                print('%s: the demo figures differ from eval/results/demo-summary.json '
                      '(eval/docfigs.py update)' % rel, file=sys.stderr)
                bad += 1
        return 1 if bad else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

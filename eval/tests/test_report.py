#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of the report side (TAP): summary.py's medians and compact table,
figures.py's PFC-per-port and time-origin logic, report.py's headline,
and the whole page on the fixture evaluation (tests/fixture.py) rendered
in headless Chromium by eval/render-check."""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL = os.path.join(HERE, '..')
sys.path.insert(0, EVAL)
sys.path.insert(0, HERE)
import fixture  # noqa: E402
import summary as S  # noqa: E402
from tap import Skip, case, run  # noqa: E402

try:
    import figures as FG  # noqa: E402
    import numpy  # noqa: E402,F401
except ImportError as e:     # python3-matplotlib/numpy missing: make deps
    FG = None
    NO_MPL = str(e)

OUT = None


def out():
    """The fixture evaluation, made once (summary, figures, report)."""
    global OUT
    if OUT is None:
        OUT = fixture.make_out(tempfile.mkdtemp(prefix='rxe-acc-report-'))
    return OUT


def need_mpl():
    if FG is None:
        raise Skip('no matplotlib/numpy (%s): make deps installs them' % NO_MPL)


@case
def median_and_spread_of_repeats():
    assert S.med_spread([3, 1, 2]) == (2, 1, 3, 3)
    assert S.med_spread([4, 1, None, 2, 3]) == (2.5, 1, 4, 4)
    assert S.med_spread([None, '–']) is None
    assert S.fmt_ms((2.0, 1.0, 3.0, 3), '%.1f', 1) == '2.0 (1.0–3.0)'
    assert S.fmt_ms((2.0, 2.0, 2.0, 3), '%.1f', 1) == '2.0'
    assert S.fmt_ms(None, '%.1f', 1) == '–'


@case
def compact_table_medians_cues_and_width():
    runs = S.load_runs(out())
    med = S.medians(runs)['S2-2to1']
    assert list(med) == ['none', 'dcqcn', 'dcqcn-paper', 'acc']
    assert all(d['runs'] == 2 for d in med.values())
    # the fixture's queue: ACC 5 KB + a 0-2 KB ripple; none 40 KB
    assert abs(med['acc']['queue_active_mean_bytes'][0] - 6000) < 200
    assert abs(med['none']['queue_active_mean_bytes'][0] - 41000) < 200
    # convergence: repeat 1 at +200 ms (+200 more for dcqcn and acc), repeat 2 +200
    lo, hi = med['dcqcn-paper']['converge_ms'][1:3]
    assert lo < hi
    cols = S.compact_cols(med)
    assert 2 + len(cols) <= 10
    best, worst = S.best_worst(med, 'queue_active_mean_bytes', -1)
    assert best == {'acc'} and worst == {'none'}
    # ties: three algorithms send no PFC frame, all three are the best
    best, worst = S.best_worst(med, 'pfc_tx', -1)
    assert best == {'dcqcn', 'dcqcn-paper', 'acc'} and worst == {'none'}
    # only ACC halts: the others show "–", not 0
    assert all(r['m']['halts_per_s_flow'] is None for r in runs if r['algo'] != 'acc')
    rep = S.representative(S.by_algo(runs, 'S2-2to1'))
    assert set(rep) == set(med) and all(r['rep'] in ('r1', 'r2') for r in rep.values())


@case
def headline_names_the_trusted_baseline_in_medians():
    import report as R
    h = ' '.join(R.headline(S.load_runs(out())))
    assert 'median of 2 runs' in h
    assert 'DCQCN (paper, scaled), the DCQCN baseline this test bed scales faithfully' in h
    assert 'DCQCN (mlx5, scaled) is shown for reference only' in h
    assert 'against no congestion control' in h
    # medians with their spread: "650 (550–750) ms"-like figures
    assert re.search(r'\d+ \(\d+–\d+\) against \d+ \(\d+–\d+\) ms', h), h


@case
def headline_says_neither_where_both_sent_no_pfc_frame():
    import report as R
    h = ' '.join(R.headline(S.load_runs(out())))
    # the fixture: only none pauses; ACC and DCQCN (mlx5) send no frame
    assert not re.search(r'(?<![\d.–])0(\.0+)? against 0(\.0+)?(?!\.?\d| \()', h), h
    assert 'no PFC frame from either' in h, h
    z = {'pfc_tx': (0, 0, 0, 3), 'paused_s': (0.0, 0.0, 0.0, 3)}
    some = {'pfc_tx': (0, 0, 12, 3), 'paused_s': (0.0, 0.0, 0.02, 3)}
    nopause = {'pfc_tx': (4, 2, 6, 3), 'paused_s': (0.0, 0.0, 0.0, 3)}
    assert R.pfc_vs(z, z) == 'neither sends a PFC frame'
    # a median of 0 with frames in one repeat is a figure, not "neither"
    assert R.pfc_vs(z, some) == 'sends 0 against 0 (0–12) PFC frames (paused 0.00 against 0.00 (0.00–0.02) s)'
    assert R.pfc_vs(z, nopause) == 'sends 0 against 4 (2–6) PFC frames (neither paused)'
    # the README's paragraph (eval/docfigs.py) alike
    import docfigs as D
    assert D.pfc_vs({'acc': z, 'none': z}, 'acc', 'none') == 'neither sent a PFC frame'
    assert D.pfc_vs({'acc': z, 'none': nopause}, 'acc', 'none') == \
        'sent 0 PFC frames against 4 (2–6) (neither paused)'


@case
def nic_pause_from_the_switch_xoff_state():
    need_mpl()
    rows = [{'time_ns': t * 10, 'ingress_bytes': b} for t, b in
            enumerate([0, 31, 29, 28, 26, 0, 31, 31, 0, 0])]
    st = FG.nic_paused(rows, 30, 27)
    assert [v for _, v in st] == [0, 1, 1, 1, 0, 0, 1, 1, 0, 0]
    # held 10..40 and 60..80: of bins [0, 50) and [50, 100): 0.6 and 0.4
    starts, share = FG.held_per_bin(st, 0, 100, 50)
    assert list(starts) == [0, 50] and abs(share[0] - 0.6) < 1e-9 and abs(share[1] - 0.4) < 1e-9


@case
def pfc_per_port_shows_what_the_egress_column_missed():
    # none in the fixture: the egress is never paused (a one-switch
    # incast), the senders' NICs are, 0.3 s of every second from 1 s on
    need_mpl()
    r = [FG.Run(x) for x in S.load_runs(out()) if x['algo'] == 'none'][0]
    ser = FG.pfc_series(r, r.onset, r.onset + 3_000_000_000)
    assert set(ser) == {'s1:h0', 's1:h1'}, set(ser)
    x, fps, egress, nic = ser['s1:h0']
    # paused 0.3 s of each second: 3 x 0.3 s in 3 s; the bins sum to it
    assert abs(sum(nic) * FG.BIN_MS / 1e3 - 0.9) < 0.05, sum(nic)
    # an XOFF and an XON per second: 2 frames a second on average
    assert abs(fps.mean() - 2.0) < 0.5, fps
    # no egress paused time anywhere: what the old plot drew, and all it drew
    assert all(e.max() == 0 for (_, _, e, _) in ser.values())
    a = [FG.Run(x) for x in S.load_runs(out()) if x['algo'] == 'acc'][0]
    assert FG.pfc_series(a, a.onset, a.onset + 3_000_000_000) == {}


@case
def one_time_origin_and_x_range():
    need_mpl()
    runs = [FG.Run(x) for x in S.load_runs(out())]
    xr = FG.shared_xrange(runs)
    # h0 starts 1 s before the onset (h1's first packet), the run ends 3 s after
    assert -1.6 < xr[0] < -1.4 and 2.9 < xr[1] < 3.6, xr
    r = runs[0]
    assert r.onset == r.m['onset_ns'] and abs(r.t_on - 101.0) < 1e-9


@case
def the_report_renders_in_chromium():
    need_mpl()
    d = out()
    for cmd in (['python3', os.path.join(EVAL, 'summary.py'), 'summary', d],
                [os.path.join(EVAL, 'plot.sh'), d],
                ['python3', os.path.join(EVAL, 'report.py'), d]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        assert p.returncode == 0, (cmd, p.stdout[-500:], p.stderr[-1500:])
    # every figure kind figures.py draws is drawn: S4 has the latency CDF,
    # S5 the FCT CDF, only S2 has DCQCN
    common = ['bars.png', 'onset.png', 'rates.png', 'queue.png', 'queue-cdf.png',
              'share-cdf.png', 'pfc.png']
    want = {'S2-2to1': common + ['dcqcn.png'], 'S4': common + ['lat-cdf.png'],
            'S5': common + ['fct-cdf.png']}
    kinds = set()
    for scen, names in want.items():
        figs = sorted(f for f in os.listdir(os.path.join(d, scen)) if f.endswith('.png'))
        assert figs == sorted(names), (scen, figs)
        kinds |= set(figs)
    drawn_by = re.findall(r"\(fig_\w+, \w+, '([\w-]+\.png)'\)", open(FG.__file__).read())
    assert len(drawn_by) >= 10 and kinds == set(drawn_by), (kinds, drawn_by)
    page = open(os.path.join(d, 'report.html')).read()
    assert page.count('<img ') == 24 and 'class="compact"' in page
    p = subprocess.run([os.path.join(EVAL, 'render-check'), d], capture_output=True,
                       text=True, timeout=600)
    print('\n'.join('#   ' + ln for ln in p.stdout.splitlines()))
    if 'SKIP no chromium' in p.stdout:
        raise Skip('no chromium (make deps installs it)')
    assert p.returncode == 0 and 'not ok' not in p.stdout and \
        p.stdout.count('\nok ') == 5 and 'every figure drawn, 24 in ' in p.stdout, \
        p.stdout + p.stderr



@case
def render_check_fails_a_blank_figure():
    # The same page with one figure blank and one an empty frame: check 4
    # names both, the other figures pass.
    need_mpl()
    import shutil
    from PIL import Image, ImageDraw
    src = out()
    if not os.path.exists(os.path.join(src, 'report.html')):
        raise Skip('the render case did not make the report')
    d = tempfile.mkdtemp(prefix='rxe-acc-blank-')
    for scen in ('S2-2to1', 'S4', 'S5'):
        shutil.copytree(os.path.join(src, scen), os.path.join(d, scen))
    with open(os.path.join(src, 'runs.tsv')) as fh, open(os.path.join(d, 'runs.tsv'), 'w') as o:
        o.write(fh.read().replace(src, d))
    Image.new('RGB', (1000, 500), 'white').save(os.path.join(d, 'S2-2to1', 'queue-cdf.png'))
    im = Image.new('RGB', (1000, 500), 'white')
    ImageDraw.Draw(im).rectangle((50, 50, 950, 450), outline='black')
    im.save(os.path.join(d, 'S2-2to1', 'share-cdf.png'))
    # and one far down the page, S5's FCT CDF, beyond the first shot:
    # a cap of 5000 px makes render-check shoot the page in slices
    Image.new('RGB', (1100, 380), 'white').save(os.path.join(d, 'S5', 'fct-cdf.png'))
    p = subprocess.run(['python3', os.path.join(EVAL, 'report.py'), d], capture_output=True)
    assert p.returncode == 0, p.stderr
    p = subprocess.run([os.path.join(EVAL, 'render-check'), d], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, RENDER_CHECK_CAP='5000'))
    if 'SKIP no chromium' in p.stdout:
        raise Skip('no chromium (make deps installs it)')
    print('\n'.join('#   ' + ln for ln in p.stdout.splitlines()))
    line = [ln for ln in p.stdout.splitlines() if re.match(r'(not )?ok 4 ', ln)]
    assert line and line[0].startswith('not ok 4 - 3 of 24 figures blank'), p.stdout
    assert '5:0%/1!' in line[0] and re.search(r' 6:\d+%/\d+!', line[0]), line[0]
    assert '24:0%/1!' in line[0] and 'in no shot' not in line[0], line[0]
    slices = [f for f in os.listdir(d) if re.match(r'report-render-\d+\.png$', f)]
    assert len(slices) >= 2 and re.search(r'ok 3 - .*and %d more slices' % len(slices),
                                          p.stdout), (slices, p.stdout)



@case
def a_report_of_one_algorithm_has_a_headline_that_says_so():
    # eval-bed's report: ACC alone.  render-check wants a headline
    # paragraph (its check 1), and skips the cues (check 5) without a
    # second algorithm to rank.
    import report as R
    d = fixture.make_out(tempfile.mkdtemp(prefix='rxe-acc-one-'), reps=1, extra=False)
    with open(os.path.join(d, 'runs.tsv')) as fh:
        lines = [ln for ln in fh if '\tacc\t' in ln]
    with open(os.path.join(d, 'runs.tsv'), 'w') as fh:
        fh.writelines(lines)
    assert R.headline(S.load_runs(d)) == []
    p = subprocess.run(['python3', os.path.join(EVAL, 'report.py'), d], capture_output=True)
    assert p.returncode == 0, p.stderr
    page = open(os.path.join(d, 'report.html')).read()
    assert '<p class="headline">No comparison: no scenario ran ACC beside another' in page
    assert page.count('<table class="compact">') == 1


@case
def a_figure_that_fails_is_named_and_the_others_drawn():
    need_mpl()
    d = fixture.make_out(tempfile.mkdtemp(prefix='rxe-acc-fail-'), reps=1, extra=False)
    q = os.path.join(d, 'S2-2to1', 'queue.png')
    open(q, 'w').write('an older run\'s figure')

    def boom(*a):
        raise ValueError('no queue here')
    saved, FG.fig_queue = FG.fig_queue, boom
    try:
        del FG.FAILED[:]
        made = FG.figures(d)['S2-2to1']
    finally:
        FG.fig_queue = saved
    assert FG.FAILED == [('S2-2to1', 'queue.png')], FG.FAILED
    assert not os.path.exists(q) and q not in made
    assert len(made) == 7 and all(os.path.getsize(x) > 10000 for x in made), made
    del FG.FAILED[:]


@case
def demo_compares_its_medians_with_the_committed_run():
    import copy
    import docfigs as D
    # the bands: relative, an absolute floor near zero, a factor
    q, pfc, conv = ((x[5]) for x in D.COMPARE if x[:2] in (
        ('acc', 'queue_active_mean_bytes'), ('acc', 'pfc_tx'), ('acc', 'converge_ms')))
    assert D.within(8000, 11900, q) and not D.within(8000, 12100, q)
    assert D.within(1000, 2900, q) and not D.within(1000, 4100, q)     # ±3 KB floor
    assert D.within(0, 100, pfc) and not D.within(0, 101, pfc)
    assert D.within(2000, 2990, pfc) and not D.within(2000, 3010, pfc)
    assert D.within(100, 299, conv) and D.within(100, 34, conv) and not D.within(100, 301, conv)
    assert D.within(10, 55, conv) and not D.within(100, 0, conv)
    assert D.band_text(q, '%.1f', 1e-3) == '±50 % or ±3'
    assert D.band_text(conv, '%.0f', 1) == '×/÷ 3 or ±50'
    # the fixture against itself: every row within, "reproduces"
    med = S.medians(S.load_runs(out()))['S2-2to1']
    meta = {'run': 'demo-x', 'commit': 'abc', 'repeats': 2, 'load_min': 1.0, 'load_max': 2.0}
    lines, ok, n = D.compare(out(), (meta, med))
    assert n == len(D.COMPARE) == ok, (ok, n)
    assert lines[1].split(' | ') [0].strip() == 'metric' and 'within band?' in lines[1]
    assert 'this run reproduces the README' in lines[-1], lines[-1]
    # a committed run whose ACC queue was twice this one's and whose none
    # sent 1000 more PFC frames: those two rows, and only they, say NO
    c = copy.deepcopy(med)
    c['acc']['queue_active_mean_bytes'] = [x * 2.5 for x in c['acc']['queue_active_mean_bytes']]
    c['none']['pfc_tx'] = [x + 1000 for x in c['none']['pfc_tx']]
    lines, ok, n = D.compare(out(), (meta, c))
    bad = [ln.split(' | ')[0].strip() for ln in lines if ln.rstrip().endswith('| NO')]
    assert bad == ['ACC q mean KB', 'none PFC frames'], lines
    assert ok == n - 2 and '%d of %d figures within their band' % (n - 2, n) in lines[-2]
    assert 'one sample of a noisy test bed' in lines[-1]
    # the committed JSON's own figures, each row with a band
    meta, d = D.load()
    lines, ok, n = D.compare(out(), (meta, d))
    assert n == len(D.COMPARE) and all(ln.count(' | ') == 4 for ln in lines[3:n + 3])


@case
def the_demo_estimate_is_the_docs_and_fits_the_committed_run():
    # eval/run --estimate for make demo's runs; README and results.rst
    # quote that figure, and one run's estimate is within 40 % of the
    # committed demo's mean VM run (eval/results/demo-summary.json).
    import docfigs as D
    def est(*args):
        p = subprocess.run([os.path.join(EVAL, 'run'), '--scenario', 'S2-2to1', '--estimate']
                           + list(args), capture_output=True, text=True,
                           env=dict(os.environ, EVAL_SECONDS='16'))
        assert p.returncode == 0, p.stderr
        m = re.search(r'this will take about (\d+) minutes \((\d+) VM runs', p.stdout)
        assert m, p.stdout
        return int(m.group(1)), int(m.group(2))
    minutes, runs = est('--algos', 'none,dcqcn,dcqcn-paper,acc', '--repeat', '3')
    assert runs == 12
    readme = ' '.join(open(os.path.join(EVAL, '..', 'README.md')).read().split())
    rst = ' '.join(open(os.path.join(EVAL, '..', 'Documentation', 'rxe-acc',
                                     'results.rst')).read().split())
    assert 'about %d minutes for `make demo`' % minutes in readme, minutes
    assert '("about %d minutes (12 VM runs' % minutes in rst, minutes
    one, _ = est('--algos', 'none,dcqcn,dcqcn-paper,acc', '--repeat', '1')
    assert 'runs each algorithm once (about %d)' % one in readme, one
    meta, _ = D.load()
    mean_run = meta['runs_wall_s'] / meta['runs']
    # minutes of 12 runs, less the end's 60 s and 10 s of metrics a run
    per_run = (minutes * 60 - 60) / 12 - 10
    assert abs(per_run - mean_run) <= 0.4 * mean_run, (per_run, mean_run)


@case
def docs_quote_the_committed_demo_summary():
    # README.md and results.rst quote eval/results/demo-summary.json as
    # eval/docfigs.py writes it; a figure edited by hand fails here.
    import docfigs as D
    p = subprocess.run(['python3', os.path.join(EVAL, 'docfigs.py'), 'check'],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    meta, d = D.load()
    assert meta['repeats'] >= 3 and set(d) == {'none', 'dcqcn', 'dcqcn-paper', 'acc'}
    path, begin, end, fn = D.BLOCKS[0]
    text = open(path).read()
    acc_q = D.v(d, 'acc', 'queue_active_mean_bytes', '%.1f', 1e-3)
    assert 'ACC kept a mean queue of %s KB' % acc_q in ' '.join(text.split())
    t = tempfile.mkdtemp()
    bad = os.path.join(t, 'README.md')
    with open(bad, 'w') as fh:
        fh.write(text.replace(acc_q, '0.1', 1))
    old, new = D.render(bad, begin, end, fn, meta, d)
    assert new is not None and new != old and new == text


if __name__ == '__main__':
    sys.exit(run())

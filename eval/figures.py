#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""figures.py OUT_DIR: the report's figures (matplotlib and numpy, Debian's
python3-matplotlib and python3-numpy), per scenario in OUT_DIR/SCEN/:

  rates.png      per-flow rate at the switch over time, one panel per
                 algorithm (shared axes), time 0 = the onset (the last
                 flow's first packet); the paced rate from the rxe_cc trace
                 dashed in the flow's colour; ACC's halts as ticks (ACC only)
  queue.png      the bottleneck queue over time, one panel per algorithm,
                 shared axes, time 0 = the onset
  onset.png      the first 30 periods after the onset, one panel per
                 algorithm, shared rate and queue axes
  queue-cdf.png  CDF of the bottleneck queue from the onset to the end of
                 the all-active window, all algorithms on one plot, every
                 repeat pooled
  share-cdf.png  CDF of each flow's rate (windows of 5 T) ÷ the fair share
  pfc.png        PFC frames per second the switch sent out of each port, and
                 the share of each 200 ms a port was paused: the host's NIC
                 (from the switch's XOFF state for its ingress: nic_paused)
                 and the switch's egress (lsw's paused_ns)
  dcqcn.png      DCQCN's CNPs handled per second and alpha at each CNP, per
                 QP, from the trace (DCQCN runs only)
  bars.png       the headline metrics per algorithm: median of the repeats,
                 whiskers from the smallest to the largest, one dot a repeat
  fct-cdf.png    (S5) FCT slowdown of the short flows, by size bucket
  lat-cdf.png    (S4) ib_write_lat latency samples

The run drawn over time (rates, queue, onset, pfc, dcqcn) is, per algorithm,
the repeat with the median convergence time (summary.representative); the
CDFs and bars pool or compare every repeat.  Why matplotlib: CDFs, small
multiples with shared axes, error bars and one legend per figure are one
call each, where gnuplot needed a data file per view written in advance.
"""
import os
import sys

try:
    import matplotlib
except ImportError:
    # python3 on PATH may be another build than Debian's (pyenv, a venv):
    # python3-matplotlib and python3-numpy install here.
    sys.path.append('/usr/lib/python3/dist-packages')
    import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import metrics as M  # noqa: E402
import onset as O  # noqa: E402
import summary as S  # noqa: E402

ORDER = ['none', 'dcqcn', 'dcqcn-paper', 'acc', 'acc-nohalt', 'timely']
NAMES = {'none': 'none', 'dcqcn': 'DCQCN (mlx5, scaled)',
         'dcqcn-paper': 'DCQCN (paper, scaled)', 'acc': 'ACC',
         'acc-nohalt': 'ACC without the halt', 'timely': 'TIMELY (scaled)'}
ALGO_COLOR = {'none': '#7f7f7f', 'dcqcn': '#d62728', 'dcqcn-paper': '#ff7f0e',
              'acc': '#1f77b4', 'acc-nohalt': '#17becf', 'timely': '#2ca02c'}
FLOW_COLORS = plt.get_cmap('tab10').colors
PRIO = 3
BIN_MS = 200
DPI = 100
# The headline metrics of bars.png: (key, label, scale).
BARS = [('converge_ms', 'convergence (ms) ↓', 1),
        ('queue_active_mean_bytes', 'mean queue (KB) ↓', 1e-3),
        ('queue_p99_bytes', 'p99 queue (KB) ↓', 1e-3),
        ('pfc_tx', 'PFC frames ↓', 1),
        ('paused_s', 'paused (s) ↓', 1),
        ('utilisation', 'utilisation ↑', 1),
        ('jain', 'Jain ↑', 1),
        ('within_share', 'share within ±10 % ↑', 1)]


def algo_key(a):
    return ORDER.index(a) if a in ORDER else len(ORDER)


def ecdf(vals):
    """(x, y) of the empirical CDF of vals (sorted, y = k/n)."""
    x = np.sort(np.asarray(vals, dtype=float))
    return x, np.arange(1, len(x) + 1) / len(x)


def lsw_conf(run):
    """{'xoff': B, 'xon': B} of the run's lsw.conf (KB/MB as lsw reads them)."""
    out = {}
    try:
        with open(os.path.join(run, 'lsw.conf')) as fh:
            for ln in fh:
                w = ln.split()
                if len(w) == 2 and w[0] in ('xoff', 'xon'):
                    v, u = w[1], 1
                    for suf, k in (('KB', 1000), ('MB', 10 ** 6), ('B', 1)):
                        if v.upper().endswith(suf):
                            v, u = v[:-len(suf)], k
                            break
                    out[w[0]] = float(v) * u
    except OSError:
        pass
    return out


def nic_paused(rows, xoff, xon):
    """[(t_ns, paused 0/1)] of a host NIC from its switch ingress port's
    buffer (lsw sends XOFF when the ingress reaches xoff and XON when it
    falls to xon; the NIC is paused in between): the state at each sample."""
    out, on = [], 0
    for r in rows:
        b = r['ingress_bytes']
        if not on and b >= xoff:
            on = 1
        elif on and b <= xon:
            on = 0
        out.append((r['time_ns'], on))
    return out


def held_per_bin(states, t0, t1, bin_ns):
    """Share of each bin [t0 + k bin, +bin) a 0/1 sample-and-hold series
    is 1: (bin starts, shares)."""
    edges = np.arange(t0, t1 + bin_ns, bin_ns)
    share = np.zeros(max(0, len(edges) - 1))
    for (ta, v), (tb, _) in zip(states, states[1:]):
        if not v:
            continue
        a, b = max(ta, t0), min(tb, t1)
        while a < b:
            k = int((a - t0) // bin_ns)
            if k >= len(share):
                break
            e = min(b, t0 + (k + 1) * bin_ns)
            share[k] += (e - a) / bin_ns
            a = e
    return edges[:-1], share


class Run:
    """One run's raw data, loaded once."""

    def __init__(self, r):
        self.scen, self.algo, self.dir, self.m = r['scen'], r['algo'], r['dir'], r['m']
        self.ts = M.load_csv(os.path.join(self.dir, 'lsw-timeseries.csv'), PRIO)
        tr = os.path.join(self.dir, 'trace.txt')
        self.ev = []
        if os.path.exists(tr):
            with open(tr) as fh:
                self.ev = M.parse_trace(fh.read())
        self.flows = M.load_flows(os.path.join(self.dir, 'flows.tsv'))
        self.onset = self.m.get('onset_ns')
        self.t_on = O.trace_onset(self.ev)
        self.conf = lsw_conf(self.dir)

    def port_rows(self, port):
        for (sw, pt, p), rows in self.ts.items():
            if pt == port:
                return rows
        return []

    def flow_series(self):
        """[(flow, [(t_ns, cumulative bytes in)])] of the long flows."""
        out = []
        for f in self.m.get('flows', []):
            rows = self.port_rows('h%d' % f['src'])
            out.append((f, [(r['time_ns'], r['bytes_in']) for r in rows]))
        return out

    def span(self):
        """(first, last) ns any long flow moved, or None."""
        sp = [M.active_interval(c) for _, c in self.flow_series()]
        sp = [s for s in sp if s]
        return (min(s[0] for s in sp), max(s[1] for s in sp)) if sp else None

    def queue(self):
        bsw, bport = self.m['bottleneck'].split(':')
        return [(r['time_ns'], r['queue_bytes'])
                for r in self.ts.get((bsw, bport, PRIO), [])]


def load(out):
    runs = [r for r in S.load_runs(out) if r['status'] == 'ok' and r['m']]
    by = {}
    for r in runs:
        by.setdefault(r['scen'], {}).setdefault(r['algo'], []).append(r)
    return by


def shared_xrange(reps):
    """One x range in s from the onset for every algorithm's panel."""
    lo, hi = [], []
    for r in reps:
        sp = r.span()
        if sp and r.onset is not None:
            lo.append((sp[0] - r.onset) / 1e9)
            hi.append((sp[1] - r.onset) / 1e9)
    return (min(lo) - 0.5, max(hi) + 0.5) if lo else (0, 1)


def flow_handles(nflows, extra=()):
    from matplotlib.lines import Line2D
    h = [Line2D([], [], color=FLOW_COLORS[i % 10], lw=2, label='flow %d (h%d)' % (i, i))
         for i in range(nflows)]
    return h + list(extra)


def top(fig, title, handles):
    """The figure's legend on top, its title under it, the panels below:
    fixed inches, so that they never overlap whatever the figure's height."""
    h_in, w_in = fig.get_figheight(), fig.get_figwidth()
    # as many entries a row as fit the figure's width (~1.7 in each)
    ncol = max(1, min(len(handles), 6, int(w_in / 1.7)))
    rows = -(-len(handles) // ncol)
    title_in = 0.14 + 0.22 * rows
    fig.legend(handles=handles, loc='upper center', ncol=ncol,
               bbox_to_anchor=(0.5, 1 - 0.04 / h_in), frameon=False, fontsize=9)
    fig.suptitle(title, y=1 - title_in / h_in, fontsize=11, va='top')
    fig.tight_layout(rect=(0, 0, 1, 1 - (title_in + 0.32) / h_in))


def panel(ax, r, ylabel):
    """A panel over time: the onset marked, the run named, a grid."""
    ax.axvline(0, color='k', lw=0.6, ls=':')
    ax.set_title('%s (%s)' % (NAMES.get(r.algo, r.algo), r.rep), fontsize=10, loc='left')
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)


def shared_x(axs, xr, label):
    """The one x range of a column of panels from the onset, y from 0."""
    axs[-1, 0].set_xlim(*xr)
    axs[-1, 0].set_ylim(bottom=0)
    axs[-1, 0].set_xlabel(label)


def fig_rates(scen, reps, path):
    from matplotlib.lines import Line2D
    n = len(reps)
    fig, axs = plt.subplots(n, 1, figsize=(10, 1.9 * n + 0.9), sharex=True, sharey=True,
                            squeeze=False, dpi=DPI)
    xr = shared_xrange(reps)
    nflows, any_halt = 0, False
    for ax, r in zip(axs[:, 0], reps):
        if r.onset is None:
            continue
        for k, (f, cum) in enumerate(r.flow_series()):
            nflows = max(nflows, k + 1)
            t0 = r.onset + int(xr[0] * 1e9)
            t1 = r.onset + int(xr[1] * 1e9)
            s = M.rate_series(cum, t0, t1, BIN_MS * 10 ** 6)
            if s:
                ax.step([(t - r.onset) / 1e9 for t, _ in s], [v / 1e6 for _, v in s],
                        where='post', color=FLOW_COLORS[k % 10], lw=1.4)
            if r.t_on is not None:
                tr = O.trace_rates(r.ev, r.t_on + xr[0], r.t_on + xr[1])
                for (dev, _), pts in tr.items():
                    if dev == 'rxe_h%d' % f['src'] and pts:
                        ax.step([t - r.t_on for t, _ in pts], [v / 1e6 for _, v in pts],
                                where='post', color=FLOW_COLORS[k % 10], lw=0.8,
                                ls='--', alpha=0.8)
        if r.algo.startswith('acc') and r.t_on is not None:
            ht = [t - r.t_on for t, name, _ in r.ev if name == 'rxe_cc_halt']
            if ht:
                any_halt = True
                ax.plot(ht, [0.96] * len(ht), '|', color='k', ms=6, alpha=0.6,
                        transform=ax.get_xaxis_transform())
        panel(ax, r, 'Mb/s')
    shared_x(axs, xr, 's from the onset (the last flow\'s first packet)')
    extra = [Line2D([], [], color='k', lw=0.8, ls='--', label='paced rate (rxe_cc trace)')]
    if any_halt:
        extra.append(Line2D([], [], color='k', marker='|', ls='', label='ACC halt (ticks at the top)'))
    top(fig, '%s: per-flow rate at the switch (bins of %d ms)' % (scen, BIN_MS),
        flow_handles(nflows, extra))
    fig.savefig(path)
    plt.close(fig)


def fig_queue(scen, reps, path):
    n = len(reps)
    fig, axs = plt.subplots(n, 1, figsize=(10, 1.6 * n + 0.6), sharex=True, sharey=True,
                            squeeze=False, dpi=DPI)
    xr = shared_xrange(reps)
    for ax, r in zip(axs[:, 0], reps):
        q = r.queue()
        if q and r.onset is not None:
            ax.plot([(t - r.onset) / 1e9 for t, _ in q], [b / 1e3 for _, b in q],
                    color=ALGO_COLOR.get(r.algo, 'k'), lw=0.7)
        panel(ax, r, 'KB')
    shared_x(axs, xr, 's from the onset')
    fig.suptitle('%s: bottleneck egress queue (prio %d)' % (scen, PRIO), fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def onset_lsw(d):
    """onset-lsw.dat of eval/metrics.py: t in periods, queue KB, Mb/s per flow."""
    try:
        return np.loadtxt(os.path.join(d, 'onset-lsw.dat'), ndmin=2)
    except (OSError, ValueError):
        return []


def fig_onset(scen, reps, path):
    from matplotlib.lines import Line2D
    n = len(reps)
    fig, axs = plt.subplots(1, n, figsize=(max(3.6 * n + 0.6, 6.0), 3.8), sharex=True, sharey=True,
                            squeeze=False, dpi=DPI)
    twins, qmax, nflows = [], 0, 0
    for ax, r in zip(axs[0], reps):
        lsw = onset_lsw(r.dir)
        tw = ax.twinx()
        twins.append(tw)
        if len(lsw):
            for k in range(lsw.shape[1] - 2):
                ax.plot(lsw[:, 0], lsw[:, 2 + k], color=FLOW_COLORS[k % 10], lw=1.6)
                nflows = max(nflows, k + 1)
            tw.plot(lsw[:, 0], lsw[:, 1], color='0.55', lw=1)
            qmax = max(qmax, float(lsw[:, 1].max()))
        # The paced rate of each long flow's sender QP, in its colour
        # (the trace also has the receivers' QPs: not drawn).
        T = r.m.get('period_ms', 4.0) / 1e3
        if r.t_on is not None:
            tr = O.trace_rates(r.ev, r.t_on - 5 * T, r.t_on + 30 * T)
            for k, f in enumerate(r.m.get('flows', [])):
                for (dev, _), pts in tr.items():
                    if dev == 'rxe_h%d' % f['src'] and pts:
                        ax.step([(t - r.t_on) / T for t, _ in pts] + [30],
                                [v / 1e6 for _, v in pts] + [pts[-1][1] / 1e6],
                                where='post', color=FLOW_COLORS[k % 10], lw=0.9, ls='--')
        ax.axvline(0, color='k', lw=0.6, ls=':')
        ax.set_title('%s (%s)' % (NAMES.get(r.algo, r.algo), r.rep), fontsize=10)
        ax.grid(alpha=0.3)
        ax.set_xlabel('periods T from the onset')
    for tw in twins:
        tw.set_ylim(0, max(qmax * 1.05, 1))
    for tw in twins[:-1]:
        tw.set_yticklabels([])
    twins[-1].set_ylabel('queue KB (grey)')
    axs[0, 0].set_ylabel('Mb/s over the last T')
    axs[0, 0].set_xlim(-5, 30)
    axs[0, 0].set_ylim(bottom=0)
    top(fig, '%s: the onset (the last flow starts at 0; T = %g ms)'
        % (scen, reps[0].m.get('period_ms', 4.0)),
        flow_handles(nflows, [Line2D([], [], color='k', lw=0.8, ls='--',
                                     label='paced rate per QP (trace)'),
                              Line2D([], [], color='0.55', lw=1, label='queue (right axis)')]))
    fig.savefig(path)
    plt.close(fig)


def window_of(r):
    m = r.m
    if r.onset is None or 'window_t1_ns' not in m:
        return None
    return r.onset, m['window_t1_ns']


def fig_queue_cdf(scen, by, path):
    fig, ax = plt.subplots(figsize=(7, 3.8), dpi=DPI)
    for a in sorted(by, key=algo_key):
        vals = []
        for r in by[a]:
            w = window_of(r)
            if w:
                vals += [b / 1e3 for t, b in r.queue() if w[0] <= t <= w[1]]
        if vals:
            x, y = ecdf(vals)
            ax.step(x, y, where='post', color=ALGO_COLOR.get(a, 'k'), lw=1.6,
                    label='%s (%d runs)' % (NAMES.get(a, a), len(by[a])))
    ax.set_xlabel('bottleneck queue (KB), from the onset to the end of the all-active window')
    ax.set_ylabel('fraction of samples ≤ x')
    ax.set_ylim(0, 1.01)
    ax.set_xlim(left=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, loc='lower right')
    ax.set_title('%s: queue CDF, every repeat pooled (left and up is better)' % scen, fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def share_ratios(r):
    m, w = r.m, window_of(r)
    if not w or not m.get('fair_mbps'):
        return []
    T = m.get('period_ms', 4.0) * 1e6
    fair = m['fair_mbps'] * 1e6
    win = int(m.get('rate_window_periods', O.WINDOW_PERIODS) * T)
    out = []
    for _, cum in r.flow_series():
        if M.active_interval(cum):
            out += [v / fair for _, v in O.window_rates(cum, w[0], w[1], win, int(T / 4))]
    return out


def fig_share_cdf(scen, by, path):
    fig, ax = plt.subplots(figsize=(7, 3.8), dpi=DPI)
    for a in sorted(by, key=algo_key):
        vals = [v for r in by[a] for v in share_ratios(r)]
        if vals:
            x, y = ecdf(vals)
            ax.step(x, y, where='post', color=ALGO_COLOR.get(a, 'k'), lw=1.6,
                    label=NAMES.get(a, a))
    ax.axvspan(0.9, 1.1, color='g', alpha=0.08, label='±10 % of the fair share')
    ax.axvline(1, color='k', lw=0.6, ls=':')
    ax.set_xlabel('flow rate ÷ fair share (windows of 5 T, from the onset)')
    ax.set_ylabel('fraction ≤ x')
    ax.set_ylim(0, 1.01)
    ax.set_xlim(0, 2)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=9, loc='upper left')
    ax.set_title('%s: fairness, every flow and repeat pooled (steep at 1 is better)' % scen,
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def pfc_series(r, t0, t1):
    """{port: (bin starts s from the onset, PFC frames/s sent out of it,
    share of each bin its switch egress was paused, share its host's NIC
    was paused)} of the ports that sent a PFC frame or were paused; port
    "SW:NAME".  The NIC's pause is the switch's XOFF state for that
    ingress (nic_paused); lsw's CSV has the egress's paused time only."""
    bin_ns = BIN_MS * 10 ** 6
    out = {}
    xoff, xon = r.conf.get('xoff'), r.conf.get('xon')
    for (sw, pt, p), rows in sorted(r.ts.items()):
        if not rows or p != PRIO:
            continue
        cum = [(x['time_ns'], int(x.get('pfc_tx', 0) or 0)) for x in rows]
        frames = M.rate_series(cum, t0, t1, bin_ns)   # 8 x frames/s
        fps = np.array([v / 8 for _, v in frames])
        pn = [(x['time_ns'], int(x.get('paused_ns', 0) or 0)) for x in rows]
        egress = np.array([v / 8 / 1e9 for _, v in M.rate_series(pn, t0, t1, bin_ns)])
        starts = np.array([(t - r.onset) / 1e9 for t, _ in frames])
        nic = np.zeros(len(starts))
        if pt.startswith('h') and xoff:
            _, share = held_per_bin(nic_paused(rows, xoff, xon or xoff), t0, t1, bin_ns)
            n = min(len(share), len(nic))
            nic[:n] = share[:n]
        if len(fps) and max(fps.max(), egress.max(), nic.max()) > 0:
            out['%s:%s' % (sw, pt)] = (starts, fps, egress, nic)
    return out


def port_color(label, seen):
    """A host port hK in flow K's colour; any other port the next free one."""
    name = label.split(':')[-1]
    if name[:1] == 'h' and name[1:].isdigit():
        return FLOW_COLORS[int(name[1:]) % 10]
    return seen.setdefault(label, FLOW_COLORS[(5 + len(seen)) % 10])


def fig_pfc(scen, reps, path):
    from matplotlib.lines import Line2D
    n = len(reps)
    fig, axs = plt.subplots(n, 2, figsize=(12, 1.8 * n + 0.9), sharex=True, squeeze=False,
                            dpi=DPI)
    xr = shared_xrange(reps)
    labels, other = {}, {}
    fmax = 0
    for row, r in zip(axs, reps):
        if r.onset is None:
            continue
        t0, t1 = r.onset + int(xr[0] * 1e9), r.onset + int(xr[1] * 1e9)
        ser = pfc_series(r, t0, t1)
        for lab, (x, fps, egress, nic) in ser.items():
            c = labels.setdefault(lab, port_color(lab, other))
            if fps.max() > 0:
                row[0].step(x, fps, where='post', color=c, lw=1.2)
                fmax = max(fmax, fps.max())
            if nic.max() > 0:
                row[1].step(x, nic, where='post', color=c, lw=1.4)
            if egress.max() > 0:
                row[1].step(x, egress, where='post', color=c, lw=1.2, ls='--')
        tot = r.m.get('paused_s')
        row[0].set_title('%s (%s): %s PFC frames' % (NAMES.get(r.algo, r.algo), r.rep,
                                                   S.fmt(r.m, 'pfc_tx', '%d', 1)),
                         fontsize=10, loc='left')
        row[1].set_title('paused: %s s in all, NICs and egresses (lsw\'s counters)'
                         % ('–' if tot is None else '%.2f' % tot), fontsize=10, loc='left')
        for ax in row:
            ax.axvline(0, color='k', lw=0.6, ls=':')
            ax.grid(alpha=0.3)
        row[0].set_ylabel('frames/s')
        row[1].set_ylabel('share paused')
        row[1].set_ylim(0, 1.05)
        if not ser:
            row[0].text(0.5, 0.5, 'no PFC frame, no pause', transform=row[0].transAxes,
                        ha='center', va='center', color='0.4')
    for row in axs:
        row[0].set_ylim(0, max(fmax * 1.1, 1))
    axs[-1, 0].set_xlim(*xr)
    axs[-1, 0].set_xlabel('s from the onset')
    axs[-1, 1].set_xlabel('s from the onset')
    h = [Line2D([], [], color=c, lw=2, label='port %s' % lab) for lab, c in labels.items()]
    h += [Line2D([], [], color='k', lw=1.4, label='host NIC paused'),
          Line2D([], [], color='k', lw=1.2, ls='--', label='switch egress paused')]
    top(fig, '%s: PFC frames the switch sent out of each port (bins of %d ms), and the '
        'share of each bin a port was paused' % (scen, BIN_MS), h)
    fig.savefig(path)
    plt.close(fig)


def cnp_series(r):
    """{(dev, qpn): [(t_s from the onset, alpha)]} of rxe_cc_cnp handled."""
    out = {}
    if r.t_on is None:
        return out
    for t, name, kv in r.ev:
        if name == 'rxe_cc_cnp' and kv.get('what') == 'handled':
            out.setdefault((kv.get('dev'), kv.get('qpn')), []).append(
                (t - r.t_on, kv.get('alpha', 0) / 1024))
    return out


def fig_dcqcn(scen, reps, path):
    reps = [r for r in reps if r.algo.startswith('dcqcn')]
    if not reps:
        return False
    n = len(reps)
    fig, axs = plt.subplots(n, 2, figsize=(12, 1.9 * n + 0.8), sharex=True, squeeze=False,
                            dpi=DPI)
    xr = shared_xrange(reps)
    edges = np.arange(xr[0], xr[1] + BIN_MS / 1e3, BIN_MS / 1e3)
    for row, r in zip(axs, reps):
        ser = cnp_series(r)
        for (dev, qpn), pts in sorted(ser.items(), key=lambda kv: str(kv[0])):
            k = int(str(dev).replace('rxe_h', '') or 0) if str(dev).startswith('rxe_h') else 0
            c = FLOW_COLORS[k % 10]
            h, _ = np.histogram([t for t, _ in pts], bins=edges)
            row[0].step(edges[:-1], h / (BIN_MS / 1e3), where='post', color=c, lw=1.2)
            row[1].plot([t for t, _ in pts], [a for _, a in pts], '.', ms=3, color=c)
        row[0].set_title('%s (%s): CNPs handled per second, per sender'
                         % (NAMES.get(r.algo, r.algo), r.rep), fontsize=10, loc='left')
        row[1].set_title('alpha at each CNP handled (1 = the largest cut)', fontsize=10,
                         loc='left')
        row[1].set_ylim(0, 1.05)
        if not ser:
            row[0].text(0.5, 0.5, 'no CNP in the trace', transform=row[0].transAxes,
                        ha='center', va='center', color='0.4')
        for ax in row:
            ax.axvline(0, color='k', lw=0.6, ls=':')
            ax.grid(alpha=0.3)
    axs[-1, 0].set_xlim(*xr)
    axs[-1, 0].set_xlabel('s from the onset (trace clock)')
    axs[-1, 1].set_xlabel('s from the onset (trace clock)')
    nflows = max((len(r.m.get('flows', [])) for r in reps), default=0)
    top(fig, '%s: DCQCN from the rxe_cc trace' % scen, flow_handles(nflows))
    fig.savefig(path)
    plt.close(fig)
    return True


def fig_bars(scen, by, path):
    keys = [b for b in BARS if any(r.m.get(b[0]) is not None for a in by for r in by[a])]
    if not keys:
        return False
    algos = sorted(by, key=algo_key)
    cols = 4
    rows = (len(keys) + cols - 1) // cols
    fig, axs = plt.subplots(rows, cols, figsize=(3.1 * cols, 2.5 * rows), squeeze=False,
                            dpi=DPI)
    for ax, (key, label, sc) in zip(axs.flat, keys):
        for i, a in enumerate(algos):
            v = [r.m[key] * sc for r in by[a] if isinstance(r.m.get(key), (int, float))]
            if not v:
                ax.text(i, 0, 'n/a', ha='center', va='bottom', fontsize=8, color='0.4')
                continue
            med = float(np.median(v))
            ax.bar(i, med, color=ALGO_COLOR.get(a, 'k'), alpha=0.75, width=0.7)
            ax.errorbar(i, med, yerr=[[med - min(v)], [max(v) - med]], color='k',
                        capsize=4, lw=1)
            ax.plot([i] * len(v), v, 'o', color='k', ms=3)
        ax.set_title(label, fontsize=10)
        ax.set_xticks(range(len(algos)))
        ax.set_xticklabels([a.replace('dcqcn-paper', 'dcqcn\npaper') for a in algos],
                           fontsize=8)
        ax.grid(alpha=0.3, axis='y')
    for ax in list(axs.flat)[len(keys):]:
        ax.axis('off')
    n = max(len(v) for v in by.values())
    fig.suptitle('%s: median of %d repeat%s (bar), smallest to largest (whiskers), each '
                 'repeat (dot)' % (scen, n, '' if n == 1 else 's'), fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def fig_fct(scen, by, path):
    have = [(a, r) for a in by for r in by[a] if r.m.get('short_flows')]
    if not have:
        return False
    fig, axs = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True, dpi=DPI)
    for a in sorted(by, key=algo_key):
        rs = [r for r in by[a] if r.m.get('short_flows')]
        small = [f['slowdown'] for r in rs for f in r.m['short_flows']
                 if f.get('slowdown') and f['bytes'] <= r.m.get('small_bytes', 0)]
        large = [f['slowdown'] for r in rs for f in r.m['short_flows']
                 if f.get('slowdown') and f['bytes'] > r.m.get('small_bytes', 0)]
        for ax, v in zip(axs, (small, large)):
            if v:
                x, y = ecdf(v)
                ax.step(x, y, where='post', color=ALGO_COLOR.get(a, 'k'), lw=1.6,
                        label='%s (n=%d)' % (NAMES.get(a, a), len(v)))
    sb = max((r.m.get('small_bytes', 0) for _, r in have), default=0)
    axs[0].set_title('small flows (≤ %d B)' % sb, fontsize=10)
    axs[1].set_title('larger short flows (> %d B)' % sb, fontsize=10)
    for ax in axs:
        ax.set_xscale('log')
        ax.set_xlabel('FCT slowdown (1 = no queue)')
        ax.grid(alpha=0.3, which='both')
        ax.legend(fontsize=8, loc='lower right')
    axs[0].set_ylabel('fraction ≤ x')
    fig.suptitle('%s: FCT slowdown CDF by size, every repeat pooled (left is better)' % scen,
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def lat_samples(r):
    out = []
    for f in r.flows:
        if f['tool'] != 'ib_write_lat':
            continue
        try:
            with open(os.path.join(r.dir, 'flow-%d.client.txt' % f['id'])) as fh:
                out += M.parse_perftest_lat(fh.read())
        except OSError:
            pass
    return out


def fig_lat(scen, by, path):
    fig, ax = plt.subplots(figsize=(7, 3.8), dpi=DPI)
    any_ = False
    for a in sorted(by, key=algo_key):
        v = [x for r in by[a] for x in lat_samples(r)]
        if v:
            any_ = True
            x, y = ecdf(v)
            ax.step(x, y, where='post', color=ALGO_COLOR.get(a, 'k'), lw=1.6,
                    label='%s (n=%d)' % (NAMES.get(a, a), len(v)))
    if not any_:
        plt.close(fig)
        return False
    ax.set_xscale('log')
    ax.set_xlabel('ib_write_lat latency (us)')
    ax.set_ylabel('fraction ≤ x')
    ax.grid(alpha=0.3, which='both')
    ax.legend(fontsize=9, loc='lower right')
    ax.set_title('%s: latency CDF beside the incast, every repeat pooled' % scen, fontsize=11)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


FAILED = []   # (scen, figure) that raised: named on stderr, exit 1


def figures(out):
    """Writes every figure; returns {scen: [png paths]}."""
    made = {}
    for scen, byr in sorted(load(out).items()):
        if scen == 'S1':
            continue
        by = {a: [Run(r) for r in rs] for a, rs in byr.items()}
        for a, rs in by.items():
            for i, r in enumerate(rs):
                r.rep = os.path.basename(r.dir) if len(rs) > 1 else 'one run'
        rep_raw = S.representative(byr)
        reps = []
        for a in sorted(by, key=algo_key):
            d = rep_raw[a]['dir']
            reps += [r for r in by[a] if r.dir == d]
        d = os.path.join(out, scen)
        os.makedirs(d, exist_ok=True)
        paths = []
        for fn, arg, name in ((fig_bars, by, 'bars.png'), (fig_onset, reps, 'onset.png'),
                              (fig_rates, reps, 'rates.png'), (fig_queue, reps, 'queue.png'),
                              (fig_queue_cdf, by, 'queue-cdf.png'),
                              (fig_share_cdf, by, 'share-cdf.png'), (fig_pfc, reps, 'pfc.png'),
                              (fig_dcqcn, reps, 'dcqcn.png'), (fig_fct, by, 'fct-cdf.png'),
                              (fig_lat, by, 'lat-cdf.png')):
            path = os.path.join(d, name)
            if os.path.exists(path):     # never a figure of an older run
                os.remove(path)
            try:
                drawn = fn(scen, arg, path) is not False
            except Exception as e:  # noqa: BLE001 - one figure's failure is named, the rest drawn
                print('%s %s: %s: %s' % (scen, name, type(e).__name__, e), file=sys.stderr)
                FAILED.append((scen, name))
                plt.close('all')
                drawn = False
            if drawn and os.path.exists(path):
                paths.append(path)
        made[scen] = paths
    return made


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    for scen, paths in figures(argv[0]).items():
        print('%s: %s' % (scen, ' '.join(os.path.basename(x) for x in paths)))
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

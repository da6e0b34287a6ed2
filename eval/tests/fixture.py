# SPDX-License-Identifier: GPL-2.0
"""A small evaluation in the layout eval/run writes (OUT/runs.tsv,
OUT/SCEN/ALGO/rK/ with lsw's CSV and counters, flows.tsv, perftest output,
the rxe_cc trace, knob dumps), made from fixed numbers so that the report
(summary.py, figures.py, report.py, render-check) runs in eval-unit without
a VM.  make_out(d) writes it and runs eval/metrics.py on every run.

S2-2to1, 4 algorithms x 2 repeats, 4 s at 10 ms samples, h0 from 0 s and h1
from 1 s into h2 at 20 Mb/s (T = 40 ms):
  * none: no CC; the queue at h2 fills to 40 KB and the switch pauses both
    senders' NICs (their ingress reaches xoff 30 KB) 0.3 s in every second,
    the egress never paused (a one-switch incast); each XOFF and XON is a
    PFC frame;
  * dcqcn, dcqcn-paper: the queue at 20 / 12 KB, CNPs handled by both QPs
    every 50 ms with alpha falling from 1023;
  * acc: the queue at 5 KB, a halt of each QP every 200 ms.
Rates: 10 Mb/s each while both send, repeat 2 converging later (the
split is 14/6 Mb/s for its first 0.2 s per repeat index and algorithm).

S4 and S5, none and acc, one repeat each: the same incast, and beside it
  * S4: ib_write_lat h3 -> h2 from 1.5 s, 300 samples of 64 B (-H), each
    the base latency plus the time the bottleneck queue takes to drain;
  * S5: 16 short flows h3,h4 -> h2 of 2 KB-1.3 MB, from 1.2 s, each
    slowed down by the queue (perftest's report gives the FCT).
Enough that every figure kind is drawn (fct-cdf.png, lat-cdf.png too).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
import fct as F  # noqa: E402
import metrics as M  # noqa: E402

ALGOS = ['none', 'dcqcn', 'dcqcn-paper', 'acc']
QUEUE_KB = {'none': 40, 'dcqcn': 20, 'dcqcn-paper': 12, 'acc': 5}
STEP_NS = 10_000_000
T_END_NS = 4_000_000_000
XOFF, XON = 30_000, 27_000
DEFAULTS = {'algorithm': 'none', 'acc_period_us': '50', 'ack_dscp': '-1',
            'rpg_ai_rate_kbps': '5000', 'rpg_ai_rate_mbps': '5',
            'available': 'none dcqcn acc'}


def conv_ns(algo, rep):
    """When the two flows settle at 10/10 Mb/s after h1's start."""
    return 1_000_000_000 + 200_000_000 * (rep + ALGOS.index(algo) % 2)


def rates(algo, rep, t):
    """(h0, h1) Mb/s at t ns."""
    if t < 1_000_000_000:
        return 20.0, 0.0
    if t < conv_ns(algo, rep):
        return 14.0, 6.0
    return 10.0, 10.0


# S5's short flows: (host, start s, iters, size); sizes of the web-search
# mix scaled down (eval/websearch.py), 8 at most SMALL_BYTES.
SHORT = [(3 + k % 2, 1.2 + 0.15 * k, it, sz) for k, (it, sz) in enumerate(
    [(1, 2048), (2, 2048), (1, 4096), (3, 4096), (2, 8192), (1, 16384), (3, 4096),
     (2, 8192), (4, 65536), (6, 65536), (10, 65536), (20, 65536), (1, 262144),
     (3, 262144), (2, 524288), (5, 262144)])]
SMALL_BYTES = 20_000
PERIOD_MS = 40
LINE_BPS = 20_000_000


def bw_report(iters, size, secs):
    """ib_write_bw's report of iters x size bytes in secs."""
    mib = iters * size / secs / 2 ** 20
    return ('---------------------------------------------------------------------------------------\n'
            ' #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n'
            ' %-10d %-16d %-18.2f %-20.2f %.6f\n'
            '---------------------------------------------------------------------------------------\n'
            % (size, iters, mib * 1.1, mib, iters / secs / 1e6))


def lat_report(samples):
    """ib_write_lat -H's report: the summary, then every sample."""
    srt = sorted(samples)
    return ('---------------------------------------------------------------------------------------\n'
            ' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]'
            '    t_stdev[usec]   99%% percentile[usec]   99.9%% percentile[usec] \n'
            ' 64      %d          %.2f        %.2f     %.2f     \t%.2f        %.2f\t\t%.2f'
            '  \t\t%.2f   \n'
            '---------------------------------------------------------------------------------------\n'
            '#, usec\n' % (len(srt), srt[0], srt[-1], srt[len(srt) // 2],
                           sum(srt) / len(srt), 1.0, srt[len(srt) * 99 // 100], srt[-1]) +
            ''.join('%d, %.2f\n' % (i + 1, v) for i, v in enumerate(samples)))


def queue_delay_us(algo, k):
    """The time the bottleneck takes to drain its queue, in us (k: sample)."""
    return (QUEUE_KB[algo] * 1000 + (k % 5) * 500) * 8 / (LINE_BPS / 1e6)


def write_extra(d, scen, algo, flows):
    """S4's latency flow or S5's short flows: their rows of flows.tsv, and
    their perftest reports."""
    if scen == 'S4':
        # a fixed base of 60 us with a jitter of up to 30 us, then the queue
        lat = [60 + (k * 37 % 31) + queue_delay_us(algo, k) for k in range(300)]
        with open(os.path.join(d, 'flow-2.client.txt'), 'w') as fh:
            fh.write(lat_report(lat))
        flows.append('2\t3\t2\tib_write_lat\t1.5\t300\t64\t0\t1.5\t3.5\n')
    elif scen == 'S5':
        for i, (h, t0, it, sz) in enumerate(SHORT):
            ideal = F.ideal_fct_s(it, sz, LINE_BPS, PERIOD_MS / 1e3)
            fct = ideal + queue_delay_us(algo, i) / 1e6 * (1 + i % 3)
            fid = 2 + i
            with open(os.path.join(d, 'flow-%d.client.txt' % fid), 'w') as fh:
                fh.write(bw_report(it, sz, fct))
            flows.append('%d\t%d\t2\tib_write_bw\t%.2f\t%d\t%d\t0\t%.2f\t%.2f\n'
                         % (fid, h, t0, it, sz, t0, t0 + fct))


def write_run(d, algo, rep, scen='S2-2to1'):
    os.makedirs(d, exist_ok=True)
    rows = ['time_ns,switch,port,prio,queue_bytes,paused,tcd_state,ingress_bytes,'
            'host_queue_bytes,bytes_in,bytes_out,pfc_tx,paused_ns']
    cum = [0.0, 0.0]
    out = 0.0
    pfc = {'h0': 0, 'h1': 0}
    state = {'h0': 0, 'h1': 0}
    for k in range(T_END_NS // STEP_NS + 1):
        t = k * STEP_NS
        r0, r1 = rates(algo, rep, t)
        cum[0] += r0 * 1e6 / 8 * STEP_NS / 1e9
        cum[1] += r1 * 1e6 / 8 * STEP_NS / 1e9
        out += (r0 + r1) * 1e6 / 8 * STEP_NS / 1e9
        both = t >= 1_000_000_000
        q = QUEUE_KB[algo] * 1000 + (k % 5) * 500 if both else 0
        for h, c in (('h0', cum[0]), ('h1', cum[1])):
            # none: the ingress of both senders crosses xoff for the first
            # 0.3 s of every second once both send (an XOFF, then an XON)
            ing = 0
            if algo == 'none' and both and (t % 1_000_000_000) < 300_000_000:
                ing = XOFF + 1000
            on = 1 if ing >= XOFF else 0
            if on != state[h]:
                pfc[h] += 1
                state[h] = on
            rows.append('%d,s1,%s,3,0,0,NO,%d,0,%d,0,%d,0' % (t, h, ing, int(c), pfc[h]))
        rows.append('%d,s1,h2,3,%d,0,NO,0,0,0,%d,0,0' % (t, q, int(out)))
    with open(os.path.join(d, 'lsw-timeseries.csv'), 'w') as fh:
        fh.write('\n'.join(rows) + '\n')

    def pr(**kw):
        base = {'prio': 3, 'bytes_in': 0, 'frames_out': 0, 'bytes_out': 0, 'drops': 0,
                'pfc_tx': 0, 'xoff_tx': 0, 'paused_ns': 0, 'host_paused_ns': 0,
                'queue_peak_bytes': 0, 'ce_marks': 0, 'ue_marks': 0, 'ect0_in': 0,
                'ect1_in': 0, 'ce_in': 0, 'tx_first_ns': 0, 'tx_last_ns': 0,
                'host_drops': 0}
        base.update(kw)
        return base
    paused = 900_000_000 if algo == 'none' else 0
    js = {'time_ns': T_END_NS, 'switches': [{'name': 's1', 'ports': [
        {'name': 'h0', 'rate_bps': 20_000_000,
         'prio': [pr(bytes_in=int(cum[0]), pfc_tx=pfc['h0'], host_paused_ns=paused)]},
        {'name': 'h1', 'rate_bps': 20_000_000,
         'prio': [pr(bytes_in=int(cum[1]), pfc_tx=pfc['h1'], host_paused_ns=paused)]},
        {'name': 'h2', 'rate_bps': 20_000_000,
         'prio': [pr(bytes_out=int(out * 0.976), frames_out=int(out / 1000),
                     tx_first_ns=0, tx_last_ns=T_END_NS,
                     queue_peak_bytes=(QUEUE_KB[algo] + 2) * 1000)]}]}]}
    with open(os.path.join(d, 'lsw-counters.json'), 'w') as fh:
        json.dump(js, fh)
    flows = ['# id src dst tool start_s iters size rc t0 t1\n',
             '0\t0\t2\tib_write_bw\t0\t100\t65536\t0\t0.0\t4.0\n',
             '1\t1\t2\tib_write_bw\t1\t60\t65536\t0\t1.0\t4.0\n']
    for i, name in enumerate(('flow-0.client.txt', 'flow-1.client.txt')):
        with open(os.path.join(d, name), 'w') as fh:
            fh.write(bw_report((100, 60)[i], 65536, (4.0, 3.0)[i] * 1.05))
    write_extra(d, scen, algo, flows)
    with open(os.path.join(d, 'flows.tsv'), 'w') as fh:
        fh.writelines(flows)
    with open(os.path.join(d, 'lsw.conf'), 'w') as fh:
        fh.write('rate 20Mbps\nmarking %s\nxoff 30KB\nxon 27KB\nred_kmin 15000\n'
                 % ('tcd' if algo == 'acc' else 'red'))
    # The trace: the guest's clock runs 100 s ahead of lsw's.
    ev = []
    g = 100.0
    for h, t0 in ((0, 0.0), (1, 1.0)):
        ev.append((g + t0, 'rxe_cc_first_send', 'dev=rxe_h%d qpn=17 rate_bps=20000000' % h))
    if algo.startswith('dcqcn'):
        alpha = 1023
        for k in range(60):
            t = 1.0 + k * 0.05
            alpha = max(16, alpha * 15 // 16)
            for h in (0, 1):
                ev.append((g + t, 'rxe_cc_cnp', 'dev=rxe_h%d qpn=17 what=handled alpha=%d'
                           % (h, alpha)))
                ev.append((g + t, 'rxe_cc_rate', 'dev=rxe_h%d qpn=17 old_bps=12000000 '
                           'new_bps=10000000 why=cnp' % h))
    if algo == 'acc':
        for k in range(15):
            t = 1.05 + k * 0.2
            for h in (0, 1):
                ev.append((g + t, 'rxe_cc_halt', 'dev=rxe_h%d qpn=17' % h))
                ev.append((g + t + 0.004, 'rxe_cc_halt_end', 'dev=rxe_h%d qpn=17 '
                           'rate_bps=10200000' % h))
    ev.sort()
    with open(os.path.join(d, 'trace.txt'), 'w') as fh:
        fh.write(''.join(' ib_write_bw-1 [000] ..... %.6f: %s: %s\n' % e for e in ev))
    knobs = dict(DEFAULTS, algorithm=algo.split('-')[0], ack_dscp='48')
    if algo == 'dcqcn-paper':
        knobs.update(rpg_ai_rate_kbps='40', rpg_ai_rate_mbps='0')
    with open(os.path.join(d, 'cc-rxe_h0.txt'), 'w') as fh:
        fh.write(''.join('%s=%s\n' % kv for kv in sorted(knobs.items())))
    with open(os.path.join(d, 'knobs-before.txt'), 'w') as fh:
        fh.write(''.join('rxe_h0 %s=%s\n' % kv for kv in sorted(DEFAULTS.items())))
    with open(os.path.join(d, 'host-load.txt'), 'w') as fh:
        fh.write('0.5\n0.7\n')
    M.analyse(d, 's1:h2', bin_ms=200, period_ms=PERIOD_MS,
              short_hosts=(3, 4) if scen == 'S5' else (),
              small_bytes=SMALL_BYTES if scen == 'S5' else 0)


def make_out(out, reps=2, extra=True):
    """Writes the fixture evaluation into out (S2-2to1, and S4 and S5
    unless extra is False); returns out."""
    os.makedirs(out, exist_ok=True)
    lines = []
    for rep in range(1, reps + 1):
        for a in ALGOS:
            d = os.path.join(out, 'S2-2to1', a, 'r%d' % rep)
            write_run(d, a, rep)
            lines.append('S2-2to1\t%s\tok\t60\t%s\n' % (a, d))
    for scen in (('S4', 'S5') if extra else ()):
        for a in ('none', 'acc'):
            d = os.path.join(out, scen, a)
            write_run(d, a, 1, scen)
            lines.append('%s\t%s\tok\t60\t%s\n' % (scen, a, d))
    with open(os.path.join(out, 'runs.tsv'), 'w') as fh:
        fh.writelines(lines)
    return out


if __name__ == '__main__':
    print(make_out(sys.argv[1]))

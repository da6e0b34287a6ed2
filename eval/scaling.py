#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The scaling rule: knobs of a 25-100 Gb/s fabric, carried to the test bed.

Documentation/rxe-acc/scaling.rst states the rule; this file is the one
place that computes it (eval/run, the report and the unit simulation's
generated header all read it).  With k_t = RTT here / RTT ref and
k_r = line here / line ref:

  * times (timers, periods, CNP gap)      x k_t
  * rates (AI, HAI, floor, cap)           x k_r, in kb/s, at least 1 kb/s
  * bytes (byte counter)                  x k_b = k_t * k_r (the BDP ratio)
  * dimensionless (F, g, gd, alpha, %)    unchanged
  * the frame                             x k_b, i.e. packets per RTT kept:
    the RoCE MTU whose frame is nearest (reference MTU 4096)
  * marking: one point K for both algorithms (TCD K for ACC, RED Kmin or the
    step for DCQCN), K = MARK_BDP bandwidth-delay products; RED's Kmax is
    min(2 K, 0.9 XOFF) with XOFF = 3 BDPs, so that ECN saturates before PFC.

  scaling.py knobs PRESET [--line-bps B] [--rtt-us T] [--window]
                                                        "name=value ..." (cc/)
  scaling.py lsw PRESET   [...]                         lsw config lines
  scaling.py pfc PRESET   [...]                         "XOFF XON" in bytes
  scaling.py table        [...]                         reST table of presets
  scaling.py c-header     [...]                         C header for the sim
Presets: mlx5 (mlx5 defaults, ratios preserved), paper (DCQCN as in its
paper), acc (ACC).  Python 3 stdlib only.
"""
import argparse
import math
import sys

# The test bed (Documentation/rxe-acc/scaling.rst, "The test bed").
BED_LINE_BPS = 20_000_000
BED_RTT_US = 4000          # ACC's period T: base RTT 1.3-2.2 ms plus VM jitter
BED_XOFF_BYTES = 30_000    # lsw default: 3 BDPs of the test bed
XOFF_BDP = 3.0             # XOFF in BDPs, at every scale
MARK_BDP = 1.5             # the shared marking point K, in BDPs
KMAX_OF_XOFF = 0.9         # RED Kmax at most this fraction of XOFF
PFC_XON_GAP_BYTES = 3000   # XOFF - XON: two 1500 B frames (TCD's advice)
TCD_PERIOD_RTT = 0.125     # TCD's period in RTTs (lsw's 0.5 ms of 4 ms)
ROCE_MTUS = (256, 512, 1024, 2048, 4096)
ROCE_FRAME_OVERHEAD = 82   # Ethernet, IPv4, UDP, BTH, RETH, ICRC, FCS
REF_MTU = 4096             # the reference fabric's RoCE MTU

# Kinds of knob: how each scales.
TIME, RATE, BYTES, ONE = 'time_us', 'rate_kbps', 'bytes', 'dimensionless'

# DCQCN knobs: mlx5's firmware defaults (rxe_cc_dcqcn.c), reference 25 Gb/s
# and a 40 us RTT; and Zhu et al., SIGCOMM'15, at 40 Gb/s: timers T = K =
# 55 us, CNP gap N = 50 us, B = 10 MB, F = 5, g = 1/256 (1020 of 1024
# kept), R_AI = 40 Mb/s, RT = RC on every cut.  The paper gives no R_HAI
# with these: 10 x R_AI (mlx5's ratio) is our assumption.
DCQCN_KNOBS = [  # (sysfs name, kind, mlx5, paper)
    ('rpg_time_reset', TIME, 300, 55),
    ('rpg_byte_reset', BYTES, 32767, 10_000_000),
    ('rpg_ai_rate_kbps', RATE, 5000, 40_000),
    ('rpg_hai_rate_kbps', RATE, 50000, 400_000),
    ('rpg_min_rate_kbps', RATE, 1000, 1000),
    ('rpg_threshold', ONE, 1, 5),
    ('rpg_gd', ONE, 11, 11),
    ('rpg_min_dec_fac', ONE, 50, 50),
    ('dce_tcp_g', ONE, 1019, 1020),
    ('dce_tcp_rtt', TIME, 1, 55),
    ('rate_reduce_monitor_period', TIME, 4, 0),
    ('initial_alpha_value', ONE, 1023, 1023),
    ('clamp_tgt_rate', ONE, 0, 1),
    ('min_time_between_cnps', TIME, 0, 50),
]
# Marking: RED from K (mlx5) or a step at K (paper), see marking().
MLX5 = {'ref_line_bps': 25_000_000_000, 'ref_rtt_us': 40, 'marking': 'red',
        'knobs': [(n, k, m) for n, k, m, _ in DCQCN_KNOBS]}
PAPER = {'ref_line_bps': 40_000_000_000, 'ref_rtt_us': 40, 'marking': 'step',
         'knobs': [(n, k, p) for n, k, _, p in DCQCN_KNOBS]}

# ACC: the period is the RTT, the halt cap 8 periods, at every scale.  The
# cap goes first: sysfs checks halt_max >= period on every write.
ACC = {
    'ref_line_bps': 25_000_000_000, 'ref_rtt_us': 40, 'marking': 'tcd',
    'knobs': [
        ('acc_halt_max_us', TIME, 320),
        ('acc_period_us', TIME, 40),
    ]}

# TIMELY: the HPCC simulator's preset (run.py, --cc timely) at 100 Gb/s,
# as the simulator runs it (sim/README.md): T_low 50 us, T_high 500 us,
# min RTT 20 us, delta 10 x bw/10 Mb/s, floor 1000 Mb/s; the RTT reference
# is DCQCN's, 40 us.  T_high goes first: the module checks T_low <= T_high.
TIMELY = {
    'ref_line_bps': 100_000_000_000, 'ref_rtt_us': 40, 'marking': 'red',
    'knobs': [
        ('timely_t_high_us', TIME, 500),
        ('timely_t_low_us', TIME, 50),
        ('timely_min_rtt_us', TIME, 20),
        ('timely_add_step_kbps', RATE, 100_000),
        ('timely_min_rate_kbps', RATE, 1_000_000),
    ]}

PRESETS = {'mlx5': MLX5, 'paper': PAPER, 'acc': ACC, 'timely': TIMELY}
# ACC's in-flight cap (acc_window_bytes, ours, Documentation/rxe-acc/acc.rst
# "In-flight cap"): one BDP of the reference fabric, 25 Gb/s x 40 us, scaled
# as bytes are.  Off unless asked (knobs --window, eval/run
# EVAL_ACC_WINDOW=1): the kernel's default is no cap until measured.
ACC_WINDOW = ('acc_window_bytes', BYTES,
              ACC['ref_line_bps'] * ACC['ref_rtt_us'] // 8_000_000)
# Test-bed settings that are not scaled: the VM's timer granularity needs a
# 5 ms pacer burst; ACC's theta_CE 75 % (5 ACKs per period, see results.rst).
BED_EXTRA = {'mlx5': [('pacer_burst_us', 5000)],
             'paper': [('pacer_burst_us', 5000)],
             'acc': [('pacer_burst_us', 5000), ('acc_theta_ce_pct', 75)],
             'timely': [('pacer_burst_us', 5000)]}


def factors(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US):
    """(k_t, k_r, k_b) of PRESET's reference to (line_bps, rtt_us)."""
    p = PRESETS[preset]
    k_t = rtt_us / p['ref_rtt_us']
    k_r = line_bps / p['ref_line_bps']
    return k_t, k_r, k_t * k_r


def frame_bytes(mtu):
    return mtu + ROCE_FRAME_OVERHEAD


def bed_mtu(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US):
    """The RoCE MTU whose frame is nearest (in ratio) to the reference frame
    x k_b: the one that keeps the packets per RTT."""
    want = frame_bytes(REF_MTU) * factors(preset, line_bps, rtt_us)[2]
    return min(ROCE_MTUS, key=lambda m: abs(math.log(frame_bytes(m) / want)))


def scale_value(kind, value, k_t, k_r):
    """One knob at the new scale, as the integer its sysfs file takes."""
    if kind == TIME:
        return int(round(value * k_t))
    if kind == RATE:
        return max(1, int(round(value * k_r)))
    if kind == BYTES:
        return int(round(value * k_t * k_r))
    return value


def marking(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US):
    """Switch marking at this scale: {'mode', 'k', 'kmin', 'kmax', 'pmax',
    'xoff'} in bytes, all in proportion to the BDP."""
    bdp = line_bps * rtt_us / 1e6 / 8
    k = int(round(MARK_BDP * bdp))
    xoff = int(round(XOFF_BDP * bdp))
    mode = PRESETS[preset]['marking']
    if mode == 'tcd':
        m = {'mode': 'tcd', 'k': k}
    elif mode == 'step':
        m = {'mode': 'red', 'k': k, 'kmin': k, 'kmax': k, 'pmax': 1.0}
    else:
        kmax = int(min(2 * k, KMAX_OF_XOFF * xoff))
        m = {'mode': 'red', 'k': k, 'kmin': k, 'kmax': kmax, 'pmax': 0.2}
    m['xoff'] = xoff
    if m.get('kmax', k) >= xoff:
        raise ValueError('%s: marking saturates at %d B, not below XOFF %d B'
                         % (preset, m.get('kmax', k), xoff))
    return m


def knobs(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US, extra=True,
          window=False):
    """[(sysfs name, value)] of PRESET at this scale; window: ACC's
    in-flight cap of one BDP too (ACC_WINDOW, acc only)."""
    k_t, k_r, _ = factors(preset, line_bps, rtt_us)
    out = [(n, scale_value(kind, v, k_t, k_r))
           for n, kind, v in PRESETS[preset]['knobs']]
    if window and preset == 'acc':
        n, kind, v = ACC_WINDOW
        out.append((n, scale_value(kind, v, k_t, k_r)))
    if extra:
        out += BED_EXTRA.get(preset, [])
    return out


def pfc_bytes(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US):
    """(XOFF, XON) of lsw at this scale: XOFF = XOFF_BDP BDPs, XON two
    1500 B frames below it, as TCD recommends (30 and 27 KB on the test
    bed at the default RTT, lsw's defaults)."""
    xoff = marking(preset, line_bps, rtt_us)['xoff']
    return xoff, xoff - PFC_XON_GAP_BYTES


def lsw_lines(preset, line_bps=BED_LINE_BPS, rtt_us=BED_RTT_US, ecn_only=False):
    """lsw's marking lines.  ecn_only: what a commodity WRED/ECN switch can
    do instead of TCD, a step to CE at the same K (RED, Kmin = Kmax = K,
    Pmax = 1), and no UE (lab.rst, "ACC on an ECN-only switch")."""
    m = marking(preset, line_bps, rtt_us)
    if m['mode'] == 'tcd' and ecn_only:
        return ['red_kmin %d' % m['k'], 'red_kmax %d' % m['k'], 'red_pmax 1']
    if m['mode'] == 'tcd':
        return ['tcd_threshold %d' % m['k'],
                'tcd_period %dus' % int(round(TCD_PERIOD_RTT * rtt_us))]
    return ['red_kmin %d' % m['kmin'], 'red_kmax %d' % m['kmax'],
            'red_pmax %g' % m['pmax']]


def table(line_bps, rtt_us):
    """reST table: each preset's reference knobs and test-bed values."""
    rows = []
    for name in ('mlx5', 'paper', 'acc'):
        k_t, k_r, k_b = factors(name, line_bps, rtt_us)
        p = PRESETS[name]
        rows.append(('**%s**' % name, 'ref %g Gb/s, %g us' %
                     (p['ref_line_bps'] / 1e9, p['ref_rtt_us']),
                     'k_t %g, k_r %g, k_b %g' % (k_t, k_r, k_b)))
        bed = dict(knobs(name, line_bps, rtt_us, extra=False))
        for n, kind, v in p['knobs']:
            rows.append((n, '%s %s' % (v, kind), str(bed[n])))
        rows.append(('RoCE MTU (frame x k_b)', str(REF_MTU),
                     str(bed_mtu(name, line_bps, rtt_us))))
        m = marking(name, line_bps, rtt_us)
        rows.append(('marking', m['mode'], ', '.join(
            '%s %s' % (k, m[k]) for k in ('k', 'kmin', 'kmax', 'pmax', 'xoff')
            if k in m)))
    w = [max(len(r[i]) for r in rows + [('knob', 'reference', 'test bed')])
         for i in range(3)]
    sep = '  '.join('=' * x for x in w)
    out = [sep, '  '.join(h.ljust(x) for h, x in
                          zip(('knob', 'reference', 'test bed'), w)).rstrip(), sep]
    out += ['  '.join(c.ljust(x) for c, x in zip(r, w)).rstrip() for r in rows]
    out.append(sep)
    return '\n'.join(out)


def c_header(line_bps, rtt_us):
    """Knobs of every preset at the reference and at (line_bps, rtt_us), as C
    initialisers for selftests/unit/test_scaling_sim.c."""
    out = ['/* Generated by eval/scaling.py c-header: do not edit. */',
           '#ifndef SCALED_KNOBS_H', '#define SCALED_KNOBS_H']
    for name in ('mlx5', 'paper', 'acc'):
        p = PRESETS[name]
        for tag, lb, rt in (('REF', p['ref_line_bps'], p['ref_rtt_us']),
                            ('BED', line_bps, rtt_us)):
            pre = 'SCALED_%s_%s_' % (name.upper(), tag)
            out.append('#define %sLINE_BPS %dULL' % (pre, lb))
            out.append('#define %sRTT_NS %dULL' % (pre, int(round(rt * 1000))))
            mtu = REF_MTU if tag == 'REF' else bed_mtu(name, line_bps, rtt_us)
            out.append('#define %sFRAME_BYTES %dU' % (pre, frame_bytes(mtu)))
            for n, v in knobs(name, lb, rt, extra=False):
                out.append('#define %s%s %dULL' % (pre, n.upper(), v))
            m = marking(name, lb, rt)
            out.append('#define %sMARK_KMIN %dULL' % (pre, m.get('kmin', m['k'])))
            out.append('#define %sMARK_KMAX %dULL' % (pre, m.get('kmax', m['k'])))
            out.append('#define %sMARK_PMAX_PERMILLE %dU' %
                       (pre, int(round(m.get('pmax', 1.0) * 1000))))
    out.append('/* The frame of the test bed as run today (RoCE MTU 1024). */')
    out.append('#define SCALED_BED_MTU1024_FRAME_BYTES %dU' % frame_bytes(1024))
    out.append('#endif')
    return '\n'.join(out)


def main(argv):
    ap = argparse.ArgumentParser(prog='scaling.py')
    ap.add_argument('cmd', choices=('knobs', 'lsw', 'pfc', 'table', 'c-header'))
    ap.add_argument('preset', nargs='?', choices=sorted(PRESETS))
    ap.add_argument('--line-bps', type=float, default=BED_LINE_BPS)
    ap.add_argument('--rtt-us', type=float, default=BED_RTT_US)
    ap.add_argument('--marking', choices=('tcd', 'ecn'), default='tcd',
                    help='lsw: ecn gives a RED step where the preset has TCD')
    ap.add_argument('--window', action='store_true',
                    help='knobs acc: the in-flight cap of one BDP too')
    a = ap.parse_args(argv)
    if a.cmd in ('knobs', 'lsw', 'pfc') and not a.preset:
        ap.error('%s needs a preset' % a.cmd)
    if a.cmd == 'knobs':
        print(' '.join('%s=%s' % kv for kv in
                       knobs(a.preset, a.line_bps, a.rtt_us,
                             window=a.window)))
    elif a.cmd == 'lsw':
        print('\n'.join(lsw_lines(a.preset, a.line_bps, a.rtt_us,
                                    a.marking == 'ecn')))
    elif a.cmd == 'pfc':
        print('%d %d' % pfc_bytes(a.preset, a.line_bps, a.rtt_us))
    elif a.cmd == 'table':
        print(table(a.line_bps, a.rtt_us))
    else:
        print(c_header(a.line_bps, a.rtt_us))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""eval/run --lab FILE: the evaluation on a lab's hosts and switch.

  main.py --lab FILE [--scenario S[,S...]] [--algos A[,A...]] [--out DIR]
          [--seconds N] [--quick] [--knobs "NAME=VALUE ..."] [--bed]

The scenarios and metrics are eval/run's (eval/scenarios.sh,
eval/metrics.py); the hosts come from the inventory (inventory.py) and are
reached through their transport (transport.py): ssh in a lab, a network
namespace in the VM test bed.  Order of work:

1. every host is checked (preflight.py); a problem stops the run with one
   line per problem, and nothing has been changed on any host;
2. the line rate (inventory, or the receiver's netdev speed) and the base
   RTT (inventory, or ib_write_lat) set the knobs, by the scaling rule
   (eval/scaling.py) as in the test bed;
3. every host's CC knobs are saved; for each scenario and algorithm the
   knobs are set, the flows run (flows.py), the records are collected and
   the metrics computed;
4. the saved knobs go back on every host, also after a failure, Ctrl-C or
   SIGTERM, and every process the run started on a host is ended.

--bed is the VM test bed's own run (eval/run, selftests/e2e/guest-runner.sh):
one scenario with one algorithm, written into --out itself.  lsw records
every port there, so the run reads no NIC samples and no switch, and
leaves the metrics and the report to eval/run.

Exit: 0 all runs ok, 1 a run or a check failed, 2 usage or inventory.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, EVAL)

import flows as F          # noqa: E402
import inventory as I      # noqa: E402
import preflight as P      # noqa: E402
import scaling             # noqa: E402
from host import Host      # noqa: E402

ALGOS = ('none', 'dcqcn', 'dcqcn-paper', 'acc', 'acc-nohalt')
SCENARIOS = ('S1', 'S2-2to1', 'S2-4to1', 'S2-8to1', 'S3-4to1', 'S3-8to1',
             'S4', 'S5')
PRESET = {'dcqcn': 'mlx5', 'dcqcn-paper': 'paper', 'acc': 'acc',
          'acc-nohalt': 'acc'}


class Stop(Exception):
    """SIGINT or SIGTERM: end the run, restore the hosts."""


def on_signal(signum, frame):
    raise Stop(signal.Signals(signum).name)


def log(msg):
    print('# lab: ' + msg, flush=True)


def scenario_of(name, rate_mbps, secs, quick):
    out = subprocess.run([os.path.join(EVAL, 'scenarios.sh'), name,
                          '%g' % rate_mbps, str(secs), str(int(quick))],
                         capture_output=True, text=True, check=True).stdout
    sc = dict(line.split('=', 1) for line in out.splitlines() if '=' in line)
    specs = []
    for f in sc['flows'].split(';'):
        w = f.split()
        if w:
            specs.append((int(w[0]), int(w[1]), float(w[2]), int(w[3]),
                          int(w[4]), w[5] if len(w) > 5 else 'ib_write_bw'))
    sc['specs'] = specs
    sc['n_hosts'] = len(sc['hosts'].split())
    sc['receiver'] = int(sc['bneck'].split(':h')[1])
    return sc


def knobs_of(algo, line_bps, rtt_us, line_mbps, inv):
    k = ['line_rate_mbps=%d' % line_mbps]
    if inv.ctrl_dscp is not None:
        k += ['ack_dscp=%d' % inv.ctrl_dscp, 'cnp_dscp=%d' % inv.ctrl_dscp]
    if algo in PRESET:
        k += ['%s=%s' % kv for kv in scaling.knobs(PRESET[algo], line_bps, rtt_us,
                                                   inv.bed_extras)]
    if algo == 'acc-nohalt':
        k.append('acc_halt=0')
    return k


def line_rate_mbps(inv, hosts):
    if inv.line_rate_mbps:
        return inv.line_rate_mbps
    speeds = [h.out('cat /sys/class/net/%s/speed' % h.netdev) for h in hosts]
    good = [int(s) for s in speeds if s and s.lstrip('-').isdigit() and int(s) > 0]
    if len(good) != len(hosts):
        raise RuntimeError('cannot read every netdev\'s speed (a veth has none): '
                           'set line_rate_mbps in [lab]')
    return min(good)


def base_rtt_us(inv, a, b):
    """The inventory's, or twice ib_write_lat's typical one-way latency
    between hosts a and b (64 B, 1000 iterations)."""
    if inv.base_rtt_us:
        return inv.base_rtt_us
    ga, gb = F.gid_index(a), F.gid_index(b)
    with open(os.devnull, 'w') as null:
        srv = b.t.start('timeout 60 ib_write_lat -d %s -x %d -p %d -n 1000 -s 64'
                        % (b.rdma, gb, F.PORT_BASE - 1), null)
        try:
            if not F.wait_listen(b, F.PORT_BASE - 1):
                raise RuntimeError('%s: ib_write_lat never listened' % b)
            out = a.out('timeout 60 ib_write_lat -d %s -x %d -p %d -n 1000 -s 64 %s'
                        % (a.rdma, ga, F.PORT_BASE - 1, b.ip), timeout=90)
        finally:
            srv.stop()
    m = re.search(r'^\s*64\s+1000\s+\S+\s+\S+\s+(\S+)', out or '', re.M)
    if not m:
        raise RuntimeError('ib_write_lat %s -> %s gave no latency' % (a, b))
    return max(1, int(2 * float(m.group(1))))


def metrics(run, sc, hosts, prio, period_ms, small_bytes):
    cmd = [sys.executable, os.path.join(EVAL, 'metrics.py'), 'analyse', run,
           '--bottleneck', 'lab:h%d' % sc['receiver'], '--prio', str(prio),
           '--period-ms', '%g' % period_ms,
           '--devs', ','.join(h.rdma for h in hosts)]
    if sc['victim']:
        cmd += ['--victim', sc['victim']]
    if sc['short']:
        cmd += ['--short-hosts', sc['short'], '--small-bytes', str(small_bytes)]
    with open(os.path.join(run, 'metrics.out'), 'w') as o, \
            open(os.path.join(run, 'metrics.err'), 'w') as e:
        return subprocess.run(cmd, stdout=o, stderr=e).returncode == 0


def switch_marking(preset, line_bps, rtt_us, marking):
    """switch-marking.txt: the marking the scaling rule gives a run, in
    lsw's syntax; with marking = ecn, TCD becomes a RED step at its K (CE
    only, what a WRED/ECN switch can do)."""
    ecn = marking == 'ecn'
    lines = scaling.lsw_lines(preset, line_bps, rtt_us, ecn_only=ecn)
    head = '# the marking the scaling rule gives this run (lsw syntax)\n'
    if ecn and scaling.marking(preset, line_bps, rtt_us)['mode'] == 'tcd':
        head += ('# marking = ecn: CE from a RED step at TCD\'s K, no UE; ACC '
                 'cannot tell PFC victims (lab.rst)\n')
    return head + '\n'.join(lines) + '\n'


def one_run(inv, sc, hosts, algo, line_mbps, rtt_us, args, run, jobs):
    line_bps = line_mbps * 1_000_000
    knobs = knobs_of(algo, line_bps, rtt_us, line_mbps, inv) + args.knobs.split()
    errs = F.apply_knobs(hosts, P.algo_name(algo), knobs, run)
    if errs:
        raise RuntimeError('; '.join(errs))
    if algo in PRESET and not args.bed:
        with open(os.path.join(run, 'switch-marking.txt'), 'w') as f:
            f.write(switch_marking(PRESET[algo], line_bps, rtt_us, inv.marking))
    F.trace_start(hosts)
    F.counters(hosts, 'before', run)
    # On the test bed (--bed) lsw records every port itself: no switch
    # readings, no NIC samples, no series made of them.
    sw = None if args.bed else F.SwitchReader(inv.switch, run,
                                              inv.switch_interval_ms)
    n0 = len(jobs)
    if sw:
        sw.start()
        F.start_samplers(hosts, run, jobs, inv.sample_ms)
    try:
        failed = F.run_flows(hosts, sc['specs'], inv.dscp << 2,
                             args.perf_args.split(), args.flow_timeout, run, jobs,
                             inv.perftest_nice)
    finally:
        for j in jobs[n0:]:
            j.stop()
        if sw:
            sw.stop()
        F.trace_stop(hosts, run)
        F.counters(hosts, 'after', run)
    if not args.bed:
        senders = {s[0] for s in sc['specs']}
        F.lab_series(hosts, senders, sc['receiver'], inv.prio, line_bps, run)
    return failed


def main(argv):
    ap = argparse.ArgumentParser(
        prog='eval/run --lab',
        description='The evaluation on a lab\'s hosts and switch: eval/run\'s scenarios and '
        'metrics, the hosts from the inventory (Documentation/rxe-acc/lab.rst).')
    ap.add_argument('--lab', required=True, help='inventory file')
    ap.add_argument('--scenario', default='S2-2to1',
                    help='scenarios or prefixes, comma separated (default S2-2to1)')
    ap.add_argument('--algos', default='none,dcqcn,acc',
                    help='algorithms, comma separated (default none,dcqcn,acc)')
    ap.add_argument('--out', help='results directory (default build/results/lab-TIME)')
    ap.add_argument('--seconds', type=int,
                    help='traffic per incast run (default 30, --quick 12)')
    ap.add_argument('--quick', action='store_true', help='shorter runs, as eval/run --quick')
    ap.add_argument('--knobs', default='',
                    help='"NAME=VALUE ..." cc/ knobs written after the scaled ones')
    ap.add_argument('--bed', action='store_true',
                    help='the VM test bed\'s own run (eval/run, guest-runner.sh): one '
                    'scenario and one algorithm, written into --out itself; lsw records '
                    'every port, so no NIC samples or switch are read, and eval/run '
                    'computes the metrics and the report')
    ap.add_argument('--perf-args', default='',
                    help='extra perftest arguments for every flow')
    ap.add_argument('--flow-timeout', type=int, default=600,
                    help='seconds a perftest process may take (default 600)')
    args = ap.parse_args(argv)
    try:
        inv = I.load(args.lab)
    except I.InventoryError as e:
        print('eval/run --lab: %s' % e, file=sys.stderr)
        return 2
    scens = [s for w in args.scenario.split(',') for s in SCENARIOS
             if s == w or s.startswith(w + '-')]
    algos = args.algos.split(',')
    bad = [a for a in algos if a not in ALGOS]
    if not scens or bad:
        print('eval/run --lab: scenarios %s, algorithms %s' %
              ('/'.join(SCENARIOS), '/'.join(ALGOS)), file=sys.stderr)
        return 2
    if args.bed and (len(scens) != 1 or len(algos) != 1 or not args.out):
        print('eval/run --lab --bed: one scenario, one algorithm and --out',
              file=sys.stderr)
        return 2
    secs = args.seconds or (12 if args.quick else 30)
    out = args.out or os.path.join(os.path.dirname(EVAL), 'build', 'results',
                                   'lab-' + time.strftime('%Y%m%d-%H%M%S'))
    os.makedirs(out, exist_ok=True)

    # The hosts each scenario uses (line rate known later: count only).
    plan = {}
    try:
        for s in scens:
            n = scenario_of(s, 20, secs, args.quick)['n_hosts']
            plan[s] = [Host(spec, k, inv.ssh_config)
                       for k, spec in enumerate(inv.roles(s, n))]
    except I.InventoryError as e:
        print('eval/run --lab: %s' % e, file=sys.stderr)
        return 2
    uniq = {}
    for hs in plan.values():
        for h in hs:
            uniq.setdefault(h.name, h)
    problems = P.check(list(uniq.values()), algos, inv.prio, inv.dscp,
                       inv.host_qos)
    if problems:
        for p in problems:
            print('eval/run --lab: ' + p, file=sys.stderr)
        print('eval/run --lab: %d problem(s); nothing was changed on any host'
              % len(problems), file=sys.stderr)
        return 1
    log('%d hosts checked: %s' % (len(uniq), ', '.join(str(h) for h in uniq.values())))

    saved = {n: h.knobs() for n, h in uniq.items()}
    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    jobs, failed, rows = [], 0, []
    try:
        first = plan[scens[0]]
        line_mbps = line_rate_mbps(inv, first)
        rtt_us = base_rtt_us(inv, first[0], first[-1])
        # ACC's period T, the unit of the convergence figures.
        period_ms = dict(scaling.knobs('acc', line_mbps * 1e6, rtt_us))[
            'acc_period_us'] / 1e3
        log('line rate %d Mb/s, base RTT %d us (%s)' %
            (line_mbps, rtt_us, 'inventory' if inv.base_rtt_us else 'ib_write_lat'))
        for s in scens:
            sc = scenario_of(s, line_mbps, secs, args.quick)
            small = 0
            if sc['short']:
                import websearch
                small = int(websearch.SMALL_REF_BYTES *
                            websearch.k_bytes(line_mbps * 1e6))
            for a in algos:
                run = out if args.bed else os.path.join(out, s, a)
                os.makedirs(run, exist_ok=True)
                t0 = time.time()
                log('%s %s on %s' % (s, a, ' '.join(h.name for h in plan[s])))
                try:
                    bad = one_run(inv, sc, plan[s], a, line_mbps, rtt_us, args,
                                  run, jobs)
                    ok = bad == 0 and (args.bed or
                                       metrics(run, sc, plan[s], inv.prio,
                                               period_ms, small))
                    why = '' if ok else ('%d flow(s) failed' % bad if bad else
                                         'metrics (%s/metrics.err)' % run)
                except RuntimeError as e:
                    ok, why = False, str(e)
                status = 'ok' if ok else 'FAIL'
                failed += not ok
                rows.append((s, a, status, int(time.time() - t0), run))
                print('%s - %s %s%s' % ('ok' if ok else 'not ok', s, a,
                                        '' if ok else ': ' + why), flush=True)
                if ok and not args.bed:
                    subprocess.run([sys.executable, os.path.join(EVAL, 'summary.py'),
                                    'brief', os.path.join(run, 'metrics.json')])
    except Stop as e:
        log('stopped by %s: restoring every host' % e)
        failed += 1
    except RuntimeError as e:
        print('eval/run --lab: %s' % e, file=sys.stderr)
        failed += 1
    finally:
        for j in jobs:
            j.stop()
        for n, h in uniq.items():
            left = h.restore(saved[n])
            for k, e in left:
                print('eval/run --lab: %s: cc/%s not restored: %s' % (h, k, e),
                      file=sys.stderr)
            failed += bool(left)
        log('knobs restored on %d hosts' % len(uniq))
        for s, o in old.items():
            signal.signal(s, o)
    if args.bed:
        return 1 if failed else 0
    with open(os.path.join(out, 'runs.tsv'), 'w') as f:
        f.writelines('%s\t%s\t%s\t%d\t%s\n' % r for r in rows)
    if rows:
        with open(os.path.join(out, 'summary.md'), 'w') as f:
            subprocess.run([sys.executable, os.path.join(EVAL, 'summary.py'),
                            'summary', out], stdout=f)
        subprocess.run([os.path.join(EVAL, 'plot.sh'), out],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run([sys.executable, os.path.join(EVAL, 'report.py'), out],
                       stdout=subprocess.DEVNULL)
        log('%s/summary.md' % out)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""interleave.py split RUN_DIR SCEN_DIR ALGO...  (python3 stdlib only)

S1 measures what the CC hooks cost one CPU-bound flow.  Its algorithms
take turns on one VM (selftests/e2e/guest-interleave.sh): one ib_write_bw
h0 -> h1 per algorithm and round, ALGO k in RUN_DIR/rR-aK/.  This splits
that run into SCEN_DIR/ALGO/metrics.json per algorithm, for summary.py
and report.py, and prints one runs.tsv line per algorithm.

Per algorithm:
  flows[0].perftest_mbps  its turns taken together: bytes over time, so
                          the harmonic mean of the turns' rates (every turn
                          moves the same bytes)
  turns_mbps              each round's rate, in round order
  ratio_rounds_none       per round, the rate over none's in the same round
  ratio_none_median       their median: the S1 figure, which a round
                          spoiled by a stall or the host's scheduling
                          does not move far (turns a few seconds apart
                          still differ by ~10 % on this test bed)
  acks_per_1000           ACKs the receiver sent per 1000 packets received,
                          over its turns
  retries                 the receiver's out_of_seq_request over its turns
                          (frames the test bed lost, then resent)
  ce_marks, ue_marks, pfc_tx, drops  at the receiver's switch port, prio 3,
                          over the whole run (all algorithms' turns): S1
                          holds no queue, so anything but 0 is news
"""
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import metrics  # noqa: E402


RX_DEV = 'rxe_h1'      # the receiver of every turn


def load_rounds(run):
    """[(round, k, rc)] of RUN/rounds.tsv."""
    out = []
    with open(os.path.join(run, 'rounds.tsv')) as fh:
        for line in fh:
            if line.startswith('#') or not line.strip():
                continue
            r = line.split('\t')
            out.append((int(r[0]), int(r[1]), int(r[3])))
    return out


def turn_dir(run, rnd, k):
    return os.path.join(run, 'r%d-a%d' % (rnd, k))


def turn_mbps(run, rnd, k):
    """Mb/s perftest reported for one turn, or None."""
    p = os.path.join(turn_dir(run, rnd, k), 'flow-0.client.txt')
    try:
        with open(p) as fh:
            v = metrics.parse_perftest_bw(fh.read())
    except OSError:
        return None
    return None if v is None else metrics.perftest_mbps(v)


def harmonic(xs):
    """Bytes over time of turns that each move the same bytes."""
    return len(xs) / sum(1.0 / x for x in xs) if xs and all(xs) else None


def hw_deltas(run, dev, names):
    """{name: counter of DEV over the run (after - before), or None}."""
    v = {}
    for tag in ('before', 'after'):
        try:
            with open(os.path.join(run, 'hw-counters-%s-%s.txt' % (tag, dev))) as fh:
                v[tag] = dict(line.split() for line in fh if len(line.split()) == 2)
        except OSError:
            v[tag] = {}
    return {n: int(v['after'][n]) - int(v['before'][n])
            if n in v['after'] and n in v['before'] else None for n in names}


def split(run, algos, prio=3):
    """{algo: metrics} of an interleaved run; k indexes algos."""
    try:
        prios, _ = metrics.load_counters(os.path.join(run, 'lsw-counters.json'))
    except (OSError, ValueError, KeyError):
        prios = {}
    c = prios.get(('s1', 'h1', prio), {})
    turns = {}
    for rnd, k, rc in load_rounds(run):
        turns.setdefault(k, {})[rnd] = turn_mbps(run, rnd, k) if rc == 0 else None
    res = {}
    for k, algo in enumerate(algos):
        if k not in turns:
            continue            # left out: the kernel lacks it
        t = turns[k]
        ok = [t[r] for r in sorted(t) if t[r]]
        m = {'scenario': 'S1', 'interleaved': True, 'k': k,
             'turns_mbps': [t[r] for r in sorted(t)],
             'perftest_failed': sum(1 for r in t if not t[r]),
             'flows': [{'id': 0, 'src': 0, 'dst': 1,
                        'perftest_mbps': harmonic(ok) if len(ok) == len(t) else None}]}
        names = ('sent_pkts', 'rcvd_pkts', 'out_of_seq_request')
        d = [hw_deltas(turn_dir(run, r, k), RX_DEV, names) for r in t]
        cnt = {n: None if any(x[n] is None for x in d) else sum(x[n] for x in d)
               for n in names}
        m['acks_per_1000'] = (1000.0 * cnt['sent_pkts'] / cnt['rcvd_pkts']
                              if cnt['sent_pkts'] is not None and cnt['rcvd_pkts']
                              else None)
        m['retries'] = cnt['out_of_seq_request']
        for key in ('ce_marks', 'ue_marks', 'pfc_tx', 'drops'):
            m[key] = c.get(key, 0)
        res[algo] = m
    base = res.get('none')
    for algo, m in res.items():
        if base is None or algo == 'none':
            continue
        rr = [a / b for a, b in zip(m['turns_mbps'], base['turns_mbps'])
              if a and b]
        m['ratio_rounds_none'] = rr
        m['ratio_none_median'] = statistics.median(rr) if rr else None
    return res


def main(argv):
    if len(argv) < 4 or argv[0] != 'split':
        print(__doc__, file=sys.stderr)
        return 2
    run, scen_dir, algos = argv[1], argv[2], argv[3:]
    res = split(run, algos)
    for algo in algos:
        d = os.path.join(scen_dir, algo)
        os.makedirs(d, exist_ok=True)
        if algo not in res:
            print('%s\tSKIP\t%s' % (algo, d))
            continue
        m = res[algo]
        with open(os.path.join(d, 'metrics.json'), 'w') as fh:
            json.dump(m, fh, indent=1, sort_keys=True)
        # The knobs it ran with, where report.py looks for them.
        src = os.path.join(run, 'cc-rxe_h0-%d.txt' % m['k'])
        if os.path.exists(src):
            with open(src) as fi, open(os.path.join(d, 'cc-rxe_h0.txt'), 'w') as fo:
                fo.write(fi.read())
        print('%s\t%s\t%s' % (algo, 'FAIL' if m['perftest_failed'] else 'ok', d))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))

# SPDX-License-Identifier: GPL-2.0
"""What every host must have before a run changes anything on any host.

Each check gives one line per problem, naming the host and the fix; the
runner stops when there is one.  The checks only read.
"""
import time

PERFTEST = ('ib_write_bw', 'ib_write_lat')
CLOCK_SKEW_MAX_S = 0.05    # the trace and the samplers are aligned on it


def algo_name(algo):
    """The cc/algorithm value of an evaluation algorithm."""
    return algo.split('-')[0]


def required_knobs(algo):
    return ['acc_halt'] if algo == 'acc-nohalt' else []


def clock_offset_s(host):
    """The host's realtime clock minus ours, and the uncertainty (half the
    round trip of the query), or None."""
    t0 = time.time()
    out = host.out('date +%s.%N', timeout=10)
    t1 = time.time()
    try:
        return float(out) - (t0 + t1) / 2, (t1 - t0) / 2
    except (TypeError, ValueError):
        return None


def check_host(host, algos, prio):
    """Problems of one host, one line each."""
    rc, _, err = host.run('true', timeout=15)
    if rc != 0:
        why = (err.strip().splitlines() or ['exit %d' % rc])[-1]
        return ['%s: unreachable: %s' % (host, why)]
    p = []
    if not host.ok('ip link show dev %s >/dev/null 2>&1' % host.netdev):
        p.append('%s: no netdev %s' % (host, host.netdev))
    if not host.ok('test -d /sys/class/infiniband/%s' % host.rdma):
        p.append('%s: no RDMA device %s (rdma link add %s type rxe netdev %s)'
                 % (host, host.rdma, host.rdma, host.netdev))
        return p
    if not host.ok('test -e %s/available' % host.cc_dir):
        p.append('%s: %s runs a stock rdma_rxe, without congestion control '
                 '(install rxe-acc: Documentation/rxe-acc/lab.rst)' %
                 (host, host.rdma))
        return p
    avail = (host.out('cat %s/available' % host.cc_dir) or '').split()
    for a in algos:
        if algo_name(a) not in avail and algo_name(a) != 'none':
            p.append('%s: %s does not offer %s (cc/available: %s)' %
                     (host, host.rdma, algo_name(a), ' '.join(avail) or '-'))
        for k in required_knobs(a):
            if not host.ok('test -e %s/%s' % (host.cc_dir, k)):
                p.append('%s: %s has no cc/%s, which %s needs (an older '
                         'rxe-acc)' % (host, host.rdma, k, a))
    miss = [t for t in PERFTEST if not host.ok('command -v %s' % t)]
    if miss:
        p.append('%s: perftest missing (%s): apt-get install perftest' %
                 (host, ' '.join(miss)))
    # PFC on the NIC, where the NIC does DCB (a veth or a NIC without DCB
    # leaves it to the switch: nothing to check here).
    pfc = host.out('dcb pfc show dev %s prio-pfc 2>/dev/null' % host.netdev)
    if pfc and 'prio-pfc' in pfc and ' %d:on' % prio not in ' ' + pfc:
        p.append('%s: PFC is off for priority %d on %s (dcb pfc set dev %s '
                 'prio-pfc %d:on)' % (host, prio, host.netdev, host.netdev,
                                      prio))
    np = host.out('cat %s/prio%d_np' % (host.cc_dir, prio))
    if np == '0':
        p.append('%s: the notification point is off for priority %d '
                 '(cc/prio%d_np): DCQCN peers would get no CNPs' %
                 (host, prio, prio))
    off = clock_offset_s(host)
    if off is None:
        p.append('%s: cannot read its clock (date +%%s.%%N)' % host)
    elif abs(off[0]) > CLOCK_SKEW_MAX_S + off[1]:
        p.append('%s: clock %.0f ms off this machine\'s (at most %.0f ms: '
                 'sync it with chrony or PTP)' %
                 (host, off[0] * 1e3, CLOCK_SKEW_MAX_S * 1e3))
    return p


def check(hosts, algos, prio):
    problems = []
    for h in hosts:
        problems += check_host(h, algos, prio)
    return problems

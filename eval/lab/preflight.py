# SPDX-License-Identifier: GPL-2.0
"""What every host must have before a run changes anything on any host.

Each check gives one line per problem, naming the host and the fix; the
runner stops when there is one.  The checks only read.
"""
import json
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


def _json(out):
    try:
        return json.loads(out)
    except ValueError:
        return None


def _pairs(v):
    """{key: value} of a dcb app table: [[26, 3], ...] as dcb -j prints it
    (or [{"dscp": 26, "prio": 3}], or ["26:3"])."""
    d = {}
    for e in v if isinstance(v, list) else ():
        if isinstance(e, list) and len(e) == 2:
            k, x = e
        elif isinstance(e, dict) and len(e) == 2:
            k, x = list(e.values())
        elif isinstance(e, str) and ':' in e:
            k, x = e.split(':', 1)
        else:
            continue
        try:
            d.setdefault(int(k), set()).add(int(x))
        except (TypeError, ValueError):
            pass
    return d


def dcb_problems(name, dev, prio, dscp, pfc, ets, app):
    """Host QoS for RoCE on priority prio, from (status, stdout, stderr) of
    `dcb -j pfc|ets|app show dev DEV`: PFC on for prio; prio in a traffic
    class of its own, not priority 0's (else PFC pauses best-effort traffic
    with it); the data's DSCP mapped to prio.  One line per problem, each
    with the command that fixes it; one line in all for a NIC without DCB."""
    rc, out, err = pfc
    if rc == 127 or 'not found' in err:
        return ['%s: no dcb command (iproute2 >= 5.11) to check PFC on %s: '
                'apt-get install iproute2, or host_qos = none' % (name, dev)]
    if rc != 0:
        why = (err.strip().splitlines() or ['exit %d' % rc])[-1]
        return ['%s: %s has no DCB (dcb pfc show: %s): set PFC for priority %d '
                'with the NIC\'s own tool and host_qos = none, or use a NIC '
                'with DCB' % (name, dev, why, prio)]
    p = []
    j = _json(out) or {}
    en = j.get('prio_pfc')
    if not isinstance(en, list) or len(en) <= prio:
        p.append('%s: dcb pfc show dev %s gave no prio_pfc for priority %d'
                 % (name, dev, prio))
    elif en[prio] is not True:
        on = ' '.join('%d:on' % i for i, x in enumerate(en) if x is True or i == prio)
        p.append('%s: PFC is off for priority %d on %s (dcb pfc set dev %s '
                 'prio-pfc %s)' % (name, prio, dev, dev, on))
    rc, out, _ = ets
    tc = (_json(out) or {}).get('prio_tc') if rc == 0 else None
    if isinstance(tc, list) and len(tc) > prio and prio != 0 and tc[prio] == tc[0]:
        free = next((t for t in range(1, 8) if t not in tc), 1)
        p.append('%s: priority %d shares traffic class %s with priority 0 on %s: '
                 'PFC would pause best-effort traffic too (dcb ets set dev %s '
                 'prio-tc %d:%d)' % (name, prio, tc[prio], dev, dev, prio, free))
    rc, out, _ = app
    j = (_json(out) or {}) if rc == 0 else {}
    have = _pairs(j.get('dscp_prio'))
    if prio not in have.get(dscp, ()):
        now = ('maps it to %s' % ','.join(map(str, sorted(have[dscp])))
               if dscp in have else 'does not map it')
        p.append('%s: DSCP %d %s on %s, RoCE goes out on priority 0 (dcb app '
                 'add dev %s dscp-prio %d:%d)' % (name, dscp, now, dev, dev,
                                                   dscp, prio))
    return p


def check_host(host, algos, prio, dscp=None, host_qos='none'):
    """Problems of one host, one line each."""
    rc, _, err = host.run('true', timeout=15)
    if rc != 0:
        why = (err.strip().splitlines() or ['exit %d' % rc])[-1]
        if host.t.sudo and 'sudo' in why:
            return ['%s: sudo -n failed: %s (the ssh user needs password-less '
                    'sudo: Documentation/rxe-acc/lab.rst)' % (host, why)]
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
            if not host.ok('test -e %s/%s -o -e %s_experimental/%s'
                           % (host.cc_dir, k, host.cc_dir, k)):
                p.append('%s: %s has no cc/%s, which %s needs (an older '
                         'rxe-acc)' % (host, host.rdma, k, a))
    miss = [t for t in PERFTEST if not host.ok('command -v %s' % t)]
    if miss:
        p.append('%s: perftest missing (%s): apt-get install perftest' %
                 (host, ' '.join(miss)))
    if host_qos == 'dcb':
        p += dcb_problems(str(host), host.netdev, prio, dscp,
                          *[host.run('dcb -j %s show dev %s' % (what, host.netdev))
                            for what in ('pfc', 'ets', 'app')])
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


def check(hosts, algos, prio, dscp=None, host_qos='none'):
    problems = []
    for h in hosts:
        problems += check_host(h, algos, prio, dscp, host_qos)
    return problems

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the lab runner (TAP): the inventory, the pre-flight checks
and the knob restore, against hosts faked at the transport."""
import os
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..'))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'tests'))
sys.path.insert(0, os.path.join(HERE, '..', '..'))
import flows as F       # noqa: E402
import inventory as I   # noqa: E402
import metrics as M     # noqa: E402
import preflight as P   # noqa: E402
from host import Host   # noqa: E402
from transport import Transport  # noqa: E402
from tap import case, run  # noqa: E402


GOOD = """
[lab]
dscp = 26
line_rate_mbps = 25000
switch_pfc_frames = echo 3
[host a]
ssh = rdma@a.lab
rdma = rxe0
netdev = eth1
ip = 192.168.10.1
[host b]
netns = h1
rdma = rxe_h1
netdev = eth1
ip = 10.0.0.2
[host c]
local = yes
rdma = rxe0
netdev = lo
ip = fd00::3
[scenario S2-2to1]
hosts = c a b
"""


def refused(text, words):
    try:
        I.parse(text)
    except I.InventoryError as e:
        assert words in str(e), '%r lacks %r' % (str(e), words)
        assert '\n' not in str(e)
        return
    raise AssertionError('accepted: %s' % words)


@case
def inventory_parses_hosts_roles_and_switch():
    inv = I.parse(GOOD)
    assert list(inv.hosts) == ['a', 'b', 'c']
    assert inv.dscp == 26 and inv.prio == 3 and inv.line_rate_mbps == 25000
    assert inv.switch == {'switch_pfc_frames': 'echo 3'}
    assert [h.name for h in inv.roles('S2-2to1', 3)] == ['c', 'a', 'b']
    assert [h.name for h in inv.roles('S1', 2)] == ['a', 'b']   # file order
    assert inv.hosts['a'].how == 'ssh' and inv.hosts['a'].dest == 'rdma@a.lab'
    assert inv.hosts['b'].how == 'netns' and inv.hosts['c'].how == 'local'
    assert inv.perftest_nice == 0 and inv.sample_ms == 10
    assert I.parse(GOOD.replace('dscp = 26', 'dscp = 26\nperftest_nice = 19')
                   ).perftest_nice == 19


@case
def inventory_refuses_with_one_line():
    refused('[host a]\nlocal = yes\n', 'no [lab] section')
    refused('[lab]\ndscp = 64\n[host a]\n', 'dscp = 64 is out of range')
    refused('[lab]\ndscp = x\n', 'dscp = x is not an integer')
    refused('[lab]\ndscp = 26\nspeed = 1\n', '[lab] speed is not a setting')
    refused('[lab]\ndscp = 26\nperftest_nice = 20\n',
            'perftest_nice = 20 is out of range')
    refused('[lab]\ndscp = 26\n', 'no [host NAME] section')
    base = '[lab]\ndscp = 26\n[host a]\n'
    refused(base + 'rdma = r\nnetdev = e\nip = 1.2.3.4\n', 'exactly one of ssh')
    refused(base + 'ssh = a\nnetns = b\nrdma = r\nnetdev = e\nip = 1.2.3.4\n',
            'exactly one of ssh')
    refused(base + 'ssh = a;rm -rf\nrdma = r\nnetdev = e\nip = 1.2.3.4\n',
            'not a plain destination')
    refused(base + 'ssh = a\nnetdev = e\nip = 1.2.3.4\n', 'rdma is missing')
    refused(base + 'ssh = a\nrdma = r\nnetdev = e\nip = 1.2.3\n', 'not an address')
    refused(base + 'ssh = a\nrdma = r x\nnetdev = e\nip = 1.2.3.4\n',
            'not a device name')
    refused(GOOD + '[scenario S1]\nhosts = a z\n', 'names host z')
    refused(GOOD + '[scenario S1]\nhosts = a a\n', 'names a host twice')
    refused('[lab]\ndscp = 26\nswitch_queue_bytes = echo 1\n'
            'switch_queue_mean_bytes = echo 1\n', 'both read the queue')
    refused(GOOD + '[switch x]\n', '[switch x] is not a section')
    try:
        I.parse(GOOD).roles('S2-4to1', 5)
    except I.InventoryError as e:
        assert 'S2-4to1 needs 5 hosts, the inventory gives 3' in str(e)
    else:
        raise AssertionError('roles: too few hosts accepted')


class FakeHost(Host):
    """A host whose shell is a dict: command substring -> (rc, out, err)."""

    def __init__(self, name, answers, knobs=None, refuse=()):
        spec = I.HostSpec(name, 'local', '', 'rxe0', 'eth1', '10.0.0.1')
        super().__init__(spec)
        self.answers, self.kv, self.refuse = answers, dict(knobs or {}), refuse
        self.writes = []

    def run(self, line, timeout=30, stdin=None):
        if 'while IFS== read' in line and '/ports/1/cc' in line:
            out = ''
            for kv in stdin.splitlines():
                name, _, value = kv.partition('=')
                self.writes.append((name, value))
                if self.refuse(name, value, self.kv) if callable(self.refuse) \
                        else name in self.refuse:
                    out += '%s\tsh: 1: printf: I/O error: Invalid argument\n' % name
                else:
                    self.kv[name] = value
            return 0, out, ''
        if 'printf "%s=%s' in line:
            return 0, ''.join('%s=%s\n' % kv for kv in self.kv.items()), ''
        if line.startswith('date'):
            import time
            return 0, '%.9f\n' % (time.time() + self.answers.get('skew', 0)), ''
        for k, v in self.answers.items():
            if k in line:
                return v
        return 0, '', ''


OURS = {'cat /sys/class/infiniband/rxe0/ports/1/cc/available':
        (0, 'none dcqcn acc\n', '')}

# `dcb -j ... show dev eth1` as iproute2 6.1 prints it: PFC on priority 3,
# priority 3 in traffic class 1 of its own, DSCP 26 -> priority 3.
PFC_ON = ('{"pfc_cap":8,"macsec_bypass":false,"delay":0,"prio_pfc":'
          '[false,false,false,true,false,false,false,false]}')
PFC_OFF = PFC_ON.replace('true', 'false')
ETS_OWN = ('{"willing":false,"ets_cap":8,"cbs":false,"tc_bw":[50,50,0,0,0,0,0,0],'
           '"tc_tsa":["ets","ets","strict","strict","strict","strict","strict",'
           '"strict"],"prio_tc":[0,0,0,1,0,0,0,0]}')
ETS_SHARED = ETS_OWN.replace('"prio_tc":[0,0,0,1,', '"prio_tc":[0,0,0,0,')
APP_26 = '{"dscp_prio":[[26,3],[48,6]]}'
DCB_GOOD = {'dcb -j pfc': (0, PFC_ON, ''), 'dcb -j ets': (0, ETS_OWN, ''),
            'dcb -j app': (0, APP_26, '')}


class FakeJob:
    def wait(self, timeout=None):
        return 0

    def stop(self):
        pass


class FakeStarts:
    """A transport that records what it starts in the background."""

    def __init__(self):
        self.started = []

    def start(self, line, f=None):
        self.started.append(line)
        return FakeJob()


@case
def the_data_span_leaves_out_the_tcp_exchange():
    # (t, tx, rx, tp, rp): 2 KB of perftest's TCP exchange at 1-2, the
    # data from 3 to 13 (100 KB a tick), 1 KB after it.
    s = [(t, 0, 0, 0, 0) for t in (0, 1)] + [(2, 0, 2000, 0, 4)]
    rx = 2000
    for t in range(3, 14):
        rx += 100_000 if t > 3 else 0
        s.append((t, 0, rx, 0, 4 + (rx - 2000) // 1000))
    s += [(14, 0, rx + 1000, 0, 0), (15, 0, rx + 1000, 0, 0)]
    first, last = F.data_span(s)
    assert first[0] == 3 and last[0] == 13, (first, last)
    assert last[2] - first[2] == 1_000_000
    # Nothing but a trickle: the whole run.
    assert F.data_span([(0, 0, 0, 0, 0), (1, 0, 10, 0, 1)]) == \
        ((0, 0, 0, 0, 0), (1, 0, 10, 0, 1))


@case
def flows_run_perftest_at_the_inventory_nice_level():
    answers = {'gids/': (0, '1\n', ''), 'ss -Hltn': (0, 'LISTEN\n', '')}
    for nice in (0, 19):
        hosts = [FakeHost('h%d' % i, answers) for i in range(3)]
        for i, h in enumerate(hosts):
            h.index, h.t = i, FakeStarts()
        out = tempfile.mkdtemp()
        assert F.run_flows(hosts, [(0, 2, 0, 10, 65536, 'ib_write_bw'),
                                   (1, 2, 0, 10, 65536, 'ib_write_bw')],
                           104, [], 60, out, [], nice) == 0
        lines = [x for h in hosts for x in h.t.started]
        assert len(lines) == 4, lines      # 2 servers on h2, 2 clients
        if nice == 0:
            assert all(x.startswith('timeout 60 nice -n 0 ib_write_bw ')
                       for x in lines), lines
        else:
            head = "timeout 60 sh -c '(sleep %d; renice -n 19 -p $$)" % \
                F.START_BOOST_S
            assert all(x.startswith(head) and
                       ' & exec ib_write_bw -d ' in x for x in lines), lines
            # the line runs: the tool is the shell's pid, reniced later
            sh = shlex.split(lines[0])[-1]   # the line sh -c runs
            sh = sh.replace('exec ib_write_bw', 'exec echo')
            r = subprocess.run(['sh', '-c', sh], capture_output=True,
                               text=True, timeout=10)
            assert r.returncode == 0 and r.stdout.startswith('-d '), r


@case
def preflight_passes_a_good_host():
    assert P.check_host(FakeHost('a', dict(OURS)), ['none', 'dcqcn', 'acc'], 3) == []


@case
def preflight_names_each_problem_in_one_line():
    h = FakeHost('a', {'true': (255, '', 'ssh: connect to host a port 22: '
                                'No route to host')})
    p = P.check_host(h, ['acc'], 3)
    assert len(p) == 1 and 'unreachable: ssh: connect' in p[0], p
    h = FakeHost('a', {'test -e /sys/class/infiniband/rxe0/ports/1/cc/available':
                       (1, '', '')})
    p = P.check_host(h, ['acc'], 3)
    assert len(p) == 1 and 'stock rdma_rxe' in p[0], p
    h = FakeHost('a', {'cat /sys/class/infiniband/rxe0/ports/1/cc/available':
                       (0, 'none dcqcn\n', '')})
    p = P.check_host(h, ['none', 'acc'], 3)
    assert len(p) == 1 and 'does not offer acc' in p[0], p
    h = FakeHost('a', dict(OURS, **{'command -v ib_write_lat': (1, '', '')}))
    p = P.check_host(h, ['acc'], 3)
    assert len(p) == 1 and 'perftest missing (ib_write_lat)' in p[0], p
    h = FakeHost('a', dict(OURS, skew=0.4))
    p = P.check_host(h, ['acc'], 3)
    assert len(p) == 1 and 'clock 400 ms off' in p[0], p
    h = FakeHost('a', dict(OURS, **{'prio3_np': (0, '0\n', '')}))
    p = P.check_host(h, ['dcqcn'], 3)
    assert len(p) == 1 and 'notification point is off for priority 3' in p[0], p
    h = FakeHost('a', dict(OURS, **dict(DCB_GOOD, **{'dcb -j pfc': (0, PFC_OFF, '')})))
    p = P.check_host(h, ['acc'], 3, 26, 'dcb')
    assert len(p) == 1 and 'PFC is off for priority 3 on eth1' in p[0], p
    h = FakeHost('a', dict(OURS, **DCB_GOOD))
    assert P.check_host(h, ['acc'], 3, 26, 'dcb') == []
    # host_qos = none: dcb is not asked at all
    h = FakeHost('a', dict(OURS, **{'dcb ': (1, '', 'Attribute read: Operation not supported')}))
    assert P.check_host(h, ['acc'], 3, 26, 'none') == []
    h = FakeHost('a', dict(OURS, **{'test -e /sys/class/infiniband/rxe0/ports/1/cc/acc_halt':
                                    (1, '', '')}))
    p = P.check_host(h, ['acc-nohalt'], 3)
    assert len(p) == 1 and 'no cc/acc_halt' in p[0], p


@case
def preflight_checks_host_qos_with_dcb():
    r = (0, PFC_ON, ''), (0, ETS_OWN, ''), (0, APP_26, '')
    assert P.dcb_problems('a', 'eth1', 3, 26, *r) == []
    # a NIC without DCB: one line, whatever ets and app say
    no = (1, '', 'Attribute read: Operation not supported\n')
    p = P.dcb_problems('a', 'eth1', 3, 26, no, no, no)
    assert p == ['a: eth1 has no DCB (dcb pfc show: Attribute read: Operation '
                 'not supported): set PFC for priority 3 with the NIC\'s own '
                 'tool and host_qos = none, or use a NIC with DCB'], p
    p = P.dcb_problems('a', 'eth1', 3, 26, (127, '', 'sh: 1: dcb: not found'), no, no)
    assert len(p) == 1 and 'no dcb command' in p[0], p
    # PFC off: the fix keeps the priorities that were on
    pfc = (0, PFC_OFF.replace('[false,', '[true,', 1), '')
    p = P.dcb_problems('a', 'eth1', 3, 26, pfc, r[1], r[2])
    assert p == ['a: PFC is off for priority 3 on eth1 (dcb pfc set dev eth1 '
                 'prio-pfc 0:on 3:on)'], p
    # priority 3 in priority 0's class: PFC would pause best effort
    p = P.dcb_problems('a', 'eth1', 3, 26, r[0], (0, ETS_SHARED, ''), r[2])
    assert p == ['a: priority 3 shares traffic class 0 with priority 0 on eth1: '
                 'PFC would pause best-effort traffic too (dcb ets set dev eth1 '
                 'prio-tc 3:1)'], p
    # DSCP 26 unmapped, or mapped elsewhere
    for app, now in (('{"dscp_prio":[[48,6]]}', 'does not map it'),
                     ('{"dscp_prio":[[26,0]]}', 'maps it to 0'), ('{}', 'does not map it')):
        p = P.dcb_problems('a', 'eth1', 3, 26, r[0], r[1], (0, app, ''))
        assert p == ['a: DSCP 26 %s on eth1, RoCE goes out on priority 0 (dcb '
                     'app add dev eth1 dscp-prio 26:3)' % now], p
    # other spellings of the app table are read too
    for app in ('{"dscp_prio":[{"dscp":26,"prio":3}]}', '{"dscp_prio":["26:3"]}'):
        assert P.dcb_problems('a', 'eth1', 3, 26, r[0], r[1], (0, app, '')) == []
    # ets unreadable (no ETS on the NIC) is not a problem of its own
    assert P.dcb_problems('a', 'eth1', 3, 26, r[0], no, r[2]) == []


@case
def sudo_wraps_every_command_it_builds():
    line = "cat '/sys/x' && echo \"a b\""
    t = Transport('ssh', 'u@a', sudo=True)
    argv = t.argv(line)
    assert argv[-3:-1] == ['u@a', '--'], argv
    # the remote shell gets one word list: sudo -n sh -c 'LINE'
    import shlex
    assert shlex.split(argv[-1]) == ['sudo', '-n', 'sh', '-c', line], argv[-1]
    assert Transport('local', '', sudo=True).argv(line) == ['sudo', '-n', 'sh', '-c', line]
    assert Transport('netns', 'h1', sudo=True).argv(line)[:3] == \
        ['sudo', '-n', 'nsenter']
    assert Transport('ssh', 'u@a').argv(line)[-1] == line
    assert Transport('local', '').argv(line) == ['sh', '-c', line]
    assert Transport('ssh', 'u@a', sudo=True).describe() == 'ssh u@a, sudo'
    # a background job's PID line goes through sudo as well
    j = Transport('ssh', 'u@a', sudo=True).argv('echo $$; exec sh -c x')
    assert shlex.split(j[-1])[:4] == ['sudo', '-n', 'sh', '-c']
    # and really runs: sudo here is a fake that logs and runs the rest
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'sudo'), 'w') as f:
            f.write('#!/bin/sh\n[ "$1" = -n ] || exit 9\nshift\n'
                    'echo sudo >>"$(dirname "$0")/log"\nexec "$@"\n')
        os.chmod(os.path.join(d, 'sudo'), 0o755)
        old = os.environ['PATH']
        os.environ['PATH'] = d + ':' + old
        try:
            rc, out, _ = Transport('local', '', sudo=True).run('echo "$((6 * 7))"')
        finally:
            os.environ['PATH'] = old
        assert (rc, out) == (0, '42\n'), (rc, out)
        assert open(os.path.join(d, 'log')).read() == 'sudo\n'


@case
def preflight_says_when_sudo_wants_a_password():
    h = FakeHost('a', {'true': (1, '', 'sudo: a password is required\n')})
    h.t.sudo = True
    p = P.check_host(h, ['acc'], 3)
    assert p == ['a (this machine, sudo): sudo -n failed: sudo: a password is '
                 'required (the ssh user needs password-less sudo: '
                 'Documentation/rxe-acc/lab.rst)'], p


@case
def a_switch_command_keeps_its_hash_and_semicolon():
    # A comment follows a plain value; a switch command is shell and runs
    # to the end of its line, ' #' and ' ;' included.
    cmd = "ssh sw1 'show pfc' | awk '$1 ~ /#3/ {s += $2} END {print s}' ; true # tx only"
    text = GOOD.replace('switch_pfc_frames = echo 3', 'switch_pfc_frames = ' + cmd).replace(
        'dscp = 26', 'dscp = 26   ; the data # prio 3').replace(
        'netdev = eth1\nip = 192.168.10.1', 'netdev = eth1 # the RoCE port\nip = 192.168.10.1')
    inv = I.parse(text)
    assert inv.switch == {'switch_pfc_frames': cmd}, inv.switch
    assert inv.dscp == 26 and inv.hosts['a'].netdev == 'eth1'
    # a comment right after a host's destination
    inv = I.parse(GOOD.replace('ssh = rdma@a.lab', 'ssh = rdma@a.lab ;x'))
    assert inv.hosts['a'].dest == 'rdma@a.lab'


@case
def inventory_reads_sudo_marking_and_host_qos():
    inv = I.parse(GOOD)
    assert inv.marking == 'tcd' and inv.host_qos == 'dcb'
    assert not any(h.sudo for h in inv.hosts.values())
    text = GOOD.replace('[lab]\n', '[lab]\nsudo = yes\nmarking = ecn\n'
                        'host_qos = none\n').replace(
        'netns = h1\n', 'netns = h1\nsudo = no\n')
    inv = I.parse(text)
    assert inv.marking == 'ecn' and inv.host_qos == 'none'
    assert [inv.hosts[x].sudo for x in 'abc'] == [True, False, True]
    assert Host(inv.hosts['a']).t.argv('true')[-1] == 'sudo -n sh -c true'
    refused(GOOD.replace('[lab]\n', '[lab]\nmarking = wred\n'),
            '[lab] marking = wred: one of tcd, ecn')
    refused(GOOD.replace('[lab]\n', '[lab]\nhost_qos = mlnx\n'),
            '[lab] host_qos = mlnx: one of dcb, none')
    refused(GOOD.replace('netns = h1\n', 'netns = h1\nsudo = maybe\n'),
            '[host b] sudo = maybe is not yes or no')
    refused(GOOD.replace('netns = h1\n', 'netns = h1\nuser = x\n'),
            '[host b] user is not a setting')


@case
def ecn_marking_turns_tcd_into_a_red_step_at_k():
    import main as Mn
    tcd = Mn.switch_marking('acc', 25e9, 40, 'tcd')
    ecn = Mn.switch_marking('acc', 25e9, 40, 'ecn')
    k = int([ln for ln in tcd.splitlines()
             if ln.startswith('tcd_threshold ')][0].split()[1])
    assert ecn.splitlines()[-3:] == ['red_kmin %d' % k, 'red_kmax %d' % k,
                                     'red_pmax 1'], ecn
    assert 'no UE' in ecn
    # DCQCN's RED is the same either way
    assert Mn.switch_marking('mlx5', 25e9, 40, 'ecn') == \
        Mn.switch_marking('mlx5', 25e9, 40, 'tcd')


@case
def lab_conf_example_parses_and_shows_every_setting():
    path = os.path.join(HERE, '..', 'lab.conf.example')
    with open(path) as f:
        text = f.read()
    inv = I.parse(text, path)
    assert inv.hosts and inv.scenarios
    import re
    keys = set(re.findall(r'^;?\s*([a-z_]+)\s*=', text, re.M))
    lab_keys = {'dscp', 'ctrl_dscp', 'line_rate_mbps', 'base_rtt_us',
                'bed_extras', 'switch_interval_ms', 'perftest_nice',
                'sample_ms', 'ssh_config', 'marking', 'host_qos', 'sudo',
                *I.SWITCH_METRICS}
    host_keys = {'ssh', 'netns', 'local', 'rdma', 'netdev', 'ip', 'hosts'}
    missing = (lab_keys | host_keys) - keys
    assert not missing, missing
    # and the parser knows no [lab] setting the example leaves out
    try:
        I.parse('[lab]\ndscp = 1\nzzz = 1\n')
    except I.InventoryError as e:
        known = set(str(e).split('have: ')[1].rstrip(')').split(', '))
        assert known == lab_keys, known ^ lab_keys


@case
def restore_goes_round_the_cross_checks():
    # A floor may not go above the cap: restoring (min 5, max 10) over
    # (min 1, max 2) fails for min first, and succeeds on the next pass.
    def refuse(name, value, kv):
        mn = int(value) if name == 'min' else int(kv['min'])
        mx = int(value) if name == 'max' else int(kv['max'])
        return mn > mx
    h = FakeHost('a', {}, {'min': '1', 'max': '2', 'algorithm': 'acc'}, refuse)
    assert h.restore({'min': '5', 'max': '10', 'algorithm': 'none'}) == []
    assert h.kv == {'min': '5', 'max': '10', 'algorithm': 'none'}


@case
def restore_reports_what_would_not_go_back():
    h = FakeHost('a', {}, {'algorithm': 'acc', 'x': '1'}, ('x',))
    left = h.restore({'algorithm': 'none', 'x': '7'})
    assert [k for k, _ in left] == ['x'] and 'Invalid argument' in left[0][1]
    assert h.kv['algorithm'] == 'none'


@case
def inventory_ssh_config_is_relative_to_the_file_and_reaches_ssh():
    with tempfile.TemporaryDirectory() as d:
        inv_path = os.path.join(d, 'lab.conf')
        with open(inv_path, 'w') as f:
            f.write(GOOD.replace('dscp = 26', 'dscp = 26\nssh_config = lab.ssh'))
        try:
            I.load(inv_path)
        except I.InventoryError as e:
            assert 'ssh_config = lab.ssh: no such file' in str(e), e
        else:
            raise AssertionError('a missing ssh_config was accepted')
        open(os.path.join(d, 'lab.ssh'), 'w').close()
        inv = I.load(inv_path)
        cfg = os.path.join(d, 'lab.ssh')
        assert inv.ssh_config == cfg
        argv = Host(inv.hosts['a'], 0, inv.ssh_config).t.argv('true')
        assert argv[argv.index('-F') + 1] == cfg
        assert argv[-3:] == ['rdma@a.lab', '--', 'true']
        # netns: no ssh, no -F
        assert '-F' not in Host(inv.hosts['b'], 1, inv.ssh_config).t.argv('true')
    assert '-F' not in Transport('ssh', 'a').argv('true')


@case
def samples_leave_in_batches_and_all_arrive_on_stop():
    # The real sampler on this machine's lo, every 10 ms: nothing before
    # the first batch (SAMPLE_FLUSH_S), then a batch each; SIGTERM (the
    # runner's stop) flushes what is left, so no sample is lost.
    h = Host(I.HostSpec('x', 'local', '', 'rxe0', 'lo', '127.0.0.1'))
    jobs = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'samples-x.txt')
        F.start_samplers([h], d, jobs, 10)
        time.sleep(F.SAMPLE_FLUSH_S / 2)
        with open(path) as f:
            early = f.read()
        time.sleep(F.SAMPLE_FLUSH_S)
        jobs[0].stop()
        with open(path) as f:
            rows = f.read().splitlines()
    assert early == '', early
    assert len(rows) >= 20 and all(len(r.split()) == 5 for r in rows), rows[-3:]
    ts = [float(r.split()[0]) for r in rows]
    assert ts == sorted(ts) and ts[-1] - ts[0] > F.SAMPLE_FLUSH_S


@case
def job_wait_gives_status_output_or_none_while_running():
    # Job.wait sleeps on the output's end rather than polling: the exit
    # status once the command ends, None while it still runs.
    t = Transport('local', '')
    with tempfile.TemporaryFile('w+') as f:
        j = t.start('echo hi; exit 3', f)
        assert j.pid is not None
        assert j.wait(10) == 3
        f.seek(0)
        assert f.read() == 'hi\n'
    with tempfile.TemporaryFile('w+') as f:
        j = t.start('sleep 30', f)
        assert j.wait(0.3) is None
        j.stop()
        assert j.proc.poll() is not None
        assert j.wait(5) is not None


@case
def a_queue_mean_reading_covers_the_time_since_the_last():
    # A command that prints 0, 100, 200, ...: the priming call's value is
    # dropped; each later mean is held from the previous reading's time.
    d = tempfile.mkdtemp()
    cnt = os.path.join(d, 'n')
    cmd = ('n=$(cat %s 2>/dev/null || echo 0); echo $((n + 1)) > %s; '
           'echo $((n * 100))' % (cnt, cnt))
    sw = F.SwitchReader({'switch_queue_mean_bytes': cmd}, d, interval_ms=50)
    sw.start()
    time.sleep(0.4)
    sw.stop()
    rows = [r for r in sw.rows if r[0] == 'queue_mean']
    assert rows[0][2] is None and len(rows) >= 3, rows
    assert [r[2] for r in rows[1:]] == [100.0 * k for k in range(1, len(rows))]
    q = F.queue_of_means([(t, v) for _, t, v in rows])
    assert q == [(rows[k - 1][1], rows[k][2]) for k in range(1, len(rows))]
    # In the lsw-shaped series, a receiver's sample between two readings
    # gets the later reading's mean.
    with open(os.path.join(d, 'samples-c.txt'), 'w') as f:
        t_mid = (rows[1][1] + rows[2][1]) / 2
        for t in (rows[0][1] - 1000, t_mid):
            f.write('%.9f 0 0 0 0\n' % (t / 1e9))
    hosts = [Host(s, i) for i, s in enumerate(I.parse(GOOD).hosts.values())]
    F.lab_series(hosts, [0, 1], 2, 3, 10e9, d)
    with open(os.path.join(d, 'lsw-timeseries.csv')) as f:
        q_col = [int(line.split(',')[4]) for line in f.readlines()[1:]]
    assert q_col == [0, 200], q_col


@case
def a_switch_reading_is_stamped_mid_command():
    # Unless it says when, the switch was read somewhere in the command's
    # run: the middle.
    sw = F.SwitchReader({'switch_queue_bytes': 'sleep 0.4; echo 5'},
                        tempfile.mkdtemp())
    t0 = time.time_ns()
    t, v = sw.read('switch_queue_bytes')
    t1 = time.time_ns()
    assert v == 5.0 and t1 - t0 >= 400_000_000
    assert t0 + 150_000_000 < t < t1 - 150_000_000, (t0, t, t1)
    sw.cmds['switch_queue_bytes'] = 'echo not-a-number'
    assert sw.read('switch_queue_bytes')[1] is None
    # A time of its own, within the command's run, is kept; one outside
    # it (another clock) is brought to the run's nearer end.
    sw.cmds['switch_queue_bytes'] = ('sleep 0.2; t=$(date +%s.%N); '
                                     'sleep 0.3; echo 7 $t')
    t0 = time.time_ns()
    t, v = sw.read('switch_queue_bytes')
    assert v == 7.0 and t0 + 150_000_000 < t < t0 + 350_000_000, (t0, t)
    sw.cmds['switch_queue_bytes'] = 'echo 7 1000.5'
    t0 = time.time_ns()
    t, v = sw.read('switch_queue_bytes')
    assert v == 7.0 and t0 <= t <= time.time_ns()


@case
def a_switch_command_that_overruns_is_ended_whole():
    # The command's own children go with it: a reading left running must
    # not write its state after the runner dropped its value.
    d = tempfile.mkdtemp()
    late = os.path.join(d, 'late')
    sw = F.SwitchReader({'switch_queue_mean_bytes': '(sleep 1; touch %s) & wait; echo 1'
                         % late}, d, timeout_s=0.3)
    t0 = time.time()
    assert sw.read('switch_queue_mean_bytes')[1] is None
    assert time.time() - t0 < 0.9
    time.sleep(1.2)
    assert not os.path.exists(late)


@case
def a_sender_series_starts_at_its_data():
    # A sender's NIC: perftest's TCP exchange (2 KB) at 1 s, data from
    # 4 s.  In the lsw-shaped series its bytes start at the data, so the
    # flow's active interval (and the all-active window) does too.
    d = tempfile.mkdtemp()
    tx = [0, 2000, 2000, 2000] + [2000 + 100_000 * k for k in range(1, 6)]
    with open(os.path.join(d, 'samples-a.txt'), 'w') as f:
        for t, b in enumerate(tx):
            f.write('%d %d 0 0 0\n' % (t, b))
    hosts = [Host(s, i) for i, s in enumerate(I.parse(GOOD).hosts.values())]
    F.lab_series(hosts, [0, 1], 2, 3, 10e9, d)
    with open(os.path.join(d, 'lsw-timeseries.csv')) as f:
        rows = [line.split(',') for line in f.readlines()[1:]]
    b_in = [(int(r[0]) // 10**9, int(r[9])) for r in rows if r[2] == 'h0']
    assert b_in[:5] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 100_000)], b_in
    assert b_in[-1] == (8, 500_000), b_in
    assert M.active_interval(b_in)[0] == 3


@case
def counters_keep_statistics_hardware_counters_and_qps():
    d = tempfile.mkdtemp()
    h = FakeHost('a', {'rdma statistic show link rxe0/1': (0, 'stat\n', ''),
                       'hw_counters': (0, 'ack_deferred 0\n', ''),
                       'rdma resource show qp link rxe0/1': (0, 'qpn 17\n', '')})
    F.counters([h], 'after', d)
    got = {n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d))}
    assert got == {'hw-counters-after-rxe0.txt': 'ack_deferred 0\n',
                   'rdma-res-after-rxe0.txt': 'qpn 17\n',
                   'rdma-stat-after-rxe0.txt': 'stat\n'}, got


@case
def knobs_are_written_in_one_command_and_read_back():
    # The real shell line on this machine: a "knob" that is a directory
    # refuses the write, as the module refuses a value.
    d = tempfile.mkdtemp()
    os.mkdir(os.path.join(d, 'locked'))
    h = Host(I.HostSpec('here', 'local', '', 'rxe0', 'lo', '127.0.0.1'))
    h.cc_dir = d
    calls = []
    run_once = h.run
    h.run = lambda line, timeout=30, stdin=None: (calls.append(line),
                                                  run_once(line, timeout, stdin))[1]
    errs = h.set_knobs([('acc_halt_max_us', '32000'), ('locked', '1'),
                        ('acc_period_us', '4000'), ('odd', 'a=b c')])
    assert len(calls) == 1, calls
    assert list(errs) == ['locked'] and 'directory' in errs['locked'], errs
    got = {n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d))
           if n != 'locked'}
    assert got == {'acc_halt_max_us': '32000\n', 'acc_period_us': '4000\n',
                   'odd': 'a=b c\n'}, got
    assert h.set_knobs([]) == {} and len(calls) == 1
    assert h.knobs() == {'acc_halt_max_us': '32000', 'acc_period_us': '4000',
                         'odd': 'a=b c'}, h.knobs()


if __name__ == '__main__':
    sys.exit(run())

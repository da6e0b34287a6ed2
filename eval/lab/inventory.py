# SPDX-License-Identifier: GPL-2.0
"""A lab's inventory file: its hosts, how to reach them, and its switch.

The file is INI (configparser), for example::

    [lab]
    dscp = 26               ; DSCP of the data; PFC priority = dscp >> 3
    line_rate_mbps = 25000  ; 0 or absent: each netdev's speed
    base_rtt_us = 0         ; 0 or absent: measured with ib_write_lat
    bed_extras = 0          ; 1: the TCG test bed's unscaled settings too
                            ; (eval/scaling.py BED_EXTRA), for the VM
    switch_pfc_frames = ssh sw1 show pfc counters | awk '/tx/ {s += $2} END {print s}'
    switch_queue_bytes = snmpget -Oqv -v2c -c lab sw1 QUEUE-OID.27
    ; or, where the switch keeps an average: its mean since the last call
    ; switch_queue_mean_bytes = ssh sw1 show queue-mean 27
    switch_interval_ms = 100 ; how often the queue command runs
    sample_ms = 10          ; how often each host's NIC counters are read
    perftest_nice = 0       ; nice level of perftest on the hosts: a
                            ; polling perftest takes a core from rxe's
                            ; kernel work (the VM test bed's 1 vCPU: 19)
    ssh_config = lab.ssh    ; optional: ssh -F FILE for every ssh host
                            ; (relative to this file); absent: ssh's own
                            ; ~/.ssh/config
    marking = tcd           ; what the switch marks: tcd, or ecn for a
                            ; WRED/ECN switch (CE only, no UE)
    host_qos = dcb          ; dcb: preflight checks PFC, ETS and the DSCP
                            ; map with dcb(8); none: not checked
    sudo = no               ; yes: every command through sudo -n (a [host]
                            ; may say otherwise)

    [host a]
    ssh = rdma@a.lab        ; ssh destination (keys and ssh_config as usual)
    sudo = yes              ; optional: this host's commands via sudo -n
    rdma = rxe0
    netdev = enp1s0
    ip = 192.168.10.1

    [scenario S2-2to1]
    hosts = a b c           ; host 0, 1, 2 of the scenario, in that order

A host is reached by ``ssh`` (a lab), ``netns`` (a network namespace on
this machine: the VM test bed) or ``local = yes``.  Without a scenario
section the hosts serve the scenario in the order of the file.  Switch
commands run on this machine and print one number; absent, the metric they
feed is reported as not measured.  A ';' or '#' after white space starts a
comment after any value but a switch command, which sh runs as written to
the end of its line (sh itself reads ' #' as a comment there).  eval/lab/lab.conf.example shows every
setting.
"""
import configparser
import os
import ipaddress
import re

SWITCH_METRICS = ('switch_pfc_frames', 'switch_queue_bytes',
                  'switch_queue_mean_bytes', 'switch_paused_ns')
_NAME = re.compile(r'^[A-Za-z0-9_.+-]+$')
# A comment after a value: ';' or '#' after white space, to the end of
# the line (not after a switch command, which runs to the end of it).
_INLINE_COMMENT = re.compile(r'\s+[;#].*$', re.M)
# What the switch marks: tcd (TCD's CE and UE, what ACC is designed for)
# or ecn (a commodity WRED/ECN switch: CE only; ACC then cannot tell a
# victim of PFC from a congested flow: lab.rst).
MARKINGS = ('tcd', 'ecn')
# How the hosts' NICs get PFC for the data priority: dcb (preflight checks
# dcb pfc/ets/app on each netdev) or none (a vendor tool, the switch, or
# the test bed's veths: not checked).
HOST_QOS = ('dcb', 'none')


class InventoryError(Exception):
    """A problem in the inventory file: one line, saying where."""


class HostSpec:
    def __init__(self, name, how, dest, rdma, netdev, ip, sudo=False):
        self.name, self.how, self.dest = name, how, dest
        self.rdma, self.netdev, self.ip = rdma, netdev, ip
        self.sudo = sudo

    def __repr__(self):
        return 'HostSpec(%s %s:%s %s %s %s%s)' % (
            self.name, self.how, self.dest, self.rdma, self.netdev, self.ip,
            ' sudo' if self.sudo else '')


class Inventory:
    def __init__(self, hosts, scenarios, lab):
        self.hosts = hosts              # name -> HostSpec, in file order
        self.scenarios = scenarios      # scenario -> [host name]
        self.dscp = lab['dscp']
        self.prio = self.dscp >> 3
        self.ctrl_dscp = lab.get('ctrl_dscp')
        self.line_rate_mbps = lab.get('line_rate_mbps', 0)
        self.base_rtt_us = lab.get('base_rtt_us', 0)
        self.bed_extras = bool(lab.get('bed_extras', 0))
        self.switch = {k: lab[k] for k in SWITCH_METRICS if lab.get(k)}
        self.switch_interval_ms = lab.get('switch_interval_ms', 100)
        self.perftest_nice = lab.get('perftest_nice', 0)
        self.sample_ms = lab.get('sample_ms', 10)
        self.ssh_config = lab.get('ssh_config') or None
        self.marking = lab.get('marking', 'tcd')
        self.host_qos = lab.get('host_qos', 'dcb')

    def roles(self, scenario, n):
        """The n hosts scenario uses, host 0 first."""
        names = self.scenarios.get(scenario, list(self.hosts))
        if len(names) < n:
            raise InventoryError(
                '%s needs %d hosts, the inventory gives %d (%s)' %
                (scenario, n, len(names), ' '.join(names) or 'none'))
        return [self.hosts[x] for x in names[:n]]


def _int(sec, key, lo, hi, default=None):
    v = sec.get(key)
    if v is None or v.strip() == '':
        if default is None:
            raise InventoryError('[%s] %s is missing' % (sec.name, key))
        return default
    try:
        x = int(v, 0)
    except ValueError:
        raise InventoryError('[%s] %s = %s is not an integer' %
                             (sec.name, key, v)) from None
    if not lo <= x <= hi:
        raise InventoryError('[%s] %s = %d is out of range %d..%d' %
                             (sec.name, key, x, lo, hi))
    return x


def _bool(sec, key, default):
    v = (sec.get(key) or '').strip().lower()
    if not v:
        return default
    if v in ('1', 'yes', 'true', 'on'):
        return True
    if v in ('0', 'no', 'false', 'off'):
        return False
    raise InventoryError('[%s] %s = %s is not yes or no' % (sec.name, key, v))


def _choice(sec, key, choices, default):
    v = (sec.get(key) or '').strip() or default
    if v not in choices:
        raise InventoryError('[%s] %s = %s: one of %s' %
                             (sec.name, key, v, ', '.join(choices)))
    return v


def _host(name, sec, sudo_default=False):
    ways = [k for k in ('ssh', 'netns', 'local') if sec.get(k)]
    if len(ways) != 1:
        raise InventoryError('[host %s] needs exactly one of ssh, netns, local'
                             % name)
    how = ways[0]
    dest = sec.get(how).strip()
    if how == 'local':
        dest = ''
    elif not _NAME.match(dest.replace('@', '').replace(':', '')):
        raise InventoryError('[host %s] %s = %s is not a plain destination'
                             % (name, how, dest))
    spec = {}
    for key in ('rdma', 'netdev', 'ip'):
        v = (sec.get(key) or '').strip()
        if not v:
            raise InventoryError('[host %s] %s is missing' % (name, key))
        spec[key] = v
    for key in ('rdma', 'netdev'):
        if not _NAME.match(spec[key]):
            raise InventoryError('[host %s] %s = %s is not a device name' %
                                 (name, key, spec[key]))
    try:
        ipaddress.ip_address(spec['ip'])
    except ValueError:
        raise InventoryError('[host %s] ip = %s is not an address' %
                             (name, spec['ip'])) from None
    unknown = set(sec) - {'ssh', 'netns', 'local', 'rdma', 'netdev', 'ip',
                          'sudo'} - set(sec.parser.defaults())
    if unknown:
        raise InventoryError('[host %s] %s is not a setting (have: ssh, netns, '
                             'local, rdma, netdev, ip, sudo)' %
                             (name, sorted(unknown)[0]))
    return HostSpec(name, how, dest, spec['rdma'], spec['netdev'], spec['ip'],
                    _bool(sec, 'sudo', sudo_default))


def parse(text, source='inventory'):
    """An Inventory from the text of a file; InventoryError on a problem."""
    # No inline comments in the parser: a switch command is shell, where
    # ' #' and ' ;' mean something; the other values lose theirs below.
    cp = configparser.ConfigParser(inline_comment_prefixes=None,
                                   interpolation=None)
    try:
        cp.read_string(text, source=source)
    except configparser.Error as e:
        raise InventoryError(str(e).splitlines()[0]) from None
    for name in cp.sections():
        for k, v in cp.items(name, raw=True):
            if not (name == 'lab' and k in SWITCH_METRICS):
                cp.set(name, k, _INLINE_COMMENT.sub('', v))
    if 'lab' not in cp:
        raise InventoryError('no [lab] section')
    lab = cp['lab']
    known = {'dscp', 'ctrl_dscp', 'line_rate_mbps', 'base_rtt_us',
             'bed_extras', 'switch_interval_ms', 'perftest_nice',
             'sample_ms', 'ssh_config', 'marking', 'host_qos', 'sudo',
             *SWITCH_METRICS}
    for k in lab:
        if k not in known:
            raise InventoryError('[lab] %s is not a setting (have: %s)' %
                                 (k, ', '.join(sorted(known))))
    conf = {'dscp': _int(lab, 'dscp', 0, 63),
            'line_rate_mbps': _int(lab, 'line_rate_mbps', 0, 1_600_000, 0),
            'base_rtt_us': _int(lab, 'base_rtt_us', 0, 10_000_000, 0),
            'bed_extras': _int(lab, 'bed_extras', 0, 1, 0),
            'switch_interval_ms': _int(lab, 'switch_interval_ms', 10, 60000, 100),
            'perftest_nice': _int(lab, 'perftest_nice', 0, 19, 0),
            'sample_ms': _int(lab, 'sample_ms', 1, 1000, 10)}
    if lab.get('ctrl_dscp'):
        conf['ctrl_dscp'] = _int(lab, 'ctrl_dscp', 0, 63)
    for k in SWITCH_METRICS:
        conf[k] = (lab.get(k) or '').strip()
    conf['ssh_config'] = (lab.get('ssh_config') or '').strip()
    conf['marking'] = _choice(lab, 'marking', MARKINGS, 'tcd')
    conf['host_qos'] = _choice(lab, 'host_qos', HOST_QOS, 'dcb')
    sudo = _bool(lab, 'sudo', False)
    if conf['switch_queue_bytes'] and conf['switch_queue_mean_bytes']:
        raise InventoryError('[lab] switch_queue_bytes and switch_queue_mean_bytes '
                             'both read the queue: give one')
    hosts, scen = {}, {}
    for name in cp.sections():
        kind, _, arg = name.partition(' ')
        if name == 'lab':
            continue
        if kind == 'host' and _NAME.match(arg):
            hosts[arg] = _host(arg, cp[name], sudo)
        elif kind == 'scenario' and arg:
            scen[arg] = (cp[name].get('hosts') or '').split()
        else:
            raise InventoryError('[%s] is not a section (lab, host NAME, '
                                 'scenario NAME)' % name)
    if not hosts:
        raise InventoryError('no [host NAME] section')
    for s, names in scen.items():
        for x in names:
            if x not in hosts:
                raise InventoryError('[scenario %s] names host %s, which has '
                                     'no [host %s] section' % (s, x, x))
        if len(set(names)) != len(names):
            raise InventoryError('[scenario %s] names a host twice' % s)
    return Inventory(hosts, scen, conf)


def load(path):
    """The Inventory of a file; ssh_config is taken relative to it."""
    try:
        with open(path) as f:
            inv = parse(f.read(), path)
    except OSError as e:
        raise InventoryError('%s: %s' % (path, e.strerror)) from None
    if inv.ssh_config:
        cfg = os.path.join(os.path.dirname(os.path.abspath(path)),
                           os.path.expanduser(inv.ssh_config))
        if not os.path.isfile(cfg):
            raise InventoryError('[lab] ssh_config = %s: no such file (%s)'
                                 % (inv.ssh_config, cfg))
        inv.ssh_config = cfg
    return inv

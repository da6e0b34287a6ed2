# SPDX-License-Identifier: GPL-2.0
"""One run: a scenario's flows with one algorithm on the lab's hosts.

It writes what the VM test bed writes for the same run (flows.tsv,
flow-I.{server,client}.txt, cc-DEV.txt, rdma-stat-*, hw-counters-*,
trace.txt), plus what a lab has instead of lsw's own records:

* samples-HOST.txt: every sample_ms (10 ms by default), the host's
  realtime clock and its netdev's byte and packet counters from
  /proc/net/dev (a bash loop that forks nothing, so that sampling does
  not perturb a loaded host);
* switch.txt: the switch commands' readings, when the inventory has them.

lab_series() turns those into the lsw-shaped files eval/metrics.py reads:
each host is a "port" of switch "lab"; a sender's bytes are what its NIC
sent, the receiver's what its NIC received.  The queue and the pauses
exist only where the switch commands measured them.
"""
import ipaddress
import json
import os
import signal
import subprocess
import threading
import time

from transport import quote

PORT_BASE = 18515
# /proc/net/dev (the namespace's own, whatever sysfs shows): "NAME: rx
# bytes, packets, 6 more, tx bytes, packets, ..."; IFS splits "eth0:123".
# The wait between samples is a read from a FIFO nobody writes to: no
# fork, and no /dev/fd needed (a minimal root may lack it).  The samples
# leave in batches, every SAMPLE_FLUSH_S and on SIGTERM (the runner's
# stop): a line per sample would wake the transport (sshd, which
# encrypts and sends it) as often as the sampler wakes.  In the VM test
# bed, at 50 ms over ssh, those wake-ups took so much of the one vCPU,
# while one flow ran, that the second flow's perftest sent its first MB
# 14.5 s after it was started; with batches of a second, 5.3 s (eval/run's
# own runs, without samplers: 3-7.5 s).
SAMPLE_FLUSH_S = 1.0
SAMPLER = ('f=$(mktemp -u); mkfifo "$f" && exec {fd}<>"$f"; rm -f "$f"; '
           '[ -n "$fd" ] || exit 1; b=; k=0; '
           'trap \'printf %%s "$b"; exit 0\' TERM; while :; do '
           'while IFS=": " read -r n rx rp _ _ _ _ _ _ tx tp _; do '
           '[ "$n" = %s ] && break; done < /proc/net/dev; '
           'b+="$EPOCHREALTIME $tx $rx $tp $rp"$\'\\n\'; '
           'if ((++k >= %d)); then printf %%s "$b"; b=; k=0; fi; '
           'read -t %s -u $fd; done')
TRACE = '/sys/kernel/tracing'


def gid_index(host, family=4):
    """The RoCE v2 GID index of the host's address, or None."""
    ip = ipaddress.ip_address(host.ip)
    want = (ipaddress.IPv6Address('::ffff:' + host.ip) if ip.version == 4
            else ip).exploded
    line = ('d=/sys/class/infiniband/%s/ports/1; for i in $(seq 0 31); do '
            '[ "$(cat $d/gids/$i 2>/dev/null)" = %s ] && '
            '[ "$(cat $d/gid_attrs/types/$i 2>/dev/null)" = "RoCE v2" ] && '
            '{ echo $i; exit 0; }; done; exit 1' % (host.rdma, want))
    out = host.out(line)
    return int(out) if out and out.isdigit() else None


def apply_knobs(hosts, algo, knobs, out):
    """Select algo and write knobs ("name=value") on every host; [error]."""
    errs = []
    pairs = [tuple(kv.partition('=')[::2]) for kv in ['algorithm=' + algo] + knobs]
    for h in hosts:
        refused = h.set_knobs(pairs)
        errs += ['%s: cc/%s = %s refused: %s' % (h, k, v, refused[k])
                 for k, v in pairs if k in refused]
        with open(os.path.join(out, 'cc-%s.txt' % h.rdma), 'w') as f:
            f.writelines('%s=%s\n' % kv for kv in sorted(h.knobs().items()))
    return errs


def kernels(hosts):
    """One host per kernel (the VM's network namespaces share one)."""
    seen, one = set(), []
    for h in hosts:
        b = h.out('cat /proc/sys/kernel/random/boot_id') or h.name
        if b not in seen:
            seen.add(b)
            one.append(h)
    return one


def trace_start(hosts):
    for h in kernels(hosts):
        h.run('mountpoint -q %s || mount -t tracefs nodev %s; cd %s && '
              '[ -d events/rxe_cc ] || exit 0; echo 0 > tracing_on; '
              'grep -qw tai trace_clock && echo tai > trace_clock; '
              'echo 16384 > buffer_size_kb; : > trace; '
              'echo 1 > events/rxe_cc/enable; '
              'echo 0 > events/rxe_cc/rxe_cc_ack/enable; echo 1 > tracing_on'
              % (TRACE, TRACE, TRACE))


def trace_stop(hosts, out):
    with open(os.path.join(out, 'trace.txt'), 'w') as f:
        for h in kernels(hosts):
            rc, text, _ = h.run('cd %s && [ -d events/rxe_cc ] || exit 0; '
                                'echo 0 > tracing_on; echo 0 > events/rxe_cc/enable; '
                                'cat trace' % TRACE, timeout=120)
            f.write(text if rc == 0 else '')


def counters(hosts, tag, out):
    """Each host's rdma statistics, hardware counters and QPs (rdma res:
    after the run, a QP left behind shows there) before or after a run."""
    for h in hosts:
        for name, line in (('rdma-stat-%s-%s.txt', 'rdma statistic show link %s/1'
                            % h.rdma),
                           ('hw-counters-%s-%s.txt',
                            'cd /sys/class/infiniband/%s/ports/1/hw_counters && '
                            'for f in *; do echo "$f $(cat $f)"; done' % h.rdma),
                           ('rdma-res-%s-%s.txt', 'rdma resource show qp link %s/1'
                            % h.rdma)):
            _, text, _ = h.run(line)
            with open(os.path.join(out, name % (tag, h.rdma)), 'w') as f:
                f.write(text)


def wait_listen(host, port, timeout_s=30):
    t_end = time.time() + timeout_s
    while time.time() < t_end:
        if host.out("ss -Hltn 'sport = :%d'" % port):
            return True
        time.sleep(0.2)
    return False


# The queue's two commands (the inventory takes one) and their rows.
QUEUE_ROWS = {'switch_queue_bytes': 'queue', 'switch_queue_mean_bytes': 'queue_mean'}


class SwitchReader:
    """The inventory's switch commands: PFC frames and paused time read
    before and after, the queue read every interval_ms, all on this
    machine.  switch_queue_bytes is the queue at the reading ("queue"
    rows); switch_queue_mean_bytes its mean since the command's previous
    call ("queue_mean" rows), primed by one call at the start whose value
    covers an unknown past and is dropped (None).  A command may print,
    after its number, the time (Unix seconds) its reading refers to; the
    runner keeps it within the command's run.  Otherwise the reading is
    stamped with the middle of the run: where in it the switch was read
    is not known, and under load (the test bed's one vCPU) a command
    can take seconds."""

    def __init__(self, cmds, out, interval_ms=100, timeout_s=10):
        self.cmds, self.path = cmds, os.path.join(out, 'switch.txt')
        self.timeout_s = timeout_s
        self.interval_s = interval_ms / 1000
        self.stop_ev, self.thread, self.rows = threading.Event(), None, []

    def read(self, key):
        """(time, value) of one reading; value None if it failed.  A command
        that overruns timeout_s is ended with all it started (its process
        group): a reading left running could still change the state a
        mean-since-the-last-call command keeps, after the runner has
        dropped its value."""
        t0 = time.time_ns()
        v = t = None
        p = subprocess.Popen(['sh', '-c', self.cmds[key]], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True,
                             start_new_session=True)
        try:
            out = p.communicate(timeout=self.timeout_s)[0]
            words = out.split() if p.returncode == 0 else []
            v = float(words[0])
            t = int(float(words[1]) * 1e9) if len(words) > 1 else None
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
        except (IndexError, ValueError):
            pass
        t1 = time.time_ns()
        return (min(max(t, t0), t1) if t is not None else (t0 + t1) // 2), v

    def _loop(self, key, row):
        while not self.stop_ev.wait(self.interval_s):
            t, v = self.read(key)
            if v is not None:
                self.rows.append((row, t, v))

    def start(self):
        for k in ('switch_pfc_frames', 'switch_paused_ns'):
            if k in self.cmds:
                self.rows.append((k + '_before',) + self.read(k))
        for key, row in QUEUE_ROWS.items():
            if key not in self.cmds:
                continue
            if row == 'queue_mean':
                self.rows.append((row, self.read(key)[0], None))
            self.thread = threading.Thread(target=self._loop, args=(key, row),
                                           daemon=True)
            self.thread.start()

    def stop(self):
        self.stop_ev.set()
        if self.thread:
            self.thread.join(15)
        for k in ('switch_pfc_frames', 'switch_paused_ns'):
            if k in self.cmds:
                self.rows.append((k + '_after',) + self.read(k))
        with open(self.path, 'w') as f:
            f.writelines('%s %d %s\n' % r for r in self.rows)


def perftest_args(i, iters, size, tool, tclass, perf_args):
    """The arguments both ends of flow i give perftest (port, count, size,
    class; -H: every latency sample)."""
    return (['-p', PORT_BASE + i, '-n', iters, '-s', size, '--tclass', tclass,
             '-F'] + perf_args + (['-H'] if tool == 'ib_write_lat' else []))


# perftest's start-up (device, memory registration, the TCP exchange with
# its peer) runs at nice 0 for START_BOOST_S, and only then drops to the
# inventory's level.  At nice 19 from the start, in the VM test bed's one
# vCPU beside a running flow (rxe's work and a polling perftest), a
# joining flow's start-up got so little of the CPU that its first byte
# left 14 s after the start, when the first flow had finished (eval-bed,
# a fresh clone on 28 November): the two flows never overlapped.
START_BOOST_S = 3


def perftest_line(timeout_s, nice, tool_line):
    """The shell line that runs tool_line under timeout: at nice 0, or at
    nice 0 for START_BOOST_S and at nice afterwards.  The shell execs the
    tool, so that $$ is the tool's pid and timeout signals the tool."""
    if nice == 0:
        return 'timeout %d nice -n 0 %s' % (timeout_s, tool_line)
    later = '(sleep %d; renice -n %d -p $$) >/dev/null 2>&1 & exec %s' % (
        START_BOOST_S, nice, tool_line)
    return 'timeout %d sh -c %s' % (timeout_s, quote(later))


def run_flows(hosts, specs, tclass, perf_args, flow_timeout_s, out, jobs,
              nice=0):
    """Run the flows: servers, then each client START_S after all listen.
    specs: [(src, dst, start_s, iters, size, tool)] on host indices; every
    perftest at nice level nice once started (perftest_line).  jobs
    collects every background job (main.py ends them on any exit).
    Writes flows.tsv; returns the number of flows that failed."""
    gids = {}
    for h in hosts:
        gids[h.index] = gid_index(h)
        if gids[h.index] is None:
            raise RuntimeError('%s: no RoCE v2 GID for %s on %s' %
                               (h, h.ip, h.rdma))
    servers = []
    for i, (src, dst, st, it, sz, tool) in enumerate(specs):
        d = hosts[dst]
        args = perftest_args(i, it, sz, tool, tclass, perf_args)
        f = open(os.path.join(out, 'flow-%d.server.txt' % i), 'w')
        j = d.t.start(perftest_line(
            flow_timeout_s, nice, '%s -d %s -x %d %s' %
            (tool, d.rdma, gids[dst], quote(*args))), f)
        jobs.append(j)
        servers.append(j)
    for i, (src, dst, *_rest) in enumerate(specs):
        if not wait_listen(hosts[dst], PORT_BASE + i):
            raise RuntimeError('flow %d: the server on %s never listened'
                               % (i, hosts[dst]))
    rows, threads = [None] * len(specs), []
    t_go = time.time()

    def client(i, src, dst, st, it, sz, tool):
        s = hosts[src]
        args = perftest_args(i, it, sz, tool, tclass, perf_args)
        time.sleep(max(0.0, t_go + st - time.time()))
        with open(os.path.join(out, 'flow-%d.client.txt' % i), 'w') as f:
            t0 = time.time()
            j = s.t.start(perftest_line(
                flow_timeout_s, nice, '%s -d %s -x %d %s %s' %
                (tool, s.rdma, gids[src], quote(*args), hosts[dst].ip)), f)
            jobs.append(j)
            rc = j.wait(flow_timeout_s + 30)
            if rc is None:
                j.stop()
                rc = 124
            rows[i] = (i, src, dst, tool, st, it, sz, rc, t0, time.time())

    for i, sp in enumerate(specs):
        th = threading.Thread(target=client, args=(i,) + tuple(sp), daemon=True)
        th.start()
        threads.append(th)
    for th in threads:
        th.join()
    for j in servers:
        if j.wait(10) is None:
            j.stop()
    with open(os.path.join(out, 'flows.tsv'), 'w') as f:
        f.write('# id src dst tool start_s iters size rc t0 t1\n')
        for r in rows:
            f.write('%d\t%d\t%d\t%s\t%s\t%d\t%d\t%d\t%.6f\t%.6f\n' % r)
    return sum(1 for r in rows if r[7] != 0)


def start_samplers(hosts, out, jobs, sample_ms=10):
    for h in hosts:
        f = open(os.path.join(out, 'samples-%s.txt' % h.name), 'w')
        batch = max(1, round(SAMPLE_FLUSH_S * 1000 / sample_ms))
        line = SAMPLER % (h.netdev, batch, sample_ms / 1000)
        jobs.append(h.t.start('bash -c %s' % quote(line), f))


def _samples(out, h):
    rows = []
    try:
        with open(os.path.join(out, 'samples-%s.txt' % h.name)) as f:
            for line in f:
                p = line.split()
                if len(p) == 5:
                    rows.append((int(float(p[0]) * 1e9),) + tuple(int(x) for x in p[1:]))
    except OSError:
        pass
    return rows


# The NIC counts every frame, the data's and the rest (perftest's TCP
# exchange before and after the flows, ARP): the data span starts at the
# last sample before the receiver has more than this beyond its first
# sample, and ends at the first sample after which less than this follows.
DATA_SPAN_BYTES = 64 * 1024


def data_span(samples, col=2):
    """(first, last) samples (t, tx, rx, tp, rp) around the data in column
    col (2: received, the receiver's; 1: sent, a sender's): what lsw's
    tx_first/tx_last and its series give, as they count the data
    priority only."""
    b0, b_l = samples[0][col], samples[-1][col]
    i0 = next((i for i, r in enumerate(samples)
               if r[col] - b0 > DATA_SPAN_BYTES), 1) - 1
    i1 = next((i for i in range(len(samples) - 1, -1, -1)
               if b_l - samples[i][col] > DATA_SPAN_BYTES), len(samples) - 2) + 1
    if i1 <= i0:
        return samples[0], samples[-1]
    return samples[i0], samples[i1]


def span_bytes(samples, col, span):
    """Column col of each sample as bytes since the start of span (its
    data_span), held at 0 before it and at its total after it: the series
    then starts and ends where the data does (eval/metrics.py's active
    intervals, the all-active window), not at perftest's TCP exchange."""
    first, last = span
    return [0 if r[0] <= first[0] else
            last[col] - first[col] if r[0] >= last[0] else
            r[col] - first[col] for r in samples]


def queue_of_means(rows):
    """[(t, q)] samples of a queue from [(t, mean since the previous row)]:
    each mean is held from the previous reading's time, so that the
    readings tile the time they cover.  The first row (the priming call)
    only gives the start."""
    return [(t0, v) for (t0, _), (_, v) in zip(rows, rows[1:])]


def lab_series(hosts, senders, receiver, prio, line_bps, out, ether_overhead=24):
    """lsw-timeseries.csv and lsw-counters.json from the host samples (and
    the switch's readings), in lsw's shapes: switch "lab", port hK."""
    sw = {}
    try:
        with open(os.path.join(out, 'switch.txt')) as f:
            for line in f:
                k, t, v = line.split()
                sw.setdefault(k, []).append((int(t), None if v == 'None' else float(v)))
    except OSError:
        pass
    queue = sw.get('queue', []) or queue_of_means(sw.get('queue_mean', []))

    def q_at(t):
        best = None
        for tq, v in queue:
            if tq <= t:
                best = v
        return int(best or 0)

    ports = []
    lines = ['time_ns,switch,port,prio,queue_bytes,paused,tcd_state,'
             'ingress_bytes,host_queue_bytes,bytes_in,bytes_out']
    for h in hosts:
        s = _samples(out, h)
        if not s:
            continue
        is_rx = h.index == receiver
        zero = [0] * len(s)
        first, last = data_span(s)
        sent = span_bytes(s, 1, data_span(s, 1)) if h.index in senders else zero
        rcvd = span_bytes(s, 2, (first, last)) if is_rx else zero
        for r, b_in, b_out in zip(s, sent, rcvd):
            lines.append('%d,lab,h%d,%d,%d,0,-,0,0,%d,%d' %
                         (r[0], h.index, prio, q_at(r[0]) if is_rx else 0, b_in, b_out))
        pr = {'prio': prio, 'bytes_in': sent[-1]}
        if is_rx:
            pr.update({'bytes_out': last[2] - first[2],
                       'frames_out': last[4] - first[4],
                       'tx_first_ns': first[0], 'tx_last_ns': last[0]})
            if queue:
                pr['queue_peak_bytes'] = int(max(v for _, v in queue if v is not None))
            for k, name in (('switch_pfc_frames', 'pfc_tx'),
                            ('switch_paused_ns', 'paused_ns')):
                b, a = sw.get(k + '_before'), sw.get(k + '_after')
                if b and a and b[0][1] is not None and a[0][1] is not None:
                    pr[name] = int(a[0][1] - b[0][1])
        ports.append({'name': 'h%d' % h.index, 'rate_bps': line_bps,
                      'prio': [pr]})
    with open(os.path.join(out, 'lsw-timeseries.csv'), 'w') as f:
        f.write('\n'.join(lines) + '\n')
    with open(os.path.join(out, 'lsw-counters.json'), 'w') as f:
        json.dump({'switches': [{'name': 'lab', 'ports': ports}],
                   'host_side': True,
                   'measured': sorted(k for k in ('switch_pfc_frames', 'switch_paused_ns',
                                                  'switch_queue_bytes')
                                      if k + '_after' in sw or (k == 'switch_queue_bytes' and queue)),
                   'ether_overhead_bytes': ether_overhead}, f, indent=1)

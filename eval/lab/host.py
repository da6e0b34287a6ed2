# SPDX-License-Identifier: GPL-2.0
"""One lab host: its transport, its RDMA device and the device's CC knobs.

Knobs are sysfs files under /sys/class/infiniband/DEV/ports/1/cc.  A run
saves every writable one first and puts them back afterwards, also after a
failure or Ctrl-C (main.py).  Writing them back can meet the module's
cross-checks (a floor above a cap is refused), so the restore goes round
until a pass changes nothing.
"""
from transport import Transport, quote


class Host:
    def __init__(self, spec, index=None, ssh_config=None):
        self.spec = spec
        self.name, self.rdma, self.netdev, self.ip = (spec.name, spec.rdma,
                                                     spec.netdev, spec.ip)
        self.index = index
        self.t = Transport(spec.how, spec.dest, ssh_config, spec.sudo)
        self.cc_dir = '/sys/class/infiniband/%s/ports/1/cc' % self.rdma

    def __str__(self):
        return '%s (%s)' % (self.name, self.t.describe())

    def run(self, line, timeout=30, stdin=None):
        return self.t.run(line, timeout, stdin)

    def ok(self, line, timeout=30):
        return self.run(line, timeout)[0] == 0

    def out(self, line, timeout=30):
        """stdout of line, stripped; None if it failed."""
        rc, out, _ = self.run(line, timeout)
        return out.strip() if rc == 0 else None

    def knobs(self):
        """{name: value} of every writable cc/ and cc_experimental/ knob
        (read by the shell: a cat per knob would start 50 processes)."""
        rc, out, _ = self.run('cd %s && for f in * ../cc_experimental/*; do '
                              '[ -f "$f" ] && [ -w "$f" ] '
                              '|| continue; v=; { read -r v < "$f"; } 2>/dev/null; '
                              'printf "%%s=%%s\\n" "${f##*/}" "$v"; done; true'
                              % quote(self.cc_dir))
        kv = {}
        for line in out.splitlines() if rc == 0 else ():
            k, _, v = line.partition('=')
            kv[k] = v
        return kv

    def set_knobs(self, pairs):
        """Write [(name, value)] in that order, in one command (a command
        is a round trip over ssh, and a process start each in the test
        bed's TCG); {name: the error the module gave} of those refused.
        An ablation's knob lives in cc_experimental/."""
        if not pairs:
            return {}
        rc, out, err = self.run(
            'cd %s || exit 1; while IFS== read -r n v; do '
            'f=$n; [ -e "$f" ] || [ ! -e "../cc_experimental/$n" ] || '
            'f=../cc_experimental/$n; '
            'e=$( { printf "%%s\\n" "$v" > "$f"; } 2>&1 ) || '
            'printf "%%s\\t%%s\\n" "$n" "$(echo "${e:-refused}" | tail -n 1)"; done'
            % quote(self.cc_dir), stdin=''.join('%s=%s\n' % kv for kv in pairs))
        if rc != 0:
            why = (err.strip().splitlines() or ['exit %d' % rc])[-1]
            return {k: why for k, _ in pairs}
        return dict(line.split('\t', 1) for line in out.splitlines()
                    if '\t' in line)

    def restore(self, saved):
        """Write saved back; [(name, error)] of what would not go back."""
        todo, errs = dict(saved), {}
        for _ in range(4):
            now = self.knobs()
            errs = self.set_knobs([(k, v) for k, v in todo.items()
                                   if now.get(k) != v])
            if not errs or len(errs) == len(todo):
                break
            todo = {k: saved[k] for k in errs}
        now = self.knobs()
        return [(k, e) for k, e in errs.items() if now.get(k) != saved[k]]

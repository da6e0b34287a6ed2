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
    def __init__(self, spec, index=None):
        self.spec = spec
        self.name, self.rdma, self.netdev, self.ip = (spec.name, spec.rdma,
                                                     spec.netdev, spec.ip)
        self.index = index
        self.t = Transport(spec.how, spec.dest)
        self.cc_dir = '/sys/class/infiniband/%s/ports/1/cc' % self.rdma

    def __str__(self):
        return '%s (%s)' % (self.name, self.t.describe())

    def run(self, line, timeout=30):
        return self.t.run(line, timeout)

    def ok(self, line, timeout=30):
        return self.run(line, timeout)[0] == 0

    def out(self, line, timeout=30):
        """stdout of line, stripped; None if it failed."""
        rc, out, _ = self.run(line, timeout)
        return out.strip() if rc == 0 else None

    def knobs(self):
        """{name: value} of every writable cc/ knob."""
        rc, out, _ = self.run('cd %s && for f in *; do [ -f "$f" ] && [ -w "$f" ] '
                              '&& printf "%%s=%%s\\n" "$f" "$(cat "$f")"; done; true'
                              % quote(self.cc_dir))
        kv = {}
        for line in out.splitlines() if rc == 0 else ():
            k, _, v = line.partition('=')
            kv[k] = v
        return kv

    def set_knob(self, name, value):
        """'' if taken, else the error the module gave."""
        rc, _, err = self.run('echo %s > %s/%s' % (quote(value), quote(self.cc_dir),
                                                  quote(name)))
        return '' if rc == 0 else (err.strip().splitlines() or ['refused'])[-1]

    def restore(self, saved):
        """Write saved back; [(name, error)] of what would not go back."""
        todo, errs = dict(saved), {}
        for _ in range(4):
            now = self.knobs()
            errs = {}
            for k, v in todo.items():
                if now.get(k) != v:
                    e = self.set_knob(k, v)
                    if e:
                        errs[k] = e
            if not errs or len(errs) == len(todo):
                break
            todo = {k: saved[k] for k in errs}
        now = self.knobs()
        return [(k, e) for k, e in errs.items() if now.get(k) != saved[k]]

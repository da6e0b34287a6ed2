# SPDX-License-Identifier: GPL-2.0
"""How the runner reaches a host: ssh in a lab, a network namespace in the
VM test bed, or this machine.  Everything above this file (checks, knobs,
flows) is the same for all three: a host runs shell command lines.

Every command is a shell line run by ``sh -c`` on the host.  ssh runs in
BatchMode (keys only: a password prompt would hang a run) with a connect
timeout.  A background command (``start``) prints its PID first, so that
``stop`` can end it on the host: killing a local ssh client does not end
what it started remotely, and nothing may be left running after a run.

With sudo, each line runs as ``sudo -n sh -c LINE`` on the host (over ssh,
or around nsenter/sh here): a lab whose ssh user is not root needs
password-less sudo for it; ``-n`` makes a password prompt an error, as
BatchMode does for ssh.
"""
import shlex
import subprocess
import threading

SSH_OPTS = ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5',
            '-o', 'ServerAliveInterval=5']


class Transport:
    """Runs shell lines on one host."""

    def __init__(self, how, dest, ssh_config=None, sudo=False):
        self.how, self.dest, self.sudo = how, dest, sudo
        self.ssh_opts = SSH_OPTS + (['-F', ssh_config] if ssh_config else [])

    def argv(self, line):
        sudo = ['sudo', '-n'] if self.sudo else []
        if self.how == 'ssh':
            # ssh hands the remote shell one string
            remote = ('sudo -n sh -c ' + shlex.quote(line)) if self.sudo else line
            return ['ssh'] + self.ssh_opts + [self.dest, '--', remote]
        if self.how == 'netns':
            # nsenter, not "ip netns exec": that one mounts a sysfs of the
            # namespace, where rdma's shared mode shows only a compat copy
            # of each device, without the driver's cc/ knobs.
            return sudo + ['nsenter', '--net=/run/netns/' + self.dest, 'sh', '-c', line]
        return sudo + ['sh', '-c', line]

    def describe(self):
        return ({'ssh': 'ssh %s', 'netns': 'netns %s',
                 'local': 'this machine%s'}[self.how] % self.dest
                + (', sudo' if self.sudo else ''))

    def run(self, line, timeout=30, stdin=None):
        """(exit status, stdout, stderr) of line; status 124 on a timeout."""
        try:
            p = subprocess.run(self.argv(line), input=stdin, timeout=timeout,
                               capture_output=True, text=True)
        except subprocess.TimeoutExpired:
            return 124, '', 'timed out after %d s' % timeout
        except OSError as e:
            return 127, '', str(e)
        return p.returncode, p.stdout, p.stderr

    def start(self, line, out):
        """A background command whose output goes to the open file out."""
        return Job(self, line, out)

    def stop(self, pid):
        """End a background command on the host (and its children)."""
        if pid:
            self.run('pkill -TERM -P %d 2>/dev/null; kill -TERM %d 2>/dev/null; true'
                     % (pid, pid), timeout=10)


class Job:
    """A command running in the background on a host, its output copied to
    a local file by a thread.  The first line it prints is its PID on the
    host (see the module's comment)."""

    def __init__(self, transport, line, out):
        self.transport, self.out = transport, out
        self.proc = subprocess.Popen(transport.argv('echo $$; exec sh -c '
                                                    + shlex.quote(line)),
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        first = self.proc.stdout.readline()
        self.pid = int(first) if first.strip().isdigit() else None
        if self.pid is None:
            out.write(first)
        self.pump = threading.Thread(target=self._copy, daemon=True)
        self.pump.start()

    def _copy(self):
        for line in self.proc.stdout:
            self.out.write(line)
            self.out.flush()

    def wait(self, timeout=None):
        """Its exit status, or None if it still runs after timeout s.

        It waits for the end of the output, which the command closes when
        it exits: a thread's join sleeps until then.  Popen.wait with a
        timeout would instead wake every 50 ms to poll, for each waiting
        flow; on the test bed's one vCPU that is CPU taken from rxe.  A
        command that leaves a child holding its output open reads as
        still running."""
        self.pump.join(timeout)
        if self.pump.is_alive():
            return None
        try:
            return self.proc.wait(5)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        """End it on the host, then the local side."""
        if self.proc.poll() is None:
            self.transport.stop(self.pid)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.pump.join(5)


def quote(*words):
    return ' '.join(shlex.quote(str(w)) for w in words)

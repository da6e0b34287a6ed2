#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""clock-step.py SSH_CONFIG DEST: step DEST's realtime clock to this
machine's, as a lab's chrony keeps its hosts, and print the offset left.

The VM's clock starts from its RTC, in whole seconds; the lab runner's
pre-flight check wants 50 ms (eval/lab/preflight.py), and measures the
offset the same way as here (the midpoint of a round trip), so each step
removes what that check would see.  Exit 1 if the offset left is over the
check's limit.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'eval', 'lab'))
from host import Host                         # noqa: E402
from inventory import HostSpec                # noqa: E402
from preflight import CLOCK_SKEW_MAX_S, clock_offset_s  # noqa: E402


# Add STEP microseconds to the clock: the shell's own clock and
# arithmetic, so that only date's own start lies between reading the clock
# and setting it (a pipeline of date and awk took about 75 ms in TCG).
STEP = ("bash -c 'u=${EPOCHREALTIME/./}; u=$((u + %d)); "
        "date -s @${u:0:-6}.${u: -6} >/dev/null'")
# Close enough: a fifth of the pre-flight check's limit.
STEP_DONE_S = CLOCK_SKEW_MAX_S / 5


def best_offset(h, n=3):
    """Of n readings, the one with the shortest round trip, as NTP
    filters: its midpoint is the least uncertain (a reading's
    uncertainty in the VM is 50-115 ms, and a single one can be off by
    most of it)."""
    offs = [o for o in (clock_offset_s(h) for _ in range(n)) if o]
    return min(offs, key=lambda o: o[1]) if offs else None


def main():
    cfg, dest = sys.argv[1], sys.argv[2]
    h = Host(HostSpec(dest, 'ssh', dest, '-', '-', '0.0.0.0'), ssh_config=cfg)
    lag_s = 0.0
    for i in range(4):
        off = best_offset(h)
        if off is None:
            print('clock-step: cannot read the clock of %s' % dest)
            return 1
        print('clock-step: %s is %+.1f ms off (+-%.1f ms)' %
              (dest, off[0] * 1e3, off[1] * 1e3))
        # What the first step lost between reading the clock and setting
        # it (about 70 ms in TCG): it was meant to leave 0, so the offset
        # after it is minus that loss.  Every later step adds it back;
        # each later estimate would carry the noise of two readings.
        if i == 1:
            lag_s = -off[0]
        if abs(off[0]) <= STEP_DONE_S or i == 3:
            break
        rc, _, err = h.run(STEP % round((-off[0] + lag_s) * 1e6))
        if rc:
            print('clock-step: date -s on %s: %s' % (dest, err.strip()))
            return 1
    return 0 if abs(off[0]) <= CLOCK_SKEW_MAX_S else 1


if __name__ == '__main__':
    sys.exit(main())

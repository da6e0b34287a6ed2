# SPDX-License-Identifier: GPL-2.0
"""The TAP runner of the evaluation's Python unit tests: @case collects a
test function, run() runs them in order and prints TAP, a failure with
its traceback as diagnostics."""
import traceback

CASES = []


class Skip(Exception):
    """Raised by a case that cannot run here; its message says why."""


def case(fn):
    CASES.append(fn)
    return fn


def run():
    """Exit status: 1 if a case failed."""
    print('TAP version 13')
    print('1..%d' % len(CASES))
    failed = 0
    for i, fn in enumerate(CASES, 1):
        name = fn.__name__.replace('_', ' ')
        try:
            fn()
            print('ok %d - %s' % (i, name))
        except Skip as e:
            print('ok %d - %s # SKIP %s' % (i, name, e))
        except Exception:  # noqa: BLE001 - any failure is the test's
            failed += 1
            print('not ok %d - %s' % (i, name))
            for line in traceback.format_exc().splitlines():
                print('# ' + line)
    return 1 if failed else 0

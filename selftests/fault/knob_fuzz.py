#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""knob_fuzz.py - write boundary and random strings to every CC knob.

    knob_fuzz.py DIR [--random N] [--seed S] [--allow-erange]

DIR is /sys/class/infiniband/DEV/ports/1/cc.  For every writable file in
it and in its sibling cc_experimental/, each string of a fixed boundary
list and N random ones is written in a single write().  The rule checked:

  * a rejected write fails with EINVAL and leaves the knob as it was;
  * no write to a knob changes another (all are read after each knob's
    strings);
  * an accepted write reads back as the value the string denotes (a C
    kstrtou64 with base 0: decimal, 0x hex, 0 octal, one optional leading
    '+' and one trailing newline, up to a NUL), or, for an algorithm knob,
    as the name written;
  * a zero-length write (it never reaches the store) changes nothing.

Some knobs take other values: cnp_dscp/ack_dscp are signed
(kstrtos8: -1 means "the QP's own DSCP", else 0..63), prio<N>_np and
acc_halt take exactly 0 or 1 and acc_gate 0..3; an accepted write
must denote a value in that range.

--allow-erange lets a number too big for 64 bits fail with ERANGE (what
kstrtou64 returns) instead of EINVAL.  Every knob is restored after its strings.  Prints one "# " line per
violation and a JSON summary last; exits 1 on a violation.
"""

import errno
import json
import os
import random
import string
import sys

BOUNDARY = [
    "", "\n", " ", "\t", "0", "1", "-1", "-0", "+5", "5 ", " 5", "5\n\n",
    "\t5\n", "5\t", "0x", "0x10", "0X1f", "0xg", "010", "09", "1e3", "1.5",
    "abc", "5abc", "none", "dcqcn", "acc", "default", "ACC", "acc ",
    " acc", "acc\n\n", "255", "256", "65535", "65536", "4294967295",
    "4294967296", "9223372036854775807", "9223372036854775808",
    "18446744073709551615", "18446744073709551616",
    "99999999999999999999999999999", "-18446744073709551615",
    "0xffffffffffffffff", "0x10000000000000000", "9" * 4000, "1" * 5000,
    "\x00", "5\x005", "\xff\xfe",
]


def c_strtou64(s):
    """kstrtou64(s, 0) as the kernel parses it, or None if it fails.

    sysfs hands a store the written bytes as a C string: a NUL ends it.
    """
    s = s.split("\x00", 1)[0]
    if s.endswith("\n"):
        s = s[:-1]
    if s.startswith("+"):
        s = s[1:]
    if not s:
        return None
    if s[:2].lower() == "0x":
        base, digits = 16, s[2:]
    elif s.startswith("0") and len(s) > 1:
        base, digits = 8, s[1:]
    else:
        base, digits = 10, s
    if not digits or any(c not in string.hexdigits[:base + 6 if base == 16 else base]
                         for c in digits.lower()):
        return None
    if len(digits.lstrip("0")) > 22:		# past 64 bits in any base
        return None
    v = int(digits, base)
    return v if v < 1 << 64 else None


def c_strtos64(s):
    """kstrtoll(s, 0): an optional '-' before a kstrtou64 number."""
    t = s.split("\x00", 1)[0]
    if t.startswith("-"):
        v = c_strtou64(t[1:])
        return None if v is None or t[1:2] == "+" or v > 1 << 63 else -v
    v = c_strtou64(t)
    return v if v is not None and v < 1 << 63 else None


def knob_value(k, s):
    """The value an accepted write of s to knob k must read back as."""
    if k in ("cnp_dscp", "ack_dscp"):
        v = c_strtos64(s)
        return v if v is not None and -1 <= v <= 63 else None
    if k.startswith("prio") and k.endswith("_np") or k == "acc_halt":
        v = c_strtou64(s)
        return v if v is not None and v <= 1 else None
    if k == "acc_gate":
        v = c_strtou64(s)
        return v if v is not None and v <= 3 else None
    return c_strtou64(s)


def read_all(paths, names):
    out = {}
    for n in names:
        with open(paths[n], errors="replace") as f:
            out[n] = f.read().strip()
    return out


def write(path, data):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, data)
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(fd)


def main():
    d = sys.argv[1]
    nrand = int(sys.argv[sys.argv.index("--random") + 1]) if "--random" in sys.argv else 20
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 1
    rnd = random.Random(seed)
    paths = {}
    for dd in (d, d.rstrip("/") + "_experimental"):
        if os.path.isdir(dd):
            paths.update((n, os.path.join(dd, n)) for n in os.listdir(dd)
                         if os.path.isfile(os.path.join(dd, n)))
    names = sorted(paths)
    writable = [n for n in names if os.stat(paths[n]).st_mode & 0o200]
    with open(os.path.join(d, "available")) as f:
        algos = f.read().split()
    stats = {"knobs": len(writable), "writes": 0, "accepted": 0,
             "rejected": 0, "violations": 0, "errnos": {}}
    bad = []

    def violation(msg):
        stats["violations"] += 1
        if len(bad) < 40:
            bad.append(msg)

    for k in writable:
        path = paths[k]
        orig = read_all(paths, names)
        strings = list(BOUNDARY)
        for _ in range(nrand):
            n = rnd.choice([1, 2, 5, 12, 25, 100])
            alphabet = rnd.choice([string.digits, string.printable,
                                   "0123456789abcdefx+- \n"])
            strings.append("".join(rnd.choice(alphabet) for _ in range(n)))
        cur = orig[k]
        for s in strings:
            data = s.encode("latin-1")
            err = write(path, data)
            now = read_all(paths, [k])[k]
            stats["writes"] += 1
            shown = repr(s if len(s) < 24 else s[:20] + "...")
            if err:
                stats["rejected"] += 1
                name = errno.errorcode.get(err, str(err))
                stats["errnos"][name] = stats["errnos"].get(name, 0) + 1
                if err != errno.EINVAL and not (
                        err == errno.ERANGE and "--allow-erange" in sys.argv):
                    violation(f"{k} <- {shown}: {name}, not EINVAL")
                if now != cur:
                    violation(f"{k} <- {shown} rejected but changed to {now!r}")
                continue
            stats["accepted"] += 1
            if not data:
                # a zero-length write never reaches the store
                if now != cur:
                    violation(f"{k} <- '' changed it to {now!r}")
                continue
            cur = now
            if k == "algorithm" or k.endswith("_algorithm"):
                want = s.split("\x00", 1)[0]
                want = want[:-1] if want.endswith("\n") else want
                ok = want in algos or (k != "algorithm" and want == "default")
                if not ok or now != want:
                    violation(f"{k} <- {shown} accepted, reads {now!r}")
            else:
                v = knob_value(k, s)
                if v is None:
                    violation(f"{k} <- {shown} accepted, not a number; reads {now!r}")
                elif str(v) != now:
                    violation(f"{k} <- {shown} accepted, reads {now!r} not {v}")
        # a write to k touches no other knob (checked once per knob:
        # reading all knobs after every write is slow in a TCG guest)
        final = read_all(paths, names)
        others = [n for n in names if n != k and final[n] != orig[n]]
        if others:
            violation(f"writes to {k} changed {others}")
        # restore this knob (and any other that moved)
        for n in writable:
            if read_all(paths, [n])[n] != orig[n]:
                write(paths[n], (orig[n] + "\n").encode())
        if read_all(paths, names) != orig:
            violation(f"{k}: could not restore the knobs")
    for m in bad:
        print(f"# {m}")
    print(json.dumps(stats))
    return 1 if stats["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: GPL-2.0
"""Small statistics shared by metrics.py and onset.py (stdlib only)."""
import math


def jain(xs):
    xs = list(xs)
    if not xs:
        return None
    s2 = sum(x * x for x in xs)
    if s2 == 0:
        return None
    return sum(xs) ** 2 / (len(xs) * s2)


def percentile(values, p):
    """Nearest rank: the ceil(p/100 * n)-th smallest (p in (0, 100])."""
    v = sorted(values)
    if not v:
        return None
    # round() first: 99.9 / 100 * 1000 is 999.0000000000001 in binary
    k = max(1, math.ceil(round(p * len(v) / 100.0, 9)))
    return v[min(k, len(v)) - 1]


def interp(samples, t):
    """Cumulative value at time t, linear between (t, value) samples."""
    if not samples:
        return 0
    if t <= samples[0][0]:
        return samples[0][1]
    if t >= samples[-1][0]:
        return samples[-1][1]
    lo, hi = 0, len(samples) - 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if samples[mid][0] <= t:
            lo = mid
        else:
            hi = mid
    (t0, v0), (t1, v1) = samples[lo], samples[hi]
    return v0 + (v1 - v0) * (t - t0) / (t1 - t0)

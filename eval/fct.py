# SPDX-License-Identifier: GPL-2.0
"""Flow completion times of short flows (python3 stdlib only).

Definitions (unit-tested in eval/tests/test_metrics.py):
  * FCT: the time perftest measured from its first post to its last
    completion (connection set-up, TCP exchange and QP creation, is not in
    it), recovered from its report: bytes (iters x size) over "BW average"
    (MB = 2^20 bytes, 2 decimals) or iters over "MsgRate" (Mpps, 6
    decimals), whichever the printed digits give more precisely (the
    smaller half-unit of the last digit relative to the value); when both
    print as zero the flow took longer than their resolution can say, and
    its FCT is the floor iters / 0.5 message per second (a lower bound,
    counted as censored);
  * ideal FCT: the flow's wire bits at the line rate plus one base RTT,
    wire bytes = size + one frame overhead (RoCE headers, Ethernet framing
    and lsw's preamble/IFG) per RoCE MTU of payload;
  * slowdown: FCT / ideal FCT; p50/p99 nearest rank over the small flows.
"""
import math

from stats import percentile

PERFTEST_MB = 1 << 20
ROCE_MTU = 1024            # the test bed's RoCE MTU (NIC MTU 1500)
FRAME_OVERHEAD = 82 + 24   # RoCE + Ethernet headers, then preamble and IFG


def fct_s(iters, size, bw_avg_mbyte_s, msg_rate_mpps=None):
    """Seconds perftest took for iters x size bytes, from its average BW
    or its message rate, whichever is printed more precisely."""
    est = []
    if bw_avg_mbyte_s and bw_avg_mbyte_s > 0:
        est.append((0.005 / bw_avg_mbyte_s,
                    iters * size / (bw_avg_mbyte_s * PERFTEST_MB)))
    if msg_rate_mpps and msg_rate_mpps > 0:
        est.append((0.5e-6 / msg_rate_mpps, iters / (msg_rate_mpps * 1e6)))
    return min(est)[1] if est else None


def fct_floor_s(iters):
    """The least FCT of a flow whose BW and MsgRate both print as 0: below
    0.5e-6 Mpps, i.e. more than 2 s per message."""
    return iters / 0.5


def wire_bytes(iters, size, mtu=ROCE_MTU):
    """Bytes on the wire of iters messages of size bytes."""
    return iters * (size + math.ceil(size / mtu) * FRAME_OVERHEAD)


def ideal_fct_s(iters, size, line_bps, rtt_s):
    return wire_bytes(iters, size) * 8 / line_bps + rtt_s


def slowdowns(flows, line_bps, rtt_s, small_bytes):
    """{'n', 'p50', 'p99', 'small_n', 'small_p50', 'small_p99'} over
    flows [(iters, size, fct_s)] (fct None: not counted); small = at most
    small_bytes."""
    every, small = [], []
    for iters, size, fct in flows:
        if fct is None:
            continue
        s = fct / ideal_fct_s(iters, size, line_bps, rtt_s)
        every.append(s)
        if iters * size <= small_bytes:
            small.append(s)
    return {'n': len(every), 'p50': percentile(every, 50),
            'p99': percentile(every, 99), 'small_n': len(small),
            'small_p50': percentile(small, 50),
            'small_p99': percentile(small, 99)}

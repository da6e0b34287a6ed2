#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scale_qps.py - many connected RC QPs on one device, traffic on a few.

    scale_qps.py --src DEV:GIDX --dst DEV:GIDX --qps N --active K
                 [--seconds T] [--size BYTES] [--depth D] [--rounds R]

Creates K RC QPs on the source device, each connected to its own QP on the
destination device (pyverbs, no connection manager), and posts RDMA WRITEs
of SIZE bytes on them, D in flight per QP, for T seconds: the "alone"
figure.  Then adds N - K connected QPs, all brought to RTS so that each
one starts its congestion control, and runs the same K QPs again: the
"many" figure; then destroys the N - K again.  R rounds of this
alternation, in one process with the same K QPs, so that the ratio many
÷ alone is not a drift of the host between two runs.

Prints one JSON object: QPs, kernel memory before and after the extra QPs
(/proc/meminfo Slab + VmallocUsed, kB; and the objects of the kmalloc
caches per QP, from /proc/slabinfo), idle CPU ticks per second with K and
with N QPs, the WRITE throughput of the active QPs (Mb/s) alone and with
the many per round, the per-QP spread, and the median ratio.
"""


import argparse
import json
import statistics
import time

import pyverbs.enums as e
from pyverbs.addr import AHAttr, GlobalRoute
from pyverbs.cq import CQ
from pyverbs.device import Context
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr
from pyverbs.wr import SGE, SendWR

PORT = 1


def meminfo_kb():
    v = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, rest = line.split(":", 1)
            v[k] = int(rest.split()[0])
    return v["Slab"] + v.get("VmallocUsed", 0)


SLAB_CACHES = ("kmalloc-2k", "kmalloc-4k", "kmalloc-8k")


def slab_objs():
    """Active objects of the kmalloc caches a QP's memory comes from."""
    n = {}
    try:
        with open("/proc/slabinfo") as f:
            for line in f:
                w = line.split()
                if w and w[0] in SLAB_CACHES:
                    n[w[0]] = int(w[1])
    except OSError:
        pass
    return n


def busy_ticks():
    with open("/proc/stat") as f:
        c = [int(x) for x in f.readline().split()[1:]]
    return sum(c) - c[3] - c[4]		# all but idle and iowait


def idle_cost(seconds):
    t0 = busy_ticks()
    time.sleep(seconds)
    return (busy_ticks() - t0) / seconds


ACCESS = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE


class Side:
    def __init__(self, spec, buf_bytes):
        name, gidx = spec.split(":")
        self.ctx = Context(name=name)
        self.gidx = int(gidx)
        self.gid = self.ctx.query_gid(PORT, self.gidx)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 4096)
        self.mr = MR(self.pd, buf_bytes, ACCESS)
        self.qps = []

    def add(self, n):
        cap = QPCap(max_send_wr=16, max_recv_wr=1, max_send_sge=1,
                    max_recv_sge=1)
        init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq, rcq=self.cq,
                          cap=cap)
        # Given a QPAttr, pyverbs takes the QP to INIT at once: the access
        # flags must be in it (to_rts() does not redo INIT).
        qa = QPAttr(port_num=PORT)
        qa.qp_access_flags = ACCESS
        self.qps += [QP(self.pd, init, qa) for _ in range(n)]

    def drop(self, keep):
        for qp in self.qps[keep:]:
            qp.close()
        del self.qps[keep:]

    def connect(self, peer, first):
        for mine, theirs in zip(self.qps[first:], peer.qps[first:]):
            a = QPAttr(port_num=PORT)
            a.qp_access_flags = ACCESS
            a.path_mtu = e.IBV_MTU_1024
            a.dest_qp_num = theirs.qp_num
            a.rq_psn = 0
            a.sq_psn = 0
            a.max_dest_rd_atomic = 1
            a.max_rd_atomic = 1
            a.min_rnr_timer = 12
            a.timeout = 14
            a.retry_cnt = 7
            a.rnr_retry = 7
            gr = GlobalRoute(dgid=peer.gid, sgid_index=self.gidx)
            a.ah_attr = AHAttr(port_num=PORT, is_global=1, gr=gr)
            mine.to_rts(a)


def grow(src, dst, n):
    """Both sides to n connected QP pairs (from however many they have)."""
    first = len(src.qps)
    dst.add(n - first)
    src.add(n - first)
    dst.connect(src, first)
    src.connect(dst, first)


def run_traffic(src, dst, active, seconds, size, depth):
    done = [0] * active
    qpi = {src.qps[i].qp_num: i for i in range(active)}
    errors = 0
    statuses = {}
    # WRs posted and not completed yet: every completion, good or not,
    # takes one away, so the drain below waits for exactly what is left
    inflight = 0

    def post(i):
        nonlocal inflight
        wr = SendWR(wr_id=i, opcode=e.IBV_WR_RDMA_WRITE, num_sge=1,
                    sg=[SGE(src.mr.buf, size, src.mr.lkey)],
                    send_flags=e.IBV_SEND_SIGNALED)
        wr.set_wr_rdma(dst.mr.rkey, dst.mr.buf)
        src.qps[i].post_send(wr)
        inflight += 1

    for i in range(active):
        for _ in range(depth):
            post(i)
    t0 = time.monotonic()
    end = t0 + seconds
    while True:
        n, wcs = src.cq.poll(64)
        now = time.monotonic()
        inflight -= n
        for wc in wcs[:n]:
            if wc.status != e.IBV_WC_SUCCESS:
                errors += 1
                statuses[wc.status] = statuses.get(wc.status, 0) + 1
                continue
            i = qpi[wc.qp_num]
            done[i] += 1
            if now < end:
                post(i)
        if now >= end:
            break
    t = time.monotonic() - t0
    # Drain what is in flight (not counted).  Counting it as active *
    # depth less the errors overstated it by the completions of the last
    # batch, which are not posted again: every call waited the whole 30 s.
    drain_end = time.monotonic() + 30
    while inflight > 0 and time.monotonic() < drain_end:
        n, wcs = src.cq.poll(64)
        inflight -= n
    per_qp = [d * size * 8 / t / 1e6 for d in done]
    return per_qp, errors, statuses


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--qps", type=int, default=1000)
    p.add_argument("--active", type=int, default=10)
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--size", type=int, default=65536)
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--rounds", type=int, default=2)
    a = p.parse_args()
    k = min(a.active, a.qps)

    dst = Side(a.dst, a.size)
    src = Side(a.src, a.size)
    grow(src, dst, k)
    time.sleep(1)
    cpu_few = idle_cost(3)
    alone, many, spread = [], [], []
    errors, statuses = 0, {}

    def traffic(into):
        nonlocal errors
        per_qp, err, st = run_traffic(src, dst, k, a.seconds, a.size, a.depth)
        errors += err
        for code, c in st.items():
            statuses[code] = statuses.get(code, 0) + c
        into.append(sum(per_qp))
        if per_qp:
            spread.append((min(per_qp), max(per_qp)))

    setup_s = mem0 = mem1 = slab0 = slab1 = cpu_many = None
    for r in range(a.rounds):
        traffic(alone)
        if a.qps == k:
            continue
        m0, s0, t0 = meminfo_kb(), slab_objs(), time.monotonic()
        grow(src, dst, a.qps)
        t1 = time.monotonic() - t0
        time.sleep(1)
        m1, s1 = meminfo_kb(), slab_objs()
        if r == 0:
            setup_s, mem0, mem1, slab0, slab1 = t1, m0, m1, s0, s1
            cpu_many = idle_cost(3)
        traffic(many)
        src.drop(k)
        dst.drop(k)
    traffic(alone)

    out = {"qps": a.qps, "active": k, "rounds": a.rounds,
           "idle_busy_ticks_per_s_with_active": round(cpu_few, 1),
           "active_mbps_alone": [round(x, 2) for x in alone],
           "active_mbps_many": [round(x, 2) for x in many],
           "active_mbps_min": round(min(x for x, _ in spread), 2) if spread else 0,
           "active_mbps_max": round(max(x for _, x in spread), 2) if spread else 0,
           "wc_errors": errors,
           "wc_error_status": {str(c): v for c, v in statuses.items()}}
    if many:
        extra = a.qps - k
        # many[i] lies between alone[i] and alone[i + 1]
        ratios = [m / ((alone[i] + alone[i + 1]) / 2) if alone[i] + alone[i + 1] else 0
                  for i, m in enumerate(many)]
        out.update({
            "setup_s": round(setup_s, 2),
            "kmem_kb_before": mem0, "kmem_kb_after": mem1,
            # both ends are on this host: 2 QPs per pair
            "kmem_bytes_per_qp_pair": round((mem1 - mem0) * 1024 / extra),
            "slab_objs_per_qp": {c: round((slab1[c] - slab0[c]) / (2 * extra), 3)
                                 for c in SLAB_CACHES if c in slab0 and c in slab1},
            "idle_busy_ticks_per_s_with_qps": round(cpu_many, 1),
            "many_over_alone": [round(x, 3) for x in ratios],
            "many_over_alone_median": round(statistics.median(ratios), 3)})
    print(json.dumps(out))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scale_qps.py - many connected RC QPs on one device, traffic on a few.

    scale_qps.py --src DEV:GIDX --dst DEV:GIDX --qps N --active K
                 [--seconds T] [--size BYTES] [--depth D]

Creates N RC QPs on the source device, each connected to its own QP on the
destination device (pyverbs, no connection manager), all brought to RTS so
that each one starts its congestion control.  Then posts RDMA WRITEs of
SIZE bytes on the first K QPs, D in flight per QP, for T seconds.

Prints one JSON object: QPs, kernel memory before and after the QPs
(/proc/meminfo Slab + VmallocUsed, kB; and the objects of the kmalloc
caches per QP, from /proc/slabinfo), idle CPU ticks per second before
and with the QPs, and the WRITE throughput of the active QPs (Mb/s), with
the per-QP spread.
"""

import argparse
import json
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


class Side:
    def __init__(self, spec, n, buf_bytes, access):
        name, gidx = spec.split(":")
        self.ctx = Context(name=name)
        self.gidx = int(gidx)
        self.gid = self.ctx.query_gid(PORT, self.gidx)
        self.pd = PD(self.ctx)
        self.cq = CQ(self.ctx, 4096)
        self.mr = MR(self.pd, buf_bytes, access)
        cap = QPCap(max_send_wr=16, max_recv_wr=1, max_send_sge=1,
                    max_recv_sge=1)
        init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq, rcq=self.cq,
                          cap=cap)
        # Given a QPAttr, pyverbs takes the QP to INIT at once: the access
        # flags must be in it (to_rts() does not redo INIT).
        qa = QPAttr(port_num=PORT)
        qa.qp_access_flags = e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_LOCAL_WRITE
        self.qps = [QP(self.pd, init, qa) for _ in range(n)]

    def connect(self, peer):
        for mine, theirs in zip(self.qps, peer.qps):
            a = QPAttr(port_num=PORT)
            a.qp_access_flags = e.IBV_ACCESS_REMOTE_WRITE | e.IBV_ACCESS_LOCAL_WRITE
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


def run_traffic(src, dst, active, seconds, size, depth):
    done = [0] * active
    qpi = {src.qps[i].qp_num: i for i in range(active)}
    errors = 0
    statuses = {}

    def post(i):
        wr = SendWR(wr_id=i, opcode=e.IBV_WR_RDMA_WRITE, num_sge=1,
                    sg=[SGE(src.mr.buf, size, src.mr.lkey)],
                    send_flags=e.IBV_SEND_SIGNALED)
        wr.set_wr_rdma(dst.mr.rkey, dst.mr.buf)
        src.qps[i].post_send(wr)

    for i in range(active):
        for _ in range(depth):
            post(i)
    t0 = time.monotonic()
    end = t0 + seconds
    while True:
        n, wcs = src.cq.poll(64)
        now = time.monotonic()
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
    # drain what is in flight (not counted)
    drain_end = time.monotonic() + 30
    outstanding = active * depth - errors
    while outstanding > 0 and time.monotonic() < drain_end:
        n, wcs = src.cq.poll(64)
        outstanding -= n
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
    a = p.parse_args()

    cpu0 = idle_cost(3)
    mem0 = meminfo_kb()
    slab0 = slab_objs()
    t0 = time.monotonic()
    acc = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE
    dst = Side(a.dst, a.qps, a.size, acc)
    src = Side(a.src, a.qps, a.size, acc)
    dst.connect(src)
    src.connect(dst)
    setup_s = time.monotonic() - t0
    time.sleep(1)
    mem1 = meminfo_kb()
    slab1 = slab_objs()
    cpu1 = idle_cost(3)
    per_qp, errors, statuses = run_traffic(src, dst, min(a.active, a.qps), a.seconds,
                                 a.size, a.depth)
    total = sum(per_qp)
    print(json.dumps({
        "qps": a.qps, "active": a.active,
        "setup_s": round(setup_s, 2),
        "kmem_kb_before": mem0, "kmem_kb_after": mem1,
        "kmem_bytes_per_qp_pair": round((mem1 - mem0) * 1024 / a.qps),
        # both ends are on this host: 2 QPs per pair
        "slab_objs_per_qp": {c: round((slab1[c] - slab0[c]) / (2 * a.qps), 3)
                             for c in SLAB_CACHES if c in slab0 and c in slab1},
        "idle_busy_ticks_per_s_before": round(cpu0, 1),
        "idle_busy_ticks_per_s_with_qps": round(cpu1, 1),
        "active_mbps_total": round(total, 2),
        "active_mbps_min": round(min(per_qp), 2) if per_qp else 0,
        "active_mbps_max": round(max(per_qp), 2) if per_qp else 0,
        "wc_errors": errors,
        "wc_error_status": {str(k): v for k, v in statuses.items()}}))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""roce_gen.py - hostile RoCEv2 packets with a correct ICRC.

Sends Ethernet/IPv4 or IPv6/UDP(4791)/BTH frames on a raw AF_PACKET
socket, each with the invariant CRC that rxe checks (IBA annex A17.3.3:
CRC-32 over 8 bytes of 0xff for the masked LRH, the IPv4 header with TOS,
TTL and checksum masked to ones, or the IPv6 header with traffic class,
flow label and hop limit masked, the UDP header with its checksum
masked, the BTH with byte 4 masked, then the rest of the packet).  IPv6
frames are used when --src and --dst are IPv6 addresses.  A packet with a right
ICRC gets past rxe's ICRC check, so the header parsers, the requester,
responder and completer state machines and the congestion control see it.

    roce_gen.py --ifname IF --dst-mac MAC --src IP --dst IP \\
        --qpn N[:algo] ... --mix KIND[,KIND...] --count N [--seed S] [--pps R]

KINDs (the mix is drawn from uniformly, one kind per packet):
  random     any opcode, random BTH fields and extension bytes, any length
  truncated  a valid RC header cut short before its end
  oversized  an RC WRITE_ONLY / SEND_ONLY with 1100-1400 B of payload
  cnp-real   a CNP (0x81, BECN) to one of the given QPNs
  cnp-unknown a CNP to a QPN no QP has
  ack-never  an ACK for a PSN the QP never sent, mark bits random
  ack-marks  an ACK near the QP's PSN with the ACC echo bits (CE/UE) set
  psn-jump   RC SEND_ONLY requests with random PSNs
  badicrc    a SEND_ONLY with a wrong ICRC (the control: must be dropped)
Every packet above also gets a random ECN codepoint in the IP TOS byte.

The transport's window, with --psn (per --qpn, in the same order: the
QP's send PSN for ACKs, its expected receive PSN for requests):
  ack-stale     an ACK 2^20 PSNs behind --psn with the single-bit echo,
                CE (BECN) or UE, alternating
  ack-stale-counts  the same with mark counters (0x10, CE and UE count 3)
  ack-counts-latch  the same with counters 0: it marks nothing, but says
                that the peer counts
  readack       a read ACK (0xc0), BTH only, BECN set, 2^20 PSNs behind
  req-ce        a CE-marked SEND_ONLY 2^20 PSNs ahead of or behind --psn
                (out of sequence), AckReq set
  short         a UDP/4791 datagram of 1-11 bytes, shorter than a BTH

Prints one JSON object: packets sent per kind and in total, and the time.
"""

import argparse
import json
import os
import random
import socket
import struct
import sys
import time
import zlib

ROCE_PORT = 4791
BTH_BYTES = 12
ICRC_BYTES = 4
MASKED_LRH = b"\xff" * 8

# RC opcodes and the extension-header bytes that follow their BTH
RC_SEND_ONLY = 0x04
RC_WRITE_ONLY = 0x0A
RC_READ_REQ = 0x0C
RC_READ_RESP_ONLY = 0x10
RC_ACK = 0x11
RC_ATOMIC_ACK = 0x12
ROCE_CNP = 0x81
EXT_BYTES = {RC_SEND_ONLY: 0, RC_WRITE_ONLY: 16, RC_READ_REQ: 16,
             RC_READ_RESP_ONLY: 4, RC_ACK: 4, RC_ATOMIC_ACK: 12,
             ROCE_CNP: 16}

BTH_BECN = 0x40		# byte 4: CE echo of ACC, and the CNP's BECN
BTH_ECHO_UE = 0x20	# byte 4: UE echo of ACC
PSN_MASK = 0xFFFFFF

KINDS = ("random", "truncated", "oversized", "cnp-real", "cnp-unknown",
         "ack-never", "ack-marks", "psn-jump", "badicrc",
         "ack-stale", "ack-stale-counts", "ack-counts-latch", "readack",
         "req-ce", "short")

RXE_READ_ACK = 0xC0
BTH_COUNTS = 0x10	# byte 4 of an ACK: the mark counters are there
BTH_CE_COUNT_3 = 0x0C	# byte 4: CE counter 3
BTH_UE_COUNT_3 = 0x03	# byte 4: UE counter 3
STALE = 1 << 20		# how far behind (or ahead) a stale PSN lies
AETH_ACK = 0x1F << 24	# syndrome: ACK, no credit limit


def ip_checksum(hdr):
    """The IPv4 header checksum over a header of any length (options too)."""
    s = sum(struct.unpack(f"!{len(hdr) // 2}H", hdr))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def bth(opcode, qpn, psn, flags=0, pkey=0xFFFF, byte4=0, ackreq=0):
    return struct.pack("!BBHBBHBBH", opcode, flags, pkey, byte4,
                       (qpn >> 16) & 0xFF, qpn & 0xFFFF, ackreq,
                       (psn >> 16) & 0xFF, psn & 0xFFFF)


def icrc(iph, udph, ib):
    """The invariant CRC of RoCEv2 over IPv4 or IPv6, as 4 wire bytes."""
    m_ip = bytearray(iph)
    if m_ip[0] >> 4 == 6:
        m_ip[0] |= 0x0F			# traffic class, high nibble
        m_ip[1:4] = b"\xff\xff\xff"	# traffic class, flow label
        m_ip[7] = 0xFF			# hop limit
    else:
        m_ip[1] = 0xFF			# TOS (DSCP + ECN)
        m_ip[8] = 0xFF			# TTL
        m_ip[10:12] = b"\xff\xff"	# header checksum
    m_udp = bytearray(udph)
    m_udp[6:8] = b"\xff\xff"		# UDP checksum
    m_ib = bytearray(ib)
    if len(m_ib) > 4:
        m_ib[4] = 0xFF			# BTH resv8a / FECN / BECN
    crc = zlib.crc32(MASKED_LRH + bytes(m_ip) + bytes(m_udp) + bytes(m_ib))
    return struct.pack("<I", crc)


def udp6_checksum(src, dst, udp):
    """UDP over IPv6 must carry a checksum (RFC 8200 8.1)."""
    data = src + dst + struct.pack("!IxxxB", len(udp), 17) + udp
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(f"!{len(data) // 2}H", data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ((~s) & 0xFFFF) or 0xFFFF


class Gen:
    def __init__(self, a, rnd):
        self.a = a
        self.rnd = rnd
        self.v6 = ":" in a.src
        fam = socket.AF_INET6 if self.v6 else socket.AF_INET
        self.src = socket.inet_pton(fam, a.src)
        self.dst = socket.inet_pton(fam, a.dst)
        self.eth = (bytes.fromhex(a.dst_mac.replace(":", "")) +
                    bytes.fromhex(a.src_mac.replace(":", "")) +
                    (b"\x86\xdd" if self.v6 else b"\x08\x00"))
        self.qps = []
        for q in a.qpn:
            n, _, algo = q.partition(":")
            self.qps.append((int(n, 0), algo or "?"))
        self.psns = [int(p, 0) & PSN_MASK for p in a.psn]
        self.ip_id = 0
        self.seq = 0

    def frame(self, ib, bad_icrc=False, tos=None):
        """Wrap BTH+ext+payload (no ICRC) into a frame with its ICRC."""
        r = self.rnd
        if tos is None:
            tos = (r.randrange(64) << 2) | r.randrange(4)
        udp_len = 8 + len(ib) + ICRC_BYTES
        self.ip_id = (self.ip_id + 1) & 0xFFFF
        sport = 0xC000 | r.randrange(0x4000)
        udph = struct.pack("!HHHH", sport, ROCE_PORT, udp_len, 0)
        if self.v6:
            return self.frame6(ib, udph, udp_len, tos, bad_icrc)
        iph = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, tos,
                                    20 + udp_len, self.ip_id, 0x4000, 64,
                                    17, 0, self.src, self.dst))
        iph[10:12] = struct.pack("!H", ip_checksum(bytes(iph)))
        crc = icrc(bytes(iph), udph, ib)
        if bad_icrc:
            crc = bytes(b ^ 0x5A for b in crc)
        return self.eth + bytes(iph) + udph + ib + crc

    def frame6(self, ib, udph, udp_len, tclass, bad_icrc):
        flow = self.rnd.randrange(1 << 20)
        iph = struct.pack("!IHBB16s16s", (6 << 28) | (tclass << 20) | flow,
                          udp_len, 17, 64, self.src, self.dst)
        crc = icrc(iph, udph, ib)
        if bad_icrc:
            crc = bytes(b ^ 0x5A for b in crc)
        udph = udph[:6] + struct.pack(
            "!H", udp6_checksum(self.src, self.dst, udph + ib + crc))
        return self.eth + iph + udph + ib + crc

    def real_qp(self):
        return self.rnd.choice(self.qps)

    def qp_psn(self):
        """The next QP (round robin) and its --psn."""
        i = self.seq % len(self.qps)
        self.seq += 1
        if i >= len(self.psns):
            sys.exit("--psn is needed for every --qpn with this kind")
        return self.qps[i][0], self.psns[i], self.seq

    def window(self, kind):
        """The attacks on the transport's window (see the KINDs)."""
        qpn, psn, n = self.qp_psn()
        stale = (psn - STALE) & PSN_MASK
        tos = 26 << 2 | 2			# ECT(0): as clean data
        if kind == "ack-stale":
            b4 = BTH_BECN if n % 2 else BTH_ECHO_UE
            return self.frame(bth(RC_ACK, qpn, stale, byte4=b4) +
                              struct.pack("!I", AETH_ACK), tos=tos)
        if kind == "ack-stale-counts":
            b4 = BTH_COUNTS | (BTH_CE_COUNT_3 if n % 2 else BTH_UE_COUNT_3)
            return self.frame(bth(RC_ACK, qpn, stale, byte4=b4) +
                              struct.pack("!I", AETH_ACK), tos=tos)
        if kind == "ack-counts-latch":
            return self.frame(bth(RC_ACK, qpn, stale, byte4=BTH_COUNTS) +
                              struct.pack("!I", AETH_ACK), tos=tos)
        if kind == "readack":
            return self.frame(bth(RXE_READ_ACK, qpn, stale, byte4=BTH_BECN),
                              tos=tos)
        # req-ce: ahead or behind, CE (3) in the TOS byte
        far = (psn + STALE) & PSN_MASK if n % 2 else stale
        return self.frame(bth(RC_SEND_ONLY, qpn, far, ackreq=0x80) +
                          bytes(64), tos=26 << 2 | 3)

    def rnd_bytes(self, n):
        return os.urandom(n)

    def make(self, kind):
        r = self.rnd
        if kind == "random":
            op = r.randrange(256) if r.random() < 0.3 else \
                r.choice([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x0A,
                          0x0C, 0x0D, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14,
                          0x16, 0x64, 0x81])
            qpn = self.real_qp()[0] if r.random() < 0.7 else r.randrange(1 << 24)
            flags = r.randrange(256) if r.random() < 0.2 else r.randrange(256) & 0xF0
            pkey = 0xFFFF if r.random() < 0.8 else r.randrange(1 << 16)
            ib = bth(op, qpn, r.randrange(1 << 24), flags, pkey,
                     r.randrange(256), r.randrange(256))
            return self.frame(ib + self.rnd_bytes(r.choice([0, 4, 8, 12, 16, 28, 40,
                                                            r.randrange(1100)])))
        if kind == "truncated":
            op = r.choice([RC_WRITE_ONLY, RC_READ_REQ, RC_READ_RESP_ONLY,
                           RC_ACK, RC_ATOMIC_ACK, ROCE_CNP, 0x13, 0x14])
            full = bth(op, self.real_qp()[0], r.randrange(1 << 24)) + \
                self.rnd_bytes(EXT_BYTES.get(op, 28))
            return self.frame(full[:r.randrange(len(full))])
        if kind == "oversized":
            op = r.choice([RC_WRITE_ONLY, RC_SEND_ONLY, RC_READ_RESP_ONLY])
            ib = bth(op, self.real_qp()[0], r.randrange(1 << 24))
            return self.frame(ib + self.rnd_bytes(EXT_BYTES[op] + r.randrange(1100, 1400)))
        if kind == "cnp-real":
            ib = bth(ROCE_CNP, self.real_qp()[0], 0, byte4=BTH_BECN)
            return self.frame(ib + bytes(16))
        if kind == "cnp-unknown":
            known = {q[0] for q in self.qps}
            qpn = r.randrange(2, 1 << 24)
            while qpn in known:
                qpn = r.randrange(2, 1 << 24)
            return self.frame(bth(ROCE_CNP, qpn, 0, byte4=BTH_BECN) + bytes(16))
        if kind in ("ack-never", "ack-marks"):
            qpn = self.real_qp()[0]
            psn = r.randrange(1 << 24)
            b4 = r.choice([0, BTH_BECN, BTH_ECHO_UE, BTH_BECN | BTH_ECHO_UE])
            if kind == "ack-marks":
                b4 = r.choice([BTH_BECN, BTH_ECHO_UE])
            syn = r.randrange(0x20) if r.random() < 0.8 else r.randrange(256)
            aeth = struct.pack("!I", (syn << 24) | r.randrange(1 << 24))
            return self.frame(bth(RC_ACK, qpn, psn, byte4=b4) + aeth)
        if kind == "psn-jump":
            ib = bth(RC_SEND_ONLY, self.real_qp()[0], r.randrange(1 << 24),
                     ackreq=0x80)
            return self.frame(ib + self.rnd_bytes(r.randrange(0, 256, 4)))
        if kind in ("ack-stale", "ack-stale-counts", "ack-counts-latch",
                    "readack", "req-ce"):
            return self.window(kind)
        if kind == "short":
            # shorter than a BTH: rxe_rcv() drops it before it looks up a QP
            return self.frame(self.rnd_bytes(r.randrange(1, BTH_BYTES)))
        if kind == "badicrc":
            ib = bth(RC_SEND_ONLY, self.real_qp()[0], r.randrange(1 << 24))
            return self.frame(ib + self.rnd_bytes(64), bad_icrc=True)
        raise ValueError(kind)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ifname", required=True)
    p.add_argument("--src-mac", default=None)
    p.add_argument("--dst-mac", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--qpn", action="append", default=[],
                   help="a QPN of the target device, optionally N:algo")
    p.add_argument("--psn", action="append", default=[],
                   help="the PSN of the --qpn of the same rank (window kinds)")
    p.add_argument("--mix", default=",".join(KINDS[:9]))
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pps", type=float, default=0,
                   help="packets per second (0: as fast as possible)")
    p.add_argument("--dump", help="write the first 64 frames (hex) here")
    a = p.parse_args()
    if a.src_mac is None:
        with open(f"/sys/class/net/{a.ifname}/address") as f:
            a.src_mac = f.read().strip()
    if not a.qpn:
        a.qpn = ["0x11"]
    kinds = [k for k in a.mix.split(",") if k]
    for k in kinds:
        if k not in KINDS:
            sys.exit(f"unknown kind {k}")
    rnd = random.Random(a.seed)
    g = Gen(a, rnd)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.ifname, 0))
    sent = {k: 0 for k in kinds}
    errors = 0
    dump = []
    t0 = time.monotonic()
    for i in range(a.count):
        k = kinds[i % len(kinds)] if len(kinds) > 1 else kinds[0]
        fr = g.make(k)
        if a.dump and len(dump) < 64:
            dump.append(f"{k} {fr.hex()}")
        try:
            s.send(fr)
            sent[k] += 1
        except OSError:
            errors += 1
        if a.pps:
            ahead = (i + 1) / a.pps - (time.monotonic() - t0)
            if ahead > 0:
                time.sleep(ahead)
    dt = time.monotonic() - t0
    if a.dump:
        with open(a.dump, "w") as f:
            f.write("\n".join(dump) + "\n")
    print(json.dumps({"sent": sum(sent.values()), "send_errors": errors,
                      "by_kind": sent, "seconds": round(dt, 3)}))


if __name__ == "__main__":
    main()

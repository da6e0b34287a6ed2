#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""forge.py - single forged RoCEv2 packets for the fault tests.

Built on roce_gen.py's framing (Ethernet/IP/UDP 4791, rxe's ICRC), sent
on a raw AF_PACKET socket:

  forge.py ack-ahead --ifname IF --dst-mac MAC --src IP --dst IP \\
      --qpn N --psn P [--ahead A]
      one RC ACKNOWLEDGE to QP N with PSN (P + A) mod 2^24 (A defaults
      to 0x1000): a PSN its requester has not sent when P is its sq-psn
  forge.py short --ifname IF --dst-mac MAC --src IP --dst IP [--count N]
      N UDP 4791 datagrams of 8 bytes, shorter than a BTH: over IPv4
      each carries a 4-byte IP option (NOP, NOP, NOP, EOL), which the IP
      layer stores in the skb's control block where rxe keeps pkt->qp

Prints one JSON object: what was sent.
"""

import argparse
import json
import random
import socket
import struct
import sys

from roce_gen import (Gen, PSN_MASK, RC_ACK, ROCE_PORT, bth, ip_checksum,
                      udp6_checksum)

AETH_ACK = 0x1F << 24		# ACK syndrome, unlimited credits
IP_OPTIONS = b"\x01\x01\x01\x00"	# NOP, NOP, NOP, EOL


def short_frame(g, payload):
    """An IPv4 (with options) or IPv6 UDP 4791 frame around payload."""
    udph = struct.pack("!HHHH", 0xC000, ROCE_PORT, 8 + len(payload), 0)
    if g.v6:
        iph = struct.pack("!IHBB16s16s", 6 << 28, 8 + len(payload), 17, 64,
                          g.src, g.dst)
        udph = udph[:6] + struct.pack(
            "!H", udp6_checksum(g.src, g.dst, udph + payload))
        return g.eth + iph + udph + payload
    tot = 24 + 8 + len(payload)
    iph = bytearray(struct.pack("!BBHHHBBH4s4s", 0x46, 0, tot, 1, 0x4000, 64,
                                17, 0, g.src, g.dst) + IP_OPTIONS)
    iph[10:12] = struct.pack("!H", ip_checksum(bytes(iph)))
    return g.eth + bytes(iph) + udph + payload


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=("ack-ahead", "short"))
    p.add_argument("--ifname", required=True)
    p.add_argument("--src-mac", default=None)
    p.add_argument("--dst-mac", required=True)
    p.add_argument("--src", required=True)
    p.add_argument("--dst", required=True)
    p.add_argument("--qpn", type=lambda v: int(v, 0), default=0x11)
    p.add_argument("--psn", type=lambda v: int(v, 0), default=0)
    p.add_argument("--ahead", type=lambda v: int(v, 0), default=0x1000)
    p.add_argument("--count", type=int, default=1)
    a = p.parse_args()
    if a.src_mac is None:
        with open(f"/sys/class/net/{a.ifname}/address") as f:
            a.src_mac = f.read().strip()
    # Gen reads roce_gen's option shapes: a list of QPNs, one PSN each
    qpn, psn = a.qpn, a.psn
    a.qpn, a.psn = [str(qpn)], [str(psn)]
    g = Gen(a, random.Random(1))
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((a.ifname, 0))
    if a.what == "ack-ahead":
        psn = (psn + a.ahead) & PSN_MASK
        ib = bth(RC_ACK, qpn, psn) + struct.pack("!I", AETH_ACK)
        s.send(g.frame(ib, tos=0))
        print(json.dumps({"sent": 1, "qpn": qpn, "psn": psn}))
        return 0
    for _ in range(a.count):
        s.send(short_frame(g, b"\x11" * 8))
    print(json.dumps({"sent": a.count, "family": 6 if g.v6 else 4}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

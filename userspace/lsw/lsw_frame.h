/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_frame.h - Ethernet/IP parsing, ECN rewriting and 802.1Qbb PFC frames.
 *
 * Pure functions over byte buffers; they never read past `len`, so any
 * datagram (runt, truncated, garbage) is safe to hand to them.
 */
#ifndef LSW_FRAME_H
#define LSW_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "lsw_mark.h" /* LSW_ECN_* */

#define LSW_ETH_HDR_BYTES 14
#define LSW_ETH_MIN_BYTES 60 /* without FCS: shorter frames are padded on the wire */
#define LSW_ETHERTYPE_IPV4 0x0800
#define LSW_ETHERTYPE_IPV6 0x86dd
#define LSW_ETHERTYPE_VLAN 0x8100
#define LSW_ETHERTYPE_QINQ 0x88a8
#define LSW_ETHERTYPE_MAC_CTRL 0x8808
#define LSW_PFC_OPCODE 0x0101
#define LSW_PFC_FRAME_BYTES 60
#define LSW_PFC_QUANTUM_BITS 512 /* one pause quantum = 512 bit times */

enum lsw_frame_class {
	LSW_FRAME_RUNT,     /* shorter than an Ethernet header */
	LSW_FRAME_OVERSIZE, /* longer than LSW_MAX_FRAME_BYTES */
	LSW_FRAME_CTRL,     /* MAC control (0x8808): PFC or other */
	LSW_FRAME_BAD_IP,   /* IP ethertype, header truncated or malformed */
	LSW_FRAME_IP,       /* IPv4/IPv6 with a complete header */
	LSW_FRAME_OTHER,    /* any other ethertype (ARP, ...): forwarded */
};

struct lsw_frame_info {
	enum lsw_frame_class cls;
	uint16_t ethertype; /* after up to two VLAN tags */
	uint16_t l3_off;    /* IP header offset (cls == LSW_FRAME_IP) */
	uint8_t ip_version; /* 4 or 6 */
	uint8_t dscp, ecn;
	uint8_t n_vlan;
};

void lsw_frame_parse(const uint8_t *f, size_t len, struct lsw_frame_info *fi);
/* Rewrites the ECN bits of an LSW_FRAME_IP frame (IPv4: fixes checksum). */
void lsw_frame_set_ecn(uint8_t *f, struct lsw_frame_info *fi, uint8_t ecn);
int lsw_mac_is_group(const uint8_t *mac);

/* PFC: `quanta[p]` is used where bit p of `enable` is set (0 = resume). */
void lsw_pfc_build(uint8_t out[LSW_PFC_FRAME_BYTES], const uint8_t src[6],
		   uint8_t enable, const uint16_t quanta[8]);
/* Returns 0 and fills enable/quanta if f is a PFC frame, else -1. */
int lsw_pfc_parse(const uint8_t *f, size_t len, uint8_t *enable,
		  uint16_t quanta[8]);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * lsw_frame.c - see lsw_frame.h.
 *
 * RoCEv2's ICRC covers the IP header with TOS/traffic class masked to ones,
 * so rewriting ECN never invalidates it; only the IPv4 header checksum has
 * to follow (RFC 1624 incremental update).  IPv6 has no header checksum.
 */
#include "lsw_frame.h"
#include "lsw_core.h"

#include <string.h>

#define IPV4_MIN_HDR_BYTES 20
#define IPV6_HDR_BYTES 40
#define VLAN_TAG_BYTES 4
#define MAX_VLAN_TAGS 2 /* 802.1ad outer + 802.1Q inner */

static const uint8_t pfc_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int lsw_mac_is_group(const uint8_t *mac)
{
	return mac[0] & 1;
}

static void parse_ip(const uint8_t *f, size_t len, struct lsw_frame_info *fi)
{
	const uint8_t *ip = f + fi->l3_off;
	size_t room = len - fi->l3_off;

	fi->cls = LSW_FRAME_BAD_IP;
	if (fi->ethertype == LSW_ETHERTYPE_IPV4) {
		size_t ihl_bytes;

		if (room < IPV4_MIN_HDR_BYTES || (ip[0] >> 4) != 4)
			return;
		ihl_bytes = (size_t)(ip[0] & 0x0f) * 4;
		if (ihl_bytes < IPV4_MIN_HDR_BYTES || ihl_bytes > room)
			return;
		fi->ip_version = 4;
		fi->dscp = ip[1] >> 2;
		fi->ecn = ip[1] & 3;
	} else {
		uint8_t tclass;

		if (room < IPV6_HDR_BYTES || (ip[0] >> 4) != 6)
			return;
		tclass = (uint8_t)(((ip[0] & 0x0f) << 4) | (ip[1] >> 4));
		fi->ip_version = 6;
		fi->dscp = tclass >> 2;
		fi->ecn = tclass & 3;
	}
	fi->cls = LSW_FRAME_IP;
}

void lsw_frame_parse(const uint8_t *f, size_t len, struct lsw_frame_info *fi)
{
	size_t off = 12;

	memset(fi, 0, sizeof(*fi));
	if (len < LSW_ETH_HDR_BYTES) {
		fi->cls = LSW_FRAME_RUNT;
		return;
	}
	if (len > LSW_MAX_FRAME_BYTES) {
		fi->cls = LSW_FRAME_OVERSIZE;
		return;
	}
	fi->ethertype = get16(f + off);
	while ((fi->ethertype == LSW_ETHERTYPE_VLAN ||
		fi->ethertype == LSW_ETHERTYPE_QINQ) &&
	       fi->n_vlan < MAX_VLAN_TAGS && off + VLAN_TAG_BYTES + 2 <= len) {
		off += VLAN_TAG_BYTES;
		fi->n_vlan++;
		fi->ethertype = get16(f + off);
	}
	fi->l3_off = (uint16_t)(off + 2);
	if (fi->ethertype == LSW_ETHERTYPE_MAC_CTRL)
		fi->cls = LSW_FRAME_CTRL;
	else if (fi->ethertype == LSW_ETHERTYPE_IPV4 ||
		 fi->ethertype == LSW_ETHERTYPE_IPV6)
		parse_ip(f, len, fi);
	else
		fi->cls = LSW_FRAME_OTHER;
}

/* RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m'), ones' complement sums. */
static uint16_t csum_replace(uint16_t hc, uint16_t old, uint16_t new)
{
	uint32_t sum = (uint16_t)~hc + (uint32_t)(uint16_t)~old + new;

	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void lsw_frame_set_ecn(uint8_t *f, struct lsw_frame_info *fi, uint8_t ecn)
{
	uint8_t *ip = f + fi->l3_off;

	if (fi->cls != LSW_FRAME_IP)
		return;
	ecn &= 3;
	if (fi->ip_version == 4) {
		uint16_t old = get16(ip);

		ip[1] = (uint8_t)((ip[1] & ~3) | ecn);
		put16(ip + 10, csum_replace(get16(ip + 10), old, get16(ip)));
	} else {
		/* Traffic class straddles bytes 0-1; ECN is bits 5:4 of byte 1. */
		ip[1] = (uint8_t)((ip[1] & ~0x30) | (ecn << 4));
	}
	fi->ecn = ecn;
}

void lsw_pfc_build(uint8_t out[LSW_PFC_FRAME_BYTES], const uint8_t src[6],
		   uint8_t enable, const uint16_t quanta[8])
{
	memset(out, 0, LSW_PFC_FRAME_BYTES);
	memcpy(out, pfc_dst, 6);
	memcpy(out + 6, src, 6);
	put16(out + 12, LSW_ETHERTYPE_MAC_CTRL);
	put16(out + 14, LSW_PFC_OPCODE);
	put16(out + 16, enable);
	for (int p = 0; p < 8; p++)
		put16(out + 18 + 2 * p, (enable & (1u << p)) ? quanta[p] : 0);
}

int lsw_pfc_parse(const uint8_t *f, size_t len, uint8_t *enable,
		  uint16_t quanta[8])
{
	/* Opcode, vector and 8 times: 34 bytes; shorter is malformed. */
	if (len < 34 || get16(f + 12) != LSW_ETHERTYPE_MAC_CTRL ||
	    get16(f + 14) != LSW_PFC_OPCODE)
		return -1;
	*enable = f[17];
	for (int p = 0; p < 8; p++)
		quanta[p] = get16(f + 18 + 2 * p);
	return 0;
}

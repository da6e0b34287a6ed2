/* SPDX-License-Identifier: GPL-2.0 */
/* test_frames.h - build Ethernet/IPv4/UDP test frames (unit + integration). */
#ifndef LSW_TEST_FRAMES_H
#define LSW_TEST_FRAMES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TF_ROCE_UDP_PORT 4791

static inline void tf_mac(uint8_t mac[6], unsigned host)
{
	const uint8_t base[6] = { 0x52, 0x54, 0x00, 0x00, 0x00, 0x00 };

	memcpy(mac, base, 6);
	mac[5] = (uint8_t)host;
}

static inline uint16_t tf_ip_csum(const uint8_t *h, size_t n)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(h[i] << 8 | h[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* An IPv4/UDP frame of `len` bytes (>= 42) from host src to host dst. */
static inline size_t tf_ipv4(uint8_t *f, size_t len, unsigned src, unsigned dst,
			     uint8_t dscp, uint8_t ecn)
{
	uint8_t *ip = f + 14, *udp = ip + 20;
	uint16_t ip_len = (uint16_t)(len - 14), udp_len = (uint16_t)(len - 34);
	uint16_t csum;

	memset(f, 0, len);
	tf_mac(f, dst);
	tf_mac(f + 6, src);
	f[12] = 0x08;
	ip[0] = 0x45;
	ip[1] = (uint8_t)(dscp << 2 | (ecn & 3));
	ip[2] = (uint8_t)(ip_len >> 8);
	ip[3] = (uint8_t)ip_len;
	ip[8] = 64;
	ip[9] = 17;
	ip[12] = 10, ip[15] = (uint8_t)src;
	ip[16] = 10, ip[19] = (uint8_t)dst;
	csum = tf_ip_csum(ip, 20);
	ip[10] = (uint8_t)(csum >> 8);
	ip[11] = (uint8_t)csum;
	udp[2] = TF_ROCE_UDP_PORT >> 8;
	udp[3] = TF_ROCE_UDP_PORT & 0xff;
	udp[4] = (uint8_t)(udp_len >> 8);
	udp[5] = (uint8_t)udp_len;
	return len;
}

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_frame.c - libFuzzer target: any datagram a host may send, through the
 * frame parser, ECN rewriting and the whole switch core (two switches, TCD,
 * flooding, PFC from hosts).  Byte 0 picks the port, the rest is the frame.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lsw_config.h"
#include "lsw_core.h"
#include "lsw_frame.h"

#define RECREATE_EVERY 5000 /* bounds the memory the learned state can hold */
#define STEP_NS 20000

static const char topo[] =
	"rate 40M\ndelay 10us\nmarking tcd\nxoff 4000\nxon 1000\nbuffer 200KB\n"
	"host_queue 64KB\n"
	"switch s1\nswitch s2\nlink s1 s2\n"
	"host a s1 127.0.0.1:1 127.0.0.1:2\nhost b s1 127.0.0.1:3 127.0.0.1:4\n"
	"host c s2 127.0.0.1:5 127.0.0.1:6\n";

static struct lsw_core *core;
static uint64_t now_ns;
static unsigned inputs;
static struct lsw_config cfg;

static void sink(void *ctx, int port, const uint8_t *f, size_t len, uint64_t t)
{
	(void)ctx, (void)port, (void)t;
	if (len) /* touch the bytes: ASan checks the delivered buffer */
		__asm__ volatile("" : : "r"(f[len - 1]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lsw_frame_info fi;
	uint8_t copy[LSW_MAX_FRAME_BYTES];
	char err[256];

	if (!core || ++inputs % RECREATE_EVERY == 0) {
		lsw_core_destroy(core);
		if (lsw_config_parse(topo, sizeof(topo) - 1, "fuzz", &cfg, err,
				     sizeof(err)))
			abort();
		core = lsw_core_create(&cfg, err, sizeof(err));
		if (!core)
			abort();
	}
	if (!size)
		return 0;
	lsw_frame_parse(data + 1, size - 1, &fi);
	if (fi.cls == LSW_FRAME_IP && size - 1 <= sizeof(copy)) {
		memcpy(copy, data + 1, size - 1);
		lsw_frame_set_ecn(copy, &fi, data[0] & 3);
	}
	now_ns += STEP_NS;
	/* Ports 0-1 are the s1-s2 link, 2-4 the hosts (config order). */
	lsw_core_rx(core, 2 + data[0] % 3, data + 1, size - 1, now_ns);
	lsw_core_advance(core, now_ns + STEP_NS / 2, sink, NULL);
	return 0;
}

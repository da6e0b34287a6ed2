/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rc-mix: what its server, client and main share (see rc_mix.c for the
 * program): the wire format of the connection's private data, the data
 * pattern and the verbs/rdma_cm helpers.
 */
#ifndef RC_MIX_H
#define RC_MIX_H

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#define MIX_MAGIC		0x6d697831u	/* "mix1" */
#define MIX_MAX_SLOTS		64u		/* write slots in region A */
#define MIX_B_SLACK_BYTES	65536u		/* read offsets vary over this */
#define MIX_SQ_DEPTH		128u
#define MIX_POLL_MS		10
#define MIX_CM_TIMEOUT_MS	5000
#define MIX_WC_BATCH		32

/* Client -> server, in the connect request's private data. */
struct mix_req {
	uint32_t magic;
	uint32_t writes_total;
	uint32_t wsize;
	uint32_t slots;
	uint32_t rsize;
	uint32_t seed;
};

/* Server -> client, in the accept's private data. */
struct mix_rep {
	uint64_t a_addr;
	uint64_t b_addr;
	uint64_t b_len;
	uint32_t a_rkey;
	uint32_t b_rkey;
	uint32_t b_seed;
	uint32_t pad;
};

struct mix_opts {
	const char *server;
	const char *bind;
	const char *port;
	const char *marker;
	unsigned int iters, writes, wsize, rsize, depth, timeout_s;
	int tos, ack_timeout;
	bool hold, error_mode, gate;
};

/* Set by SIGUSR1 (end a hold) and SIGUSR2 (error mode: go to ERROR). */
extern volatile sig_atomic_t got_usr1, got_usr2;

uint64_t pat(uint32_t seed, uint64_t stream, uint64_t idx);
void fill(uint64_t *buf, size_t bytes, uint32_t seed, uint64_t stream,
	  uint64_t first);
long check(const uint64_t *buf, size_t bytes, uint32_t seed,
	   uint64_t stream, uint64_t first);
uint32_t last_writer(uint32_t s, uint32_t slots, uint32_t total);
uint64_t read_offset(uint32_t k);
void *xalloc(size_t bytes);
struct ibv_mr *xreg(struct ibv_pd *pd, void *buf, size_t bytes);
int cm_expect(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
	      struct rdma_cm_event **out, int timeout_ms);
struct ibv_qp_init_attr qp_attr(struct ibv_cq *cq);
int set_option(struct rdma_cm_id *id, int name, int val, const char *what);

int run_server(const struct mix_opts *o);
int run_client(const struct mix_opts *o);

#endif /* RC_MIX_H */

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* rc-mix: the data pattern and the verbs/rdma_cm helpers. */

#include "rc_mix.h"

/* The pattern: word IDX of stream STREAM (0: region B, k + 1: write k). */
uint64_t pat(uint32_t seed, uint64_t stream, uint64_t idx)
{
	uint64_t z = ((uint64_t)seed << 32 ^ stream * 0x9e3779b97f4a7c15ull) + idx;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void fill(uint64_t *buf, size_t bytes, uint32_t seed, uint64_t stream,
	  uint64_t first)
{
	for (size_t i = 0; i < bytes / 8; i++)
		buf[i] = pat(seed, stream, first + i);
}

/* Index of the first wrong word, or -1. */
long check(const uint64_t *buf, size_t bytes, uint32_t seed,
	   uint64_t stream, uint64_t first)
{
	for (size_t i = 0; i < bytes / 8; i++)
		if (buf[i] != pat(seed, stream, first + i))
			return (long)i;
	return -1;
}

/* The write that last filled slot S of a run of TOTAL writes. */
uint32_t last_writer(uint32_t s, uint32_t slots, uint32_t total)
{
	return s + slots * ((total - 1 - s) / slots);
}

uint64_t read_offset(uint32_t k)
{
	return (uint64_t)k * 8192 % MIX_B_SLACK_BYTES;
}

void *xalloc(size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, bytes ? bytes : 8)) {
		fprintf(stderr, "rc-mix: out of memory (%zu bytes)\n", bytes);
		exit(1);
	}
	memset(p, 0, bytes);
	return p;
}

struct ibv_mr *xreg(struct ibv_pd *pd, void *buf, size_t bytes)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, buf, bytes, IBV_ACCESS_LOCAL_WRITE |
				       IBV_ACCESS_REMOTE_READ |
				       IBV_ACCESS_REMOTE_WRITE);

	if (!mr) {
		perror("rc-mix: ibv_reg_mr");
		exit(1);
	}
	return mr;
}

/* The next rdma_cm event of type WANT (anything else is an error). */
int cm_expect(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
	      struct rdma_cm_event **out, int timeout_ms)
{
	struct pollfd pfd = { .fd = ch->fd, .events = POLLIN };
	struct rdma_cm_event *ev;

	for (;;) {
		int n = poll(&pfd, 1, timeout_ms < 0 ? MIX_POLL_MS : timeout_ms);

		if (n < 0 && errno != EINTR)
			return -1;
		if (n > 0)
			break;
		if (timeout_ms >= 0 && n == 0) {
			fprintf(stderr, "rc-mix: no %s within %d ms\n",
				rdma_event_str(want), timeout_ms);
			return -1;
		}
	}
	if (rdma_get_cm_event(ch, &ev)) {
		perror("rc-mix: rdma_get_cm_event");
		return -1;
	}
	if (ev->event != want) {
		fprintf(stderr, "rc-mix: got %s (status %d), want %s\n",
			rdma_event_str(ev->event), ev->status,
			rdma_event_str(want));
		rdma_ack_cm_event(ev);
		return -1;
	}
	*out = ev;
	return 0;
}

struct ibv_qp_init_attr qp_attr(struct ibv_cq *cq)
{
	return (struct ibv_qp_init_attr){
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
		.cap = { .max_send_wr = MIX_SQ_DEPTH, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

int set_option(struct rdma_cm_id *id, int name, int val, const char *what)
{
	uint8_t v = (uint8_t)val;

	if (val < 0)
		return 0;
	if (rdma_set_option(id, RDMA_OPTION_ID, name, &v, sizeof(v))) {
		fprintf(stderr, "rc-mix: rdma_set_option(%s): %s\n", what, strerror(errno));
		return -1;
	}
	return 0;
}

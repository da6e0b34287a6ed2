// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rc-mix: one RC QP that mixes RDMA WRITEs and large RDMA READs, with many
 * more packets outstanding than any fixed-size per-PSN table holds, and
 * checks every byte.  Connection set-up goes through rdma_cm.
 *
 *   rc-mix -s [-b ADDR] [-p PORT] [-t TOS] [-T SEC]          server
 *   rc-mix [options] SERVER_ADDR                               client
 *
 * Client options:
 *   -i ITERS   batches (default 32); each batch is WRITES writes of
 *              WSIZE bytes and one read of RSIZE bytes (RSIZE 0: no read)
 *   -w WRITES  writes per batch (default 4)
 *   -W WSIZE   bytes per write (default 16384, a multiple of 8)
 *   -R RSIZE   bytes per read (default 1 MiB, a multiple of 8)
 *   -d DEPTH   reads outstanding at most (default 4)
 *   -H         hold: once idle, print "rc-mix: idle ..." and keep the QP
 *              until SIGUSR1 (or the timeout)
 *   -E         error mode: run batches until SIGUSR2, then move the QP to
 *              ERROR (ibv_modify_qp), write "rc-mix: qpn=N error" to the
 *              trace marker (-M), drain the flushed work requests, print
 *              "rc-mix: error ..." and hold as with -H
 *   -M PATH    the trace marker file (tracefs trace_marker); "ip netns
 *              exec" mounts its own /sys, so tracefs must be mounted
 *              elsewhere to be seen from a namespace
 *   -t TOS     IP TOS of the connection (rdma_cm)
 *   -a TIMEOUT local ACK timeout exponent (4.096 us << TIMEOUT), rdma_cm's
 *              default if not given
 *   -T SEC     give up after SEC seconds (default 120), exit status 124
 *
 * The server owns region A (written by the client, WSIZE-byte slots, the
 * last WRITE of a run is an 8-byte done flag after them) and region B (a
 * known pattern the client reads).  The client checks every READ and, at
 * the end, reads A back; the server checks A after the disconnect.
 * Exit status: 0 verified (server: 3 when the client never wrote the done
 * flag, as in error mode), 1 on a data or verbs error, 2 usage, 124 timeout.
 */

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
	bool hold, error_mode;
};

static volatile sig_atomic_t got_usr1, got_usr2;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		got_usr1 = 1;
	else if (sig == SIGUSR2)
		got_usr2 = 1;
}

static void on_alarm(int sig)
{
	static const char msg[] = "rc-mix: timeout\n";

	(void)sig;
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(124);
	_exit(124);
}

/* The pattern: word IDX of stream STREAM (0: region B, k + 1: write k). */
static uint64_t pat(uint32_t seed, uint64_t stream, uint64_t idx)
{
	uint64_t z = ((uint64_t)seed << 32 ^ stream * 0x9e3779b97f4a7c15ull) + idx;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void fill(uint64_t *buf, size_t bytes, uint32_t seed, uint64_t stream,
		 uint64_t first)
{
	for (size_t i = 0; i < bytes / 8; i++)
		buf[i] = pat(seed, stream, first + i);
}

/* Index of the first wrong word, or -1. */
static long check(const uint64_t *buf, size_t bytes, uint32_t seed,
		  uint64_t stream, uint64_t first)
{
	for (size_t i = 0; i < bytes / 8; i++)
		if (buf[i] != pat(seed, stream, first + i))
			return (long)i;
	return -1;
}

/* The write that last filled slot S of a run of TOTAL writes. */
static uint32_t last_writer(uint32_t s, uint32_t slots, uint32_t total)
{
	return s + slots * ((total - 1 - s) / slots);
}

static uint64_t read_offset(uint32_t k)
{
	return (uint64_t)k * 8192 % MIX_B_SLACK_BYTES;
}

static void *xalloc(size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, bytes ? bytes : 8)) {
		fprintf(stderr, "rc-mix: out of memory (%zu bytes)\n", bytes);
		exit(1);
	}
	memset(p, 0, bytes);
	return p;
}

static struct ibv_mr *xreg(struct ibv_pd *pd, void *buf, size_t bytes)
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
static int cm_expect(struct rdma_event_channel *ch, enum rdma_cm_event_type want,
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

static struct ibv_qp_init_attr qp_attr(struct ibv_cq *cq)
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

static int set_option(struct rdma_cm_id *id, int name, int val, const char *what)
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

/* ---------------------------------------------------------------- server */

static int run_server(const struct mix_opts *o)
{
	struct rdma_event_channel *ch = rdma_create_event_channel();
	struct rdma_addrinfo hints = { .ai_flags = RAI_PASSIVE,
				       .ai_port_space = RDMA_PS_TCP };
	struct rdma_cm_id *listen_id, *id;
	struct rdma_conn_param cp = { 0 };
	struct rdma_cm_event *ev;
	struct rdma_addrinfo *ai;
	struct ibv_qp_init_attr ia;
	struct mix_req req;
	struct mix_rep rep;
	struct ibv_mr *a_mr, *b_mr;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	uint64_t *a, *b, flag;
	size_t a_len, b_len;
	uint32_t bseed = (uint32_t)getpid() * 2654435761u;
	int bad = 0;

	if (!ch || rdma_create_id(ch, &listen_id, NULL, RDMA_PS_TCP)) {
		perror("rc-mix: rdma_create_id");
		return 1;
	}
	if (rdma_getaddrinfo(o->bind, o->port, &hints, &ai)) {
		fprintf(stderr, "rc-mix: cannot resolve %s:%s\n",
			o->bind ? o->bind : "*", o->port);
		return 1;
	}
	if (rdma_bind_addr(listen_id, ai->ai_src_addr) ||
	    set_option(listen_id, RDMA_OPTION_ID_TOS, o->tos, "TOS") ||
	    rdma_listen(listen_id, 1)) {
		perror("rc-mix: bind/listen");
		return 1;
	}
	rdma_freeaddrinfo(ai);
	printf("rc-mix: server listening on port %s\n", o->port);
	fflush(stdout);

	if (cm_expect(ch, RDMA_CM_EVENT_CONNECT_REQUEST, &ev, -1))
		return 1;
	id = ev->id;
	if (ev->param.conn.private_data_len < sizeof(req)) {
		fprintf(stderr, "rc-mix: short connect request\n");
		return 1;
	}
	memcpy(&req, ev->param.conn.private_data, sizeof(req));
	rdma_ack_cm_event(ev);
	req = (struct mix_req){ be32toh(req.magic), be32toh(req.writes_total),
				be32toh(req.wsize), be32toh(req.slots),
				be32toh(req.rsize), be32toh(req.seed) };
	if (req.magic != MIX_MAGIC || !req.slots || req.slots > MIX_MAX_SLOTS ||
	    req.wsize % 8 || req.rsize % 8 || req.writes_total < req.slots) {
		fprintf(stderr, "rc-mix: bad connect request\n");
		return 1;
	}

	a_len = (size_t)req.slots * req.wsize + sizeof(flag);
	b_len = (size_t)req.rsize + MIX_B_SLACK_BYTES;
	a = xalloc(a_len);
	b = xalloc(b_len);
	fill(b, b_len, bseed, 0, 0);

	pd = ibv_alloc_pd(id->verbs);
	cq = pd ? ibv_create_cq(id->verbs, 16, NULL, NULL, 0) : NULL;
	ia = qp_attr(cq);
	if (!cq || rdma_create_qp(id, pd, &ia)) {
		perror("rc-mix: server QP");
		return 1;
	}
	a_mr = xreg(pd, a, a_len);
	b_mr = xreg(pd, b, b_len);
	rep = (struct mix_rep){ htobe64((uintptr_t)a), htobe64((uintptr_t)b),
				htobe64(b_len), htobe32(a_mr->rkey),
				htobe32(b_mr->rkey), htobe32(bseed), 0 };
	cp.private_data = &rep;
	cp.private_data_len = sizeof(rep);
	cp.responder_resources = 16;
	cp.initiator_depth = 16;
	if (rdma_accept(id, &cp)) {
		perror("rc-mix: rdma_accept");
		return 1;
	}
	if (cm_expect(ch, RDMA_CM_EVENT_ESTABLISHED, &ev, MIX_CM_TIMEOUT_MS))
		return 1;
	rdma_ack_cm_event(ev);
	printf("rc-mix: server connected qpn=%u\n", id->qp->qp_num);
	fflush(stdout);

	if (cm_expect(ch, RDMA_CM_EVENT_DISCONNECTED, &ev, -1))
		return 1;
	rdma_ack_cm_event(ev);

	memcpy(&flag, (char *)a + a_len - sizeof(flag), sizeof(flag));
	if (flag != pat(req.seed, 0, req.writes_total)) {
		printf("rc-mix: server: no done flag, region A not verified\n");
		bad = 3;
	} else {
		for (uint32_t s = 0; s < req.slots; s++) {
			uint32_t k = last_writer(s, req.slots, req.writes_total);
			const uint64_t *slot = a + (size_t)s * req.wsize / 8;
			long w = check(slot, req.wsize, req.seed, k + 1ull, 0);

			if (w >= 0) {
				printf("rc-mix: server: slot %u (write %u) wrong at word %ld\n",
				       s, k, w);
				bad = 1;
			}
		}
		if (!bad)
			printf("rc-mix: server verified %u slots of %u bytes (%u writes)\n",
			       req.slots, req.wsize, req.writes_total);
	}
	rdma_destroy_qp(id);
	ibv_dereg_mr(a_mr);
	ibv_dereg_mr(b_mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	rdma_destroy_id(id);
	rdma_destroy_id(listen_id);
	rdma_destroy_event_channel(ch);
	free(a);
	free(b);
	return bad;
}

/* ---------------------------------------------------------------- client */

enum wr_kind { WR_WRITE, WR_READ, WR_FLAG, WR_READBACK };

struct wr_meta {
	enum wr_kind kind;
	uint32_t k;		/* write or read index */
	uint32_t pkts;
};

struct client {
	struct mix_opts o;
	struct mix_rep rep;
	struct mix_req req;
	struct rdma_cm_id *id;
	struct rdma_event_channel *ch;
	struct ibv_comp_channel *cc;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	uint64_t *src, *dst, *back, flag;
	struct ibv_mr *src_mr, *dst_mr, *back_mr, *flag_mr;
	uint32_t back_len;
	uint32_t mtu_bytes;
	uint64_t posted, done;
	uint32_t writes_posted, reads_posted, reads_out;
	uint64_t pkts_out, max_pkts_out, bytes_read, bytes_written;
	struct wr_meta meta[MIX_SQ_DEPTH];
	int trace_fd;
	bool in_error;
};

static uint32_t pkts_of(const struct client *c, uint32_t bytes)
{
	return bytes ? (bytes + c->mtu_bytes - 1) / c->mtu_bytes : 1;
}

static void meta_add(struct client *c, struct ibv_send_wr *wr, enum wr_kind kind,
		     uint32_t k, uint32_t bytes)
{
	struct wr_meta *m = &c->meta[c->posted % MIX_SQ_DEPTH];

	*m = (struct wr_meta){ kind, k, pkts_of(c, bytes) };
	wr->wr_id = c->posted++;
	c->pkts_out += m->pkts;
	if (c->pkts_out > c->max_pkts_out)
		c->max_pkts_out = c->pkts_out;
}

/* Post one batch: the writes, then the read, as one list. */
static int post_batch(struct client *c)
{
	struct ibv_send_wr wrs[MIX_SQ_DEPTH], *bad;
	struct ibv_sge sges[MIX_SQ_DEPTH];
	uint32_t n = 0, i;

	for (i = 0; i < c->o.writes; i++, n++) {
		uint32_t k = c->writes_posted++;
		uint64_t *s = c->src + (size_t)(k % MIX_SQ_DEPTH) * c->o.wsize / 8;

		fill(s, c->o.wsize, c->req.seed, k + 1ull, 0);
		sges[n] = (struct ibv_sge){ (uintptr_t)s, c->o.wsize, c->src_mr->lkey };
		wrs[n] = (struct ibv_send_wr){
			.sg_list = &sges[n], .num_sge = 1,
			.opcode = IBV_WR_RDMA_WRITE,
			.wr.rdma = { c->rep.a_addr +
				     (uint64_t)(k % c->req.slots) * c->o.wsize,
				     c->rep.a_rkey },
		};
		meta_add(c, &wrs[n], WR_WRITE, k, c->o.wsize);
		c->bytes_written += c->o.wsize;
	}
	if (c->o.rsize) {
		uint32_t k = c->reads_posted++;
		uint64_t *d = c->dst + (size_t)(k % c->o.depth) * c->o.rsize / 8;

		memset(d, 0, c->o.rsize);
		sges[n] = (struct ibv_sge){ (uintptr_t)d, c->o.rsize, c->dst_mr->lkey };
		wrs[n] = (struct ibv_send_wr){
			.sg_list = &sges[n], .num_sge = 1,
			.opcode = IBV_WR_RDMA_READ,
			.wr.rdma = { c->rep.b_addr + read_offset(k), c->rep.b_rkey },
		};
		meta_add(c, &wrs[n], WR_READ, k, c->o.rsize);
		c->reads_out++;
		n++;
	}
	for (i = 0; i + 1 < n; i++)
		wrs[i].next = &wrs[i + 1];
	if (ibv_post_send(c->id->qp, wrs, &bad)) {
		perror("rc-mix: ibv_post_send");
		return -1;
	}
	return 0;
}

static int post_one(struct client *c, enum wr_kind kind,
		    enum ibv_wr_opcode opcode, void *buf,
		    uint32_t len, uint32_t lkey, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = { (uintptr_t)buf, len, lkey };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = opcode, .wr.rdma = { raddr, rkey } };
	struct ibv_send_wr *bad;

	meta_add(c, &wr, kind, 0, len);
	if (ibv_post_send(c->id->qp, &wr, &bad)) {
		perror("rc-mix: ibv_post_send");
		return -1;
	}
	return 0;
}

static int complete(struct client *c, const struct ibv_wc *wc)
{
	struct wr_meta *m = &c->meta[wc->wr_id % MIX_SQ_DEPTH];

	c->done++;
	c->pkts_out -= m->pkts;
	if (m->kind == WR_READ)
		c->reads_out--;
	if (wc->status != IBV_WC_SUCCESS) {
		if (c->in_error)
			return 0;
		fprintf(stderr, "rc-mix: work request %" PRIu64 " (kind %d, #%u) failed: %s\n",
			wc->wr_id, m->kind, m->k, ibv_wc_status_str(wc->status));
		return -1;
	}
	if (m->kind == WR_READ) {
		const uint64_t *d = c->dst + (size_t)(m->k % c->o.depth) * c->o.rsize / 8;
		long w = check(d, c->o.rsize, be32toh(c->rep.b_seed), 0,
			       read_offset(m->k) / 8);

		if (w >= 0) {
			fprintf(stderr, "rc-mix: read %u wrong at word %ld\n", m->k, w);
			return -1;
		}
		c->bytes_read += c->o.rsize;
	}
	return 0;
}

/* Wait up to MIX_POLL_MS for completions and handle them. */
static int reap(struct client *c)
{
	struct pollfd pfd = { .fd = c->cc->fd, .events = POLLIN };
	struct ibv_wc wc[MIX_WC_BATCH];
	struct ibv_cq *ev_cq;
	void *ev_ctx;
	int n, i;

	n = ibv_poll_cq(c->cq, MIX_WC_BATCH, wc);
	if (n == 0) {
		if (poll(&pfd, 1, MIX_POLL_MS) <= 0)
			return 0;
		if (ibv_get_cq_event(c->cc, &ev_cq, &ev_ctx) == 0) {
			ibv_ack_cq_events(ev_cq, 1);
			ibv_req_notify_cq(c->cq, 0);
		}
		n = ibv_poll_cq(c->cq, MIX_WC_BATCH, wc);
	}
	if (n < 0) {
		fprintf(stderr, "rc-mix: ibv_poll_cq failed\n");
		return -1;
	}
	for (i = 0; i < n; i++)
		if (complete(c, &wc[i]))
			return -1;
	return 0;
}

static int drain(struct client *c)
{
	while (c->done < c->posted)
		if (reap(c))
			return -1;
	return 0;
}

static uint32_t qp_path_mtu(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_PATH_MTU, &init))
		return 0;
	return 128u << attr.path_mtu;
}

static void trace_mark(struct client *c, const char *what)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "rc-mix: qpn=%u %s\n",
			 c->id->qp->qp_num, what);

	if (c->trace_fd >= 0 && write(c->trace_fd, line, (size_t)n) != n)
		perror("rc-mix: trace_marker");
}

static int force_error(struct client *c)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };

	c->in_error = true;
	if (ibv_modify_qp(c->id->qp, &attr, IBV_QP_STATE)) {
		perror("rc-mix: ibv_modify_qp(ERR)");
		return -1;
	}
	trace_mark(c, "error");
	printf("rc-mix: error qpn=%u posted=%" PRIu64 " done=%" PRIu64 "\n",
	       c->id->qp->qp_num, c->posted, c->done);
	fflush(stdout);
	return drain(c);
}

/* Traffic: batches while there is room, completions as they come. */
static int traffic(struct client *c)
{
	uint32_t batch_wrs = c->o.writes + (c->o.rsize ? 1 : 0);
	uint32_t b = 0;

	while (c->o.error_mode || b < c->o.iters || c->done < c->posted) {
		if (c->o.error_mode && got_usr2)
			return force_error(c);
		while ((c->o.error_mode || b < c->o.iters) &&
		       c->posted - c->done + batch_wrs <= MIX_SQ_DEPTH &&
		       (!c->o.rsize || c->reads_out < c->o.depth)) {
			if (post_batch(c))
				return -1;
			b++;
		}
		if (reap(c))
			return -1;
	}
	return 0;
}

/* The done flag, then region A read back and checked. */
static int finish(struct client *c)
{
	c->flag = pat(c->req.seed, 0, c->req.writes_total);
	if (post_one(c, WR_FLAG, IBV_WR_RDMA_WRITE, &c->flag, sizeof(c->flag),
		     c->flag_mr->lkey,
		     c->rep.a_addr + (uint64_t)c->req.slots * c->o.wsize,
		     c->rep.a_rkey) ||
	    post_one(c, WR_READBACK, IBV_WR_RDMA_READ, c->back, c->back_len,
		     c->back_mr->lkey, c->rep.a_addr, c->rep.a_rkey) ||
	    drain(c))
		return -1;
	for (uint32_t s = 0; s < c->req.slots; s++) {
		uint32_t k = last_writer(s, c->req.slots, c->req.writes_total);
		long w = check(c->back + (size_t)s * c->o.wsize / 8, c->o.wsize,
			       c->req.seed, k + 1ull, 0);

		if (w >= 0) {
			fprintf(stderr, "rc-mix: region A slot %u (write %u) wrong at word %ld\n",
				s, k, w);
			return -1;
		}
	}
	return 0;
}

static void hold(struct client *c, const char *what)
{
	printf("rc-mix: %s qpn=%u\n", what, c->id->qp->qp_num);
	fflush(stdout);
	while (!got_usr1)
		poll(NULL, 0, MIX_POLL_MS);
}

static int connect_client(struct client *c)
{
	struct rdma_addrinfo hints = { .ai_port_space = RDMA_PS_TCP }, *ai;
	struct rdma_conn_param cp = { 0 };
	struct rdma_cm_event *ev;
	struct ibv_qp_init_attr ia;
	struct mix_req wire;

	c->ch = rdma_create_event_channel();
	if (!c->ch || rdma_create_id(c->ch, &c->id, NULL, RDMA_PS_TCP)) {
		perror("rc-mix: rdma_create_id");
		return -1;
	}
	if (rdma_getaddrinfo(c->o.server, c->o.port, &hints, &ai)) {
		fprintf(stderr, "rc-mix: cannot resolve %s\n", c->o.server);
		return -1;
	}
	if (rdma_resolve_addr(c->id, NULL, ai->ai_dst_addr, MIX_CM_TIMEOUT_MS) ||
	    cm_expect(c->ch, RDMA_CM_EVENT_ADDR_RESOLVED, &ev, MIX_CM_TIMEOUT_MS))
		return -1;
	rdma_ack_cm_event(ev);
	rdma_freeaddrinfo(ai);
	if (set_option(c->id, RDMA_OPTION_ID_TOS, c->o.tos, "TOS") ||
	    rdma_resolve_route(c->id, MIX_CM_TIMEOUT_MS) ||
	    cm_expect(c->ch, RDMA_CM_EVENT_ROUTE_RESOLVED, &ev, MIX_CM_TIMEOUT_MS))
		return -1;
	rdma_ack_cm_event(ev);
	if (set_option(c->id, RDMA_OPTION_ID_ACK_TIMEOUT, c->o.ack_timeout, "ACK timeout"))
		return -1;

	c->pd = ibv_alloc_pd(c->id->verbs);
	c->cc = c->pd ? ibv_create_comp_channel(c->id->verbs) : NULL;
	c->cq = c->cc ? ibv_create_cq(c->id->verbs, 2 * MIX_SQ_DEPTH, NULL, c->cc, 0) : NULL;
	ia = qp_attr(c->cq);
	if (!c->cq || ibv_req_notify_cq(c->cq, 0) || rdma_create_qp(c->id, c->pd, &ia)) {
		perror("rc-mix: client QP");
		return -1;
	}
	fcntl(c->cc->fd, F_SETFL, fcntl(c->cc->fd, F_GETFL) | O_NONBLOCK);

	wire = (struct mix_req){ htobe32(c->req.magic), htobe32(c->req.writes_total),
				 htobe32(c->req.wsize), htobe32(c->req.slots),
				 htobe32(c->req.rsize), htobe32(c->req.seed) };
	cp.private_data = &wire;
	cp.private_data_len = sizeof(wire);
	cp.initiator_depth = (uint8_t)c->o.depth;
	cp.responder_resources = (uint8_t)c->o.depth;
	cp.retry_count = 7;
	if (rdma_connect(c->id, &cp) ||
	    cm_expect(c->ch, RDMA_CM_EVENT_ESTABLISHED, &ev, MIX_CM_TIMEOUT_MS))
		return -1;
	if (ev->param.conn.private_data_len < sizeof(c->rep)) {
		fprintf(stderr, "rc-mix: short accept\n");
		return -1;
	}
	memcpy(&c->rep, ev->param.conn.private_data, sizeof(c->rep));
	rdma_ack_cm_event(ev);
	c->rep.a_addr = be64toh(c->rep.a_addr);
	c->rep.b_addr = be64toh(c->rep.b_addr);
	c->rep.b_len = be64toh(c->rep.b_len);
	c->rep.a_rkey = be32toh(c->rep.a_rkey);
	c->rep.b_rkey = be32toh(c->rep.b_rkey);
	c->mtu_bytes = qp_path_mtu(c->id->qp);
	if (!c->mtu_bytes)
		return -1;
	return 0;
}

static void client_teardown(struct client *c)
{
	struct rdma_cm_event *ev;

	if (!rdma_disconnect(c->id) &&
	    !cm_expect(c->ch, RDMA_CM_EVENT_DISCONNECTED, &ev, MIX_CM_TIMEOUT_MS))
		rdma_ack_cm_event(ev);
	rdma_destroy_qp(c->id);
	ibv_dereg_mr(c->src_mr);
	ibv_dereg_mr(c->dst_mr);
	ibv_dereg_mr(c->back_mr);
	ibv_dereg_mr(c->flag_mr);
	ibv_destroy_cq(c->cq);
	ibv_destroy_comp_channel(c->cc);
	ibv_dealloc_pd(c->pd);
	rdma_destroy_id(c->id);
	rdma_destroy_event_channel(c->ch);
}

static int run_client(const struct mix_opts *o)
{
	struct client *c = calloc(1, sizeof(*c));
	size_t src_len, dst_len;
	uint32_t total;
	int rc;

	if (!c)
		return 1;
	c->o = *o;
	total = o->iters * o->writes;
	c->req = (struct mix_req){
		.magic = MIX_MAGIC, .writes_total = total, .wsize = o->wsize,
		.slots = total < MIX_MAX_SLOTS ? total : MIX_MAX_SLOTS,
		.rsize = o->rsize, .seed = (uint32_t)getpid() * 40503u + 1,
	};
	if (connect_client(c))
		return 1;

	src_len = (size_t)MIX_SQ_DEPTH * o->wsize;
	dst_len = (size_t)o->depth * (o->rsize ? o->rsize : 8);
	c->src = xalloc(src_len);
	c->dst = xalloc(dst_len);
	c->back_len = c->req.slots * o->wsize;
	c->back = xalloc(c->back_len);
	c->src_mr = xreg(c->pd, c->src, src_len);
	c->dst_mr = xreg(c->pd, c->dst, dst_len);
	c->back_mr = xreg(c->pd, c->back, c->back_len);
	c->flag_mr = xreg(c->pd, &c->flag, sizeof(c->flag));
	c->trace_fd = -1;
	if (o->marker) {
		c->trace_fd = open(o->marker, O_WRONLY);
		if (c->trace_fd < 0) {
			fprintf(stderr, "rc-mix: %s: %s\n", o->marker, strerror(errno));
			return 1;
		}
	}

	printf("rc-mix: connected qpn=%u path_mtu=%u reads=%u x %u B writes=%u x %u B\n",
	       c->id->qp->qp_num, c->mtu_bytes, o->rsize ? o->iters : 0,
	       o->rsize, total, o->wsize);
	fflush(stdout);

	rc = traffic(c);
	if (!rc && !c->in_error)
		rc = finish(c);
	if (!rc)
		printf("rc-mix: %s bytes_read=%" PRIu64 " bytes_written=%" PRIu64
		       " work_requests=%" PRIu64 " max_outstanding_packets=%" PRIu64 "\n",
		       c->in_error ? "flushed" : "verified", c->bytes_read,
		       c->bytes_written, c->done, c->max_pkts_out);
	fflush(stdout);
	if (!rc && (o->hold || o->error_mode))
		hold(c, c->in_error ? "held-in-error" : "idle");
	client_teardown(c);
	if (c->trace_fd >= 0)
		close(c->trace_fd);
	free(c->src);
	free(c->dst);
	free(c->back);
	free(c);
	return rc ? 1 : 0;
}

/* ------------------------------------------------------------------ main */

static unsigned int num(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 0);

	if (*s == '\0' || *end != '\0' || v > UINT32_MAX) {
		fprintf(stderr, "rc-mix: bad %s '%s'\n", what, s);
		exit(2);
	}
	return (unsigned int)v;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: rc-mix -s [-b ADDR] [-p PORT] [-t TOS] [-T SEC]\n"
		"       rc-mix [-p PORT] [-i ITERS] [-w WRITES] [-W WSIZE] [-R RSIZE]\n"
		"              [-d DEPTH] [-H] [-E] [-M PATH] [-t TOS] [-a TIMEOUT]\n"
		"              [-T SEC] SERVER_ADDR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct mix_opts o = { .port = "18600", .iters = 32, .writes = 4,
			      .wsize = 16384, .rsize = 1u << 20, .depth = 4,
			      .timeout_s = 120, .tos = -1, .ack_timeout = -1 };
	struct sigaction sa = { .sa_handler = on_signal };
	bool server = false;
	int opt;

	while ((opt = getopt(argc, argv, "sb:p:i:w:W:R:d:HEM:t:a:T:")) != -1) {
		switch (opt) {
		case 's': server = true; break;
		case 'b': o.bind = optarg; break;
		case 'p': o.port = optarg; break;
		case 'i': o.iters = num(optarg, "ITERS"); break;
		case 'w': o.writes = num(optarg, "WRITES"); break;
		case 'W': o.wsize = num(optarg, "WSIZE"); break;
		case 'R': o.rsize = num(optarg, "RSIZE"); break;
		case 'd': o.depth = num(optarg, "DEPTH"); break;
		case 'H': o.hold = true; break;
		case 'E': o.error_mode = true; break;
		case 'M': o.marker = optarg; break;
		case 't': o.tos = (int)num(optarg, "TOS"); break;
		case 'a': o.ack_timeout = (int)num(optarg, "TIMEOUT"); break;
		case 'T': o.timeout_s = num(optarg, "SEC"); break;
		default: usage();
		}
	}
	if (server == (optind < argc) || (!server && optind + 1 != argc))
		usage();
	o.server = server ? NULL : argv[optind];
	if (!server && (!o.iters || !o.writes || !o.wsize || o.wsize % 8 ||
			o.rsize % 8 || !o.depth || o.depth > 16 || o.tos > 255 ||
			o.ack_timeout > 31 ||
			o.writes + 1 > MIX_SQ_DEPTH)) {
		fprintf(stderr, "rc-mix: sizes must be non-zero multiples of 8, "
			"DEPTH 1..16, WRITES < %u, TIMEOUT 0..31\n", MIX_SQ_DEPTH);
		return 2;
	}

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(o.timeout_s);
	setvbuf(stdout, NULL, _IOLBF, 0);

	return server ? run_server(&o) : run_client(&o);
}

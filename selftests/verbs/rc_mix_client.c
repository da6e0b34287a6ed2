// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rc-mix client: WRITE and READ batches on one RC QP, every READ checked,
 * region A read back at the end; holds the QP idle, or moves it to ERROR
 * on SIGUSR2 in error mode.
 */

#include "rc_mix.h"

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

/* -G: the first batch done, wait for SIGUSR2 before the next one. */
static int gate(struct client *c)
{
	if (drain(c))
		return -1;
	printf("rc-mix: gate qpn=%u done=%" PRIu64 "\n", c->id->qp->qp_num,
	       c->done);
	fflush(stdout);
	while (!got_usr2)
		poll(NULL, 0, MIX_POLL_MS);
	got_usr2 = 0;
	return 0;
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
			if (b++ == 0 && c->o.gate && gate(c))
				return -1;
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

int run_client(const struct mix_opts *o)
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

// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * rc-mix server: owns regions A (the client writes it) and B (a pattern
 * the client reads), accepts one connection and checks A once the client
 * disconnects.
 */

#include "rc_mix.h"

int run_server(const struct mix_opts *o)
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

	/* rdma_accept() moves the QP to RTS with it */
	if (set_option(id, RDMA_OPTION_ID_ACK_TIMEOUT, o->ack_timeout, "ACK timeout"))
		return 1;
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

/* SPDX-License-Identifier: GPL-2.0 */
/* lsw_fifo.h - frames owned by the core and the FIFOs that hold them. */
#ifndef LSW_FIFO_H
#define LSW_FIFO_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct lsw_frame {
	struct lsw_frame *next;
	uint64_t due_ns;     /* on a wire: arrival of the last bit at the peer */
	uint32_t len;
	int16_t in_port;     /* switch ingress port while buffered, else -1 */
	uint8_t prio;
	uint8_t in_headroom; /* charged to PFC headroom, not the shared pool */
	uint8_t data[];
};

struct lsw_fifo {
	struct lsw_frame *head, *tail;
	uint64_t bytes;
	uint32_t n;
};

static inline struct lsw_frame *lsw_frame_new(const uint8_t *data, size_t len)
{
	struct lsw_frame *f = malloc(sizeof(*f) + len);

	if (!f)
		return NULL;
	memset(f, 0, sizeof(*f));
	f->len = (uint32_t)len;
	f->in_port = -1;
	memcpy(f->data, data, len);
	return f;
}

static inline void lsw_fifo_push(struct lsw_fifo *q, struct lsw_frame *f)
{
	f->next = NULL;
	if (q->tail)
		q->tail->next = f;
	else
		q->head = f;
	q->tail = f;
	q->bytes += f->len;
	q->n++;
}

static inline struct lsw_frame *lsw_fifo_pop(struct lsw_fifo *q)
{
	struct lsw_frame *f = q->head;

	if (!f)
		return NULL;
	q->head = f->next;
	if (!q->head)
		q->tail = NULL;
	q->bytes -= f->len;
	q->n--;
	return f;
}

static inline void lsw_fifo_free(struct lsw_fifo *q)
{
	struct lsw_frame *f;

	while ((f = lsw_fifo_pop(q)))
		free(f);
}

#endif

// SPDX-License-Identifier: GPL-2.0
/* json.c - typed JSON output, compact or pretty. */
#include "json.h"

#include <inttypes.h>

#include "out.h"

void jw_init(struct jw *w, FILE *f, int pretty)
{
	w->f = f;
	w->pretty = pretty;
	w->depth = 0;
	w->count[0] = 0;
}

static void indent(struct jw *w)
{
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("    ", w->f);
}

/* the comma, the line break and the key before a member */
static void member(struct jw *w, const char *key)
{
	if (w->count[w->depth]++)
		fputc(',', w->f);
	if (w->pretty && w->depth)
		indent(w);
	if (key) {
		json_string(w->f, key);
		fputs(w->pretty ? ": " : ":", w->f);
	}
}

static void nest_open(struct jw *w, const char *key, char c)
{
	member(w, key);
	fputc(c, w->f);
	if (w->depth < JSON_DEPTH_MAX - 1)
		w->depth++;
	w->count[w->depth] = 0;
}

static void nest_close(struct jw *w, char c)
{
	int had = w->count[w->depth];

	if (w->depth)
		w->depth--;
	if (w->pretty && had)
		indent(w);
	fputc(c, w->f);
}

void jw_obj_open(struct jw *w, const char *key)
{
	nest_open(w, key, '{');
}

void jw_obj_close(struct jw *w)
{
	nest_close(w, '}');
}

void jw_arr_open(struct jw *w, const char *key)
{
	nest_open(w, key, '[');
}

void jw_arr_close(struct jw *w)
{
	nest_close(w, ']');
}

void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRIu64, v);
}

void jw_s64(struct jw *w, const char *key, int64_t v)
{
	member(w, key);
	fprintf(w->f, "%" PRId64, v);
}

void jw_str(struct jw *w, const char *key, const char *s)
{
	member(w, key);
	json_string(w->f, s);
}

void jw_bool(struct jw *w, const char *key, int v)
{
	member(w, key);
	fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w, const char *key)
{
	member(w, key);
	fputs("null", w->f);
}

void jw_end(struct jw *w)
{
	fputc('\n', w->f);
	w->count[0] = 0;
}

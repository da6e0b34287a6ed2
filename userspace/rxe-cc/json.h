/* SPDX-License-Identifier: GPL-2.0 */
/*
 * json.h - the one JSON writer of rxe-cc.  A value goes out through a
 * function of its C type (u64, s64, string, bool, null), so a signed
 * value cannot print as unsigned nor a string as a bare word; the
 * writer places commas, and with pretty on, newlines and indentation.
 *
 * Every top-level object rxe-cc prints carries "schema": JSON_SCHEMA,
 * the version of the shapes rxe-cc(8) documents.  It grows when a key
 * changes meaning or goes away; new keys do not change it.
 */
#ifndef RXE_CC_JSON_H
#define RXE_CC_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_SCHEMA	1
#define JSON_DEPTH_MAX	16

struct jw {
	FILE *f;
	int pretty;
	int depth;
	int count[JSON_DEPTH_MAX];	/* members written at each level */
};

void jw_init(struct jw *w, FILE *f, int pretty);

/*
 * KEY is the member's name inside an object and NULL inside an array
 * (or for the top-level value).
 */
void jw_obj_open(struct jw *w, const char *key);
void jw_obj_close(struct jw *w);
void jw_arr_open(struct jw *w, const char *key);
void jw_arr_close(struct jw *w);
void jw_u64(struct jw *w, const char *key, uint64_t v);
void jw_s64(struct jw *w, const char *key, int64_t v);
void jw_str(struct jw *w, const char *key, const char *s);
void jw_bool(struct jw *w, const char *key, int v);
void jw_null(struct jw *w, const char *key);
/* ends a top-level value with a newline */
void jw_end(struct jw *w);

#endif

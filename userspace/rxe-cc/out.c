// SPDX-License-Identifier: GPL-2.0
/* out.c - output helpers shared by the verbs. */
#include "out.h"

#include <inttypes.h>

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

const char *fmt_rate(char *buf, size_t len, uint64_t bps)
{
	static const char *const unit[] = { "b/s", "kb/s", "Mb/s", "Gb/s",
					    "Tb/s" };
	uint64_t scale = 1, tenths;
	int u = 0;

	while (u < 4 && bps >= scale * 1000) {
		scale *= 1000;
		u++;
	}
	if (u == 0) {
		snprintf(buf, len, "%" PRIu64 " %s", bps, unit[u]);
		return buf;
	}
	/* one decimal, rounded to nearest (half up), in integers */
	tenths = bps / scale * 10 + (bps % scale * 10 + scale / 2) / scale;
	if (tenths >= 10000 && u < 4) {		/* 999.95 kb/s is 1 Mb/s */
		scale *= 1000;
		u++;
		tenths = bps / scale * 10 + (bps % scale * 10 + scale / 2) / scale;
	}
	if (tenths % 10 == 0)
		snprintf(buf, len, "%" PRIu64 " %s", tenths / 10, unit[u]);
	else
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " %s", tenths / 10,
			 tenths % 10, unit[u]);
	return buf;
}

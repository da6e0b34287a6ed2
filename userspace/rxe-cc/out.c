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
	uint64_t scale = 1;
	int u = 0;

	while (u < 4 && bps >= scale * 1000) {
		scale *= 1000;
		u++;
	}
	if (u == 0 || bps % scale == 0)
		snprintf(buf, len, "%" PRIu64 " %s", bps / scale, unit[u]);
	else	/* one decimal, rounded down: integer arithmetic */
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " %s", bps / scale,
			 bps % scale * 10 / scale, unit[u]);
	return buf;
}

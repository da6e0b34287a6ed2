/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsw_config.h - the text config format (README.md "Config file") to a
 * struct lsw_config.  Errors read "file:line: what is wrong".
 */
#ifndef LSW_CONFIG_H
#define LSW_CONFIG_H

#include <stddef.h>

#include "lsw_core.h"

/* Command-line overrides; zero / -1 means "keep the file's value". */
struct lsw_overrides {
	uint64_t rate_bps;
	int64_t delay_ns;
	int marking;
};

int lsw_config_parse(const char *text, size_t len, const char *fname,
		     struct lsw_config *cfg, char *err, size_t errlen);
int lsw_config_load(const char *path, struct lsw_config *cfg, char *err,
		    size_t errlen);
void lsw_config_override(struct lsw_config *cfg, const struct lsw_overrides *o);

/* Value parsers shared with the command line; 0 on success. */
int lsw_parse_rate(const char *s, uint64_t *bps);
int lsw_parse_time(const char *s, uint64_t *ns);
int lsw_parse_size(const char *s, uint64_t *bytes);
int lsw_parse_marking(const char *s, enum lsw_marking *m);

#endif

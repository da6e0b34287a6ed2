// SPDX-License-Identifier: GPL-2.0
/* fuzz_config.c - libFuzzer target: the config parser and core validation. */
#include <stdint.h>
#include <stdio.h>

#include "lsw_config.h"
#include "lsw_core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lsw_config cfg;
	char err[256];
	struct lsw_core *core;

	if (lsw_config_parse((const char *)data, size, "fuzz", &cfg, err,
			     sizeof(err)))
		return 0;
	core = lsw_core_create(&cfg, err, sizeof(err));
	lsw_core_destroy(core);
	return 0;
}

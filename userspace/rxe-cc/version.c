// SPDX-License-Identifier: GPL-2.0
/* version.c - the tool's version against the module's. */
#include "version.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "json.h"
#include "sysfs.h"

static const char *module_dir(char *buf, size_t len)
{
	const char *r = getenv("RXE_CC_SYSMODULE");

	snprintf(buf, len, "%.400s/rdma_rxe", r && *r ? r : "/sys/module");
	return buf;
}

static void read_line(const char *dir, const char *name, char *val,
		      size_t len)
{
	char path[600];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path) || sysfs_read_file(path, val, len))
		*val = 0;
}

void version_get(struct version_info *v)
{
	char dir[512];
	struct stat st;
	size_t n, s = strlen(MODULE_SUFFIX);

	memset(v, 0, sizeof(*v));
	v->tool = RXE_CC_VERSION;
	v->git = RXE_CC_GIT;
	module_dir(dir, sizeof(dir));
	v->loaded = !stat(dir, &st) && S_ISDIR(st.st_mode);
	v->match = VERSION_UNKNOWN;
	if (!v->loaded)
		return;
	read_line(dir, "version", v->module, sizeof(v->module));
	read_line(dir, "srcversion", v->srcversion, sizeof(v->srcversion));
	n = strlen(v->module);
	if (!n)
		return;
	/* RELEASE-rxe-acc against RELEASE */
	if (n > s && !strcmp(v->module + n - s, MODULE_SUFFIX) &&
	    n - s == strlen(v->tool) && !strncmp(v->module, v->tool, n - s))
		v->match = VERSION_MATCH;
	else
		v->match = VERSION_DIFFER;
}

static const char *const match_text[] = {
	[VERSION_MATCH] = "matches this rxe-cc",
	[VERSION_DIFFER] = "DIFFERS from this rxe-cc",
	[VERSION_UNKNOWN] = "cannot be compared",
};

void version_print(FILE *f, const struct version_info *v, int json,
		   int pretty)
{
	struct jw w;

	if (!json) {
		fprintf(f, "rxe-cc %s (git %s)\n", v->tool, v->git);
		if (!v->loaded)
			fputs("rdma_rxe: not loaded (modprobe rdma_rxe)\n", f);
		else if (!*v->module)
			fprintf(f, "rdma_rxe: no version%s%s%s: not built by rxe-acc-dkms; %s\n",
				*v->srcversion ? " (srcversion " : "",
				v->srcversion, *v->srcversion ? ")" : "",
				match_text[v->match]);
		else
			fprintf(f, "rdma_rxe: %s%s%s%s: %s\n", v->module,
				*v->srcversion ? " (srcversion " : "",
				v->srcversion, *v->srcversion ? ")" : "",
				match_text[v->match]);
		return;
	}
	jw_init(&w, f, pretty);
	jw_obj_open(&w, NULL);
	jw_u64(&w, "schema", JSON_SCHEMA);
	jw_obj_open(&w, "tool");
	jw_str(&w, "version", v->tool);
	jw_str(&w, "git", v->git);
	jw_obj_close(&w);
	jw_obj_open(&w, "module");
	jw_str(&w, "name", "rdma_rxe");
	jw_bool(&w, "loaded", v->loaded);
	if (*v->module)
		jw_str(&w, "version", v->module);
	else
		jw_null(&w, "version");
	if (*v->srcversion)
		jw_str(&w, "srcversion", v->srcversion);
	else
		jw_null(&w, "srcversion");
	jw_obj_close(&w);
	if (v->match == VERSION_UNKNOWN)
		jw_null(&w, "match");
	else
		jw_bool(&w, "match", v->match == VERSION_MATCH);
	jw_obj_close(&w);
	jw_end(&w);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * version.h - "rxe-cc -V": the tool's version, the loaded rdma_rxe's,
 * and whether they are the same release.
 */
#ifndef RXE_CC_VERSION_H
#define RXE_CC_VERSION_H

#include <stdio.h>

/* what the Makefile gives: the release (VERSION) and git describe */
#ifndef RXE_CC_VERSION
#define RXE_CC_VERSION "unknown"
#endif
#ifndef RXE_CC_GIT
#define RXE_CC_GIT "unknown"
#endif

/* the rxe-acc-dkms package builds rdma_rxe with version RELEASE-rxe-acc */
#define MODULE_SUFFIX	"-rxe-acc"

enum version_match {
	VERSION_MATCH,		/* the module is this release's */
	VERSION_DIFFER,		/* another release's */
	VERSION_UNKNOWN,	/* not loaded, or no version to compare */
};

struct version_info {
	const char *tool, *git;
	int loaded;		/* /sys/module/rdma_rxe exists */
	char module[64];	/* its version file, "" if none */
	char srcversion[64];	/* its srcversion file, "" if none */
	enum version_match match;
};

/*
 * version_get - fill V from the build and from /sys/module/rdma_rxe
 * (RXE_CC_SYSMODULE in the environment replaces /sys/module).
 */
void version_get(struct version_info *v);

/* version_print - V as text or (JSON, PRETTY) JSON on F */
void version_print(FILE *f, const struct version_info *v, int json,
		   int pretty);

#endif

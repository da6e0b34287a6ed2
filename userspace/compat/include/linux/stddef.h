/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/stddef.h> for the rxe-acc cores in user space: the UAPI header
 * plus the kernel's sizeof_field(), which the knob rows use.
 */
#ifndef RXE_COMPAT_LINUX_STDDEF_H
#define RXE_COMPAT_LINUX_STDDEF_H

#include_next <linux/stddef.h>
#include <stddef.h>

#define sizeof_field(TYPE, MEMBER)	sizeof((((TYPE *)0)->MEMBER))

#endif

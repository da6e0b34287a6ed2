/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/time64.h> for the rxe-acc cores in user space: the kernel's
 * constants with the kernel's types (long: 32 bits on a 32-bit kernel,
 * so the cores widen before they multiply).
 */
#ifndef RXE_COMPAT_LINUX_TIME64_H
#define RXE_COMPAT_LINUX_TIME64_H

#define NSEC_PER_USEC		1000L
#define NSEC_PER_SEC		1000000000L

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/kernel.h> for the rxe-acc cores in user space: ARRAY_SIZE(),
 * which the ops tables use for their knob and statistics rows.
 */
#ifndef RXE_COMPAT_LINUX_KERNEL_H
#define RXE_COMPAT_LINUX_KERNEL_H

#define ARRAY_SIZE(arr)	(sizeof(arr) / sizeof((arr)[0]))

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/compiler.h> for the rxe-acc cores in user space: the one-time
 * accesses a core uses for a field the kernel reads without its lock.
 * The unit tests and the simulator run a core in one thread, so a plain
 * access means the same.
 */
#ifndef RXE_COMPAT_LINUX_COMPILER_H
#define RXE_COMPAT_LINUX_COMPILER_H

#define READ_ONCE(x)		(x)
#define WRITE_ONCE(x, val)	((x) = (val))

#endif

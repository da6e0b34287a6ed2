/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* <linux/bits.h> for the rxe-acc cores in user space. */
#ifndef RXE_COMPAT_LINUX_BITS_H
#define RXE_COMPAT_LINUX_BITS_H

#define BITS_PER_BYTE		8
#define BIT(nr)			(1UL << (nr))

#endif

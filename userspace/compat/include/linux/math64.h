/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* <linux/math64.h> for the rxe-acc cores in user space. */
#ifndef RXE_COMPAT_LINUX_MATH64_H
#define RXE_COMPAT_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

/* (a * b) / c with a 128-bit intermediate, as the kernel's. */
static inline u64 mul_u64_u64_div_u64(u64 a, u64 b, u64 c)
{
	return (u64)(((unsigned __int128)a * b) / c);
}

#endif

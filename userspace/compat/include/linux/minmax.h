/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/minmax.h> for the rxe-acc cores in user space.  Unlike the
 * kernel's these evaluate their arguments twice; the cores only pass
 * plain values.  C++ code undefines them after including the cores.
 */
#ifndef RXE_COMPAT_LINUX_MINMAX_H
#define RXE_COMPAT_LINUX_MINMAX_H

#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b)	((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define clamp_t(type, v, lo, hi) min_t(type, max_t(type, v, lo), hi)

#endif

/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * <linux/types.h> for the rxe-acc cores in user space: the UAPI header
 * (__u8 ...) plus the kernel's short names, as <stdint.h> types so that
 * they are the very types the C and C++ test code already uses.
 */
#ifndef RXE_COMPAT_LINUX_TYPES_H
#define RXE_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif

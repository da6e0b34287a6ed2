// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * cores.h - the hermetic C cores, as C++ sees them.  userspace/compat gives
 * C its kernel-style min()/max() macros; in C++ they would break the
 * standard library and ns-3, so they are dropped right after the cores'
 * declarations (the cores themselves are compiled as C).
 */
#ifndef SIM_CORES_H
#define SIM_CORES_H

extern "C" {
#include "cc_host.h"
#include "lsw_mark.h"
#include "rxe_cc_acc.h"
#include "rxe_cc_dcqcn.h"
#include "rxe_cc_echo.h"
#include "hpcc.h"
#include "rxe_cc_pacer.h"
#include "rxe_cc_timely.h"
}

#undef min
#undef max
#undef min_t
#undef max_t
#undef clamp_t

#endif

// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * rxe_cc_algos.c - the congestion control algorithms built into rdma_rxe.
 * An algorithm's key, which the knobs store, is its place here plus one.
 */

#include "rxe.h"
#include "rxe_cc_dcqcn.h"
#include "rxe_cc_acc.h"
#include "rxe_cc_timely.h"

const struct rxe_cc_ops *const rxe_cc_builtin[] = {
	&rxe_cc_dcqcn_ops,
	&rxe_cc_acc_ops,
	&rxe_cc_timely_ops,
	NULL
};

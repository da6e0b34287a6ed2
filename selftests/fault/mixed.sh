#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Three endless ib_write_bw flows rxb -> rxa at once, one per algorithm
# (DCQCN, ACC, none), for SECONDS (in the test VM: selftests/rxe/vm-suite
# ../fault/mixed.sh).  Every flow must run to the end without a completion
# error and without a 5 s report window with no message: the baseline the
# hostile-packet phases assume.
#
#   mixed.sh [SECONDS] [none]     default 60; "none": all three flows
#                                 without CC (the control)

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

secs=${1:-60}
control=${2:-}
work=$(mktemp -d)
trap 'rxe_cleanup; rm -rf "$work"' EXIT
rxe_dmesg_clean >/dev/null

ktap_header "three flows, DCQCN + ACC + none, $secs s" 4

fault_three_setup "$control" || { ktap_fail "topology"; exit 1; }
FAULT_FLOW_LOG=$work/flow fault_three_flows 0 || ktap_diag "a flow did not start"
sleep "$secs"
rdma -dd res show qp link rxe_b/1 | grep "type RC" | sed 's/^/# /'
kill "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
fault_wait_flows 60
[ -n "$OUT_DIR" ] && cp "$work"/flow.* "$OUT_DIR/" 2>/dev/null

flow_case() { # PORT ALGO
	local log=$work/flow.c$1 windows zero err
	windows=$(awk '$1 == 65536 && NF >= 5' "$log" | wc -l)
	zero=$(awk '$1 == 65536 && NF >= 5 && $2 == 0' "$log" | wc -l)
	err=$(grep -c "Completion with error\|Failed status" "$log")
	grep -h "Failed status\|error" "$log" | head -3 | sed "s/^/# $2: /"
	echo "# $2: $windows report windows, $zero without a message, $err completion errors"
	[ "$windows" -ge 2 ] && [ "$zero" = 0 ] && [ "$err" = 0 ]
}
ktap_check "DCQCN flow: no completion error, no stalled window" flow_case 18515 dcqcn
ktap_check "ACC flow: no completion error, no stalled window" flow_case 18516 acc
ktap_check "CC-less flow: no completion error, no stalled window" flow_case 18517 none
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest script of the lsw test bed: builds the hosts (one per NIC), selects
# the CC algorithm E2E_ALGO (default none), runs the flows of E2E_FLOWS
# ("SRC DST START_S ITERS SIZE [TOOL]; ..."), saving perftest output, rdma
# counters before/after and the rxe_cc trace into $OUT_DIR.
# Exit: 0 ok, 77 skipped (CC algorithm not available), else failed (the
# failing step is printed as "# e2e-guest: failed: STEP").
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"

algo=${E2E_ALGO:-none}
e2e_start
e2e_cc_setup "$algo"
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || e2e_fail "cc setup $algo"
echo "$algo" >"$OUT_DIR/algo.txt"
e2e_trace_start
e2e_counters before
IFS=';' read -r -a specs <<<"${E2E_FLOWS:-0 2 0 200 65536; 1 2 0 200 65536}"
echo "# e2e-guest: algo $algo, ${#specs[@]} flows"
t0=$(date +%s.%N)
e2e_flows "${specs[@]}"
frc=$?
echo "# e2e-guest: flows took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
e2e_trace_stop
e2e_counters after
rxe_dmesg_clean || e2e_fail "kernel log splat"
[ $frc -eq 0 ] || e2e_fail "flows"
echo "# e2e-guest: ok"

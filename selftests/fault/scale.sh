#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many CC QPs on one device (in the test VM: selftests/rxe/vm-suite
# ../fault/scale.sh): for each of DCQCN, ACC and none (the control: rxe
# without CC), ACTIVE connected RC QPs rxe_b -> rxe_a carry WRITEs alone,
# then beside N - ACTIVE more connected QPs, alternately, ROUNDS times in
# one process (scale_qps.py).  Reports kernel memory per QP, idle CPU with
# the QPs, and the active QPs' throughput; checks that the QPs come up,
# that the active ones carry traffic without a completion error, that the
# idle QPs cost the active ones at most MAX_LOSS % of their throughput
# (median over the rounds), and no splat.
#
#   scale.sh [N] [ACTIVE] [SECONDS] [ROUNDS]    defaults 1000 10 8 2

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

n=${1:-1000}
active=${2:-10}
secs=${3:-8}
rounds=${4:-2}
MAX_LOSS=15
trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

algos=(dcqcn acc none)
ktap_header "$n CC QPs on one device, $active active" $((${#algos[@]} * 2 + 1))

rxe_two_hosts && fault_cc_setup 100 || { ktap_fail "topology"; exit 1; }
ga=$(rxe_gid_index rxe_a 10.10.0.1) && gb=$(rxe_gid_index rxe_b 10.10.0.2) ||
	{ ktap_fail "GIDs"; exit 1; }
# rxe's default limit is 2^14 QPs (max_qp); the CQ of 4096 entries and 2
# WRITEs in flight per active QP fit any N here.
scale() { # ALGO
	fault_both algorithm "$1"
	ip netns exec rxb python3 "$here/scale_qps.py" --src "rxe_b:$gb" --dst "rxe_a:$ga" \
		--qps "$n" --active "$active" --seconds "$secs" --rounds "$rounds" 2>&1 | tail -1
}
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ''))" "$1" "$2" 2>/dev/null; }

declare -A R
for algo in "${algos[@]}"; do
	R[$algo]=$(scale "$algo")
	echo "# $algo: ${R[$algo]}"
	[ -n "$OUT_DIR" ] && echo "$algo ${R[$algo]}" >>"$OUT_DIR/scale-figures.txt"
done
up_case() { # ALGO
	[ "$(field "${R[$1]}" qps)" = "$n" ] && [ "$(field "${R[$1]}" wc_errors)" = 0 ]
}
ratio_case() { # ALGO
	local r
	r=$(field "${R[$1]}" many_over_alone_median)
	echo "# $1: $active active QPs, Mb/s alone $(field "${R[$1]}" active_mbps_alone)," \
		"beside $((n - active)) idle QPs $(field "${R[$1]}" active_mbps_many): median ratio $r"
	awk -v r="$r" -v l="$MAX_LOSS" 'BEGIN { exit !(r != "" && r >= 1 - l / 100) }'
}
for algo in "${algos[@]}"; do
	ktap_check "$algo: $n QPs reach RTS; WRITEs complete without error" up_case "$algo"
	ktap_check "$algo: $((n - active)) idle QPs cost the active ones <= $MAX_LOSS % throughput" \
		ratio_case "$algo"
done
fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

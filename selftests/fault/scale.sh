#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many CC QPs on one device (in the test VM: selftests/rxe/vm-suite
# ../fault/scale.sh): N connected RC QPs rxe_b -> rxe_a for each of DCQCN
# and ACC, WRITE traffic on ACTIVE of them, against the same with ACTIVE
# QPs only.  Reports kernel memory per QP, idle CPU with the QPs, and the
# throughput of the active QPs; checks that the QPs come up, that the
# active ones carry traffic without a completion error, that the many idle
# QPs cost the active ones less than half their throughput, and no splat.
#
#   scale.sh [N] [ACTIVE] [SECONDS]     defaults 1000 10 8

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

n=${1:-1000}
active=${2:-10}
secs=${3:-8}
trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "$n CC QPs on one device, $active active" 5

rxe_two_hosts && fault_cc_setup 100 || { ktap_fail "topology"; exit 1; }
ga=$(rxe_gid_index rxe_a 10.10.0.1) && gb=$(rxe_gid_index rxe_b 10.10.0.2) ||
	{ ktap_fail "GIDs"; exit 1; }
# rxe's default limit is 2^14 QPs (max_qp); the CQ of 4096 entries and 2
# WRITEs in flight per active QP fit any N here.
scale() { # ALGO QPS
	fault_both algorithm "$1"
	ip netns exec rxb python3 "$here/scale_qps.py" --src "rxe_b:$gb" --dst "rxe_a:$ga" \
		--qps "$2" --active "$active" --seconds "$secs" 2>&1 | tail -1
}
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ''))" "$1" "$2" 2>/dev/null; }

declare -A R
for algo in dcqcn acc; do
	for q in "$active" "$n"; do
		R[$algo.$q]=$(scale $algo "$q")
		echo "# $algo, $q QPs: ${R[$algo.$q]}"
		[ -n "$OUT_DIR" ] && echo "$algo $q ${R[$algo.$q]}" >>"$OUT_DIR/scale-figures.txt"
	done
done
up_case() {
	local a
	for a in dcqcn acc; do
		[ "$(field "${R[$a.$n]}" qps)" = "$n" ] && [ "$(field "${R[$a.$n]}" wc_errors)" = 0 ] || return 1
	done
}
ktap_check "$n QPs per algorithm reach RTS; WRITEs complete without error" up_case
ratio_case() { # ALGO
	local few many
	few=$(field "${R[$1.$active]}" active_mbps_total)
	many=$(field "${R[$1.$n]}" active_mbps_total)
	echo "# $1: $active active QPs carry $few Mb/s alone, $many Mb/s beside $((n - active)) idle QPs"
	awk -v a="$few" -v b="$many" 'BEGIN { exit !(a > 0 && b > 0.5 * a) }'
}
ktap_check "dcqcn: idle QPs cost the active ones < 50 % throughput" ratio_case dcqcn
ktap_check "acc: idle QPs cost the active ones < 50 % throughput" ratio_case acc
fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

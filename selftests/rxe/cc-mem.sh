#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A QP pays only for the congestion control it runs.  N connected RC QP
# pairs rxe_b -> rxe_a (pyverbs, both ends on this host), first with the
# algorithm none, then with ACC, counting the objects of the kmalloc caches
# per QP (/proc/slabinfo):
#   * none: no sender state, and struct rxe_qp stays in kmalloc-2k as in
#     stock rxe (no kmalloc-4k or -8k object per QP);
#   * acc: one sender state (struct rxe_cc_qp, ~6 KB: kmalloc-8k) per QP;
#   * once the QPs are destroyed, the sender states are freed.
# Runs in the test VM: selftests/rxe/vm-suite cc-mem.sh [N]

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

n=${1:-100}
trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "per-QP memory: sender state only for QPs that run CC" 6

slab8k() { awk '$1 == "kmalloc-8k" { print $2 }' /proc/slabinfo; }
field() { # JSON KEY [SUBKEY]
	python3 -c 'import json, sys
v = json.loads(sys.argv[1]).get(sys.argv[2], "")
print(v.get(sys.argv[3], "") if len(sys.argv) > 3 else v)' "$@" 2>/dev/null
}

if rxe_two_hosts && rxe_cc_both line_rate_mbps 100 &&
   ga=$(rxe_gid_index rxe_a 10.10.0.1) && gb=$(rxe_gid_index rxe_b 10.10.0.2) &&
   [ -r /proc/slabinfo ]; then
	ktap_pass "two namespaces, GIDs, /proc/slabinfo"
else
	ktap_fail "two namespaces, GIDs, /proc/slabinfo"
	exit 1
fi

declare -A R S
for algo in none acc; do
	rxe_cc_both algorithm $algo
	S[$algo.before]=$(slab8k)
	R[$algo]=$(ip netns exec rxb python3 "$here/../fault/scale_qps.py" \
		--src "rxe_b:$gb" --dst "rxe_a:$ga" --qps "$n" --active 1 \
		--seconds 1 2>&1 | tail -1)
	sleep 1
	S[$algo.after]=$(slab8k)
	echo "# $algo, $n QP pairs: ${R[$algo]}"
	echo "# $algo: kmalloc-8k objects ${S[$algo.before]} before the QPs, ${S[$algo.after]} after they are gone"
done

per_qp() { field "${R[$1]}" slab_objs_per_qp "$2"; }
none_case() {
	local k4 k8
	k4=$(per_qp none kmalloc-4k) k8=$(per_qp none kmalloc-8k)
	echo "# none: per QP $(per_qp none kmalloc-2k) kmalloc-2k, $k4 kmalloc-4k, $k8 kmalloc-8k objects"
	[ "$(field "${R[none]}" qps)" = "$n" ] &&
		awk -v a="$k4" -v b="$k8" 'BEGIN { exit !(a != "" && a < 0.1 && b != "" && b < 0.1) }'
}
ktap_check "none: no sender state, rxe_qp stays in kmalloc-2k (< 0.1 kmalloc-4k/-8k objects per QP)" none_case
acc_case() {
	local k8
	k8=$(per_qp acc kmalloc-8k)
	echo "# acc: per QP $k8 kmalloc-8k objects"
	[ "$(field "${R[acc]}" qps)" = "$n" ] &&
		awk -v b="$k8" 'BEGIN { exit !(b != "" && b >= 0.8 && b < 1.3) }'
}
ktap_check "acc: one sender state (kmalloc-8k) per QP" acc_case
freed_case() {
	awk -v b="${S[acc.before]}" -v a="${S[acc.after]}" -v n="$n" \
		'BEGIN { exit !(a - b < 0.1 * 2 * n) }'
}
ktap_check "acc: the sender states are freed with their QPs" freed_case
traffic_case() {
	[ "$(field "${R[none]}" wc_errors)" = 0 ] && [ "$(field "${R[acc]}" wc_errors)" = 0 ] &&
		awk -v a="$(field "${R[acc]}" active_mbps_min)" 'BEGIN { exit !(a > 0) }'
}
ktap_check "the QPs carry WRITEs without a completion error" traffic_case
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

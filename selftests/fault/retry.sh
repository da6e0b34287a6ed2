#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Retransmissions under pacing (in the test VM: selftests/rxe/vm-suite
# ../fault/retry.sh): the three flows of mixed.sh (DCQCN, ACC, none)
# rxb -> rxa with a short transport timeout (perftest -u TIMEOUT: 4.096 us
# x 2^TIMEOUT, default 10, about 4 ms), so that the requesters' retransmit
# timers fire while packets are paced or still in flight, and RDMA WRITEs
# are retried from the middle of a message.  A legal retry costs time and
# nothing else: every flow must end without a completion error (status 9,
# remote invalid request, was what rxe gave before), the retries must have
# happened (completer_retry_err grows), and the kernel log stays clean.
# Run it with vm-suite --smp 2: with one vCPU the completer can only
# interrupt the requester, and the race it lost is rare.
#
#   retry.sh [SECONDS] [TIMEOUT] [none]    defaults 30 10; "none": no CC

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

secs=${1:-30}
timeout=${2:-10}
control=${3:-}
work=$(mktemp -d)
trap 'rxe_cleanup; rm -rf "$work"' EXIT
rxe_dmesg_clean >/dev/null

ktap_header "retries under pacing: three flows, -u $timeout, $secs s" 5

fault_three_setup "$control" || { ktap_fail "topology"; exit 1; }
# snap FILE: "algorithm sq-psn" of rxe_b's RC QPs
snap() {
	rdma -dd res show qp link rxe_b/1 2>/dev/null | awk '/type RC/ {
		a = "none"; p = ""
		for (i = 1; i < NF; i++) {
			if ($i == "drv_cc_algorithm") a = $(i + 1)
			if ($i == "sq-psn") p = $(i + 1)
		}
		print a, p }' >"$1"
}
fault_counters rxe_b >"$work/before"
# the send PSN of every flow, every second while they run
( while :; do snap "$work/psn.now"; cat "$work/psn.now"; sleep 1; done ) >"$work/psn" &
RXE_PIDS+=($!)
sampler=$!
FAULT_FLOW_LOG=$work/flow fault_three_flows "$secs" -u "$timeout" ||
	ktap_diag "a flow did not start"
fault_wait_flows $((secs + 120)) || ktap_diag "a flow outlived its time"
kill "$sampler" 2>/dev/null
fault_counters rxe_b >"$work/after"
fault_counters rxe_a >"$work/after_a"
[ -n "$OUT_DIR" ] && cp "$work"/flow.* "$OUT_DIR/" 2>/dev/null

retries=$(fault_counter_delta "$work/before" "$work/after" completer_retry_err)
for c in completer_retry_err rcvd_seq_err retry_exceeded_err send_err; do
	ktap_diag "rxe_b $c +$(fault_counter_delta "$work/before" "$work/after" $c)"
done
for c in duplicate_request out_of_seq_request; do
	ktap_diag "rxe_a $c $(awk -v n=$c '$1 == n {print $2}' "$work/after_a")"
done

# A flow passes if neither end saw a completion error and its QP's send
# PSN moved on while it ran (perftest's own report needs a steady TSC,
# which a multi-vCPU TCG guest does not always give it).
flow_case() { # PORT ALGO
	local err bw moves
	err=$(cat "$work/flow.c$1" "$work/flow.s$1" | grep -c "Completion with error\|Failed status")
	bw=$(awk '$1 == 65536 && NF >= 5 {print $4}' "$work/flow.c$1" | tail -1)
	moves=$(awk -v a="$2" '$1 == a && $2 != "" && !seen[$2]++' "$work/psn" | wc -l)
	grep -h "Failed status" "$work/flow.c$1" | head -3 | sed "s/^/# $2: /"
	echo "# $2: $moves send PSNs sampled, ${bw:-no report,} MB/s, $err completion errors"
	[ "$moves" -ge 2 ] && [ "$err" = 0 ]
}
ktap_check "DCQCN flow ends without a completion error" flow_case 18515 dcqcn
ktap_check "ACC flow ends without a completion error" flow_case 18516 acc
ktap_check "CC-less flow ends without a completion error" flow_case 18517 none
ktap_check "the requesters retried ($retries retries)" gt0 "$retries"
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

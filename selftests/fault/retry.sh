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

rxe_two_hosts && fault_cc_setup 100 || { ktap_fail "topology"; exit 1; }
if [ "$control" = none ]; then
	fault_both algorithm none && fault_both prio3_algorithm none || exit 1
fi
fault_counters rxe_b >"$work/before"
FAULT_FLOW_LOG=$work/flow fault_three_flows "$secs" -u "$timeout" ||
	ktap_diag "a flow did not start"
fault_wait_flows $((secs + 120)) || ktap_diag "a flow outlived its time"
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

flow_case() { # PORT ALGO
	local log=$work/flow.c$1 err bw
	err=$(grep -c "Completion with error\|Failed status" "$log")
	bw=$(awk '$1 == 65536 && NF >= 5 {print $4}' "$log" | tail -1)
	grep -h "Failed status" "$log" | head -3 | sed "s/^/# $2: /"
	echo "# $2: ${bw:-no} MB/s, $err completion errors"
	[ -n "$bw" ] && [ "$err" = 0 ]
}
ktap_check "DCQCN flow ends without a completion error" flow_case 18515 dcqcn
ktap_check "ACC flow ends without a completion error" flow_case 18516 acc
ktap_check "CC-less flow ends without a completion error" flow_case 18517 none
ktap_check "the requesters retried ($retries retries)" gt0 "$retries"
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

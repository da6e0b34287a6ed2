#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak (make soak; in the test VM): MINUTES of mixed WRITE/READ/SEND
# perftest flows rxb -> rxa with algorithm switches, knob changes and QP
# churn (every flow is short, so QPs come and go).  A tc u32 filter on
# rxb's egress marks CE on 1 in 64 RoCE data packets (PSN % 64 == 0), so
# CNPs, ACC echoes, cuts and halts all happen.  At the end: no splat, no
# rdma object left, and the CNP books balance: CNPs rxe_a sent = CNPs
# rxe_b handled + ignored (+ those that found their QP gone).
#
#   soak.sh [MINUTES]      default 30

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

minutes=${1:-30}
trap 'rxe_cleanup' EXIT
rxe_dmesg_clean >/dev/null
sysctl -qw kernel.hung_task_timeout_secs=10 2>/dev/null

ktap_header "soak: $minutes min of mixed traffic, algorithm switches, QP churn" 5

rxe_two_hosts && fault_cc_setup 50 || { ktap_fail "topology"; exit 1; }
# CE on 1 in 64 data packets: IP(20) + UDP dport (at 22) 4791, PSN's low
# byte at 20 + 8 + 11 = 39.
ip netns exec rxb tc qdisc add dev vb clsact &&
ip netns exec rxb tc filter add dev vb egress protocol ip u32 \
	match u16 4791 0xffff at 22 match u8 0x00 0x3f at 39 \
	action pedit ex munge ip tos set 0x03 retain 0x03 pipe action csum ip
ktap_check "CE marker on rxb's egress" test $? = 0

tools=(ib_write_bw ib_read_bw ib_send_bw)
algos=(dcqcn acc none)
end=$((SECONDS + minutes * 60))
iter=0 flows=0 failed=0
flow() { # TOOL PORT TCLASS SECONDS
	local sgid cgid
	sgid=$(rxe_gid_index rxe_a 10.10.0.1) && cgid=$(rxe_gid_index rxe_b 10.10.0.2) || return 1
	ip netns exec rxa timeout $(($4 + 60)) "$1" -d rxe_a -x "$sgid" -p "$2" --tclass "$3" \
		-D "$4" -s 65536 >/dev/null 2>&1 &
	FAULT_FLOW_PIDS+=($!)
	rxe_wait_listen rxa "$2" 30 || return 1
	ip netns exec rxb timeout $(($4 + 60)) "$1" -d rxe_b -x "$cgid" -p "$2" --tclass "$3" \
		-D "$4" -s 65536 10.10.0.1 >/dev/null 2>&1 &
	FAULT_FLOW_PIDS+=($!)
}
while [ $SECONDS -lt $end ]; do
	iter=$((iter + 1))
	fault_both algorithm "${algos[iter % 3]}"
	fault_both prio3_algorithm "${algos[(iter + 1) % 3]}"
	for i in 0 1 2; do
		flow "${tools[(iter + i) % 3]}" $((18515 + i)) $(( i == 1 ? 104 : 0 )) $((2 + RANDOM % 5)) &&
			flows=$((flows + 1))
	done
	sleep 1
	fault_both algorithm "${algos[(iter + 2) % 3]}"	# for the QPs to come
	fault_both line_rate_mbps $((20 + RANDOM % 100))
	fault_both acc_period_us $((500 + RANDOM % 3000)) 2>/dev/null
	for p in "${FAULT_FLOW_PIDS[@]}"; do
		wait "$p" || failed=$((failed + 1))
	done
	FAULT_FLOW_PIDS=()
done
echo "# $iter rounds, $flows flows started, $failed perftest processes failed"
ip netns exec rxb tc filter show dev vb egress | sed -n 's/^.*\(Sent [0-9]* bytes [0-9]* pkt\).*/# marker: \1/p'
[ -n "$OUT_DIR" ] && echo "rounds $iter flows $flows failed $failed" >>"$OUT_DIR/soak-figures.txt"

ktap_check "no QP left when idle" test "$(rdma res show qp 2>/dev/null | grep -c 'type RC')" = 0
books() {
	local sent h i
	sent=$(fault_counters rxe_a | awk '$1 == "np_cnp_sent" {print $2}')
	h=$(fault_counters rxe_b | awk '$1 == "rp_cnp_handled" {print $2}')
	i=$(fault_counters rxe_b | awk '$1 == "rp_cnp_ignored" {print $2}')
	echo "# CNPs: rxe_a sent $sent, rxe_b handled $h + ignored $i"
	[ -n "$OUT_DIR" ] && echo "cnp_sent $sent handled $h ignored $i" >>"$OUT_DIR/soak-figures.txt"
	# A CNP for a QP destroyed meanwhile finds no QP and is not counted:
	# at most one per flow.
	[ "${sent:-0}" -gt 0 ] && [ $((h + i)) -le "$sent" ] && [ $((sent - h - i)) -le "$flows" ]
}
ktap_check "CNP books balance: sent = handled + ignored (+ <= 1 per gone QP)" books
ktap_check "most perftest runs succeed ($failed of $((flows * 2)) failed)" test $((failed * 10)) -le $((flows * 2))
fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak (make soak; in the test VM): MINUTES of mixed WRITE/READ/SEND
# perftest flows rxb -> rxa with algorithm switches, knob changes and QP
# churn (every flow is short, so QPs come and go).  A tc u32 filter on
# rxb's egress marks CE on 1 in 64 RoCE data packets (PSN % 64 == 0), so
# CNPs, ACC echoes, cuts and halts all happen.  Beside the perftest flows
# every round runs rc-mix (selftests/verbs), whose READs and WRITEs are
# verified on both ends; once its work is done, with its QPs still up,
# neither of them may have a byte in flight.  Every perftest process
# must end without an error (one whose only failure is perftest's own
# check of the CPU clock at the end is counted apart).  At the end: no
# splat, no rdma object left, and the CNP books balance: CNPs rxe_a sent
# = CNPs rxe_b handled + ignored (+ those that found their QP gone).
#
#   soak.sh [MINUTES]      default 30

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"
. "$here/../lib/rc-mix.sh"

minutes=${1:-30}
trap 'rxe_cleanup' EXIT
rxe_dmesg_clean >/dev/null
sysctl -qw kernel.hung_task_timeout_secs=10 2>/dev/null

ktap_header "soak: $minutes min of mixed traffic, algorithm switches, QP churn" 7

[ -x "$MIX_BIN" ] || { ktap_fail "rc-mix missing (make -C selftests/verbs)"; exit 1; }
MIX_DIR=$(mktemp -d)
export MIX_QUIET=1	# lib/rc-mix.sh: outputs only when a run failed
mix_topology 1500 && fault_cc_setup 50 || { ktap_fail "topology"; exit 1; }
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
# Each perftest process's output, by PID, for the failures.
declare -A FLOW_LOG
flow() { # TOOL PORT TCLASS SECONDS
	local n0=${#FAULT_FLOW_PIDS[@]} rc side=s p
	FAULT_FLOW_TOOL=$1 FAULT_FLOW_LOG=$MIX_DIR/$1 fault_flow "$2" "$3" "$4"
	rc=$?
	for p in "${FAULT_FLOW_PIDS[@]:n0}"; do	# server, then client
		FLOW_LOG[$p]=$MIX_DIR/$1.$side$2
		side=c
	done
	return $rc
}
# flow_failed PID: count a perftest process that exited non-zero.  One
# that only could not time itself at the end (its r^2 check of the CPU
# clock, which a loaded TCG host fails) moved its data: it counts apart,
# and so does its peer, which then misses the final handshake.
untimed=0
flow_failed() {
	local log=${FLOW_LOG[$1]} peer
	case "${log##*/}" in	# TOOL.sPORT and TOOL.cPORT
	*.s*) peer=${log%.s*}.c${log##*.s} ;;
	*) peer=${log%.c*}.s${log##*.c} ;;
	esac
	if grep -q "Can't produce a report" "$log" "$peer" 2>/dev/null; then
		untimed=$((untimed + 1))
		echo "# round $iter: ${log##*/}: perftest could not time itself (or its peer)"
		return
	fi
	failed=$((failed + 1))
	echo "# round $iter: ${log##*/} failed:"
	grep -v '^[[:space:]]*$' "$log" | tail -n 5 | sed 's/^/#   /'
}
# mix_round_end: rc-mix's QPs hold nothing in flight once it is idle,
# and its data checks out on both ends.  mix_busy and mix_bad count the
# rounds where either did not hold (with the outputs as diagnostics).
mix_idle=0 mix_busy=0 mix_bad=0
# mix_qp_idle DEV QPN: the QP runs CC with 0 bytes in flight, or runs none
# (no CC state to show)
mix_qp_idle() {
	rxe_rc_qps "$1" cc_algorithm cc_inflight_bytes |
		awk -v q="$2" '$1 == q { f = 1; ok = ($3 == "0" || ($2 == "none" && $3 == "-")) }
			END { exit !(f && ok) }'
}
# mix_pair_idle CLIENT_QPN SERVER_QPN: both ends of rc-mix's connection
mix_pair_idle() { mix_qp_idle rxe_b "$1" && mix_qp_idle rxe_a "$2"; }
mix_round_end() {
	local cq sq
	if mix_wait cli "^rc-mix: idle" 60; then
		cq=$(sed -n 's/^rc-mix: idle qpn=\([0-9]*\).*/\1/p' "$MIX_DIR/mix-cli.log")
		sq=$(sed -n 's/^rc-mix: server connected qpn=\([0-9]*\).*/\1/p' "$MIX_DIR/mix-srv.log")
		if mix_settle mix_pair_idle "$cq" "$sq"; then
			mix_idle=$((mix_idle + 1))
		else
			mix_busy=$((mix_busy + 1))
			echo "# round $iter: rc-mix QPs $cq/$sq not idle"
		fi
	fi
	mix_end
	if ! mix_verified; then
		mix_bad=$((mix_bad + 1))
		echo "# round $iter: rc-mix not verified"
	fi
}

while [ $SECONDS -lt $end ]; do
	iter=$((iter + 1))
	fault_both algorithm "${algos[iter % 3]}"
	fault_both prio3_algorithm "${algos[(iter + 1) % 3]}"
	mix_server rxa 10.10.0.1 -T 120 &&
		mix_client rxb 10.10.0.1 -H -T 120 -i 4 -w 4 -W 16384 -R 262144 -d 4
	for i in 0 1 2; do
		flow "${tools[(iter + i) % 3]}" $((18515 + i)) $(( i == 1 ? 104 : 0 )) $((2 + RANDOM % 5)) &&
			flows=$((flows + 1))
	done
	sleep 1
	fault_both algorithm "${algos[(iter + 2) % 3]}"	# for the QPs to come
	fault_both line_rate_mbps $((20 + RANDOM % 100))
	fault_both acc_period_us $((500 + RANDOM % 3000)) 2>/dev/null
	for p in "${FAULT_FLOW_PIDS[@]}"; do
		wait "$p" || flow_failed "$p"
	done
	FAULT_FLOW_PIDS=() FLOW_LOG=()
	mix_round_end
done
echo "# $iter rounds, $flows flows started, $failed perftest processes failed," \
	"$untimed more could not time themselves"
echo "# rc-mix: $mix_idle rounds idle with 0 bytes in flight, $mix_busy not; $mix_bad not verified"
ip netns exec rxb tc -s filter show dev vb egress | sed -n 's/^.*\(Sent [0-9]* bytes [0-9]* pkt\).*/# marker: \1/p'
[ -n "$OUT_DIR" ] &&
	echo "rounds $iter flows $flows failed $failed untimed $untimed mix_idle $mix_idle mix_busy $mix_busy mix_bad $mix_bad" \
		>>"$OUT_DIR/soak-figures.txt"
ktap_check "rc-mix data verified on both ends in all $iter rounds" test "$mix_bad" = 0
ktap_check "rc-mix QPs idle with 0 bytes in flight in all $iter rounds" \
	test "$mix_busy" = 0 -a "$mix_idle" = "$iter"

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
ktap_check "every perftest process ends without an error ($failed of $((flows * 2)) failed; $untimed could not time themselves)" \
	test "$failed" = 0
fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

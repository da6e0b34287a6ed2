#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The notification point works whatever the receiver's own algorithm:
# rxa (receiver) runs none, rxb (sender) runs DCQCN, and every RoCE packet
# rxb sends leaves CE-marked (tc pedit on its egress).  ib_write_bw rxb ->
# rxa at traffic class 0 (priority 0):
#   * control: with rxa on DCQCN too, the marks make rxa send CNPs;
#   * cc/prio<N>_np exists, defaults to 1, rejects 2;
#   * with prio0_np = 1 on rxa: rxa counts the marks and sends CNPs
#     (np_cnp_sent), rxb handles them (rp_cnp_handled);
#   * with prio0_np = 0 on rxa: the marks still arrive, no CNP is sent or
#     handled;
#   * prio3_np = 0 with prio0_np = 1: priority-0 traffic gets its CNPs;
#   * CNPs held back in a qdisc take none of their QP's skb slots.
# The sender's DCQCN floor (rpg_min_rate_kbps) is 100 Mb/s so that a CNP per
# packet does not stretch the flow.
# Runs in the test VM: selftests/rxe/vm-suite cc-np.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "notification point with the receiver's algorithm none" 9

cc() { echo "/sys/class/infiniband/$1/ports/1/cc"; }

if rxe_two_hosts && rxe_mark_ce rxb vb &&
   echo none >"$(cc rxe_a)/algorithm" && echo dcqcn >"$(cc rxe_b)/algorithm" &&
   echo 100000 >"$(cc rxe_b)/rpg_min_rate_kbps"; then
	ktap_pass "receiver rxa none, sender rxb dcqcn, CE on everything rxb sends"
else
	ktap_fail "receiver rxa none, sender rxb dcqcn, CE on everything rxb sends"
	exit 1
fi

np=$(cc rxe_a)/prio0_np
knob_case() {
	local v0 rc v1
	v0=$(cat "$np" 2>/dev/null)
	rc=0
	{ echo 2 >"$np"; } 2>/dev/null || rc=1
	v1=$(cat "$np" 2>/dev/null)
	echo "# prio0_np: default '${v0:-missing}', write 2: status $rc, then '${v1:-missing}'"
	[ "$v0" = 1 ] && [ "$rc" != 0 ] && [ "$v1" = 1 ] &&
		[ "$(cat "$(cc rxe_a)/prio7_np" 2>/dev/null)" = 1 ]
}
ktap_check "cc/prio<N>_np exists, defaults to 1, rejects 2" knob_case

# flow: one ib_write_bw rxb -> rxa; sets MARKED SENT HANDLED (deltas).
flow() {
	local m0 s0 h0
	m0=$(rxe_counter rxe_a np_ecn_marked_roce_packets)
	s0=$(rxe_counter rxe_a np_cnp_sent)
	h0=$(rxe_counter rxe_b rp_cnp_handled)
	rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxb rxe_b -n 50 -s 65536 >/dev/null
	FLOW_RC=$?
	MARKED=$(($(rxe_counter rxe_a np_ecn_marked_roce_packets) - m0))
	SENT=$(($(rxe_counter rxe_a np_cnp_sent) - s0))
	HANDLED=$(($(rxe_counter rxe_b rp_cnp_handled) - h0))
	echo "# $1: flow exit $FLOW_RC, CE packets at rxa $MARKED, CNPs sent by rxa $SENT, handled by rxb $HANDLED"
}

# Control: the marks make a DCQCN receiver send CNPs.
echo dcqcn >"$(cc rxe_a)/algorithm"
flow "receiver dcqcn"
echo none >"$(cc rxe_a)/algorithm"
ktap_check "control: a DCQCN receiver sends CNPs ($SENT) for the CE it gets ($MARKED), the sender handles them ($HANDLED)" \
	test "$FLOW_RC" = 0 -a "$MARKED" -gt 0 -a "$SENT" -gt 0 -a "$HANDLED" -gt 0

flow "prio0_np=1"
ktap_check "np on: a none receiver sends CNPs ($SENT) for the CE it gets ($MARKED)" \
	test "$FLOW_RC" = 0 -a "$MARKED" -gt 0 -a "$SENT" -gt 0
ktap_check "np on: the DCQCN sender handles them ($HANDLED)" test "$HANDLED" -gt 0

{ echo 0 >"$np"; } 2>/dev/null
flow "prio0_np=0"
ktap_check "np off: CE arrives ($MARKED) but no CNP is sent ($SENT) or handled ($HANDLED)" \
	test "$FLOW_RC" = 0 -a "$MARKED" -gt 0 -a "$SENT" = 0 -a "$HANDLED" = 0

{ echo 1 >"$np"; } 2>/dev/null
{ echo 0 >"$(cc rxe_a)/prio3_np"; } 2>/dev/null
flow "prio0_np=1 prio3_np=0"
ktap_check "the switch is per priority: prio3_np=0 leaves priority 0 its CNPs ($SENT sent, $HANDLED handled)" \
	test "$FLOW_RC" = 0 -a "$SENT" -gt 0 -a "$HANDLED" -gt 0
{ echo 1 >"$(cc rxe_a)/prio3_np"; } 2>/dev/null

# CNPs take no skb slot of the QP that sends them (skb_out, which holds
# the QP's requester back at 64): rxa's CNPs wait in a slow qdisc (tbf at
# 8 kbit/s, in a prio band of their own, BTH opcode 0x81 at IP 20 + UDP 8)
# while a flow runs; more than 64 of them are held there, and rxa's QP
# counts none of them in drv_skb_out.  Deleting the qdisc frees them.
held_case() {
	local a=10.10.0.1 sgid cgid pids held=- skb=- sent0 sent
	local spacing
	spacing=$(cat "$(cc rxe_a)/min_time_between_cnps")
	echo 0 >"$(cc rxe_a)/min_time_between_cnps" || return 1
	ip netns exec rxa tc qdisc add dev va root handle 1: prio bands 3 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
	ip netns exec rxa tc qdisc add dev va parent 1:3 handle 30: \
		tbf rate 8kbit burst 1600 limit 1000000 &&
	ip netns exec rxa tc filter add dev va parent 1: protocol ip prio 1 u32 \
		match u16 4791 0xffff at 22 match u8 0x81 0xff at 28 flowid 1:3 ||
		{ ip netns exec rxa tc qdisc del dev va root 2>/dev/null
		  echo "$spacing" >"$(cc rxe_a)/min_time_between_cnps"; return 2; }
	sent0=$(rxe_counter rxe_a np_cnp_sent)
	sgid=$(rxe_gid_index rxe_a $a) cgid=$(rxe_gid_index rxe_b 10.10.0.2)
	ip netns exec rxa timeout 60 ib_write_bw -d rxe_a -x "$sgid" -D 12 -s 65536 \
		>/dev/null 2>&1 &
	pids=($!)
	sleep 1
	ip netns exec rxb timeout 60 ib_write_bw -d rxe_b -x "$cgid" -D 12 -s 65536 $a \
		>/dev/null 2>&1 &
	pids+=($!)
	RXE_PIDS+=("${pids[@]}")
	sleep 5
	# the largest drv_skb_out of rxe_a's RC QPs ("-": none, or no QP)
	skb=$(rxe_rc_qps rxe_a skb_out |
	      awk '$2 == "-" {none = 1} $2 > m {m = $2} END {print none || !NR ? "-" : m + 0}')
	held=$(ip netns exec rxa tc -s qdisc show dev va |
	       awk '/^qdisc tbf 30:/ {f = 1} f && /backlog/ {sub("p", "", $3); print $3; exit}')
	ip netns exec rxa tc qdisc del dev va root
	wait "${pids[@]}"
	sent=$(($(rxe_counter rxe_a np_cnp_sent) - sent0))
	echo "$spacing" >"$(cc rxe_a)/min_time_between_cnps"
	echo "# CNPs sent by rxa $sent, held in its qdisc $held; drv_skb_out of rxa's QP $skb"
	[ "${held:-0}" -gt 64 ] && [ "$skb" != - ] && [ "${skb:-64}" -lt 64 ]
}
rc=0
held_case || rc=$?
if [ $rc = 2 ]; then
	ktap_skip "CNPs held in a qdisc take no skb slot of their QP" "no prio/tbf qdisc or u32 filter in the guest"
else
	ktap_check "CNPs held in a qdisc take no skb slot of their QP" test $rc = 0
fi

ktap_check "no splat" rxe_dmesg_clean
ktap_finish

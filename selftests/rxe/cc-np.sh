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
#   * prio3_np = 0 with prio0_np = 1: priority-0 traffic gets its CNPs.
# The sender's DCQCN floor (rpg_min_rate) is 100 Mb/s so that a CNP per
# packet does not stretch the flow.
# Runs in the test VM: selftests/rxe/vm-suite cc-np.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "notification point with the receiver's algorithm none" 8

cc() { echo "/sys/class/infiniband/$1/ports/1/cc"; }

if rxe_two_hosts && rxe_mark_ce rxb vb &&
   echo none >"$(cc rxe_a)/algorithm" && echo dcqcn >"$(cc rxe_b)/algorithm" &&
   echo 100 >"$(cc rxe_b)/rpg_min_rate"; then
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

ktap_check "no splat" rxe_dmesg_clean
ktap_finish

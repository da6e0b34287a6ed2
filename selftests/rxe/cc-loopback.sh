#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ACC sees every ACK, also when both QPs sit on one device.
#   loopback: ib_write_bw from rxe_a to its own address (rxe's loopback
#             path, nothing on the wire).  With acc_ack_every = 1 every
#             packet is ACKed:
#             the sender's rxe_cc_ack events (one per ACK that acknowledged
#             something new) are at least 90 % of the packets sent, and
#             they carry RTT samples.  An ACK processed before the send is
#             recorded (inside the transmit call) would be lost.
#   marks:    ib_write_bw rxb -> rxa over the veth pair, every RoCE packet
#             rxb sends CE-marked (tc pedit): rxb counts CE ACKs
#             (acc_ce_acks) and its trace shows mark=ce.
# Runs in the test VM: selftests/rxe/vm-suite cc-loopback.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ITERS=200
SIZE=65536
MTU_BYTES=1024
T=/sys/kernel/tracing

ktap_header "ACC on loopback: every ACK counted" 6

# acc_ack_every 1: the receiver ACKs every packet (it coalesces by 8 on a
# clean path otherwise), so that every packet's ACK can be counted.
if rxe_two_hosts && rxe_cc_both algorithm acc && rxe_cc_both acc_ack_every 1 &&
	rxe_tracefs; then
	ktap_pass "rxe_a, rxe_b run ACC; rxe_cc trace events"
else
	ktap_fail "rxe_a, rxe_b run ACC; rxe_cc trace events"
	exit 1
fi

trace_acks() { # on|off
	if [ "$1" = on ]; then
		echo 0 >$T/tracing_on
		echo 8192 >$T/buffer_size_kb
		: >$T/trace
		echo 1 >$T/events/rxe_cc/rxe_cc_ack/enable
		echo 1 >$T/tracing_on
	else
		echo 0 >$T/tracing_on
		echo 0 >$T/events/rxe_cc/rxe_cc_ack/enable
	fi
}
# ack_figures DEV: ACK events of DEV, those with an RTT, those with CE.
ack_figures() {
	awk -v d="dev=$1" '/rxe_cc_ack:/ && $0 ~ d" " {
		n++
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^rtt_ns=/ && substr($i, 8) + 0 > 0) r++
			if ($i == "mark=ce") c++
		}
	} END { print n + 0, r + 0, c + 0 }' $T/trace
}
va_tx() { ip netns exec rxa cat /sys/class/net/va/statistics/tx_packets; }

pkts=$((ITERS * ((SIZE + MTU_BYTES - 1) / MTU_BYTES)))
tx0=$(va_tx)
trace_acks on
rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxa rxe_a -n $ITERS -s $SIZE >/dev/null
rc=$?
trace_acks off
wire=$(($(va_tx) - tx0))
read -r acks rtts _ <<<"$(ack_figures rxe_a)"
cp $T/trace "${OUT_DIR:-/tmp}/trace-loopback.txt"
ktap_diag "loopback: perftest exit $rc, $pkts packets sent, $acks ACK events, $rtts with an RTT, $wire packets on va"
ktap_check "loopback: the flow completes without touching the wire ($wire packets on va)" \
	test "$rc" = 0 -a "$wire" -lt 50
ktap_check "loopback: ACK events ($acks) >= 90 % of the packets ($pkts)" \
	test "$acks" -ge $((pkts * 9 / 10))
ktap_check "loopback: RTT samples counted ($rtts)" test "$rtts" -gt 0

ce0=$(rxe_counter rxe_b acc_ce_acks)
rxe_mark_ce rxb vb
trace_acks on
rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxb rxe_b -n 50 -s $SIZE >/dev/null
rc=$?
trace_acks off
rxe_unmark_ce rxb vb
ce=$(($(rxe_counter rxe_b acc_ce_acks) - ce0))
read -r acks rtts marks <<<"$(ack_figures rxe_b)"
cp $T/trace "${OUT_DIR:-/tmp}/trace-marks.txt"
ktap_diag "marks: perftest exit $rc, acc_ce_acks $ce, $acks ACK events, $marks with mark=ce"
ktap_check "marks: CE on the data comes back in the ACKs (acc_ce_acks $ce, trace $marks)" \
	test "$rc" = 0 -a "$ce" -gt 0 -a "$marks" -gt 0

ktap_check "no splat" rxe_dmesg_clean
ktap_finish

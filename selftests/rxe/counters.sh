#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The standard port counters (ports/1/counters/, IB PMA semantics) that
# exporters and perfquery-style tools read:
#   * the four traffic counters exist and read as numbers;
#   * port_xmit_data and port_rcv_data are the hw counters sent_bytes and
#     rcvd_bytes in 4-byte words, packets are sent_pkts and rcvd_pkts;
#   * loopback rping on one device: what the port sent equals what it
#     received, in data words and in packets;
#   * loopback ib_write_bw: the data words cover the payload written, with
#     at most 10 % of headers and ACKs on top;
#   * rping between two devices: what one sent the other received.
# Runs in the test VM: selftests/rxe/vm-suite counters.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

PINGS=50
PING_BYTES=1000
ITERS=100
SIZE=65536

ktap_header "standard port counters (PMA, 4-byte words)" 7

pma() { cat "/sys/class/infiniband/$1/ports/1/counters/$2" 2>/dev/null; }
# snap DEV: "xmit_data rcv_data xmit_packets rcv_packets"
snap() {
	echo "$(pma "$1" port_xmit_data) $(pma "$1" port_rcv_data)" \
	     "$(pma "$1" port_xmit_packets) $(pma "$1" port_rcv_packets)"
}

if ! rxe_two_hosts; then
	ktap_fail "two hosts rxa, rxb with rxe_a, rxe_b"
	exit 1
fi

files_case() {
	local f v
	for f in port_xmit_data port_rcv_data port_xmit_packets \
		 port_rcv_packets; do
		v=$(pma rxe_a $f)
		ktap_diag "rxe_a counters/$f: '${v:-missing}'"
		[[ "$v" =~ ^[0-9]+$ ]] || return 1
	done
}
ktap_check "counters/port_{xmit,rcv}_{data,packets} exist and read as numbers" \
	files_case

# rping_run SRV_NS ADDR CLI_NS: PINGS round trips of PING_BYTES.
rping_run() {
	local pid out rc n
	ip netns exec "$1" timeout 60 rping -s -a "$2" -C $PINGS \
		-S $PING_BYTES >/dev/null 2>&1 &
	pid=$!
	RXE_PIDS+=("$pid")
	sleep 1
	out=$(ip netns exec "$3" timeout 60 rping -c -a "$2" -C $PINGS \
		-S $PING_BYTES -v 2>&1)
	rc=$?
	wait "$pid" 2>/dev/null
	n=$(echo "$out" | grep -c "ping data")
	ktap_diag "rping $3 -> $1 ($2): rc $rc, $n of $PINGS round trips"
	[ "$rc" -eq 0 ] && [ "$n" -eq $PINGS ]
}

# settle DEV: wait until DEV's counters stop moving (late ACKs, CM DREP).
settle() {
	local a b i
	a=$(snap "$1")
	for i in $(seq 20); do
		sleep 0.5
		b=$(snap "$1")
		[ "$a" = "$b" ] && return 0
		a=$b
	done
	return 1
}

words_case() {
	local sb rb sp rp xd rd xp rcvp
	settle rxe_a
	sb=$(rxe_counter rxe_a sent_bytes)
	rb=$(rxe_counter rxe_a rcvd_bytes)
	sp=$(rxe_counter rxe_a sent_pkts)
	rp=$(rxe_counter rxe_a rcvd_pkts)
	read -r xd rd xp rcvp <<<"$(snap rxe_a)"
	ktap_diag "sent_bytes $sb rcvd_bytes $rb sent_pkts $sp rcvd_pkts $rp;" \
		  "port_xmit_data $xd port_rcv_data $rd packets $xp/$rcvp"
	[ "$sb" -gt 0 ] && [ "$xd" -eq $((sb / 4)) ] && [ "$rd" -eq $((rb / 4)) ] &&
		[ "$xp" -eq "$sp" ] && [ "$rcvp" -eq "$rp" ]
}

loop_ping_case() {
	local x0 r0 p0 q0 x1 r1 p1 q1 ok=0
	settle rxe_a
	read -r x0 r0 p0 q0 <<<"$(snap rxe_a)"
	rping_run rxa 10.10.0.1 rxa || ok=1
	settle rxe_a
	read -r x1 r1 p1 q1 <<<"$(snap rxe_a)"
	LOOP_X=$((x1 - x0)) LOOP_R=$((r1 - r0))
	LOOP_P=$((p1 - p0)) LOOP_Q=$((q1 - q0))
	ktap_diag "loopback rping on rxe_a: xmit_data $LOOP_X rcv_data $LOOP_R" \
		  "words, xmit_packets $LOOP_P rcv_packets $LOOP_Q"
	[ "$ok" = 0 ] && [ "$LOOP_X" -gt 0 ] && [ "$LOOP_X" = "$LOOP_R" ] &&
		[ "$LOOP_P" = "$LOOP_Q" ]
}
ktap_check "loopback rping: sent equals received (data words and packets)" \
	loop_ping_case
ktap_check "data is sent_bytes/rcvd_bytes in 4-byte words, packets sent_pkts/rcvd_pkts" \
	words_case

loop_bw_case() {
	local x0 x1 payload bytes
	settle rxe_a
	x0=$(pma rxe_a port_xmit_data)
	# Its stdout is diagnostics only ("# ..."), among them a retry.
	rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxa rxe_a -n $ITERS -s $SIZE ||
		return 1
	settle rxe_a
	x1=$(pma rxe_a port_xmit_data)
	bytes=$(((x1 - x0) * 4))
	# A retry of perftest sends the payload twice.
	payload=$((ITERS * SIZE * RXE_PERF_RUNS))
	ktap_diag "loopback ib_write_bw: $payload payload bytes ($RXE_PERF_RUNS run(s))," \
		  "port_xmit_data $((x1 - x0)) words = $bytes bytes"
	[ "$bytes" -ge "$payload" ] && [ "$bytes" -le $((payload * 11 / 10)) ]
}
ktap_check "loopback ib_write_bw: data words cover the payload, <= 10 % overhead" \
	loop_bw_case

pair_case() {
	local ax0 ar0 ap0 aq0 bx0 br0 bp0 bq0 ax1 ar1 ap1 aq1 bx1 br1 bp1 bq1
	local ok=0
	settle rxe_a
	settle rxe_b
	read -r ax0 ar0 ap0 aq0 <<<"$(snap rxe_a)"
	read -r bx0 br0 bp0 bq0 <<<"$(snap rxe_b)"
	rping_run rxa 10.10.0.1 rxb || ok=1
	settle rxe_a
	settle rxe_b
	read -r ax1 ar1 ap1 aq1 <<<"$(snap rxe_a)"
	read -r bx1 br1 bp1 bq1 <<<"$(snap rxe_b)"
	ktap_diag "rxe_b -> rxe_a: b sent $((bx1 - bx0)) words/$((bp1 - bp0)) pkts," \
		  "a received $((ar1 - ar0))/$((aq1 - aq0));" \
		  "a sent $((ax1 - ax0))/$((ap1 - ap0)), b received $((br1 - br0))/$((bq1 - bq0))"
	[ "$ok" = 0 ] && [ $((bx1 - bx0)) -gt 0 ] &&
		[ $((bx1 - bx0)) = $((ar1 - ar0)) ] && [ $((bp1 - bp0)) = $((aq1 - aq0)) ] &&
		[ $((ax1 - ax0)) = $((br1 - br0)) ] && [ $((ap1 - ap0)) = $((bq1 - bq0)) ]
}
ktap_check "rping rxe_b -> rxe_a: what one port sent the other received" pair_case

stock_case() {
	# the four are the PMA's extended (64-bit) counters: the 32-bit-only
	# ones stay (symbol_error ...), port_xmit_wait is there as in every
	# ext table, and nothing else appeared
	local n
	n=$(find /sys/class/infiniband/rxe_a/ports/1/counters -type f | wc -l)
	ktap_diag "rxe_a ports/1/counters: $n files"
	[ "$n" -eq 21 ] && [ "$(pma rxe_a symbol_error)" = 0 ]
}
ktap_check "the counters group is the PMA's extended table (21 files)" stock_case

ktap_check "no splat" rxe_dmesg_clean
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# READ and WRITE mixed on one RC QP under congestion control.  rc-mix
# (selftests/verbs) runs 32 batches of four 16 KiB WRITEs and one 1 MiB
# READ between two namespaces at a 256 B path MTU (veth MTU 400): one READ
# alone spans 4096 PSNs, far more than any fixed per-PSN table.  For ACC
# and for DCQCN on both ends:
#   * every READ and the written region check out, on both sides, with
#     more than 1024 packets outstanding;
#   * once the QPs are idle (all work completed, QPs still up), every RC QP
#     of both devices runs the algorithm and shows drv_cc_inflight_bytes 0;
#   * no splat.
# Then an ACC READ responder whose last read ACKs are lost (tc drops every
# read ACK once the first ones came back): its responses in flight expire
# (trace event rxe_cc_resp_expired), drv_cc_inflight_bytes returns to 0,
# and the idle QP arms no CC timer (no rxe_cc_timer_fn expiry in 2 s).
# Then READs at DCQCN's lowest rate, slower per response than the
# requester's retransmit timer: no READ is retried (completer_retry_err).
# Last, ACC's in-flight cap (cc/acc_window_bytes = 4 frames, line rate
# 100 Gb/s so that only the cap limits, 5 ms more RTT so that the
# acknowledgments cannot come back before the next packet is built): the
# mix verifies; the requester's and the READ responder's largest W
# (drv_cc_inflight_max_bytes, and drv_cc_inflight_bytes sampled during the
# run) stays within the cap plus one frame, and the cap held both
# (drv_cc_window_holds); and WRITEs whose
# ACKs are all lost for a while, with the requester held by the cap, are
# retried (completer_retry_err) and verify once the ACKs pass again.
# Runs in the test VM: make -C selftests/verbs && selftests/rxe/vm-suite cc-read.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/../lib/rc-mix.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "READ and WRITE mixed on one RC QP under CC" 18

mix_hosts "two namespaces, veth MTU 400" 400

# qps_idle ALGO: every RC QP of both devices runs ALGO with nothing in
# flight (the lists stay in MIX_DIR for the diagnostics).
qps_idle() {
	local dev bad=0
	for dev in rxe_a rxe_b; do
		rxe_rc_qps "$dev" cc_algorithm cc_inflight_bytes >"$MIX_DIR/qps-$dev.txt"
		[ -s "$MIX_DIR/qps-$dev.txt" ] || bad=1
		awk -v a="$1" '$2 != a || $3 != 0 {exit 1}' "$MIX_DIR/qps-$dev.txt" || bad=1
	done
	return $bad
}

# idle_ok ALGO: qps_idle, given the last ACKs their time (mix_settle).
idle_ok() {
	local dev rc=0
	mix_settle qps_idle "$1" || rc=1
	for dev in rxe_a rxe_b; do
		sed "s/^/# $dev qpn algorithm inflight_bytes: /" "$MIX_DIR/qps-$dev.txt"
	done
	return $rc
}

mix_case() {
	local algo=$1 verified=0 idle=1 mtu pkts
	MIX_DIR=${OUT_DIR:-/tmp}/$algo
	mkdir -p "$MIX_DIR"
	rxe_cc_both algorithm "$algo" || { ktap_fail "$algo: select the algorithm"; return; }
	if mix_server rxa 10.10.0.1 -T 100; then
		mix_client rxb 10.10.0.1 -H -T 100 -i 32 -w 4 -W 16384 -R 1048576 -d 4
		if mix_wait cli "^rc-mix: idle" 90; then
			idle_ok "$algo" && idle=0
		fi
	fi
	mix_end
	mtu=$(mix_field cli path_mtu) pkts=$(mix_field cli max_outstanding_packets)
	mix_verified && verified=1
	ktap_check "$algo: READs and WRITEs verified on both ends (path MTU ${mtu:-?}, work of up to ${pkts:-?} packets outstanding)" \
		test "$verified" = 1 -a "${mtu:-0}" = 256 -a "${pkts:-0}" -gt 1024
	ktap_check "$algo: idle QPs run $algo with drv_cc_inflight_bytes 0" test $idle = 0
	ktap_check "$algo: no splat" rxe_dmesg_clean
}

mix_case acc
mix_case dcqcn

# read_acks_on: the READ responder's QP on rxe_a gets read ACKs
read_acks_on() { [ "$(rxe_rc_qps rxe_a cc_read_acks | awk '{print $2; exit}')" = 1 ]; }
# cc_timer_fires SEC: expiries of CC timers (rxe_cc_timer_fn) in SEC seconds
cc_timer_fires() {
	local t=/sys/kernel/tracing
	echo >$t/trace
	echo 1 >$t/events/timer/hrtimer_expire_entry/enable
	sleep "$1"
	echo 0 >$t/events/timer/hrtimer_expire_entry/enable
	grep -c "function=rxe_cc_timer_fn" $t/trace
}

expire_case() {
	local t=/sys/kernel/tracing i inflight=- expired='' dropped=- fires=- verified=0
	MIX_DIR=${OUT_DIR:-/tmp}/expire
	mkdir -p "$MIX_DIR"
	if ! rxe_tracefs || [ ! -d $t/events/timer/hrtimer_expire_entry ]; then
		for i in 1 2 3; do
			ktap_skip "lost read ACKs ($i/3)" "no tracefs with rxe_cc and timer events"
		done
		return
	fi
	rxe_cc_both algorithm acc || { ktap_fail "lost read ACKs: select acc"; return; }
	echo >$t/trace
	echo 1 >$t/events/rxe_cc/rxe_cc_resp_expired/enable
	if mix_server rxa 10.10.0.1 -T 100; then
		# -G: the first batch (one READ) completes with its read ACKs,
		# then the client waits while the path changes
		mix_client rxb 10.10.0.1 -G -H -T 100 -i 16 -w 1 -W 16384 -R 1048576 -d 2
		mix_wait cli "^rc-mix: gate" 90 || echo "# the client never reached its gate"
		read_acks_on || echo "# rxe_a's QP never saw a read ACK"
		# from now on every read ACK (opcode 0xc0 at IP 20 + UDP 8) is lost
		ip netns exec rxb tc qdisc add dev vb clsact &&
		ip netns exec rxb tc filter add dev vb egress protocol ip u32 \
			match u16 4791 0xffff at 22 match u8 0xc0 0xff at 28 action drop
		kill -USR2 "$MIX_CLI_PID"
		if mix_wait cli "^rc-mix: idle" 90; then
			for i in $(seq 100); do
				inflight=$(rxe_rc_qps rxe_a cc_inflight_bytes | awk '{print $2; exit}')
				[ "$inflight" = 0 ] && break
				sleep 0.2
			done
			expired=$(grep "rxe_cc_resp_expired: dev=rxe_a" $t/trace | tail -n 1)
			dropped=$(ip netns exec rxb tc -s filter show dev vb egress |
				  awk '/Sent .* pkt/ {print $4; exit}')
			fires=$(cc_timer_fires 2)
		fi
	fi
	echo 0 >$t/events/rxe_cc/rxe_cc_resp_expired/enable
	mix_end
	mix_verified && verified=1
	ip netns exec rxb tc qdisc del dev vb clsact 2>/dev/null
	echo "# read ACKs dropped by tc: $dropped; last expiry on rxe_a: ${expired:-none}"
	echo "# drv_cc_inflight_bytes of rxe_a's QP at idle: $inflight; CC timer expiries in 2 s at idle: $fires"
	ktap_check "lost read ACKs: the READs and WRITEs verified" test $verified = 1
	# only a run whose read ACKs were really lost says anything
	ktap_check "lost read ACKs: the responses in flight expire to 0 ($dropped read ACKs lost)" \
		test -n "$expired" -a "$inflight" = 0 -a "${dropped:-0}" -gt 0 2>/dev/null
	ktap_check "lost read ACKs: the idle QPs arm no CC timer" test "$fires" = 0
}
expire_case

# READs at the algorithm's lowest rate complete without a retry.  DCQCN
# is held at 30 kb/s on both ends (rpg_min_rate_kbps = rpg_max_rate_kbps)
# and both QPs get ACK timeout 14 (67 ms, 16 jiffies at HZ 250: the timer
# fires 60-64 ms after a response resets it, far beyond a TCG guest's
# scheduling delays).  A 256 B response, about 340 B on the wire, earns
# its credit in 90 ms, which would outlast that timer with every
# response: the responder lets one go at least every quarter of its
# timeout (16 ms).  rxe_b's completer retries nothing, both ends verify,
# and rxe_a's QP ran at 30 kb/s throughout.
slow_case() {
	local cc=/sys/class/infiniband/rxe_a/ports/1/cc min max r0 r1 rate=- verified=0
	MIX_DIR=${OUT_DIR:-/tmp}/slow
	mkdir -p "$MIX_DIR"
	min=$(cat $cc/rpg_min_rate_kbps) max=$(cat $cc/rpg_max_rate_kbps)
	if ! rxe_cc_both algorithm dcqcn || ! rxe_cc_both rpg_min_rate_kbps 30 ||
	   ! rxe_cc_both rpg_max_rate_kbps 30; then
		ktap_fail "slow READs: DCQCN at 30 kb/s"
		return
	fi
	r0=$(rxe_counter rxe_b completer_retry_err)
	if mix_server rxa 10.10.0.1 -a 14 -T 100; then
		mix_client rxb 10.10.0.1 -H -a 14 -T 100 -i 4 -w 1 -W 8 -R 8192 -d 1
		mix_wait cli "^rc-mix: idle" 90 &&
			rate=$(rxe_rc_qps rxe_a cc_rate_bps | awk '{print $2; exit}')
	fi
	mix_end
	r1=$(rxe_counter rxe_b completer_retry_err)
	mix_verified && verified=1
	rxe_cc_both rpg_max_rate_kbps "$max"
	rxe_cc_both rpg_min_rate_kbps "$min"
	echo "# slow READs: rxe_b completer retries $((r1 - r0)); rxe_a's QP at $rate b/s"
	ktap_check "slow READs: the READs and WRITEs verified" test $verified = 1
	ktap_check "slow READs: no READ retried ($((r1 - r0)) retries)" test "$r1" = "$r0"
	ktap_check "slow READs: the responder ran at 30 kb/s ($rate b/s)" test "$rate" = 30000
}
slow_case

# The cap: 4 frames at the path MTU 256 (IPv4: 70 B of Ethernet, IP, UDP,
# ICRC and layer 1, BTH 12, RETH 16), one frame of slack for the request
# and read response that two tasks may each admit before either records.
WIN_FRAME=$((256 + 70 + 12 + 16))
WIN_BYTES=$((4 * WIN_FRAME))

# win_sample DEV FILE: drv_cc_inflight_bytes of DEV's RC QPs every 0.1 s
# into FILE until killed.
win_sample() {
	while :; do
		rxe_rc_qps "$1" cc_inflight_bytes | awk '{print $2}' >>"$2"
		sleep 0.1
	done
}

# win_qp DEV: "window max holds sampled-max" of DEV's ACC QP.
win_qp() {
	local q smax
	q=$(rxe_rc_qps "$1" cc_window_bytes cc_inflight_max_bytes cc_window_holds |
	    awk '{print $2, $3, $4; exit}')
	smax=$(awk 'BEGIN {m = 0} $1 ~ /^[0-9]+$/ && $1 > m {m = $1} END {print m}' \
		"$MIX_DIR/sampled-$1.txt" 2>/dev/null)
	echo "${q:-- - -} ${smax:-0}"
}

# win_within "window max holds smax": the cap at R = C is the knob, W and
# the samples stay within it plus a frame, and it held at least once.
win_within() {
	# shellcheck disable=SC2086 # the four fields
	set -- $1
	[ "$1" = "$WIN_BYTES" ] && [ "$2" -gt 0 ] 2>/dev/null &&
		[ "$2" -le $((WIN_BYTES + WIN_FRAME)) ] &&
		[ "$4" -le $((WIN_BYTES + WIN_FRAME)) ] && [ "$3" -gt 0 ]
}

# On one vCPU the peer's acknowledgment of a packet can come back before
# the sender builds its next one (7.2's READ responder, a work item, was
# never held without the delay): the client's packets, read ACKs
# included, take 5 ms more (netem), so that each end has 4 frames in
# flight well within an RTT.
window_case() {
	local verified=0 idle=0 cli='- - - -' srv='- - - -' pa pb
	MIX_DIR=${OUT_DIR:-/tmp}/window
	mkdir -p "$MIX_DIR"
	if ! { rxe_cc_both algorithm acc && rxe_cc_both line_rate_mbps 100000 &&
	       rxe_cc_both acc_window_bytes "$WIN_BYTES" &&
	       ip netns exec rxb tc qdisc add dev vb root netem delay 5ms; }; then
		ktap_fail "window: set acc_window_bytes $WIN_BYTES and a 5 ms delay"
		return
	fi
	if mix_server rxa 10.10.0.1 -T 100; then
		mix_client rxb 10.10.0.1 -H -T 100 -i 4 -w 2 -W 16384 -R 65536 -d 2
		win_sample rxe_b "$MIX_DIR/sampled-rxe_b.txt" & pb=$!
		win_sample rxe_a "$MIX_DIR/sampled-rxe_a.txt" & pa=$!
		RXE_PIDS+=("$pa" "$pb")
		mix_wait cli "^rc-mix: idle" 90 && idle=1
		kill "$pa" "$pb" 2>/dev/null
		wait "$pa" "$pb" 2>/dev/null
		[ $idle = 1 ] && cli=$(win_qp rxe_b) srv=$(win_qp rxe_a)
	fi
	mix_end
	mix_verified && verified=1
	ip netns exec rxb tc qdisc del dev vb root
	echo "# cap $WIN_BYTES B (frame $WIN_FRAME B); window max holds sampled-max:"
	echo "# requester (rxe_b): $cli; READ responder (rxe_a): $srv"
	ktap_check "window: READs and WRITEs verified with acc_window_bytes $WIN_BYTES" \
		test $verified = 1
	ktap_check "window: the requester's W stays within the cap + a frame ($cli)" \
		win_within "$cli"
	ktap_check "window: the READ responder's W stays within the cap + a frame ($srv)" \
		win_within "$srv"
}

# WRITEs (and the final read-back) with every ACK lost after the first
# batch: the requester is held by the cap with nothing acknowledged, the
# retransmit timer (4.096 us << 15 = 134 ms) resends; once two retries
# happened the ACKs pass again and the run must complete.
window_loss_case() {
	local verified=0 r0 r1='' i holds=- dropped=-
	MIX_DIR=${OUT_DIR:-/tmp}/window-loss
	mkdir -p "$MIX_DIR"
	if mix_server rxa 10.10.0.1 -T 100; then
		mix_client rxb 10.10.0.1 -G -H -T 100 -a 15 -i 8 -w 4 -W 16384 -R 0
		mix_wait cli "^rc-mix: gate" 90 || echo "# the client never reached its gate"
		r0=$(rxe_counter rxe_b completer_retry_err)
		# every ACK (opcode 0x11 at IP 20 + UDP 8) from the responder
		ip netns exec rxa tc qdisc add dev va clsact &&
		ip netns exec rxa tc filter add dev va egress protocol ip u32 \
			match u16 4791 0xffff at 22 match u8 0x11 0xff at 28 action drop
		kill -USR2 "$MIX_CLI_PID"
		for i in $(seq 100); do
			r1=$(rxe_counter rxe_b completer_retry_err)
			[ $((r1 - r0)) -ge 2 ] && break
			sleep 0.1
		done
		dropped=$(ip netns exec rxa tc -s filter show dev va egress |
			  awk '/Sent .* pkt/ {print $4; exit}')
		ip netns exec rxa tc qdisc del dev va clsact
		if mix_wait cli "^rc-mix: idle" 90; then
			holds=$(rxe_rc_qps rxe_b cc_window_holds | awk '{print $2; exit}')
			r1=$(rxe_counter rxe_b completer_retry_err)
		fi
	fi
	mix_end
	mix_verified && verified=1
	ip netns exec rxa tc qdisc del dev va clsact 2>/dev/null
	echo "# ACKs dropped: $dropped; retries: $((${r1:-0} - ${r0:-0})); window holds on rxe_b: $holds"
	ktap_check "window, ACKs lost: the WRITEs verified after retries ($dropped ACKs lost, $((${r1:-0} - ${r0:-0})) retries, $holds holds)" \
		test $verified = 1 -a $((${r1:-0} - ${r0:-0})) -ge 2 -a "${dropped:-0}" -gt 0 -a "${holds:-0}" -gt 0
}

window_case
window_loss_case
rxe_cc_both acc_window_bytes 0
rxe_cc_both line_rate_mbps 0
ktap_check "window: no splat" rxe_dmesg_clean

ktap_finish

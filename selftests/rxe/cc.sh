#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rxe congestion control framework without a switch (patches 0003+):
# knobs and their validation, how a QP chooses its algorithm, per-QP state
# in rdma res, trace events, counters, ACC's coalesced ACKs on a clean
# path, pacing accuracy at 1 % and 100 % of the line rate, the IPv6
# header in the bytes the pacer charges, and the line rate a QP starts
# from on a netdev that is not 10 Gb/s.  Runs in the test VM
# (selftests/rxe/vm-suite cc.sh [PART]).
#
# PART: all (the default); timing, the cases whose figures are rates or
# times (ACK coalescing by period, pacing accuracy), which need a host to
# themselves (selftests/suites runs them alone); functional, the others,
# which hold on a loaded host.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

part=${1:-all}
case $part in
all) n=19 ;;
functional) n=16 ;;
timing) n=4 ;;
*) echo "usage: cc.sh [all|functional|timing]" >&2; exit 2 ;;
esac
# want KIND: does this run take the cases of KIND (functional, timing)?
want() { [ "$part" = all ] || [ "$part" = "$1" ]; }

ktap_header "rxe congestion control framework ($part)" $n

cc() { echo "/sys/class/infiniband/$1/ports/1/cc"; }
setk() { echo "$3" >"$(rxe_cc_file "$1" "$2")"; }
getk() { cat "$(rxe_cc_file "$1" "$2")"; }
both() { setk rxe_a "$1" "$2" && setk rxe_b "$1" "$2"; }

rxe_two_hosts || { ktap_fail "topology"; exit 1; }

want functional && ktap_check "cc knobs exist; default algorithm is none; all are available" \
	test "$(getk rxe_a algorithm)" = none -a "$(getk rxe_a available)" = "none dcqcn acc timely"
want functional && ktap_check "ACKs and CNPs keep the QP's class and the NP answers, by default" \
	test "$(getk rxe_a ack_dscp)" = -1 -a "$(getk rxe_a cnp_dscp)" = -1 \
	     -a "$(cat "$(cc rxe_a)"/prio*_np | tr -d '\n')" = 11111111

# cc/knobs lists every numeric knob once, each file is where the list
# says (cc/, or cc_experimental/ for an ablation) and, on a device no
# case has touched yet, reads the listed default within the listed range;
# the numeric files are exactly those listed: one per quantity (mlx5's
# Mb/s twins of the kb/s rate knobs are gone).
knobs_case() {
	local d e name unit min max def group exp f n=0 rc=0
	d=$(cc rxe_b) e=${d}_experimental
	while read -r name unit min max def group exp; do
		n=$((n + 1))
		f=$d/$name
		[ "$exp" = experimental ] && f=$e/$name
		if [ "$(cat "$f" 2>/dev/null)" != "$def" ]; then
			echo "# $name: $f reads '$(cat "$f" 2>&1)', the list says $def"; rc=1
		elif [ "$def" -lt "$min" ] || [ "$def" -gt "$max" ]; then
			echo "# $name: default $def outside $min..$max"; rc=1
		fi
		case $group in device|dcqcn|acc|timely) ;; *) echo "# $name: group $group"; rc=1 ;; esac
	done <"$d/knobs"
	for f in "$d"/* "$e"/*; do
		name=${f##*/}
		case $name in
		algorithm|available|knobs|prio?_algorithm|prio?_np|cnp_dscp|ack_dscp) continue ;;
		esac
		grep -q "^$name " "$d/knobs" || { echo "# $f is not in cc/knobs"; rc=1; }
	done
	for name in rpg_ai_rate rpg_hai_rate rpg_min_rate rpg_max_rate \
		    rate_to_set_on_first_cnp acc_gate acc_halt; do
		[ ! -e "$d/$name" ] || { echo "# $d/$name still exists"; rc=1; }
	done
	echo "# cc/knobs: $n knobs, $(grep -c ' experimental$' "$d/knobs") experimental"
	[ "$n" -ge 30 ] && return $rc
}
want functional && ktap_check "cc/knobs lists every numeric knob with its range and default" knobs_case

# A bad value returns EINVAL and changes nothing.
bad_case() {
	local knob val old rc=0
	for kv in cnp_dscp=64 ack_dscp=99 ack_dscp=-2 cnp_dscp=abc \
		  pacer_burst_us=0 rpg_min_dec_fac=0 rpg_min_dec_fac=101 \
		  dce_tcp_g=5000 rpg_threshold=0 acc_period_us=0 acc_period_us=9 \
		  acc_theta_ce_pct=101 acc_p_thresh=0 acc_halt=2 acc_gate=4 \
		  acc_ack_every=0 acc_ack_every=65 acc_window_bytes=4294967297 \
		  algorithm=cubic \
		  prio3_algorithm=bogus rpg_ai_rate_kbps=abc prio3_np=2 prio0_np= \
		  rpg_ai_rate_kbps=0 rpg_max_rate_kbps=1600000001 \
		  line_rate_mbps=1600001 line_rate_mbps=-1 \
		  line_rate_mbps=18446744073709551616 cnp_dscp=300; do
		knob=${kv%%=*} val=${kv#*=}
		old=$(getk rxe_a "$knob")
		if setk rxe_a "$knob" "$val" 2>/dev/null; then
			echo "# $knob=$val was accepted"; rc=1
		elif [ "$(getk rxe_a "$knob")" != "$old" ]; then
			echo "# $knob changed to $(getk rxe_a "$knob") after a rejected write"; rc=1
		fi
	done
	return $rc
}
want functional && ktap_check "bad knob values are rejected and change nothing" bad_case

good_case() {
	setk rxe_a rpg_ai_rate_kbps 7 && [ "$(getk rxe_a rpg_ai_rate_kbps)" = 7 ] &&
	setk rxe_a acc_halt_max_us 20000 && setk rxe_a acc_period_us 2500 &&
	[ "$(getk rxe_a acc_period_us)" = 2500 ] &&
	setk rxe_a acc_theta_ce_pct 80 && [ "$(getk rxe_a acc_theta_ce_pct)" = 80 ] &&
	setk rxe_a acc_halt 0 && [ "$(getk rxe_a acc_halt)" = 0 ] &&
	setk rxe_a acc_halt 1 && setk rxe_a acc_gate 0 &&
	[ "$(getk rxe_a acc_gate)" = 0 ] && setk rxe_a acc_gate 3 &&
	[ "$(getk rxe_a acc_gate)" = 3 ] && setk rxe_a acc_gate 2 &&
	[ "$(getk rxe_a acc_gate)" = 2 ] && setk rxe_a acc_gate 1 &&
	[ "$(getk rxe_a acc_ack_every)" = 8 ] && setk rxe_a acc_ack_every 1 &&
	[ "$(getk rxe_a acc_ack_every)" = 1 ] && setk rxe_a acc_ack_every 8 &&
	[ "$(getk rxe_a acc_window_bytes)" = 0 ] &&
	setk rxe_a acc_window_bytes 4294967296 &&
	[ "$(getk rxe_a acc_window_bytes)" = 4294967296 ] &&
	setk rxe_a acc_window_bytes 0 &&
	setk rxe_a cnp_dscp 46 && [ "$(getk rxe_a cnp_dscp)" = 46 ] &&
	setk rxe_a cnp_dscp -1 && [ "$(getk rxe_a cnp_dscp)" = -1 ] &&
	setk rxe_a prio5_np 0 && [ "$(getk rxe_a prio5_np)" = 0 ] &&
	setk rxe_a prio5_np 1 && [ "$(getk rxe_a prio5_np)" = 1 ] &&
	setk rxe_a line_rate_mbps 800000 &&
	setk rxe_a rpg_max_rate_kbps 800000000 &&
	setk rxe_a acc_max_rate_mbps 800000 &&
	[ "$(getk rxe_a rpg_max_rate_kbps)" = 800000000 ] &&
	setk rxe_a rpg_max_rate_kbps 0 && setk rxe_a acc_max_rate_mbps 0 &&
	setk rxe_a line_rate_mbps 0
}
want functional && ktap_check "good knob values are taken, in their units" good_case

# qp_field DEV FIELD: FIELD of the RC QPs of DEV in rdma res, one per line.
qp_field() {
	rdma -dd res show qp link "$1/1" 2>/dev/null | awk -v f="$2" '
		/type RC/ { for (i = 1; i < NF; i++) if ($i == "drv_" f) print $(i + 1) }'
}

# wait_qp DEV: until DEV has an RC QP with CC state in rdma res (at most
# 20 s: a loaded TCG VM may take seconds to connect a perftest pair).
wait_qp() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ -n "$(qp_field "$1" cc_algorithm)" ] && return 0
		sleep 0.2
	done
	return 1
}

# Run ib_write_bw rxb -> rxa in the background; RXE_BG holds the PIDs.
# BG_GID=6: over the IPv6 GIDs (IPv4 by default).
bg_flow() {
	local sgid cgid a=10.10.0.1 b=10.10.0.2
	[ "${BG_GID:-4}" = 6 ] && a=fd00::1 b=fd00::2
	sgid=$(rxe_gid_index rxe_a $a); cgid=$(rxe_gid_index rxe_b $b)
	ip netns exec rxa timeout 120 ib_write_bw -d rxe_a -x "$sgid" "$@" >/dev/null 2>&1 &
	RXE_BG=($!)
	sleep 1
	ip netns exec rxb timeout 120 ib_write_bw -d rxe_b -x "$cgid" "$@" 10.10.0.1 >/dev/null 2>&1 &
	RXE_BG+=($!)
	RXE_PIDS+=("${RXE_BG[@]}")
}

# The device default decides new QPs; a per-priority choice beats it;
# a change does not touch QPs that exist.
choice_case() {
	local a1 a2 a3
	both algorithm dcqcn && both line_rate_mbps 50 || return 1
	bg_flow -n 3000 -s 65536
	wait_qp rxe_b
	a1=$(qp_field rxe_b cc_algorithm)
	both algorithm acc
	sleep 1
	a2=$(qp_field rxe_b cc_algorithm)
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	# DSCP 26 (tclass 104) is priority 3
	both prio3_algorithm none
	bg_flow -n 3000 -s 65536 --tclass 104
	wait_qp rxe_b
	a3=$(qp_field rxe_b cc_algorithm)
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	both prio3_algorithm default
	echo "# running QP: $a1, after the default changed: $a2, prio 3 QP: $a3"
	[ "$a1" = dcqcn ] && [ "$a2" = dcqcn ] && [ "$a3" = none ]
}
want functional && ktap_check "QPs keep their algorithm; per-priority choice beats the default" choice_case

res_case() {
	local out
	both algorithm acc && both line_rate_mbps 50 || return 1
	bg_flow -n 3000 -s 65536
	wait_qp rxe_b
	sleep 1
	out=$(rdma -dd res show qp link rxe_b/1 | grep "type RC")
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	echo "$out" | sed 's/^/# /'
	echo "$out" | grep -q "drv_cc_algorithm acc" &&
	echo "$out" | grep -q "drv_cc_rate_bps [1-9]" &&
	echo "$out" | grep -q "drv_acc_base_rtt_ns [1-9]" &&
	echo "$out" | grep -qE "drv_acc_alpha_permille 0( |$)"
}
want functional && ktap_check "per-QP CC state in rdma -dd res show qp" res_case

# A QP derives its knobs once per knob write (rxe_cc_qp_params()), not per
# packet: a write must still reach a QP that is running.  A fixed base RTT
# shows in rdma res at once; a lowered rate cap holds at once.
knob_reaches_qp_case() {
	local r0 r1 tau
	both algorithm acc && both line_rate_mbps 50 || return 1
	bg_flow -n 3000 -s 65536
	wait_qp rxe_b
	sleep 1
	r0=$(qp_field rxe_b cc_rate_bps | head -n1)
	both acc_max_rate_mbps 5 && both acc_base_rtt_us 777
	sleep 1
	r1=$(qp_field rxe_b cc_rate_bps | head -n1)
	tau=$(qp_field rxe_b acc_base_rtt_ns | head -n1)
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	both acc_max_rate_mbps 0 && both acc_base_rtt_us 0
	echo "# running ACC QP: rate $r0 b/s, then $r1 b/s and base RTT $tau ns after acc_max_rate_mbps 5, acc_base_rtt_us 777"
	[ -n "$r0" ] && [ -n "$r1" ] && [ "$r0" -gt 5000000 ] &&
		[ "$r1" -le 5000000 ] && [ "$tau" = 777000 ]
}
want functional && ktap_check "a knob write reaches a running QP" knob_reaches_qp_case

# TIMELY, the third algorithm: its QP takes the RTT samples of its ACKs
# and, with T_high below any RTT, cuts its rate towards its floor.
timely_case() {
	local a r rtt
	both algorithm timely && both line_rate_mbps 50 &&
		both timely_t_low_us 0 && both timely_t_high_us 1 || return 1
	bg_flow -n 3000 -s 65536
	wait_qp rxe_b
	sleep 2
	a=$(qp_field rxe_b cc_algorithm | head -n1)
	r=$(qp_field rxe_b cc_rate_bps | head -n1)
	rtt=$(qp_field rxe_b timely_prev_rtt_ns | head -n1)
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	both timely_t_high_us 100 && both timely_t_low_us 20 &&
		both algorithm none && both line_rate_mbps 0
	echo "# TIMELY QP: algorithm $a, rate $r b/s (line 50000000, floor 10000000), last RTT ${rtt:-?} ns"
	[ "$a" = timely ] && [ -n "$r" ] && [ "$r" -lt 50000000 ] &&
		[ "$r" -ge 10000000 ] && [ "${rtt:-0}" -gt 0 ]
}
want functional && ktap_check "a TIMELY QP reads RTTs from its ACKs and cuts above T_high" timely_case

trace=/sys/kernel/tracing
tracefs_mount() { [ -d $trace/events/rxe_cc ] || mount -t tracefs nodev $trace; }
trace_case() {
	tracefs_mount
	echo > $trace/trace
	echo 1 > $trace/events/rxe_cc/enable
	both algorithm dcqcn && both line_rate_mbps 50
	bg_flow -n 100 -s 65536
	wait "${RXE_BG[@]}"
	echo 0 > $trace/events/rxe_cc/enable
	grep -c "rxe_cc_rate:.*why=start" $trace/trace | sed 's/^/# start events: /'
	ls $trace/events/rxe_cc | grep -q rxe_cc_halt &&
	grep -q "rxe_cc_rate: dev=rxe_b .*new_bps=50000000 why=start" $trace/trace
}
want functional && ktap_check "rxe_cc trace events" trace_case

counters_case() {
	local c
	for c in np_cnp_sent np_ecn_marked_roce_packets rp_cnp_handled \
		 rp_cnp_ignored cc_rate_decreases cc_rate_increases acc_halts \
		 acc_victim_backoffs acc_ce_acks acc_ue_acks acc_ce_pkts acc_ue_pkts \
		 np_echo_ce_pkts np_echo_ue_pkts; do
		rdma statistic show link rxe_a/1 | grep -qw "$c" || { echo "# no $c"; return 1; }
	done
}
want functional && ktap_check "CC counters in rdma statistic" counters_case

# ACC on a clean path (no switch, no marks): the receiver ACKs by time,
# about 4 times per acc_period_us (with T = 10 ms: one ACK per 2.5 ms,
# tens of packets), and with acc_ack_every = 1 every packet; at least one
# per 64 packets (with a 100 ms period, 64 packets: the flow is faster
# than 2.6 Mb/s).
# The receiver rxe_a's own counters: ACKs it sent per data packet it got.
hwc() { cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2"; }
acks_per_pkt() { # every: receiver's sent_pkts / rcvd_pkts over one flow, x1000
	local s0 r0 s1 r1
	setk rxe_a acc_ack_every "$1" || return 1
	s0=$(hwc rxe_a sent_pkts) r0=$(hwc rxe_a rcvd_pkts)
	bg_flow -n 200 -s 65536
	wait "${RXE_BG[@]}"
	s1=$(hwc rxe_a sent_pkts) r1=$(hwc rxe_a rcvd_pkts)
	[ $((r1 - r0)) -gt 1000 ] || { echo "# only $((r1 - r0)) packets"; return 1; }
	echo $(((s1 - s0) * 1000 / (r1 - r0)))
}
coalesce_case() {
	local k8 k1 kt ce0 ce1 period halt_max
	both algorithm acc && both line_rate_mbps 10000 || return 1
	period=$(getk rxe_a acc_period_us) halt_max=$(getk rxe_a acc_halt_max_us)
	ce0=$(hwc rxe_b acc_ce_pkts)
	# the halt cap may not be shorter than the period
	setk rxe_a acc_halt_max_us 100000 && setk rxe_a acc_period_us 10000 &&
	k8=$(acks_per_pkt 8) && k1=$(acks_per_pkt 1) &&
	setk rxe_a acc_period_us 100000 &&
	kt=$(acks_per_pkt 8) || return 1
	ce1=$(hwc rxe_b acc_ce_pkts)
	setk rxe_a acc_ack_every 8 && setk rxe_a acc_period_us "$period" &&
	setk rxe_a acc_halt_max_us "$halt_max" || return 1
	echo "# ACKs per 1000 data packets: T = 10 ms: $k8, acc_ack_every 1: $k1, T = 100 ms: $kt; CE packets counted $((ce1 - ce0))"
	[ "$k8" -le 200 ] && [ "$k1" -ge 900 ] && [ "$kt" -le 40 ] &&
	[ "$ce1" = "$ce0" ]
}
want timing && ktap_check "ACC: ACKs coalesced on a clean path (<= 0.2 per packet at T = 10 ms, >= 0.9 by 1, <= 0.04 at T = 100 ms)" coalesce_case

# none keeps stock behaviour: no ECT on the wire.  Not-ECT data is never
# marked, so a CC-less QP gets no CNP: count ECT packets with tc's flower.
ect_count() { # NS DEV: packets with ECT(0) received on DEV
	ip netns exec "$1" tc -s filter show dev "$2" ingress 2>/dev/null |
		awk '/Sent/ {print $4; exit}'
}
ect_case() {
	local n_none n_cc
	ip netns exec rxa tc qdisc add dev va ingress &&
	ip netns exec rxa tc filter add dev va ingress protocol ip flower \
		ip_tos 0x02/0x03 action pass || return 1
	both algorithm none
	bg_flow -n 50 -s 65536; wait "${RXE_BG[@]}"
	n_none=$(ect_count rxa va)
	both algorithm dcqcn
	bg_flow -n 50 -s 65536; wait "${RXE_BG[@]}"
	n_cc=$(( $(ect_count rxa va) - n_none ))
	ip netns exec rxa tc qdisc del dev va ingress
	echo "# ECT(0) data packets: none $n_none, dcqcn $n_cc"
	[ "$n_none" -eq 0 ] && [ "$n_cc" -gt 1000 ]
}
want functional && ktap_check "none sends Not-ECT, a CC QP sends ECT(0)" ect_case

# ACKs are Not-ECT even when the QP's traffic class holds ECN bits
# (ack_dscp -1 keeps the rest of the class): a DCQCN flow in class 0x02,
# ECT(0), gets its ACKs (BTH opcode 0x11 at IP 20 + UDP 8) Not-ECT.  Two
# filters on the client's ingress: every ACK, then the Not-ECT ones.
ack_sent() { # PREF: packets the ingress filter PREF of vb in rxb let pass
	ip netns exec rxb tc -s filter show dev vb ingress pref "$1" 2>/dev/null |
		awk '/Sent/ {print $4; exit}'
}
ack_ect_case() {
	local acks plain
	ip netns exec rxb tc qdisc add dev vb clsact &&
	ip netns exec rxb tc filter add dev vb ingress pref 1 protocol ip u32 \
		match u16 4791 0xffff at 22 match u8 0x11 0xff at 28 \
		action continue &&
	ip netns exec rxb tc filter add dev vb ingress pref 2 protocol ip u32 \
		match u16 4791 0xffff at 22 match u8 0x11 0xff at 28 \
		match u8 0x00 0x03 at 1 action pass || return 1
	both algorithm dcqcn && both ack_dscp -1 || return 1
	bg_flow -n 200 -s 65536 --tclass=2; wait "${RXE_BG[@]}"
	acks=$(ack_sent 1) plain=$(ack_sent 2)
	ip netns exec rxb tc qdisc del dev vb clsact
	echo "# ACKs of a flow in class 0x02: $acks, Not-ECT: $plain"
	[ "${acks:-0}" -gt 50 ] && [ "$plain" = "$acks" ]
}
want functional && ktap_check "ACKs are Not-ECT when the QP's class holds ECN bits" ack_ect_case

# Pacing accuracy on the real data path: DCQCN without marks sends at its
# cap.  Line rates are layer-1 rates, so the pacer counts each packet's
# bytes from the Ethernet header to the ICRC, as the netdev does, plus the
# FCS, preamble and inter-frame gap (24 B) a real port sends with every
# frame.  The rate is measured from the sender's veth TX counters over a
# steady-state window (bytes + 24 B per packet), not from perftest's timing.
L1_OVERHEAD_BYTES=24
# tx_wire_sample PID: WIRE_BYTES and WIRE_USEC of vb, rxb's NIC: its
# counters from /proc/PID/net/dev (PID lives in rxb) and bash's own clock,
# with no fork in between.  A fork in a loaded TCG VM can take a few
# hundred ms: with the clock read by a fork after the counters, one run
# measured the 100 % case 3 % over its rate.
tx_wire_sample() {
	local line f
	while IFS= read -r line; do
		line=${line#"${line%%[![:space:]]*}"}
		[[ $line == vb:* ]] || continue
		read -r -a f <<<"${line#vb:}"
		WIRE_BYTES=$((f[8] + L1_OVERHEAD_BYTES * f[9]))
		WIRE_USEC=${EPOCHREALTIME/./}
		return 0
	done <"/proc/$1/net/dev"
	return 1
}
pace_case() { # LABEL LINE_MBPS MAX_MBPS ITERS WINDOW_S RATE_MBPS FLOOR
	local b0='' b1='' t0='' t1='' ratio
	# A TCG vCPU can be off the host CPU for milliseconds: a deeper
	# bucket than a real host needs (the default is 1000 us).
	both pacer_burst_us 5000 &&
	both algorithm dcqcn && both line_rate_mbps "$2" &&
	both rpg_max_rate_kbps "$(($3 * 1000))" || return 1
	bg_flow -n "$4" -s 65536
	sleep 2
	tx_wire_sample "${RXE_BG[1]}" && b0=$WIRE_BYTES t0=$WIRE_USEC
	sleep "$5"
	tx_wire_sample "${RXE_BG[1]}" && b1=$WIRE_BYTES t1=$WIRE_USEC
	kill "${RXE_BG[@]}" 2>/dev/null; wait "${RXE_BG[@]}" 2>/dev/null
	[ -n "$t0" ] && [ -n "$t1" ] || { echo "# pacing at $1: no counters of vb"; return 1; }
	ratio=$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) -v r="$6" \
		'BEGIN { printf "%.4f", b * 8 / (t / 1e6) / (r * 1e6) }')
	echo "# pacing at $1: measured/configured wire rate = $ratio"
	awk -v x="$ratio" -v lo="$7" 'BEGIN { exit !(x > lo && x < 1.02) }'
}
# At 1 % the VM has CPU to spare, so the rate is checked both ways.  At
# 100 % a TCG vCPU that loses the host CPU for milliseconds may not send
# what it was paced for: there the pacer is held to never exceeding its
# rate by 2 %, and the floor only catches a pacer that loses credit.
# (Read with the counters: 1.0007 at 100 % and 1.0003 at 1 %.  With the
# clock read by a fork after the counters: 0.977-1.030.)
want timing && ktap_check "pacing at 100 % of a 10 Mb/s line: not above +2 %, not below -5 %" \
	pace_case 100% 10 0 300 8 10 0.95
want timing && ktap_check "pacing at 1 % of a 100 Mb/s line: within 2 %" \
	pace_case 1% 100 1 40 8 1 0.98
both rpg_max_rate_kbps 0

# The wire bytes the pacer charges a full-MTU packet, over IPv4 and over
# IPv6 GIDs: the most common bytes= of the sender's rxe_cc_ack events
# (ACC acknowledges every packet, one charge each).  The pacing checks
# above hold the IPv4 charge to the wire; an IPv6 packet is the same but
# for its IP header, 40 B instead of 20.  Charged as IPv4, it would send
# 1.8 % over its rate at a 1024 B MTU.
charge_bytes() { # 4|6
	tracefs_mount
	both algorithm acc && both line_rate_mbps 10000 || return 1
	# an ACK per packet, so that an ACK's bytes are one packet's
	setk rxe_a acc_ack_every 1 || return 1
	echo > $trace/trace
	echo 1 > $trace/events/rxe_cc/rxe_cc_ack/enable
	BG_GID=$1 bg_flow -n 20 -s 65536
	wait "${RXE_BG[@]}"
	echo 0 > $trace/events/rxe_cc/rxe_cc_ack/enable
	setk rxe_a acc_ack_every 8
	awk '/rxe_cc_ack: dev=rxe_b / {
		for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) n[substr($i, 7)]++
	} END { for (b in n) if (n[b] > best) { best = n[b]; mode = b }; print mode }' \
		$trace/trace
}
ipv6_charge_case() {
	local c4 c6
	c4=$(charge_bytes 4) && c6=$(charge_bytes 6) || return 1
	echo "# full-MTU packet charged: IPv4 ${c4:-?} B, IPv6 ${c6:-?} B"
	[ -n "$c4" ] && [ -n "$c6" ] && [ $((c6 - c4)) -eq 20 ]
}
want functional && ktap_check "an IPv6 packet is charged its 20 B longer IP header" ipv6_charge_case

# The line rate a QP starts from is its netdev's speed, read when the
# device is created (before its port is registered: on 6.12 and later
# the port has no netdev yet) and again on the netdev's events.  veth
# reports 10 Gb/s, rxe's own guess, so a bond of veths stands in for a
# faster NIC: a balance-xor bond reports the sum of its slaves' speeds.
# Its slaves are all up before "rdma link add", so no event re-reads the
# speed after the device is created; a third slave and the bonds going
# down and up (NETDEV_UP) must then raise it to 30 Gb/s.  A bond counts
# a slave once its miimon has seen the slave's link up, which sends no
# event on the bond: the bonds go down only when both report 30 Gb/s
# (the CI run of 29 November read 20 Gb/s at NETDEV_UP on the bond that
# went down first).  Every QP of
# both ends is checked, under DCQCN and under ACC: its line rate and the
# rate it started from (trace event rxe_cc_rate, why=start).
bond_pair() { # N: namespaces rxc/rxd, bonds bc/bd of N veth pairs each
	local i
	ip netns add rxc && RXE_NETNS+=(rxc) && ip netns add rxd && RXE_NETNS+=(rxd) || return 1
	ip -n rxc link add bc type bond mode balance-xor miimon 50 &&
	ip -n rxd link add bd type bond mode balance-xor miimon 50 || return 1
	for ((i = 1; i <= $1; i++)); do bond_slave $i || return 1; done
}
bond_slave() { # I: veth pair c$I/d$I into the bonds
	ip link add "c$1" netns rxc type veth peer name "d$1" netns rxd &&
	ip -n rxc link set "c$1" master bc && ip -n rxd link set "d$1" master bd
}
bond_speed() { # NS DEV [WANT]: the netdev's speed in Mb/s (the bond is up)
	local i s
	for ((i = 0; i < 100; i++)); do
		s=$(ip netns exec "$1" cat "/sys/class/net/$2/speed" 2>/dev/null)
		[ "${s:-0}" -gt 0 ] && [ "$s" = "${3:-$s}" ] && break
		sleep 0.1
	done
	echo "${s:-0}"
}
# bond_rates ALGO WANT: a flow rxd -> rxc with ALGO on both devices, for
# its duration (-D: a flow of -n packets could end before the QPs were
# seen, as it did on 6.12 under load), killed once they were.
# Every RC QP of rxe_c and rxe_d must run ALGO against line rate WANT
# (b/s, drv_cc_line_rate_bps) and have started at it (trace event
# rxe_cc_rate, why=start: one per QP); prints what it saw.
bond_rates() {
	local sgid cgid pids qps starts nq ns i
	setk rxe_c algorithm "$1" && setk rxe_d algorithm "$1" || return 1
	echo >$trace/trace
	echo 1 >$trace/events/rxe_cc/rxe_cc_rate/enable
	sgid=$(rxe_gid_index rxe_c 10.20.0.1); cgid=$(rxe_gid_index rxe_d 10.20.0.2)
	ip netns exec rxc timeout 60 ib_write_bw -d rxe_c -x "$sgid" -D 30 -s 65536 >/dev/null 2>&1 &
	pids=($!)
	sleep 1
	ip netns exec rxd timeout 60 ib_write_bw -d rxe_d -x "$cgid" -D 30 -s 65536 10.20.0.1 >/dev/null 2>&1 &
	pids+=($!)
	RXE_PIDS+=("${pids[@]}")
	# until both ends have a QP and every RC QP runs ALGO (a QP shows
	# "none" until it starts, at RTR)
	for ((i = 0; i < 100; i++)); do
		qps=$(rxe_rc_qps rxe_c cc_algorithm cc_line_rate_bps
		      rxe_rc_qps rxe_d cc_algorithm cc_line_rate_bps)
		[ "$(awk -v a="$1" '$2 == a' <<<"$qps" | grep -c .)" -ge 2 ] &&
			! awk -v a="$1" '$2 != a {bad = 1} END {exit !bad}' <<<"$qps" && break
		sleep 0.2
	done
	kill "${pids[@]}" 2>/dev/null; wait "${pids[@]}" 2>/dev/null
	echo 0 >$trace/events/rxe_cc/rxe_cc_rate/enable
	starts=$(grep -o "rxe_cc_rate: dev=rxe_[cd] qpn=[0-9]* old_bps=[0-9]* new_bps=[0-9]* why=start" \
		 $trace/trace | sed 's/^rxe_cc_rate: //')
	nq=$(grep -c . <<<"$qps") ns=$(grep -c . <<<"$starts")
	echo "# $1 on the bond, want $2 b/s: QPs (qpn algorithm line rate):" $qps
	echo "# their starts:" $starts
	[ "$nq" -ge 2 ] && [ "$ns" = "$nq" ] &&
		awk -v a="$1" -v w="$2" '$2 != a || $3 != w {bad = 1} END {exit bad}' <<<"$qps" &&
		! grep -qv "new_bps=$2 why=start" <<<"$starts"
}
# bonds_at MBPS WHEN: both bonds' speeds, printed; true if both are MBPS
bonds_at() {
	local c d
	c=$(bond_speed rxc bc "$1") && d=$(bond_speed rxd bd "$1")
	echo "# bond of $(($1 / 10000)) veths, $2: $c / $d Mb/s"
	[ "$c" = "$1" ] && [ "$d" = "$1" ]
}
line_rate_case() {
	local s2 rc=0
	tracefs_mount && [ -d $trace/events/rxe_cc/rxe_cc_rate ] ||
		{ echo "# no rxe_cc trace events"; return 1; }
	modprobe bonding max_bonds=0 || return 1
	bond_pair 2 || return 1
	# up, with their carrier and speed, before the devices exist
	ip -n rxc link set bc up && ip -n rxd link set bd up || return 1
	s2=$(bond_speed rxc bc 20000) && bond_speed rxd bd 20000 >/dev/null
	rxe_host rxc bc 10.20.0.1/24 fd20::1/64 rxe_c &&
	rxe_host rxd bd 10.20.0.2/24 fd20::2/64 rxe_d || return 1
	echo "# bond of 2 veths: $s2 Mb/s"
	[ "$s2" = 20000 ] || rc=1
	bond_rates dcqcn 20000000000 || rc=1
	bond_rates acc 20000000000 || rc=1
	bond_slave 3 || return 1
	bonds_at 30000 "before down/up" || rc=1
	ip -n rxc link set bc down && ip -n rxc link set bc up &&
	ip -n rxd link set bd down && ip -n rxd link set bd up || return 1
	bonds_at 30000 "after down/up" || rc=1
	bond_rates dcqcn 30000000000 || rc=1
	bond_rates acc 30000000000 || rc=1
	return $rc
}
# Debian builds bonding for every kernel the VM boots: its absence is a
# broken module tree, not a reason to pass.
if ! want functional; then
	:
elif modprobe -n bonding 2>/dev/null; then
	ktap_check "every DCQCN and ACC QP starts from its netdev's speed (20 Gb/s), re-read on NETDEV_UP (30 Gb/s)" \
		line_rate_case
else
	ktap_fail "every DCQCN and ACC QP starts from its netdev's speed: no bonding module for $(uname -r)"
fi

ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

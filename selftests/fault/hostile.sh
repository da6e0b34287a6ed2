#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Hostile RoCEv2 packets against a device with CC QPs running traffic (in
# the test VM: selftests/fault/run hostile.sh).  roce_gen.py, in rxa, sends
# packets with a correct ICRC and rxa's addresses (an on-path attacker that
# spoofs the peer) to rxe_b, which runs three flows: DCQCN, ACC and none.
#
#   hostile.sh [COUNT]
#
# COUNT packets in the mixed storm (default 4000); half as many IPv4 and
# as many IPv6 packets for the drop accounting, a quarter over IPv6.
# HOSTILE_WAIT_S (default 90) bounds the frame capture; a KASAN guest
# needs more (make check-debug).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

count=4000
for a in "$@"; do
	case "$a" in
	--full) ;;	# the cases it added pass now: kept for old command lines
	*) count=$a ;;
	esac
done
work=$(mktemp -d)
cleanup() { fault_trace_off 2>/dev/null; rxe_cleanup; rm -rf "$work"; }
trap cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "hostile RoCEv2 packets, CC on" 11

rxe_two_hosts && fault_cc_setup 100 || { ktap_fail "topology"; exit 1; }
fault_both acc_min_rate_mbps 5 && fault_both rpg_min_rate_kbps 5000 || { ktap_fail "knobs"; exit 1; }
halt_max_us=$(fault_getk rxe_b acc_halt_max_us)
acc_min_bps=$(( $(fault_getk rxe_b acc_min_rate_mbps) * 1000000 ))
dcqcn_min_bps=$(( $(fault_getk rxe_b rpg_min_rate_kbps) * 1000 ))
monitor_us=$(fault_getk rxe_b rate_reduce_monitor_period)

mac_b=$(ip -n rxb link show vb | awk '/link\/ether/ {print $2}')
gen() { # ARGS...: run the generator in rxa towards rxe_b
	ip netns exec rxa python3 "$here/roce_gen.py" --ifname va --dst-mac "$mac_b" \
		--src 10.10.0.1 --dst 10.10.0.2 "$@"
}
gen6() { # ARGS...: the same over IPv6
	ip netns exec rxa python3 "$here/roce_gen.py" --ifname va --dst-mac "$mac_b" \
		--src fd00::1 --dst fd00::2 "$@"
}
field() { python3 -c "import json,sys; print(json.load(sys.stdin)['$1'])"; }
qparg() { # ALGO|all: --qpn arguments for rxe_b's QPs
	fault_qps rxe_b | awk -v al="$1" '(al == "all" || $2 == al) {printf "--qpn %s:%s ", $1, $2}'
}
cnt() { fault_counters rxe_b >"$work/$1"; }
delta() { fault_counter_delta "$work/$1" "$work/$2" "$3"; }

# phase_flows: fresh flows (a loaded TCG VM runs each phase for minutes),
# one QP per algorithm on rxe_b, all in RTS.  Each runs for an hour, until
# the next phase kills it: no --run_infinitely, whose report every 5 s
# makes perftest time itself, and on a loaded TCG host it cannot ("r^2 <
# 0.9 ... Can't produce a report") and exits mid-phase.
phase_flows() {
	local i
	[ ${#FAULT_FLOW_PIDS[@]} -gt 0 ] && kill "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
	fault_wait_flows 60
	rm -f "$work"/flow.*
	FAULT_FLOW_LOG=$work/flow fault_three_flows 3600 || { flow_logs; return 1; }
	for i in $(seq 120); do
		[ "$(rdma res show qp link rxe_b/1 2>/dev/null | grep 'type RC' | grep -c 'state RTS')" -ge 3 ] && return 0
		sleep 0.5
	done
	rdma res show qp link rxe_b/1 | sed 's/^/# not ready: /'
	ps -eo pid,etime,args | grep '[i]b_write_bw' | sed 's/^/# not ready: /'
	flow_logs
	return 1
}
# flow_logs: what the perftest processes of the last phase_flows said
flow_logs() {
	local f
	for f in "$work"/flow.*; do
		[ -f "$f" ] || continue
		grep -v '^[[:space:]]*$' "$f" | grep -v -- '---' | tail -n 8 | sed "s|^|# ${f##*/}: |"
	done
}
phase_flows
fault_qps rxe_b | sed 's/^/# rxe_b QP: /'
ktap_check "one QP per algorithm on rxe_b" \
	test "$(fault_qps rxe_b | awk '{print $2}' | sort | tr '\n' ' ')" = "acc dcqcn none "

# 1. The generator's ICRC is rxe's: capture ACKs rxe_b sends and recompute.
# The bound starts after the imports: scapy alone takes minutes to load
# in a KASAN guest.
icrc_case() {
	ip netns exec rxa python3 - "$here" "${HOSTILE_WAIT_S:-90}" <<'EOF'
import socket, struct, sys, time
sys.path.insert(0, sys.argv[1])
from roce_gen import icrc
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind(("va", 0))
s.settimeout(1)
end = time.monotonic() + int(sys.argv[2])
good = bad = frames = 0
while good + bad < 20 and time.monotonic() < end:
    try:
        f = s.recv(4096)
    except socket.timeout:
        continue
    frames += 1
    if f[12:14] != b"\x08\x00" or f[23] != 17:
        continue
    ihl = (f[14] & 15) * 4
    ip, udp = f[14:14 + ihl], f[14 + ihl:22 + ihl]
    if struct.unpack("!H", udp[2:4])[0] != 4791:
        continue
    ib = f[22 + ihl:14 + struct.unpack("!H", ip[2:4])[0]]
    if icrc(ip, udp, ib[:-4]) == ib[-4:]:
        good += 1
    else:
        bad += 1
print(f"# ICRC of {good + bad} captured rxe frames: {good} match, {bad} differ"
      f" ({frames} frames seen in all)")
sys.exit(0 if bad == 0 and good + bad == 20 else 1)
EOF
}
ktap_check "roce_gen's ICRC equals rxe's on 20 captured frames" icrc_case

# 2. CNPs reach the QP they name, and only it.
cnp_case() {
	local h i b
	phase_flows || return 1
	cnt c0
	# shellcheck disable=SC2046
	gen $(qparg dcqcn) --mix cnp-real --count 200 --pps 2000 >/dev/null
	# shellcheck disable=SC2046
	gen $(qparg acc) $(qparg none) --mix cnp-real --count 200 --pps 2000 >/dev/null
	gen $(qparg dcqcn) --mix badicrc --count 200 --pps 2000 >/dev/null
	cnt c1
	h=$(delta c0 c1 rp_cnp_handled); i=$(delta c0 c1 rp_cnp_ignored)
	b=$(delta c0 c1 rcvd_drop_icrc)
	echo "# 200 CNPs to the DCQCN QP: $h handled; 200 to ACC/none QPs: $i ignored; 200 with a bad ICRC: $b in rcvd_drop_icrc"
	[ "$h" -eq 200 ] && [ "$i" -eq 200 ] && [ "$b" -eq 200 ] && return 0
	rdma res show qp link rxe_b/1 | sed 's/^/# /'
	return 1
}
ktap_check "spoofed CNPs pass the ICRC and reach only the QP they name" cnp_case

# 3. A CNP flood costs bounded CPU: CPU time per CNP against the same
# number of CNPs to a QPN nobody has (dropped at the QP lookup), and rate
# cuts bounded by the monitor period.
cpu_ticks() { awk '/^cpu / {print $4 + $7 + $8}' /proc/stat; }
flood_case() {
	local n=$1 t0 t1 t2 t3 c_real c_unk d s0 s1 secs
	phase_flows || return 1
	t0=$(cpu_ticks)
	gen --mix cnp-unknown --count "$n" >/dev/null
	t1=$(cpu_ticks)
	cnt f0; s0=$EPOCHREALTIME
	t2=$(cpu_ticks)
	# shellcheck disable=SC2046
	gen $(qparg dcqcn) --mix cnp-real --count "$n" >"$work/flood.json"
	t3=$(cpu_ticks)
	s1=$EPOCHREALTIME; cnt f1
	c_unk=$((t1 - t0)); c_real=$((t3 - t2))
	d=$(delta f0 f1 cc_rate_decreases)
	secs=$(awk -v a="$s0" -v b="$s1" 'BEGIN {printf "%.2f", b - a}')
	echo "# $n CNPs: sys+irq ticks $c_real to a DCQCN QP, $c_unk to no QP; $d rate cuts in $secs s (monitor period $monitor_us us)"
	echo "flood $n ticks_real $c_real ticks_unknown $c_unk cuts $d secs $secs" >>"$OUT_DIR/hostile-figures.txt" 2>/dev/null
	awk -v r="$c_real" -v u="$c_unk" -v d="$d" -v s="$secs" -v m="$monitor_us" \
		'BEGIN { exit !(r <= 3 * u + 50 && d <= s * 1e6 / m + 2) }'
}
ktap_check "a CNP flood costs bounded CPU and cuts the rate once per period" flood_case $((count / 2))

# 4. The storm: every kind, every ECN codepoint, all three QPs, while the
# flows run; the rates are sampled and traced meanwhile.
phase_flows || ktap_diag "flows for the storm did not start"
fault_trace_on rxe_cc_rate rxe_cc_halt rxe_cc_halt_end
: >"$work/res"
fault_sample_res rxe_b "$work/res"
cnt s0
# shellcheck disable=SC2046
gen $(qparg all) --count "$count" --seed 7 --dump "$work/dump" >"$work/storm.json"
cnt s1
kill "$FAULT_SAMPLER" 2>/dev/null
fault_trace_off
cp "$work/storm.json" "$work/dump" "$OUT_DIR/" 2>/dev/null
echo "# storm: $(cat "$work/storm.json")"
echo "# storm: rcvd_pkts +$(delta s0 s1 rcvd_pkts), cnp handled +$(delta s0 s1 rp_cnp_handled), ignored +$(delta s0 s1 rp_cnp_ignored), ce acks +$(delta s0 s1 acc_ce_acks), ue acks +$(delta s0 s1 acc_ue_acks), halts +$(delta s0 s1 acc_halts)"
ktap_check "storm of $count hostile packets sent" \
	python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d['sent'] != $count)" "$work/storm.json"

rate_case() {
	local acc_res dcqcn_res trace_min
	acc_res=$(fault_res_min "$work/res" acc cc_rate_bps)
	dcqcn_res=$(fault_res_min "$work/res" dcqcn cc_rate_bps)
	trace_min=$(awk '/rxe_cc_rate: dev=rxe_b / { for (i = 1; i <= NF; i++) if ($i ~ /^new_bps=/) {
		v = substr($i, 9) + 0; if (m == "" || v < m) m = v } } END {print m}' $FAULT_TRACE/trace)
	echo "# lowest rate: ACC sampled ${acc_res:-none} (min $acc_min_bps), DCQCN sampled ${dcqcn_res:-none} (min $dcqcn_min_bps), any traced ${trace_min:-none}"
	[ -n "$acc_res$dcqcn_res" ] || { echo "# no CC QP sampled"; return 1; }
	{ [ -z "$acc_res" ] || [ "$acc_res" -ge "$acc_min_bps" ]; } &&
	{ [ -z "$dcqcn_res" ] || [ "$dcqcn_res" -ge "$dcqcn_min_bps" ]; } &&
	{ [ -z "$trace_min" ] || [ "$trace_min" -ge $((acc_min_bps < dcqcn_min_bps ? acc_min_bps : dcqcn_min_bps)) ]; }
}
ktap_check "no QP below its min_rate during the storm" rate_case

halt_case() {
	local n
	n=$(grep -c "rxe_cc_halt:" $FAULT_TRACE/trace)
	# t_halt_ns of each halt, and the time from each halt to its end
	awk -v max=$((halt_max_us * 1000)) '
		/rxe_cc_halt: / { for (i = 1; i <= NF; i++) {
			if ($i ~ /^qpn=/) q = $i
			if ($i ~ /^t_halt_ns=/ && substr($i, 11) + 0 > max) bad++ }
			t = $0; sub(/:.*/, "", t); n = split(t, f, " "); start[q] = f[n] + 0 }
		/rxe_cc_halt_end: / { for (i = 1; i <= NF; i++) if ($i ~ /^qpn=/) q = $i
			t = $0; sub(/:.*/, "", t); n = split(t, f, " ")
			if (q in start) { d = (f[n] - start[q]) * 1e9; if (d > longest) longest = d; delete start[q] } }
		END { printf "# halts: longest %.0f us (halt_max %d us), %d over halt_max\n", longest / 1000, max / 1000, bad
		      exit !(bad == 0 && longest <= max * 1.5 + 20e6) }' $FAULT_TRACE/trace
	echo "# $n halts traced"
}
ktap_check "no halt longer than halt_max" halt_case

# 4b. The same over IPv6: a DCQCN flow between the IPv6 GIDs, 200
# spoofed CNPs to its QP (all handled: the IPv6 ICRC is right), then a
# storm of every kind at it.
v6_case() {
	local n=$1 sgid cgid qpn h old
	old=$(fault_qps rxe_b | awk '{printf "%s ", $1}')
	sgid=$(rxe_gid_index rxe_a fd00::1) && cgid=$(rxe_gid_index rxe_b fd00::2) || return 1
	# -D, not --run_infinitely: see phase_flows
	ip netns exec rxa timeout 3660 ib_write_bw -d rxe_a -x "$sgid" -p 18518 \
		-D 3600 -s 65536 >"$work/flow6s" 2>&1 &
	RXE_PIDS+=($!); FAULT_FLOW_PIDS+=($!)
	rxe_wait_listen rxa 18518 30 || return 1
	ip netns exec rxb timeout 3660 ib_write_bw -d rxe_b -x "$cgid" -p 18518 \
		-D 3600 -s 65536 10.10.0.1 >"$work/flow6" 2>&1 &
	RXE_PIDS+=($!); FAULT_FLOW_PIDS+=($!)
	for _ in $(seq 120); do
		qpn=$(rdma res show qp link rxe_b/1 2>/dev/null | awk -v old=" $old " '
			/type RC/ && /state RTS/ { for (i = 1; i < NF; i++) if ($i == "lqpn") q = $(i + 1)
				if (index(old, " " q " ") == 0) n = q } END {print n}')
		[ -n "$qpn" ] && break
		sleep 0.5
	done
	[ -n "$qpn" ] || return 1
	cnt v0
	gen6 --qpn "$qpn:dcqcn" --mix cnp-real --count 200 --pps 2000 >/dev/null
	cnt v1
	h=$(delta v0 v1 rp_cnp_handled)
	echo "# IPv6 QP $qpn: 200 spoofed CNPs, $h handled, $(delta v0 v1 rp_cnp_ignored) ignored, dropped $(delta v0 v1 rcvd_drop_header)/$(delta v0 v1 rcvd_drop_qp)/$(delta v0 v1 rcvd_drop_icrc) (header/qp/icrc)"
	rdma -dd res show qp link rxe_b/1 | grep "lqpn $qpn " | sed 's/^/# /'
	gen6 --qpn "$qpn:dcqcn" --count "$n" --seed 9 >/dev/null
	echo "# then $n IPv6 packets of every kind"
	[ "$h" -eq 200 ] && return 0
	# the QP was gone (rcvd_drop_qp) or refused them: say why
	rdma res show qp link rxe_b/1 | sed 's/^/# now: /'
	sed 's/^/# flow6: /' "$work/flow6" | tail -n 20
	sed 's/^/# flow6 server: /' "$work/flow6s" | tail -n 8
	return 1
}
ktap_check "IPv6: spoofed CNPs pass the ICRC and reach the QP; an IPv6 storm" v6_case $((count / 4))

# 5. No hang: the flows end, by success or by error, and the device still
# carries a new flow.
alive_case() {
	kill "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
	fault_wait_flows 60 || { echo "# a flow did not end on SIGTERM"; return 1; }
	rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxb rxe_b -n 200 -s 65536 >/dev/null
}
ktap_check "no hang: the flows end on SIGTERM, a new flow runs afterwards" alive_case

# 6. Every packet is counted once: in rcvd_pkts if rxe took it, else in
# the rcvd_drop_* counter of the check that refused it.  With no flow
# left, rxe_b receives nothing but the generator's packets: IPv4 and IPv6
# frames of every kind that needs no live QP, for a QPN nobody has (the
# random kind also hits QP 1 and random QPNs), with a right ICRC unless
# badicrc.
# packets the backlog queues dropped, all CPUs (column 2, hex)
softnet_drops() {
	local s=0 c
	for c in $(awk '{print $2}' /proc/net/softnet_stat); do s=$((s + 0x$c)); done
	echo $s
}
drops_case() {
	local n=$1 sent6 sent4 acc d_hdr d_qp d_icrc backlog0 backlog1
	backlog0=$(softnet_drops)
	cnt d0
	sent4=$(gen --mix random,truncated,oversized,cnp-unknown,ack-never,psn-jump,badicrc \
		--qpn 0x7777 --count "$n" --pps 1000 --seed 11 | field sent)
	sent6=$(gen6 --mix random,truncated,oversized,cnp-unknown,ack-never,psn-jump,badicrc \
		--qpn 0x7777 --count "$n" --pps 1000 --seed 12 | field sent)
	sleep 1
	cnt d1
	backlog1=$(softnet_drops)
	acc=$(delta d0 d1 rcvd_pkts); d_hdr=$(delta d0 d1 rcvd_drop_header)
	d_qp=$(delta d0 d1 rcvd_drop_qp); d_icrc=$(delta d0 d1 rcvd_drop_icrc)
	echo "# sent $sent4 IPv4 + $sent6 IPv6: accepted $acc, dropped header $d_hdr, qp $d_qp, icrc $d_icrc (backlog drops $((backlog1 - backlog0)))"
	echo "drops sent $((sent4 + sent6)) accepted $acc header $d_hdr qp $d_qp icrc $d_icrc" >>"$OUT_DIR/hostile-figures.txt" 2>/dev/null
	[ "$sent4" = "$n" ] && [ "$sent6" = "$n" ] &&
	[ $((acc + d_hdr + d_qp + d_icrc)) -eq $((sent4 + sent6)) ] && [ "$d_hdr" -gt 0 ] && [ "$d_qp" -gt 0 ]
}
ktap_check "every packet is counted: sent = accepted + counted drops" drops_case $((count / 2))

fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Congestion control believes only what the transport accepts: forged
# packets outside the PSN window the completer or the responder takes,
# with a right ICRC and the peer's addresses (an on-path or blind
# spoofer, selftests/fault/roce_gen.py), sent to an ACC QP on a clean
# path while rc-mix runs WRITEs and READs over it:
#
#   1. ACKs 2^20 PSNs behind the send PSN with the single-bit echo (CE,
#      UE) and with mark counters (CE, UE count 3): no CE/UE ACK or
#      packet counted, no halt, no rate cut;
#   2. counting ACKs with counters 0 to a QP whose peer does not count
#      (its notification point off): cc_peer_counts stays 0;
#   3. lone read ACKs to the READ responder whose peer does not
#      acknowledge reads: cc_read_acks stays 0;
#   4. CE-marked requests out of sequence (notification point on): no
#      CNP, no ECN mark counted;
#   5. IPv6 datagrams shorter than a BTH: dropped and counted;
# and the traffic completes, every byte verified, with no splat.
#
# Runs in the test VM (suite fault-window, on 6.1, 6.12 and 7.2): needs
# rc-mix (make -C selftests/verbs).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/../lib/rc-mix.sh"
. "$here/lib.sh"

work=$(mktemp -d)
MIX_DIR=$work
cleanup() { rxe_cleanup; rm -rf "$work"; }
trap cleanup EXIT
rxe_dmesg_clean >/dev/null
n=${1:-200}

ktap_header "CC believes only what the transport accepts" 8

[ -x "$MIX_BIN" ] || { ktap_fail "rc-mix missing (make -C selftests/verbs)"; exit 1; }
mix_topology 1500 && rxe_cc_both algorithm acc || { ktap_fail "topology"; exit 1; }
# no peer counts marks or acknowledges reads: the latches of cases 2, 3
rxe_cc_both prio0_np 0 || { ktap_fail "prio0_np"; exit 1; }

mac() { ip -n "$1" -br link show "$2" | awk '{print $3}'; }
mac_a=$(mac rxa va) mac_b=$(mac rxb vb)
to_b() { # ARGS: from rxa (as 10.10.0.1 / fd00::1) to rxe_b
	ip netns exec rxa python3 "$here/roce_gen.py" --ifname va --dst-mac "$mac_b" \
		--src 10.10.0.1 --dst 10.10.0.2 --pps 1000 --count "$n" "$@"
}
to_a() { # ARGS: from rxb (as 10.10.0.2) to rxe_a
	ip netns exec rxb python3 "$here/roce_gen.py" --ifname vb --dst-mac "$mac_a" \
		--src 10.10.0.2 --dst 10.10.0.1 --pps 1000 --count "$n" "$@"
}
# qp DEV FIELD...: the first RC QP of DEV: lqpn, then the fields (core
# attributes such as sq-psn, or drv_* without the prefix)
qp() {
	local dev=$1
	shift
	rdma -dd res show qp link "$dev/1" 2>/dev/null | awk -v want="$*" '
		/type RC/ && !done {
			for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			line = v["lqpn"]
			n = split(want, w, " ")
			for (j = 1; j <= n; j++)
				line = line " " ((w[j] in v) ? v[w[j]] : v["drv_" w[j]])
			print line
			done = 1
		}'
}
cnt() { fault_counters "$1" >"$work/$2"; }
delta() { fault_counter_delta "$work/$1" "$work/$2" "$3"; }
# moved BEFORE AFTER NAME...: "NAME +D" for every counter that moved
moved() {
	local b=$1 a=$2 c d out=""
	shift 2
	for c in "$@"; do
		d=$(delta "$b" "$a" "$c")
		[ "$d" = 0 ] || out="$out $c +$d"
	done
	echo "$out"
}

mix_server rxa 10.10.0.1 -T 300 || { ktap_fail "rc-mix server"; exit 1; }
# WRITEs and 256 KiB READs, then the client holds its QP until case 6
mix_client rxb 10.10.0.1 -H -T 300 -i 64 -w 4 -W 16384 -R 262144 -d 2
# both QPs started their algorithm (at RTR)
for _ in $(seq 300); do
	[ "$(qp rxe_b cc_algorithm | awk '{print $2}')" = acc ] &&
	[ "$(qp rxe_a cc_algorithm | awk '{print $2}')" = acc ] && break
	sleep 0.2
done
qp rxe_b sq-psn rq-psn cc_algorithm | sed 's/^/# rxe_b QP (lqpn sq-psn rq-psn algorithm): /'
qp rxe_a sq-psn rq-psn cc_algorithm | sed 's/^/# rxe_a QP (lqpn sq-psn rq-psn algorithm): /'
ktap_check "an ACC QP on each side" \
	test "$(qp rxe_b cc_algorithm | awk '{print $2}')$(qp rxe_a cc_algorithm | awk '{print $2}')" = accacc

# The counters a forged ACK could move on the sender.
ACK_COUNTERS=(acc_ce_acks acc_ue_acks acc_ce_pkts acc_ue_pkts acc_halts
	      cc_rate_decreases rcvd_drop_header rcvd_drop_qp rcvd_drop_icrc)

stale_acks_case() {
	local qpn psn m
	read -r qpn psn <<<"$(qp rxe_b sq-psn)"
	cnt rxe_b s0
	to_b --qpn "$qpn" --psn "$psn" --mix ack-stale >/dev/null &&
	to_b --qpn "$qpn" --psn "$psn" --mix ack-stale-counts >/dev/null || return 1
	sleep 0.5
	cnt rxe_b s1
	m=$(moved s0 s1 "${ACK_COUNTERS[@]}")
	echo "# $((2 * n)) stale marked ACKs to QP $qpn (send PSN $psn), counters moved:${m:- none}"
	[ -z "$m" ]
}
ktap_check "stale ACKs, single-bit and counting echo: no mark, halt or rate cut" stale_acks_case

latch_case() {
	local qpn psn pc0 pc1
	read -r qpn psn pc0 <<<"$(qp rxe_b sq-psn cc_peer_counts)"
	to_b --qpn "$qpn" --psn "$psn" --mix ack-counts-latch >/dev/null || return 1
	sleep 0.5
	read -r _ _ pc1 <<<"$(qp rxe_b sq-psn cc_peer_counts)"
	echo "# cc_peer_counts of QP $qpn: $pc0 before, $pc1 after $n stale counting ACKs"
	[ "$pc0" = 0 ] && [ "$pc1" = 0 ]
}
ktap_check "a stale counting ACK does not latch cc_peer_counts" latch_case

# A read ACK acknowledges read responses, whose PSNs are the requests'
# (the responder's rq-psn), not the responder's own send PSNs: 2^20
# behind sq-psn fell inside the responses' window once on 6.12 (sq-psn
# 10419037, rq-psn 9369508 at the start, rc-mix's READs then moving the
# window across 9370461), and the ACKs were rightly believed.
readack_case() {
	local qpn psn ra0 ra1 m
	read -r qpn psn ra0 <<<"$(qp rxe_a rq-psn cc_read_acks)"
	cnt rxe_a r0
	to_a --qpn "$qpn" --psn "$psn" --mix readack >/dev/null || return 1
	sleep 0.5
	cnt rxe_a r1
	read -r _ _ ra1 <<<"$(qp rxe_a rq-psn cc_read_acks)"
	m=$(moved r0 r1 "${ACK_COUNTERS[@]}")
	echo "# cc_read_acks of READ responder QP $qpn: $ra0 before, $ra1 after $n lone read ACKs; counters moved:${m:- none}"
	[ "$ra0" = 0 ] && [ "$ra1" = 0 ] && [ -z "$m" ]
}
ktap_check "a lone read ACK does not latch cc_read_acks" readack_case

req_ce_case() {
	local qpn rpsn m
	rxe_cc_both prio0_np 1 || return 1
	read -r qpn rpsn <<<"$(qp rxe_b rq-psn)"
	cnt rxe_b q0
	to_b --qpn "$qpn" --psn "$rpsn" --mix req-ce >/dev/null || return 1
	sleep 0.5
	cnt rxe_b q1
	m=$(moved q0 q1 np_cnp_sent np_ecn_marked_roce_packets rcvd_drop_qp rcvd_drop_icrc)
	echo "# $n CE-marked requests 2^20 PSNs off rq-psn $rpsn of QP $qpn, counters moved:${m:- none}"
	[ -z "$m" ]
}
ktap_check "CE-marked requests out of sequence draw no CNP" req_ce_case

short6_case() {
	local d
	cnt rxe_b h0
	ip netns exec rxa python3 "$here/roce_gen.py" --ifname va --dst-mac "$mac_b" \
		--src fd00::1 --dst fd00::2 --pps 1000 --count "$n" --qpn 0x7777 \
		--mix short >/dev/null || return 1
	sleep 0.5
	cnt rxe_b h1
	d=$(delta h0 h1 rcvd_drop_header)
	echo "# $n IPv6 datagrams shorter than a BTH: rcvd_drop_header +$d"
	[ "$d" = "$n" ]
}
ktap_check "IPv6 datagrams shorter than a BTH are dropped and counted" short6_case

done_case() {
	mix_wait cli "^rc-mix: idle" 240 || { echo "# the client did not finish its work"; }
	mix_end
	mix_verified
}
ktap_check "the traffic completes, every byte verified on both ends" done_case

fault_kmemleak_scan
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

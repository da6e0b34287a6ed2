#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Single forged packets that stock rxe mishandles (suite fault-forged,
# on 6.1, and on 6.12 and 7.2 through kernel-check):
#
#  - an ACK ahead of everything the requester sent (patch "Drop responses
#    for PSNs the requester has not sent"): rxe_b's WRITEs to rxe_a are
#    dropped as they reach rxa, so nothing is acknowledged; one forged ACK with
#    PSN sq-psn + 0x1000 must not complete them.  Once the drop goes, the
#    QP's retry delivers the data and the WRITEs complete.
#  - UDP 4791 datagrams shorter than a BTH, over IPv4 with an IP option
#    and over IPv6 (patch "Clear pkt->qp before rxe_rcv() can drop a
#    packet"): each is counted in rcvd_drop_header, and nothing oopses.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

work=$(mktemp -d)
trap 'rxe_cleanup; rm -rf "$work"' EXIT
rxe_dmesg_clean >/dev/null

ktap_header "forged packets stock rxe mishandles" 4

rxe_two_hosts || { ktap_fail "topology"; exit 1; }
mac_b=$(ip -n rxb link show vb | awk '/link\/ether/ {print $2}')
forge() { # WHAT ARGS...: forge.py in rxa towards rxe_b
	ip netns exec rxa python3 "$here/forge.py" "$1" --ifname va \
		--dst-mac "$mac_b" "${@:2}"
}

# The client's RC QP on rxe_b: "LQPN SQ_PSN" once it is in RTS.
client_qp() {
	rdma res show qp link rxe_b/1 2>/dev/null | awk '/type RC/ && /state RTS/ {
		for (i = 1; i < NF; i++) { if ($i == "lqpn") q = $(i + 1); if ($i == "sq-psn") p = $(i + 1) }
		print q, p; exit }'
}

ghost_case() {
	local sgid cgid srv cli qp psn i done_early=0 rc_cli rx0 rx1 sent
	# dropped as they arrive at rxa: a drop at rxb's own egress fails
	# rxe_xmit_packet(), which on 6.4 and later ends the QP in error
	ip netns exec rxa tc qdisc add dev va clsact &&
	ip netns exec rxa tc filter add dev va ingress protocol ip flower \
		ip_proto udp dst_port 4791 action drop || return 1
	sgid=$(rxe_gid_index rxe_a 10.10.0.1) && cgid=$(rxe_gid_index rxe_b 10.10.0.2) || return 1
	# QP timeout 2^20 * 4.096 us = 4.3 s: the retries outlast the drop
	ip netns exec rxa timeout 120 ib_write_bw -d rxe_a -x "$sgid" -n 8 -s 8192 \
		>"$work/srv.log" 2>&1 &
	srv=$!
	rxe_wait_listen rxa 18515 30 || return 1
	ip netns exec rxb timeout 120 ib_write_bw -d rxe_b -x "$cgid" -n 8 -s 8192 \
		-u 20 10.10.0.1 >"$work/cli.log" 2>&1 &
	cli=$!
	RXE_PIDS+=("$srv" "$cli")
	for ((i = 0; i < 100; i++)); do
		read -r qp psn <<<"$(client_qp)"
		[ -n "$psn" ] && break
		sleep 0.2
	done
	if [ -z "$psn" ]; then
		echo "# the client's QP never reached RTS"
		rdma res show qp 2>&1 | sed 's/^/# rdma: /'
		sed 's/^/# client: /' "$work/cli.log"
		return 1
	fi
	sleep 2		# its WRITEs went out (and were dropped)
	read -r qp psn <<<"$(client_qp)"
	rx0=$(rxe_counter rxe_a rcvd_pkts)
	# a case whose forged ACK never left proves nothing: it fails
	sent=$(forge ack-ahead --src 10.10.0.1 --dst 10.10.0.2 --qpn "$qp" \
		--psn "$psn") || return 1
	echo "# forged: $sent"
	case $sent in *'"sent": 1'*) ;; *) return 1 ;; esac
	sleep 2
	kill -0 "$cli" 2>/dev/null || done_early=1
	ip netns exec rxa tc qdisc del dev va clsact
	wait "$cli"; rc_cli=$?
	wait "$srv"
	rx1=$(rxe_counter rxe_a rcvd_pkts)
	echo "# QP $qp sq-psn $psn: WRITEs done before their data left: $done_early;" \
	     "client exit $rc_cli; rxe_a received $((rx1 - rx0)) packets after the drop"
	# 8 WRITEs of 8 KiB, 1 KiB a packet (rxe's MTU on a 1500 B netdev)
	[ "$done_early" = 0 ] && [ "$rc_cli" = 0 ] && [ $((rx1 - rx0)) -ge 64 ]
}
ktap_check "an ACK ahead of the send PSN completes no WRITE; the data arrives after" ghost_case

short_case() { # 4|6: one short datagram per family, counted as a header drop
	local src=10.10.0.1 dst=10.10.0.2 d0 d1 sent
	[ "$1" = 6 ] && src=fd00::1 dst=fd00::2
	d0=$(rxe_counter rxe_b rcvd_drop_header)
	sent=$(forge short --src "$src" --dst "$dst" --count 20) || return 1
	echo "# $sent"
	sleep 1
	d1=$(rxe_counter rxe_b rcvd_drop_header)
	echo "# rcvd_drop_header $d0 -> $d1"
	[ $((d1 - d0)) -eq 20 ]
}
ktap_check "20 short IPv4 datagrams with an IP option: dropped and counted" short_case 4
ktap_check "20 short IPv6 datagrams: dropped and counted" short_case 6

ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

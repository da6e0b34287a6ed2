#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxe in network namespaces (patch 0001).  Runs in the test VM as root with
# rdma_rxe loaded (selftests/vm/run).  Two hosts are two namespaces over a
# veth pair, each with its own rxe device; perftest must complete between
# them over RC, UD and rdma_cm, on IPv4 and IPv6 GIDs, the initial namespace
# must keep working, and teardown by link delete, namespace deletion and
# module unload must leave no splat in the kernel log.
#
# Against Debian's stock rdma_rxe this test fails: its sockets and routes
# live in init_net only.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null	# start from the current end of the log

ktap_header "rxe network namespaces" 14

# case_bw NAME TOOL SRV_ADDR [perftest args]: run TOOL between rxa and rxb
case_bw() {
	local name=$1 tool=$2 addr=$3 bw
	shift 3
	if rxe_perf "$tool" rxa rxe_a "$addr" rxb rxe_b "$@"; then
		bw=$(rxe_perf_bw)
		ktap_diag "$name: $bw MB/s"
		if gt0 "$bw" && rxe_dmesg_clean; then
			ktap_pass "$name bandwidth > 0 ($bw MB/s)"
			return
		fi
	fi
	ktap_fail "$name"
}

if rxe_two_hosts && rxe_dmesg_clean; then
	ktap_pass "rxe devices in two namespaces"
else
	ktap_fail "rxe devices in two namespaces"
fi

ss_4791() { ip netns exec "$1" ss -Huan "sport = :4791" | wc -l; }
ktap_check "namespace has its own 4791 sockets (v4+v6)" \
	test "$(ss_4791 rxa)" -eq 2

case_bw "ib_write_bw RC" ib_write_bw 10.10.0.1 -n 500 -s 65536
case_bw "ib_read_bw RC" ib_read_bw 10.10.0.1 -n 500 -s 65536
case_bw "ib_send_bw RC" ib_send_bw 10.10.0.1 -n 500 -s 65536
case_bw "ib_send_bw UD" ib_send_bw 10.10.0.1 -n 500 -c UD
case_bw "ib_write_bw rdma_cm (-R)" ib_write_bw 10.10.0.1 -n 500 -s 65536 -R
RXE_PERF_GID=6 case_bw "ib_write_bw IPv6 GIDs" ib_write_bw 10.10.0.1 -n 500 -s 65536

if rxe_perf ib_write_lat rxa rxe_a 10.10.0.1 rxb rxe_b -n 200 &&
   gt0 "$(rxe_perf_lat)" && rxe_dmesg_clean; then
	ktap_pass "ib_write_lat RC ($(rxe_perf_lat) usec typical)"
else
	ktap_fail "ib_write_lat RC"
fi

# The initial namespace still works: one end of a veth in init_net.
init_ns_case() {
	ip netns add rxc && RXE_NETNS+=(rxc) || return 1
	ip link add vi type veth peer name vc || return 1
	ip link set vc netns rxc
	ip addr add 10.20.0.1/24 dev vi
	ip addr add fd01::1/64 dev vi nodad
	ip link set vi up
	rdma link add rxe_i type rxe netdev vi || return 1
	RXE_LINKS+=(rxe_i)
	rxe_host rxc vc 10.20.0.2/24 fd01::2/64 rxe_c || return 1
	# rxe_perf runs both ends with "ip netns exec"; the init side runs
	# in the namespace of PID 1.
	ip netns attach init1 1 2>/dev/null || true
	RXE_NETNS+=(init1)
	rxe_perf ib_write_bw init1 rxe_i 10.20.0.1 rxc rxe_c -n 300 -s 65536 &&
		gt0 "$(rxe_perf_bw)" && rxe_dmesg_clean
}
ktap_check "initial namespace still works (ib_write_bw)" init_ns_case
ip netns delete init1 2>/dev/null	# only the name: init_net stays

# Sockets follow the devices: deleting rxa's only device releases them.
link_delete_case() {
	rdma link delete rxe_a || return 1
	[ "$(ss_4791 rxa)" -eq 0 ] && rxe_dmesg_clean
}
ktap_check "rdma link delete releases the namespace's sockets" link_delete_case

# Deleting a namespace with an rxe device in it tears the device down.
netns_delete_case() {
	local i
	ip netns delete rxb || return 1
	for i in $(seq 100); do
		rdma link show rxe_b/1 >/dev/null 2>&1 || break
		sleep 0.1
	done
	! rdma link show rxe_b/1 >/dev/null 2>&1 && rxe_dmesg_clean
}
ktap_check "namespace deletion with an rxe device is clean" netns_delete_case

# Re-creating a device in a fresh namespace after all that works again.
recreate_case() {
	ip netns add rxd && RXE_NETNS+=(rxd) || return 1
	ip -n rxd link add vd type dummy || return 1
	rxe_host rxd vd 10.30.0.1/24 fd02::1/64 rxe_d && rxe_dmesg_clean
}
ktap_check "device re-created in a new namespace" recreate_case

# Module unload with devices still present (rxe_i, rxe_c, rxe_d).
rmmod_case() {
	rmmod rdma_rxe || return 1
	RXE_LINKS=()
	[ ! -d /sys/module/rdma_rxe ] && rxe_dmesg_clean
}
ktap_check "rmmod with devices in several namespaces is clean" rmmod_case

ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxe in network namespaces (patch 0001).  Runs in the test VM as root with
# rdma_rxe loaded (selftests/vm/run).  Two hosts are two namespaces over a
# veth pair, each with its own rxe device; perftest and rping must complete
# between them over RC, UD and rdma_cm, on IPv4 and IPv6 GIDs, and the
# initial namespace must keep working.  Port 4791 is open in a namespace
# exactly while it has an rxe device; deleting the netdev removes the rxe
# device.  Namespace teardown never waits for user space: a namespace whose
# rxe device a process holds goes away at once, and other namespaces are
# created and deleted meanwhile in bounded time.  Concurrent link and
# namespace churn leaks no socket, device or module reference.  Teardown by
# link delete, namespace deletion and module unload leaves no splat.
#
# Against Debian's stock rdma_rxe this test fails: its sockets and routes
# live in init_net only.

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null	# start from the current end of the log

ktap_header "rxe network namespaces" 21
# How long the kernel lets an unregistering netdev wait for its users
# before it warns (netdev_unregister_timeout_secs): RXE_NETDEV_WAIT_S, 10 s
# as the kernel's default; the debug kernel tears a device down about 20
# times slower, and make check-debug sets more.  Set for every case: the
# held-device case below fails on a warning it sees.
NETDEV_WAIT_S=${RXE_NETDEV_WAIT_S:-10}
sysctl -qw net.core.netdev_unregister_timeout_secs="$NETDEV_WAIT_S"

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
ss_4791_init() { ss -Huan "sport = :4791" | wc -l; }
now_ms() { date +%s%3N; }
mod_refcnt() { cat /sys/module/rdma_rxe/refcnt; }
link_exists() { rdma link show "$1/1" >/dev/null 2>&1; }

# wait_gone SEC DEV...: poll until none of the rxe devices is listed.
wait_gone() {
	local sec=$1 end d left
	shift
	end=$(($(now_ms) + sec * 1000))
	while :; do
		left=0
		for d in "$@"; do
			link_exists "$d" && left=1
		done
		[ "$left" -eq 0 ] && return 0
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 0.1
	done
}

# in_ns NS CMD...: run CMD in NS, or in init_net for NS "-".
in_ns() {
	local ns=$1
	shift
	if [ "$ns" = - ]; then
		"$@"
	else
		ip netns exec "$ns" "$@"
	fi
}

# rping_case SRV_NS SRV_ADDR CLI_NS: three rping round trips, as counted
# from the client's verbose output.
rping_case() {
	local sns=$1 addr=$2 cns=$3 pid out rc n
	in_ns "$sns" timeout 60 rping -s -a "$addr" -C 3 >/dev/null 2>&1 &
	pid=$!
	RXE_PIDS+=("$pid")
	sleep 1
	out=$(in_ns "$cns" timeout 30 rping -c -a "$addr" -C 3 -v 2>&1)
	rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	n=$(echo "$out" | grep -c "ping data")
	ktap_diag "rping $cns -> $sns ($addr): rc $rc, $n of 3 round trips"
	[ "$rc" -eq 0 ] && [ "$n" -eq 3 ] && rxe_dmesg_clean
}
ktap_check "namespace has its own 4791 sockets (v4+v6)" \
	test "$(ss_4791 rxa)" -eq 2

case_bw "ib_write_bw RC" ib_write_bw 10.10.0.1 -n 500 -s 65536
# RXE_NETNS_FIRST_BW_ONLY=1 (selftests/rxe/stock-fails): stop after the
# first traffic case, which is all the stock-module run needs to show.
if [ -n "${RXE_NETNS_FIRST_BW_ONLY:-}" ]; then
	ktap_diag "RXE_NETNS_FIRST_BW_ONLY: the remaining cases are not run"
	ktap_finish
	exit
fi
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

ktap_check "rping between two namespaces" rping_case rxa 10.10.0.1 rxb

# Port 4791 is open only where an rxe device is: not in init_net (no device
# there yet), not in a namespace without one, in each of rxa and rxb.
port_where_case() {
	ip netns add rxe0 && RXE_NETNS+=(rxe0) || return 1
	ktap_diag "4791 sockets: init_net $(ss_4791_init), empty ns" \
		"$(ss_4791 rxe0), rxa $(ss_4791 rxa), rxb $(ss_4791 rxb)"
	[ "$(ss_4791_init)" -eq 0 ] && [ "$(ss_4791 rxe0)" -eq 0 ] &&
		[ "$(ss_4791 rxa)" -eq 2 ] && [ "$(ss_4791 rxb)" -eq 2 ]
}
ktap_check "port 4791 open only in namespaces with an rxe device" \
	port_where_case

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
ktap_check "rping from init_net into a namespace" rping_case rxc 10.20.0.2 -

# Sockets follow the devices: deleting rxa's only device releases them.
link_delete_case() {
	rdma link delete rxe_a || return 1
	[ "$(ss_4791 rxa)" -eq 0 ] && rxe_dmesg_clean
}
ktap_check "rdma link delete releases the namespace's sockets" link_delete_case

# Two devices of one namespace share its sockets: they stay with the first
# device deleted and go with the second.
shared_sockets_case() {
	local seen
	ip netns add rxs && RXE_NETNS+=(rxs) || return 1
	ip -n rxs link add s1 type dummy && ip -n rxs link add s2 type dummy ||
		return 1
	rxe_host rxs s1 10.50.0.1/24 fd05::1/64 rxe_s1 || return 1
	seen="$(ss_4791 rxs)"
	rxe_host rxs s2 10.51.0.1/24 fd06::1/64 rxe_s2 || return 1
	seen+=" $(ss_4791 rxs)"
	rdma link delete rxe_s2 || return 1
	seen+=" $(ss_4791 rxs)"
	rdma link delete rxe_s1 || return 1
	seen+=" $(ss_4791 rxs)"
	ktap_diag "4791 sockets with 1, 2, 1, 0 devices: $seen"
	[ "$seen" = "2 2 2 0" ] && rxe_dmesg_clean
}
ktap_check "two devices share their namespace's sockets" shared_sockets_case

# Deleting the netdev (NETDEV_UNREGISTER) removes the rxe device and, with
# the namespace's last one, closes port 4791 before "ip link del" returns.
unregister_case() {
	local ports gone=0
	ip netns add rxu && RXE_NETNS+=(rxu) || return 1
	ip -n rxu link add u1 type veth peer name u2 || return 1
	rxe_host rxu u1 10.60.0.1/24 fd07::1/64 rxe_u1 || return 1
	rxe_host rxu u2 10.60.0.2/24 fd07::2/64 rxe_u2 || return 1
	[ "$(ss_4791 rxu)" -eq 2 ] || return 1
	ip -n rxu link delete u1 || return 1	# both ends of the pair
	ports=$(ss_4791 rxu)
	link_exists rxe_u1 || link_exists rxe_u2 || gone=1
	ktap_diag "right after ip link del (veth): 4791 sockets $ports," \
		"rxe devices gone: $gone"
	[ "$ports" -eq 0 ] && [ "$gone" -eq 1 ] || return 1
	# The same on a tun device, as mainline's selftest does it.
	modprobe tun 2>/dev/null
	if [ ! -c /dev/net/tun ]; then
		mkdir -p /dev/net && mknod /dev/net/tun c 10 200 || return 1
	fi
	ip netns exec rxu ip tuntap add mode tun tun0 || return 1
	ip -n rxu addr add 10.61.0.1/24 dev tun0 &&
		ip -n rxu link set tun0 up &&
		ip netns exec rxu rdma link add rxe_t type rxe netdev tun0 ||
		return 1
	RXE_LINKS+=(rxe_t)
	[ "$(ss_4791 rxu)" -eq 2 ] || return 1
	ip -n rxu link delete tun0 || return 1
	ports=$(ss_4791 rxu)
	link_exists rxe_t && gone=0
	ktap_diag "right after ip link del (tun): 4791 sockets $ports," \
		"rxe device gone: $gone"
	[ "$ports" -eq 0 ] && [ "$gone" -eq 1 ] && rxe_dmesg_clean
}
ktap_check "deleting the netdev removes its rxe devices and sockets" \
	unregister_case

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

# ns_cycle NAME: the life of a namespace with an rxe device; prints the ms
# from "ip netns add" until the device is up, and until it is gone again.
ns_cycle() {
	local ns=$1 t0 up_ms
	t0=$(now_ms)
	ip netns add "$ns" || return 1
	ip -n "$ns" link add dm0 type dummy &&
		rxe_host "$ns" dm0 10.70.0.1/24 fd08::1/64 "rxe_$ns" || {
		ip netns delete "$ns"
		return 1
	}
	up_ms=$(($(now_ms) - t0))
	ip netns delete "$ns"
	wait_gone 60 "rxe_$ns" || return 1
	echo "$up_ms $(($(now_ms) - t0))"
}

# A process in init_net holds an rxe device (an open context with a QP and
# mapped queues) whose netdev lives in a namespace that is deleted.  (A
# process inside the namespace would keep it alive: nothing to tear down.)  The
# device must go at once, another namespace's whole life must not take
# longer meanwhile, the holder's mappings keep the module pinned until it
# exits, and the kernel never reports a netdev waiting for its users: the
# holder lives on past the kernel's warning time (netdev_unregister_timeout_secs,
# RXE_NETDEV_WAIT_S: 10 s as the kernel's default; the debug kernel tears a
# device down about 20 times slower and sets more).
HELD_MAX_MS=20000	# TCG VM; ~1 s expected
held_case() {
	local gid pid base other gone_ms rc0 rc_held rc_after t0 i tmp cyc log0
	# the kernel's own wait messages of this case only: an earlier case's
	# netdev may have been slow to go (the debug kernel, 29 November)
	log0=$(dmesg | wc -l)
	rc0=$(mod_refcnt)
	base=$(ns_cycle rxo1) || { ktap_diag "ns_cycle failed"; return 1; }
	ip netns add rxh || return 1	# deleted below, not by rxe_cleanup
	ip -n rxh link add dmh type dummy &&
		rxe_host rxh dmh 10.80.0.1/24 fd09::1/64 rxe_h || return 1
	gid=$(rxe_gid_index rxe_h 10.80.0.1) || return 1
	# An RC pingpong server opens the device, creates its CQ and QP (with
	# mapped queues) and waits for a client that never comes.
	ibv_rc_pingpong -d rxe_h -g "$gid" -p 18600 >/dev/null 2>&1 &
	pid=$!
	RXE_PIDS+=("$pid")
	for i in $(seq 100); do
		grep -q rxe_queue "/proc/$pid/maps" 2>/dev/null &&
			rdma res show qp link rxe_h/1 | grep -q ibv_rc_pingpong &&
			break
		sleep 0.1
	done
	rdma res show qp link rxe_h/1 | grep -q ibv_rc_pingpong ||
		{ ktap_diag "the holder has no QP on rxe_h"; return 1; }

	tmp=$(mktemp)
	t0=$(now_ms)
	ip netns delete rxh
	ns_cycle rxo2 >"$tmp" &		# another namespace, meanwhile
	cyc=$!
	wait_gone 60 rxe_h || { ktap_diag "rxe_h still there after 60 s"; return 1; }
	gone_ms=$(($(now_ms) - t0))
	wait "$cyc" || { ktap_diag "another namespace stalled"; return 1; }
	other=$(cat "$tmp")
	rm -f "$tmp"
	while [ $(($(now_ms) - t0)) -lt $(((NETDEV_WAIT_S + 2) * 1000)) ]; do
		sleep 0.5
	done
	kill -0 "$pid" || { ktap_diag "the holder died"; return 1; }
	rc_held=$(mod_refcnt)
	kill "$pid"
	wait "$pid" 2>/dev/null
	sleep 0.5
	rc_after=$(mod_refcnt)
	ktap_diag "held device gone ${gone_ms} ms after ip netns delete;" \
		"another namespace meanwhile: up after ${other% *} ms, gone" \
		"after ${other#* } ms (before the hold: ${base% *}/${base#* } ms)"
	ktap_diag "module refcnt before/held/after: $rc0/$rc_held/$rc_after"
	if dmesg | tail -n +"$((log0 + 1))" | grep -q "waiting for .* to become free"; then
		ktap_diag "a netdev waited for its users"
		return 1
	fi
	[ "$gone_ms" -le "$HELD_MAX_MS" ] &&
		[ "${other#* }" -le $((3 * ${base#* } + 5000)) ] &&
		[ "$rc_held" -gt "$rc0" ] && [ "$rc_after" -eq "$rc0" ] &&
		rxe_dmesg_clean
}
ktap_check "a held device does not hold up namespace teardown" held_case

# Concurrent churn, bounded: devices added and deleted on two netdevs of one
# namespace (sharing its sockets), and whole namespaces created and deleted,
# half of them with "rdma link delete" racing the namespace deletion.
# More rounds hunt a rare race: vm-suite --env CHURN_ROUNDS=40 netns.sh
CHURN_ROUNDS=${CHURN_ROUNDS:-12}
# A round that does not end within CHURN_STALL_S seconds is a hang.
CHURN_STALL_S=${CHURN_STALL_S:-180}

# churn_wait DIR PROGRESS STALL: wait until the three loops have written
# their results to DIR; fail if none of them finishes a round (a line in
# PROGRESS) for STALL seconds.
churn_wait() {
	local dir=$1 progress=$2 stall=$3 t0=$SECONDS last=$SECONDS seen=0 n
	while [ "$(ls "$dir" | wc -l)" -lt 3 ]; do
		n=$(wc -l <"$progress")
		[ "$n" != "$seen" ] && seen=$n last=$SECONDS
		if [ $((SECONDS - last)) -ge "$stall" ]; then
			ktap_diag "churn: no round ended in $stall s ($seen of $((3 * CHURN_ROUNDS)) done)"
			return 1
		fi
		sleep 0.2
	done
	ktap_diag "churn: $((3 * CHURN_ROUNDS)) rounds in $((SECONDS - t0)) s"
}

churn_case() {
	local rc0 dir progress i n f fails=0 left
	rc0=$(mod_refcnt)
	dir=$(mktemp -d)
	progress=$(mktemp)
	ip netns add rxk && RXE_NETNS+=(rxk) || return 1
	for i in 1 2; do
		ip -n rxk link add "dmk$i" type dummy &&
			ip -n rxk addr add "10.9$i.0.1/24" dev "dmk$i" &&
			ip -n rxk link set "dmk$i" up || return 1
	done
	for i in 1 2; do
		(
			n=0
			for _ in $(seq "$CHURN_ROUNDS"); do
				ip netns exec rxk rdma link add "rxe_k$i" type rxe \
					netdev "dmk$i" || n=$((n + 1))
				rdma link delete "rxe_k$i" || n=$((n + 1))
				echo >>"$progress"
			done
			echo "$n" >"$dir/k$i"
		) &
	done
	(
		n=0
		for i in $(seq "$CHURN_ROUNDS"); do
			ip netns add "rxn$i" &&
				ip -n "rxn$i" link add dm0 type dummy &&
				ip -n "rxn$i" link set dm0 up &&
				ip netns exec "rxn$i" rdma link add "rxe_n$i" type rxe \
					netdev dm0 || n=$((n + 1))
			if [ $((i % 2)) -eq 0 ]; then
				rdma link delete "rxe_n$i" 2>/dev/null &
			fi
			ip netns delete "rxn$i" || n=$((n + 1))
			echo >>"$progress"
		done
		wait
		echo "$n" >"$dir/n"
	) &
	# A hang is a round that does not end, not a slow kernel: a debug
	# kernel takes about a minute per round where a normal one takes
	# seconds (more on a loaded host: check-debug gives it longer).
	churn_wait "$dir" "$progress" "$CHURN_STALL_S" || return 1
	rm -f "$progress"
	for f in "$dir"/*; do
		fails=$((fails + $(cat "$f")))
	done
	rm -rf "$dir"
	left=()
	for i in $(seq "$CHURN_ROUNDS"); do
		left+=("rxe_n$i")
	done
	wait_gone 180 rxe_k1 rxe_k2 "${left[@]}" || return 1
	sleep 0.5
	ktap_diag "churn: $fails failed command(s); 4791 sockets in rxk" \
		"$(ss_4791 rxk), rxc $(ss_4791 rxc); module refcnt" \
		"$rc0 -> $(mod_refcnt)"
	[ "$fails" -eq 0 ] && [ "$(ss_4791 rxk)" -eq 0 ] &&
		[ "$(ss_4791 rxc)" -eq 2 ] && [ "$(mod_refcnt)" -eq "$rc0" ] &&
		rxe_dmesg_clean
}
ktap_check "concurrent link and namespace churn leaks nothing" churn_case

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

# SPDX-License-Identifier: GPL-2.0
# Guest-side helpers for the rxe selftests (source this file in the VM).
#
# Topology helpers build hosts as network namespaces joined by veth pairs,
# each with an rxe device, and tear everything down in a trap.  perftest
# helpers run a server/client pair and print the measured bandwidth.

RXE_NETNS=()		# namespaces we created, deleted by rxe_cleanup
RXE_LINKS=()		# rdma links we created
RXE_PIDS=()		# background processes we started

RXE_DMESG_SEEN=0
RXE_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Check the kernel log lines that appeared since the last call for splats,
# with the same patterns as the runner's whole-log check.
rxe_dmesg_clean() {
	local tmp rc
	tmp=$(mktemp)
	dmesg | tail -n +"$((RXE_DMESG_SEEN + 1))" >"$tmp"
	RXE_DMESG_SEEN=$((RXE_DMESG_SEEN + $(wc -l <"$tmp")))
	"$RXE_LIB_DIR/../vm/check-dmesg" "$tmp"
	rc=$?
	rm -f "$tmp"
	return $rc
}

rxe_cleanup() {
	local p l n live
	# Only the ones still among this shell's jobs: a process that was
	# waited for is gone, and over a long run (soak, lifecycle) its PID
	# may be some other process's by now.
	live=" $(jobs -p | tr '\n' ' ') "
	for p in "${RXE_PIDS[@]}"; do
		[[ $live == *" $p "* ]] && kill "$p" 2>/dev/null
	done
	for p in "${RXE_PIDS[@]}"; do
		wait "$p" 2>/dev/null
	done
	RXE_PIDS=()
	for l in "${RXE_LINKS[@]}"; do
		rdma link delete "$l" 2>/dev/null
	done
	RXE_LINKS=()
	for n in "${RXE_NETNS[@]}"; do
		ip netns delete "$n" 2>/dev/null
	done
	RXE_NETNS=()
}

# rxe_host NS IFNAME ADDR4/PLEN ADDR6/PLEN RXEDEV: configure an interface
# already moved into NS and put an rxe device on it.
rxe_host() {
	local ns=$1 ifc=$2 a4=$3 a6=$4 dev=$5
	ip -n "$ns" link set lo up
	ip -n "$ns" addr add "$a4" dev "$ifc"
	ip -n "$ns" addr add "$a6" dev "$ifc" nodad
	ip -n "$ns" link set "$ifc" up
	ip netns exec "$ns" rdma link add "$dev" type rxe netdev "$ifc" || return 1
	RXE_LINKS+=("$dev")
}

# rxe_two_hosts: namespaces rxa and rxb over a veth pair, rxe devices rxe_a
# and rxe_b, addresses 10.10.0.1/2 and fd00::1/2.
rxe_two_hosts() {
	ip netns add rxa && RXE_NETNS+=(rxa) || return 1
	ip netns add rxb && RXE_NETNS+=(rxb) || return 1
	ip link add va type veth peer name vb || return 1
	ip link set va netns rxa
	ip link set vb netns rxb
	rxe_host rxa va 10.10.0.1/24 fd00::1/64 rxe_a || return 1
	rxe_host rxb vb 10.10.0.2/24 fd00::2/64 rxe_b || return 1
}

# rxe_gid_index DEV ADDR: index of the RoCE v2 GID of DEV that carries ADDR
# (an IPv4 address is stored IPv4-mapped).  Waits briefly: the GID table is
# filled from a work item after the address appears.
rxe_gid_index() {
	local dev=$1 addr=$2 want i gid type tries
	case "$addr" in
	*:*) want=$(python3 -c "import ipaddress,sys; print(ipaddress.IPv6Address(sys.argv[1]).exploded)" "$addr") ;;
	*) want=$(python3 -c "import ipaddress,sys; print(ipaddress.IPv6Address('::ffff:'+sys.argv[1]).exploded)" "$addr") ;;
	esac
	for tries in $(seq 50); do
		for i in $(seq 0 15); do
			gid=$(cat "/sys/class/infiniband/$dev/ports/1/gids/$i" 2>/dev/null) || continue
			type=$(cat "/sys/class/infiniband/$dev/ports/1/gid_attrs/types/$i" 2>/dev/null)
			if [ "$gid" = "$want" ] && [ "$type" = "RoCE v2" ]; then
				echo "$i"
				return 0
			fi
		done
		sleep 0.1
	done
	return 1
}

# rxe_perf TOOL SRV_NS SRV_DEV SRV_ADDR CLI_NS CLI_DEV [perftest args...]
# Runs a perftest server in SRV_NS and a client in CLI_NS towards SRV_ADDR;
# sets RXE_PERF_OUT (the client's output), RXE_PERF_SRV_OUT (the server's)
# and RXE_PERF_RC.  perftest's out-of-band exchange is IPv4 TCP; with
# RXE_PERF_GID=6 the RoCE traffic itself uses each side's global IPv6 GID.
# Bounded by RXE_PERF_TIMEOUT.
rxe_perf() {
	# perftest times itself with the CPU's cycle counter and gives up
	# when a loaded TCG guest's clock samples do not line up ("r^2 <
	# 0.9", no report, exit 1) after the transfer itself went through:
	# that is the tool's failure, so it gets one more run.  Either side
	# may give up; a server that does leaves its client without the
	# final exchange ("Couldn't read remote address").  RXE_PERF_RUNS
	# says how many transfers went over the wire: 1, or 2 after a retry.
	RXE_PERF_RUNS=1
	rxe_perf_once "$@" && return 0
	grep -q "Can't produce a report" <<<"$RXE_PERF_OUT$RXE_PERF_SRV_OUT" || return 1
	echo "# perftest could not time itself (r^2 < 0.9): once more"
	RXE_PERF_RUNS=2
	rxe_perf_once "$@"
}

rxe_perf_once() {
	local tool=$1 sns=$2 sdev=$3 saddr=$4 cns=$5 cdev=$6
	shift 6
	local fam=${RXE_PERF_GID:-4} sgid cgid srv_pid log t=${RXE_PERF_TIMEOUT:-120}
	RXE_PERF_SRV_OUT=
	sgid=$(rxe_gid_index "$sdev" "$(rxe_ns_addr "$sns" "$fam")")
	cgid=$(rxe_gid_index "$cdev" "$(rxe_ns_addr "$cns" "$fam")")
	if [ -z "$sgid" ] || [ -z "$cgid" ]; then
		echo "# no IPv$fam GID on $sdev or $cdev"
		RXE_PERF_RC=1
		return 1
	fi
	log=$(mktemp)
	ip netns exec "$sns" timeout "$t" "$tool" -d "$sdev" -x "$sgid" "$@" >"$log" 2>&1 &
	srv_pid=$!
	RXE_PIDS+=("$srv_pid")
	sleep 1
	RXE_PERF_OUT=$(ip netns exec "$cns" timeout "$t" "$tool" -d "$cdev" -x "$cgid" "$@" "$saddr" 2>&1)
	RXE_PERF_RC=$?
	# A client that failed leaves the server waiting for nobody.
	[ "$RXE_PERF_RC" -ne 0 ] && kill "$srv_pid" 2>/dev/null
	wait "$srv_pid" 2>/dev/null
	local src=$?
	[ "$RXE_PERF_RC" -eq 0 ] && RXE_PERF_RC=$src
	RXE_PERF_SRV_OUT=$(cat "$log")
	if [ "$RXE_PERF_RC" -ne 0 ]; then
		# the status too: a timeout (124) prints nothing of its own
		echo "# $tool: exit $RXE_PERF_RC (124: past its $t s timeout)"
		echo "$RXE_PERF_SRV_OUT" | sed 's/^/# server: /'
		echo "$RXE_PERF_OUT" | sed 's/^/# client: /'
	fi
	rm -f "$log"
	return "$RXE_PERF_RC"
}

# rxe_wait_listen NS PORT [SECONDS]: a server in NS accepts on TCP PORT
# (within SECONDS, default 10; a loaded TCG guest may need more).
rxe_wait_listen() {
	local i
	for i in $(seq $((${3:-10} * 10))); do
		ip netns exec "$1" ss -Hltn "sport = :$2" 2>/dev/null | grep -q . && return 0
		sleep 0.1
	done
	return 1
}

# rxe_ns_addr NS 4|6: the first global address of that family in NS.
rxe_ns_addr() {
	ip -n "$1" -"$2" -o addr show scope global |
		awk '{split($4, a, "/"); print a[1]; exit}'
}

# rxe_perf_bw: average bandwidth (MB/s) from the last bandwidth-test output:
# the data line is "bytes iterations peak avg msgrate".
rxe_perf_bw() {
	echo "$RXE_PERF_OUT" | awk '$1 ~ /^[0-9]+$/ && NF >= 5 {bw=$4} END {print bw+0}'
}

# rxe_perf_lat: typical latency (usec) from the last ib_*_lat output:
# "bytes iterations t_min t_max t_typical ...".
rxe_perf_lat() {
	echo "$RXE_PERF_OUT" | awk '$1 ~ /^[0-9]+$/ && NF >= 5 {lat=$5} END {print lat+0}'
}

# gt0 X: X is a number greater than zero.
gt0() { awk -v x="$1" 'BEGIN {exit !(x > 0)}'; }

# rxe_counter DEV NAME: an rxe hw counter of DEV's port 1 (0 if absent).
rxe_counter() {
	cat "/sys/class/infiniband/$1/ports/1/hw_counters/$2" 2>/dev/null || echo 0
}

# rxe_rc_qps DEV FIELD...: one line per RC QP of DEV in "rdma -dd res show
# qp": its lqpn, then each driver attribute drv_FIELD ("-" if absent).
rxe_rc_qps() {
	local dev=$1
	shift
	rdma -dd res show qp link "$dev/1" 2>/dev/null | awk -v want="$*" '
		/type RC/ {
			n = split(want, w, " ")
			for (i = 1; i < NF; i++) v[$i] = $(i + 1)
			line = v["lqpn"]
			for (j = 1; j <= n; j++)
				line = line " " (("drv_" w[j]) in v ? v["drv_" w[j]] : "-")
			print line
			delete v
		}'
}

# rxe_mark_ce NS IFC: from now on every RoCEv2 packet NS sends on IFC
# leaves with CE in its IP ECN field (a switch that marks everything):
# tc pedit on the egress TOS, the IP header checksum redone.  The ICRC
# does not cover the ECN bits.  rxe_unmark_ce NS IFC undoes it.
rxe_mark_ce() {
	ip netns exec "$1" tc qdisc add dev "$2" clsact &&
	ip netns exec "$1" tc filter add dev "$2" egress protocol ip flower \
		ip_proto udp dst_port 4791 \
		action pedit ex munge ip tos set 0x03 retain 0x03 pipe \
		action csum ip
}
rxe_unmark_ce() { ip netns exec "$1" tc qdisc del dev "$2" clsact 2>/dev/null; }

# rxe_tracefs: tracefs mounted at /sys/kernel/tracing (status 1 if the
# kernel has no rxe_cc events).
rxe_tracefs() {
	[ -d /sys/kernel/tracing/events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -d /sys/kernel/tracing/events/rxe_cc ]
}

# rxe_cc_file DEV KNOB: the file of a cc knob, in cc/ or, for an
# ablation, cc_experimental/.
rxe_cc_file() {
	local d=/sys/class/infiniband/$1/ports/1/cc
	if [ -e "$d/$2" ]; then echo "$d/$2"; else echo "${d}_experimental/$2"; fi
}

# rxe_cc_both KNOB VALUE: write cc/KNOB of both rxe_two_hosts devices.
rxe_cc_both() {
	echo "$2" >"$(rxe_cc_file rxe_a "$1")" &&
	echo "$2" >"$(rxe_cc_file rxe_b "$1")"
}

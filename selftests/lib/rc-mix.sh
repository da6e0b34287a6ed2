# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # MIX_* are read by the suites
# Run the rc-mix verbs program (selftests/verbs) between two namespaces of
# the test VM (source after rxe.sh).  Its output goes to files in MIX_DIR.
#
#   mix_hosts DESC MTU          rxe_two_hosts (rxa 10.10.0.1, rxb 10.10.0.2)
#                               at veth MTU MTU, neighbours pinned; one
#                               KTAP case DESC, and the suite ends if it
#                               fails or rc-mix is not built
#   mix_server NS ADDR [ARGS]   start the server, wait until it listens
#   mix_client NS ADDR [ARGS]   start the client (MIX_CLI_PID)
#   mix_wait WHAT REGEX SEC     wait for REGEX in WHAT's output (srv|cli)
#                               while WHAT runs; status 1 on timeout/exit
#   mix_end                     SIGUSR1 to the client (ends its hold),
#                               then the exit status of both:
#                               MIX_CLI_RC, MIX_SRV_RC; both outputs
#                               as diagnostics, with MIX_QUIET=1 only
#                               when one of them failed
#   mix_verified                after mix_end: both ends verified the
#                               data and exited 0
#   mix_field WHAT KEY          the value of KEY=... in WHAT's output
#   mix_settle CMD [ARG...]     CMD until it succeeds, every 0.1 s for up
#                               to 2 s: when the client reports idle, the
#                               last ACKs may still be on their way

MIX_BIN=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/verbs/rc-mix
MIX_DIR=${OUT_DIR:-/tmp}
MIX_PORT=18600
MIX_SRV_PID='' MIX_CLI_PID='' MIX_SRV_RC='' MIX_CLI_RC=''

# Each side's neighbour entry is pinned: rdma_cm's first address
# resolution in a fresh namespace waits for ARP, and one run in three
# timed out after 5 s.  A READ answers with one burst of up to 4096
# packets, and veth hands them to the peer's per-CPU backlog: the default
# 1000 drops the tail (and the ACKs behind it), and the READ is retried
# until the timeout.
mix_topology() {
	local mac_a mac_b
	rxe_two_hosts || return 1
	sysctl -qw net.core.netdev_max_backlog=16384 || return 1
	ip -n rxa link set va mtu "$1" && ip -n rxb link set vb mtu "$1" || return 1
	mac_a=$(ip -n rxa -br link show va | awk '{print $3}')
	mac_b=$(ip -n rxb -br link show vb | awk '{print $3}')
	ip -n rxa neigh replace 10.10.0.2 lladdr "$mac_b" dev va nud permanent &&
	ip -n rxb neigh replace 10.10.0.1 lladdr "$mac_a" dev vb nud permanent &&
	rxe_gid_index rxe_a 10.10.0.1 >/dev/null && rxe_gid_index rxe_b 10.10.0.2 >/dev/null
}

mix_hosts() {
	if [ ! -x "$MIX_BIN" ]; then
		ktap_fail "$1 ($MIX_BIN missing: make -C selftests/verbs)"
		exit 1
	fi
	if mix_topology "$2"; then
		ktap_pass "$1"
	else
		ktap_fail "$1"
		exit 1
	fi
}

mix_pid() { if [ "$1" = srv ]; then echo "$MIX_SRV_PID"; else echo "$MIX_CLI_PID"; fi; }

mix_wait() {
	local what=$1 re=$2 i pid
	pid=$(mix_pid "$what")
	for ((i = 0; i < $3 * 10; i++)); do
		grep -Eq -- "$re" "$MIX_DIR/mix-$what.log" 2>/dev/null && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	grep -Eq -- "$re" "$MIX_DIR/mix-$what.log" 2>/dev/null
}

mix_server() {
	local ns=$1 addr=$2
	shift 2
	MIX_PORT=$((MIX_PORT + 1))
	ip netns exec "$ns" "$MIX_BIN" -s -b "$addr" -p "$MIX_PORT" "$@" \
		>"$MIX_DIR/mix-srv.log" 2>&1 &
	MIX_SRV_PID=$!
	RXE_PIDS+=("$MIX_SRV_PID")
	mix_wait srv "listening" 10
}

mix_client() {
	local ns=$1 addr=$2
	shift 2
	ip netns exec "$ns" "$MIX_BIN" -p "$MIX_PORT" "$@" "$addr" \
		>"$MIX_DIR/mix-cli.log" 2>&1 &
	MIX_CLI_PID=$!
	RXE_PIDS+=("$MIX_CLI_PID")
}

mix_end() {
	kill -USR1 "$MIX_CLI_PID" 2>/dev/null
	wait "$MIX_CLI_PID"
	MIX_CLI_RC=$?
	# The client's disconnect ends the server; a client that never
	# connected leaves it listening.
	mix_wait srv "verified|not verified|wrong" 10 ||
		kill "$MIX_SRV_PID" 2>/dev/null
	wait "$MIX_SRV_PID"
	MIX_SRV_RC=$?
	[ "${MIX_QUIET:-0}" = 1 ] && [ "$MIX_CLI_RC" = 0 ] && [ "$MIX_SRV_RC" = 0 ] &&
		return
	sed 's/^/# srv: /' "$MIX_DIR/mix-srv.log"
	sed 's/^/# cli: /' "$MIX_DIR/mix-cli.log"
}

mix_verified() {
	grep -q "^rc-mix: verified" "$MIX_DIR/mix-cli.log" &&
		grep -q "^rc-mix: server verified" "$MIX_DIR/mix-srv.log" &&
		[ "$MIX_CLI_RC" = 0 ] && [ "$MIX_SRV_RC" = 0 ]
}

mix_settle() {
	local _
	for _ in $(seq 20); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

mix_field() {
	sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" "$MIX_DIR/mix-$1.log" | tail -n 1
}

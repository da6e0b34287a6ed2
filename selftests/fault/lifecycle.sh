#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Lifecycle faults with CC traffic running (in the test VM:
# selftests/rxe/vm-suite ../fault/lifecycle.sh).  Each fault is injected
# CYCLES times into a live ib_write_bw flow whose QP runs DCQCN, ACC or
# none in turn, beside an ACC flow; some paced low enough to be waiting
# on the pacer, some with every data packet CE-marked so that ACC halts
# and DCQCN is cut to its minimum rate:
#
#   qp-destroy   the flow ends by itself (QPs destroyed while paced)
#   kill9        kill -9 of both verbs processes
#   link-delete  rdma link delete of the sender's device
#   netdev-del   the veth pair deleted under both devices
#   netns-del    the sender's namespace deleted
#   link-flap    the sender's netdev down and up
#   knobs        algorithm and knob changes mid-flow, new QPs meanwhile
#   rmmod        rmmod rdma_rxe with the flow running, then insmod again
#
# After each fault: no splat, no RC QP left once its processes are gone.
# At the end: no object left (rdma res), module refcount back, kmalloc
# slab deltas reported, and a clean rmmod (rxe's pools WARN on a leak).
# The hung-task detector is armed at 10 s.
#
#   lifecycle.sh [CYCLES] [FAULT...]     CYCLES defaults to 2; the issue's
#                                        figure is 100 (hours in TCG)

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/lib.sh"

cycles=${1:-2}
shift
faults=("$@")
[ ${#faults[@]} -eq 0 ] &&
	faults=(qp-destroy kill9 link-delete netdev-del netns-del link-flap knobs rmmod)
# the module the VM loaded (the debug lane's is not build/rdma_rxe.ko)
module=${RXE_MODULE:-$(cd "$here/../.." && pwd)/build/rdma_rxe.ko}
trap 'fault_kill_flows; rxe_cleanup' EXIT
rxe_dmesg_clean >/dev/null

sysctl -qw kernel.hung_task_timeout_secs=10 2>/dev/null
hung=$(sysctl -n kernel.hung_task_timeout_secs 2>/dev/null)
ktap_header "lifecycle faults with CC traffic, $cycles cycles each" $((${#faults[@]} + 3))
ktap_diag "hung-task timeout ${hung:-unavailable} s"

fault_kill_flows() {
	[ ${#FAULT_FLOW_PIDS[@]} -gt 0 ] && kill -9 "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
	pkill_ns rxa; pkill_ns rxb
	fault_wait_flows 30 >/dev/null
}
# pkill_ns NS: kill -9 the perftest processes in netns NS (kill -9 of
# their timeout wrapper leaves them running); nothing else there, as the
# fault's own command may be running in NS.
pkill_ns() {
	local p
	for p in $(ip netns pids "$1" 2>/dev/null); do
		case "$(cat /proc/"$p"/comm 2>/dev/null)" in
		ib_*) kill -9 "$p" 2>/dev/null ;;
		esac
	done
}

topo_up() {
	rxe_cleanup
	rxe_two_hosts && fault_cc_setup 100
}

# one flow with the algorithm of cycle I; paced at 5-20 Mb/s on odd
# cycles; on cycles 1 and 2 of every 4 the sender's data leaves CE-marked
# (tc on its veth), so that an ACC QP halts again and again (its ACKs echo
# CE) and a DCQCN QP is cut to its minimum rate by CNPs when the fault
# hits.  The second flow (ACC) keeps an ACC QP in every cycle.
start_flow() {
	local i=$1 tc
	tc=$(( (i % 3 == 0) ? 0 : (i % 3 == 1 ? 104 : 160) ))
	if [ $((i % 2)) = 1 ]; then fault_both line_rate_mbps $((5 + i % 16)); else fault_both line_rate_mbps 100; fi
	rxe_unmark_ce rxb vb
	if [ $(((i - 1) % 4)) -lt 2 ]; then rxe_mark_ce rxb vb || return 1; fi
	fault_flow 18515 "$tc" 4 && fault_flow 18519 104 4
}

# cc_state: count the cycle's CC state just before the fault: PACED if a
# QP ran below 100 Mb/s, HALTED if an ACC QP of rxe_b had halted.
cc_state() {
	local h
	[ "$(fault_getk rxe_b line_rate_mbps 2>/dev/null)" != 100 ] && PACED=$((PACED + 1))
	h=$(rxe_rc_qps rxe_b acc_halts | awk '$2 ~ /^[0-9]+$/ {s += $2} END {print s + 0}')
	[ "$h" -gt 0 ] && HALTED=$((HALTED + 1))
}

# no RC QP left on any device, within 10 s
no_qps_left() {
	local i
	for i in $(seq 50); do
		[ "$(rdma res show qp 2>/dev/null | grep -c 'type RC')" = 0 ] && return 0
		sleep 0.2
	done
	rdma res show qp | sed 's/^/# left: /'
	return 1
}

# bg_fault CMD...: run CMD, kill the flows a second later, and wait up
# to 30 s for CMD.
bg_fault() {
	local pid i
	"$@" &
	pid=$!
	sleep 1
	fault_kill_flows
	for i in $(seq 60); do
		kill -0 $pid 2>/dev/null || break
		sleep 0.5
	done
	kill -0 $pid 2>/dev/null && { echo "# $* still blocked 30 s after the flows were killed"; return 1; }
	wait $pid || { echo "# $* failed"; return 1; }
}

inject() { # FAULT CYCLE
	case "$1" in
	qp-destroy) fault_wait_flows 60 ;;
	kill9) fault_kill_flows ;;
	link-delete)
		# rxe has no disassociate_ucontext: the unregistration waits for
		# the verbs processes to close their files, so they are killed
		# a second later (an admin removing a device under a live job).
		bg_fault ip netns exec rxb rdma link delete rxe_b || return 1
		ip netns exec rxb rdma link add rxe_b type rxe netdev vb ;;
	netdev-del)
		bg_fault ip -n rxa link delete va || return 1
		topo_up ;;
	netns-del)
		bg_fault ip netns delete rxb || return 1
		topo_up ;;
	link-flap)
		ip -n rxb link set vb down; sleep 0.5; ip -n rxb link set vb up
		fault_kill_flows ;;
	knobs)
		local a
		for a in acc none dcqcn acc; do
			fault_both algorithm $a
			fault_both line_rate_mbps $((RANDOM % 200 + 1))
			fault_both acc_period_us $((RANDOM % 5000 + 100)) 2>/dev/null
			fault_both rpg_ai_rate_kbps $(((RANDOM % 50 + 1) * 1000))
			fault_both pacer_burst_us $((RANDOM % 5000 + 1))
			sleep 0.3
		done
		fault_both algorithm dcqcn; fault_both pacer_burst_us 1000
		fault_flow 18516 104 1
		fault_wait_flows 60 ;;
	rmmod)
		# With verbs users, rxe (no disassociate_ucontext) is pinned:
		# rmmod fails with EBUSY until the processes are gone.
		rmmod rdma_rxe 2>/dev/null && echo "# cycle $2: rmmod mid-flow succeeded"
		fault_kill_flows
		local _
		for _ in $(seq 40); do
			[ -d /sys/module/rdma_rxe ] || break
			rmmod rdma_rxe 2>/dev/null && break
			sleep 0.5
		done
		[ -d /sys/module/rdma_rxe ] && { echo "# cycle $2: rmmod failed after the flows ended"; return 1; }
		# shellcheck disable=SC2034 # lib/rxe.sh's list: the links went with rmmod
		RXE_LINKS=()
		insmod "$module" || return 1
		topo_up ;;
	esac
}

fault_case() { # FAULT
	local i rc=0 t0=$SECONDS
	for i in $(seq "$cycles"); do
		[ -d "/sys/class/infiniband/rxe_b" ] || topo_up || { echo "# cycle $i: topology"; return 1; }
		start_flow "$i" || { echo "# cycle $i: flow did not start"; rc=1; }
		sleep 1.5
		cc_state
		inject "$1" "$i" || rc=1
		fault_kill_flows
		no_qps_left || { echo "# cycle $i: QPs left"; rc=1; }
		INJECTED=$((INJECTED + 1))
	done
	echo "# $1: $cycles cycles in $((SECONDS - t0)) s"
	rxe_dmesg_clean || rc=1
	return $rc
}

INJECTED=0 PACED=0 HALTED=0
topo_up || { ktap_fail "topology"; exit 1; }
slab0=$(fault_slab)
ref0=$(lsmod | awk '$1 == "ib_core" {print $3}')
for f in "${faults[@]}"; do
	ktap_check "$f x $cycles: no splat, no QP left" fault_case "$f"
done
ktap_diag "faults injected: $INJECTED; QPs paced below 100 Mb/s in $PACED, an ACC QP halted in $HALTED"
[ -n "$OUT_DIR" ] && echo "injected $INJECTED cycles $cycles paced $PACED halted $HALTED faults ${faults[*]}" >>"$OUT_DIR/lifecycle-figures.txt"

fault_kill_flows
rxe_cleanup
ktap_check "no rdma object left after teardown" test "$(fault_res_count)" = 0
ktap_check "rdma_rxe refcount back to 0, ib_core's to $ref0" \
	test "$(fault_modref)" = 0 -a "$(lsmod | awk '$1 == "ib_core" {print $3}')" = "$ref0"
slab_report() {
	# (no process substitution: the guest has no /dev/fd)
	echo "$slab0" | sort >/tmp/fault-slab0
	fault_slab | sort >/tmp/fault-slab1
	join /tmp/fault-slab0 /tmp/fault-slab1 |
		awk '{d = $3 - $2; if (d > 64 || d < -64) printf "# slab %s: %+d objects\n", $1, d}'
}
slab_report
fault_kmemleak_scan
reload() { rmmod rdma_rxe && insmod "$module" && rxe_dmesg_clean; }
ktap_check "rmmod rdma_rxe clean (pools empty) and no splat" reload
ktap_finish

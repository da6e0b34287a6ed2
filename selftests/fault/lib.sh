# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Guest-side helpers of the fault matrix (source after lib/ktap.sh and
# lib/rxe.sh).  Two hosts rxa/rxb as in lib/rxe.sh; long flows rxb -> rxa,
# one per algorithm: DCQCN (the device default), ACC (priority 3, DSCP 26)
# and none (priority 5, DSCP 40), so that one device holds a QP of each.

FAULT_TRACE=/sys/kernel/tracing

fault_cc() { echo "/sys/class/infiniband/$1/ports/1/cc"; }
# the file of knob $2 of device $1: cc/, or cc_experimental/ for an ablation
fault_knob() {
	local f
	f=$(fault_cc "$1")/$2
	[ -e "$f" ] || f=$(fault_cc "$1")_experimental/$2
	echo "$f"
}
fault_setk() { echo "$3" >"$(fault_knob "$1" "$2")"; }
fault_getk() { cat "$(fault_knob "$1" "$2")"; }
fault_both() { fault_setk rxe_a "$1" "$2" && fault_setk rxe_b "$1" "$2"; }

# fault_cc_setup RATE_MBPS: CC on both devices, the three algorithms by
# priority, a line rate the TCG VM can carry.
fault_cc_setup() {
	fault_both algorithm dcqcn && fault_both prio3_algorithm acc &&
	fault_both prio5_algorithm none && fault_both line_rate_mbps "$1"
}

# fault_three_setup [none]: the two hosts for fault_three_flows, CC set
# up; with "none" every priority runs without CC (the control).
fault_three_setup() {
	rxe_two_hosts && fault_cc_setup 100 || return 1
	[ "${1:-}" != none ] ||
		{ fault_both algorithm none && fault_both prio3_algorithm none; }
}

# fault_flow PORT TCLASS SECONDS [perftest args]: ib_write_bw (or
# FAULT_FLOW_TOOL) rxb -> rxa in the background for SECONDS (0: until
# killed); appends the two PIDs to FAULT_FLOW_PIDS, server first.
# With FAULT_FLOW_LOG=PATH the outputs go to PATH.{s,c}PORT.
FAULT_FLOW_PIDS=()
fault_flow() {
	local port=$1 tc=$2 secs=$3 sgid cgid slog=/dev/null clog=/dev/null
	local tool=${FAULT_FLOW_TOOL:-ib_write_bw}
	shift 3
	local dur=(-D "$secs") t=$((secs + 60))
	[ -n "${FAULT_FLOW_LOG:-}" ] && slog=$FAULT_FLOW_LOG.s$port clog=$FAULT_FLOW_LOG.c$port
	[ "$secs" = 0 ] && dur=(--run_infinitely -D 5) t=1800
	sgid=$(rxe_gid_index rxe_a 10.10.0.1) && cgid=$(rxe_gid_index rxe_b 10.10.0.2) || return 1
	ip netns exec rxa timeout "$t" "$tool" -d rxe_a -x "$sgid" -p "$port" \
		--tclass "$tc" "${dur[@]}" -s 65536 "$@" >"$slog" 2>&1 &
	FAULT_FLOW_PIDS+=($!)
	rxe_wait_listen rxa "$port" 30 || return 1
	ip netns exec rxb timeout "$t" "$tool" -d rxe_b -x "$cgid" -p "$port" \
		--tclass "$tc" "${dur[@]}" -s 65536 "$@" 10.10.0.1 >"$clog" 2>&1 &
	FAULT_FLOW_PIDS+=($!)
	RXE_PIDS+=("${FAULT_FLOW_PIDS[@]: -2}")
}

# fault_three_flows SECONDS: one flow per algorithm.
fault_three_flows() {
	fault_flow 18515 0 "$1" && fault_flow 18516 104 "$1" && fault_flow 18517 160 "$1"
}

# fault_wait_flows TIMEOUT: wait for the flows; 1 if one is still running
# after TIMEOUT seconds (then they are killed).
fault_wait_flows() {
	local end=$((SECONDS + $1)) p alive
	while :; do
		alive=0
		for p in "${FAULT_FLOW_PIDS[@]}"; do
			kill -0 "$p" 2>/dev/null && alive=1
		done
		[ $alive = 0 ] && break
		if [ $SECONDS -ge $end ]; then
			kill -9 "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
			FAULT_FLOW_PIDS=()
			return 1
		fi
		sleep 0.5
	done
	wait "${FAULT_FLOW_PIDS[@]}" 2>/dev/null
	FAULT_FLOW_PIDS=()
}

# fault_qps DEV: "qpn algorithm" of DEV's RC QPs, one per line.
fault_qps() {
	rdma -dd res show qp link "$1/1" 2>/dev/null | awk '/type RC/ {
		q = ""; a = "none"
		for (i = 1; i < NF; i++) {
			if ($i == "lqpn") q = $(i + 1)
			if ($i == "drv_cc_algorithm") a = $(i + 1)
		}
		print q, a }'
}

# fault_counters DEV: "name value" lines of rdma statistic.
fault_counters() {
	rdma statistic show link "$1/1" 2>/dev/null |
		awk '{ for (i = 3; i < NF; i += 2) print $i, $(i + 1) }'
}

# fault_counter_delta BEFORE AFTER NAME: AFTER - BEFORE of counter NAME.
fault_counter_delta() {
	local b a
	b=$(awk -v n="$3" '$1 == n {print $2}' "$1")
	a=$(awk -v n="$3" '$1 == n {print $2}' "$2")
	echo $(( ${a:-0} - ${b:-0} ))
}

# fault_counters_sum FILE: sum of all counters.
fault_counters_sum() { awk '{s += $2} END {print s + 0}' "$1"; }

fault_trace_on() { # EVENT...
	local e
	[ -d $FAULT_TRACE/events/rxe_cc ] || mount -t tracefs nodev $FAULT_TRACE
	echo 16384 >$FAULT_TRACE/buffer_size_kb
	echo >$FAULT_TRACE/trace
	for e in "$@"; do echo 1 >"$FAULT_TRACE/events/rxe_cc/$e/enable"; done
}
fault_trace_off() { echo 0 >$FAULT_TRACE/events/rxe_cc/enable; }

# fault_sample_res DEV FILE: append "rdma -dd res show qp" of DEV to FILE
# every 0.2 s in the background; FAULT_SAMPLER is its PID.
fault_sample_res() {
	( while :; do rdma -dd res show qp link "$1/1" 2>/dev/null | grep "type RC"; sleep 0.2; done ) >>"$2" &
	FAULT_SAMPLER=$!
	RXE_PIDS+=("$FAULT_SAMPLER")
}

# fault_res_min FILE ALGO FIELD: the smallest drv_FIELD sampled for QPs of ALGO.
fault_res_min() {
	awk -v al="$2" -v f="drv_$3" '{
		a = ""; v = ""
		for (i = 1; i < NF; i++) {
			if ($i == "drv_cc_algorithm") a = $(i + 1)
			if ($i == f) v = $(i + 1)
		}
		if (a == al && v != "" && (m == "" || v + 0 < m)) m = v + 0
	} END { print m }' "$1"
}

# fault_slab: "cache active_objs" of the caches rxe allocates from: rxe's
# pools use kmalloc; skbs and the RDMA core's own objects are counted too.
fault_slab() {
	awk '$1 ~ /^(kmalloc-[0-9k]+|skbuff_head_cache|skbuff_fclone_cache)$/ {print $1, $2}' /proc/slabinfo
}

# fault_res_count: QPs, CQs, MRs and PDs of every rdma device.
fault_res_count() {
	rdma res show 2>/dev/null | awk '{for (i = 1; i < NF; i++)
		if ($i ~ /^(qp|cq|mr|pd)$/) s += $(i + 1)} END {print s + 0}'
}

fault_modref() { cat /sys/module/rdma_rxe/refcnt 2>/dev/null || echo gone; }

# fault_kmemleak_scan: on a kernel with kmemleak (make check-debug), scan
# now, so that a leak shows in the kernel log ("kmemleak: N new suspected
# memory leaks") before the suite's splat check.  No-op elsewhere.
fault_kmemleak_scan() {
	local f=/sys/kernel/debug/kmemleak
	[ -e $f ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -w $f ] || return 0
	echo scan >$f; sleep 1; echo scan >$f
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# cc-phases-guest.sh: guest script of the CC suites (cc-dcqcn.sh, cc-acc.sh): the checks that
# need more than "run some flows", each as one PHASE argument, in order:
#
#   algo:ALGO      cc/algorithm of every device
#   flows[:ALGO]   the flows of E2E_FLOWS (as guest-flows.sh), with ALGO on
#                  every device if given: flows.tsv, trace.txt (copy in
#                  trace-flows.txt), counters before/after, for metrics.py
#   knob:DEV:NAME=VALUE   one cc knob of one device
#   minrate:MBPS   DCQCN flows h0,h1 -> h2 with rpg_min_rate_kbps=MBPS*1000; the rxe_cc
#                  trace goes to trace-minrate-MBPS.txt
#   badknobs       writes of out-of-range knob values: "bad NAME VALUE rc OLD
#                  NEW" lines in results.txt
#   switch         a DCQCN flow h0 -> h2 runs while the devices' default
#                  algorithm changes to acc; then a new flow h1 -> h2
#   kill:ALGO:WHAT flows h0,h1 -> h2 with ALGO; WHAT=paced (line_rate_mbps
#                  5: every QP paced) or halt (wait until a sender QP reports
#                  acc_halted 1); then kill -9 every perftest process, delete
#                  the rdma links and rmmod rdma_rxe (must be the last phase)
#
# Every measured value is a "key value..." line in $OUT_DIR/results.txt; the
# host suite asserts on them.  Exit 0 unless the setup itself failed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"
trap rxe_cleanup EXIT
fail() { echo "# cc-guest: failed: $*"; exit 1; }
res=$OUT_DIR/results.txt
: >"$res"
put() { echo "$*" >>"$res"; echo "# cc-guest: $*"; }

# knob NAME VALUE: write a cc knob on every device (must succeed).
knob() {
	local dev
	for dev in "${E2E_DEVS[@]}"; do
		echo "$2" >"$(e2e_knob_file "$dev" "$1")" || fail "$dev: $1=$2"
	done
}

# qp_attr DEV ATTR [STATE [LQPN]]: driver attribute ATTR (rdma -dd
# prints drv_ATTR) of the first RC QP of DEV [that is in STATE] [whose
# lqpn is LQPN]; "lqpn" itself is the QP number.
qp_attr() {
	rdma -dd res show qp link "$1/1" 2>/dev/null |
		awk -v a="$2" -v s="${3:-}" -v q="${4:-}" '/ type RC / && (s == "" || $0 ~ " state " s " ") {
			n = ""; v = ""
			for (i = 1; i < NF; i++) {
				if ($i == "lqpn") n = $(i + 1)
				if ($i == a || $i == "drv_" a) v = $(i + 1)
			}
			if (q == "" || n == q) {print v; exit}}'
}

# wait_qp DEV: until DEV has an RC QP in RTS of a perftest process that
# is still running (up to ~20 s: perftest's TCP handshake may need a SYN
# retry), and prints "LQPN ALGORITHM" of that QP, read in the same rdma
# call.  Before RTR a QP has no CC yet (cc_algorithm none: the algorithm
# follows the priority of its path), and a short flow may be gone by a
# second read.
wait_qp() {
	local i line
	for i in $(seq 200); do
		line=$(rdma -dd res show qp link "$1/1" 2>/dev/null |
			awk '/ type RC / && / state RTS / && / comm ib_/ {
				for (i = 1; i < NF; i++) {
					if ($i == "lqpn") n = $(i + 1)
					if ($i == "pid") p = $(i + 1)
					if ($i == "drv_cc_algorithm") a = $(i + 1)
				}
				print p, n, a; exit}')
		# shellcheck disable=SC2086 # "PID LQPN ALGO"
		set -- "$1" $line
		if [ $# -eq 4 ] && kill -0 "$2" 2>/dev/null; then
			echo "$3 $4"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

phase_flows() {
	local specs rc
	[ -n "$1" ] && knob algorithm "$1"
	echo "${1:-mixed}" >"$OUT_DIR/algo.txt"
	e2e_trace_start
	e2e_counters before
	IFS=';' read -r -a specs <<<"$E2E_FLOWS"
	e2e_flows "${specs[@]}"
	rc=$?
	e2e_trace_stop
	e2e_counters after
	cp "$OUT_DIR/trace.txt" "$OUT_DIR/trace-flows.txt" 2>/dev/null
	put "flows_rc $rc"
}

phase_minrate() {
	local mbps=$1
	knob rpg_min_rate_kbps "$((mbps * 1000))"
	e2e_trace_start
	e2e_flows "0 2 0 ${CC_MINRATE_ITERS:-40} 65536" "1 2 0 ${CC_MINRATE_ITERS:-40} 65536"
	local rc=$?
	e2e_trace_stop
	mv "$OUT_DIR/trace.txt" "$OUT_DIR/trace-minrate-$mbps.txt"
	put "minrate_flows $mbps $rc"
}

phase_badknobs() {
	local kv name val d=$(e2e_cc_dir rxe_h0) old new rc
	for kv in ${CC_BAD_KNOBS:-rpg_min_dec_fac=0 rpg_min_dec_fac=101 cnp_dscp=64 dce_tcp_g=5000 rpg_min_rate_kbps=0 rpg_min_rate_kbps=100000000 algorithm=bogus acc_p_thresh=0}; do
		name=${kv%%=*}
		val=${kv#*=}
		old=$(cat "$d/$name" 2>/dev/null)
		( echo "$val" >"$d/$name" ) 2>/dev/null
		rc=$?
		new=$(cat "$d/$name" 2>/dev/null)
		put "bad $name $val $rc ${old:-?} ${new:-?}"
		# An accepted bad value must not leak into the next phases.
		[ "$new" != "$old" ] && knob "$name" "$old"
	done
}

phase_switch() {
	local pid a0 a1 a_new rc q i misses=0
	knob algorithm dcqcn
	# 400 x 64 KB: ~10 s of data at the line rate.  With 120 (3 s) a
	# fresh clone's QP reached RTS 4-5 s after perftest's start and the
	# flow had ended before the reads after the switch (knob writes,
	# 0.5 s, rdma dumps under TCG): five dumps without an RC QP.
	e2e_flows "0 2 0 ${CC_SWITCH_ITERS:-400} 65536" >"$OUT_DIR/switch-flow0.log" 2>&1 &
	pid=$!
	read -r q a0 < <(wait_qp rxe_h0) || put "switch_noqp rxe_h0"
	knob algorithm acc
	sleep 0.5
	# The same QP, by number: a dump that misses it is kept and read again.
	for i in 1 2 3 4 5; do
		a1=$(qp_attr rxe_h0 cc_algorithm "" "$q")
		[ -n "$a1" ] && break
		misses=$i
		rdma -dd res show qp link rxe_h0/1 >"$OUT_DIR/switch-res-miss-$i.txt" 2>&1
		sleep 0.2
	done
	[ "$misses" -gt 0 ] && put "switch_old_qp_misses $misses"
	rdma -dd res show qp link rxe_h0/1 >"$OUT_DIR/switch-res-old.txt" 2>&1
	put "switch_old_qp lqpn=${q:-none} before=${a0:-none} after=${a1:-none} rate_bps=$(qp_attr rxe_h0 cc_rate_bps "" "$q")"
	wait "$pid"
	rc=$?
	cp "$OUT_DIR/flows.tsv" "$OUT_DIR/switch-flows-old.tsv"
	put "switch_old_flow_rc $rc"
	e2e_flows "1 2 0 ${CC_SWITCH_ITERS2:-60} 65536" >"$OUT_DIR/switch-flow1.log" 2>&1 &
	pid=$!
	read -r q a_new < <(wait_qp rxe_h1) || put "switch_noqp rxe_h1"
	rdma -dd res show qp link rxe_h1/1 >"$OUT_DIR/switch-res-new.txt" 2>&1
	put "switch_new_qp algo=${a_new:-none}"
	wait "$pid"
	put "switch_new_flow_rc $?"
	RXE_PIDS=()
}

# kill:ALGO:WHAT - QPs destroyed by kill -9 while paced or halted.
phase_kill() {
	local algo=$1 what=$2 pids=() k dst sgid cgid i hit=0 p st dev line
	knob algorithm "$algo"
	knob line_rate_mbps "${E2E_LINE_MBPS:-20}"
	[ "$what" = paced ] && knob line_rate_mbps "${CC_PACED_MBPS:-5}"
	# The phase tests teardown while halted, not the increase rule: the
	# ramp to C halts several times a second, the gated probe rarely.
	[ "$what" = halt ] && knob acc_gate 0
	[ -f "$OUT_DIR/trace.txt" ] && mv "$OUT_DIR/trace.txt" "$OUT_DIR/trace.keep"
	e2e_trace_start
	for k in 0 1; do
		sgid=$(rxe_gid_index rxe_h2 10.0.0.3) || fail "gid"
		ip netns exec h2 ib_write_bw -d rxe_h2 -x "$sgid" -p $((18600 + k)) \
			-n 100000 -s 65536 --tclass 104 -F >"$OUT_DIR/kill-$k.server.txt" 2>&1 &
		pids+=($!)
	done
	for k in 0 1; do
		e2e_wait_listen h2 $((18600 + k)) || fail "kill: server $k"
		cgid=$(rxe_gid_index "rxe_h$k" "10.0.0.$((k + 1))") || fail "gid"
		ip netns exec "h$k" ib_write_bw -d "rxe_h$k" -x "$cgid" -p $((18600 + k)) \
			-n 100000 -s 65536 --tclass 104 -F 10.0.0.3 >"$OUT_DIR/kill-$k.client.txt" 2>&1 &
		pids+=($!)
	done
	wait_qp rxe_h0 >/dev/null && wait_qp rxe_h1 >/dev/null || put "kill_noqp"
	echo "# cc-guest: kill: QPs up"
	sleep "${CC_KILL_AFTER:-2}"
	if [ "$what" = halt ]; then
		# Sampled: a halt lasts ~3 ms, 6 % of the time per QP in the
		# 2:1 incast, and one rdma call takes a TCG guest a good part
		# of a second under this load.  20 s of polling missed once in
		# 17 runs (25 November, 1019 halts in the window); 60 s would
		# need that miss three times over.
		local until=$((SECONDS + ${CC_HALT_WAIT_S:-60}))
		while [ $SECONDS -lt $until ]; do
			for dev in rxe_h0 rxe_h1; do
				[ "$(qp_attr "$dev" acc_halted)" = 1 ] && { hit=1; break 2; }
			done
		done
	else
		line=$(qp_attr rxe_h0 cc_rate_bps)
		[ -n "$line" ] && [ "$line" -gt 0 ] && [ "$line" -le 5000000 ] && hit=1
	fi
	rdma -dd res show qp >"$OUT_DIR/kill-res.txt" 2>&1
	# Every perftest process is still running (else the QPs are gone).
	st=0
	for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || st=$((st + 1)); done
	echo "# cc-guest: kill: kill -9 ${pids[*]}"
	kill -9 "${pids[@]}" 2>/dev/null
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
	put "kill_state $what hit=$hit ${dev:+dev=$dev} exited_early=$st"
	e2e_trace_stop
	mv "$OUT_DIR/trace.txt" "$OUT_DIR/trace-kill.txt"
	[ -f "$OUT_DIR/trace.keep" ] && mv "$OUT_DIR/trace.keep" "$OUT_DIR/trace.txt"
	e2e_counters killed
	sleep 0.2
	for dev in "${E2E_DEVS[@]}"; do
		echo "# cc-guest: kill: rdma link delete $dev"
		timeout 60 rdma link delete "$dev" || put "kill_linkdel_fail $dev $?"
	done
	RXE_LINKS=()
	put "kill_links_left $(rdma link show 2>/dev/null | grep -c rxe)"
	echo "# cc-guest: kill: rmmod rdma_rxe"
	timeout 60 rmmod rdma_rxe
	put "kill_rmmod $?"
	put "kill_module_left $(grep -c '^rdma_rxe ' /proc/modules)"
}

e2e_hosts || fail "build hosts from NICs '$VM_NICS'"
echo "# cc-guest: hosts ${E2E_DEVS[*]} up"
e2e_cc_setup dcqcn
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "cc setup"
for ph in "$@"; do
	echo "# cc-guest: phase $ph"
	IFS=: read -r name a b <<<"$ph"
	case "$name" in
	algo) knob algorithm "$a" ;;
	flows) phase_flows "$a" ;;
	knob)
		echo "${b#*=}" >"$(e2e_knob_file "$a" "${b%%=*}")" || fail "$a: $b"
		put "knob $a $b" ;;
	minrate) phase_minrate "$a" ;;
	badknobs) phase_badknobs ;;
	switch) phase_switch ;;
	kill) phase_kill "$a" "$b" ;;
	*) fail "unknown phase $ph" ;;
	esac
done
rxe_dmesg_clean || put "dmesg_splat 1"
echo "# cc-guest: ok"

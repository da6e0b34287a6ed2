#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A CC QP forced into ERROR stops its CC timers.  rc-mix (selftests/verbs)
# WRITEs without end from rxb to rxa at a 5 Mb/s line rate (single-packet
# WRITEs, ACK timeout 34 s: queueing and TCG stalls must not cause
# retries) into a 100 kb/s queue on rxb's egress, below ACC's 1 Mb/s
# floor, and every packet it sends leaves CE-marked (tc pedit), so the QP
# is paced low and, with ACC, halts again and again.  Once the QP is paced (DCQCN:
# cut below the line rate by a CNP; ACC: halted), rc-mix moves it to
# ERROR with ibv_modify_qp and writes a trace marker right after; the QP
# then stays in ERROR for HOLD_S seconds before it is destroyed.
#   * at the marker the QP was paced (DCQCN: cut below its line rate) and
#     halted (ACC: its last rate event says 0);
#   * after the marker, no rxe_cc_period or rxe_cc_rate event of that QP;
#   * the flushed work completes, no splat.
# Runs in the test VM: make -C selftests/verbs && selftests/rxe/vm-suite cc-error.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/../lib/rc-mix.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

HOLD_S=${HOLD_S:-2}
LINE_MBPS=5
T=/sys/kernel/tracing

ktap_header "a CC QP forced into ERROR stops its timers" 9

# The marker must be reachable from rc-mix inside "ip netns exec", which
# mounts a /sys of its own: tracefs once more under /tmp.  A trace
# instance feeds signal_when_paced without eating the main buffer.
# rxb's egress drains at BOTTLENECK_KBIT (tbf), below ACC's rate floor: a
# queue builds, so that an ACC halt lasts (with the pipe drained it ends
# on the next ACK, within microseconds).  The bucket holds one packet
# (BURST_B): a bucket of 4 KB let the first ACKs come four packets at a
# time, ACC read r = 0.9 Mb/s off them and halted for excess / r, 357 ms
# in one run, which ended 7 ms before the signal landed.  At the tbf's
# pace r reads ~0.2 Mb/s, and excess / r (seconds) meets acc_halt_max_us.
MARKER_FS=/tmp/cc-error-tracefs
INST=$T/instances/cc-error
BOTTLENECK_KBIT=100
BURST_B=1600
setup() {
	mix_topology 1500 && rxe_mark_ce rxb vb && rxe_tracefs &&
	ip netns exec rxb tc qdisc add dev vb root tbf rate ${BOTTLENECK_KBIT}kbit \
		burst $BURST_B limit 1mb &&
	mkdir -p $MARKER_FS && mount -t tracefs nodev $MARKER_FS && mkdir -p $INST
}
if [ -x "$MIX_BIN" ] && setup; then
	ktap_pass "two namespaces, CE on everything rxb sends, a $BOTTLENECK_KBIT kb/s queue, rxe_cc trace events"
else
	ktap_fail "two namespaces, CE on everything rxb sends, a queue, rxe_cc trace events (rc-mix: $MIX_BIN)"
	exit 1
fi

# signal_when_paced ALGO QPN: SIGUSR2 to the client (ERROR) the moment
# its QP starts a halt of 800 ms or more (ACC: rxe_cc_halt) or is cut by
# a CNP (DCQCN: rxe_cc_rate why=cnp).  Here an ACC halt lasts its
# acc_halt_max_us (the queue drains for seconds; see BURST_B): the events
# come from a trace instance of their own, read by bash builtins (no fork
# between the event and the signal).
signal_when_paced() {
	local line want
	if [ "$1" = acc ]; then
		want="rxe_cc_halt: dev=rxe_b qpn=$2 "
	else
		want="rxe_cc_rate: dev=rxe_b qpn=$2 *why=cnp"
	fi
	while IFS= read -r -t 20 line; do
		# shellcheck disable=SC2053 # $want is a glob on purpose
		[[ $line == *$want* ]] || continue
		# The signal lands 100-370 ms after the event (trace_pipe
		# wake-up and the client's signal handling under TCG): a halt
		# of 800 ms or more.
		[[ $1 == dcqcn || ${line##*t_halt_ns=} -ge 800000000 ]] || continue
		kill -USR2 "$MIX_CLI_PID"
		return 0
	done <"$INST/trace_pipe"
	kill -USR2 "$MIX_CLI_PID"
	return 1
}

# trace_figures QPN: from the trace, for rxe_b's QPN: the marker seen
# (MARK), its rate events and periods before it (PRE_RATE, PRE_PERIOD),
# the last rate before it (LAST_BPS) and every event after it (POST).
trace_figures() {
	# (no process substitution: the VM has no /dev/fd)
	read -r MARK PRE_RATE PRE_PERIOD LAST_BPS POST <<<"$(awk -v q="$1" '
		/tracing_mark_write: rc-mix: qpn=/ && $0 ~ ("qpn=" q " error") { m = 1; next }
		!/dev=rxe_b / || $0 !~ (" qpn=" q " ") { next }
		/rxe_cc_rate:|rxe_cc_period:/ {
			if (m) { post++; next }
			if (/rxe_cc_rate:/) {
				pr++
				for (i = 1; i <= NF; i++) if ($i ~ /^new_bps=/) last = substr($i, 9)
			} else pp++
		}
		END { print m + 0, pr + 0, pp + 0, (last == "" ? -1 : last), post + 0 }' "$2")"
}

knobs() { # NAME=VALUE...: on both devices, in order
	local kv
	for kv; do
		rxe_cc_both "${kv%%=*}" "${kv#*=}" || return 1
	done
}

error_case() {
	local algo=$1 qpn ok=0 flushed=0 d=${OUT_DIR:-/tmp}/$1
	MIX_DIR=$d
	mkdir -p "$d"
	# halt_max first: the period may not exceed it.
	# ACC: T = 100 ms, an ACK or two a period at the bottleneck's pace,
	# halts of up to 1 s that outlast the drain.
	# DCQCN: one cut per ms, no byte-counter recovery, a 10 ms increase
	# timer: CNPs on every packet keep the QP below its line rate, and its
	# recovery timer has work to do.
	if ! knobs algorithm="$algo" line_rate_mbps="$LINE_MBPS" acc_halt_max_us=1000000 \
		acc_period_us=100000 rpg_byte_reset=0 rpg_time_reset=10000 dce_tcp_rtt=1000 \
		rate_reduce_monitor_period=1000 rpg_ai_rate_kbps=1000 rpg_hai_rate_kbps=2000; then
		for c in "paced at ERROR" "no CC event after ERROR" "flushed" "no splat"; do
			ktap_fail "$algo: $c (knobs refused)"
		done
		return
	fi
	echo 0 >$T/tracing_on
	: >$T/trace
	echo 1 >$T/events/rxe_cc/enable
	echo 0 >$T/events/rxe_cc/rxe_cc_ack/enable
	echo 1 >$T/tracing_on
	: >"$INST/trace"
	echo 1 >"$INST/events/rxe_cc/rxe_cc_halt/enable"
	echo 1 >"$INST/events/rxe_cc/rxe_cc_rate/enable"
	if mix_server rxa 10.10.0.1 -T 60; then
		mix_client rxb 10.10.0.1 -E -T 60 -a 23 -R 0 -w 64 -W 1024 \
			-M "$MARKER_FS/trace_marker"
		if mix_wait cli "^rc-mix: connected" 10; then
			qpn=$(mix_field cli qpn)
			signal_when_paced "$algo" "$qpn" && ok=1
			mix_wait cli "^rc-mix: held-in-error" 10 && flushed=1
			sleep "$HOLD_S"
		fi
	fi
	mix_end
	echo 0 >$T/tracing_on
	echo 0 >$T/events/rxe_cc/enable
	cp $T/trace "$d/trace.txt"
	trace_figures "${qpn:-x}" "$d/trace.txt"
	ktap_diag "$algo: qpn ${qpn:-?}, paced when signalled: $ok; before the marker: $PRE_RATE rate events, $PRE_PERIOD periods, last rate $LAST_BPS b/s; after: $POST events in ${HOLD_S} s in ERROR"
	if [ "$algo" = acc ]; then
		ktap_check "$algo: at the ERROR transition the QP was halted (last rate $LAST_BPS b/s)" \
			test "$MARK" = 1 -a "$LAST_BPS" = 0
	else
		ktap_check "$algo: at the ERROR transition the QP was paced below its ${LINE_MBPS} Mb/s (last rate $LAST_BPS b/s)" \
			test "$MARK" = 1 -a "$LAST_BPS" -ge 0 -a "$LAST_BPS" -lt $((LINE_MBPS * 1000000))
	fi
	ktap_check "$algo: no rxe_cc_period/rxe_cc_rate event of the QP after ERROR ($POST in ${HOLD_S} s)" \
		test "$MARK" = 1 -a "$POST" = 0
	ktap_check "$algo: the flushed work completes, rc-mix exits 0 (exit ${MIX_CLI_RC:-?})" \
		test "$flushed" = 1 -a "$MIX_CLI_RC" = 0
	ktap_check "$algo: no splat" rxe_dmesg_clean
}

error_case acc
error_case dcqcn

ktap_finish

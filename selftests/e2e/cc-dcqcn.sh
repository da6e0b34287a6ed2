#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/cc-dcqcn.sh: DCQCN on the lsw test bed (host side, TAP).
# lsw ports at 20 Mb/s (the 1-vCPU VM keeps up; see eval/README.md),
# cc/line_rate_mbps 20.  DCQCN runs the "mlx5 defaults, ratios preserved"
# preset and its switch marking (RED from K = 1.5 BDP to min(2 K, 0.9 XOFF)),
# both computed by eval/scaling.py, the one source of these numbers
# (Documentation/rxe-acc/scaling.rst).  Five VM runs (dcqcn three times):
#   none   2:1 incast h0,h1 -> h2 started together, algorithm none, the
#          same lsw RED: lsw sees no ECT/CE packet, no CNP is sent (the PFC
#          baseline);
#   dcqcn  the same with DCQCN: fair shares (+-20 % of the fair share, each
#          flow's mean over the window where both send, lsw bytes; the
#          median of three runs), CNPs
#          sent and handled (sum over the senders = np_cnp_sent), fewer PFC
#          pause frames than with none;
#   phases (cc-phases-guest.sh, lsw RED with Kmin 1 KB, Kmax 4 KB, Pmax 1:
#          CNPs flood) rpg_min_rate=12 holds every sender's rate >= 12 Mb/s
#          (rxe_cc_rate new_bps) where the default 1 lets it fall below;
#          out-of-range knob writes fail and keep the old value; changing the
#          device algorithm dcqcn -> acc under a running DCQCN QP leaves that
#          QP on dcqcn (rdma -dd res) and its flow completes, a later QP gets
#          acc; QPs paced at 5 Mb/s destroyed by kill -9, devices deleted,
#          rmmod rdma_rxe: succeeds, no splat.
# Results stay in build/results/cc-dcqcn/{none,dcqcn,dcqcn-[23],phases}/.  ~3 min.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
metrics=$E2E_TOP/eval/metrics.py
res=$E2E_RESULTS/cc-dcqcn
rate=${CC_RATE:-20Mbps}
line=${rate%Mbps}
iters=${CC_ITERS:-100}
export E2E_RATE=$rate E2E_LINE_MBPS=$line E2E_TIMEOUT=200
export E2E_ENV="E2E_ALGO E2E_FLOWS E2E_LINE_MBPS E2E_CC_KNOBS"
# The scaled preset (eval/scaling.py knobs mlx5): every time x RTT ratio,
# every rate x line ratio, bytes x BDP ratio.  The unscaled mlx5 defaults
# are inert at this rate (the rate recovers between CNPs: PFC as with none).
scaling="python3 $E2E_TOP/eval/scaling.py"
export E2E_HOST_SW="s1 s1 s1"
knobs=$($scaling knobs mlx5 --line-bps "${line}e6") || exit 1
marking=$($scaling lsw mlx5 --line-bps "${line}e6") || exit 1
export E2E_CC_KNOBS=${CC_KNOBS_DCQCN:-$knobs}

ktap_header "DCQCN on the lsw test bed ($rate per port)" 16
rm -rf "$res"
mkdir -p "$res"
t0=$(date +%s)

. "$here/lib-checks.sh"

# run NAME ALGO MARKING GUEST [ARGS]: one VM run (+ metrics for flow runs).
run() {
	local name=$1 d=$res/$1 rc
	shift
	E2E_ALGO=$1 E2E_MARKING=$2 e2e_run "$d" "${@:3}" >"$d.log" 2>&1
	rc=$?
	grep -E '^# (e2e-guest|cc-guest|flow|SKIP)' "$d.log" | sed "s/^# /# $name: /"
	if [ $rc -eq 77 ]; then
		ktap_diag "$name: SKIP: $(grep -m1 '^# SKIP' "$d.log")"
		return 77
	fi
	if [ $rc -ne 0 ]; then
		ktap_diag "$name: failed at '$E2E_STEP' (exit $rc), log $d.log"
		tail -n 8 "$d.log" | sed 's/^/# /'
		return 1
	fi
	[ "$3" = "$here/guest-flows.sh" ] || return 0
	python3 "$metrics" analyse "$d" --bottleneck s1:h2 >/dev/null 2>"$d.metrics.err" || {
		ktap_diag "$name: metrics failed: $(tail -n 1 "$d.metrics.err")"
		return 1
	}
}

flows="0 2 0 $iters 65536; 1 2 0 $iters 65536"
ktap_diag "knobs (scaling.py knobs mlx5): $E2E_CC_KNOBS"
ktap_diag "marking (scaling.py lsw mlx5): $(tr "\n" " " <<<"$marking")"
E2E_LSW_EXTRA=$marking E2E_FLOWS=$flows run none none red "$here/guest-flows.sh"
rn=$?
E2E_LSW_EXTRA=$marking E2E_FLOWS=$flows run dcqcn dcqcn red "$here/guest-flows.sh"
rd=$?
# Two more DCQCN runs for the fairness check alone: over a ~4.5 s window
# one run's shares swing by up to ~30 % (DCQCN converges over many rate
# increase cycles), so the median run decides.
for i in 2 3; do
	E2E_LSW_EXTRA=$marking E2E_FLOWS=$flows run dcqcn-$i dcqcn red "$here/guest-flows.sh"
done
dcqcn_runs=(dcqcn dcqcn-2 dcqcn-3)
E2E_LSW_EXTRA=$(printf 'red_kmin 1000\nred_kmax 4000\nred_pmax 1.0') \
	run phases dcqcn red "$here/cc-phases-guest.sh" \
	minrate:${CC_MINRATE:-12} minrate:1 badknobs switch kill:dcqcn:paced
rp=$?

# --- (a) none: the baseline --------------------------------------------
d=$res/none
if [ $rn -eq 0 ]; then
	e=$(($(get "$d" ect0_in) + $(get "$d" ect1_in) + $(get "$d" ce_in)))
	c=$(hw "$d" np_cnp_sent)
	ktap_diag "none: PFC frames $(get "$d" pfc_tx) (XOFF $(get "$d" xoff_tx)), util $(f2 "$(get "$d" utilisation)"), queue mean $(get "$d" queue_mean_bytes | cut -d. -f1) B, flows $(f2 "$(get "$d" flows.0.window_mbps)") / $(f2 "$(get "$d" flows.1.window_mbps)") Mb/s"
	ktap_check "none: both flows complete" [ "$(get "$d" perftest_failed)" = 0 ]
	ktap_check "none: lsw saw no ECT/CE packet ($e) and no CNP was sent ($c)" \
		[ "$e" = 0 -a "$c" = 0 ]
else
	ktap_fail "none: both flows complete (run failed)"
	ktap_fail "none: no ECT/CE, no CNP (run failed)"
fi

# --- (a) dcqcn ------------------------------------------------------------
d=$res/dcqcn
if [ $rd -eq 0 ]; then
	ktap_check "dcqcn: both flows complete" [ "$(get "$d" perftest_failed)" = 0 ]
	# spread RUN: the worse flow's distance from the fair share, in % of it.
	spread() {
		local a b
		a=$(get "$res/$1" flows.0.window_mbps 2>/dev/null) || return 1
		b=$(get "$res/$1" flows.1.window_mbps 2>/dev/null) || return 1
		awk -v a="$a" -v b="$b" 'BEGIN {f = (a + b) / 2; d = a - f; if (d < 0) d = -d
			if (f <= 0) exit 1; printf "%.1f %.2f %.2f %.2f\n", 100 * d / f, a, b, f}'
	}
	sps=()
	for n in "${dcqcn_runs[@]}"; do
		read -r sp a b f < <(spread "$n") || continue
		ktap_diag "dcqcn: run $n: flows $a / $b Mb/s, fair share $f, worse flow $sp % off, Jain $(get "$res/$n" jain), queue mean $(get "$res/$n" queue_mean_bytes | cut -d. -f1) B"
		sps+=("$sp")
	done
	nr=${#sps[@]}
	med=$(median "${sps[@]}")
	ktap_diag "dcqcn: window $(f2 "$(get "$d" window_s)") s, util $(f2 "$(get "$d" utilisation)"), CE marks $(get "$d" ce_marks) (run dcqcn)"
	ktap_check "dcqcn: both flows within +-20 % of the fair share, median of $nr runs ($med % off)" \
		eval '[ "$nr" -ge 2 ] && within "$med" 0 20'
	# The increase timer (rpg_time_reset) must run while a cut sender
	# waits for pacer credit: at a rate near the floor its next packet,
	# the next event otherwise, is seconds away.  The longest gap between
	# two rate events of one sender below the line rate, over the runs.
	gap=$(for n in "${dcqcn_runs[@]}"; do
		[ -f "$res/$n/cc-rate.dat" ] && sed "s/^/$n /" "$res/$n/cc-rate.dat"
	done | awk -v line="$line" '$2 !~ /^#/ && NF >= 4 {
		k = $1 " " $3
		if ((k in t) && r[k] < line && $2 - t[k] > g) g = $2 - t[k]
		t[k] = $2; r[k] = $4 } END { printf "%.3f\n", g + 0 }')
	tr_us=$(echo "$knobs" | tr ' ' '\n' | sed -n 's/^rpg_time_reset=//p')
	ktap_check "dcqcn: a cut sender's rate moves at least every 0.5 s while it sends (longest gap $gap s; the increase timer every $tr_us us)" \
		awk -v g="$gap" 'BEGIN { exit !(g > 0 && g <= 0.5) }'
	cs=$(hw "$d" np_cnp_sent) ch=$(hw "$d" rp_cnp_handled) ci=$(hw "$d" rp_cnp_ignored)
	ktap_diag "dcqcn: np_cnp_sent $cs (rxe_h2), rp_cnp_handled $ch = $(hw "$d" rp_cnp_handled rxe_h0) + $(hw "$d" rp_cnp_handled rxe_h1), rp_cnp_ignored $ci, np_ecn_marked_roce_packets $(hw "$d" np_ecn_marked_roce_packets)"
	ktap_check "dcqcn: CNPs sent ($cs) and handled ($ch, ignored $ci; handled + ignored within 2 % of sent)" \
		eval '[ "$cs" -gt 0 ] && [ "$ch" -gt 0 ] && within "$((ch + ci))" "$((cs * 98 / 100))" "$cs"'
	if [ $rn -eq 0 ]; then
		pn=$(get "$res/none" pfc_tx) pd=$(get "$d" pfc_tx)
		ktap_check "dcqcn: fewer PFC pause frames than none ($pd vs $pn)" [ "$pd" -lt "$pn" ]
	else
		ktap_fail "dcqcn: fewer PFC pause frames than none (no baseline)"
	fi
else
	for c in "both flows complete" "fair shares" "CNPs sent and handled" "fewer PFC pauses"; do
		ktap_fail "dcqcn: $c (run failed)"
	done
fi

# --- (b) (c) (d) phases ----------------------------------------------------
d=$res/phases
r=$d/results.txt
[ -f "$r" ] || : >"$r"
val() { keyval "$r" "$1"; }
# minbps TRACE: the lowest new_bps of the senders' (rxe_h0, rxe_h1) rate events.
minbps() {
	[ -f "$1" ] || { echo -1; return; }
	awk '/rxe_cc_rate:/ && /dev=rxe_h[01] / {
		for (i = 1; i <= NF; i++) if ($i ~ /^new_bps=/) {v = substr($i, 9) + 0; if (n++ == 0 || v < m) m = v}
	} END {print n ? m : -1}' "$1"
}
mr=${CC_MINRATE:-12}
m12=$(minbps "$d/trace-minrate-$mr.txt") m1=$(minbps "$d/trace-minrate-1.txt")
# The flood: CNPs the senders handled (a cut at the floor changes nothing
# and logs no rate event).
n12=$(grep -c 'rxe_cc_cnp:.*what=handled' "$d/trace-minrate-$mr.txt" 2>/dev/null)
n1=$(grep -c 'rxe_cc_cnp:.*what=handled' "$d/trace-minrate-1.txt" 2>/dev/null)
ktap_diag "phases: lowest sender rate $(f2 "$(awk -v x="$m12" 'BEGIN {print x / 1e6}')") Mb/s with rpg_min_rate=$mr ($n12 CNPs handled), $(f2 "$(awk -v x="$m1" 'BEGIN {print x / 1e6}')") Mb/s with rpg_min_rate=1 ($n1 CNPs handled)"
ktap_check "rpg_min_rate=$mr: no sender rate below ${mr} Mb/s under a CNP flood ($n12 CNPs handled, min $m12 b/s)" \
	eval '[ "$n12" -gt 100 ] && ge "$m12" "${mr}000000"'
ktap_check "rpg_min_rate=1 (same flows): the rate does fall below ${mr} Mb/s (min $m1 b/s)" \
	eval '[ "$n1" -gt 100 ] && [ "$m1" -ge 0 ] && lt "$m1" "${mr}000000"'
bad=0 nb=0
while read -r _ name v rc old new; do
	nb=$((nb + 1))
	if [ "$name" = rpg_min_rate_kbps ] && [ "$v" -gt "$((line * 1000))" ] 2>/dev/null; then
		# Documented, not asserted: the DCQCN validator bounds the floor
		# by its own line rate, not by the device's cc/line_rate_mbps.
		ktap_diag "note: rpg_min_rate_kbps=$v with line_rate_mbps=$line: write status $rc, value $old -> $new"
		nb=$((nb - 1))
		continue
	fi
	ktap_diag "bad knob $name=$v: write status $rc, value $old -> $new"
	[ "$rc" != 0 ] && [ "$old" = "$new" ] || bad=$((bad + 1))
done < <(grep '^bad ' "$r")
ktap_check "out-of-range knob writes fail and keep the old value ($nb values, $bad accepted)" \
	[ "$nb" -ge 6 -a "$bad" = 0 ]
ktap_diag "phases: $(val switch_old_qp); $(val switch_new_qp)"
ktap_check "algorithm dcqcn -> acc under a running QP: it stays dcqcn ($(val switch_old_qp))" \
	eval '[[ "$(val switch_old_qp)" == *"before=dcqcn after=dcqcn "* ]]'
ktap_check "that DCQCN flow completes (perftest exit $(val switch_old_flow_rc))" [ "$(val switch_old_flow_rc)" = 0 ]
ktap_check "a QP created after the switch runs acc ($(val switch_new_qp), flow exit $(val switch_new_flow_rc))" \
	[ "$(val switch_new_qp)" = "algo=acc" -a "$(val switch_new_flow_rc)" = 0 ]
ktap_diag "phases: unload: $(val kill_state); links left $(val kill_links_left); rmmod exit $(val kill_rmmod); module left $(val kill_module_left); rate events $(grep -c rxe_cc_rate "$d/trace-kill.txt" 2>/dev/null)"
ktap_check "QPs paced at ${CC_PACED_MBPS:-5} Mb/s and running when killed ($(val kill_state))" \
	eval '[[ "$(val kill_state)" == "paced hit=1 "*"exited_early=0" ]]'
ktap_check "kill -9, rdma link delete, rmmod rdma_rxe: succeeds (rmmod exit $(val kill_rmmod), links left $(val kill_links_left), module left $(val kill_module_left))" \
	[ "$(val kill_rmmod)" = 0 -a "$(val kill_links_left)" = 0 -a "$(val kill_module_left)" = 0 -a $rp -eq 0 ]
ktap_check "no splat in the guest kernel logs (unload included)" splats "$res" none "${dcqcn_runs[@]}" phases
ktap_diag "wall time $(($(date +%s) - t0)) s"
ktap_finish

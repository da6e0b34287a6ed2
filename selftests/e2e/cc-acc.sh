#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/cc-acc.sh: ACC on the lsw test bed (host side, TAP).
# lsw ports at 20 Mb/s, TCD threshold K = 4 KB (~4 MTU: the 15 KB default
# is sized for faster links), cc/line_rate_mbps 20.  ACC knobs for this bed:
# T = acc_period_us = 4 ms (2-3 base RTTs in the VM, ~5 ACKs per period at
# the fair share; the 50 us default is for 100 Gb/s), theta_CE = 75 % (with
# ~5 ACKs a period, and TCD's trend rule reporting NO for a 0.5 ms TCD
# period whenever a burst ends, 90 % would ask every ACK to be CE),
# acc_halt_max_us = 8 T.
# Eight VM runs:
#   acc     2:1 incast h0 -> h2, h1 -> h2 one second later, lsw TCD, 1 ms
#           samples, CC_ACC_RUNS times (default 5: acc, acc-2 ... acc-5).
#           Figures from acc_figures.py (definitions there): both QPs
#           halted within 3 T of the onset (the second flow's first
#           packet, rxe_cc_first_send on the trace clock); the rate R each
#           resumed at after that halt (its ACK rate r, refined by the
#           halt's ACKs) within +-10 % of the fair share (line / 2); the
#           bottleneck queue drains below 2 MTU in the halt while
#           utilisation stays >= 90 %; utilisation after; PFC pauses;
#           after the onset at most 10 halts per second per flow (the
#           limit cycle of the old ramp to C made 20-40), and each QP's
#           paced rate R within +-10 % of the fair share at least 80 %
#           of the time after its first halt.
#           One first halt is one sample of the VM's timing: R rests on
#           10-20 ACKs, and 3 of 43 runs read R more than 10 % off
#           (host stalls of lsw, QPs halting 3 ms apart).  So these checks
#           hold the median of the runs' figures, and every run's figures
#           are printed; completion and PFC hold in every run.  The
#           first halt within 3 T, R at its resume and R in the band
#           80 % of the time are known failures at the head (TODO checks,
#           acc.rst "Open: the rates of a 2:1 incast"), and so is the
#           utilisation through that halt ("Open: the link through the
#           first halt");
#   dcqcn   the same flows with DCQCN and lsw RED, DCQCN's default (mlx5)
#           knobs: the PFC pause baseline of the same run;
#   ecn     ACC with lsw RED (CE only, no UE): halts, completion, fairness;
#   victim  two switches, h0, h1 on s1 and h2..h5 on s2.  The congested
#           flow h0 -> h2 (no CC, h0's link at 10 Mb/s) and the victim
#           h1 -> h5 (ACC, cc line rate 8 Mb/s) share s1's port to s2, which
#           never congests by itself (18 of 20 Mb/s).  h2's link runs at
#           8 Mb/s: the congested flow fills s2:h2, and s2 pauses s1's
#           port, which goes ON-OFF.  (Bursts into a 20 Mb/s h2 made s2:h2
#           a bottleneck only as fast as the guest's CPU let them: a fresh
#           clone's slower guest offered it 10 Mb/s in all, sent no PFC
#           frame, and the victim saw no UE, in two CI runs of two.)
#           The victim sees UE, not CE, and cuts its rate only after more
#           than p_thresh consecutive victim periods (cuts at the close of
#           a period with CE are ACC's answer to CE, counted apart).  TCD
#           K is lsw's 15 KB default here: s1:s2 runs at 90 % load, and
#           the TCG senders' bursts alone take its queue past K = 4 KB
#           (4 packets) and mark CE (the congested flow has no CC, so K
#           matters only to the victim's path).  (An ACC congested
#           flow drains its own share of the queue and rarely lets s2 pause
#           s1 at all: the congested flow runs without CC on purpose.)
#           Then QPs destroyed (kill -9) while one is halted, devices
#           deleted, rmmod.
# CC_ACC_ONLY=victim runs the victim case alone (its 7 checks), to repeat
# it; CC_ACC_ONLY=incast the ACC incast runs alone (their 10 checks and the
# splat check), to measure a change to ACC.  Results stay in
# build/results/cc-acc/*/.  ~9 min.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
metrics=$E2E_TOP/eval/metrics.py
res=$E2E_RESULTS/cc-acc
rate=${CC_RATE:-20Mbps}
line=${rate%Mbps}
# 200 x 64 KB: 5 s for a flow alone, 10 s at the share.  The first flow
# sends twice as much, so that the two still overlap when the second one
# starts seconds late: the guest has one vCPU, and beside a running flow
# (its perftest polling at nice 19, rxe's softirqs) a joining perftest
# took 0.2-3.7 s of start-up (process, device, TCP exchange) on this
# host, and in one CI run more than the first flow's 5 s, so that the two
# never overlapped.  Now a start up to 4 s late keeps the 10 s overlap.
iters=${CC_ITERS:-200}
acc_runs=${CC_ACC_RUNS:-5}
[ "$acc_runs" -ge 1 ] 2>/dev/null && [ $((acc_runs % 2)) -eq 1 ] ||
	{ echo "cc-acc.sh: CC_ACC_RUNS must be an odd count, not '$acc_runs'" >&2; exit 2; }
period_us=${CC_ACC_PERIOD_US:-4000}
conv_max=${CC_CONV_MAX_PERIODS:-3}
acc_knobs="acc_halt_max_us=$((8 * period_us)) acc_period_us=$period_us acc_theta_ce_pct=${CC_ACC_THETA_PCT:-75} ${CC_KNOBS_ACC:-}"
tcd="tcd_threshold ${CC_TCD_THRESHOLD:-4KB}"
export E2E_RATE=$rate E2E_LINE_MBPS=$line E2E_TIMEOUT=200 E2E_FLOW_TIMEOUT=90
export E2E_ENV="E2E_ALGO E2E_FLOWS E2E_LINE_MBPS E2E_CC_KNOBS E2E_FLOW_TIMEOUT"

only=${CC_ACC_ONLY:-}
case "$only" in
'') ntests=21 ;;
victim) ntests=7 ;;
incast) ntests=11 ;;
*) echo "cc-acc.sh: CC_ACC_ONLY must be empty, 'victim' or 'incast', not '$only'" >&2; exit 2 ;;
esac
ktap_header "ACC on the lsw test bed ($rate per port, T = $period_us us)" "$ntests"
rm -rf "$res"
mkdir -p "$res"
t0=$(date +%s)

. "$here/lib-checks.sh"

# run NAME ALGO MARKING BOTTLENECK GUEST [ARGS]: one VM run plus metrics.
run() {
	local name=$1 d=$res/$1 bn=$4 rc
	E2E_ALGO=$2 E2E_MARKING=$3 e2e_run "$d" "${@:5}" >"$d.log" 2>&1
	rc=$?
	grep -E '^# (e2e-guest|cc-guest|flow|SKIP)' "$d.log" | sed "s/^# /# $name: /"
	[ $rc -eq 77 ] && return 77
	if [ $rc -ne 0 ]; then
		ktap_diag "$name: failed at '$E2E_STEP' (exit $rc), log $d.log"
		tail -n 8 "$d.log" | sed 's/^/# /'
		[ -f "$d/flows.tsv" ] || return 1
	fi
	python3 "$metrics" analyse "$d" --bottleneck "$bn" >/dev/null 2>"$d.metrics.err" || {
		ktap_diag "$name: metrics failed: $(tail -n 1 "$d.metrics.err")"
		return 1
	}
	return $rc
}

flows="0 2 0 $((2 * iters)) 65536; 1 2 1 $iters 65536"
accs=() ras=() rd=1 re=1
[ "$only" = victim ] && acc_runs=0
for k in $(seq 1 "$acc_runs"); do
	n=acc
	[ "$k" -gt 1 ] && n=acc-$k
	E2E_HOST_SW="s1 s1 s1" E2E_INTERVAL=1ms E2E_LSW_EXTRA=$tcd E2E_CC_KNOBS=$acc_knobs E2E_FLOWS=$flows \
		run "$n" acc tcd s1:h2 "$here/guest-flows.sh"
	ras+=($?)
	accs+=("$n")
done
if [ -z "$only" ]; then
	E2E_HOST_SW="s1 s1 s1" E2E_CC_KNOBS=${CC_KNOBS_DCQCN:-} E2E_FLOWS=$flows \
		run dcqcn dcqcn red s1:h2 "$here/guest-flows.sh"
	rd=$?
	E2E_HOST_SW="s1 s1 s1" E2E_CC_KNOBS=$acc_knobs E2E_FLOWS="0 2 0 ${CC_ECN_ITERS:-60} 65536; 1 2 0 ${CC_ECN_ITERS:-60} 65536" \
		run ecn acc red s1:h2 "$here/guest-flows.sh"
	re=$?
fi
vi=${CC_VICTIM_ITERS:-50}
[ "$only" = incast ] || E2E_HOST_SW="s1 s1 s2 s2 s2 s2" E2E_HOST_ARGS="h0:rate=${CC_CONGESTED_RATE:-10Mbps} h2:rate=${CC_VICTIM_SINK_RATE:-8Mbps}" \
	E2E_LSW_EXTRA="tcd_threshold ${CC_VICTIM_TCD_THRESHOLD:-15KB}" E2E_CC_KNOBS=$acc_knobs \
	E2E_FLOWS="0 2 0 $vi 65536; 1 5 0 $vi 65536" \
	run victim acc tcd s2:h2 "$here/cc-phases-guest.sh" \
	algo:acc knob:rxe_h0:algorithm=none \
	knob:rxe_h1:line_rate_mbps=${CC_VICTIM_MBPS:-8} \
	flows kill:acc:halt
rv=$?

# --- (a) ACC with TCD -------------------------------------------------------
# (a) and (b): the checks of the incast runs, not run with CC_ACC_ONLY=victim
# (with CC_ACC_ONLY=incast, those of the ACC runs alone).
incast_checks() {
fig() { keyval "$d/figures.txt" "$1"; }
hps=() devs=() qs=() uds=() uas=() hfs=() tws=() pas=() done_runs=0 marks=()
for k in "${!accs[@]}"; do
	n=${accs[$k]} d=$res/${accs[$k]}
	# A figure the run could not give counts as a failing value.
	hp=99 dev=999 q=999999 ud=0 ua=0 hf=99 tw=0
	if [ "${ras[$k]}" -eq 0 ] && python3 "$here/acc_figures.py" incast "$d" "$period_us" "$line" \
		>"$d/figures.txt" 2>"$d/figures.err"; then
		hp=$(fig halt_periods) dev=$(fig r_dev_pct) q=$(fig queue_min_drain) ud=$(fig util_drain) ua=$(fig util_after)
		hp=${hp:-99} dev=${dev:-999} q=${q:-999999} ud=${ud:-0} ua=${ua:-0}
		hf=$(get "$d" halts_per_s_flow) tw=$(get "$d" trace_within_share)
		hf=${hf:-99} tw=${tw:-0}
		[ "$(get "$d" perftest_failed)" = 0 ] && done_runs=$((done_runs + 1))
		pas+=("$(get "$d" pfc_tx)")
		# marked packets h2 counted for its ACKs vs those the senders read
		marks+=("$(hw "$d" np_echo_ce_pkts rxe_h2)+$(hw "$d" np_echo_ue_pkts rxe_h2)/$(hw "$d" acc_ce_pkts "rxe_h0 rxe_h1")+$(hw "$d" acc_ue_pkts "rxe_h0 rxe_h1")")
		ktap_diag "$n: window $(f2 "$(get "$d" window_s)") s, flows $(f2 "$(get "$d" flows.0.window_mbps)") / $(f2 "$(get "$d" flows.1.window_mbps)") Mb/s, Jain $(get "$d" jain), util $(f2 "$(get "$d" utilisation)"), queue mean $(get "$d" queue_mean_bytes | cut -d. -f1) B, peak $(get "$d" queue_peak_bytes) B"
		ktap_diag "$n: halts $(hw "$d" acc_halts "rxe_h0 rxe_h1") (h0 $(hw "$d" acc_halts rxe_h0), h1 $(hw "$d" acc_halts rxe_h1)), CE ACKs $(hw "$d" acc_ce_acks), UE ACKs $(hw "$d" acc_ue_acks), lsw CE marks $(get "$d" ce_marks), PFC frames $(get "$d" pfc_tx)"
		ktap_diag "$n: first halts (ms after the onset, trace) $(fig halts_ms) (lsw silences $(fig lsw_halts_ms)): both halted at $(fig halt_ms) ms = $hp T with r = $(fig r0_mbps) Mb/s (fair $(fig fair_l1_mbps), off by up to $(f2 "$(fig r0_dev_pct)") %); both resumed at $(fig resume_ms) ms = $(fig resume_periods) T at R = $(fig r_mbps) Mb/s (off by up to $(f2 "$dev") %)"
		ktap_diag "$n: bottleneck queue: min $q B from the first halt to one T after the resume (utilisation $(f2 "$ud")); after the resume mean $(fig queue_mean_after | cut -d. -f1) B, p95 $(fig queue_p95_after) B, utilisation $(f2 "$ua")"
	elif [ "${ras[$k]}" -eq 0 ]; then
		ktap_diag "$n: figures failed: $(tail -n 1 "$d/figures.err")"
	fi
	hps+=("$hp") devs+=("$dev") qs+=("$q") uds+=("$ud") uas+=("$ua")
	hfs+=("$(f2 "$hf")") tws+=("$(f2 "$tw")")
done
hp=$(median "${hps[@]}") dev=$(median "${devs[@]}") q=$(median "${qs[@]}")
ud=$(median "${uds[@]}") ua=$(median "${uas[@]}")
of="median of $acc_runs runs"
ktap_check "acc: both flows complete in every run ($done_runs of $acc_runs runs)" [ "$done_runs" -eq "$acc_runs" ]
# Checks 2, 3 and 7 hold goals that the head misses in about half of the
# five-run medians (acc.rst, "Open: the rates of a 2:1 incast"): they run
# and print their figures as known failures (TODO), not as passes.
todo='acc.rst "Open: the rates of a 2:1 incast"'
ktap_check_todo "$todo" "acc: both QPs halted within $conv_max T of the onset ($of: $hp T; runs ${hps[*]})" \
	ge "$conv_max" "$hp"
ktap_check_todo "$todo" "acc: both QPs resumed from that halt within +-10 % of the fair share ($of: $(f2 "$dev") % off; runs $(for x in "${devs[@]}"; do printf '%s ' "$(f2 "$x")"; done)%)" \
	ge 10 "$dev"
ktap_check "acc: the bottleneck queue drains below 2 MTU (2200 B) in the first halt ($of: $q B; runs ${qs[*]} B)" \
	[ "$q" -lt 2200 ]
# Check 5 too misses its goal at the head, in two of the last six
# medians (acc.rst, "Open: the link through the first halt").
ktap_check_todo 'acc.rst "Open: the link through the first halt"' \
	"acc: utilisation >= 90 % from the first halt to one T after the resume ($of: $(f2 "$ud"); runs ${uds[*]})" ge "$ud" 0.9
ktap_check "acc: utilisation >= 90 % after the resume ($of: $(f2 "$ua"); runs ${uas[*]})" ge "$ua" 0.9
# The steady state after the first halt (eval/onset.py): halts per
# second per flow over the all-active window, and the share of the time
# each QP's paced rate R stays within +-10 % of the fair share (the
# design goal 0.8; 0.91-0.97 on 24 November, when ACC began halting on 8
# marks, 0.5-0.9 before; 0.21-0.88 in the head's runs: acc.rst, "Halting
# on 8 marks" and "Open: the rates of a 2:1 incast").
hf=$(median "${hfs[@]}") tw=$(median "${tws[@]}")
ktap_check_todo "$todo" "acc: paced rate R within +-10 % of the fair share >= 80 % of the time after the first halt ($of: $tw; runs ${tws[*]})" ge "$tw" 0.8
ktap_check "acc: at most 10 halts per second per flow after the onset ($of: $hf; runs ${hfs[*]})" ge 10 "$hf"
# Coalesced ACKs count marks: the CE and UE packets h2 counted for its
# ACKs are exactly those the senders read from them (per run: h2's
# CE+UE / the senders' CE+UE), and there were some.
marks_exact() {
	local m
	[ "${#marks[@]}" -eq "$acc_runs" ] || return 1
	for m in "${marks[@]}"; do
		[ "${m%/*}" = "${m#*/}" ] && [ "${m%%+*}" -gt 0 ] || return 1
	done
}
ktap_check "acc: the senders read every marked packet h2 counted, from coalesced ACKs (runs ${marks[*]})" marks_exact
d=$res/acc
if [ "${ras[0]}" -eq 0 ] && [ -f "$d/metrics.json" ]; then
	w0=$(get "$d" flows.0.window_mbps) w1=$(get "$d" flows.1.window_mbps) wf=$(fig window_fair_mbps)
	ktap_check "acc: long-run shares within +-20 % of their mean over the common window ($(f2 "$w0"), $(f2 "$w1") vs $(f2 "$wf") Mb/s)" \
		eval 'near "$w0" "$wf" 20 && near "$w1" "$wf" 20'
else
	ktap_fail "acc: long-run shares (run failed)"
fi
[ "$only" = incast ] && return
pa=$(printf '%s\n' "${pas[@]}" | sort -g | tail -n 1)
if [ $rd -eq 0 ] && [ "${#pas[@]}" -eq "$acc_runs" ]; then
	pd=$(get "$res/dcqcn" pfc_tx)
	ktap_diag "dcqcn (RED, same flows): PFC frames $pd, flows $(f2 "$(get "$res/dcqcn" flows.0.window_mbps)") / $(f2 "$(get "$res/dcqcn" flows.1.window_mbps)") Mb/s, util $(f2 "$(get "$res/dcqcn" utilisation)"), queue mean $(get "$res/dcqcn" queue_mean_bytes | cut -d. -f1) B, CNPs $(hw "$res/dcqcn" np_cnp_sent)"
	ktap_check "acc: fewer PFC pause frames than DCQCN with default knobs in every run (ACC at most $pa: runs ${pas[*]}; DCQCN $pd)" [ "$pa" -lt "$pd" ]
else
	ktap_fail "acc: fewer PFC pause frames than DCQCN (a run failed: DCQCN exit $rd, ACC runs with figures ${#pas[@]} of $acc_runs)"
fi

# --- (b) ECN-only fallback ---------------------------------------------------
d=$res/ecn
if [ $re -eq 0 ]; then
	h=$(hw "$d" acc_halts "rxe_h0 rxe_h1")
	w0=$(get "$d" flows.0.window_mbps) w1=$(get "$d" flows.1.window_mbps)
	fair=$(awk -v a="$w0" -v b="$w1" 'BEGIN {print (a + b) / 2}')
	ktap_diag "ecn: halts $h, CE ACKs $(hw "$d" acc_ce_acks), UE ACKs $(hw "$d" acc_ue_acks), lsw CE $(get "$d" ce_marks) UE $(get "$d" ue_marks), flows $(f2 "$w0") / $(f2 "$w1") Mb/s, util $(f2 "$(get "$d" utilisation)"), PFC $(get "$d" pfc_tx)"
	ktap_check "ecn (RED, CE only): ACC halts ($h) and sees no UE ($(hw "$d" acc_ue_acks))" \
		[ "$h" -gt 0 -a "$(hw "$d" acc_ue_acks)" = 0 ]
	ktap_check "ecn: both flows complete" [ "$(get "$d" perftest_failed)" = 0 ]
	ktap_check "ecn: both flows within +-20 % of the fair share ($(f2 "$w0"), $(f2 "$w1") vs $(f2 "$fair"))" \
		eval 'near "$w0" "$fair" 20 && near "$w1" "$fair" 20'
else
	for c in "halts" "both flows complete" "fair shares"; do ktap_fail "ecn: $c (run failed)"; done
fi

}
[ "$only" = victim ] || incast_checks

# --- (c) victim, (d) destroy during a halt ------------------------------------
victim_checks() {
d=$res/victim
r=$d/results.txt
[ -f "$r" ] || : >"$r"
val() { keyval "$r" "$1"; }
if [ -f "$d/metrics.json" ] && [ -f "$d/trace-flows.txt" ]; then
	ue=$(hw "$d" acc_ue_acks rxe_h1) ce=$(hw "$d" acc_ce_acks rxe_h1) vb=$(hw "$d" acc_victim_backoffs rxe_h1)
	pth=$(awk -F= '$1 == "acc_p_thresh" {print $2}' "$d/cc-rxe_h1.txt")
	# Victim periods of rxe_h1's QP and the rate cuts after them.
	read -r vp bad cuts ce_cuts < <(python3 "$here/acc_figures.py" victim "$d/trace-flows.txt" rxe_h1 "${pth:-3}")
	ktap_diag "victim: flows $(for i in 0 1; do printf '%s ' "$(f2 "$(get "$d" flows.$i.window_mbps)")"; done)Mb/s (congested, victim), lsw CE $(get "$d" ce_marks) UE $(get "$d" ue_marks), paused ports $(get "$d" spread_ports), PFC $(get "$d" pfc_tx), flows exit $(val flows_rc)"
	ktap_diag "victim (rxe_h1): UE ACKs $ue, CE ACKs $ce, victim periods $vp, victim backoffs $vb, rate cuts $cuts ($ce_cuts after a period with CE; $bad others before more than p_thresh=${pth:-?} victim periods)"
	ktap_check "victim: the flows complete (exit $(val flows_rc))" [ "$(val flows_rc)" = 0 ]
	ktap_check "victim: UE seen by the victim ($ue UE ACKs, $vp class=victim periods; lsw UE marks $(get "$d" ue_marks))" \
		[ "${ue:-0}" -gt 0 -a "${vp:-0}" -gt 0 ]
	ktap_check "victim: CE at the victim is small ($ce CE ACKs <= 10 % of its $ue UE ACKs)" \
		[ $((${ce:-0} * 10)) -le "${ue:-0}" ]
	ktap_check "victim: keeps its rate for p_thresh=${pth:-?} victim periods, then halves ($bad early of $cuts cuts, $ce_cuts after CE, $vb victim backoffs)" \
		[ "$bad" = 0 -a -n "$pth" -a "${vb:-0}" -gt 0 ]
else
	for c in "flows complete" "UE seen" "small CE" "keeps its rate"; do ktap_fail "victim: $c (run failed)"; done
fi
ktap_diag "victim: destroy: $(val kill_state); links left $(val kill_links_left); rmmod exit $(val kill_rmmod); module left $(val kill_module_left)"
ktap_check "QPs destroyed by kill -9 while halted ($(val kill_state))" \
	eval '[[ "$(val kill_state)" == "halt hit=1 "*"exited_early=0" ]]'
ktap_check "then rdma link delete and rmmod rdma_rxe succeed (rmmod exit $(val kill_rmmod), links left $(val kill_links_left), module left $(val kill_module_left))" \
	[ "$(val kill_rmmod)" = 0 -a "$(val kill_links_left)" = 0 -a "$(val kill_module_left)" = 0 -a $rv -eq 0 ]
}
[ "$only" = incast ] || victim_checks
runs=("${accs[@]}" dcqcn ecn victim)
[ "$only" = victim ] && runs=(victim)
[ "$only" = incast ] && runs=("${accs[@]}")
ktap_check "no splat in the guest kernel logs (unload included)" splats "$res" "${runs[@]}"
ktap_diag "wall time $(($(date +%s) - t0)) s"
ktap_finish

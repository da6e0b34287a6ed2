#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/cc-read.sh: READ incast on the lsw test bed (host side,
# TAP).  ONE host, h2, runs two ib_read_bw clients that read from h0 and
# h1 at once: the READ responses of both servers converge on lsw's port to
# h2 (the 2:1 bottleneck s1:h2), and PFC pauses the servers.  lsw ports and
# cc/line_rate_mbps at 20 Mb/s; DCQCN knobs scaled as in cc-dcqcn.sh, ACC
# knobs as in cc-acc.sh.  Three VM runs:
#   none   no CC, lsw RED (READ data is Not-ECT: never marked): the PFC
#          baseline;
#   dcqcn  DCQCN, lsw RED marks the READ responses: the reader is the
#          notification point (np_cnp_sent on h2), the servers' QPs react
#          (rp_cnp_handled on h0 and on h1);
#   acc    ACC, lsw TCD marks.
# For dcqcn and acc: both reads complete, PFC frames at most 1/4 of none's,
# each flow within +-20 % of the fair share over the window where both
# send (measured at the servers' lsw ports: selftests/e2e/read_figures.py).
# Results stay in build/results/cc-read/{none,dcqcn,acc}/.  ~2 min.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
metrics=$E2E_TOP/eval/metrics.py
res=$E2E_RESULTS/cc-read-e2e
rate=${CC_RATE:-20Mbps}
line=${rate%Mbps}
iters=${CC_ITERS:-100}
period_us=${CC_ACC_PERIOD_US:-4000}
export E2E_RATE=$rate E2E_LINE_MBPS=$line E2E_TIMEOUT=300 E2E_FLOW_TIMEOUT=120
export E2E_ENV="E2E_ALGO E2E_FLOWS E2E_LINE_MBPS E2E_CC_KNOBS E2E_FLOW_TIMEOUT"
export E2E_HOST_SW="s1 s1 s1"
dcqcn_knobs=${CC_KNOBS_DCQCN:-"rpg_ai_rate_kbps=1000 rpg_hai_rate_kbps=2000 rpg_time_reset=10000 dce_tcp_rtt=1000 rate_reduce_monitor_period=1000"}
acc_knobs="acc_halt_max_us=$((8 * period_us)) acc_period_us=$period_us acc_theta_ce_pct=${CC_ACC_THETA_PCT:-75}"
tcd="tcd_threshold ${CC_TCD_THRESHOLD:-4KB}"

ktap_header "READ incast on the lsw test bed ($rate per port)" 11
rm -rf "$res"
mkdir -p "$res"
t0=$(date +%s)

. "$here/lib-checks.sh"

# run NAME ALGO MARKING: one VM run, then metrics.py and read_figures.py.
run() {
	local name=$1 d=$res/$1 rc
	E2E_ALGO=$2 E2E_MARKING=$3 e2e_run "$d" "$here/guest-flows.sh" >"$d.log" 2>&1
	rc=$?
	grep -E '^# (e2e-guest|flow|SKIP)' "$d.log" | sed "s/^# /# $name: /"
	if [ $rc -ne 0 ]; then
		ktap_diag "$name: failed at '$E2E_STEP' (exit $rc), log $d.log"
		tail -n 8 "$d.log" | sed 's/^/# /'
		return 1
	fi
	python3 "$metrics" analyse "$d" --bottleneck s1:h2 >/dev/null 2>"$d.metrics.err" || {
		ktap_diag "$name: metrics failed: $(tail -n 1 "$d.metrics.err")"
		return 1
	}
	python3 "$here/read_figures.py" "$d" >"$d/read-figures.txt" 2>"$d.figures.err" || {
		ktap_diag "$name: read_figures: $(cat "$d/read-figures.txt" "$d.figures.err" | tr '\n' ' ')"
		return 1
	}
}

flows="2 0 0 $iters 65536 ib_read_bw; 2 1 0 $iters 65536 ib_read_bw"
E2E_FLOWS=$flows E2E_CC_KNOBS="" run none none red
rn=$?
E2E_FLOWS=$flows E2E_CC_KNOBS=$dcqcn_knobs run dcqcn dcqcn red
rd=$?
E2E_FLOWS=$flows E2E_CC_KNOBS=$acc_knobs E2E_LSW_EXTRA=$tcd run acc acc tcd
ra=$?

rf() { awk -F= -v k="$2" '$1 == k {print $2}' "$res/$1/read-figures.txt" 2>/dev/null; }
summary() {
	local d=$res/$1
	ktap_diag "$1: window $(rf "$1" window_s) s, reads $(rf "$1" flow0_mbps) / $(rf "$1" flow1_mbps) Mb/s (fair $(rf "$1" fair_mbps)), util $(f2 "$(get "$d" utilisation)"), PFC frames $(get "$d" pfc_tx), queue mean $(get "$d" queue_mean_bytes | cut -d. -f1) B, lsw ECT(0) $(get "$d" ect0_in) CE marks $(get "$d" ce_marks) UE $(get "$d" ue_marks)"
	ktap_diag "$1: np_cnp_sent h2 $(hw "$d" np_cnp_sent rxe_h2), rp_cnp_handled h0 $(hw "$d" rp_cnp_handled rxe_h0) h1 $(hw "$d" rp_cnp_handled rxe_h1), rp_cnp_ignored $(hw "$d" rp_cnp_ignored), acc_halts $(hw "$d" acc_halts), CE ACKs $(hw "$d" acc_ce_acks), cc rate decreases $(hw "$d" cc_rate_decreases)"
}

pn=0
if [ $rn -eq 0 ]; then
	summary none
	pn=$(get "$res/none" pfc_tx)
	ktap_check "none: both reads complete" [ "$(get "$res/none" perftest_failed)" = 0 ]
	ktap_check "none: the READ incast pauses the servers ($pn PFC frames)" [ "$pn" -gt 0 ]
else
	ktap_fail "none: both reads complete (run failed)"
	ktap_fail "none: PFC frames (run failed)"
fi

# cc_checks NAME RC: completion, PFC against none, fair shares.
cc_checks() {
	local n=$1 d=$res/$1 p w0 w1 f
	if [ "$2" -ne 0 ]; then
		for c in "both reads complete" "PFC frames <= 1/4 of none" "fair shares"; do
			ktap_fail "$n: $c (run failed)"
		done
		return
	fi
	summary "$n"
	p=$(get "$d" pfc_tx)
	w0=$(rf "$n" flow0_mbps) w1=$(rf "$n" flow1_mbps) f=$(rf "$n" fair_mbps)
	ktap_check "$n: both reads complete" [ "$(get "$d" perftest_failed)" = 0 ]
	ktap_check "$n: PFC frames $p <= 1/4 of none's $pn" eval '[ "$pn" -gt 0 ] && [ $((4 * p)) -le "$pn" ]'
	ktap_check "$n: both reads within +-20 % of the fair share ($w0, $w1 vs $f Mb/s)" \
		eval 'near "$w0" "$f" 20 && near "$w1" "$f" 20'
}
cc_checks dcqcn $rd
if [ $rd -eq 0 ]; then
	d=$res/dcqcn
	cs=$(hw "$d" np_cnp_sent rxe_h2) c0=$(hw "$d" rp_cnp_handled rxe_h0) c1=$(hw "$d" rp_cnp_handled rxe_h1)
	ktap_check "dcqcn: the reader sends CNPs for CE-marked READ responses (np_cnp_sent $cs on h2), both servers handle them (rp_cnp_handled $c0 on h0, $c1 on h1)" \
		[ "$cs" -gt 0 -a "$c0" -gt 0 -a "$c1" -gt 0 ]
else
	ktap_fail "dcqcn: CNPs for READ responses (run failed)"
fi
cc_checks acc $ra
ktap_check "no splat in the guest kernel logs" splats "$res" none dcqcn acc
ktap_diag "wall time $(($(date +%s) - t0)) s"
ktap_finish

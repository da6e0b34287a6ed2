#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/eval-bed.sh: eval/run's own path, short (host side, TAP).
# `eval/run --quick --scenario S2-2to1 --algos acc`, as `make demo` runs
# it: in the VM the lab runner (eval/lab/main.py --bed, guest-runner.sh)
# checks the hosts, sets the knobs, runs the flows and restores the knobs
# through its netns transport, the same code a lab runs over ssh; lsw
# records the ports.  Checks that the run passes and its report exists;
# the runner read its inventory and checked every host; the device ran
# with the scaled knobs and every knob was back afterwards; both flows
# completed and no QP was left; ACC's figures (utilisation, Jain, no PFC,
# halts); and that report, as headless Chromium draws it, passes
# eval/render-check (layout, every figure drawn, the table's cues; a SKIP
# without chromium).  Results: build/results/e2e-eval-bed/.  About 2
# minutes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
. "$here/lib-checks.sh"
metrics=$E2E_TOP/eval/metrics.py
res=$E2E_RESULTS/e2e-eval-bed

ktap_header "eval/run through the lab runner in the VM" 8
rm -rf "$res"
mkdir -p "$res"
"$E2E_TOP/eval/run" --quick --scenario S2-2to1 --algos acc --out "$res" \
	>"$res.log" 2>&1
rc=$?
d=$res/S2-2to1/acc
grep -E '^(ok|not ok) ' "$res.log" | sed 's/^/# eval\/run: /'
ktap_check "eval/run --quick S2-2to1 acc passes (exit $rc) and writes its report" \
	eval '[ $rc -eq 0 ] && [ -s "$res/report.html" ] && [ -f "$d/metrics.json" ]'

log=$d/run.log
grep -E '^# (lab|e2e-guest): ' "$log" 2>/dev/null | sed 's/^/# guest: /'
ktap_check "the runner read the test bed's inventory and checked its 3 hosts" \
	eval 'grep -q "^# lab: 3 hosts checked: h0 (netns h0), h1 (netns h1), h2 (netns h2)" "$log" &&
	      grep -q "^# lab: line rate 20 Mb/s, base RTT 4000 us (inventory)" "$log"'

# The scaled knobs (eval/scaling.py at 20 Mb/s, 4 ms) on every device.
want="algorithm=acc line_rate_mbps=20 ack_dscp=48 acc_period_us=4000 acc_halt_max_us=32000"
bad=
for k in 0 1 2; do
	for kv in $want; do
		grep -qx "$kv" "$d/cc-rxe_h$k.txt" 2>/dev/null || bad+=" rxe_h$k:$kv"
	done
done
ktap_check "every device ran with the scaled knobs ($want)${bad:+; missing:$bad}" \
	test -z "$bad"
ktap_check "every knob of every device was back after the run (guest-runner.sh)" \
	grep -q '^# e2e-guest: knobs as before' "$log"

rows=$(grep -vc '^#' "$d/flows.tsv" 2>/dev/null)
okrows=$(awk -F'\t' '!/^#/ && $8 == 0' "$d/flows.tsv" 2>/dev/null | wc -l)
left=$(cat "$d"/rdma-res-after-*.txt 2>/dev/null | grep -c 'type RC')
ktap_check "both flows completed ($okrows of $rows with status 0) and no RC QP was left ($left)" \
	eval '[ "$rows" = 2 ] && [ "$okrows" = 2 ] && [ "$left" = 0 ]'

if [ -f "$d/metrics.json" ]; then
	python3 "$E2E_TOP/eval/summary.py" brief "$d/metrics.json" | sed 's/^/# /'
	u=$(get "$d" utilisation) j=$(get "$d" jain) p=$(get "$d" pfc_tx)
	h=$(get "$d" halts_per_s_flow)
	ktap_check "ACC fills the bottleneck fairly: utilisation $(f2 "$u") >= 0.9, Jain $(f2 "$j") >= 0.9" \
		eval 'ge "$u" 0.9 && ge "$j" 0.9'
	ktap_check "ACC halts ($(f2 "$h") a second per flow) and the switch sends no more than 50 PFC frames ($p)" \
		eval 'ge "$h" 0.5 && [ "$p" -le 50 ]'
else
	ktap_fail "ACC fills the bottleneck fairly (no metrics)"
	ktap_fail "ACC halts and the switch sends no more than 50 PFC frames (no metrics)"
fi

# The run's own report in a browser, as a reader opens it: the fixture's
# report is checked in eval-unit, this one has the run's real figures.
if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
	ktap_skip "eval/render-check passes on the run's report.html" \
		"no chromium on this machine (make deps installs Debian's chromium)"
elif [ ! -s "$res/report.html" ]; then
	ktap_fail "eval/render-check passes on the run's report.html (no report)"
else
	nice -n 10 "$E2E_TOP/eval/render-check" "$res" >"$res/render-check.txt" 2>&1
	rc=$?
	sed 's/^/# render-check: /' "$res/render-check.txt"
	ktap_check "eval/render-check passes on the run's report.html (exit $rc; $res/report-render.png)" \
		eval '[ $rc -eq 0 ] && [ "$(grep -c "^ok [1-5] " "$res/render-check.txt")" = 5 ] &&
		      ! grep -q "^not ok" "$res/render-check.txt"'
fi
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest script of eval/run's incast scenarios: the lab runner (eval/lab,
# `eval/run --lab`) drives the test bed's hosts, each its network namespace
# reached through the runner's netns transport, as it drives a lab's hosts
# over ssh.  The runner checks the hosts, sets the algorithm and knobs,
# runs the flows of scenario E2E_SCEN and restores the knobs; it writes
# the flows, perftest's output, the knobs, counters and the rxe_cc trace
# into $OUT_DIR, where lsw, on the host, records the ports (--bed).  Every
# knob of every device must be as before the run once the runner is done.
#
# Environment: E2E_SCEN, E2E_ALGO (an eval/run algorithm, acc-nohalt
# too), E2E_SECONDS, E2E_QUICK (0/1), E2E_CC_KNOBS ("name=value ..." over
# the scaled knobs), E2E_CC_REQUIRE, E2E_PERF_ARGS, E2E_FLOW_TIMEOUT
# (default 240 s per perftest) and e2e_inventory's.
# Exit: 0 ok, 77 skipped (the kernel lacks the algorithm or a knob the run
# needs), else failed (the step is printed as "# e2e-guest: failed: STEP").
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"

algo=${E2E_ALGO:-none}
e2e_start
e2e_cc_offered "${algo%%-*}" || exit 77
e2e_inventory >"$OUT_DIR/lab.conf" || e2e_fail "write the inventory"
# Every knob of every device, to check the runner's restore on every run.
e2e_knobs >"$OUT_DIR/knobs-before.txt"
quick=()
[ "${E2E_QUICK:-0}" = 1 ] && quick=(--quick)
t0=$(date +%s.%N)
python3 "$here/../../eval/lab/main.py" --bed --lab "$OUT_DIR/lab.conf" \
	--scenario "${E2E_SCEN:?}" --algos "$algo" --seconds "${E2E_SECONDS:?}" \
	"${quick[@]}" --knobs "${E2E_CC_KNOBS:-}" --perf-args "${E2E_PERF_ARGS:-}" \
	--flow-timeout "${E2E_FLOW_TIMEOUT:-240}" --out "$OUT_DIR"
rc=$?
echo "# e2e-guest: the runner took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
rxe_dmesg_clean || e2e_fail "kernel log splat"
[ $rc -eq 0 ] || e2e_fail "the lab runner (exit $rc)"
e2e_knobs >"$OUT_DIR/knobs-after.txt"
cmp -s "$OUT_DIR/knobs-before.txt" "$OUT_DIR/knobs-after.txt" ||
	e2e_fail "knobs not restored (knobs-before.txt, knobs-after.txt)"
echo "# e2e-guest: knobs as before"
echo "# e2e-guest: ok"

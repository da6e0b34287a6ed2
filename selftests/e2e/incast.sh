#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/incast.sh: the lsw-in-the-loop test bed works (host side,
# TAP).  lsw runs on the host at E2E_RATE (default 40 Mb/s per port), one VM
# with build/rdma_rxe.ko has one virtio NIC per host, algorithm none:
#   run 1: one flow h0 -> h1: it reaches the line rate (the switch, not the
#          VM's CPU, is the bottleneck);
#   run 2: 2:1 incast h0,h1 -> h2 started together: both flows complete,
#          bottleneck egress = line rate +-10 %, PFC pauses > 0, zero drops,
#          fair shares, and lsw sees no ECT/CE codepoint (no CC, no ECN).
# Every figure comes from lsw's counters (eval/metrics.py).  Results stay in
# build/results/e2e-incast/{one,incast}/.  About 1 minute.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
metrics=$E2E_TOP/eval/metrics.py
res=$E2E_RESULTS/e2e-incast
rate=${E2E_RATE:-40Mbps}
# E2E_TIMEOUT from the environment: a debug kernel boots in minutes
export E2E_RATE=$rate E2E_MARKING=off E2E_ALGO=none E2E_TIMEOUT=${E2E_TIMEOUT:-240}
export E2E_ENV="E2E_ALGO E2E_FLOWS"

ktap_header "e2e incast through lsw ($rate per port)" 9
rm -rf "$res"
mkdir -p "$res"

get() { python3 "$metrics" get "$1/metrics.json" "$2"; }
# getf DIR FIELD: the field rounded to 2 decimals, for descriptions.
getf() { awk -v x="$(get "$1" "$2")" 'BEGIN {printf "%.2f", x}'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(x >= lo && x <= hi)}'; }

# run NAME HOSTS BOTTLENECK FLOWS: one test-bed run plus its metrics.
run() {
	local d=$res/$1
	E2E_HOST_SW=$2 E2E_FLOWS=$4 e2e_run "$d" "$here/guest-flows.sh" >"$d.log" 2>&1
	local rc=$?
	sed -n 's/^\(# e2e-guest: .*\)/\1/p' "$d.log"
	if [ $rc -ne 0 ]; then
		ktap_diag "$1: failed at '$E2E_STEP' (exit $rc), log $d.log"
		tail -n 15 "$d.log" | sed 's/^/# /'
		return 1
	fi
	python3 "$metrics" analyse "$d" --bottleneck "$3" >/dev/null 2>"$d.metrics.err" || {
		ktap_diag "$1: metrics failed: $(tail -n 1 "$d.metrics.err")"
		return 1
	}
	python3 "$E2E_TOP/eval/summary.py" brief "$d/metrics.json" | sed "s/^/# $1: /"
}

t0=$(date +%s)
d=$res/one
if run one "s1 s1" s1:h1 "0 1 0 300 65536"; then
	u=$(get "$d" utilisation)
	ktap_diag "one flow: $(getf "$d" bottleneck_mbps) Mb/s at the egress, perftest $(getf "$d" flows.0.perftest_mbps) Mb/s"
	ktap_check "one flow reaches the line rate (egress utilisation $(getf "$d" utilisation) in 0.9..1.1)" within "$u" 0.9 1.1
else
	ktap_fail "one flow reaches the line rate (run failed)"
fi

d=$res/incast
if run incast "s1 s1 s1" s1:h2 "0 2 0 400 65536; 1 2 0 400 65536"; then
	ktap_check "incast 2:1: both flows complete" [ "$(get "$d" perftest_failed)" = 0 ]
	u=$(get "$d" utilisation)
	ktap_check "incast 2:1: bottleneck egress $(getf "$d" bottleneck_mbps) Mb/s = line rate +-10 %" \
		within "$u" 0.9 1.1
	x=$(get "$d" xoff_tx)
	ktap_check "incast 2:1: PFC pauses sent ($x XOFF, $(getf "$d" paused_s) s paused)" \
		awk -v x="$x" 'BEGIN {exit !(x > 0)}'
	dr=$(get "$d" drops) hd=$(get "$d" host_drops)
	ktap_check "incast 2:1: zero drops (switch $dr, host NIC $hd)" [ "$dr" = 0 ] && [ "$hd" = 0 ]
	j=$(get "$d" jain)
	ktap_check "incast 2:1: fair shares (Jain $(getf "$d" jain) >= 0.9 while both run)" within "$j" 0.9 1.0001
	e=$(( $(get "$d" ect0_in) + $(get "$d" ect1_in) + $(get "$d" ce_in) ))
	ktap_check "incast 2:1: no ECT/CE packets seen by lsw with CC none ($e)" [ "$e" = 0 ]
	f3=$(python3 - "$d/lsw-counters.json" <<'P'
import json, sys
js = json.load(open(sys.argv[1]))
print(sum(p['frames_in'] for s in js['switches'] for pt in s['ports']
          for p in pt['prio'] if p['prio'] == 3))
P
)
	ktap_check "incast 2:1: RoCE data on the lossless priority 3 ($f3 frames)" \
		awk -v x="$f3" 'BEGIN {exit !(x > 50000)}'
else
	for c in "both flows complete" "bottleneck egress = line rate" "PFC pauses sent" \
		"zero drops" "fair shares" "no ECT/CE packets" "RoCE data on priority 3"; do
		ktap_fail "incast 2:1: $c (run failed)"
	done
fi
if "$E2E_TOP/selftests/vm/check-dmesg" "$res/one/dmesg.txt" &&
	"$E2E_TOP/selftests/vm/check-dmesg" "$res/incast/dmesg.txt"; then
	ktap_pass "no splat in the guest kernel logs"
else
	ktap_fail "no splat in the guest kernel logs"
fi
ktap_diag "wall time $(($(date +%s) - t0)) s"
ktap_finish

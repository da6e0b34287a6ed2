#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every verb of userspace/rxe-cc against real devices:
#   show     every knob of a fresh device at its default, text and JSON,
#            and the JSON agrees with sysfs;
#   set      knobs that depend on each other set in one command whatever
#            their order; a malformed value, an unknown knob, and a value
#            the kernel refuses change nothing and say why in one line;
#   qp       during an ACC flow, the RC QPs and their driver attributes
#            are those of "rdma -dd res show qp", marks included;
#   qp       filters (lqpn, pid, state) pick the QPs rdma's own filters
#            pick; ifname, port, lqpn, pid, comm equal rdma -j's;
#   monitor  --count N refreshes once a second; SIGINT ends it with
#            status 0; so does deleting the device it watches;
#   -V       the loaded rdma_rxe's version and srcversion as sysfs has
#            them, and whether they match the tool's release.
# Runs in the test VM: selftests/rxe/vm-suite cc-tool.sh (rxe-cc built).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

RXE_CC=$here/../../userspace/rxe-cc/rxe-cc
OUT=${OUT_DIR:-/tmp}
CC_A=/sys/class/infiniband/rxe_a/ports/1/cc
FLOW_S=300

ktap_header "rxe-cc: show, set, qp, monitor, -V" 17

if [ -x "$RXE_CC" ] && rxe_two_hosts; then
	ktap_pass "rxe-cc built; rxe_a, rxe_b up"
else
	ktap_fail "rxe-cc built; rxe_a, rxe_b up"
	exit 1
fi

# py EXPR FILE: evaluate a Python expression over the JSON in FILE
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$2"; }

show_text_case() {
	"$RXE_CC" show rxe_a >"$OUT/show.txt" || return 1
	local knobs marked
	knobs=$(grep -E '^  [a-z0-9_]+ +[-0-9]+ +[-0-9]+ ' "$OUT/show.txt" |
		grep -vc '^  priority ')
	marked=$(grep -c ' \*$' "$OUT/show.txt")
	ktap_diag "show rxe_a: $knobs knob lines, $marked marked as changed"
	grep -q "^  algorithm none (available: none dcqcn acc timely)" "$OUT/show.txt" &&
		[ "$knobs" -eq "$(($(wc -l <"$CC_A/knobs") + 2))" ] && [ "$marked" -eq 0 ]
}
ktap_check "show: a fresh device lists every knob of cc/knobs and the DSCPs, all at their defaults" \
	show_text_case

# -V against the module the VM loaded: its version file (the dkms
# package's VERSION-rxe-acc) or none (a tree build), and srcversion
version_case() {
	local m=/sys/module/rdma_rxe ver="" src=""
	[ -r $m/version ] && ver=$(cat $m/version)
	[ -r $m/srcversion ] && src=$(cat $m/srcversion)
	"$RXE_CC" -V >"$OUT/version.txt" || return 1
	"$RXE_CC" -j -V >"$OUT/version.json" || return 1
	ktap_diag "rxe-cc -V: $(tr '\n' ';' <"$OUT/version.txt")"
	ktap_diag "sysfs: version '$ver' srcversion '$src'"
	VER=$ver SRC=$src python3 - "$OUT/version.json" <<'PYEOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
ver, src = os.environ['VER'] or None, os.environ['SRC'] or None
m = d['module']
want = None if ver is None else ver == d['tool']['version'] + '-rxe-acc'
ok = (d['schema'] == 1 and m['loaded'] is True and m['version'] == ver and
      m['srcversion'] == src and d['match'] is want and d['tool']['version'])
print('# tool', d['tool'], 'module', m, 'match', d['match'], 'want', want)
sys.exit(0 if ok else 1)
PYEOF
	[ $? = 0 ] || return 1
	if [ -n "$ver" ]; then
		grep -q "^rdma_rxe: $ver" "$OUT/version.txt"
	else
		grep -q "^rdma_rxe: no version.*cannot be compared" "$OUT/version.txt"
	fi
}
ktap_check "-V: the loaded rdma_rxe's version and srcversion, and the match" version_case

show_json_case() {
	"$RXE_CC" --json show >"$OUT/show.json" || return 1
	py "len(d) == 2 and d[0]['device'] == 'rxe_a' and
	    d[0]['available'] == ['none', 'dcqcn', 'acc', 'timely'] and
	    len(d[0]['priorities']) == 8 and
	    all(p['algorithm'] == 'default' and p['np'] for p in d[0]['priorities']) and
	    not any(k['changed'] for k in d[0]['knobs'])" "$OUT/show.json" || return 1
	# every value as sysfs reads it
	python3 - "$OUT/show.json" "$CC_A" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))[0]
# an experimental knob lives in cc_experimental/
bad = [k['name'] for k in d['knobs']
       if str(k['value']) != open(sys.argv[2] + ('_experimental/' if k.get('experimental') else '/')
                                  + k['name']).read().strip()]
print('# values that differ from sysfs:', bad)
sys.exit(1 if bad else 0)
EOF
}
ktap_check "show --json: both devices, values equal to sysfs" show_json_case

# rdma's DEV/PORT, pretty JSON the same data
show_devport_case() {
	"$RXE_CC" show rxe_a/1 >"$OUT/show-port.txt" &&
		"$RXE_CC" -p show link rxe_a/1 >"$OUT/show.pretty.json" || return 1
	cmp -s "$OUT/show.txt" "$OUT/show-port.txt" &&
		python3 -c "import json,sys
a = json.load(open(sys.argv[1]))
b = json.load(open(sys.argv[2]))
sys.exit(0 if a == b[:1] and a[0]['ifname'] == 'rxe_a' and a[0]['port'] == 1 else 1)" \
			"$OUT/show.pretty.json" "$OUT/show.json" &&
		[ "$(wc -l <"$OUT/show.pretty.json")" -gt 100 ]
}
ktap_check "show rxe_a/1 as show rxe_a; -p the same JSON, indented" show_devport_case

# set_case: acc_period_us 4000 is refused while acc_halt_max_us is 400
set_order_case() {
	"$RXE_CC" set rxe_a acc_period_us=4000 acc_halt_max_us=32000 \
		algorithm=acc prio5_np=0 >"$OUT/set.txt" || return 1
	ktap_diag "set echoed: $(tr '\n' ';' <"$OUT/set.txt")"
	[ "$(cat "$OUT/set.txt")" = "rxe_a/1 acc_period_us 50 -> 4000
rxe_a/1 acc_halt_max_us 400 -> 32000
rxe_a/1 algorithm none -> acc
rxe_a/1 prio5_np 1 -> 0" ] || return 1
	ktap_diag "after set: period $(cat $CC_A/acc_period_us), halt max" \
		  "$(cat $CC_A/acc_halt_max_us), algorithm $(cat $CC_A/algorithm)," \
		  "prio5_np $(cat $CC_A/prio5_np)"
	[ "$(cat $CC_A/acc_period_us)" = 4000 ] &&
		[ "$(cat $CC_A/acc_halt_max_us)" = 32000 ] &&
		[ "$(cat $CC_A/algorithm)" = acc ] && [ "$(cat $CC_A/prio5_np)" = 0 ] &&
		"$RXE_CC" show rxe_a | grep -q '^  acc_period_us .* 4000 .*50  us  \*$'
}
ktap_check "set: dependent knobs in any order (period before its cap), show marks them" \
	set_order_case

# an mlx5 name, in mlx5's Mb/s, sets our kb/s knob in the kernel, and
# says so
mlx5_name_case() {
	local before
	before=$(cat $CC_A/rpg_ai_rate_kbps)
	"$RXE_CC" -j set rxe_a rp_ai_rate=10 >"$OUT/set-mlx5.json" || return 1
	ktap_diag "rpg_ai_rate_kbps $before -> $(cat $CC_A/rpg_ai_rate_kbps): $(cat "$OUT/set-mlx5.json")"
	[ "$(cat $CC_A/rpg_ai_rate_kbps)" = 10000 ] &&
		py "len(d[0]['changes']) == 1 and
		    d[0]['changes'][0]['knob'] == 'rpg_ai_rate_kbps' and
		    d[0]['changes'][0]['given_as'] == 'rp_ai_rate' and
		    d[0]['changes'][0]['given_value'] == 10 and
		    d[0]['changes'][0]['old'] == $before and
		    d[0]['changes'][0]['new'] == 10000 and d[0]['changes'][0]['changed']" \
		"$OUT/set-mlx5.json" &&
		"$RXE_CC" set rxe_a rpg_ai_rate_kbps="$before" >/dev/null
}
ktap_check "set: mlx5's rp_ai_rate (Mb/s) sets rpg_ai_rate_kbps; -j echoes old and new" \
	mlx5_name_case

# refused CMD... MSG: CMD fails with status 1 and one stderr line with MSG;
# no knob of rxe_a changed
refused() {
	local msg=$1 before after err rc
	shift
	before=$(grep -r . "$CC_A" "${CC_A}_experimental" | sort)
	err=$("$RXE_CC" "$@" 2>&1 >/dev/null)
	rc=$?
	after=$(grep -r . "$CC_A" "${CC_A}_experimental" | sort)
	ktap_diag "rxe-cc $*: status $rc: $err"
	[ "$rc" = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
		[[ "$err" == *"$msg"* ]] && [ "$before" = "$after" ]
}
ktap_check "set: a malformed value changes nothing" \
	refused "acc_halt: '7' is not 0 or 1" set rxe_a acc_gate=1 acc_halt=7
ktap_check "set: an unknown knob changes nothing" \
	refused "unknown knob 'acc_gates'" set rxe_a acc_gate=1 acc_gates=1
ktap_check "set: a value the kernel refuses (cap below the period) changes nothing" \
	refused "acc_halt_max_us=10: the kernel refused it (Invalid argument); nothing changed" \
	set rxe_a acc_gate=1 acc_halt_max_us=10

# An ACC flow rxb -> rxa in the background, long enough to outlast the
# qp and monitor cases however slow the guest; stopped after them.
rxe_cc_both algorithm acc
rxe_cc_both pacer_burst_us 5000
sgid=$(rxe_gid_index rxe_a 10.10.0.1)
cgid=$(rxe_gid_index rxe_b 10.10.0.2)
ip netns exec rxa ib_write_bw -d rxe_a -x "$sgid" -D $FLOW_S -s 65536 \
	>/dev/null 2>&1 &
srv=$!
sleep 1
ip netns exec rxb ib_write_bw -d rxe_b -x "$cgid" -D $FLOW_S -s 65536 \
	10.10.0.1 >/dev/null 2>&1 &
cli=$!
RXE_PIDS+=("$srv" "$cli")
SECONDS=0
while [ $SECONDS -lt 60 ]; do
	rdma res show qp link rxe_b/1 2>/dev/null | grep -q "type RC state RTS" && break
	sleep 0.5
done
ktap_diag "the flow's QPs are up after $SECONDS s"

qp_case() {
	local ours theirs
	theirs=$(rxe_rc_qps rxe_b cc_algorithm | sort)
	"$RXE_CC" --json qp rxe_b >"$OUT/qp.json" || return 1
	"$RXE_CC" qp rxe_b >"$OUT/qp.txt" || return 1
	# beside it what rdma shows of the same QPs (the man page's example)
	rdma -dd res show qp link rxe_b/1 >"$OUT/rdma-res-qp.txt" 2>&1
	ours=$(python3 -c "import json,sys
for q in json.load(open(sys.argv[1])):
    print(q['lqpn'], q['driver'].get('cc_algorithm', '-'))" "$OUT/qp.json" | sort)
	ktap_diag "rxe-cc qp rxe_b: $(echo $ours); rdma res: $(echo $theirs)"
	[ -n "$ours" ] && [ "$ours" = "$theirs" ] &&
		py "any(q['driver']['cc_algorithm'] == 'acc' and
			q['driver']['cc_rate_bps'] > 0 and q['state'] == 'RTS' and
			'acc_ce_periods' in q['driver'] and 'acc_ue_periods' in q['driver'] and
			q['cc_state'] in ('run', 'halted', 'victim') for q in d)" \
			"$OUT/qp.json" &&
		grep -qE '^rxe_b +[0-9]+ +[0-9]+ RTS +acc +(run|halted|victim) .* ce [0-9]+/ue [0-9]+$' "$OUT/qp.txt"
}
ktap_check "qp: the RC QPs of rdma res, an ACC QP running, text and JSON" qp_case

# qp's filters pick the QPs the unfiltered list says they should: the
# flow's server QP is on rxe_a, its client QP on rxe_b, in two processes;
# and the keys rdma -j and rxe-cc -j share have the same values
qp_filter_case() {
	local lqpn pid
	"$RXE_CC" -j qp >"$OUT/qp-all.json" || return 1
	read -r lqpn pid < <(python3 -c "import json,sys
q = [q for q in json.load(open(sys.argv[1])) if q['ifname'] == 'rxe_b'][0]
print(q['lqpn'], q['pid'])" "$OUT/qp-all.json")
	"$RXE_CC" -j qp rxe_b lqpn "$lqpn" >"$OUT/qp-lqpn.json" &&
		"$RXE_CC" -j qp pid "$pid" >"$OUT/qp-pid.json" &&
		"$RXE_CC" -j qp state rts >"$OUT/qp-rts.json" &&
		"$RXE_CC" -j qp state ERR,SQE >"$OUT/qp-err.json" &&
		"$RXE_CC" -j qp link rxe_b/1 lqpn "$lqpn" pid 1 >"$OUT/qp-none.json" ||
		return 1
	python3 - "$OUT" "$lqpn" "$pid" <<'PYEOF' || return 1
import json, sys
o, lqpn, pid = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ld = lambda n: [(q['ifname'], q['lqpn']) for q in json.load(open(f'{o}/qp-{n}.json'))]
a = json.load(open(f'{o}/qp-all.json'))
pick = lambda f: [(q['ifname'], q['lqpn']) for q in a if f(q)]
got = {n: ld(n) for n in ('lqpn', 'pid', 'rts', 'err', 'none')}
want = {'lqpn': pick(lambda q: q['ifname'] == 'rxe_b' and q['lqpn'] == lqpn),
        'pid': pick(lambda q: q['pid'] == pid),
        'rts': pick(lambda q: q['state'] == 'RTS'),
        'err': pick(lambda q: q['state'] in ('ERR', 'SQE')), 'none': []}
print('# all:', [(q['ifname'], q['lqpn'], q['pid'], q['state']) for q in a])
print('# filtered:', got)
sys.exit(0 if got == want and len(got['lqpn']) == 1 and
         0 < len(got['pid']) < len(a) else 1)
PYEOF
	"$RXE_CC" -j qp link rxe_b/1 >"$OUT/qp-b.json" || return 1
	# the keys shared with rdma -j
	rdma -j res show qp link rxe_b/1 >"$OUT/rdma-qp.json" 2>/dev/null || return 1
	python3 - "$OUT/qp-b.json" "$OUT/rdma-qp.json" <<'PYEOF'
import json, sys
ours = {q['lqpn']: q for q in json.load(open(sys.argv[1]))}
theirs = {q['lqpn']: q for q in json.load(open(sys.argv[2])) if q.get('type') == 'RC'}
keys = ('ifname', 'port', 'lqpn', 'rqpn', 'state', 'pid', 'comm')
bad = [(n, k, ours[n].get(k), theirs[n].get(k)) for n in ours if n in theirs
       for k in keys if k in theirs[n] and ours[n].get(k) != theirs[n][k]]
seen = {k for n in ours if n in theirs for k in keys if k in theirs[n]}
print('# QPs in both:', len(set(ours) & set(theirs)), 'keys compared:',
      sorted(seen), 'differences:', bad)
sys.exit(0 if ours and set(ours) == set(theirs) and not bad and
         {'ifname', 'port', 'lqpn', 'state', 'pid'} <= seen else 1)
PYEOF
}
ktap_check "qp: lqpn, pid, state filters pick their QPs; the keys shared with rdma -j equal its values" \
	qp_filter_case

monitor_count_case() {
	local t0 t1 lines
	t0=$(date +%s%N)
	"$RXE_CC" monitor rxe_b --json --count 3 >"$OUT/monitor.json" || return 1
	t1=$(date +%s%N)
	lines=$(wc -l <"$OUT/monitor.json")
	ktap_diag "monitor --count 3: $lines lines in $(((t1 - t0) / 1000000)) ms"
	[ "$lines" = 3 ] && [ $((t1 - t0)) -ge 1900000000 ] &&
		python3 -c "import json,sys
rows = [json.loads(l) for l in open(sys.argv[1])]
iv = [r['devices'][0]['interval_ms'] for r in rows]
print('# interval_ms', iv)
sys.exit(0 if all(r['devices'][0]['device'] == 'rxe_b' and
                  r['devices'][0]['qps'] for r in rows) and
         iv[0] == 0 and all(1000 <= x < 10000 for x in iv[1:]) else 1)" "$OUT/monitor.json"
}
ktap_check "monitor --count 3: three refreshes a second apart (interval measured), the flow's QPs in each" \
	monitor_count_case

ktap_check "the flow ran through the qp and monitor cases" kill -0 "$cli"
kill "$cli" "$srv" 2>/dev/null
wait "$cli" "$srv" 2>/dev/null

# monitor_ends HOW: a monitor of rxe_b in the background ends, status 0,
# within 3 s of HOW (sigint, or deleting rxe_b)
monitor_ends() {
	local pid rc i
	"$RXE_CC" monitor rxe_b >"$OUT/monitor-$1.txt" 2>&1 &
	pid=$!
	sleep 2
	if [ "$1" = sigint ]; then
		kill -INT "$pid"
	else
		rdma link delete rxe_b
	fi
	for i in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid"
		ktap_diag "monitor still running 3 s after $1"
		return 1
	fi
	wait "$pid"
	rc=$?
	ktap_diag "monitor after $1: status $rc, last line: $(tail -n1 "$OUT/monitor-$1.txt")"
	[ "$rc" = 0 ] && grep -q "^rxe_b: per second" "$OUT/monitor-$1.txt"
}
ktap_check "monitor: Ctrl-C ends it with status 0" monitor_ends sigint
monitor_gone_case() {
	monitor_ends gone && grep -q "rxe-cc: rxe_b went away" "$OUT/monitor-gone.txt"
}
ktap_check "monitor: the device going away ends it with status 0" monitor_gone_case

ktap_check "no splat" rxe_dmesg_clean
ktap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rxe-cc binary against a fake sysfs (RXE_CC_SYSFS, RXE_CC_SYSMODULE)
# whose cc/knobs is tests/knobs, the module's: help per verb, the knob
# table read from the device, -V against a module's version, exit
# statuses, set's echo, the kernel's ranges, experimental knobs, mlx5
# names (Mb/s for our kb/s), a module without cc/knobs, JSON that
# python's parser takes with signed values intact.
# TAP on stdout.  Usage: tests/cli.sh [path/to/rxe-cc]
here=$(cd "$(dirname "$0")" && pwd)
RXE_CC=${1:-$here/../rxe-cc}
tmp=$(mktemp -d /tmp/rxe-cc-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export RXE_CC_SYSFS=$tmp/ib RXE_CC_SYSMODULE=$tmp/module
cc=$tmp/ib/rxe0/ports/1/cc
exp=$tmp/ib/rxe0/ports/1/cc_experimental
. "$here/tap.sh"

# run ARGS...: rxe-cc's stdout, stderr and status into $out, $err, $rc
run() {
	"$RXE_CC" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}

# expect RC ARGS...: status RC; on failure, nothing on stdout and one line
# on stderr
expect() {
	local want=$1
	shift
	run "$@"
	[ "$rc" = "$want" ] || { echo "# rxe-cc $*: status $rc, not $want ($err)"; return 1; }
	if [ "$want" = 1 ]; then
		[ -z "$out" ] || { echo "# rxe-cc $*: stdout on failure: $out"; return 1; }
		[ "$(wc -l <"$tmp/err")" = 1 ] || { echo "# stderr: $err"; return 1; }
	fi
	return 0
}

has() { [[ $1 == *"$2"* ]] || { echo "# '$2' not in: $1" | head -5; return 1; }; }

# valid JSON by python3 -m json.tool
json_ok() { python3 -m json.tool "$tmp/out" >/dev/null; }
# py EXPR: a Python expression over the JSON on stdout
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$tmp/out"; }

# --- no device yet: every verb fails the same way ---
mkdir -p "$tmp/ib"
for v in show qp "monitor -n 1" "-j show" "-j qp" "help knobs"; do
	# shellcheck disable=SC2086
	ok "no rxe-acc device: '$v' exits 1, reason on stderr, nothing on stdout" \
		eval 'expect 1 '"$v"' && has "$err" "no rxe-acc device (rdma link add"'
done

# --- a device with every knob at its default ---
# the kernel's numeric knobs from its cc/knobs, each in its directory;
# the other files of cc/
mkdir -p "$cc" "$exp" "$tmp/ib/rxe0/ports/1/hw_counters" "$tmp/ib/eth9/ports/1"
cp "$here/knobs" "$cc/knobs"
while read -r k _ _ _ d _ x; do
	if [ "$x" = experimental ]; then echo "$d" >"$exp/$k"; else echo "$d" >"$cc/$k"; fi
done <"$here/knobs"
echo none >"$cc/algorithm"
echo "none dcqcn acc" >"$cc/available"
for p in 0 1 2 3 4 5 6 7; do
	echo default >"$cc/prio${p}_algorithm"
	echo 1 >"$cc/prio${p}_np"
done
echo -1 >"$cc/cnp_dscp"
echo -1 >"$cc/ack_dscp"
echo 7 >"$tmp/ib/rxe0/ports/1/hw_counters/np_cnp_sent"
echo "# fake device with $(ls "$cc" | wc -l) files in cc/, $(ls "$exp" | wc -l) in cc_experimental/"

# help: global, per verb in three spellings, knobs
ok "-h: the global usage, status 0" eval 'expect 0 -h && has "$out" "rxe-cc [OPTIONS] qp [DEV[/PORT]] [lqpn LIST]"'
for v in show set qp monitor; do
	ok "help $v, $v -h and $v --help print $v's own help" eval '
		expect 0 help '$v' && h=$out && has "$h" "usage: rxe-cc [-j] [-p] '$v'" &&
		expect 0 '$v' -h && [ "$out" = "$h" ] &&
		expect 0 '$v' --help && [ "$out" = "$h" ] &&
		[ "$(echo "$h" | grep -c "^usage")" = 1 ]'
done
ok "help knobs: every knob with unit, range, default, mlx5's names and its meaning" eval '
	expect 0 help knobs &&
	echo "$out" | grep -Eq "^acc_period_us +us +10\.\.100000 +50 *$" &&
	echo "$out" | grep -A1 "^acc_period_us " | grep -qx "    ACC period T: the sender classifies itself every T\." &&
	[ "$(echo "$out" | grep -c "^    [^ ]")" = "$(echo "$out" | awk "/^\$/ { exit } NR > 1 && !/^ /" | wc -l)" ] &&
	echo "$out" | grep -Eq "^rpg_ai_rate_kbps +kb/s +1\.\.1600000000 +5000 +rp_ai_rate rpg_ai_rate \(Mb/s\)$" &&
	echo "$out" | grep -Eq "^rpg_gd +- +1\.\.15 +11 +rp_gd$" &&
	has "$out" "np_cnp_prio: rxe'"'"'s CNPs carry no VLAN tag" &&
	has "$out" "Units, ranges and defaults: rxe0'"'"'s cc/knobs."'
ok "help knobs: the rows of the device's cc/knobs, in its order; experimental marked" eval '
	expect 0 help knobs rxe0/1 &&
	[ "$(echo "$out" | awk "/^\$/ { exit } NR > 1 && !/^ / { print \$1 }" | grep -Fxf <(cut -d" " -f1 "$here/knobs"))" = "$(cut -d" " -f1 "$here/knobs")" ] &&
	echo "$out" | grep -A1 "^acc_gate " | grep -qx "    (experimental) The increase rule after a QP'"'"'s first halt\." &&
	echo "$out" | grep -Eq "^acc_halt +- +0\|1 +1 *$" &&
	! echo "$out" | grep -Eq "^rpg_ai_rate "'
ok "help knobs: a knob rxe-cc cannot describe still listed" eval '
	cp "$cc/knobs" "$tmp/knobs.saved" && echo "acc_new_us us 5 50 20 acc" >>"$cc/knobs" &&
	expect 0 help knobs && cp "$tmp/knobs.saved" "$cc/knobs" &&
	echo "$out" | grep -Eq "^acc_new_us +us +5\.\.50 +20 *$" &&
	echo "$out" | grep -A1 "^acc_new_us " | grep -q "^    (no description in this rxe-cc"'
ok "help knobs: two devices is a usage error" eval 'expect 2 help knobs rxe0 rxe1 && has "$err" "help knobs takes at most one device"'
ok "help frob: a usage error, status 2" eval 'expect 2 help frob && has "$err" "no help on '"'"'frob'"'"'"'

# usage errors: status 2
ok "an unknown option: status 2" eval 'expect 2 show --bogus && has "$err" "unknown option '"'"'--bogus'"'"'"'
ok "an unknown verb: status 2" eval 'expect 2 frob && has "$err" "unknown verb"'
ok "--count on qp: status 2" eval 'expect 2 qp -n 2'
ok "port 2: status 2, rxe has one port" eval 'expect 2 show rxe0/2 && has "$err" "rxe devices have one port, 1"'
ok "a bad filter: status 2" eval 'expect 2 qp rxe0 state RUNNING'

# -V: tool and module, matching or not
ok "-V, rdma_rxe not loaded" eval 'expect 0 -V && has "$out" "rxe-cc " && has "$out" "rdma_rxe: not loaded"'
mkdir -p "$tmp/module/rdma_rxe"
echo 1A2B3C >"$tmp/module/rdma_rxe/srcversion"
ok "-V, a module without a version: cannot be compared" eval '
	expect 0 --version && has "$out" "rdma_rxe: no version (srcversion 1A2B3C)" && has "$out" "cannot be compared"'
tool=$("$RXE_CC" -jV | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool"]["version"])')
echo "$tool-rxe-acc" >"$tmp/module/rdma_rxe/version"
ok "-V, the package's module of the same release: matches" eval '
	expect 0 -V && has "$out" "rdma_rxe: $tool-rxe-acc (srcversion 1A2B3C): matches this rxe-cc"'
ok "-jV: JSON, match true" eval 'expect 0 -jV && json_ok && py "d[\"match\"] is True and d[\"schema\"] == 1 and d[\"module\"][\"version\"] == \"$tool-rxe-acc\""'
echo "0.0.1-rxe-acc" >"$tmp/module/rdma_rxe/version"
ok "-V, another release: DIFFERS; -jV match false" eval '
	expect 0 -V && has "$out" "0.0.1-rxe-acc (srcversion 1A2B3C): DIFFERS" &&
	expect 0 -j -V && py "d[\"match\"] is False"'

# show: JSON valid, compact and pretty, typed, signed
ok "show -j: valid JSON, schema 1, ifname/port as rdma -j" eval '
	expect 0 -j show && json_ok && [ "$(wc -l <"$tmp/out")" = 1 ] &&
	py "d[0][\"schema\"] == 1 and d[0][\"ifname\"] == \"rxe0\" and d[0][\"port\"] == 1 and d[0][\"np\"][\"cnp_sent\"] == 7"'
ok "show -p: the same JSON, indented" eval '
	expect 0 -j show && c=$out && expect 0 -p show && json_ok && [ "$(wc -l <"$tmp/out")" -gt 100 ] &&
	[ "$(python3 -c "import json,sys; print(json.loads(sys.argv[1]) == json.load(open(sys.argv[2])))" "$c" "$tmp/out")" = True ]'
ok "show -j: cnp_dscp -1 is the number -1, rates numbers, alias named" eval '
	expect 0 -j show rxe0/1 &&
	py "[(k[\"value\"], k[\"default\"]) for k in d[0][\"knobs\"] if k[\"name\"] == \"cnp_dscp\"] == [(-1, -1)] and
	    [k[\"value\"] for k in d[0][\"knobs\"] if k[\"name\"] == \"rpg_ai_rate_kbps\"] == [5000] and
	    [k.get(\"mlx5\") for k in d[0][\"knobs\"] if k[\"name\"] == \"rpg_gd\"] == [\"rp_gd\"] and
	    not [k for k in d[0][\"knobs\"] if k[\"name\"] == \"rpg_ai_rate\"]"'
ok "show -j: the kernel's unit, range, default and group; mlx5's names and their Mb/s" eval '
	expect 0 -j show &&
	py "[(k[\"unit\"], k[\"min\"], k[\"max\"], k[\"default\"], k[\"group\"], k[\"mlx5\"], k[\"mlx5_names\"], k[\"mlx5_unit\"])
	     for k in d[0][\"knobs\"] if k[\"name\"] == \"rpg_ai_rate_kbps\"] ==
	    [(\"kb/s\", 1, 1600000000, 5000, \"dcqcn\", \"rp_ai_rate\", [\"rp_ai_rate\", \"rpg_ai_rate\"], \"Mb/s\")] and
	    [k[\"group\"] for k in d[0][\"knobs\"] if k[\"name\"] == \"min_time_between_cnps\"] == [\"device\"] and
	    [k[\"name\"] for k in d[0][\"knobs\"]][:4] == [\"line_rate_mbps\", \"pacer_burst_us\", \"acc_ack_every\", \"min_time_between_cnps\"] and
	    \"mlx5_unit\" not in [k for k in d[0][\"knobs\"] if k[\"name\"] == \"rpg_gd\"][0] and
	    len(d[0][\"knobs\"]) == 41"'
ok "show: an experimental knob, read from cc_experimental/, marked" eval '
	echo 3 >"$exp/acc_gate" && [ ! -e "$cc/acc_gate" ] &&
	expect 0 show rxe0 && echo 2 >"$exp/acc_gate" &&
	echo "$out" | grep -Eq "^  acc_gate +3 +2  +\*  experimental$" &&
	echo "$out" | grep -Eq "^  acc_halt +1 +1  +experimental$" &&
	echo "$out" | grep -Eq "^  acc_period_us +50 +50  us$" &&
	has "$out" "experimental: in cc_experimental/, name and meaning may change" &&
	expect 0 -j show rxe0 &&
	py "[(k[\"value\"], k[\"experimental\"]) for k in d[0][\"knobs\"] if k[\"name\"] in (\"acc_gate\", \"acc_period_us\")] == [(50, False), (2, True)]"'
ok "show dev rxe0: the rdma keyword form" eval 'expect 0 show dev rxe0 && has "$out" "algorithm none (available: none dcqcn acc)"'
ok "show of a device without cc/: status 1" eval 'expect 1 show eth9 && has "$err" "eth9: no such rxe-acc device"'

# set: echo old -> new, JSON, mlx5 names, failures change nothing
ok "set: echoes each knob, old -> new, unchanged ones said so" eval '
	expect 0 set rxe0/1 acc_period_us=4000 acc_halt_max_us=32000 acc_gate=2 &&
	[ "$out" = "rxe0/1 acc_period_us 50 -> 4000
rxe0/1 acc_halt_max_us 400 -> 32000
rxe0/1 acc_gate 2 (unchanged)" ] && [ "$(cat "$cc/acc_period_us")" = 4000 ]'
ok "set with mlx5 names: the knob, the name given (Mb/s for our kb/s), old -> new" eval '
	expect 0 set rxe0 rp_ai_rate=10 np_min_time_between_cnps=8 rp_gd=9 &&
	[ "$out" = "rxe0/1 rpg_ai_rate_kbps (as rp_ai_rate=10 Mb/s) 5000 -> 10000
rxe0/1 min_time_between_cnps (as np_min_time_between_cnps) 4 -> 8
rxe0/1 rpg_gd (as rp_gd) 11 -> 9" ] &&
	[ "$(cat "$cc/rpg_ai_rate_kbps")" = 10000 ] && [ ! -e "$cc/rpg_ai_rate" ]'
ok "set -j: valid JSON, signed old/new, given_as; a knob twice under two names" eval '
	expect 0 -j set rxe0 cnp_dscp=26 && json_ok &&
	py "d[0][\"changes\"] == [{\"knob\": \"cnp_dscp\", \"old\": -1, \"written\": 26, \"new\": 26, \"unit\": \"\", \"changed\": True, \"experimental\": False}]" &&
	expect 1 --json set rxe0 cnp_dscp=-1 np_cnp_dscp=-1 &&
	has "$err" "cnp_dscp is set twice (as cnp_dscp and np_cnp_dscp)" &&
	expect 0 -p set rxe0 np_cnp_dscp=-1 && json_ok &&
	py "d[0][\"changes\"][0] == {\"knob\": \"cnp_dscp\", \"given_as\": \"np_cnp_dscp\", \"old\": 26, \"written\": -1, \"new\": -1, \"unit\": \"\", \"changed\": True, \"experimental\": False}"'
ok "set -j, an mlx5 Mb/s name: the knob and the kb/s written, the name and the Mb/s given" eval '
	expect 0 -j set rxe0 rpg_hai_rate=60 rp_max_rate=0 && json_ok &&
	py "d[0][\"changes\"] == [
	    {\"knob\": \"rpg_hai_rate_kbps\", \"given_as\": \"rpg_hai_rate\", \"given_value\": 60, \"given_unit\": \"Mb/s\",
	     \"old\": 50000, \"written\": 60000, \"new\": 60000, \"unit\": \"kb/s\", \"changed\": True, \"experimental\": False},
	    {\"knob\": \"rpg_max_rate_kbps\", \"given_as\": \"rp_max_rate\", \"given_value\": 0, \"given_unit\": \"Mb/s\",
	     \"old\": 0, \"written\": 0, \"new\": 0, \"unit\": \"kb/s\", \"changed\": False, \"experimental\": False}]" &&
	[ "$(cat "$cc/rpg_hai_rate_kbps")" = 60000 ]'
ok "set: an mlx5 Mb/s name out of the kb/s range / 1000: status 1, nothing written" eval '
	expect 1 set rxe0 rpg_min_rate=2 rp_ai_rate=1600001 && has "$err" "rp_ai_rate: 1600001 is out of range 1..1600000 Mb/s" &&
	[ "$(cat "$cc/rpg_min_rate_kbps")" = 1000 ]'
ok "set: an mlx5 name without a counterpart: status 1, nothing written" eval '
	expect 1 set rxe0 rpg_ai_rate_kbps=20000 np_cnp_prio=3 && has "$err" "np_cnp_prio (mlx5): rxe" &&
	[ "$(cat "$cc/rpg_ai_rate_kbps")" = 10000 ]'
ok "set: mlx5 rp_rate_to_set_on_first_cnp=0 (port speed there) refused" eval '
	expect 1 set rxe0 rp_rate_to_set_on_first_cnp=0 && has "$err" "0 means the full port speed on mlx5"'
ok "set: the kernel's range, from cc/knobs: status 1, nothing written" eval '
	expect 1 set rxe0 acc_period_us=60 acc_halt_max_us=5 &&
	[ "$err" = "rxe-cc: acc_halt_max_us: 5 is out of range 10..1000000 us" ] &&
	[ "$(cat "$cc/acc_period_us")" = 4000 ]'
ok "set: an experimental knob, written in cc_experimental/" eval '
	expect 0 set rxe0 acc_gate=3 acc_halt=0 &&
	[ "$out" = "rxe0/1 acc_gate 2 -> 3
rxe0/1 acc_halt 1 -> 0" ] &&
	[ "$(cat "$exp/acc_gate")" = 3 ] && [ "$(cat "$exp/acc_halt")" = 0 ] && [ ! -e "$cc/acc_gate" ] &&
	expect 0 -j set rxe0 acc_gate=2 && py "d[0][\"changes\"][0][\"experimental\"] is True" &&
	expect 1 set rxe0 acc_gate=4 && has "$err" "acc_gate: 4 is out of range 0..3"'
ok "set: a bad value: status 1, one line" eval 'expect 1 set rxe0 acc_period_us=0x10 && has "$err" "is not a whole number"'
ok "set: no such device: status 1" eval 'expect 1 set rxe7 acc_gate=1 && has "$err" "rxe7: no such rxe-acc device"'
ok "set without an assignment: status 2" eval 'expect 2 set rxe0'

# a module older than this rxe-cc: no cc/knobs, no table of rxe-cc's own
mv "$cc/knobs" "$tmp/knobs.old"
for v in show "-j show rxe0" "set rxe0 acc_period_us=60" "help knobs"; do
	ok "a module without cc/knobs: '$v' exits 1, one line, nothing written" \
		eval 'expect 1 '"$v"' &&
		[ "$err" = "rxe-cc: rxe0: the rdma_rxe module is older than this rxe-cc: it has no cc/knobs (rxe-cc -V compares them)" ] &&
		[ "$(cat "$cc/acc_period_us")" = 4000 ]'
done
mv "$tmp/knobs.old" "$cc/knobs"

# qp without rdma netlink here (or without an rxe0 in the kernel): status 1,
# a reason, and no "[]" that could pass for "no QPs"
ok "qp -j: status 1, nothing on stdout, the reason on stderr" eval '
	expect 1 -j qp rxe0 state RTS && echo "# $err" &&
	{ has "$err" "load ib_core (modprobe rdma_rxe loads it)" || has "$err" "no such RDMA device"; }'

tap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest script of selftests/e2e/lab.sh: the lab runner (eval/lab) with the
# test bed's network namespaces as its hosts (netns transport), lsw as the
# switch whose queue the inventory's switch command reads.  Prints KTAP-ish
# "# lab: ..." lines and "LAB-RESULT name ok|fail detail" lines for the
# host side to assert on; writes the lab run into $OUT_DIR/lab/.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"
trap 'rxe_cleanup; cleanup_extra' EXIT
top=$(cd "$here/../.." && pwd)
lab=$top/eval/lab/main.py
res() { echo "LAB-RESULT $1 $2 ${*:3}"; }
mnt=()
cleanup_extra() { local m; for m in "${mnt[@]}"; do umount "$m" 2>/dev/null; done; }

e2e_hosts || { echo "# lab: cannot build the hosts"; exit 1; }

# inventory FILE [EXTRA_LAB_LINES] [HOST_SECTIONS]: the test bed as a lab
# (e2e_inventory) whose switch is lsw, read through the switch commands.
inventory() {
	local sw
	# On the 1 vCPU the lab path's own work competes with rxe: a NIC
	# sample costs 1.6 ms; a queue reading (sh, stat, tail and awk over
	# the rows since the last one, through 9p) under load waits 2-3 s
	# for the CPU, whatever the interval.  The NICs every 50 ms, the
	# queue once a second as its mean since the last reading
	# (queue-mean.sh): the queue's level at one instant, that seldom,
	# misses most of a run.  The queue command at nice 0, as a lab's
	# runs on a machine of its own: at nice 19, as perftest, it never
	# ran while ACC's two flows did (twice in three runs, 26 November:
	# one reading covered 32 s).  PFC frames are what all ports sent on
	# priority 3 so far (pfc_tx, column 12), from whole rows only (13
	# fields): lsw may be writing the last one as it is read.
	sw="switch_interval_ms = 1000
sample_ms = 50
switch_queue_mean_bytes = bash $OUT_DIR/queue-mean.sh
switch_pfc_frames = tail -n 300 $OUT_DIR/lsw-timeseries.csv | awk -F, 'NF == 13 && \$4 == 3 {v[\$3] = \$12} END {for (p in v) s += v[p]; print s + 0}'"
	e2e_inventory "$sw${2:+
$2}" "${3:-}" >"$1"
}
# preflight NAME EXPECT N INVENTORY [ENV...]: the runner must stop with
# exit 1, print EXPECT in N lines (one per host with the problem), and
# change no knob.
preflight() {
	local name=$1 want=$2 n=$3 inv=$4 before after err rc
	shift 4
	before=$(e2e_knobs)
	err=$(env "$@" timeout 300 python3 "$lab" --lab "$inv" --scenario S2-2to1 --algos acc \
		--out "$OUT_DIR/pre-$name" 2>&1 >/dev/null)
	rc=$?
	after=$(e2e_knobs)
	echo "$err" | sed "s/^/# lab: $name: /"
	if [ $rc -ne 1 ]; then
		res "pre-$name" fail "exit $rc, not 1"
	elif [ "$before" != "$after" ]; then
		res "pre-$name" fail "knobs changed"
	elif [ "$(echo "$err" | grep -c "$want")" -ne "$n" ]; then
		res "pre-$name" fail "not $n line(s) with '$want'"
	else
		res "pre-$name" ok "$(echo "$err" | grep "$want" | head -n1)"
	fi
}

# A host the runner can reach, outside the namespaces, with device D.
local_host() {
	printf '[host h0]\nnetns = h0\nrdma = rxe_h0\nnetdev = eth0\nip = 10.0.0.1\n'
	printf '[host h1]\nlocal = yes\nrdma = %s\nnetdev = lo\nip = 10.0.0.2\n' "$1"
	printf '[host h2]\nnetns = h2\nrdma = rxe_h2\nnetdev = eth2\nip = 10.0.0.3\n'
}

# The receiver port's mean queue since the previous call, from lsw's time
# series (a row per port every 10 ms: lab.sh's E2E_INTERVAL), as a
# switch's interval-average telemetry would give it, and the time of the
# reading, taken once the rows are read.  The guest pays for every
# reading, so it reads only the bytes lsw wrote since the previous call
# (their offset kept in /tmp/queue-mean.last; the first call only sets
# it), and uses bash, for $EPOCHREALTIME without a fork.  The last line
# read waits for the next call: lsw may be writing it.  Nothing new
# prints nothing: no reading.
cat >"$OUT_DIR/queue-mean.sh" <<EOF
st=/tmp/queue-mean.last f=$OUT_DIR/lsw-timeseries.csv
{ read -r off <\$st; } 2>/dev/null || off=
size=\$(stat -c %s \$f) || exit 1
if [ -z "\$off" ] || [ "\$size" -lt "\$off" ]; then
	echo "\$size" >\$st
	exit 0
fi
rows=\$(tail -c +\$((off + 1)) \$f)
t=\$EPOCHREALTIME
awk -v off="\$off" -v st=\$st -v t="\$t" \\
	'NR > 1 {off += length(p) + 1
		 if (split(p, w, ",") == 13 && w[3] == "h2" && w[4] == 3) {s += w[5]; n++}}
	 {p = \$0}
	 END {print off > st; if (n) print s / n, t}' <<<"\$rows"
EOF
inv=$OUT_DIR/lab.conf
inventory "$inv"
# Unreachable: a namespace that does not exist.
inventory "$OUT_DIR/bad-unreach.conf" "" "$(local_host rxe_h1 | sed 's/^local = yes/netns = nosuchns/')"
preflight unreachable "unreachable" 1 "$OUT_DIR/bad-unreach.conf"
# A stock rdma_rxe: a device without cc/ (an empty tmpfs over it, seen by
# a host on this machine; a namespace's own sysfs would not show it).
cc1=$(readlink -f /sys/class/infiniband/rxe_h1)/ports/1/cc
mkdir -p /tmp/cc-copy && cp -a "$cc1"/. /tmp/cc-copy/ 2>/dev/null
mount -t tmpfs none "$cc1" && mnt+=("$cc1")
inventory "$OUT_DIR/bad-stock.conf" "" "$(local_host rxe_h1)"
preflight stock "stock rdma_rxe" 1 "$OUT_DIR/bad-stock.conf"
umount "$cc1" && mnt=()
# The algorithm missing: cc/available without acc.
echo "none dcqcn" >/tmp/avail
mount --bind /tmp/avail "$cc1/available" && mnt+=("$cc1/available")
preflight noalgo "does not offer acc" 1 "$OUT_DIR/bad-stock.conf"
umount "$cc1/available" && mnt=()
# perftest missing: a PATH with everything but perftest's tools.
bin=/tmp/nopt
mkdir -p "$bin"
for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
	for f in "$d"/*; do
		case "${f##*/}" in ib_*) continue ;; esac
		[ -e "$bin/${f##*/}" ] || ln -s "$f" "$bin/${f##*/}" 2>/dev/null
	done
done
preflight noperf "perftest missing" 3 "$inv" PATH="$bin"

# Restore on a kill: SIGTERM mid-run puts every knob back and leaves no
# perftest running.
before=$(e2e_knobs)
python3 "$lab" --lab "$inv" --scenario S2-2to1 --algos acc --seconds 60 \
	--out "$OUT_DIR/killed" >"$OUT_DIR/killed.log" 2>&1 &
pid=$!
for ((i = 0; i < 300; i++)); do
	[ "$(cat /sys/class/infiniband/rxe_h0/ports/1/cc/algorithm)" = acc ] &&
		pgrep -x ib_write_bw >/dev/null && break
	sleep 0.2
done
sleep 2
kill -TERM "$pid"
wait "$pid"
rc=$?
sleep 1
after=$(e2e_knobs)
left=$(pgrep -x ib_write_bw | wc -l)
sed 's/^/# lab: killed: /' "$OUT_DIR/killed.log" | tail -n 4
if [ "$before" != "$after" ]; then
	res restore fail "knobs differ after SIGTERM: $(diff <(echo "$before") <(echo "$after") | head -n 3 | tr '\n' ' ')"
elif [ "$left" -ne 0 ]; then
	res restore fail "$left perftest process(es) left running"
else
	res restore ok "exit $rc, every knob back, no perftest left"
fi

# The run: S2-2to1 with ACC, as eval/run does it in the test bed.
before=$(e2e_knobs)
timeout 900 python3 "$lab" --lab "$inv" --scenario S2-2to1 --algos "${LAB_ALGOS:-acc}" \
	--seconds "${LAB_SECONDS:-30}" --perf-args "-u 21" --out "$OUT_DIR/lab" \
	>"$OUT_DIR/lab.log" 2>&1
rc=$?
after=$(e2e_knobs)
sed 's/^/# lab: run: /' "$OUT_DIR/lab.log" | tail -n 12
[ $rc -eq 0 ] && res run ok "exit 0" || res run fail "exit $rc"
[ "$before" = "$after" ] && res run-restore ok "knobs as before" ||
	res run-restore fail "knobs changed by the run"
rxe_dmesg_clean && res dmesg ok "no splat" || res dmesg fail "kernel log splat"
exit 0

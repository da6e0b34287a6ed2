# SPDX-License-Identifier: GPL-2.0
# Checks on a finished e2e run, shared by the cc-*.sh suites (source it
# after setting $metrics to eval/metrics.py).

# get RUNDIR FIELD: one field of the run's metrics.json
get() { python3 "$metrics" get "$1/metrics.json" "$2"; }
f2() { awk -v x="$1" 'BEGIN {printf "%.2f", x}'; }
ge() { awk -v x="$1" -v y="$2" 'BEGIN {exit !(x >= y)}'; }
lt() { awk -v x="$1" -v y="$2" 'BEGIN {exit !(x < y)}'; }
within() { awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN {exit !(x >= lo && x <= hi)}'; }
# near X F PCT: |X - F| <= PCT % of F
near() { awk -v x="$1" -v f="$2" -v p="$3" 'BEGIN {d = x - f; if (d < 0) d = -d; exit !(f > 0 && d <= p / 100 * f)}'; }
# median V...: the middle one of an odd count of values.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
# keyval FILE KEY: the rest of FILE's first "KEY value..." line.
keyval() { awk -v k="$2" '$1 == k {$1 = ""; sub(/^ /, ""); print; exit}' "$1"; }
# hw DIR NAME [DEVS]: the sum of an rxe hw counter after the run.
hw() {
	local d=$1 n=$2 devs=${3:-rxe_h0 rxe_h1 rxe_h2} s=0 v x
	for x in $devs; do
		v=$(awk -v n="$n" '$1 == n {print $2}' "$d/hw-counters-after-$x.txt" 2>/dev/null)
		s=$((s + ${v:-0}))
	done
	echo $s
}

# splats RES RUN...: 0 if the guest kernel log of every RUN under RES is
# clean (selftests/vm/check-dmesg); prints what it found otherwise.
splats() {
	local res=$1 x sp=0
	shift
	for x in "$@"; do
		if [ -f "$res/$x/dmesg.txt" ]; then
			"$E2E_TOP/selftests/vm/check-dmesg" "$res/$x/dmesg.txt" >"$res/$x.dmesg-check" || {
				sp=1
				sed "s/^/# $x: /" "$res/$x.dmesg-check" | head -n 10
			}
		else
			echo "# $x: no dmesg.txt"
			sp=1
		fi
	done
	return $sp
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest script of the lsw test bed: one flow h0 -> h1 at a time, the CC
# algorithms taking turns on one VM (eval's S1, the hooks' cost).
#
# Each of E2E_IL_ROUNDS rounds runs one ib_write_bw of E2E_IL_ITERS
# messages of E2E_IL_SIZE bytes per algorithm of E2E_IL_ALGOS ("none acc
# ..."), algorithm k with the knobs of E2E_IL_KNOBS_k ("name=value ..."):
# in the list's order in odd rounds and reversed in even ones, so that no
# algorithm always runs first.  Side by side in time, the algorithms share
# the host's slow swings (qemu's and lsw's scheduling), which runs in VMs
# of their own do not; on the same two hosts, they share the NICs and lsw
# ports too.  Before its turn an algorithm's knobs are written, and every
# other knob of the list is put back to its value at boot, so that none
# carries over from the turn before.
#
# Output: $OUT_DIR/rR-aK/ (round R, algorithm K: e2e_flows' files, the hw
# counters before and after the turn), rounds.tsv (round, k, algo, rc, t0,
# t1), cc-DEV-K.txt (the knobs of each algorithm), trace.txt.  An
# algorithm the kernel lacks is left out ("# SKIP" line, no turns); exit
# 77 if that leaves none.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"

read -r -a algos <<<"${E2E_IL_ALGOS:?}"
rounds=${E2E_IL_ROUNDS:-4}
iters=${E2E_IL_ITERS:-2000}
size=${E2E_IL_SIZE:-65536}

e2e_start

# The knobs any algorithm of the list sets, with their values at boot.
declare -A boot
d=$(e2e_cc_dir "${E2E_DEVS[0]}")
for k in "${!algos[@]}"; do
	knobs=E2E_IL_KNOBS_$k
	for kv in ${!knobs:-}; do
		while IFS='=' read -r name v; do
			boot[$name]=$v
		done < <(e2e_files '=' "$d/${kv%%=*}")
	done
done
# il_setup K: algorithm K and its knobs on every device; the other
# algorithms' knobs as at boot.  Read back: a knob that did not take
# (status 1) would let one algorithm's turn run with another's knob.
il_setup() {
	local k=$1 knobs=E2E_IL_KNOBS_$1 rest=() name dev d kv v want
	for name in "${!boot[@]}"; do
		[[ " ${!knobs:-} " == *" $name="* ]] || rest+=("$name=${boot[$name]}")
	done
	E2E_CC_KNOBS="${rest[*]} ${!knobs:-}" e2e_cc_setup "${algos[$k]}" || return
	for dev in "${E2E_DEVS[@]}"; do
		d=$(e2e_cc_dir "$dev")
		for kv in "${rest[@]}" ${!knobs:-}; do
			want=${kv#*=}
			v=
			read -r v <"$d/${kv%%=*}" 2>/dev/null
			[ -z "$v" ] || [ "$v" = "$want" ] && continue
			echo "# $dev ${kv%%=*} reads $v, not $want, for ${algos[$k]}"
			return 1
		done
	done
	[ "${E2E_CC_DUMP:-1}" = 0 ] && return
	for dev in "${E2E_DEVS[@]}"; do
		mv "$E2E_OUT/cc-$dev.txt" "$E2E_OUT/cc-$dev-$k.txt"
	done
}
ks=()
for k in "${!algos[@]}"; do
	il_setup "$k"
	rc=$?
	[ $rc -eq 77 ] && continue
	[ $rc -eq 0 ] || e2e_fail "cc setup ${algos[$k]}"
	ks+=("$k")
done
[ ${#ks[@]} -gt 0 ] || exit 77
echo "${algos[*]}" >"$OUT_DIR/algo.txt"
e2e_trace_start
echo "# round k algo rc t0 t1" >"$OUT_DIR/rounds.tsv"
echo "# e2e-guest: ${#ks[@]} algorithms, $rounds rounds of $iters messages"
bad=0
t0=$(date +%s.%N)
for ((r = 1; r <= rounds; r++)); do
	order=("${ks[@]}")
	if [ $((r % 2)) -eq 0 ]; then
		order=()
		for k in "${ks[@]}"; do order=("$k" "${order[@]}"); done
	fi
	for k in "${order[@]}"; do
		# quiet unless it fails: it notes every knob this kernel lacks
		msg=$(E2E_CC_DUMP=0 il_setup "$k") ||
			{ echo "$msg"; e2e_fail "cc setup ${algos[$k]}, round $r"; }
		E2E_OUT=$OUT_DIR/r$r-a$k
		mkdir -p "$E2E_OUT"
		e2e_counters before
		s=$(date +%s.%N)
		e2e_flows "0 1 0 $iters $size"
		rc=$?
		printf '%d\t%d\t%s\t%d\t%s\t%s\n' "$r" "$k" "${algos[$k]}" "$rc" \
			"$s" "$(date +%s.%N)" >>"$OUT_DIR/rounds.tsv"
		e2e_counters after
		E2E_OUT=$OUT_DIR
		[ $rc -eq 0 ] || bad=$((bad + 1))
	done
done
echo "# e2e-guest: flows took $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}') s"
e2e_trace_stop
rxe_dmesg_clean || e2e_fail "kernel log splat"
[ $bad -eq 0 ] || e2e_fail "flows ($bad turns failed)"
echo "# e2e-guest: ok"

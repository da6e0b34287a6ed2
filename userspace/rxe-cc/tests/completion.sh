#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxe-cc.bash-completion: registered for rxe-cc; completes options, verbs,
# devices, knob names read from the device's cc/ and cc_experimental/
# (rxe-cc's own names without one, kept equal to `rxe-cc help knobs`),
# mlx5's names, values (short ranges from cc/knobs) and the qp filters.
# Each case fills COMP_LINE/COMP_POINT as bash does and calls the
# function.  TAP on stdout.  Usage: tests/completion.sh [rxe-cc]
here=$(cd "$(dirname "$0")" && pwd)
RXE_CC=${1:-$here/../rxe-cc}
tmp=$(mktemp -d /tmp/rxe-cc-comp.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export RXE_CC_SYSFS=$tmp/ib
. "$here/tap.sh"

# comp LINE: the completions of LINE with the cursor at its end, sorted,
# on one line, in a fresh bash that sourced the file
comp() {
	bash -c '. "$1"; COMP_LINE=$2; COMP_POINT=${#2}
		COMP_WORDBREAKS=${3:-$COMP_WORDBREAKS}
		read -ra COMP_WORDS <<<"$2"; COMP_CWORD=${#COMP_WORDS[@]}
		_rxe_cc; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " " | sed "s/ $//"' \
		_ "$here/../rxe-cc.bash-completion" "$1" "${2:-}"
}

# same WANT LINE [WORDBREAKS]
same() {
	local got
	got=$(comp "$2" "${3:-}")
	[ "$got" = "$1" ] || { echo "# '$2': got '$got', want '$1'"; return 1; }
}

ok "complete -p: registered for rxe-cc with -F _rxe_cc" eval '
	[ "$(bash -c ". \"$here/../rxe-cc.bash-completion\"; complete -p rxe-cc")" = "complete -F _rxe_cc rxe-cc" ]'

# rxe0: a few files of cc/ and cc_experimental/, and the module's cc/knobs
cc=$tmp/ib/rxe0/ports/1/cc
mkdir -p "$cc" "$tmp/ib/rxe0/ports/1/cc_experimental" "$tmp/ib/rxe1/ports/1/cc" \
	"$tmp/ib/mlx5_0/ports/1"
for k in algorithm available acc_base_rtt_us prio3_algorithm cnp_dscp; do
	echo 0 >"$cc/$k"
done
for k in acc_gate acc_halt; do
	echo 0 >"$tmp/ib/rxe0/ports/1/cc_experimental/$k"
done
echo "none acc" >"$cc/available"
cp "$here/knobs" "$cc/knobs"

# rxe-cc help knobs: its rows, the names of its mlx5 column
help_rows() { "$RXE_CC" help knobs rxe0 | awk '/^$/ { exit } /^ / { next } NR > 1'; }

ok "the static knob list is rxe-cc help knobs' writable knobs but the module's" eval '
	want=$(help_rows | awk "\$1 != \"available\" && \$1 != \"knobs\" { print \$1 }" |
		grep -vFxf <(cut -d" " -f1 "$here/knobs") | sort | tr "\n" " ")
	got=$(bash -c ". \"$here/../rxe-cc.bash-completion\"; echo \$_rxe_cc_static_knobs" | tr " " "\n" | sort | tr "\n" " ")
	[ -n "$want" ] && [ "$want" = "$got" ] || { echo "# $want"; echo "# $got"; false; }'
ok "the mlx5 names are those rxe-cc help knobs maps" eval '
	want=$(help_rows | awk "\$1 != \"available\" { for (i = 5; i <= NF; i++) if (\$i !~ /^\\(/) print \$i }" | sort | tr "\n" " ")
	got=$(bash -c ". \"$here/../rxe-cc.bash-completion\"; echo \$_rxe_cc_mlx5_knobs" | tr " " "\n" | sort | tr "\n" " ")
	[ -n "$want" ] && [ "$want" = "$got" ] || { echo "# $want"; echo "# $got"; false; }'

ok "verbs" same "help monitor qp set show" "rxe-cc "
ok "a verb by prefix" same "set show" "rxe-cc s"
ok "a long option" same "--json" "rxe-cc --j"
ok "options after a verb" same "--count --help --json --pretty --version -V -h -j -n -p" "rxe-cc show -"
ok "devices: those with cc/ only" same "rxe0 rxe1" "rxe-cc show "
ok "set: devices first" same "rxe0 rxe1" "rxe-cc set rx"
ok "set: the device's own knobs, read from sysfs (cc_experimental/ too)" \
	eval 'got=$(comp "rxe-cc set rxe0 ac"); [ "$got" = "acc_base_rtt_us= acc_gate= acc_halt=" ] || { echo "# $got"; false; }'
ok "set DEV/PORT: the same knobs" same "acc_base_rtt_us= acc_gate= acc_halt=" "rxe-cc set rxe0/1 acc_"
ok "set: not the read-only available and knobs" same "" "rxe-cc set rxe0 kno"
ok "set: mlx5 names with the device's" same "np_cnp_dscp= np_min_time_between_cnps=" "rxe-cc set rxe0 np_"
ok "set: mlx5's Mb/s names" same "rpg_ai_rate= rpg_hai_rate= rpg_max_rate= rpg_min_rate=" "rxe-cc set rxe0 rpg_"
ok "set on a device with no readable cc/: rxe-cc's own names, mlx5's" \
	eval 'same "prio3_algorithm= prio3_np=" "rxe-cc set rxe9 prio3" && same "" "rxe-cc set rxe9 acc_b"'
ok "set: values of algorithm from the device's available (= a word break)" \
	same "acc none" "rxe-cc set rxe0 algorithm="
ok "set: values whole when = is no word break" \
	same "prio3_algorithm=acc prio3_algorithm=default prio3_algorithm=none" \
	"rxe-cc set rxe0 prio3_algorithm=" " "
ok "set: a 0..1 knob, its range from cc/knobs" same "0 1" "rxe-cc set rxe0 acc_gate=1 acc_halt="
ok "set: a short range from cc/knobs; an mlx5 name's knob's" \
	eval 'same "0 1 2 3" "rxe-cc set rxe0 acc_gate=" && same "0 1" "rxe-cc set rxe0 rp_clamp_tgt_rate="'
ok "set: no list for a long range" same "" "rxe-cc set rxe0 acc_p_thresh="
ok "qp: devices and filters" same "lqpn pid rxe0 rxe1 state" "rxe-cc qp "
ok "qp DEV: the filters" same "lqpn pid state" "rxe-cc qp rxe0 "
ok "qp state: the state names" same "RTR RTS" "rxe-cc qp rxe0 state RT"
ok "qp link: devices" same "rxe0 rxe1" "rxe-cc -j qp link "
ok "monitor -n N: no completion for the count" same "" "rxe-cc monitor -n "
ok "help: its topics" same "knobs" "rxe-cc help k"
ok "help knobs: a device, one" eval 'same "rxe0 rxe1" "rxe-cc help knobs " &&
	same "" "rxe-cc help knobs rxe0 " && same "" "rxe-cc help set "'

tap_finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# eval/plot.sh OUT_DIR: PNG plots (gnuplot) of every run that has metrics:
#   SCEN/ALGO/rates.png    per-flow rate vs time (lsw, bins of metrics.py)
#   SCEN/queue.png         bottleneck queue vs time, one line per algorithm
#   SCEN/pauses.png        paused egress/NIC queues vs time, per algorithm
#   SCEN/ALGO/cc-rate.png  per-QP rate vs time with halts (rxe_cc trace)
#   SCEN/onset.png         the first 30 periods after the onset, one panel per
#                          algorithm on one axis in periods: paced rates
#                          (trace), throughput per period and queue (lsw)
set -u
out=$1
command -v gnuplot >/dev/null || { echo "# plot: no gnuplot"; exit 1; }
term='set terminal pngcairo size 900,450 noenhanced'
gnuplot -e 'set terminal pngcairo' -e 'exit' 2>/dev/null || term='set terminal png size 900,450'
# overlay PNG TITLE YLABEL PLOTS: one plot, one line per algorithm.
overlay() {
	gnuplot <<G
$term
set output '$1'
set title '$2'
set xlabel 'time (s)'; set ylabel '$3'; set grid; set key outside right
plot $4
G
}
while IFS=$'\t' read -r s a st _ dir; do
	[ "$st" = ok ] && [ -s "$dir/rates.dat" ] || continue
	n=$(awk '/^#/ {print NF - 2; exit}' "$dir/rates.dat")
	gnuplot <<G || exit 1
$term
set output '$dir/rates.png'
set title '$s $a: per-flow rate at the sender port (lsw)'
set xlabel 'time (s)'; set ylabel 'Mb/s'; set key outside right; set grid
plot for [i=1:$n] '$dir/rates.dat' using 1:(column(i+1)) with lines title sprintf('flow %d', i-1)
G
	if [ "$(grep -vc '^#' "$dir/cc-rate.dat" 2>/dev/null)" -gt 0 ]; then
		gnuplot <<G || exit 1
$term
set output '$dir/cc-rate.png'
set title '$s $a: QP rate (rxe_cc trace), halts marked'
set xlabel 'time (s)'; set ylabel 'Mb/s'; set grid; set key outside right
plot '$dir/cc-rate.dat' using 1:(\$4 == 0 ? \$3 : 1/0):2 with points pt 7 ps 0.3 lc variable title 'rate', \
     '' using 1:(\$4 == 1 ? 0 : 1/0) with points pt 2 lc rgb 'red' title 'halt'
G
	fi
done <"$out/runs.tsv"
for s in $(cut -f1 "$out/runs.tsv" | sort -u); do
	q= p=
	while IFS=$'\t' read -r s2 a st _ dir; do
		[ "$s2" = "$s" ] && [ "$st" = ok ] && [ -s "$dir/queue.dat" ] || continue
		q+="${q:+, }'$dir/queue.dat' using 1:2 with lines title '$a'"
		p+="${p:+, }'$dir/pauses.dat' using 1:2 with steps title '$a'"
	done <"$out/runs.tsv"
	[ -n "$q" ] || continue
	overlay "$out/$s/queue.png" "$s: bottleneck egress queue" KB "$q" || exit 1
	overlay "$out/$s/pauses.png" "$s: paused queues (switch egress + host NIC), prio 3" \
		'paused queues' "$p" || exit 1
done
# onset DIR...: one panel per run, side by side.
onset_plot() {
	local png=$1 title=$2; shift 2
	local n=$# i=0 cmds='' d a nf w=$((450 * $#))
	for d in "$@"; do
		a=$(basename "$d")
		nf=$(awk '/^#/ {print NF - 3; exit}' "$d/onset-lsw.dat")
		cmds+="set title '$a'
set origin $i.0/$n, 0; set size 1.0/$n, 0.93
plot for [k=1:$nf] '$d/onset-lsw.dat' using 1:(column(k+2)) with lines lw 2 title sprintf('flow %d (lsw, per T)', k-1), \
     '$d/onset-trace.dat' using 1:3 with steps dt 2 lc rgb 'orange' title 'paced (trace, per QP)', \
     '$d/onset-lsw.dat' using 1:2 axes x1y2 with lines lc rgb 'gray' title 'queue KB'
"
		i=$((i + 1))
	done
	gnuplot <<G
${term/900,450/$w,420}
set output '$png'
set multiplot title '$title'
set xlabel 'periods T from the onset'; set ylabel 'Mb/s'; set y2label 'queue KB'
set xrange [-5:30]; set yrange [0:*]; set y2range [0:*]; set ytics nomirror; set y2tics
set grid; set key top right font ',8'
$cmds
unset multiplot
G
}
for s in $(cut -f1 "$out/runs.tsv" | sort -u); do
	dirs=()
	while IFS=$'\t' read -r s2 a st _ dir; do
		[ "$s2" = "$s" ] && [ "$st" = ok ] && [ -s "$dir/onset-lsw.dat" ] && dirs+=("$dir")
	done <"$out/runs.tsv"
	[ ${#dirs[@]} -gt 0 ] || continue
	onset_plot "$out/$s/onset.png" "$s: the onset (second flow starts at 0)" "${dirs[@]}" || exit 1
done

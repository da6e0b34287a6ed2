#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of `make demo`: ib_write_bw between two namespaces.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/rxe.sh"
trap rxe_cleanup EXIT
rxe_two_hosts || exit 1
for size in 4096 65536; do
	rxe_perf ib_write_bw rxa rxe_a 10.10.0.1 rxb rxe_b -n 1000 -s "$size" || exit 1
	bw=$(rxe_perf_bw)
	printf 'ib_write_bw RC, %6d B messages, netns <-> netns: %8.2f MB/s = %.3f Gb/s\n' \
		"$size" "$bw" "$(awk -v b="$bw" 'BEGIN {print b * 8 / 1000}')" |
		tee -a "${OUT_DIR:-/tmp}/demo.txt"
done

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# READ and WRITE mixed on one RC QP under congestion control.  rc-mix
# (selftests/verbs) runs 32 batches of four 16 KiB WRITEs and one 1 MiB
# READ between two namespaces at a 256 B path MTU (veth MTU 400): one READ
# alone spans 4096 PSNs, far more than any fixed per-PSN table.  For ACC
# and for DCQCN on both ends:
#   * every READ and the written region check out, on both sides, with
#     more than 1024 packets outstanding;
#   * once the QPs are idle (all work completed, QPs still up), every RC QP
#     of both devices runs the algorithm and shows drv_cc_inflight_bytes 0;
#   * no splat.
# Runs in the test VM: make -C selftests/verbs && selftests/rxe/vm-suite cc-read.sh

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"
. "$here/../lib/rc-mix.sh"

trap rxe_cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "READ and WRITE mixed on one RC QP under CC" 7

mix_hosts "two namespaces, veth MTU 400" 400

# qps_idle ALGO: every RC QP of both devices runs ALGO with nothing in
# flight (the lists stay in MIX_DIR for the diagnostics).
qps_idle() {
	local dev bad=0
	for dev in rxe_a rxe_b; do
		rxe_rc_qps "$dev" cc_algorithm cc_inflight_bytes >"$MIX_DIR/qps-$dev.txt"
		[ -s "$MIX_DIR/qps-$dev.txt" ] || bad=1
		awk -v a="$1" '$2 != a || $3 != 0 {exit 1}' "$MIX_DIR/qps-$dev.txt" || bad=1
	done
	return $bad
}

# idle_ok ALGO: qps_idle, given the last ACKs their time (mix_settle).
idle_ok() {
	local dev rc=0
	mix_settle qps_idle "$1" || rc=1
	for dev in rxe_a rxe_b; do
		sed "s/^/# $dev qpn algorithm inflight_bytes: /" "$MIX_DIR/qps-$dev.txt"
	done
	return $rc
}

mix_case() {
	local algo=$1 verified=0 idle=1 mtu pkts
	MIX_DIR=${OUT_DIR:-/tmp}/$algo
	mkdir -p "$MIX_DIR"
	rxe_cc_both algorithm "$algo" || { ktap_fail "$algo: select the algorithm"; return; }
	if mix_server rxa 10.10.0.1 -T 100; then
		mix_client rxb 10.10.0.1 -H -T 100 -i 32 -w 4 -W 16384 -R 1048576 -d 4
		if mix_wait cli "^rc-mix: idle" 90; then
			idle_ok "$algo" && idle=0
		fi
	fi
	mix_end
	mtu=$(mix_field cli path_mtu) pkts=$(mix_field cli max_outstanding_packets)
	mix_verified && verified=1
	ktap_check "$algo: READs and WRITEs verified on both ends (path MTU ${mtu:-?}, work of up to ${pkts:-?} packets outstanding)" \
		test "$verified" = 1 -a "${mtu:-0}" = 256 -a "${pkts:-0}" -gt 1024
	ktap_check "$algo: idle QPs run $algo with drv_cc_inflight_bytes 0" test $idle = 0
	ktap_check "$algo: no splat" rxe_dmesg_clean
}

mix_case acc
mix_case dcqcn

ktap_finish

# SPDX-License-Identifier: GPL-2.0
# The VM test bed's hosts as a lab inventory (source this file; bash), for
# the guest (lib-guest.sh) and for the host, which reaches the same hosts
# over ssh (lab.sh).

# e2e_inventory [LAB_LINES [HOST_SECTIONS]]: the test bed as a lab for the
# lab runner (eval/lab/inventory.py): each host of E2E_DEVS (rxe_hK) its
# network namespace hK, reached by E2E_INV_REACH: netns (the default: the
# runner in the guest) or ssh (the runner on the host, through
# lib-host.sh's e2e_ssh_setup, whose Host hK enters namespace hK; with
# E2E_INV_DEST_PREFIX=sudo- its Host sudo-hK, as a user with sudo); the
# data and control DSCPs, the line rate and perftest's nice level as
# e2e_flows and e2e_cc_setup use them; the bed's unscaled settings; the
# base RTT E2E_BASE_RTT_US the host's scaling gives (eval/scaling.py
# BED_RTT_US; unset: the runner measures it).  LAB_LINES go into [lab];
# HOST_SECTIONS, if given, replace the hosts.
e2e_inventory() {
	local dev k
	printf '[lab]\ndscp = %d\nctrl_dscp = %d\nline_rate_mbps = %d\n' \
		$((${E2E_TCLASS:-104} >> 2)) "${E2E_CTRL_DSCP:-48}" "${E2E_LINE_MBPS:-20}"
	printf 'bed_extras = 1\nperftest_nice = %d\n' "${E2E_PERF_NICE:-19}"
	# veths have no DCB: PFC is lsw's (lab.rst, "Host QoS")
	echo "host_qos = none"
	[ -n "${E2E_BASE_RTT_US:-}" ] && echo "base_rtt_us = $E2E_BASE_RTT_US"
	[ -n "${1:-}" ] && echo "$1"
	if [ -n "${2:-}" ]; then
		echo "$2"
		return 0
	fi
	for dev in "${E2E_DEVS[@]}"; do
		k=${dev#rxe_h}
		printf '[host h%d]\n%s = %sh%d\nrdma = %s\nnetdev = eth%d\nip = 10.0.0.%d\n' \
			"$k" "${E2E_INV_REACH:-netns}" "${E2E_INV_DEST_PREFIX:-}" "$k" "$dev" "$k" \
			"$((k + 1))"
	done
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest script of selftests/e2e/lab.sh: the test bed's network namespaces
# as a lab's hosts.  First the pre-flight checks that need the guest's own
# hand (a device hidden, a tool missing), through the netns transport; then
# sshd on the management NIC, for the host side, which runs the lab runner
# as a lab does: over ssh, one destination per namespace
# (lib-host.sh e2e_ssh_setup), with lsw as the switch.  Prints "# lab: ..."
# lines and "LAB-RESULT name ok|fail detail" lines for the host side to
# assert on; $OUT_DIR/guest-ready once sshd listens; ends when the host
# side writes $OUT_DIR/host-done.  LAB_SSH_ONLY=1: no pre-flight cases,
# only the hosts and sshd (the second VM of lab.sh, its hosts reached as a
# user with sudo).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-guest.sh"
trap 'rxe_cleanup; cleanup_extra' EXIT
top=$(cd "$here/../.." && pwd)
lab=$top/eval/lab/main.py
res() { echo "LAB-RESULT $1 $2 ${*:3}"; }
mnt=()
cleanup_extra() { local m; for m in "${mnt[@]}"; do umount "$m" 2>/dev/null; done; }

e2e_hosts || { echo "# lab: cannot build the hosts"; exit 1; }

# inventory FILE [HOST_SECTIONS]: the test bed as a lab (e2e_inventory).
inventory() { e2e_inventory "" "${2:-}" >"$1"; }
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

inv=$OUT_DIR/lab.conf
inventory "$inv"
# The pre-flight cases, through the netns transport.
preflight_cases() {
	local cc1 bin d f
	# Unreachable: a namespace that does not exist.
	inventory "$OUT_DIR/bad-unreach.conf" "$(local_host rxe_h1 | sed 's/^local = yes/netns = nosuchns/')"
	preflight unreachable "unreachable" 1 "$OUT_DIR/bad-unreach.conf"
	# A stock rdma_rxe: a device without cc/ (an empty tmpfs over it, seen by
	# a host on this machine; a namespace's own sysfs would not show it).
	cc1=$(readlink -f /sys/class/infiniband/rxe_h1)/ports/1/cc
	mkdir -p /tmp/cc-copy && cp -a "$cc1"/. /tmp/cc-copy/ 2>/dev/null
	mount -t tmpfs none "$cc1" && mnt+=("$cc1")
	inventory "$OUT_DIR/bad-stock.conf" "$(local_host rxe_h1)"
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
}
[ "${LAB_SSH_ONLY:-0}" = 1 ] || preflight_cases

# The host side's turn: the restore on a kill and the run, over ssh.
e2e_sshd "$OUT_DIR/ssh" || { echo "# lab: sshd did not start: $(tail -n 2 "$OUT_DIR/sshd.log")"; exit 1; }
touch "$OUT_DIR/guest-ready"
echo "# lab: sshd listens on mgmt0; waiting for the host side"
until [ -e "$OUT_DIR/host-done" ]; do sleep 1; done
rxe_dmesg_clean && res dmesg ok "no splat" || res dmesg fail "kernel log splat"
exit 0

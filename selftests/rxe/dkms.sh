#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DKMS package on a lab host, in the test VM (booted with no rdma_rxe
# loaded; the overlay root takes dpkg's writes): dpkg -i DEB builds and
# installs rdma_rxe for the running kernel into updates/dkms, where
# modprobe finds it before the in-tree module; the module loaded is that
# one; an rxe device comes up with acc among its algorithms; with
# TOOLS_DEB, rxe-acc-tools installs into the guest's own root (the
# Debian 12 userspace every kernel here boots; the 6.12 and 7.2 roots
# have no libmnl0 or iproute2 it needs), `rxe-cc -V` reads the DKMS
# module's version and says it matches, rxe-acc-setup start and stop make
# and delete a link with its knobs through the packaged rxe-cc, and
# rxe-acc.service runs under systemd (lib-systemd.sh: started at boot,
# reloaded, stopped at shutdown); dpkg -r takes both away again.
# A kernel of scripts/kernels with a Debian root of its own (6.12 on
# trixie, 7.2 on sid; the runner links its modules dir) has its compiler,
# headers and dkms only there: the package goes into that root as onto a
# lab host of that release (dpkg in a chroot of it, on the guest's
# writable overlay), while modprobe runs in the guest as always.
# Runs in the test VM: selftests/rxe/vm-suite [--kver KVER] --no-module
# dkms.sh DEB [TOOLS_DEB]

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/lib-systemd.sh"

deb=${1:?usage: dkms.sh DEB [TOOLS_DEB]}
tools=${2:-}
kver=$(uname -r)
n=6
# shellcheck disable=SC2086 # SD_CASES: one word a case
[ -n "$tools" ] && n=$((n + 3 + $(echo $SD_CASES | wc -w)))
ktap_header "rxe-acc-dkms${tools:+ and rxe-acc-tools} on $kver" $n

# host: "" for the guest's own root, else the kernel's Debian root
host=
moddir=$(readlink -f "/lib/modules/$kver")
if [ "$moddir" != "/lib/modules/$kver" ]; then
	host=${moddir%/lib/modules/"$kver"}
	host=${host%/usr}	# a merged-/usr root
	for m in proc sys dev; do mount --bind "/$m" "$host/$m" || exit 1; done
	trap 'umount "$host/proc" "$host/sys" "$host/dev" 2>/dev/null' EXIT
	mkdir -p "$host/tmp" && cp "$deb" "$host/tmp/" || exit 1
	deb=/tmp/$(basename "$deb")
	ktap_diag "lab host: $(sed -n 's/^PRETTY_NAME=//p' "$host/etc/os-release") root $host"
fi
on_host() { if [ -n "$host" ]; then chroot "$host" "$@"; else "$@"; fi; }

# tools_cases: rxe-acc-tools in the guest's own root, on the DKMS module.
tools_cases() {
	local f miss="" v want j c rc ok_start tv mv m
	if dpkg -i "$tools" >"$OUT_DIR/dpkg-tools.log" 2>&1; then
		for f in /usr/sbin/rxe-cc /usr/sbin/lsw /usr/sbin/rxe-acc-setup \
			 /lib/systemd/system/rxe-acc.service /etc/rxe-acc.conf \
			 /usr/share/man/man8/rxe-cc.8.gz /usr/share/man/man8/rxe-acc-setup.8.gz \
			 /usr/share/bash-completion/completions/rxe-cc \
			 /etc/systemd/system/multi-user.target.wants/rxe-acc.service; do
			[ -e "$f" ] || miss+=" $f"
		done
		ktap_check "dpkg -i $(basename "$tools"): tools, unit (enabled), man pages, completion${miss:+; missing:$miss}" \
			test -z "$miss"
	else
		sed 's/^/# /' "$OUT_DIR/dpkg-tools.log" | tail -n 20
		ktap_fail "dpkg -i $(basename "$tools")"
	fi
	# -V: the tool's release against the DKMS module's VERSION-rxe-acc
	/usr/sbin/rxe-cc -V 2>&1 | sed 's/^/# rxe-cc -V: /'
	j=$(/usr/sbin/rxe-cc -j -V 2>/dev/null)
	v=$(echo "$j" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["tool"]["version"], d["module"]["version"], d["match"])' 2>/dev/null)
	want=$(modinfo -F version "$path" 2>/dev/null)
	read -r tv mv m <<<"$v"
	ktap_check "rxe-cc -V from the package: module $mv, as modinfo has it ($want), matches tool $tv" \
		test -n "$tv" -a "$mv" = "$tv-rxe-acc" -a "$mv" = "$want" -a "$m" = True
	# rxe-acc-setup from the package, with the packaged rxe-cc (PATH)
	ip link add tdv0 type dummy && ip link set tdv0 up
	printf 'rxt0 tdv0 algorithm=acc acc_ack_every=16\n' >"$OUT_DIR/tools.conf"
	RXE_ACC_WAIT=5 /usr/sbin/rxe-acc-setup start "$OUT_DIR/tools.conf" 2>"$OUT_DIR/setup.err"
	rc=$?
	c=/sys/class/infiniband/rxt0/ports/1/cc
	ok_start=$([ $rc -eq 0 ] && [ "$(cat $c/algorithm 2>/dev/null)" = acc ] &&
		[ "$(cat $c/acc_ack_every 2>/dev/null)" = 16 ] && echo 1)
	/usr/sbin/rxe-acc-setup stop "$OUT_DIR/tools.conf" 2>>"$OUT_DIR/setup.err"
	sed 's/^/# /' "$OUT_DIR/setup.err"
	ktap_check "rxe-acc-setup start makes rxt0 with algorithm=acc acc_ack_every=16, stop deletes it" \
		test -n "$ok_start" -a ! -e /sys/class/infiniband/rxt0
	ip link delete tdv0 2>/dev/null
	# rxe-acc.service under systemd: the guest root's own
	sd_ktap "rxe-acc.service under systemd"
	dpkg -r rxe-acc-tools >"$OUT_DIR/dpkg-tools-remove.log" 2>&1 ||
		ktap_diag "dpkg -r rxe-acc-tools failed: $(tail -n 1 "$OUT_DIR/dpkg-tools-remove.log")"
}

t0=$(date +%s)
if on_host dpkg -i "$deb" >"$OUT_DIR/dpkg-install.log" 2>&1; then
	ktap_pass "dpkg -i $(basename "$deb") (DKMS build $(($(date +%s) - t0)) s)"
else
	sed 's/^/# /' "$OUT_DIR/dpkg-install.log" | tail -n 30
	cat "$host"/var/lib/dkms/rxe-acc/*/build/make.log 2>/dev/null | tail -n 20 | sed 's/^/# /'
	ktap_fail "dpkg -i $(basename "$deb")"
	exit 1
fi

path=$(modinfo -n rdma_rxe 2>/dev/null)
ktap_diag "modinfo -n rdma_rxe: $path"
ktap_check "modprobe resolves rdma_rxe to updates/dkms" \
	test "${path#/lib/modules/$kver/updates/dkms/}" != "$path"

# The module in memory is the DKMS one: same srcversion.
want=$(modinfo -F srcversion "$path" 2>/dev/null)
if modprobe rdma_rxe && [ -n "$want" ] &&
   [ "$(cat /sys/module/rdma_rxe/srcversion 2>/dev/null)" = "$want" ]; then
	ktap_pass "modprobe rdma_rxe loads it (srcversion $want)"
else
	ktap_fail "modprobe rdma_rxe loads it (srcversion $want, loaded $(cat /sys/module/rdma_rxe/srcversion 2>/dev/null))"
fi

ip link add rxedkms0 type dummy && ip link set rxedkms0 up
ktap_check "rdma link add rxe0 type rxe netdev rxedkms0" \
	rdma link add rxe0 type rxe netdev rxedkms0

avail=$(cat /sys/class/infiniband/rxe0/ports/1/cc/available 2>/dev/null)
ktap_diag "cc/available: $avail"
ktap_check "cc/available lists acc" grep -qw acc <<<"$avail"

[ -n "$tools" ] && tools_cases
rdma link delete rxe0 2>/dev/null
modprobe -r rdma_rxe 2>/dev/null
if on_host dpkg -r rxe-acc-dkms >"$OUT_DIR/dpkg-remove.log" 2>&1 &&
   [ ! -e "$path" ] && ! modinfo -n rdma_rxe 2>/dev/null | grep -q updates/dkms; then
	ktap_pass "dpkg -r removes it; rdma_rxe is the in-tree module again"
else
	ktap_fail "dpkg -r removes it; rdma_rxe is the in-tree module again"
fi
ktap_finish

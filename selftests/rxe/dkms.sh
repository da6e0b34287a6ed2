#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The DKMS package on a lab host, in the test VM (booted with no rdma_rxe
# loaded; the overlay root takes dpkg's writes): dpkg -i DEB builds and
# installs rdma_rxe for the running kernel into updates/dkms, where
# modprobe finds it before the in-tree module; the module loaded is that
# one; an rxe device comes up with acc among its algorithms; dpkg -r
# takes the module away again.
# A kernel of scripts/kernels with a Debian root of its own (6.12 on
# trixie, 7.2 on sid; the runner links its modules dir) has its compiler,
# headers and dkms only there: the package goes into that root as onto a
# lab host of that release (dpkg in a chroot of it, on the guest's
# writable overlay), while modprobe runs in the guest as always.
# Runs in the test VM: selftests/rxe/vm-suite [--kver KVER] --no-module
# dkms.sh DEB

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"

deb=${1:?usage: dkms.sh DEB}
kver=$(uname -r)
ktap_header "rxe-acc-dkms on $kver" 6

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

rdma link delete rxe0 2>/dev/null
modprobe -r rdma_rxe 2>/dev/null
if on_host dpkg -r rxe-acc-dkms >"$OUT_DIR/dpkg-remove.log" 2>&1 &&
   [ ! -e "$path" ] && ! modinfo -n rdma_rxe 2>/dev/null | grep -q updates/dkms; then
	ktap_pass "dpkg -r removes it; rdma_rxe is the in-tree module again"
else
	ktap_fail "dpkg -r removes it; rdma_rxe is the in-tree module again"
fi
ktap_finish

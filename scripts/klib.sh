# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# scripts/klib.sh - sourced: look up a kernel of scripts/kernels.
#
#   kernel_line KVER   sets K_SERIES K_RELEASE K_KVER K_PKGVER K_ROOT
#                      (K_ROOT: "" for the host, else its build/roots dir);
#                      returns 1 for a KVER not in the table (a kernel of the
#                      host's own, built with the 6.1 series)
#   kernel_kvers       every KVER of the table, in order

klib_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

kernel_kvers() {
	awk '!/^[[:space:]]*(#|$)/ { print $3 }' "$klib_top/scripts/kernels"
}

# shellcheck disable=SC2034 # K_* are for the caller
kernel_line() {
	local l
	l=$(awk -v k="$1" '!/^[[:space:]]*(#|$)/ && $3 == k { print; exit }' \
		"$klib_top/scripts/kernels")
	K_SERIES=6.1 K_RELEASE=host K_KVER=$1 K_PKGVER='' K_ROOT=''
	[ -n "$l" ] || return 1
	read -r K_SERIES K_RELEASE K_KVER K_PKGVER <<<"$l"
	[ "$K_RELEASE" = host ] || K_ROOT=$klib_top/build/roots/$K_RELEASE
	return 0
}

# in_kernel_root ROOT BIND CMD... - run CMD chrooted in ROOT with /proc
# and /dev, and BIND (a host dir, or "") mounted at its own path, in a
# private mount namespace so nothing stays mounted when it ends.  Root
# (or sudo) needed.
in_kernel_root() {
	local sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo unshare -m --propagation private sh -c '
		r=$1 bind=$2; shift 2
		mount -t proc proc "$r/proc"
		mount --rbind /dev "$r/dev"
		if [ -n "$bind" ]; then
			mkdir -p "$r$bind"
			mount --bind "$bind" "$r$bind"
		fi
		exec chroot "$r" "$@"' in_kernel_root "$@"
}

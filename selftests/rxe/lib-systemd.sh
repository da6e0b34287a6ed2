# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# rxe-acc.service under systemd, in the test VM (source this file; bash).
#
# The VM's init is selftests/vm/guest-init, not systemd; but the root it
# boots is a Debian root with systemd (/lib/systemd/systemd, the host's
# own init).  sd_boot runs that systemd as PID 1 of PID, mount, UTS and
# IPC namespaces of its own (as systemd-nspawn would, container=rxe-vm: the
# same unit files, the same /etc, the VM's network namespace and RDMA
# devices), so the unit is started, reloaded and stopped by systemd
# itself, as at a lab host's boot and shutdown.
#
#   sd_have ROOT               exit 0 if ROOT has systemd, else prints why not
#   sd_boot ROOT OUT CONF NAME NETDEV KNOB VALUE1 VALUE2
#       ROOT ("" or /: the guest's own root; else a Debian root to chroot
#       into, with /proc /sys /dev bound in) must have rxe-acc.service,
#       /usr/sbin/rxe-acc-setup and rxe-cc installed (a package, or make
#       install).  Writes CONF (/etc/rxe-acc.conf in ROOT) with link NAME
#       on NETDEV and KNOB=VALUE1, enables the unit as its [Install]
#       says (systemctl enable: multi-user.target.wants), masks every
#       other unit multi-user.target wants, and boots systemd to
#       multi-user.target.  A checker unit, ordered after rxe-acc.service,
#       records what it finds and asks systemd to exit (poweroff, in a
#       container): the unit active, the link made with KNOB=VALUE1,
#       CONF edited to VALUE2 and `systemctl reload rxe-acc` applying it.
#       After systemd is gone: the unit's stop at shutdown deleted the
#       link.  Prints "SD-RESULT name ok|fail detail" lines, names:
#       enabled, active, link, reload, stop; their detail says what was
#       seen.  OUT gets systemd's log (systemd.log) and the checker's.
#       Exit 0.
#   sd_ktap PREFIX             sd_boot on the guest's own root (link rxsd0
#       on a dummy sdv0, acc_ack_every 16 then 32) as KTAP cases (after
#       ../lib/ktap.sh), one per name of SD_CASES, "PREFIX: NAME (what
#       was seen)"; each a SKIP that says why where the root has no
#       systemd.  The unit and the tools must be installed.

SD_CASES="enabled active link reload stop"

sd_have() {
	local root=${1:-/}
	if [ ! -x "$root/lib/systemd/systemd" ]; then
		echo "no systemd in ${root} (/lib/systemd/systemd)"
		return 1
	fi
	if [ ! -d /sys/fs/cgroup ] || ! grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts; then
		echo "no cgroup2 at /sys/fs/cgroup, which systemd needs"
		return 1
	fi
	return 0
}

sd_boot() {
	local root=${1:-/} out=$2 conf=$3 name=$4 netdev=$5 knob=$6 v1=$7 v2=$8
	local in=() u w rc t0 a r p k s
	[ "$root" = / ] || in=(chroot "$root")
	local etc=$root/etc/systemd/system

	# The unit enabled as its [Install] section says.
	mkdir -p "$root$(dirname "$conf")"
	echo "$name $netdev $knob=$v1" >"$root$conf"
	"${in[@]}" systemctl enable rxe-acc.service >"$out/systemd-enable.txt" 2>&1
	if [ -L "$etc/multi-user.target.wants/rxe-acc.service" ]; then
		echo "SD-RESULT enabled ok systemctl enable: multi-user.target.wants/rxe-acc.service -> $(readlink "$etc/multi-user.target.wants/rxe-acc.service")"
	else
		echo "SD-RESULT enabled fail systemctl enable made no multi-user.target.wants link: $(tr '\n' ' ' <"$out/systemd-enable.txt")"
	fi
	# Everything else multi-user.target would start (the root's own
	# services: a database, sshd, getty) is masked in this boot.
	for w in "$etc"/multi-user.target.wants/* "$root"/lib/systemd/system/multi-user.target.wants/*; do
		[ -e "$w" ] || [ -L "$w" ] || continue
		u=${w##*/}
		[ "$u" = rxe-acc.service ] && continue
		ln -sfn /dev/null "$etc/$u"
	done
	# The checker: after rxe-acc.service has started, as a later unit of
	# the boot would see it.
	cat >"$root/usr/local/sbin/rxe-acc-sd-check" <<EOF
#!/bin/sh
cc=/sys/class/infiniband/$name/ports/1/cc/$knob
{
	echo "active \$(systemctl is-active rxe-acc.service) \$(systemctl show -p Result --value rxe-acc.service)"
	echo "link \$(cat /sys/class/infiniband/$name/parent 2>/dev/null || echo none) \$(cat \$cc 2>/dev/null || echo none)"
	sed -i 's/$knob=$v1/$knob=$v2/' $conf
	systemctl reload rxe-acc.service
	echo "reload \$? \$(systemctl is-active rxe-acc.service) \$(cat \$cc 2>/dev/null || echo none)"
} >/run/rxe-acc-sd-check.txt 2>&1
cp /run/rxe-acc-sd-check.txt /tmp/rxe-acc-sd-check.txt
systemctl --no-block exit 0
EOF
	chmod +x "$root/usr/local/sbin/rxe-acc-sd-check"
	cat >"$etc/rxe-acc-sd-check.service" <<EOF
[Unit]
Description=rxe-acc test: what rxe-acc.service left at boot
After=rxe-acc.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/rxe-acc-sd-check
EOF
	mkdir -p "$etc/multi-user.target.wants"
	ln -sfn ../rxe-acc-sd-check.service "$etc/multi-user.target.wants/rxe-acc-sd-check.service"
	rm -f "$root/tmp/rxe-acc-sd-check.txt"

	# A container has no udev: systemd-nspawn mounts /sys read-only, which
	# makes udev's units skip themselves.  /sys stays writable here (the
	# unit writes knobs there), so they are masked instead.
	# systemd-tmpfiles-setup walks the whole root, which here is the
	# host's (205 s of a 238 s boot in TCG); the unit needs none of it.
	for u in systemd-udevd.service systemd-udev-trigger.service \
		 systemd-udev-settle.service systemd-udevd-control.socket \
		 systemd-udevd-kernel.socket systemd-tmpfiles-setup.service \
		 systemd-tmpfiles-clean.timer; do
		ln -sfn /dev/null "$etc/$u"
	done

	t0=$(date +%s)
	# systemd as PID 1 of new PID, mount, UTS and IPC namespaces, as
	# systemd-nspawn would start it: a /proc of that PID namespace with
	# /proc/sys read-only (so that the units a container does without,
	# binfmt_misc, sysctl, skip themselves), and in a Debian root the
	# cgroup2 tree its /sys bind lacks.  The VM's network namespace, and
	# /sys writable: the unit makes links and writes knobs.  Its log goes
	# to the kernel's (dmesg.txt: the console shows errors only).  SIGKILL
	# after 420 s: PID 1 ignores SIGTERM, and killing unshare's child ends
	# the namespace.
	local kn
	kn=$(dmesg | wc -l)
	timeout -s KILL 420 unshare --pid --fork --kill-child=SIGKILL --mount \
		--propagation private --uts --ipc sh -c '
		r=$1
		mount -t proc proc "$r/proc" &&
			mount --bind "$r/proc/sys" "$r/proc/sys" &&
			mount -o remount,bind,ro "$r/proc/sys" || exit 1
		grep -q " $r/sys/fs/cgroup cgroup2 " /proc/mounts ||
			mount -t cgroup2 cgroup2 "$r/sys/fs/cgroup" || exit 1
		exec chroot "${r:-/}" /usr/bin/env -i container=rxe-vm \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			/lib/systemd/systemd --system --unit=multi-user.target \
			--log-target=kmsg --log-level=info --show-status=no' \
		sh "${root%/}" </dev/null >"$out/systemd.log" 2>&1
	rc=$?
	dmesg | tail -n +$((kn + 1)) >>"$out/systemd.log"
	cp "$root/tmp/rxe-acc-sd-check.txt" "$out/" 2>/dev/null
	echo "# systemd ran $(($(date +%s) - t0)) s, exit $rc; its last lines ($out/systemd.log):"
	grep 'systemd\[1\]' "$out/systemd.log" | tail -n 8 | sed 's/^/#   /'
	local f=$out/rxe-acc-sd-check.txt
	sd_line() { sed -n "s/^$1 //p" "$f" 2>/dev/null; }
	read -r a r <<<"$(sd_line active)"
	if [ "$a" = active ] && [ "$r" = success ]; then
		echo "SD-RESULT active ok systemd started rxe-acc.service at boot: $a, result $r"
	else
		echo "SD-RESULT active fail rxe-acc.service at boot: '${a:-no checker output}' result '${r:-}' (systemd exit $rc, $out/systemd.log)"
	fi
	read -r p k <<<"$(sd_line link)"
	if [ "$p" = "$netdev" ] && [ "$k" = "$v1" ]; then
		echo "SD-RESULT link ok $name on $p with $knob=$k"
	else
		echo "SD-RESULT link fail $name: parent '${p:-}', $knob '${k:-}' (want $netdev, $v1)"
	fi
	read -r s a k <<<"$(sd_line reload)"
	if [ "$s" = 0 ] && [ "$a" = active ] && [ "$k" = "$v2" ]; then
		echo "SD-RESULT reload ok systemctl reload rxe-acc: $knob=$k from the edited $conf"
	else
		echo "SD-RESULT reload fail systemctl reload rxe-acc: status '${s:-}', '${a:-}', $knob '${k:-}' (want $v2)"
	fi
	if [ $rc -eq 0 ] && [ ! -e "/sys/class/infiniband/$name" ]; then
		echo "SD-RESULT stop ok systemd exited 0 and its shutdown (ExecStop) deleted $name"
	else
		echo "SD-RESULT stop fail systemd exit $rc; $name $([ -e "/sys/class/infiniband/$name" ] && echo "still there" || echo gone)"
		rdma link delete "$name" 2>/dev/null
	fi
	return 0
}

sd_ktap() {
	local prefix=$1 why sd c line d
	if ! why=$(sd_have /); then
		for c in $SD_CASES; do ktap_skip "$prefix: $c" "$why"; done
		return 0
	fi
	ip link add sdv0 type dummy && ip link set sdv0 up
	sd=$(sd_boot / "$OUT_DIR" /etc/rxe-acc.conf rxsd0 sdv0 acc_ack_every 16 32)
	echo "$sd" | grep -v '^SD-RESULT'
	for c in $SD_CASES; do
		line=$(echo "$sd" | grep -m1 "^SD-RESULT $c ")
		d=$(echo "$line" | cut -d' ' -f4-)
		if [ "$(echo "$line" | cut -d' ' -f3)" = ok ]; then
			ktap_pass "$prefix: $c ($d)"
		else
			ktap_fail "$prefix: $c (${d:-no result})"
		fi
	done
	ip link delete sdv0 2>/dev/null
}

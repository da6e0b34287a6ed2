#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# userspace/rxe-acc-setup, what rxe-acc.service runs at boot, on the real
# module: links made from a config whose netdev appears late, knobs set
# through rxe-cc, a second start idempotent, a knob the kernel refuses
# value refused reported, stop deleting the links; then the unit itself
# under systemd (lib-systemd.sh: the root's systemd as PID 1 of a
# namespace of its own, the tree's files installed where the
# rxe-acc-tools package puts them): enabled, started at boot, reloaded
# after an edit, stopped at shutdown.
# Runs in the test VM: selftests/rxe/vm-suite setup.sh (rxe-cc built).

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/lib-systemd.sh"

SETUP=$here/../../userspace/rxe-acc-setup/rxe-acc-setup
export RXE_CC=$here/../../userspace/rxe-cc/rxe-cc
conf=$(mktemp)
err=$(mktemp)
cleanup() {
	rdma link delete rxs0 2>/dev/null
	rdma link delete rxs1 2>/dev/null
	ip link delete sva 2>/dev/null
	rdma link delete rxsd0 2>/dev/null
	ip link delete sdv0 2>/dev/null
	rm -f "$conf" "$err"
}
trap cleanup EXIT

ktap_header "rxe-acc-setup: boot-time links and knobs" 11
cc() { cat "/sys/class/infiniband/$1/ports/1/cc/$2"; }

cat >"$conf" <<'C'
# as /etc/rxe-acc.conf
rxs0 sva algorithm=acc acc_period_us=4000 acc_halt_max_us=32000
rxs1 svb prio3_algorithm=dcqcn prio3_np=1
C
# acc_period_us=4000 is refused before acc_halt_max_us=32000: rxe-cc
# orders them.  The netdevs appear 2 s after start, as a NIC's driver may at boot.
(sleep 2; ip link add sva type veth peer name svb) &
RXE_ACC_WAIT=20 "$SETUP" start "$conf" 2>"$err"
rc=$?
wait
ktap_check "start waits for late netdevs and makes both links (status $rc)" \
	test $rc = 0 -a "$(cat /sys/class/infiniband/rxs0/parent 2>/dev/null)" = sva \
	     -a "$(cat /sys/class/infiniband/rxs1/parent 2>/dev/null)" = svb
ktap_check "knobs set through rxe-cc: rxs0 acc, period 4000; rxs1 prio3 dcqcn" \
	test "$(cc rxs0 algorithm)" = acc -a "$(cc rxs0 acc_period_us)" = 4000 \
	     -a "$(cc rxs1 prio3_algorithm)" = dcqcn -a "$(cc rxs1 algorithm)" = none
echo 2000 >/sys/class/infiniband/rxs0/ports/1/cc/acc_period_us
"$SETUP" start "$conf" 2>>"$err"
rc=$?
ktap_check "start again: status $rc, no third device, knob back to 4000" \
	test $rc = 0 -a "$(find /sys/class/infiniband/ -maxdepth 1 -name 'rxs*' | wc -l)" = 2 \
	     -a "$(cc rxs0 acc_period_us)" = 4000
[ -s "$err" ] && sed 's/^/# /' "$err"
printf 'rxs0 sva acc_period_us=0\n' >"$conf.bad"
"$SETUP" start "$conf.bad" 2>"$err"
rc=$?
refused() {
	[ $rc = 1 ] && [ "$(cc rxs0 acc_period_us)" = 4000 ] &&
		grep -q "$conf.bad:1: rxe-cc set rxs0 acc_period_us=0 failed" "$err"
}
ktap_check "a knob value refused: status 1, the line named, value kept" refused
sed 's/^/# /' "$err"
rm -f "$conf.bad"
"$SETUP" stop "$conf"
rc=$?
ktap_check "stop deletes both links (status $rc)" \
	test $rc = 0 -a ! -e /sys/class/infiniband/rxs0 -a ! -e /sys/class/infiniband/rxs1
printf 'rxs0 nosuchdev\n' >"$conf"
RXE_ACC_WAIT=1 "$SETUP" start "$conf" 2>"$err"
rc=$?
ktap_check "a netdev that never comes: status 1, one line" \
	test $rc = 1 -a "$(wc -l <"$err")" = 1 -a ! -e /sys/class/infiniband/rxs0
sed 's/^/# /' "$err"

# The unit under systemd, its files where rxe-acc-tools installs them (in
# the guest's overlay of the root).
src=$here/../../userspace
if sd_have / >/dev/null; then
	install -D -m 0755 "$src/rxe-cc/rxe-cc" /usr/sbin/rxe-cc &&
		install -D -m 0755 "$src/rxe-acc-setup/rxe-acc-setup" /usr/sbin/rxe-acc-setup &&
		install -D -m 0644 "$src/rxe-acc-setup/rxe-acc.service" /lib/systemd/system/rxe-acc.service
fi
sd_ktap "under systemd"
ktap_finish

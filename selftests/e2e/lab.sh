#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/e2e/lab.sh: the lab runner (eval/lab, `eval/run --lab`) on the
# test bed, host side (TAP).  One VM whose network namespaces are the lab's
# hosts, lsw as the lab's switch (its queue and PFC frames read through the
# inventory's switch commands):
#   * pre-flight, in the guest through the netns transport (lab-guest.sh):
#     an unreachable host, a stock rdma_rxe, an algorithm the module lacks
#     and perftest missing each stop the run with one line per host
#     concerned and change no knob;
#   * then the runner here, as a lab runs it: each namespace its own ssh
#     destination through the VM's management NIC (lab-ssh.sh): a host
#     unreachable over ssh stops the run alike; SIGTERM in the middle of
#     a run puts every knob back and leaves no perftest running;
#   * the S2-2to1 incast through the lab path gives the table of the
#     built-in test bed's runs of the same scenario (eval/run, three
#     repeats), for each algorithm of LAB_ALGOS (default none,acc):
#     utilisation, Jain, fair share, and the switch's counters read
#     through the inventory's commands (PFC frames, queue) against the
#     repeats' medians, and ACC's halts per second from the trace
#     against the repeats' range, and its paced rate (the paced rate's
#     share within +-10 % a known failure, lower on the lab path:
#     lab.rst);
#   * nothing started here is left: no ssh master, no runner;
#   * a second VM, as a lab without root logins and with a commodity
#     WRED/ECN switch has it: each host reached as a user with
#     password-less sudo (made in the guest, lab-ssh.sh lab_ssh_sudo),
#     the inventory's sudo = yes and marking = ecn, lsw a RED step at
#     ACC's K: the ssh user is not root and sudo makes it root, the ACC
#     run passes over ssh with sudo, every knob goes back, and ACC was
#     told of CE marks only, and halted.
# Every VM with two vCPUs (LAB_VM_ARGS, below).
# Results: build/results/e2e-lab/{builtin,vm,vm-sudo}/.  About 22 minutes.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib-host.sh"
. "$here/../lib/ktap.sh"
. "$here/lib-checks.sh"
. "$here/lib-inventory.sh"
. "$here/lab-ssh.sh"
# shellcheck disable=SC2034 # lib-checks.sh's get reads it
metrics=$E2E_TOP/eval/metrics.py
scaling=$E2E_TOP/eval/scaling.py
res=$E2E_TOP/build/results/e2e-lab
# eval/run's own default: with 16 s flows the second perftest, 3-7.5 s
# late to its data under load, overlapped the first for 0-10 s, and in
# one run of ACC not at all (26 November).
secs=${LAB_SECONDS:-30}
algos=${LAB_ALGOS:-none,acc}
n_algos=$(echo "$algos" | tr ',' '\n' | wc -l)

ktap_header "the lab runner on the test bed" $((16 + 6 * n_algos))
rm -rf "$res"
mkdir -p "$res"

# guest_ready DIR PID: wait up to 900 s for the guest's DIR/guest-ready
# (its sshd listens) while the VM run PID lives; status 0 once it is there.
guest_ready() {
	local i
	for ((i = 0; i < 900; i++)); do
		[ -e "$1/guest-ready" ] && return 0
		kill -0 "$2" 2>/dev/null || break
		sleep 1
	done
	[ -e "$1/guest-ready" ]
}

# Every VM here has two vCPUs (LAB_VM_ARGS, selftests/vm/run's options):
# the lab path puts sshd's sessions, the NIC samplers and the trace reads
# into the guest beside the flows, and on one vCPU the joining flow's
# perftest (nice 19) started 12 s late under ACC, after the first flow
# had all but ended (an all-active window of 0.01 s in both of 28
# November's ACC runs).  The built-in run gets the same VM, so the two
# paths compare alike.
vm_args=${LAB_VM_ARGS---smp 2}

# The built-in runs first, as eval/run does them, three of each
# algorithm: one run a path was too few.  ACC's halts per second per
# flow read 1.19/1.48, 0.84/0.77 and 1.86/1.32 (lab path/built-in) in
# three runs of 28 November, 41 % apart in the last, so the lab path's
# one run is held against the spread of the built-in's three, measured
# in the same run, and its other figures against their medians.
builtin_reps=3
E2E_VM_ARGS=$vm_args EVAL_SECONDS=$secs "$E2E_TOP/eval/run" --scenario S2-2to1 \
	--algos "$algos" --repeat $builtin_reps --out "$res/builtin" >"$res/builtin.log" 2>&1
if [ "$(find "$res/builtin/S2-2to1" -path '*/r[0-9]*/metrics.json' 2>/dev/null | wc -l)" -eq $((n_algos * builtin_reps)) ]; then
	ktap_pass "the built-in runs (eval/run S2-2to1 $algos)"
else
	ktap_fail "the built-in runs (eval/run S2-2to1 $algos): see $res/builtin.log"
fi

# The lab path: the same switch; the runner on this machine, as a lab's
# runs on a machine of its own, its hosts the guest's namespaces over ssh
# (lab-ssh.sh), after the guest's own pre-flight cases (lab-guest.sh).
# lsw's series every 10 ms, not 1: the queue command reads it.
export E2E_HOST_SW="s1 s1 s1" E2E_RATE=20Mbps E2E_MARKING=tcd E2E_INTERVAL=10ms
E2E_LSW_EXTRA=$(python3 "$scaling" lsw acc --line-bps 20e6)
E2E_BASE_RTT_US=$(python3 -c "import sys; sys.path.insert(0, '$E2E_TOP/eval'); import scaling; print(scaling.BED_RTT_US)")
export E2E_LSW_EXTRA E2E_BASE_RTT_US
d=$res/vm
port=$(e2e_tcp_port)
mkdir -p "$d"
# Without keys the guest's sshd does not start: every ssh case fails.
e2e_ssh_setup "$d/ssh" "$port" h0 h1 h2 || ktap_diag "cannot make the ssh keys in $d/ssh"
export E2E_VM_ARGS="$vm_args --ssh-port $port"
export E2E_ENV="E2E_BASE_RTT_US" E2E_TIMEOUT=$((secs * 20 * n_algos + 900))
e2e_run "$d" "$here/lab-guest.sh" >"$d.log" 2>&1 &
vm=$!
trap 'lab_ssh_end; touch "$d/host-done"' EXIT
if guest_ready "$d" "$vm"; then
	lab_ssh "$d" "$port" "$secs" "$algos" >"$d/host-results.txt" 2>"$d/host-notes.txt"
else
	ktap_diag "the guest's sshd never listened: see $d.log"
fi
lab_ssh_end
touch "$d/host-done"
wait "$vm"
rc=$?
trap - EXIT
cat "$d/host-notes.txt" 2>/dev/null
grep '^# lab: ' "$d.log" | head -n 60
[ $rc -eq 0 ] || ktap_diag "the VM run failed (exit $rc), log $d.log"
result() { # NAME DESCRIPTION
	local line
	line=$(cat "$d.log" "$d/host-results.txt" 2>/dev/null | grep -m1 "^LAB-RESULT $1 ")
	if [ "$(echo "$line" | cut -d' ' -f3)" = ok ]; then
		ktap_pass "$2 ($(echo "$line" | cut -d' ' -f4-))"
	else
		ktap_fail "$2 (${line:-no result})"
	fi
}
result pre-unreachable "pre-flight: an unreachable host stops the run, nothing changed"
result pre-unreachable-ssh "pre-flight: a host unreachable over ssh stops the run, nothing changed"
result pre-stock "pre-flight: a stock rdma_rxe stops the run, nothing changed"
result pre-noalgo "pre-flight: an algorithm the module lacks stops the run, nothing changed"
result pre-noperf "pre-flight: perftest missing stops the run, nothing changed"
result restore "SIGTERM mid-run, the runner here: every knob restored over ssh, no perftest left"
result run "the lab path runs S2-2to1 with $algos from this machine over ssh"
result run-restore "the lab path restores every knob after the run"
result dmesg "no splat in the guest kernel log"
ktap_check "no ssh master or runner left on this machine" \
	eval '! pgrep -f -- "-F $d/ssh/" >/dev/null && ! pgrep -f "eval/lab/main.py --lab $d/" >/dev/null'

# The second VM: hosts reached as a user with sudo, an ECN-only switch.
d2=$res/vm-sudo
port=$(e2e_tcp_port)
mkdir -p "$d2"
if ! command -v sudo >/dev/null; then
	for c in "the ssh user is not root; sudo -n makes it root" \
		"S2-2to1 with ACC over ssh as that user, sudo = yes, marking = ecn" \
		"every knob back after the sudo run" \
		"marking = ecn: ACC told of CE marks only, and halted" \
		"no splat in the second guest's kernel log"; do
		ktap_skip "sudo, ECN-only: $c" "no sudo on this machine (the guest runs the host's root; make deps installs it)"
	done
else
	e2e_ssh_setup "$d2/ssh" "$port" sudo-h0 sudo-h1 sudo-h2 ||
		ktap_diag "cannot make the ssh keys in $d2/ssh"
	E2E_MARKING=red E2E_LSW_EXTRA=$(python3 "$scaling" lsw acc --line-bps 20e6 --marking ecn)
	export E2E_MARKING E2E_LSW_EXTRA LAB_SSH_ONLY=1
	export E2E_VM_ARGS="$vm_args --ssh-port $port"
	export E2E_ENV="E2E_BASE_RTT_US LAB_SSH_ONLY" E2E_TIMEOUT=$((secs * 20 + 900))
	e2e_run "$d2" "$here/lab-guest.sh" >"$d2.log" 2>&1 &
	vm=$!
	trap 'lab_ssh_end; touch "$d2/host-done"' EXIT
	if guest_ready "$d2" "$vm"; then
		lab_ssh_sudo "$d2" "$port" "$secs" >"$d2/host-results.txt" 2>"$d2/host-notes.txt"
	else
		ktap_diag "the second guest's sshd never listened: see $d2.log"
	fi
	lab_ssh_end
	touch "$d2/host-done"
	wait "$vm"
	rc=$?
	trap - EXIT
	cat "$d2/host-notes.txt" 2>/dev/null
	[ $rc -eq 0 ] || ktap_diag "the second VM run failed (exit $rc), log $d2.log"
	d_first=$d d=$d2
	result sudo-user "sudo, ECN-only: the ssh user is not root; sudo -n makes it root"
	result sudo-run "sudo, ECN-only: S2-2to1 with ACC over ssh as that user, sudo = yes, marking = ecn"
	result sudo-restore "sudo, ECN-only: every knob back after the sudo run"
	result sudo-ecn "sudo, ECN-only: marking = ecn: ACC told of CE marks only, and halted"
	result dmesg "sudo, ECN-only: no splat in the second guest's kernel log"
	d=$d_first
fi

# The same table within noise: one run each, so loose bounds.  PFC frames
# and the queue come from lsw's time series through the inventory's switch
# commands on the lab path, from lsw's own counters and 1 ms samples in
# the built-in run.  Both build up only while both flows send, and how
# long they overlap differs from run to run on either path (perftest's
# start under load), so PFC frames are compared per second of the
# all-active window (window_s), and the queue by the report's own figure,
# its mean over that window.  The queue's mass per second of the window
# (the mean over the busy interval times busy_s, over window_s) is shown
# beside it: it checks the readings' mass, but counts the queue outside
# the window too, more of it the shorter the overlap.
# per_win V B W: V * B / W, to 2 decimals
per_win() { awk -v v="$1" -v b="$2" -v w="$3" 'BEGIN {printf "%.2f", (w > 0 ? v * b / w : 0)}'; }
# bvals FIELD: FIELD of each of the built-in repeats ($b/rN), one a line
bvals() {
	local r
	for r in "$b"/r[0-9]*; do
		get "$r" "$1"
	done
}
# bget FIELD: its median over the repeats
bget() {
	local v
	mapfile -t v < <(bvals "$1")
	median "${v[@]}"
}
for algo in ${algos//,/ }; do
	b=$res/builtin/S2-2to1/$algo l=$d/lab/S2-2to1/$algo
	if [ ! -f "$l/metrics.json" ] || [ ! -f "$b/r1/metrics.json" ]; then
		for t in utilisation "Jain and fair share" "PFC frames" queue halts; do
			ktap_fail "$algo: same $t (a run has no metrics)"
		done
		continue
	fi
	for r in "$b"/r[0-9]*; do
		python3 "$E2E_TOP/eval/summary.py" brief "$r/metrics.json" |
			sed "s/^/# $algo built-in ${r##*/}: /"
	done
	python3 "$E2E_TOP/eval/summary.py" brief "$l/metrics.json" | sed "s/^/# $algo lab path: /"
	ub=$(bget utilisation) ul=$(get "$l" utilisation)
	jb=$(bget jain) jl=$(get "$l" jain)
	fb=$(bget fair_mbps) fl=$(get "$l" fair_mbps)
	pb=$(bget pfc_tx) pl=$(get "$l" pfc_tx)
	qb=$(bget queue_mean_bytes) ql=$(get "$l" queue_mean_bytes)
	qab=$(bget queue_active_mean_bytes) qal=$(get "$l" queue_active_mean_bytes)
	sb=$(bget busy_s) sl=$(get "$l" busy_s)
	winb=$(bget window_s) winl=$(get "$l" window_s)
	ppb=$(per_win "$pb" 1 "$winb") ppl=$(per_win "$pl" 1 "$winl")
	qnb=$(per_win "$qb" "$sb" "$winb") qnl=$(per_win "$ql" "$sl" "$winl")
	ktap_diag "$algo: all-active window $(f2 "$winl") s (lab path) vs $(f2 "$winb") s;" \
		"busy $(f2 "$sl") s vs $(f2 "$sb") s; queue mean over the busy interval" \
		"$(f2 "$ql") B vs $(f2 "$qb") B, per all-active second $qnl B vs $qnb B"
	ktap_check "$algo: same utilisation, $ul (lab path) vs $ub (built-in) within 15 %" \
		near "$ul" "$ub" 15
	ktap_check "$algo: same Jain $jl vs $jb, both >= 0.9; fair share $fl vs $fb Mb/s within 20 %" \
		eval 'ge "$jl" 0.9 && ge "$jb" 0.9 && near "$fl" "$fb" 20'
	# PFC frames per all-active second: within 25 %, or both runs'
	# counts within 50 frames of each other (ACC and DCQCN send none to
	# a few dozen in a run).
	ktap_check "$algo: the switch command's PFC frames $pl in $(f2 "$winl") s ($ppl/s) vs lsw's $pb in $(f2 "$winb") s ($ppb/s): within 25 % or 50 frames" \
		eval 'near "$ppl" "$ppb" 25 || within "$((pl - pb))" -50 50'
	# The queue's mean over the all-active window: the command's means
	# since its previous call, one every 2-8 s under load (lab-guest.sh's
	# queue-mean.sh), held over what each covers, against lsw's own 1 ms
	# series in the built-in run.
	ktap_check "$algo: the switch command's mean queue over the all-active window $(f2 "$qal") B vs lsw's $(f2 "$qab") B within 35 %" \
		eval 'ge "$qal" 1 && near "$qal" "$qab" 35'
	# ACC's halts and its paced rate against the share, from the trace
	# over the all-active window the NIC samples give (lsw's counts in
	# the built-in run); an algorithm that does not halt, none on both.
	hb=$(bget trace_halts) hl=$(get "$l" trace_halts)
	if [ "$hb" -gt 0 ]; then
		rl=$(get "$l" halts_per_s_flow)
		wb=$(bget trace_within_share) wl=$(get "$l" trace_within_share)
		# the built-in repeats' lowest and highest, widened by 25 %
		mapfile -t rbs < <(bvals halts_per_s_flow | sort -g)
		rlo=$(awk -v x="${rbs[0]}" 'BEGIN {print x / 1.25}')
		rhi=$(awk -v x="${rbs[-1]}" 'BEGIN {print x * 1.25}')
		ktap_check "$algo: halts/s per flow $(f2 "$rl") within the built-in runs' $(printf '%.2f\n' "${rbs[@]}" | paste -sd, | sed 's/,/, /g') widened by 25 % ($(f2 "$rlo")-$(f2 "$rhi"))" \
			within "$rl" "$rlo" "$rhi"
		# R within is bimodal from run to run (acc.rst, "Open: the
		# rates of a 2:1 incast"), and lower on the lab path in every
		# run so far (lab.rst, "Test-bed history").
		ktap_check_todo "open: lab.rst, the lab path's R within" \
			"$algo: R within the share $(f2 "$wl") vs $(f2 "$wb") within 0.15" \
			within "$(awk -v a="$wl" -v b="$wb" 'BEGIN {print a - b}')" -0.15 0.15
	else
		ktap_check "$algo: no halt on either path ($hl lab path, $hb built-in)" \
			test "$hl" -eq 0
		ktap_skip "$algo: R within the share" "no halt, so no paced rate to compare"
	fi
done
ktap_finish

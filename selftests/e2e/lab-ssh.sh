# SPDX-License-Identifier: GPL-2.0
# Host side of selftests/e2e/lab.sh (source this file; bash): the lab
# runner on this machine, its hosts the guest's namespaces over ssh, its
# switch lsw, whose series it reads here as a lab reads its switch.
#
#   lab_ssh DIR PORT SECONDS ALGOS   the cases below, once lab-guest.sh's
#                      sshd listens; "LAB-RESULT name ok|fail detail"
#                      lines on stdout, "# lab: ..." notes on stderr
#   lab_ssh_sudo DIR PORT SECONDS   the run as a lab without root logins
#                      and with a plain WRED/ECN switch runs it (below)
#   lab_ssh_end        end the ssh masters and the runner lab_ssh started
#
# DIR is the VM's results dir, with e2e_ssh_setup's keys in DIR/ssh; the
# run's flows last SECONDS, with each algorithm of ALGOS.  Cases: a host
# unreachable over ssh stops the run with one line; SIGTERM mid-run puts
# every knob back over ssh and leaves no perftest; the S2-2to1 run with
# every algorithm of ALGOS, the knobs as before afterwards.

LAB_SSH_MASTERS=()
LAB_SSH_RUNNER=

lab_note() { sed 's/^/# lab: /' >&2; }
lab_res() { echo "LAB-RESULT $1 $2 ${*:3}"; }

# lab_g CMD: a command in the guest's root namespace.
lab_g() { ssh -F "$LAB_SSH_CFG" -o BatchMode=yes guest -- "$@"; }

# lab_knobs: every cc/ knob of every device (lib-guest.sh e2e_knobs).
lab_knobs() {
	lab_g "bash -c '. $E2E_TOP/selftests/e2e/lib-guest.sh; E2E_DEVS=(rxe_h0 rxe_h1 rxe_h2); e2e_knobs'"
}

lab_ssh_end() {
	local m
	[ -n "$LAB_SSH_RUNNER" ] && kill -TERM "$LAB_SSH_RUNNER" 2>/dev/null &&
		wait "$LAB_SSH_RUNNER"
	LAB_SSH_RUNNER=
	for m in "${LAB_SSH_MASTERS[@]}"; do
		ssh -F "$LAB_SSH_CFG" -O exit "$m" 2>/dev/null
	done
	LAB_SSH_MASTERS=()
}

# lab_switch DIR: the inventory's switch lines.  The receiver port's mean
# queue since the previous call, as a switch's interval-average telemetry
# gives it, with the time of the reading (DIR/queue-mean.sh): only the
# bytes lsw wrote since then (their offset in DIR/queue-mean.last; the
# first call only sets it); the last line read waits for the next call,
# lsw may be writing it; nothing new prints nothing (no reading).  PFC
# frames are what all ports sent on priority 3 so far (pfc_tx, column
# 12), from whole rows only (13 fields).
lab_switch() {
	local d=$1
	cat >"$d/queue-mean.sh" <<EOF
st=$d/queue-mean.last f=$d/lsw-timeseries.csv
{ read -r off <\$st; } 2>/dev/null || off=
size=\$(stat -c %s \$f) || exit 1
if [ -z "\$off" ] || [ "\$size" -lt "\$off" ]; then
	echo "\$size" >\$st
	exit 0
fi
t=\$EPOCHREALTIME
tail -c +\$((off + 1)) \$f | awk -v off="\$off" -v st=\$st -v t="\$t" \\
	'NR > 1 {off += length(p) + 1
		 if (split(p, w, ",") == 13 && w[3] == "h2" && w[4] == 3) {s += w[5]; n++}}
	 {p = \$0}
	 END {print off > st; if (n) print s / n, t}'
EOF
	echo "switch_queue_mean_bytes = bash $d/queue-mean.sh"
	echo "switch_pfc_frames = tail -n 300 $d/lsw-timeseries.csv | awk -F, 'NF == 13 && \$4 == 3 {v[\$3] = \$12} END {for (p in v) s += v[p]; print s + 0}'"
}

# lab_ssh_start DIR PORT DEST...: a master connection to the guest and to
# each DEST, which the runner's commands find by their ControlPath (one
# handshake each); then the guest's clock to ours, as a lab's chrony
# keeps its hosts.
lab_ssh_start() {
	local d=$1 port=$2 h
	shift 2
	LAB_SSH_CFG=$d/ssh/ssh_config
	for h in guest "$@"; do
		ssh -F "$LAB_SSH_CFG" -o BatchMode=yes -fNM "$h" </dev/null >/dev/null \
			2>>"$d/ssh.log" && LAB_SSH_MASTERS+=("$h")
	done
	echo "masters to ${LAB_SSH_MASTERS[*]} on 127.0.0.1:$port" | lab_note
	python3 "$E2E_DIR/clock-step.py" "$LAB_SSH_CFG" guest 2>&1 | lab_note
}

lab_ssh() {
	local d=$1 port=$2 secs=$3 algos=$4 h i rc before after err left inv
	local main=$E2E_TOP/eval/lab/main.py
	# shellcheck disable=SC2034 # e2e_inventory's hosts and how to reach them
	local E2E_DEVS=(rxe_h0 rxe_h1 rxe_h2) E2E_INV_REACH=ssh
	lab_ssh_start "$d" "$port" h0 h1 h2

	# The inventory: the runner on this machine samples the NICs every
	# 50 ms (each sample costs the guest's one vCPU) and reads the queue
	# every 250 ms (that costs only this machine).
	inv=$d/lab.conf
	e2e_inventory "ssh_config = ssh/ssh_config
sample_ms = 50
switch_interval_ms = 250
$(lab_switch "$d")" >"$inv"

	# Unreachable over ssh: h1's port served by nobody.  ssh takes the
	# first value it reads, so this Host block wins over ssh_config's.
	{
		printf 'Host h1\n\tPort %s\n\tControlMaster no\n\tControlPath none\n' "$(e2e_tcp_port)"
		cat "$LAB_SSH_CFG"
	} >"$d/ssh/closed.conf"
	sed 's#^ssh_config = .*#ssh_config = ssh/closed.conf#' "$inv" >"$d/bad-unreach-ssh.conf"
	before=$(lab_knobs)
	err=$(timeout 300 python3 "$main" --lab "$d/bad-unreach-ssh.conf" --scenario S2-2to1 \
		--algos acc --out "$d/pre-unreachable-ssh" 2>&1 >/dev/null)
	rc=$?
	after=$(lab_knobs)
	echo "$err" | sed 's/^/unreachable over ssh: /' | lab_note
	if [ $rc -ne 1 ]; then
		lab_res pre-unreachable-ssh fail "exit $rc, not 1"
	elif [ -z "$before" ] || [ "$before" != "$after" ]; then
		lab_res pre-unreachable-ssh fail "knobs changed (or unread)"
	elif [ "$(echo "$err" | grep -c 'unreachable')" -ne 1 ]; then
		lab_res pre-unreachable-ssh fail "not one line with 'unreachable'"
	else
		lab_res pre-unreachable-ssh ok "$(echo "$err" | grep -m1 unreachable)"
	fi

	# SIGTERM mid-run: every knob back, over ssh, and no perftest left.
	before=$(lab_knobs)
	python3 "$main" --lab "$inv" --scenario S2-2to1 --algos acc --seconds 60 \
		--out "$d/killed" >"$d/killed.log" 2>&1 &
	LAB_SSH_RUNNER=$!
	for ((i = 0; i < 300; i++)); do
		[ "$(lab_g 'cat /sys/class/infiniband/rxe_h0/ports/1/cc/algorithm; pgrep -x ib_write_bw >/dev/null && echo perftest')" = "acc
perftest" ] && break
		sleep 0.5
	done
	sleep 2
	kill -TERM "$LAB_SSH_RUNNER"
	wait "$LAB_SSH_RUNNER"
	rc=$? LAB_SSH_RUNNER=
	sleep 1
	after=$(lab_knobs)
	left=$(lab_g 'pgrep -x ib_write_bw | wc -l')
	tail -n 4 "$d/killed.log" | sed 's/^/killed: /' | lab_note
	if [ -z "$before" ] || [ "$before" != "$after" ]; then
		lab_res restore fail "knobs differ after SIGTERM: $(diff <(echo "$before") <(echo "$after") | head -n 3 | tr '\n' ' ')"
	elif [ "$left" != 0 ]; then
		lab_res restore fail "${left:-?} perftest process(es) left running"
	else
		lab_res restore ok "exit $rc, every knob back, no perftest left"
	fi

	# The run: S2-2to1 with each algorithm, as eval/run does it.
	before=$(lab_knobs)
	timeout $((secs * 20 * $(echo "$algos" | tr ',' '\n' | wc -l) + 300)) \
		python3 "$main" --lab "$inv" --scenario S2-2to1 --algos "$algos" \
		--seconds "$secs" --perf-args "-u 21" --out "$d/lab" >"$d/lab.log" 2>&1
	rc=$?
	after=$(lab_knobs)
	tail -n 12 "$d/lab.log" | sed 's/^/run: /' | lab_note
	# Its hosts as it names them: each must be an ssh destination.
	h=$(grep -m1 -o 'hosts checked: .*' "$d/lab.log")
	if [ $rc -ne 0 ]; then
		lab_res run fail "exit $rc"
	elif [ "$h" != "hosts checked: h0 (ssh h0), h1 (ssh h1), h2 (ssh h2)" ]; then
		lab_res run fail "not every host over ssh: ${h:-no hosts checked}"
	else
		lab_res run ok "exit 0, $h"
	fi
	if [ -n "$before" ] && [ "$before" = "$after" ]; then
		lab_res run-restore ok "knobs as before"
	else
		lab_res run-restore fail "knobs changed by the run"
	fi
	lab_ssh_end
}

# lab_ssh_sudo DIR PORT SECONDS: the runner as a lab whose hosts take no
# root login and whose switch marks ECN only runs it: each host reached
# as E2E_SSH_SUDO_USER (e2e_ssh_setup's sudo-hK), every command through
# sudo -n (inventory sudo = yes), and marking = ecn with lsw, in this VM,
# a RED step at ACC's K as a commodity WRED/ECN switch would mark (CE,
# no UE).  S2-2to1 with ACC.  Cases: sudo-user (the ssh user is not root,
# sudo -n makes it root), sudo-run (the run passes, every host over ssh
# with sudo), sudo-restore (every knob back), sudo-ecn (the run recorded
# marking = ecn, ACC's senders were told of CE marks and of no UE, and
# halted).
lab_ssh_sudo() {
	local d=$1 port=$2 secs=$3 h rc before after who wu wid wr inv m want out
	local main=$E2E_TOP/eval/lab/main.py su=${E2E_SSH_SUDO_USER:-rxelab}
	# shellcheck disable=SC2034 # e2e_inventory's hosts and how to reach them
	local E2E_DEVS=(rxe_h0 rxe_h1 rxe_h2) E2E_INV_REACH=ssh E2E_INV_DEST_PREFIX=sudo-
	lab_ssh_start "$d" "$port" sudo-h0 sudo-h1 sudo-h2

	who=$(ssh -F "$LAB_SSH_CFG" -o BatchMode=yes sudo-h0 'id -un; id -u; sudo -n id -un' 2>&1 |
		tr '\n' ' ')
	read -r wu wid wr _ <<<"$who"
	if [ "$wu" = "$su" ] && [[ $wid =~ ^[1-9][0-9]*$ ]] && [ "$wr" = root ]; then
		lab_res sudo-user ok "ssh sudo-h0 runs as $su (uid $wid), sudo -n as root"
	else
		lab_res sudo-user fail "ssh sudo-h0: '$who', want '$su UID root'"
	fi

	inv=$d/lab-sudo.conf
	e2e_inventory "ssh_config = ssh/ssh_config
sample_ms = 50
switch_interval_ms = 250
sudo = yes
marking = ecn
$(lab_switch "$d")" >"$inv"
	before=$(lab_knobs)
	timeout $((secs * 20 + 300)) python3 "$main" --lab "$inv" --scenario S2-2to1 --algos acc \
		--seconds "$secs" --perf-args "-u 21" --out "$d/lab" >"$d/lab.log" 2>&1
	rc=$?
	after=$(lab_knobs)
	tail -n 12 "$d/lab.log" | sed 's/^/sudo run: /' | lab_note
	h=$(grep -m1 -o 'hosts checked: .*' "$d/lab.log")
	want="hosts checked: h0 (ssh sudo-h0, sudo), h1 (ssh sudo-h1, sudo), h2 (ssh sudo-h2, sudo)"
	if [ $rc -ne 0 ]; then
		lab_res sudo-run fail "exit $rc"
	elif [ "$h" != "$want" ]; then
		lab_res sudo-run fail "not every host over ssh with sudo: ${h:-no hosts checked}"
	else
		lab_res sudo-run ok "exit 0, $h"
	fi
	if [ -n "$before" ] && [ "$before" = "$after" ]; then
		lab_res sudo-restore ok "knobs as before"
	else
		lab_res sudo-restore fail "knobs changed by the run (or unread)"
	fi
	m=$d/lab/S2-2to1/acc
	if out=$(python3 - "$m" <<'PY'
import json, os, sys
m = sys.argv[1]
mark = open(os.path.join(m, 'switch-marking.txt')).read()
js = json.load(open(os.path.join(m, 'metrics.json')))
ce = [f.get('echo_ce', 0) for f in js['flows']]
ue = [f.get('echo_ue', 0) for f in js['flows']]
print('marking = ecn recorded: %s; CE/UE echoed per flow %s; halts %d; '
      'all-active window %.2f s'
      % ('marking = ecn' in mark and 'red_kmin' in mark,
         ' '.join('%d/%d' % x for x in zip(ce, ue)), js.get('trace_halts', 0),
         js.get('window_s') or 0))
sys.exit(0 if 'marking = ecn' in mark and 'red_kmin' in mark and len(ce) == 2 and
         all(c > 0 for c in ce) and not any(ue) and js.get('trace_halts', 0) > 0 else 1)
PY
	); then
		lab_res sudo-ecn ok "$out"
	else
		lab_res sudo-ecn fail "${out:-no metrics in $m}"
	fi
	lab_ssh_end
}

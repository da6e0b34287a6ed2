# SPDX-License-Identifier: GPL-2.0
# Host side of the lsw-in-the-loop test bed (source this file; bash).
#
#   e2e_run OUT_DIR GUEST_SCRIPT [ARGS...]
#
# writes OUT_DIR/lsw.conf from the E2E_* knobs below, starts
# userspace/lsw/lsw natively on the host (counters JSON, time-series CSV and
# its log into OUT_DIR), boots ONE VM with build/rdma_rxe.ko and one virtio
# NIC per emulated host, each NIC's UDP backend wired to its own lsw port,
# runs GUEST_SCRIPT there (it sources selftests/e2e/lib-guest.sh), and stops
# lsw by its PID (SIGTERM: it writes the counters) once the VM has exited.
# Returns the VM runner's status; E2E_STEP names the step that failed.
#
# Topology and switch knobs (environment or shell variables):
#   E2E_HOST_SW   switch of each host, in NIC order (default "s1 s1 s1": 3
#                 hosts on one switch).  Two switch names give two switches
#                 joined by one link ("s1 s1 s2 s2 s2").
#   E2E_RATE      every port's line rate (lsw units, default 40Mbps)
#   E2E_DELAY     one-way delay per link (default 10us)
#   E2E_MARKING   off | red | tcd (default off)
#   E2E_BUFFER E2E_XOFF E2E_XON E2E_HEADROOM   (default 2MB 30KB 27KB 12KB)
#   E2E_LSW_EXTRA extra global config lines (RED/TCD knobs ...)
#   E2E_HOST_ARGS per-host lsw port options, words "hK:OPT[,OPT...]"
#                 (e.g. "h0:rate=10Mbps": host 0's link at 10 Mb/s)
#   E2E_INTERVAL  time-series sampling interval (default 10ms)
#   E2E_TIMEOUT   whole-VM timeout in seconds (default 300)
#   E2E_ENV       "K=V ..." passed to the guest with --env
#   E2E_VM_ARGS   more options of selftests/vm/run (e.g. "--smp 2")
#
#   e2e_ssh_setup DIR PORT NAMES...   keys and an ssh_config to reach the
#                 guest's namespaces NAMES over ssh (E2E_VM_ARGS
#                 "--ssh-port PORT", lib-guest.sh e2e_sshd DIR); a name
#                 sudo-hK reaches namespace hK as a user with sudo, not root
#   e2e_tcp_port  a loopback TCP port that was free a moment ago
# The guest's hosts are h0..h(N-1), host K = NIC ethK = 10.0.0.(K+1), MAC
# 52:54:00:00:01:KK (hex K+1), lsw port "hK".

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
E2E_TOP=$(cd "$E2E_DIR/../.." && pwd)
E2E_LSW=$E2E_TOP/userspace/lsw/lsw
E2E_VMRUN=$E2E_TOP/selftests/vm/run
# The module of $KVER (build/k/KVER/ for a kernel with a root of its own)
# and the results dir (RXE_RESULTS: selftests/kernel-check gives each
# kernel its own).
E2E_MODULE=${E2E_MODULE:-$("$E2E_TOP/scripts/kinfo" "${KVER:-}" module)}
E2E_RESULTS=${RXE_RESULTS:-$E2E_TOP/build/results}
E2E_LSW_PID=
E2E_STEP=

e2e_log() { echo "# e2e: $*" >&2; }

# e2e_host_mac K: the MAC of emulated host K.
e2e_host_mac() { printf '52:54:00:00:01:%02x' "$(($1 + 1))"; }

# e2e_alloc_ports N: prints 2N distinct loopback UDP ports that were free a
# moment ago (all bound at once, so they differ; the kernel picks them from
# the ephemeral range).  lsw and qemu bind them right after; e2e_run retries
# with fresh ports if one was taken in between.  The sockets are closed
# before the ports are printed: the caller reads them through a process
# substitution and starts lsw at once, without waiting for python to exit,
# and on a loaded host lsw's bind() came first (EADDRINUSE in all three
# tries of one run, 29 November).
e2e_alloc_ports() {
	python3 - "$1" <<'EOF'
import socket, sys
socks = []
for _ in range(2 * int(sys.argv[1])):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    socks.append(s)
ports = [s.getsockname()[1] for s in socks]
for s in socks:
    s.close()
print(" ".join(str(p) for p in ports), flush=True)
EOF
}

e2e_tcp_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); print(p)'
}

# e2e_ssh_setup DIR PORT NAMES...: DIR/ssh_config with a Host per NAME,
# each the guest's sshd on 127.0.0.1:PORT with a key of its own, which the
# guest's authorized_keys ties to a command that runs what ssh asks in
# network namespace NAME: one ssh destination per namespace, as a lab has
# one per host.  Host "guest" is the VM's own root namespace.  The host
# key is made here too, so that the client checks it (known_hosts).  Each
# Host has a master connection of its own (ControlPath %n: a session on
# it runs with the options of the key that opened it): an ssh handshake
# takes seconds in TCG.  The caller starts the masters (ssh -fNM) and ends
# them (ssh -O exit).
# A name sudo-hK is namespace hK for user E2E_SSH_SUDO_USER (rxelab), as
# a lab whose hosts take no root login has it: its key (in
# DIR/authorized_keys.USER, which e2e_sshd installs for a user it makes,
# with password-less sudo) enters hK as root, then drops to USER, who
# must use sudo for anything privileged.
e2e_ssh_setup() {
	local d=$1 port=$2 n user cmd
	local opts=no-pty,no-port-forwarding,no-agent-forwarding,no-X11-forwarding
	local su=${E2E_SSH_SUDO_USER:-rxelab}
	shift 2
	rm -rf "$d" && mkdir -p "${d%/*}" && mkdir -m 700 "$d" || return 1
	ssh-keygen -q -t ed25519 -N '' -C e2e-host -f "$d/host_key" || return 1
	echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >"$d/known_hosts"
	: >"$d/authorized_keys"
	: >"$d/ssh_config"
	for n in guest "$@"; do
		ssh-keygen -q -t ed25519 -N '' -C "e2e-$n" -f "$d/id_$n" || return 1
		user=root
		case $n in
		guest) cat "$d/id_$n.pub" >>"$d/authorized_keys" ;;
		sudo-*)
			user=$su
			cmd="exec sudo -n nsenter --net=/run/netns/${n#sudo-} setpriv --reuid=$su --regid=$su --init-groups env HOME=/home/$su USER=$su LOGNAME=$su sh -c \\\"\$SSH_ORIGINAL_COMMAND\\\""
			echo "command=\"$cmd\",$opts $(cat "$d/id_$n.pub")" >>"$d/authorized_keys.$su" ;;
		*)
			echo "command=\"exec nsenter --net=/run/netns/$n sh -c \\\"\$SSH_ORIGINAL_COMMAND\\\"\",$opts $(cat "$d/id_$n.pub")" \
				>>"$d/authorized_keys" ;;
		esac
		cat >>"$d/ssh_config" <<EOF
Host $n
	HostName 127.0.0.1
	Port $port
	User $user
	IdentityFile $d/id_$n
	IdentitiesOnly yes
	UserKnownHostsFile $d/known_hosts
	StrictHostKeyChecking yes
	ControlMaster auto
	ControlPath $d/cm-%n
EOF
	done
}

# e2e_lsw_conf PORTS...: the lsw config on stdout.  PORTS are 2N numbers:
# for host K, PORTS[2K] is lsw's (qemu's remote) and PORTS[2K+1] qemu's.
e2e_lsw_conf() {
	local ports=("$@") hs=(${E2E_HOST_SW:-s1 s1 s1}) sws=() s k t w opts
	for s in "${hs[@]}"; do
		[[ " ${sws[*]} " == *" $s "* ]] || sws+=("$s")
	done
	cat <<EOF
# generated by selftests/e2e/lib-host.sh
rate ${E2E_RATE:-40Mbps}
delay ${E2E_DELAY:-10us}
marking ${E2E_MARKING:-off}
buffer ${E2E_BUFFER:-2MB}
xoff ${E2E_XOFF:-30KB}
xon ${E2E_XON:-27KB}
headroom ${E2E_HEADROOM:-12KB}
lossless 3
# RoCE data and its ACKs: perftest --tclass 104 (DSCP 26) -> lossless prio 3.
# CNPs / CC ACKs on DSCP 48 -> strict prio 6.  DSCP 0 (TCP, ARP) stays lossy.
dscp 26 3
dscp 48 6
${E2E_LSW_EXTRA:-}

EOF
	for s in "${sws[@]}"; do echo "switch $s"; done
	[ ${#sws[@]} -le 2 ] || { echo "# at most 2 switches" >&2; return 1; }
	[ ${#sws[@]} -eq 2 ] && echo "link ${sws[0]} ${sws[1]}"
	for k in "${!hs[@]}"; do
		opts=
		for w in ${E2E_HOST_ARGS:-}; do
			[[ $w == "h$k:"* ]] && opts+=" ${w#h$k:}"
		done
		echo "host h$k ${hs[$k]} 127.0.0.1:${ports[$((2 * k))]} 127.0.0.1:${ports[$((2 * k + 1))]}${opts//,/ }"
	done
	# Static MACs: the RoCE path is fixed from the first frame.
	for s in "${sws[@]}"; do
		for k in "${!hs[@]}"; do
			if [ "${hs[$k]}" = "$s" ]; then t=h$k; else t=to-${hs[$k]}; fi
			echo "mac $s $(e2e_host_mac "$k") $t"
		done
	done
}

# e2e_lsw_start CONF OUT_DIR: starts lsw in the background (E2E_LSW_PID).
e2e_lsw_start() {
	local conf=$1 out=$2 i
	"$E2E_LSW" -n "$conf" >/dev/null 2>"$out/lsw.log" || {
		cat "$out/lsw.log" >&2
		return 2
	}
	"$E2E_LSW" -c "$out/lsw-counters.json" -t "$out/lsw-timeseries.csv" \
		-i "${E2E_INTERVAL:-10ms}" "$conf" >>"$out/lsw.log" 2>&1 &
	E2E_LSW_PID=$!
	for i in 1 2 3 4 5; do
		sleep 0.1
		kill -0 "$E2E_LSW_PID" 2>/dev/null || {
			wait "$E2E_LSW_PID" 2>/dev/null
			E2E_LSW_PID=
			return 1
		}
	done
}

# e2e_lsw_stop: SIGTERM to our lsw (it writes the counters JSON), then wait.
e2e_lsw_stop() {
	[ -n "$E2E_LSW_PID" ] || return 0
	kill -TERM "$E2E_LSW_PID" 2>/dev/null
	wait "$E2E_LSW_PID" 2>/dev/null
	E2E_LSW_PID=
}

# e2e_run OUT_DIR GUEST_SCRIPT [ARGS...]
e2e_run() {
	local out=$1 script=$2 hs=(${E2E_HOST_SW:-s1 s1 s1}) n ports nics=() envs=()
	local try k rc e
	shift 2
	n=${#hs[@]}
	mkdir -p "$out" || return 2
	out=$(cd "$out" && pwd -P)
	E2E_STEP="check prerequisites"
	[ -x "$E2E_LSW" ] || { e2e_log "$E2E_LSW missing (make -C userspace/lsw)"; return 2; }
	[ -f "$E2E_MODULE" ] || { e2e_log "$E2E_MODULE missing (make module)"; return 2; }
	for e in ${E2E_ENV:-}; do envs+=(--env "$e"); done
	for try in 1 2 3; do
		E2E_STEP="allocate UDP ports"
		read -r -a ports < <(e2e_alloc_ports "$n") || return 2
		E2E_STEP="write the lsw config"
		e2e_lsw_conf "${ports[@]}" >"$out/lsw.conf" || return 2
		E2E_STEP="start lsw"
		e2e_lsw_start "$out/lsw.conf" "$out"
		rc=$?
		[ $rc -eq 2 ] && { e2e_log "lsw refused $out/lsw.conf"; return 2; }
		[ $rc -eq 0 ] && break
		e2e_log "lsw did not start (try $try): $(tail -n 2 "$out/lsw.log")"
	done
	[ -n "$E2E_LSW_PID" ] || return 2
	for ((k = 0; k < n; k++)); do
		nics+=(--nic "${ports[$((2 * k + 1))]}:${ports[$((2 * k))]}:$(e2e_host_mac "$k")")
	done
	E2E_STEP="VM run of $(basename "$script")"
	e2e_log "lsw pid $E2E_LSW_PID, $n hosts, rate ${E2E_RATE:-40Mbps}; booting the VM (results: $out)"
	# shellcheck disable=SC2086 # E2E_VM_ARGS is a list of words
	"$E2E_VMRUN" --module "$E2E_MODULE" --timeout "${E2E_TIMEOUT:-300}" \
		${E2E_VM_ARGS:-} --out "$out" "${nics[@]}" "${envs[@]}" -- "$script" "$@"
	rc=$?
	[ $rc -eq 124 ] && E2E_STEP="$E2E_STEP (VM timeout ${E2E_TIMEOUT:-300} s)"
	e2e_lsw_stop
	if [ ! -s "$out/lsw-counters.json" ]; then
		e2e_log "lsw wrote no counters"
		[ $rc -eq 0 ] && { E2E_STEP="stop lsw"; rc=1; }
	fi
	[ $rc -eq 0 ] && E2E_STEP=
	return $rc
}

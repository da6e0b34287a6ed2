# SPDX-License-Identifier: GPL-2.0
# Guest side of the lsw-in-the-loop test bed (source this file in the VM;
# bash).  Host K owns NIC ethK (from $VM_NICS) in namespace hK, address
# 10.0.0.(K+1)/24 and rxe device rxe_hK; its NIC's backend is lsw port hK.
#
#   e2e_hosts                  build every host (cleanup: rxe_cleanup)
#   e2e_start                  a guest script's start: every host built,
#                              rxe_cleanup on exit
#   e2e_fail STEP              end a guest script, naming the failed step
#   e2e_cc_offered ALGO        status 77 (with a "# SKIP" line) when a
#                              device lacks ALGO or a knob of E2E_CC_REQUIRE
#   e2e_cc_setup ALGO          select the CC algorithm and knobs on every
#                              device; status 77 as e2e_cc_offered
#   e2e_inventory [LAB_LINES [HOST_SECTIONS]]  the hosts as a lab inventory
#                              for the lab runner (eval/lab), on stdout
#                              (lib-inventory.sh)
#   e2e_trace_start/_stop      rxe_cc trace events -> $OUT_DIR/trace.txt
#   e2e_counters TAG           rdma statistic + hw_counters -> $OUT_DIR
#   e2e_files SEP FILE...      "NAME<SEP>VALUE" of sysfs files
#   e2e_knobs                  "DEV NAME=VALUE" of every cc/ knob of every
#                              device (to check that a run put them back)
#   e2e_flows SPEC...          run perftest flows, see below
#   e2e_sshd DIR               sshd on mgmt0 (selftests/vm/run --ssh-port)
#                              with DIR's host key and authorized_keys
#                              (lib-host.sh's e2e_ssh_setup)
#
# Knobs (guest environment, pass with the runner's --env):
#   E2E_LINE_MBPS  written to cc/line_rate_mbps (the lsw port rate)
#   E2E_CC_KNOBS   "name=value ..." written to cc/<name> (DCQCN/ACC knobs)
#   E2E_CC_DUMP    0: e2e_cc_setup does not record every knob of the device
#                  in $OUT_DIR/cc-DEV.txt (default 1: it does)
#   E2E_CC_REQUIRE "name ...": cc/ knobs the run needs; one missing makes
#                  e2e_cc_setup skip (status 77), where a missing knob of
#                  E2E_CC_KNOBS is only noted
#   E2E_CTRL_DSCP  cc/ack_dscp and cc/cnp_dscp (default 48: lsw serves
#                  DSCP 48 at strict priority, as a lab switch configured
#                  for ACC serves its ACKs; the module's own default keeps
#                  them in the QP's class)
#   E2E_TCLASS     perftest --tclass (default 104 = DSCP 26, lsw prio 3)
#   E2E_MTU        NIC MTU (default 1500: RoCE MTU 1024)
#   E2E_FLOW_TIMEOUT  seconds per perftest process (default 240)
#   E2E_PERF_ARGS  extra perftest arguments for every flow (default none)
#   E2E_PERF_NICE  nice level of the perftest processes (default 19).
#                  ib_write_bw polls its CQ without sleeping (it has no
#                  event mode for WRITE).  In a one-CPU guest a 6.4+ kernel
#                  runs rxe's requester, responder and completer as
#                  kworkers that must win the CPU from those pollers, where
#                  6.1's tasklets preempt them; at nice 0 each wake-up
#                  waits behind a poller's time slice and ACC on 6.12 keeps
#                  0.72 of the link (0.95 at nice 19).  A NIC (or a host
#                  with a core to spare) does this work beside the
#                  application: nice 19 gives the guest that order on
#                  every kernel.
#   E2E_TRACE_ACKS 1: trace every ACK of a CC QP too (rxe_cc_ack)

E2E_GDIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$E2E_GDIR/../lib/rxe.sh"
. "$E2E_GDIR/lib-inventory.sh"

E2E_OUT=${OUT_DIR:-/tmp}
E2E_DEVS=()
E2E_TRACE=/sys/kernel/tracing

e2e_hosts() {
	local ifc k
	for ifc in $VM_NICS; do
		k=${ifc#eth}
		ip netns add "h$k" && RXE_NETNS+=("h$k") || return 1
		ip link set "$ifc" netns "h$k" || return 1
		ip -n "h$k" link set "$ifc" mtu "${E2E_MTU:-1500}" || return 1
		rxe_host "h$k" "$ifc" "10.0.0.$((k + 1))/24" "fd00::$((k + 1))/64" \
			"rxe_h$k" || return 1
		E2E_DEVS+=("rxe_h$k")
	done
}

# e2e_sshd DIR: the host side's way in (lib-host.sh e2e_ssh_setup wrote
# DIR).  The key and the keys file are copied off 9p: sshd wants a host
# key only root can read.  The host's root filesystem has openssh-server
# (make deps) but not its config: this one takes keys only, for root,
# many sessions per connection (the runner multiplexes its commands on
# one master connection per host).  Its PID joins RXE_PIDS (rxe_cleanup).
# For each DIR/authorized_keys.USER, USER is made (in the guest's overlay
# of the root: nothing of it reaches the host) with password-less sudo
# (/etc/sudoers.d), and takes those keys.
e2e_sshd() {
	local d=/run/e2e-ssh i f u
	{ [ -d "$d" ] || mkdir -m 711 "$d"; } && mkdir -p /run/sshd || return 1
	install -m 600 "$1/host_key" "$d/" &&
		install -m 600 "$1/authorized_keys" "$d/authorized_keys.root" || return 1
	for f in "$1"/authorized_keys.*; do
		[ -e "$f" ] || continue
		u=${f##*.}
		command -v sudo >/dev/null || { echo "e2e_sshd: no sudo for $u" >&2; return 1; }
		id "$u" >/dev/null 2>&1 || useradd -m -s /bin/sh "$u" || return 1
		# "*": no password, but not locked (sshd refuses a locked account)
		usermod -p '*' "$u" || return 1
		echo "$u ALL=(ALL) NOPASSWD: ALL" >"/etc/sudoers.d/e2e-$u" &&
			chmod 440 "/etc/sudoers.d/e2e-$u" || return 1
		# sudo resolves the host name; the guest's is not in the root's hosts
		grep -qw "$(hostname)" /etc/hosts || echo "127.0.1.1 $(hostname)" >>/etc/hosts
		install -m 600 -o "$u" -g "$u" "$f" "$d/authorized_keys.$u" || return 1
	done
	# The host's dotfiles are not the guest's: bash sources root's
	# .bashrc for a command over ssh, and this machine's (pyenv) took 4 s
	# a command in TCG and put its shims first in PATH.
	mountpoint -q /root || mount -t tmpfs -o mode=700 none /root || return 1
	cat >"$d/sshd_config" <<EOF
ListenAddress 10.0.2.15:22
HostKey $d/host_key
AuthorizedKeysFile $d/authorized_keys.%u
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
PidFile none
PrintMotd no
MaxSessions 64
MaxStartups 16
EOF
	/usr/sbin/sshd -D -e -f "$d/sshd_config" 2>>"$E2E_OUT/sshd.log" &
	RXE_PIDS+=($!)
	# Listening once it has read its config and bound the port.
	for ((i = 0; i < 100; i++)); do
		ss -Hltn 'sport = :22' | grep -q . && return 0
		kill -0 "$!" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

# The failed step, as eval/run and the suites print it from the log.
e2e_fail() { echo "# e2e-guest: failed: $*"; exit 1; }

e2e_start() {
	trap rxe_cleanup EXIT
	e2e_hosts || e2e_fail "build hosts from NICs '$VM_NICS'"
	echo "# e2e-guest: hosts ${E2E_DEVS[*]} up"
}

e2e_cc_dir() { echo "/sys/class/infiniband/$1/ports/1/cc"; }
# e2e_knob_file DEV NAME: cc/NAME, or cc_experimental/NAME for an ablation
e2e_knob_file() {
	local d
	d=$(e2e_cc_dir "$1")
	if [ -e "$d/$2" ]; then echo "$d/$2"; else echo "${d}_experimental/$2"; fi
}

# e2e_files SEP FILE...: "NAME<SEP>VALUE" per regular FILE, its first line
# read by the shell: a $(cat) per file would be a process each, slow in TCG.
e2e_files() {
	local sep=$1 f v
	shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		v=
		read -r v <"$f" 2>/dev/null
		printf '%s%s%s\n' "${f##*/}" "$sep" "$v"
	done
}

e2e_knobs() {
	local dev
	for dev in "${E2E_DEVS[@]}"; do
		e2e_files '=' "$(e2e_cc_dir "$dev")"/* \
			"$(e2e_cc_dir "$dev")"_experimental/* | sed "s/^/$dev /"
	done
}

e2e_cc_offered() {
	local algo=$1 dev d name
	for dev in "${E2E_DEVS[@]}"; do
		d=$(e2e_cc_dir "$dev")
		if [ ! -d "$d" ]; then
			[ "$algo" = none ] && continue
			echo "# SKIP cc $algo: $d does not exist (kernel without congestion control)"
			return 77
		fi
		if ! grep -qw -- "$algo" "$d/available" 2>/dev/null; then
			echo "# SKIP cc $algo: not in $d/available ($(cat "$d/available" 2>/dev/null))"
			return 77
		fi
		for name in ${E2E_CC_REQUIRE:-}; do
			[ -e "$(e2e_knob_file "$dev" "$name")" ] && continue
			echo "# SKIP cc $algo: no $d/$name (this kernel lacks the knob the run needs)"
			return 77
		done
	done
	return 0
}

e2e_cc_setup() {
	local algo=$1 dev d kv name f
	e2e_cc_offered "$algo" || return
	for dev in "${E2E_DEVS[@]}"; do
		d=$(e2e_cc_dir "$dev")
		[ -d "$d" ] || continue
		echo "$algo" >"$d/algorithm" || { echo "# cannot select $algo on $dev"; return 1; }
		if [ -n "${E2E_LINE_MBPS:-}" ] && [ -e "$d/line_rate_mbps" ]; then
			echo "$E2E_LINE_MBPS" >"$d/line_rate_mbps" ||
				{ echo "# cannot set $dev line_rate_mbps"; return 1; }
		fi
		for kv in "ack_dscp=${E2E_CTRL_DSCP:-48}" \
			  "cnp_dscp=${E2E_CTRL_DSCP:-48}" ${E2E_CC_KNOBS:-}; do
			name=${kv%%=*}
			f=$(e2e_knob_file "$dev" "$name")
			if [ -e "$f" ]; then
				echo "${kv#*=}" >"$f" || { echo "# cannot set $dev $kv"; return 1; }
			else
				echo "# cc knob $name: no $d/$name, ignored"
			fi
		done
		# What the device really runs with, for the record (E2E_CC_DUMP=0:
		# not again).
		[ "${E2E_CC_DUMP:-1}" = 0 ] ||
			e2e_files '=' "$d"/* "${d}_experimental"/* >"$E2E_OUT/cc-$dev.txt"
	done
	return 0
}

e2e_trace_start() {
	[ -d "$E2E_TRACE/events" ] ||
		mount -t tracefs nodev "$E2E_TRACE" 2>/dev/null
	if [ ! -d "$E2E_TRACE/events/rxe_cc" ]; then
		echo "# trace: no rxe_cc events in this kernel"
		return 0
	fi
	echo 0 >"$E2E_TRACE/tracing_on"
	echo 16384 >"$E2E_TRACE/buffer_size_kb"
	: >"$E2E_TRACE/trace"
	echo 1 >"$E2E_TRACE/events/rxe_cc/enable"
	# One event per ACK: only on request.
	[ "${E2E_TRACE_ACKS:-0}" = 1 ] ||
		echo 0 >"$E2E_TRACE/events/rxe_cc/rxe_cc_ack/enable" 2>/dev/null
	echo 1 >"$E2E_TRACE/tracing_on"
	echo "# trace: rxe_cc events on"
}

e2e_trace_stop() {
	[ -d "$E2E_TRACE/events/rxe_cc" ] || return 0
	echo 0 >"$E2E_TRACE/tracing_on"
	echo 0 >"$E2E_TRACE/events/rxe_cc/enable"
	cp "$E2E_TRACE/trace" "$E2E_OUT/trace.txt"
	echo "# trace: $(grep -vc '^#' "$E2E_OUT/trace.txt") events -> trace.txt"
}

e2e_counters() {
	local tag=$1 dev
	for dev in "${E2E_DEVS[@]}"; do
		rdma statistic show link "$dev/1" >"$E2E_OUT/rdma-stat-$tag-$dev.txt" 2>&1
		e2e_files ' ' /sys/class/infiniband/"$dev"/ports/1/hw_counters/* \
			>"$E2E_OUT/hw-counters-$tag-$dev.txt"
	done
}

# e2e_wait_listen NS PORT: the perftest server in NS accepts on TCP PORT.
e2e_wait_listen() { rxe_wait_listen "$1" "$2" 10; }

# e2e_flows "SRC DST START_S ITERS SIZE [TOOL]"...: flow i goes from host
# SRC to host DST on TCP port 18515+i, one RC QP, ITERS messages of SIZE
# bytes (TOOL: ib_write_bw, the default, or ib_write_lat with all samples),
# the client starting START_S seconds after all servers listen.  Output:
# $OUT_DIR/flow-i.{server,client}.txt and $OUT_DIR/flows.tsv (id src dst
# tool start_s iters size rc t0 t1: guest clock, s).  Status: 0 if every
# flow completed.
e2e_flows() {
	local specs=("$@") i src dst st it sz tool port sgid cgid args
	local t=${E2E_FLOW_TIMEOUT:-240} srv=() cli=() bad=0 rc
	local perf=(nice -n "${E2E_PERF_NICE:-19}" timeout "$t")
	for i in "${!specs[@]}"; do
		read -r src dst st it sz tool <<<"${specs[$i]}"
		tool=${tool:-ib_write_bw}
		port=$((18515 + i))
		sgid=$(rxe_gid_index "rxe_h$dst" "10.0.0.$((dst + 1))") || return 1
		# shellcheck disable=SC2206 # E2E_PERF_ARGS is a word list
		args=(-p "$port" -n "$it" -s "$sz" --tclass "${E2E_TCLASS:-104}" -F ${E2E_PERF_ARGS:-})
		[ "$tool" = ib_write_lat ] && args+=(-H)
		ip netns exec "h$dst" "${perf[@]}" "$tool" -d "rxe_h$dst" -x "$sgid" \
			"${args[@]}" >"$E2E_OUT/flow-$i.server.txt" 2>&1 &
		srv+=($!)
		RXE_PIDS+=($!)
	done
	for i in "${!specs[@]}"; do
		read -r src dst st it sz tool <<<"${specs[$i]}"
		e2e_wait_listen "h$dst" $((18515 + i)) ||
			{ echo "# flow $i: server on h$dst never listened"; return 1; }
	done
	echo "# id src dst tool start_s iters size rc t0 t1" >"$E2E_OUT/flows.tsv"
	# GIDs first, so that flows with the same START_S start together.
	local cgids=() g
	for i in "${!specs[@]}"; do
		read -r src dst st it sz tool <<<"${specs[$i]}"
		g=$(rxe_gid_index "rxe_h$src" "10.0.0.$((src + 1))") || return 1
		cgids+=("$g")
	done
	for i in "${!specs[@]}"; do
		read -r src dst st it sz tool <<<"${specs[$i]}"
		tool=${tool:-ib_write_bw}
		port=$((18515 + i))
		cgid=${cgids[$i]}
		# shellcheck disable=SC2206 # E2E_PERF_ARGS is a word list
		args=(-p "$port" -n "$it" -s "$sz" --tclass "${E2E_TCLASS:-104}" -F ${E2E_PERF_ARGS:-})
		[ "$tool" = ib_write_lat ] && args+=(-H)
		(
			sleep "$st"
			t0=$(date +%s.%N)
			ip netns exec "h$src" "${perf[@]}" "$tool" -d "rxe_h$src" -x "$cgid" \
				"${args[@]}" "10.0.0.$((dst + 1))" >"$E2E_OUT/flow-$i.client.txt" 2>&1
			r=$?
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$src" "$dst" \
				"$tool" "$st" "$it" "$sz" "$r" "$t0" "$(date +%s.%N)" \
				>"$E2E_OUT/.flow-$i.tsv"
			exit $r
		) &
		cli+=($!)
		RXE_PIDS+=($!)
	done
	for i in "${!cli[@]}"; do
		wait "${cli[$i]}"
		rc=$?
		cat "$E2E_OUT/.flow-$i.tsv" >>"$E2E_OUT/flows.tsv" 2>/dev/null
		rm -f "$E2E_OUT/.flow-$i.tsv"
		if [ $rc -ne 0 ]; then
			bad=$((bad + 1))
			echo "# flow $i: client exit $rc"
			sed 's/^/# client: /' "$E2E_OUT/flow-$i.client.txt" | tail -n 5
			kill "${srv[$i]}" 2>/dev/null
		fi
	done
	for i in "${!srv[@]}"; do
		wait "${srv[$i]}" || { [ $? -ne 143 ] && echo "# flow $i: server failed"; }
	done
	RXE_PIDS=()
	[ $bad -eq 0 ]
}

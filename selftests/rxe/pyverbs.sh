#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma-core's own pyverbs regression suite (Debian python3-pyverbs) against
# the loaded rdma_rxe, in the VM.  The stock 6.1 module gives 86 ok and one
# known error (test_qp_ex_rc_atomic_write: atomic write is not supported by
# 6.1 rxe); the patched module must do at least as well, without a splat.
#
#   pyverbs.sh [MIN_OK]     MIN_OK defaults to 86

here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/ktap.sh"
. "$here/../lib/rxe.sh"

min_ok=${1:-86}
known_error=test_qp_ex_rc_atomic_write
src=/usr/share/doc/rdma-core/tests
work=$(mktemp -d)

cleanup() {
	rxe_cleanup
	ip link delete pv0 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
rxe_dmesg_clean >/dev/null

ktap_header "rdma-core pyverbs suite" 4

if [ ! -f "$src/run_tests.py" ]; then
	ktap_skip "pyverbs suite" "python3-pyverbs is not installed ($src missing)"
	exit 0
fi

# The suite ships with gzipped modules; unpack a private copy.
cp -r "$src" "$work/tests"
gunzip -f "$work"/tests/*.gz

ip link add pv0 type veth peer name pv1
ip addr add 10.99.0.1/24 dev pv0
ip link set pv0 up
ip link set pv1 up
if rdma link add rxe_pv type rxe netdev pv0; then
	RXE_LINKS+=(rxe_pv)
	ktap_pass "rxe device for the suite"
else
	ktap_fail "rxe device for the suite"
fi
rxe_gid_index rxe_pv 10.99.0.1 >/dev/null	# wait for the GID table

log="$work/log"
(cd "$work" && timeout 900 python3 tests/run_tests.py --dev rxe_pv -v) \
	>"$log" 2>&1
rc=$?
[ -n "${OUT_DIR:-}" ] && cp "$log" "$OUT_DIR/pyverbs.log"

ran=$(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' "$log")
ok=$(grep -cE '\.\.\. ok$' "$log")
skipped=$(grep -cE '\.\.\. skipped' "$log")
bad=$(grep -E '\.\.\. (ERROR|FAIL)$' "$log")
nbad=$(printf '%s' "$bad" | grep -c .)
ktap_diag "ran ${ran:-0}, ok $ok, skipped $skipped, error/fail $nbad (exit $rc)"
printf '%s\n' "$bad" | sed '/^$/d; s/^/# /'

ktap_check "at least $min_ok tests ok" test "$ok" -ge "$min_ok"
unexpected=$(printf '%s\n' "$bad" | sed '/^$/d' | grep -v "^$known_error ")
if [ -z "$unexpected" ]; then
	ktap_pass "no error besides the known $known_error"
else
	ktap_fail "unexpected errors: $(echo "$unexpected" | awk '{print $1}' | tr '\n' ' ')"
fi
ktap_check "no splat in the kernel log" rxe_dmesg_clean
ktap_finish

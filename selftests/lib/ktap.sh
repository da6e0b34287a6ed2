# SPDX-License-Identifier: GPL-2.0
# KTAP output helpers shared by the shell selftests (source this file).
#
#   ktap_header NAME COUNT     "TAP version 13", "# NAME", "1..COUNT"
#   ktap_pass|ktap_fail DESC   one result line
#   ktap_skip DESC WHY         a skip that says why
#   ktap_check DESC CMD...     pass if CMD succeeds, else fail
#   ktap_finish                exit status: 1 if any case failed

KTAP_N=0
KTAP_FAILED=0

ktap_header() {
	echo "TAP version 13"
	echo "# $1"
	echo "1..$2"
}

ktap_pass() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $*"; }
ktap_fail() {
	KTAP_N=$((KTAP_N + 1)); KTAP_FAILED=$((KTAP_FAILED + 1))
	echo "not ok $KTAP_N - $*"
}
ktap_skip() { KTAP_N=$((KTAP_N + 1)); echo "ok $KTAP_N - $1 # SKIP $2"; }
ktap_diag() { echo "# $*"; }

ktap_check() {
	local desc=$1
	shift
	if "$@"; then ktap_pass "$desc"; else ktap_fail "$desc"; fi
}

ktap_finish() {
	[ "$KTAP_FAILED" -eq 0 ]
}

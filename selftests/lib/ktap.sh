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

# ktap_check_todo WHY DESC CMD...: a check of a goal the code is known not
# to meet yet (WHY says where that is written down).  It runs and prints
# its figures as any check, as "not ok ... # TODO WHY" when it fails
# (TAP's known failure: run-all counts it as todo, not as failed) and
# "ok ... # TODO WHY" when it passes, so that the day it holds is seen.
ktap_check_todo() {
	local why=$1 desc=$2
	shift 2
	KTAP_N=$((KTAP_N + 1))
	if "$@"; then
		echo "ok $KTAP_N - $desc # TODO $why"
	else
		echo "not ok $KTAP_N - $desc # TODO $why"
	fi
}

ktap_finish() {
	[ "$KTAP_FAILED" -eq 0 ]
}

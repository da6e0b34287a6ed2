# SPDX-License-Identifier: GPL-2.0
# tests/tap.sh - sourced by the shell tests: TAP lines and the plan.
n=0 failed=0

ok() {	# ok DESCRIPTION CMD...: one TAP line from CMD's status
	local d=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $d"
	else
		echo "not ok $n - $d"
		failed=$((failed + 1))
	fi
}

tap_finish() {	# the plan; status 1 if a case failed
	echo "1..$n"
	[ "$failed" = 0 ]
}

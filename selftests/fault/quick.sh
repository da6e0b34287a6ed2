#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The quick part of the fault matrix, for make check (selftests/suites:
# fault): in one VM, the knob fuzz with 3 random strings per knob and one
# cycle of every lifecycle fault.  hostile.sh and mixed.sh are not here:
# the flows they rely on fail on their own at times (README.md, "Known
# failures"); nor are the --full cases.
here=$(cd "$(dirname "$0")" && pwd)
rc=0
"$here/knobs.sh" 3 || rc=1
"$here/lifecycle.sh" 1 || rc=1
exit $rc

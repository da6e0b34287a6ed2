#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The quick part of the fault matrix, for make check (selftests/suites:
# fault): in one VM, the knob fuzz with 3 random strings per knob and one
# cycle of every lifecycle fault (paced and halted).  hostile.sh (15+ min
# in TCG) and mixed.sh are not here; retry.sh (fault-retry, two vCPUs)
# and window.sh (fault-window, also on 6.12 and 7.2) are suites of their
# own.
here=$(cd "$(dirname "$0")" && pwd)
rc=0
"$here/knobs.sh" 3 || rc=1
"$here/lifecycle.sh" 1 || rc=1
exit $rc

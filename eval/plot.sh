#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# eval/plot.sh OUT_DIR: the report's figures, OUT_DIR/SCEN/*.png, drawn by
# eval/figures.py (matplotlib; its docstring lists them).  Exit 1 without
# python3-matplotlib or python3-numpy (make deps installs them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
python3 "$here/figures.py" "${1:?usage: eval/plot.sh OUT_DIR}" 2>&1 | sed 's/^/# plot: /'
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] || echo "# plot: eval/figures.py failed (exit $rc; python3-matplotlib and python3-numpy: make deps)"
exit "$rc"

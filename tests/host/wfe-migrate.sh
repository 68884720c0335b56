#!/usr/bin/env bash
# lab-test: timeout=300 parallel=yes
# The event register and the WFE halt across a migration (issue 28, items
# 10 and 12): a virt guest on the lab's QEMU is saved to a file in the
# middle of a WFE wait (QMP "migrate" to exec:cat; savevm needs a disk)
# and loaded again, and saved while idle and loaded by Debian's stock
# QEMU; stock QEMU refuses the mid-wait state.  What it checks does not
# depend on the host's time.  The cases are in
# tests/host/lib/wfe_migrate.py.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
exec python3 "$top/tests/host/lib/wfe_migrate.py" "$logs"

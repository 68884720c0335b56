#!/usr/bin/env bash
# lab-test: timeout=300 parallel=yes
# The event register and the WFE halt across a migration (issue 28, item
# 12; qemu/patches/01-arm-event-register): a virt guest on the lab's QEMU is saved to a file
# in the middle of a WFE wait (QMP "migrate" to exec:cat; savevm needs a
# disk) and loaded again, in host time with the event stream off and in
# modelled time, where a halted CPU waits for the stream's next event (a
# timer that must come with it); an idle one is loaded by Debian's stock
# QEMU, which refuses the mid-wait state.  What it checks does not depend
# on the host's time.  The cases are in tests/host/lib/wfe_migrate.py.
# Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
mkdir -p "$logs"
exec python3 "$top/tests/host/lib/wfe_migrate.py" "$logs"

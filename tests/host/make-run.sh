#!/usr/bin/env bash
# `make run` as a user drives it, through a terminal (a pty): the guest's
# shell prompt comes up, the README's "In the guest's shell" commands are
# typed and their output checked, and `poweroff -f` ends it.  To keep the
# suite's time down it runs `make run VARIANT=debug` (the debug kernel is
# the one `make test` has just built); the release path differs only in
# the kernel image.  It boots in host time, as `make run` does, but checks
# no time (its waits are of 30 s or more for what takes a second or two,
# the switcher's inbound timeout a second), so it runs beside the other
# suites that do not need the host to themselves.  Prints KTAP.
# lab-test: timeout=900 parallel=yes
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
exec python3 "$top/tests/host/make_run_pty.py" "$top" "$logs/make-run.typescript"

#!/usr/bin/env bash
# `make run` as a user drives it, through a terminal (a pty): the guest's
# shell prompt comes up, the README's "In the guest's shell" commands are
# typed and their output checked, and `poweroff -f` ends it.  To keep the
# suite's time down it runs `make run VARIANT=debug` (the debug kernel is
# the one `make test` has just built); the release path differs only in
# the kernel image.  Prints KTAP.
# lab-test: timeout=900
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
exec python3 "$top/tests/host/make_run_pty.py" "$top" "$logs/make-run.typescript"

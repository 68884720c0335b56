#!/usr/bin/env bash
# The model checks and the vlock.S stress test (tests/verify/run, also
# "make verify"), as part of the suite.  Prints KTAP.
# lab-test: timeout=3600
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
exec "$top/tests/verify/run" "$("$top/scripts/kernel-tree" path)"

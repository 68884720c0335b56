#!/usr/bin/env bash
# lab-test: parallel=yes timeout=60
# scripts/check-disk, the first step of 'make test', 'make run' and
# 'make bench': with less space free than a build and suite take it says
# how much is missing and exits 1; bad arguments exit 2 with a message;
# with enough space it is silent; a du that exits 1 because files under
# build/ vanished while it walked (other suites run beside this one) does
# not end it silently.  Nothing is written but a stub du in a temporary
# directory (and build/, if it is not there yet).  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"
check=$top/scripts/check-disk

echo "KTAP version 1"
echo "1..6"

expect() { # NAME RC PATTERN ARGS...: exit status RC, stderr matching PATTERN
	local name=$1 want=$2 pattern=$3 rc=0 err
	shift 3
	err=$("$check" "$@" 2>&1 >/dev/null) || rc=$?
	err=${err//$'\n'/ }
	if [ "$rc" -ne "$want" ]; then
		fail "$name" "exit $rc, expected $want; stderr: $err"
	elif [ -n "$pattern" ] && ! grep -q -- "$pattern" <<<"$err"; then
		fail "$name" "stderr does not say '$pattern': $err"
	elif [ -z "$pattern" ] && [ -n "$err" ]; then
		fail "$name" "expected no output, got: $err"
	else
		pass "$name" "${err:-(silent)}"
	fi
}

# No file system here has 10^8 MiB (95 TiB) free.
expect "refuses when the space is not there" 1 "MiB free under" 100000000
expect "refuses a NEEDED_MIB that is not a number" 2 "whole number" 4G
expect "refuses a negative NEEDED_MIB" 2 "whole number" -5
expect "refuses two arguments" 2 "usage" 1 2
# 1 MiB asked: the floor of 1024 MiB applies; every machine that builds
# the lab has that much.
expect "silent with the space there" 0 "" 1
# A test double of du: prints a total and exits 1, as du does when a
# file it listed is gone before it is measured.  check-disk must still
# report (before this, pipefail and set -e ended it with exit 1 and no
# word: the CI of 146da66).
stub=$(mktemp -d)
trap 'rm -rf "$stub"' EXIT
cat >"$stub/du" <<'EOF'
#!/bin/sh
printf '123\t%s\n' "$2"
exit 1
EOF
chmod +x "$stub/du"
mkdir -p "$top/build"
PATH="$stub:$PATH" expect "a du that lost files still counts build/" 1 \
	"build/ holds 123 MiB" 100000000
[ "$failed" -eq 0 ]

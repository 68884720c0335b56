#!/usr/bin/env bash
# lab-test: parallel=yes
# The vexpress-a15-a7 machine refuses CPU layouts it cannot have, with a
# clear error and before running anything, and accepts the ones it can
# (TC2's 2+3 among them).  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
qemu=$top/build/qemu-build/qemu-system-arm
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"

echo "KTAP version 1"
echo "1..8"

# start MACHINE_OPTS [QEMU ARGS]: the exit status of a paused machine given
# 3 s (124: it started and was stopped by the time limit), output in $out
start() {
	local m=$1
	shift
	rc=0
	out=$(timeout 3 "$qemu" -M "vexpress-a15-a7$m" -nodefaults -display none \
		-audiodev none,id=a -monitor none -S "$@" 2>&1) || rc=$?
}

# refused NAME MACHINE_OPTS PATTERN [QEMU ARGS]
refused() {
	local name=$1 m=$2 pat=$3
	shift 3
	start "$m" "$@"
	if [ "$rc" -eq 1 ] && echo "$out" | grep -q -- "$pat"; then
		pass "refused: $name"
	else
		fail "refused: $name" "exit status $rc, output: $out"
	fi
}

# accepted NAME MACHINE_OPTS [QEMU ARGS]
accepted() {
	local name=$1 m=$2
	shift 2
	start "$m" "$@"
	if [ "$rc" -eq 124 ]; then
		pass "accepted: $name"
	else
		fail "accepted: $name" "exit status $rc, output: $out"
	fi
}

refused "a15-cpus=0" ",a15-cpus=0" "a15-cpus=0: each cluster has 1 to 4 CPUs" -smp 4
refused "a7-cpus=5" ",a7-cpus=5" "a7-cpus=5: each cluster has 1 to 4 CPUs" -smp 8
refused "-smp 4 with 4+4" "" "-smp 4 (maxcpus 4) contradicts a15-cpus=4 + a7-cpus=4: use -smp 8" -smp 4
refused "-smp 8 with 2+3" ",a15-cpus=2,a7-cpus=3" "use -smp 5" -smp 8
refused "-smp 5,maxcpus=8 with 2+3" ",a15-cpus=2,a7-cpus=3" "contradicts" -smp 5,maxcpus=8
refused "-cpu cortex-a7" "" "the CPU types are fixed" -smp 8 -cpu cortex-a7
accepted "4+4 (default) with -smp 8" "" -smp 8
accepted "TC2's 2+3 with -smp 5" ",a15-cpus=2,a7-cpus=3" -smp 5

#!/usr/bin/env bash
# lab-test: parallel=yes timeout=300
# The tc2 platform (issue 31, first part):
#  - QEMU's vexpress-tc2 machine is TC2's tile, 2 Cortex-A15 + 3 Cortex-A7:
#    it refuses another CPU count or CPU type with a clear error before
#    running anything, and starts with the defaults;
#  - the guest boots the kernel tree's own vexpress-v2p-ca15_a7.dtb: the
#    series leaves the tree's device-tree sources alone, build/dtb's copy
#    is the one the kernel's make built, and the DTB the guest was given
#    (its /boot/dtb) has the same SHA-256.
# Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
qemu=$top/build/qemu-build/qemu-system-arm
tree=$("$top/scripts/kernel-tree" path)
dtb=$top/build/dtb/vexpress-v2p-ca15_a7.dtb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"

echo "KTAP version 1"
echo "1..6"

# start [QEMU ARGS]: the exit status of a paused vexpress-tc2 given 3 s
# (124: it started and was stopped by the time limit), output in $out
start() {
	rc=0
	out=$(timeout 3 "$qemu" -M vexpress-tc2 -nodefaults -display none \
		-audiodev none,id=a -global pl041.audiodev=a -monitor none -S "$@" 2>&1) || rc=$?
}

start -smp 4
if [ "$rc" -eq 1 ] && echo "$out" | grep -q "use -smp 5"; then
	pass "vexpress-tc2 refuses -smp 4" "$out"
else
	fail "vexpress-tc2 refuses -smp 4" "exit status $rc, output: $out"
fi
start -cpu cortex-a7
if [ "$rc" -eq 1 ] && echo "$out" | grep -q "drop -cpu"; then
	pass "vexpress-tc2 refuses -cpu" "$out"
else
	fail "vexpress-tc2 refuses -cpu" "exit status $rc, output: $out"
fi
start
out=$(echo "$out" | grep -v "terminating on signal 15" || true)
if [ "$rc" -eq 124 ] && [ -z "$out" ]; then
	pass "vexpress-tc2 starts with its defaults (5 CPUs)"
else
	fail "vexpress-tc2 starts with its defaults (5 CPUs)" "exit status $rc, output: $out"
fi

if git -C "$tree" diff --quiet pristine HEAD -- arch/arm/boot/dts include/dt-bindings; then
	pass "the kernel series leaves the tree's device-tree sources alone"
else
	fail "the kernel series leaves the tree's device-tree sources alone" \
		"$(git -C "$tree" diff --stat pristine HEAD -- arch/arm/boot/dts include/dt-bindings | tail -n 1)"
fi

built=$(find "$top/build" -maxdepth 1 -name 'kernel-*' -type d -exec \
	sh -c 'f=$1/arch/arm/boot/dts/vexpress-v2p-ca15_a7.dtb; [ -f "$f" ] && sha256sum < "$f"' _ {} \; |
	sort -u)
mine=$(sha256sum < "$dtb")
if [ -n "$built" ] && [ "$built" = "$mine" ]; then
	pass "build/dtb's TC2 DTB is the kernel's build of the tree's source" "${mine%% *}"
else
	fail "build/dtb's TC2 DTB is the kernel's build of the tree's source" \
		"build/dtb: ${mine%% *}; kernel builds: $(echo "$built" | cut -c1-64 | xargs)"
fi

printf '#!/bin/sh\nsha256sum < /boot/dtb\n' > "$tmp/hash.sh"
booted=$("$top/scripts/guest-run" --no-build --variant debug --platform tc2 --timing modelled \
	--timeout 120 "$tmp/hash.sh" 2> "$tmp/err" | grep -E '^[0-9a-f]{64} ' || true)
if [ "$booted" = "$mine" ]; then
	pass "the tc2 guest booted that DTB (its /boot/dtb)" "${booted%% *}"
else
	fail "the tc2 guest booted that DTB (its /boot/dtb)" \
		"guest: ${booted:-nothing} ($(tail -n 1 "$tmp/err"))"
fi
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The model checks and the vlock.S stress test (tests/verify/run, also
# "make verify"), as part of the suite.  Prints KTAP.
#
# A run whose inputs (tests/verify/, the kernel tree's vlock.S, vlock.h
# and asm/mcpm.h, and the versions of spin, gcc, the cross compiler and
# qemu-arm) hash the same as the last green run in this build directory
# is not repeated: its checks are reported as skipped, naming that run.
# A fresh clone has no such run and checks everything; LAB_FULL=1 always
# does.
# lab-test: timeout=3600
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/kernel-tree" path)
out=${VERIFY_OUT:-$top/build/verify}
green=$out/green

inputs_hash() {
	{
		(cd "$top" && find tests/verify -type f -print0 | sort -z | xargs -0 sha256sum)
		(cd "$tree" && sha256sum arch/arm/common/vlock.S arch/arm/common/vlock.h \
			arch/arm/include/asm/mcpm.h)
		spin -V 2>&1 | head -n 1
		gcc --version | head -n 1
		"${CROSS_CC:-arm-linux-gnueabihf-gcc}" --version | head -n 1
		"${QEMU_ARM:-qemu-arm}" --version | head -n 1
	} | sha256sum | cut -c1-16
}

hash=$(inputs_hash)
if [ -z "${LAB_FULL:-}" ] && [ -f "$green.ktap" ] && [ "$(cat "$green.hash" 2>/dev/null)" = "$hash" ]; then
	why="inputs unchanged (hash $hash) since the green run of $(cat "$green.date"); LAB_FULL=1 reruns"
	sed "s/^ok \([0-9]*\) \(.*\)/ok \1 \2 # SKIP $why/" "$green.ktap"
	exit 0
fi
rm -f "$green.ktap" "$green.hash" "$green.date"
mkdir -p "$out"
rc=0
"$top/tests/verify/run" "$tree" | tee "$out/last.ktap" || rc=$?
if [ "$rc" -eq 0 ]; then
	cp "$out/last.ktap" "$green.ktap"
	echo "$hash" > "$green.hash"
	date -u '+%Y-%m-%d %H:%M UTC' > "$green.date"
fi
exit "$rc"

#!/usr/bin/env bash
# lab-test: parallel=yes
# The QEMU patch series: the prepared tree's commits export to exactly
# qemu/patches, and every patch is clean under the QEMU tree's own
# scripts/checkpatch.pl.  The one warning let through is checkpatch's
# question whether MAINTAINERS needs an entry for a new file: the lab's
# files have no upstream maintainer to name.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/qemu-tree" path)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/qemu/patches/series")
. "$top/tests/host/lib/series.sh"

echo "KTAP version 1"
echo "1..$((${#patches[@]} + 2))"

export_matches qemu-tree qemu/patches "${#patches[@]}"

# problems PATCH: checkpatch's errors and warnings but the MAINTAINERS one
problems() {
	(cd "$tree"; perl scripts/checkpatch.pl --color=never "$1" 2>&1 || true) |
		grep -E '^(ERROR|WARNING):' | grep -v -F 'does MAINTAINERS need updating?' || true
}

# The check of the check: a patch adding a file with a 100-column line
# must be refused.
long=$(printf '%094d' 0)
cat > "$tmp/bad.patch" <<PATCH
From: Lab test <lab@localhost>
Subject: [PATCH] hw/misc: a deliberate style error

Signed-off-by: Lab test <lab@localhost>
---
diff --git a/hw/misc/lab-probe.c b/hw/misc/lab-probe.c
new file mode 100644
--- /dev/null
+++ b/hw/misc/lab-probe.c
@@ -0,0 +1 @@
+/* $long */
PATCH
if problems "$tmp/bad.patch" | grep -q 'line over'; then
	pass "QEMU checkpatch refuses a patch with a 100-column line (a test double)"
else
	fail "QEMU checkpatch refuses a patch with a 100-column line (a test double)" \
		"$(problems "$tmp/bad.patch" | head -n 3 | tr '\n' ' ')"
fi

for p in "${patches[@]}"; do
	problems=$(problems "$top/qemu/patches/$p")
	if [ -z "$problems" ]; then
		pass "QEMU checkpatch: $p"
	else
		fail "QEMU checkpatch: $p" "$(echo "$problems" | head -n 3 | tr '\n' ' ')"
	fi
done
# shellcheck disable=SC2154 # failed is kept by tests/host/lib/series.sh
[ "$failed" -eq 0 ]

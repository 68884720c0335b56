#!/usr/bin/env bash
# lab-test: parallel=yes
# The QEMU patch series, kept as topics (qemu/patches/NN-name/, each with
# its cover letter): the prepared tree's commits and topic branches export
# to exactly qemu/patches; each topic's cover letter says what the topic
# does, how it was tested and what a maintainer may object to; the topics
# apply in order with 'git am' to a fresh checkout of the pristine tree;
# 'make series' writes each topic as a mailbox with its cover letter and
# recipients; every patch is clean under the QEMU tree's own
# scripts/checkpatch.pl.  The one warning let through is checkpatch's
# question whether MAINTAINERS needs an entry for a new file, which it asks
# of every new file whatever MAINTAINERS says.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/qemu-tree" path)
tmp=$(mktemp -d)
trap 'git -C "$tree" worktree remove --force "$tmp/fresh" 2>/dev/null; rm -rf "$tmp"' EXIT
mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/qemu/patches/series")
mapfile -t topics < <(printf '%s\n' "${patches[@]}" | xargs -n1 dirname | uniq)
. "$top/tests/host/lib/series.sh"

echo "KTAP version 1"
echo "1..$((${#patches[@]} + 2 * ${#topics[@]} + 4))"

export_matches qemu-tree qemu/patches "${#patches[@]} patches in ${#topics[@]} topics"

for t in "${topics[@]}"; do
	cover_letter qemu/patches "$t"
done

# The topics apply in order to a fresh checkout of the pristine tree.
git -C "$tree" worktree add -q --detach "$tmp/fresh" pristine
broken=""
for t in "${topics[@]}"; do
	if [ -n "$broken" ]; then
		skip "topic $t applies with git am after the topics before it" "$broken does not apply"
		continue
	fi
	mapfile -t mine < <(printf '%s\n' "${patches[@]}" | grep "^$t/")
	if (cd "$top/qemu/patches" && git -C "$tmp/fresh" am -q --keep-cr "${mine[@]/#/$PWD/}") \
		> "$tmp/am.log" 2>&1; then
		pass "topic $t applies with git am after the topics before it" "${#mine[@]} patches"
	else
		fail "topic $t applies with git am after the topics before it" "$(head -n 3 "$tmp/am.log" | tr '\n' ' ')"
		git -C "$tmp/fresh" am --abort 2>/dev/null || true
		broken=$t
	fi
done
if [ -z "$broken" ] && git -C "$tmp/fresh" diff --quiet HEAD "$(git -C "$tree" rev-parse HEAD)"; then
	pass "the applied topics are the prepared tree's source"
else
	fail "the applied topics are the prepared tree's source" \
		"$(git -C "$tmp/fresh" diff --stat HEAD "$(git -C "$tree" rev-parse HEAD)" 2>&1 | tail -n 1)"
fi

# make series: one mailbox per topic, the cover letter first, numbered
# as one series, addressed to the maintainers get_maintainer.pl names
# (Peter Maydell for Arm) with qemu-devel in copy.
mailboxes qemu-tree qemu/patches 'qemu-devel@nongnu.org'

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

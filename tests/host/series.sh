#!/usr/bin/env bash
# lab-test: parallel=yes
# The kernel patch series: it is what the prepared tree holds (export
# reproduces kernel/patches byte for byte), every patch is clean under
# checkpatch --strict, and kernel-doc finds nothing to complain about in
# the files the series touches.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/kernel-tree" path)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/kernel/patches/series")
. "$top/tests/host/lib/series.sh"

echo "KTAP version 1"
echo "1..$((${#patches[@]} + 2))"

export_matches kernel-tree kernel/patches "${#patches[@]}"

# Each patch is checked against the tree as it is before that patch (a
# pristine checkout with the earlier patches applied): checkpatch reads
# the files a patch changes, and in the fully patched tree it would
# already know the identifiers the patch introduces.  Its SPDX check runs
# Debian's python3 (python3-ply, python3-git).  Two workers, each with its
# own checkout applying every patch, check alternate patches; the results
# are reported in order.
checkpatch_worker() {
	local w=$1 wt=$tmp/pristine.$1 i=0 p out
	git -C "$tree" worktree add -q --detach "$wt" pristine
	for p in "${patches[@]}"; do
		i=$((i + 1))
		out=""
		if [ $((i % 2)) = "$w" ]; then
			out=$(cd "$wt"; PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse \
				--no-summary "$top/kernel/patches/$p" 2>&1 || true)
		fi
		git -C "$wt" apply "$top/kernel/patches/$p" ||
			out="$out (and it does not apply after the patches before it)"
		if [ $((i % 2)) = "$w" ]; then
			printf '%s' "$out" > "$tmp/checkpatch.$i"
		fi
	done
}
trap 'for w in 0 1; do git -C "$tree" worktree remove --force "$tmp/pristine.$w" 2>/dev/null; done; rm -rf "$tmp"' EXIT
checkpatch_worker 0 &
w0=$!
checkpatch_worker 1 &
w1=$!
wait "$w0" "$w1"
i=0
for p in "${patches[@]}"; do
	i=$((i + 1))
	if [ ! -f "$tmp/checkpatch.$i" ]; then
		fail "checkpatch --strict: $p" "no result (a worker died)"
	elif [ ! -s "$tmp/checkpatch.$i" ]; then
		pass "checkpatch --strict: $p"
	else
		fail "checkpatch --strict: $p" "$(head -n 3 "$tmp/checkpatch.$i" | tr '\n' ' ')"
	fi
done

mapfile -t files < <(cd "$tree" && git diff --name-only pristine HEAD -- '*.c' '*.h')
out=$(cd "$tree"; scripts/kernel-doc -none "${files[@]}" 2>&1 || true)
if [ -z "$out" ]; then
	pass "kernel-doc: no warnings in the ${#files[@]} C files the series touches"
else
	fail "kernel-doc: no warnings in the C files the series touches" "$(echo "$out" | head -n 3 | tr '\n' ' ')"
fi
# shellcheck disable=SC2154 # failed is kept by tests/host/lib/series.sh
[ "$failed" -eq 0 ]

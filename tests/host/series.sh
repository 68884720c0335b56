#!/usr/bin/env bash
# lab-test: parallel=yes
# The kernel patch series, kept as topics (kernel/patches/NN-name/, each
# with its cover letter): the prepared tree's commits and topic branches
# export to exactly kernel/patches; each topic's cover letter says what
# the topic does, how it was tested and what a maintainer may object to;
# the topics apply in order to a fresh checkout of the pristine tree and
# give exactly the prepared tree's source; 'make series' writes each
# topic as a mailbox with its cover letter and recipients; every patch is
# clean under checkpatch --strict, and kernel-doc finds nothing to
# complain about in the files the series touches; every Fixes: tag
# names a mainline commit listed, with where it was checked, in
# kernel/mainline-commits.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/kernel-tree" path)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mapfile -t patches < <(grep -v -e '^#' -e '^$' "$top/kernel/patches/series")
mapfile -t topics < <(printf '%s\n' "${patches[@]}" | xargs -n1 dirname | uniq)
. "$top/tests/host/lib/series.sh"

echo "KTAP version 1"
echo "1..$((${#patches[@]} + 2 * ${#topics[@]} + 6))"

export_matches kernel-tree kernel/patches "${#patches[@]} patches in ${#topics[@]} topics"

for t in "${topics[@]}"; do
	cover_letter kernel/patches "$t"
done

# Each patch is checked against the tree as it is before that patch (a
# pristine checkout with the earlier patches applied): checkpatch reads
# the files a patch changes, and in the fully patched tree it would
# already know the identifiers the patch introduces.  Its SPDX check runs
# Debian's python3 (python3-ply, python3-git).  Two workers, each with its
# own checkout applying every patch in order (git apply --index: so the
# checkout's index ends as the series makes it), check alternate patches;
# the results are reported in order.  Worker 0's checkout is then the
# fresh tree the topics were applied to.  The tree has no mainline
# history, so checkpatch cannot look up the commits Fixes: tags name
# (UNKNOWN_COMMIT_ID); fixes_tags below checks them against
# kernel/mainline-commits instead.
checkpatch_worker() {
	local w=$1 wt=$tmp/pristine.$1 i=0 p out
	git -C "$tree" worktree add -q --detach "$wt" pristine
	for p in "${patches[@]}"; do
		i=$((i + 1))
		out=""
		if [ $((i % 2)) = "$w" ]; then
			out=$(cd "$wt"; PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse \
				--ignore UNKNOWN_COMMIT_ID --no-summary "$top/kernel/patches/$p" 2>&1 || true)
		fi
		if ! git -C "$wt" apply --index "$top/kernel/patches/$p" 2> "$tmp/apply.$w.$i"; then
			out="$out (and it does not apply after the patches before it)"
			echo "$p" >> "$tmp/unapplied.$w"
		fi
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

# The topics applied in order to the pristine checkout.
for t in "${topics[@]}"; do
	count=$(printf '%s\n' "${patches[@]}" | grep -c "^$t/")
	bad=$(grep "^$t/" "$tmp/unapplied.0" 2>/dev/null || true)
	if [ -z "$bad" ]; then
		pass "topic $t applies after the topics before it" "$count patches"
	else
		fail "topic $t applies after the topics before it" "does not apply: $(echo "$bad" | head -n 2 | tr '\n' ' ')"
	fi
done
if [ ! -s "$tmp/unapplied.0" ] &&
   git -C "$tmp/pristine.0" diff --cached --quiet "$(git -C "$tree" rev-parse HEAD)"; then
	pass "the applied topics are the prepared tree's source"
else
	fail "the applied topics are the prepared tree's source" \
		"$(git -C "$tmp/pristine.0" diff --cached --stat "$(git -C "$tree" rev-parse HEAD)" 2>&1 | tail -n 1)"
fi

# make series: one mailbox per topic, addressed as get_maintainer.pl says
# (linux-arm-kernel, linux-pm, ...).
mailboxes kernel-tree kernel/patches 'lists\.infradead\.org|vger\.kernel\.org'

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

# fixes_tags FILE...: print each Fixes: tag of the patches FILE... (as
# "patch: tag") that kernel/mainline-commits does not list
fixes_tags() {
	local f tag
	for f in "$@"; do
		sed -n '/^---$/q; s/^Fixes: //p' "$f" | while IFS= read -r tag; do
			grep -qxF "$tag" <(sed -n 's/ # .*//p' "$top/kernel/mainline-commits") ||
				echo "$(basename "$f"): $tag"
		done
	done
}
printf 'Subject: [PATCH] a test double\n\nFixes: 0123456789ab ("not a mainline commit")\n---\n' > "$tmp/double.patch"
if [ -n "$(fixes_tags "$tmp/double.patch")" ]; then
	pass "the Fixes: check refuses a tag kernel/mainline-commits does not list (a test double)"
else
	fail "the Fixes: check refuses a tag kernel/mainline-commits does not list (a test double)"
fi
unlisted=$(cd "$top/kernel/patches" && fixes_tags "${patches[@]}")
ntags=$(cd "$top/kernel/patches" && awk 'FNR == 1 { msg = 1 } /^---$/ { msg = 0 } msg && /^Fixes: /' "${patches[@]}" | wc -l)
if [ -z "$unlisted" ] && [ "$ntags" -gt 0 ]; then
	pass "every Fixes: tag names a mainline commit in kernel/mainline-commits" "$ntags tags"
else
	fail "every Fixes: tag names a mainline commit in kernel/mainline-commits" \
		"${unlisted:-no Fixes: tags at all}"
fi

mapfile -t files < <(cd "$tree" && git diff --name-only pristine HEAD -- '*.c' '*.h')
out=$(cd "$tree"; scripts/kernel-doc -none "${files[@]}" 2>&1 || true)
if [ -z "$out" ]; then
	pass "kernel-doc: no warnings in the ${#files[@]} C files the series touches"
else
	fail "kernel-doc: no warnings in the C files the series touches" "$(echo "$out" | head -n 3 | tr '\n' ' ')"
fi
# shellcheck disable=SC2154 # failed is kept by tests/host/lib/series.sh
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# lab-test: parallel=yes
# The topic machinery the series are kept with (scripts/lib/topics.sh), on
# a toy tree of three commits in two topics: a round trip (export, then
# apply into a fresh tree, gives the same commits, branches and cover
# letters), and the checks of the checks: export refuses a commit after
# the last topic, a topic branch out of order, an empty topic and a topic
# with no cover letter; apply refuses a topic with no cover letter and a
# patch that does not apply (naming it).  Both real trees have their
# topics' branches.
# Prints KTAP.
# shellcheck disable=SC2031,SC2317 # lib's subshell sources the library, which sets its own tmp
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/host/lib/ktap.sh"

export GIT_AUTHOR_NAME=toy GIT_AUTHOR_EMAIL=toy@localhost
export GIT_COMMITTER_NAME=toy GIT_COMMITTER_EMAIL=toy@localhost
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"

# lib TREE PATCHES FUNCTION ARGS...: run one of the library's functions
# in a subshell, as scripts/qemu-tree does, with its output and errors
lib() {
	(
		tree=$1 patches=$2 what=toy
		shift 2
		die() { echo "toy-tree: $*" >&2; exit 1; }
		git_t() { git -C "$tree" "$@"; }
		# shellcheck source=../../scripts/lib/topics.sh
		. "$top/scripts/lib/topics.sh"
		"$@"
	)
}

# a toy tree: pristine, then a.c and b.c in topic 01-first, c.c in 02-second
toy=$tmp/toy
git init -q "$toy"
echo base > "$toy/README"
git -C "$toy" add README
git -C "$toy" commit -q -m "toy source"
git -C "$toy" tag pristine
for f in a b c; do
	echo "int $f;" > "$toy/$f.c"
	git -C "$toy" add "$f.c"
	git -C "$toy" commit -q -m "toy: add $f.c" -m "The file $f.c."
	[ "$f" != b ] || git -C "$toy" branch topic/01-first
done
git -C "$toy" checkout -q -b topic/02-second
git -C "$toy" config branch.topic/01-first.description "$(printf 'toy: the first topic\n\nIt adds a.c and b.c.')"
git -C "$toy" config branch.topic/02-second.description "$(printf 'toy: the second topic\n\nIt adds c.c.')"

echo "KTAP version 1"
echo "1..9"

# refused TEST-NAME EXPECTED-MESSAGE FUNCTION ARGS...: the call, on the
# tree $rtree with the series $rpatches, fails with a message that
# contains EXPECTED-MESSAGE
rtree=$toy rpatches=$tmp/out
refused() {
	local name=$1 want=$2
	shift 2
	if lib "$rtree" "$rpatches" "$@" > "$tmp/log" 2>&1; then
		fail "$name" "it did not fail: $(tr '\n' ' ' < "$tmp/log")"
	elif grep -q -F "$want" "$tmp/log"; then
		pass "$name" "$(tail -n1 "$tmp/log")"
	else
		fail "$name" "it failed, but not saying '$want': $(tr '\n' ' ' < "$tmp/log")"
	fi
}

# Round trip.
why=""
lib "$toy" "$tmp/p" topics_export "$tmp/p" > "$tmp/log" 2>&1 || why="export: $(tail -n1 "$tmp/log")"
if [ -z "$why" ]; then
	fresh=$tmp/fresh
	git init -q "$fresh"
	git -C "$fresh" fetch -q "$toy" pristine:refs/tags/pristine
	git -C "$fresh" checkout -q pristine
	lib "$fresh" "$tmp/p" topics_apply > "$tmp/log" 2>&1 || why="apply: $(tail -n1 "$tmp/log")"
fi
if [ -z "$why" ]; then
	for b in topic/01-first topic/02-second; do
		[ "$(git -C "$fresh" log --format='%s%n%b' "pristine..$b")" = "$(git -C "$toy" log --format='%s%n%b' "pristine..$b")" ] ||
			why="$b holds other commits after the round trip"
		[ "$(git -C "$fresh" config "branch.$b.description")" = "$(git -C "$toy" config "branch.$b.description")" ] ||
			why="$b has another description after the round trip"
	done
	[ "$(git -C "$fresh" symbolic-ref --short HEAD)" = topic/02-second ] ||
		why="HEAD is not on the last topic's branch after apply"
	[ "$(grep -v '^#' "$tmp/p/series" | tr '\n' ' ')" = "01-first/0001-toy-add-a.c.patch 01-first/0002-toy-add-b.c.patch 02-second/0001-toy-add-c.c.patch " ] ||
		why="series is not the three patches in their topic folders: $(tr '\n' ' ' < "$tmp/p/series")"
fi
if [ -z "$why" ]; then
	pass "export, then apply to a fresh tree, gives the same topics"
else
	fail "export, then apply to a fresh tree, gives the same topics" "$why"
fi

# Checks of the checks.
git -C "$toy" commit -q --allow-empty -m "toy: a commit after the last topic"
git -C "$toy" checkout -q --detach HEAD
git -C "$toy" branch -q -f topic/02-second HEAD~1
refused "export refuses a commit after the last topic's branch" \
	"HEAD is not at the last topic branch" topics_export "$tmp/out"
git -C "$toy" checkout -q -B topic/02-second HEAD~1

git -C "$toy" branch -q topic/03-third topic/01-first
refused "export refuses a topic branch out of order" \
	"topic/03-third does not follow topic/02-second" topics_export "$tmp/out"
git -C "$toy" branch -q -f topic/03-third topic/02-second
refused "export refuses a topic that adds no commit" \
	"topic/03-third adds no commit" topics_export "$tmp/out"
git -C "$toy" branch -q -D topic/03-third

git -C "$toy" config --unset branch.topic/01-first.description
refused "export refuses a topic with no cover letter" \
	"topic/01-first has no description" topics_export "$tmp/out"

rm "$tmp/p/02-second/cover-letter"
rtree=$fresh rpatches=$tmp/p
refused "apply refuses a topic with no cover letter" \
	"topic 02-second has no cover letter" topics_apply
printf 'toy: the second topic\n\nIt adds c.c.\n' > "$tmp/p/02-second/cover-letter"
printf 'From: toy <toy@localhost>\nSubject: [PATCH] toy: change z.c\n\n---\ndiff --git a/z.c b/z.c\n--- a/z.c\n+++ b/z.c\n@@ -1 +1 @@\n-int z;\n+int y;\n' > "$tmp/p/02-second/0002-toy-change-z.c.patch"
echo 02-second/0002-toy-change-z.c.patch >> "$tmp/p/series"
refused "apply refuses a patch that does not apply, and names it" \
	"patch 02-second/0002-toy-change-z.c.patch does not apply" topics_apply

# The real series have their topics' branches in the trees they were
# applied to.
# tree_branches TOOL DIR NAME: TOOL's tree has a branch per topic of DIR
tree_branches() {
	local t b
	t=$("$top/scripts/$1" path)
	b=$(git -C "$t" for-each-ref --format='%(refname:short)' refs/heads/topic/ 2>&1 | tr '\n' ' ')
	if [ -d "$t/.git" ] &&
	   [ "$b" = "$(grep -v -e '^#' -e '^$' "$top/$2/series" | xargs -n1 dirname | uniq | sed 's|^|topic/|' | tr '\n' ' ')" ]; then
		pass "the $3 tree has a branch for each topic of $2, in order"
	else
		fail "the $3 tree has a branch for each topic of $2, in order" "$b"
	fi
}
tree_branches qemu-tree qemu/patches QEMU
tree_branches kernel-tree kernel/patches kernel
[ "$failed" -eq 0 ]

# shellcheck shell=bash disable=SC2154 # top and tmp: set by the sourcing script
# What tests/host/series.sh and qemu-series.sh share: KTAP results and the
# check that a tree's commits export to exactly the committed series.
# Source after setting top and tmp:  . "$top/tests/host/lib/series.sh"
. "$top/tests/host/lib/ktap.sh"

# export_matches TREE-TOOL DIR COUNT: scripts/TREE-TOOL export writes DIR
# (kernel/patches, qemu/patches) back byte for byte
export_matches() {
	if "$top/scripts/$1" export "$tmp/series" >/dev/null &&
	   diff -r "$tmp/series" "$top/$2" > "$tmp/diff"; then
		pass "the tree's commits export to exactly $2" "$3 patches"
	else
		fail "the tree's commits export to exactly $2" "$(head -c 300 "$tmp/diff" | tr '\n' ' ')"
	fi
}

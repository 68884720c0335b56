# shellcheck shell=bash disable=SC2154 # top and tmp: set by the sourcing script
# What tests/host/series.sh and qemu-series.sh share: KTAP results and the
# check that a tree's commits export to exactly the committed series.
# Source after setting top and tmp:  . "$top/tests/host/lib/series.sh"
n=0
failed=0
pass() { n=$((n + 1)); [ -n "${2:-}" ] && echo "# $2"; echo "ok $n $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "# $2"; echo "not ok $n $1"; }

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

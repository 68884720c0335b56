# shellcheck shell=bash disable=SC2154 # top and tmp: set by the sourcing script
# What tests/host/series.sh and qemu-series.sh share: KTAP results and the
# check that a tree's commits export to exactly the committed series.
# Source after setting top and tmp:  . "$top/tests/host/lib/series.sh"
. "$top/tests/host/lib/ktap.sh"

# export_matches TREE-TOOL DIR DIAG: scripts/TREE-TOOL export writes DIR
# (kernel/patches, qemu/patches) back byte for byte
export_matches() {
	if "$top/scripts/$1" export "$tmp/series" >/dev/null &&
	   diff -r "$tmp/series" "$top/$2" > "$tmp/diff"; then
		pass "the tree's commits export to exactly $2" "$3"
	else
		fail "the tree's commits export to exactly $2" "$(head -c 300 "$tmp/diff" | tr '\n' ' ')"
	fi
}

# cover_letter DIR TOPIC: a pass or fail for DIR/TOPIC/cover-letter: a
# subject line of at most 75 columns, a blank line, and a body that
# answers what a maintainer asks
cover_letter() {
	local cl=$top/$1/$2/cover-letter why="" part
	if [ ! -s "$cl" ]; then
		why="no cover letter"
	elif [ "$(head -n1 "$cl" | wc -L)" -gt 75 ] || [ -n "$(sed -n 2p "$cl")" ]; then
		why="the first line is not a subject of at most 75 columns followed by a blank line"
	else
		for part in "How it was tested" "What a maintainer may object to"; do
			grep -q "^$part" "$cl" || why="${why:+$why; }no paragraph '$part'"
		done
	fi
	if [ -z "$why" ]; then
		pass "topic $2 has a cover letter" "$(head -n1 "$cl")"
	else
		fail "topic $2 has a cover letter" "$why"
	fi
}

# mailboxes TREE-TOOL DIR LISTS: a pass or fail for 'scripts/TREE-TOOL
# mbox': one mailbox per topic of DIR/series with the topic's patches and
# the cover letter first as [PATCH 0/N], To: a maintainer and Cc: a list
# matching the extended regex LISTS
mailboxes() {
	local tool=$1 dir=$2 lists=$3 why="" t m count zero
	local -a all tops
	mapfile -t all < <(grep -v -e '^#' -e '^$' "$top/$dir/series")
	mapfile -t tops < <(printf '%s\n' "${all[@]}" | xargs -n1 dirname | uniq)
	"$top/scripts/$tool" mbox "$tmp/mbox" > "$tmp/mbox.log" 2>&1 ||
		why="scripts/$tool mbox failed: $(tail -n1 "$tmp/mbox.log")"
	for t in "${tops[@]}"; do
		[ -z "$why" ] || break
		m=$tmp/mbox/$t.mbox
		count=$(printf '%s\n' "${all[@]}" | grep -c "^$t/")
		if [ ! -s "$m" ]; then
			why="no $t.mbox"
		elif [ "$(grep -c '^From [0-9a-f]\{40\} ' "$m")" -ne $((count + 1)) ]; then
			why="$t.mbox has $(grep -c '^From [0-9a-f]\{40\} ' "$m") messages, not $((count + 1))"
		else
			# the first message's header, folded lines joined
			sed -n '1,/^$/p' "$m" | sed -e ':a' -e 'N' -e '$!ba' -e 's/\n[[:space:]]\+/ /g' > "$tmp/head"
			# git format-patch pads the 0 to the width of the count
			zero=$(printf '%0*d' "${#count}" 0)
			if ! grep -q -x -F "Subject: [PATCH $zero/$count] $(head -n1 "$top/$dir/$t/cover-letter")" "$tmp/head"; then
				why="$t.mbox does not start with its cover letter as [PATCH $zero/$count]"
			elif ! grep -q '^To: .*@' "$tmp/head" || ! grep -q -E "^Cc: .*($lists)" "$tmp/head"; then
				why="$t.mbox is not addressed to a maintainer and a list ($lists)"
			fi
		fi
	done
	if [ -z "$why" ]; then
		pass "make series writes each topic as a mailbox with its cover letter and recipients" "${#tops[@]} mailboxes"
	else
		fail "make series writes each topic as a mailbox with its cover letter and recipients" "$why"
	fi
}

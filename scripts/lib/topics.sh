# shellcheck shell=bash disable=SC2154 # tree, patches, what: set by the sourcing script
# A patch series kept as topics: what scripts/qemu-tree and
# scripts/kernel-tree source.
#
# In the repository, PATCHES/series lists the patches in 'git am' order as
# TOPIC/NNNN-subject.patch; each TOPIC folder (named NN-name, NN its place)
# holds its patches, numbered from 0001, and its cover letter, a text file
# "cover-letter": the subject on the first line, a blank line, the body.
#
# In the tree, each topic is a branch topic/TOPIC at its last commit, with
# the cover letter as the branch's description (git branch
# --edit-description); HEAD is on the last topic's branch, and the tree has
# rebase.updateRefs set, so that 'git rebase -i pristine' moves every topic
# branch with the commits it ends at.  A commit goes into a topic by being
# placed before that topic's branch.
#
# The sourcing script sets: tree (the git tree), patches (the folder),
# what (a name for messages), and defines git_t (git -C "$tree") and die.

# topics_series_list [DIR]: the patches DIR/series lists (DIR: $patches)
topics_series_list() {
	local d=${1:-$patches}
	[ -f "$d/series" ] || return 0
	grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$d/series" || true
}

# topics_names: the topics of the committed series, in order
topics_names() {
	topics_series_list | while read -r p; do dirname "$p"; done | uniq
}

topics_hash() {
	{
		cat "$patches/series" 2>/dev/null || true
		topics_series_list | while read -r p; do cat "$patches/$p"; done
		topics_names | while read -r t; do cat "$patches/$t/cover-letter" 2>/dev/null || true; done
	} | sha256sum | cut -d' ' -f1
}

# topics_apply: the tree at pristine with the committed series applied, a
# branch per topic, HEAD on the last one.  One 'git am' per topic: a big
# tree's index is read once a topic, not once a patch.
topics_apply() {
	local p t n=0 b
	local -a mine
	git_t checkout -q --detach pristine
	git_t reset -q --hard pristine
	git_t clean -q -fd
	git_t for-each-ref --format='%(refname:short)' refs/heads/topic/ |
		while read -r b; do git_t branch -q -D "$b"; done
	git_t config rebase.updateRefs true
	while read -r p; do
		[ -f "$patches/$p" ] || die "series names $p, which does not exist"
		[ "$(dirname "$p")" != . ] || die "series names $p, which is in no topic folder"
	done < <(topics_series_list)
	while read -r t; do
		mapfile -t mine < <(topics_series_list | grep "^$t/")
		if ! git_t am -q --keep-cr "${mine[@]/#/$patches/}" < /dev/null; then
			# the topic's patches before the one that failed are committed
			p=${mine[$(($(git_t rev-list --count pristine..HEAD) - n))]}
			git_t am --abort || true
			die "patch $p does not apply"
		fi
		n=$((n + ${#mine[@]}))
		topics_close "$t"
	done < <(topics_names)
	if [ "$n" -gt 0 ]; then
		git_t checkout -q "topic/$(topics_names | tail -n 1)"
	fi
	echo "$what-tree: $n patches applied in $(topics_names | wc -l) topics"
}

# topics_close TOPIC: its branch at HEAD, its cover letter as description
topics_close() {
	local cl=$patches/$1/cover-letter
	[ -s "$cl" ] || die "topic $1 has no cover letter ($cl)"
	git_t branch -q -f "topic/$1" HEAD
	git_t config "branch.topic/$1.description" "$(cat "$cl")"
}

# topics_branches: the tree's topic branches, in order; checks that they
# chain from pristine to HEAD, each adding at least one commit
topics_branches() {
	local b prev=pristine last=""
	while read -r b; do
		git_t merge-base --is-ancestor "$prev" "$b" ||
			die "$b does not follow $prev: the topic branches must chain in order"
		[ "$(git_t rev-parse "$prev")" != "$(git_t rev-parse "$b")" ] ||
			die "$b adds no commit to $prev"
		echo "$b"
		prev=$b last=$b
	done < <(git_t for-each-ref --format='%(refname:short)' --sort=refname refs/heads/topic/)
	[ -n "$last" ] || die "the tree has no topic branch (topic/NN-name)"
	[ "$(git_t rev-parse "$last")" = "$(git_t rev-parse HEAD)" ] ||
		die "HEAD is not at the last topic branch $last: put new commits in a topic (check out $last and commit there, or rebase them before a topic's branch)"
}

# topics_export OUT: the tree's topics written to OUT as the repository
# keeps them (series, TOPIC/cover-letter, TOPIC/NNNN-*.patch)
topics_export() {
	local out=$1 tmp b t prev=pristine desc f
	local -a branches
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	local list
	list=$(topics_branches) || exit 1
	mapfile -t branches <<< "$list"
	{
		echo "# The project's $what patch series in 'git am' order, as topics:"
		echo "# each folder is one, with its cover letter.  Written by scripts/$what-tree export."
		for b in "${branches[@]}"; do
			t=${b#topic/}
			desc=$(git_t config "branch.$b.description" || true)
			[ -n "$desc" ] || die "$b has no description: write its cover letter with 'git -C $tree branch --edit-description $b'"
			mkdir -p "$tmp/$t"
			printf '%s\n' "$desc" > "$tmp/$t/cover-letter"
			git_t format-patch -q -N --zero-commit --no-signature -o "$tmp/$t" "$prev..$b"
			for f in "$tmp/$t"/*.patch; do
				echo "$t/$(basename "$f")"
			done
			prev=$b
		done
	} > "$tmp/series"
	mkdir -p "$out"
	find "$out" -mindepth 1 -maxdepth 1 \( -name '*.patch' -o -type d \) -exec rm -rf {} +
	cp -r "$tmp"/. "$out"/
	echo "$what-tree: exported $(topics_series_list "$out" | wc -l) patches in ${#branches[@]} topics to $out"
}

# topics_mbox OUT: each topic as a mailbox OUT/TOPIC.mbox, 'git
# format-patch' with its cover letter (from the branch description), the
# maintainers get_maintainer.pl names as To and the lists as Cc
topics_mbox() {
	local out=$1 b t prev=pristine tmp n=0
	local -a to cc args branches
	local list
	list=$(topics_branches) || exit 1
	mapfile -t branches <<< "$list"
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	mkdir -p "$out"
	rm -f "$out"/*.mbox
	for b in "${branches[@]}"; do
		t=${b#topic/}
		rm -rf "$tmp/p"
		git_t format-patch -q -o "$tmp/p" "$prev..$b"
		mapfile -t to < <(cd "$tree" || exit 0; perl scripts/get_maintainer.pl --no-rolestats \
			--no-git-fallback --no-l "$tmp"/p/*.patch 2>/dev/null || true)
		mapfile -t cc < <(cd "$tree" || exit 0; perl scripts/get_maintainer.pl --no-rolestats \
			--no-git-fallback --no-m "$tmp"/p/*.patch 2>/dev/null || true)
		args=()
		for r in "${to[@]}"; do [ -z "$r" ] || args+=("--to=$r"); done
		# a list once, and no one in copy who is addressed already
		# (get_maintainer.pl can name one address twice, spelt apart)
		for r in "${cc[@]}"; do
			[ -n "$r" ] || continue
			case " ${to[*]} " in *"<${r##*<}"*|*" $r "*) continue ;; esac
			args+=("--cc=$r")
		done
		git_t format-patch -q --stdout --cover-letter --cover-from-description=subject \
			--thread=shallow --zero-commit --base=pristine "${args[@]}" \
			"$prev..$b" > "$out/$t.mbox"
		n=$((n + 1))
		prev=$b
	done
	echo "$what-tree: $n topics written as mailboxes to $out"
}

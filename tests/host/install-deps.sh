#!/usr/bin/env bash
# lab-test: parallel=yes
# scripts/install-deps when an index of the archive cannot be fetched (a
# mirror caught mid-sync, "File has unexpected size ... Mirror sync in
# progress?"; apt-get update exits 100 for any failed index): it warns,
# goes on and installs; and when a package really cannot be had, the
# install fails with apt's message and install-deps exits non-zero.
#
# The host's apt is never run: a test double stands in for apt-get (it
# fails 'update' as an unfetchable sources entry does and records what it
# was asked), for dpkg-query (one package, make, reads as not installed),
# dpkg, id (root) and sleep.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"

echo "KTAP version 1"
echo "1..3"

# install-deps adds a deb-src entry to the host's /etc/apt when there is
# none; the test must not make it do that.
if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
	for c in "a failed index: warned, then the missing package installed" \
		"a package that cannot be had: install-deps fails with apt's message" \
		"apt-get update is tried twice before going on"; do
		skip "$c" "no deb-src entry on this host: install-deps would add one"
	done
	exit 0
fi

stubs=$tmp/bin
mkdir -p "$stubs"
# apt-get: the test double of an archive with one unfetchable index
cat > "$stubs/apt-get" <<'STUB'
#!/usr/bin/env bash
echo "apt-get $*" >> "$STUB_LOG"
for a in "$@"; do
	case $a in
	update)
		echo "E: Failed to fetch http://deb.debian.org/debian-security/dists/bookworm-security/main/binary-armhf/Packages.xz  File has unexpected size (1024 != 2048). Mirror sync in progress? [IP: 127.0.0.1 80]" >&2
		exit 100 ;;
	install)
		if [ -n "${STUB_NO_PACKAGE:-}" ]; then
			echo "E: Unable to locate package ${*: -1}" >&2
			exit 100
		fi
		exit 0 ;;
	esac
done
exit 0
STUB
cat > "$stubs/dpkg-query" <<'STUB'
#!/usr/bin/env bash
[ "${*: -1}" = make ] && { echo -n "unknown ok not-installed"; exit 1; }
echo -n "install ok installed"
STUB
cat > "$stubs/dpkg" <<'STUB'
#!/usr/bin/env bash
[ "$1" = --print-foreign-architectures ] && echo armhf
exit 0
STUB
printf '#!/bin/sh\necho 0\n' > "$stubs/id"
printf '#!/bin/sh\nexit 0\n' > "$stubs/sleep"
chmod +x "$stubs"/*

run() {
	local rc=0
	STUB_LOG=$tmp/log PATH=$stubs:$PATH "$top/scripts/install-deps" > "$tmp/out" 2>&1 || rc=$?
	echo "$rc"
}

: > "$tmp/log"
rc=$(run)
out=$(cat "$tmp/out")
if [ "$rc" = 0 ] && [[ $out == *"apt-get update failed for some index; going on"* ]] &&
	grep -qx "apt-get install -y -qq --no-install-recommends make" "$tmp/log"; then
	pass "a failed index: warned, then the missing package installed" "$(tr '\n' ' ' < "$tmp/out")"
else
	fail "a failed index: warned, then the missing package installed" \
		"exit $rc: $(tr '\n' ' ' < "$tmp/out"); apt-get calls: $(tr '\n' ';' < "$tmp/log")"
fi
updates=$(grep -c "^apt-get update" "$tmp/log" || true)
if [ "$updates" = 2 ]; then
	pass "apt-get update is tried twice before going on"
else
	fail "apt-get update is tried twice before going on" "$updates tries"
fi

: > "$tmp/log"
rc=$(STUB_NO_PACKAGE=1 run)
if [ "$rc" = 1 ] && grep -q "Unable to locate package make" "$tmp/out" &&
	grep -q "install-deps: could not install make" "$tmp/out"; then
	pass "a package that cannot be had: install-deps fails with apt's message" "exit $rc"
else
	fail "a package that cannot be had: install-deps fails with apt's message" \
		"exit $rc: $(tr '\n' ' ' < "$tmp/out")"
fi
[ "$failed" -eq 0 ]

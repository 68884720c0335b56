# KTAP output for guest test scripts (Documentation/dev-tools/ktap.rst).
# Source it from a script run with scripts/guest-run:
#
#   . /usr/share/lab/ktap.sh
#   ktap_plan 2
#   ktap_check "eight CPUs online" test "$(cat /sys/devices/system/cpu/online)" = 0-7
#   if ...; then ktap_pass "name" "what was seen"; else ktap_fail "name" "why"; fi
#   ktap_done
#
# A diagnostic ("# ...") printed just before a result is the runner's reason.

ktap_n=0
ktap_failed=0

ktap_plan() {
	echo "KTAP version 1"
	echo "1..$1"
}

ktap_diag() {
	echo "# $*"
}

# ktap_pass NAME [DETAIL]
ktap_pass() {
	ktap_n=$((ktap_n + 1))
	[ -n "${2:-}" ] && ktap_diag "$2"
	echo "ok $ktap_n $1"
}

# ktap_fail NAME REASON
ktap_fail() {
	ktap_n=$((ktap_n + 1))
	ktap_failed=$((ktap_failed + 1))
	ktap_diag "${2:-failed}"
	echo "not ok $ktap_n $1"
}

# ktap_skip NAME REASON
ktap_skip() {
	ktap_n=$((ktap_n + 1))
	echo "ok $ktap_n $1 # SKIP ${2:-}"
}

# ktap_check NAME COMMAND...: passes when COMMAND succeeds; its output is
# kept as diagnostics.
ktap_check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		ktap_pass "$_name"
	else
		ktap_fail "$_name" "'$*' failed: $(echo "$_out" | tail -n 3 | tr '\n' ' ')"
	fi
}

# ktap_expect NAME EXPECTED ACTUAL
ktap_expect() {
	if [ "$2" = "$3" ]; then
		ktap_pass "$1" "$3"
	else
		ktap_fail "$1" "expected '$2', got '$3'"
	fi
}

ktap_done() {
	[ "$ktap_failed" -eq 0 ]
	exit $?
}

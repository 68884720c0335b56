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

# ktap_refused STATE TOOL ARGS...: TOOL refuses ARGS the way the lab's
# tools refuse bad input: exit status 2, a message on stderr that starts
# with "TOOL: " or "usage: ", nothing on stdout, and the output of the
# command STATE the same before and after.  STATE is read again
# KTAP_REFUSED_SETTLE seconds after TOOL returns (default 0), for a tool
# whose effects, had it started anything, would take a moment to show.
ktap_refused() {
	_state=$1
	_tool=$2
	shift 2
	_before=$($_state)
	_rc=0
	"$_tool" "$@" > /tmp/ktap-refused.out 2> /tmp/ktap-refused.err || _rc=$?
	sleep "${KTAP_REFUSED_SETTLE:-0}"
	_after=$($_state)
	_name="$_tool $*: refused, exit 2, nothing changed"
	if [ "$_rc" = 2 ] && grep -q "^$_tool: \\|^usage: " /tmp/ktap-refused.err &&
		[ ! -s /tmp/ktap-refused.out ] && [ "$_before" = "$_after" ]; then
		ktap_pass "$_name" "$(head -n 1 /tmp/ktap-refused.err)"
	else
		ktap_fail "$_name" "exit $_rc; stderr: $(head -c 200 /tmp/ktap-refused.err | tr '\n' ' '); before: $_before; after: $_after"
	fi
}

# ktap_within1 NAME MEASURED EXPECTED: passes when MEASURED is within 1%
# of EXPECTED (both integers, ratios x1000 say)
ktap_within1() {
	if [ $(($2 * 100)) -ge $(($3 * 99)) ] && [ $(($2 * 100)) -le $(($3 * 101)) ]; then
		ktap_pass "$1" "ratio $2/1000, modelled $3/1000"
	else
		ktap_fail "$1" "ratio $2/1000, modelled $3/1000"
	fi
}

ktap_done() {
	[ "$ktap_failed" -eq 0 ]
	exit $?
}

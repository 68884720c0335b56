#!/usr/bin/env bash
# scripts/guest-run itself: the job's exit status comes back, a time limit
# kills QEMU and leaves no process behind, a guest 'sleep 2' takes two
# seconds of host time, a malformed --qemu-global is refused before
# anything starts, QEMU dies with a guest-run that is killed outright, and
# strict mode fails a job on its kernel log or a model's guest error.
# Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"
gr() { "$top/scripts/guest-run" --no-build --quiet "$@"; }
# The harness's own behaviour does not depend on the machine: the cases
# that only need a job to run boot the quicker machine (virt; with fewer
# CPUs than its DT names, its boot logs errors that strict mode fails on).
gr_small() { gr --platform virt "$@"; }

echo "KTAP version 1"
echo "1..8"

# 1. exit status
printf 'echo job-ran\nexit 3\n' > "$tmp/exit3.sh"
rc=0
gr_small --log-dir "$logs/exit3" "$tmp/exit3.sh" 2>/dev/null || rc=$?
if [ "$rc" -eq 3 ] && grep -q job-ran "$logs/exit3/output.log"; then
	pass "a job exiting 3 makes guest-run exit 3"
else
	fail "a job exiting 3 makes guest-run exit 3" "exit status $rc"
fi

# 2. arguments reach the job intact
cat > "$tmp/args.sh" <<'GUEST'
[ "$#" = 2 ] && [ "$1" = "a b" ] && [ "$2" = "c'd" ]
GUEST
rc=0
gr_small --log-dir "$logs/args" "$tmp/args.sh" "a b" "c'd" 2>/dev/null || rc=$?
if [ "$rc" -eq 0 ]; then
	pass "arguments with spaces and quotes reach the job"
else
	fail "arguments with spaces and quotes reach the job" "exit status $rc"
fi

# 3. time limit: QEMU is killed, status 124, nothing left running
printf 'echo waiting-forever\nwhile :; do sleep 1; done\n' > "$tmp/hang.sh"
rc=0
start=$(date +%s)
gr_small --timeout 10 --log-dir "$logs/hang" "$tmp/hang.sh" 2>/dev/null || rc=$?
secs=$(($(date +%s) - start))
left=$(pgrep -f -- "$logs/hang/initramfs" || true)
if [ "$rc" -eq 124 ] && [ -z "$left" ] && grep -q waiting-forever "$logs/hang/output.log"; then
	pass "time limit kills QEMU (status 124, none left)" "killed after ${secs} s"
else
	fail "time limit kills QEMU (status 124, none left)" "status $rc after ${secs} s; left: ${left:-none}"
fi

# 4. guest time against host time: the host stamps each line as it arrives.
cat > "$tmp/sleep.sh" <<'GUEST'
echo "@@T0@@"
sleep 2
echo "@@T1@@"
GUEST
"$top/scripts/guest-run" --no-build --log-dir "$logs/sleep" "$tmp/sleep.sh" 2>/dev/null |
	while IFS= read -r line; do
		printf '%s %s\n' "$(date +%s%N)" "$line"
	done > "$tmp/stamped"
t0=$(awk '/@@T0@@/ { print $1; exit }' "$tmp/stamped")
t1=$(awk '/@@T1@@/ { print $1; exit }' "$tmp/stamped")
if [ -n "$t0" ] && [ -n "$t1" ]; then
	ms=$(((t1 - t0) / 1000000))
	if [ "$ms" -ge 1600 ] && [ "$ms" -le 2400 ]; then
		pass "guest 'sleep 2' takes 2 s of host time (+-20%)" "${ms} ms"
	else
		fail "guest 'sleep 2' takes 2 s of host time (+-20%)" "${ms} ms"
	fi
else
	fail "guest 'sleep 2' takes 2 s of host time (+-20%)" "markers not seen"
fi

# 5. the kernel log is captured and scanned: a report written to /dev/kmsg
# by the job must be found by the scanner the suite uses, and strict mode
# (every boot of the suite: tests/run sets LAB_GUEST_STRICT=1) fails the
# job that succeeded (status 98) unless the job declared it.
printf 'echo "<4>WARNING: CPU: 0 PID: 1 injected by the lab self-test" > /dev/kmsg\n' > "$tmp/kmsg.sh"
rc=0
err=$(gr_small --strict --log-dir "$logs/kmsg" "$tmp/kmsg.sh" 2>&1) || rc=$?
found=$(cd "$top/scripts" && python3 -c 'import sys
from lab.klog import problems
print(len(problems(open(sys.argv[1]).read())))' "$logs/kmsg/kernel.log")
rc2=0
gr_small --strict --klog-expect 'injected by the lab self-test' --log-dir "$logs/kmsg2" \
	"$tmp/kmsg.sh" 2>/dev/null || rc2=$?
if [ "$found" = 1 ] && [ "$rc" = 98 ] && [[ "$err" == *"strict: kernel log:"*"injected by the lab self-test"* ]] &&
	[ "$rc2" = 0 ]; then
	pass "an injected WARNING is found in the kernel log and fails a strict run (98), unless declared" \
		"$(echo "$err" | grep -m1 'strict: kernel log')"
else
	fail "an injected WARNING is found in the kernel log and fails a strict run (98), unless declared" \
		"scanner found $found reports; strict exit $rc, declared exit $rc2: $(echo "$err" | tail -n 3 | tr '\n' ' ')"
fi

# 6. a malformed device property: exit 2 with a message, no guest started
rc=0
err=$(gr --log-dir "$logs/badglobal" --qemu-global vexpress-dcscb=1 "$tmp/exit3.sh" 2>&1) || rc=$?
if [ "$rc" -eq 2 ] && [[ "$err" == *"not DEVICE.PROPERTY=VALUE"* ]] && [ ! -e "$logs/badglobal" ]; then
	pass "a --qemu-global of vexpress-dcscb=1 is refused (exit 2), no guest started"
else
	fail "a --qemu-global of vexpress-dcscb=1 is refused (exit 2), no guest started" \
		"exit $rc: $err"
fi

# 7. guest-run killed outright (SIGKILL: no clean-up of its own): QEMU,
# in a session of its own, must still die with it (PR_SET_PDEATHSIG).
# (A qemu-pid file left by an earlier run would name a long-gone QEMU.)
rm -rf "$logs/orphan"
"$top/scripts/guest-run" --no-build --quiet --platform virt --smp 1 --timeout 600 \
	--log-dir "$logs/orphan" "$tmp/hang.sh" > /dev/null 2>&1 &
gr_pid=$!
qemu=""
for _ in $(seq 100); do
	qemu=$(cat "$logs/orphan/qemu-pid" 2>/dev/null || true)
	[ -n "$qemu" ] && break
	sleep 0.2
done
kill -KILL "$gr_pid" 2>/dev/null || true
wait "$gr_pid" 2>/dev/null || true
gone=no
for _ in $(seq 50); do
	if [ -z "$qemu" ] || ! kill -0 "$qemu" 2>/dev/null ||
	   [ "$(awk '{ print $3 }' "/proc/$qemu/stat" 2>/dev/null)" = Z ]; then
		gone=yes
		break
	fi
	sleep 0.2
done
if [ -n "$qemu" ] && [ "$gone" = yes ]; then
	pass "QEMU dies with a guest-run killed by SIGKILL" "QEMU pid $qemu gone"
else
	[ -n "$qemu" ] && kill -KILL "$qemu" 2>/dev/null
	fail "QEMU dies with a guest-run killed by SIGKILL" "QEMU pid '${qemu:-none started}' still running"
fi

# 8. a guest error of a model (rtsm: a SYS_CFG value out of the
# oscillator's range, refused by vexpress-bl-dcc) fails a strict run
cat > "$tmp/syscfg.sh" <<'GUEST'
. /usr/share/lab/syscfg.sh
syscfg_exec $CFG_OSC 0 100 || echo "refused as it should be"
GUEST
rc=0
err=$(gr --strict --platform rtsm --log-dir "$logs/guest-error" "$tmp/syscfg.sh" 2>&1) || rc=$?
if [ "$rc" = 98 ] && [[ "$err" == *"strict: QEMU guest error: vexpress-bl-dcc: A15 cluster clock 100 Hz refused"* ]]; then
	pass "a model's guest error (a refused SYS_CFG clock) fails a strict run on rtsm (98)" \
		"$(echo "$err" | grep -m1 'QEMU guest error')"
else
	fail "a model's guest error (a refused SYS_CFG clock) fails a strict run on rtsm (98)" \
		"exit $rc: $(echo "$err" | tail -n 3 | tr '\n' ' ')"
fi

[ "$failed" -eq 0 ]

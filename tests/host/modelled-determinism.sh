#!/usr/bin/env bash
# lab-test: timeout=900
# Modelled time repeats exactly (docs/timing.md): one job booted twice in
# modelled time on the lab's platform, the second time beside a host
# process that keeps a host core busy, prints byte-identical output and an
# identical kernel log, every time and energy figure included.  The job
# puts all eight CPUs to a loop at once (the switcher off), idles for 10 s
# of modelled time, switches every logical CPU to its A7 and back (the
# switcher's latency statistics), steps a logical CPU through its cpufreq
# table (cluster clocks and switches), takes a contended WFE/SEV ticket
# lock on four CPUs (spin-bench) and reads both clusters' energy meters
# after each part.  Also from the first boot: the 10 s of idle cost under
# 1 s of host time.  The check of the check: the same job booted twice in
# host time (1 s of idle) prints different figures, so the comparison is
# one that can fail.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
logs=${LAB_LOGS:-$(mktemp -d)}
variant=${LAB_VARIANT:-debug}
tmp=$(mktemp -d)
busy_pid=""
cleanup() {
	if [ -n "$busy_pid" ]; then
		kill "$busy_pid" 2> /dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$logs"
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"
idle_host_limit=1.0

echo "KTAP version 1"
echo "1..6"

cat > "$tmp/job.sh" <<'GUEST'
set -e
idle=$1
SW=/sys/kernel/bL_switcher
SWD=/sys/kernel/debug/bL_switcher
CF=/sys/devices/system/cpu/cpufreq
for l in /sys/class/hwmon/hwmon*/energy1_label; do
	case "$(cat "$l")" in
	"A15 Jcore") E0=${l%_label}_input ;;
	"A7 Jcore") E1=${l%_label}_input ;;
	esac
done
energy() { read -r a < "$E0"; read -r b < "$E1"; echo "energy A15 $a uJ A7 $b uJ"; }

echo "== eight CPUs at once"
echo 0 > $SW/active
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ "$(cat "$c")" = 1 ] || echo 1 > "$c"
done
for c in 0 1 2 3 4 5 6 7; do cpu-loop -c $c 10 > /tmp/loop.$c & done
wait
cat /tmp/loop.[0-7]
energy

echo "== idle"
echo "idle-begin"
sleep "$idle"
echo "idle-end"
energy

echo "== switches"
echo 1 > $SW/active
for c in 0 1 2 3; do
	echo 1 > $SW/cpu$c/cluster
	cpu-loop -c $c 2
	echo 0 > $SW/cpu$c/cluster
done
grep -E '^(switches|failures|latency_ns_(min|mean|max|p50|p90|p99))' $SWD/stats
energy

echo "== cpufreq"
echo userspace > $CF/policy1/scaling_governor
for f in $(cat $CF/policy1/scaling_available_frequencies); do
	echo "$f" > $CF/policy1/scaling_setspeed
	echo "$f $(cat $SW/cpu1/cluster) $(cpu-loop -c 1 2)"
done
echo performance > $CF/policy1/scaling_governor
energy

echo "== lock"
spin-bench 0.2 0 1 2 3
energy
echo "uptime $(cat /proc/uptime)"
GUEST

# boot NAME TIMING IDLE: the job in a fresh guest; each output line
# stamped with the host's time on arrival in $logs/NAME/stamped
boot() {
	local dir=$logs/$1 rc
	rm -rf "$dir"
	mkdir -p "$dir"
	set +e
	"$top/scripts/guest-run" --no-build --variant "$variant" --timing "$2" --timeout 600 \
		--log-dir "$dir" "$tmp/job.sh" "$3" 2> "$dir/guest-run.err" |
		while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done \
		> "$dir/stamped"
	rc=${PIPESTATUS[0]}
	set -e
	return "$rc"
}
# figures NAME: the lines of the job's output that carry figures
figures() { grep -cE '^loop |^energy |^latency_ns_|^spin |^uptime ' "$logs/$1/output.log" || true; }

if boot quiet modelled 10; then
	pass "modelled, quiet host: the job ran" "$(figures quiet) lines of figures"
else
	fail "modelled, quiet host: the job ran" "guest-run exit $?: $(tail -n 2 "$logs/quiet/guest-run.err" | tr '\n' ' ')"
fi

# A host process keeping a core busy for the second boot
(while :; do :; done) &
busy_pid=$!
if boot busy modelled 10; then
	pass "modelled, a host core kept busy: the job ran"
else
	fail "modelled, a host core kept busy: the job ran" "guest-run exit $?: $(tail -n 2 "$logs/busy/guest-run.err" | tr '\n' ' ')"
fi
kill "$busy_pid"
wait "$busy_pid" 2> /dev/null || true
busy_pid=""

if [ "$(figures quiet)" -ge 20 ] && cmp -s "$logs/quiet/output.log" "$logs/busy/output.log"; then
	pass "the two boots print byte-identical output" \
		"$(grep -E '^latency_ns_mean|^spin ' "$logs/quiet/output.log" | tr '\n' ' ')"
else
	fail "the two boots print byte-identical output" \
		"$(figures quiet) lines of figures; $(diff "$logs/quiet/output.log" "$logs/busy/output.log" | head -n 4 | tr '\n' ' ')"
fi
if cmp -s "$logs/quiet/kernel.log" "$logs/busy/kernel.log" &&
	cmp -s "$logs/quiet/dmesg.log" "$logs/busy/dmesg.log"; then
	pass "the two boots log the same kernel messages at the same times" \
		"$(wc -l < "$logs/quiet/dmesg.log") lines of dmesg"
else
	fail "the two boots log the same kernel messages at the same times" \
		"$(diff "$logs/quiet/dmesg.log" "$logs/busy/dmesg.log" | head -n 4 | tr '\n' ' ')"
fi

# Host time of the 10 s of modelled idle, quiet boot
cost=$(awk '$2 == "idle-begin" { b = $1 } $2 == "idle-end" { e = $1 }
	END { if (b && e) printf "%.2f", e - b; else print "none" }' "$logs/quiet/stamped")
if [ "$cost" != none ] && awk -v c="$cost" -v l="$idle_host_limit" 'BEGIN { exit !(c < l) }'; then
	pass "10 s of modelled idle cost under $idle_host_limit s of host time" "$cost s"
else
	fail "10 s of modelled idle cost under $idle_host_limit s of host time" "$cost s"
fi

# The check of the check: host time does not repeat
ok=1
boot host1 host 1 || ok=0
boot host2 host 1 || ok=0
if [ "$ok" = 1 ] && [ "$(figures host1)" -ge 20 ] &&
	! cmp -s "$logs/host1/output.log" "$logs/host2/output.log"; then
	pass "check of the check: two boots in host time print different figures" \
		"$(diff "$logs/host1/output.log" "$logs/host2/output.log" | grep -c '^<') lines differ"
else
	fail "check of the check: two boots in host time print different figures" \
		"booted: $ok; $(figures host1) lines of figures; identical: $(cmp -s "$logs/host1/output.log" "$logs/host2/output.log" && echo yes || echo no)"
fi
[ "$failed" -eq 0 ]

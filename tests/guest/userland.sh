#!/bin/sh
# lab-test: timing=modelled timeout=300
# The guest's Debian armhf userland works: busybox, cpufrequtils (which may
# report that no cpufreq driver is active), the 32-bit time_t syscalls
# (a guest sleep must last as long as the guest clock says), and the
# pseudo file systems init mounts.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
ktap_plan 6

if out=$(cpufreq-info 2>&1) && echo "$out" | grep -q "cpufrequtils 008"; then
	ktap_pass "cpufreq-info runs" "$(echo "$out" | grep -m1 -e 'driver' -e 'analyzing')"
else
	ktap_fail "cpufreq-info runs" "$(echo "$out" | head -n 2 | tr '\n' ' ')"
fi
ktap_check "cpufreq-set runs (--help)" sh -c 'cpufreq-set --help 2>&1 | grep -q "cpufreq-set"'

# Guest-side clock: 'sleep 2' between two readings of /proc/uptime.
read -r t0 _ < /proc/uptime
sleep 2
read -r t1 _ < /proc/uptime
ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
if [ "$ms" -ge 1600 ] && [ "$ms" -le 2400 ]; then
	ktap_pass "sleep 2 lasts 2 s of guest time" "${ms} ms"
else
	ktap_fail "sleep 2 lasts 2 s of guest time" "${ms} ms"
fi
# The host-side check of the same thing is tests/host/guest-run.sh.

for fs in debugfs:/sys/kernel/debug tracefs:/sys/kernel/tracing; do
	if grep -q " ${fs#*:} ${fs%%:*} " /proc/mounts; then
		ktap_pass "${fs%%:*} mounted at ${fs#*:}"
	else
		ktap_fail "${fs%%:*} mounted at ${fs#*:}" "$(tr '\n' ';' < /proc/mounts)"
	fi
done
ktap_check "power:cpu_migrate_* tracepoints exist" \
	test -d /sys/kernel/tracing/events/power/cpu_migrate_begin
ktap_done

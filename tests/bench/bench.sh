#!/bin/sh
# The guest side of make bench (scripts/bench): IKS switches, isolated and
# concurrent, a contended spinlock, then migration by CPU hotplug, in one
# boot (with HOTPLUGS 0, broadcast TLB maintenance beside WFE waiters
# instead).
# usage: bench.sh [SWITCHES [HOTPLUGS]]; HOTPLUGS 0 skips cpufreq and hotplug.
SW=/sys/kernel/bL_switcher
SWD=/sys/kernel/debug/bL_switcher
N=${1:-1000}
HP=${2:-100}
echo "@@BENCH-START@@"
snap() { grep -E '^(switches|phase_[a-z_]+_ns_mean) ' $SWD/stats | sed "s/^/$1 /"; }
snap stats_before
bl-bench switch "$N" 1 || exit 1
snap stats_isolated
bl-bench switch "$((N / 4))" 0 1 2 3 || exit 1
snap stats_concurrent
# a contended spinlock (WFE waits, SEV releases): one thread, then four
spin-bench 2 1 || exit 1
spin-bench 2 0 1 2 3 || exit 1
# HP=0: the switches and the lock (scripts/bench --compare, on each
# machine), then broadcast TLB maintenance on CPU 0 with the seven other
# CPUs idle and with them waiting in WFE, all eight online
if [ "$HP" -eq 0 ]; then
	echo 0 > $SW/active
	for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$c")" = 1 ] || echo 1 > "$c"
	done
	wfe-wait nosev 2 1 flush > /tmp/flush || exit 1
	grep '^flush_' /tmp/flush
	echo "@@BENCH-END@@"
	exit 0
fi
# cpufreq: policy1 (logical CPU 1) between the A15's top and the A7's bottom
CF=/sys/devices/system/cpu/cpufreq/policy1
if [ -d $CF ]; then
	echo userspace > $CF/scaling_governor
	bl-bench cpufreq "$((N / 4))" 1 1200000 175000 || exit 1
	echo performance > $CF/scaling_governor
fi
echo 0 > $SW/active
# cpu1 is an A15; its A7 counterpart is the CPU whose DT reg is 6
bl-bench hotplug "$HP" 1 6 || exit 1
echo 1 > $SW/active
echo "@@BENCH-END@@"

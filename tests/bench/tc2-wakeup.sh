#!/bin/sh
# make bench, on tc2: how late a timer wakes a CPU out of TC2's cluster
# sleep, against the same timers with cluster sleep disabled (WFI only).
# timer-lat pinned to CPU 1 (an A15) and CPU 4 (an A7), N deadlines (first
# argument, default 100) 20 ms apart: long enough for the menu governor to
# pick cluster sleep.  Prints, per CPU and idle mode,
#   wake CPU MODE wakeups N mean_ns M p50_ns A p99_ns B max_ns X entries E
# (E: the CPU's cluster-sleep entries meanwhile).
# shellcheck disable=SC2086 # CPU numbers are single words
n=${1:-100}
state1() { echo /sys/devices/system/cpu/cpu$1/cpuidle/state1/$2; }
taskset -p -c 2 $$ >/dev/null
for mode in cluster-sleep wfi; do
	for c in 0 1 2 3 4; do
		[ $mode = wfi ] && echo 1 > "$(state1 $c disable)"
		taskset -c $c true
	done
	for c in 1 4; do
		u=$(cat "$(state1 $c usage)")
		out=$(timer-lat -c $c 20000 "$n") || exit 1
		echo "wake $c $mode $out entries $(($(cat "$(state1 $c usage)") - u))"
	done
done

#!/bin/sh
# make bench, on tc2: what TC2's cluster sleep costs and saves, against
# the same system with cluster sleep disabled (WFI only), in one boot:
#  - idle power: each cluster's energy meter (vexpress-hwmon) over S
#    seconds (second argument, default 5) of a system with nothing to do
#    but the test's sleeping shell;
#  - wake-up lateness: timer-lat pinned to CPU 1 (an A15) and CPU 4 (an
#    A7), N deadlines (first argument, default 100) 20 ms apart, long
#    enough for the menu governor to pick cluster sleep.
# Prints, per idle mode,
#   idle MODE seconds S a15_uj A a7_uj B
#   wake CPU MODE wakeups N mean_ns M p50_ns A p99_ns B max_ns X entries E
# (E: the CPU's cluster-sleep entries meanwhile).
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/platform.sh
. /usr/share/lab/syscfg.sh
n=${1:-100}
secs=${2:-5}
if ! e0=$(hwmon_file "A15 Jcore" energy) || ! e1=$(hwmon_file "A7 Jcore" energy); then
	echo "tc2-idle: no energy meters" >&2
	exit 1
fi
usage() { cat /sys/devices/system/cpu/cpu$1/cpuidle/state1/usage; }
taskset -p -c 2 $$ >/dev/null
for mode in cluster-sleep wfi; do
	if [ $mode = wfi ]; then lab_cluster_sleep off; else lab_cluster_sleep on; fi
	sleep 1
	a=$(cat "$e0") b=$(cat "$e1")
	sleep "$secs"
	echo "idle $mode seconds $secs a15_uj $(($(cat "$e0") - a)) a7_uj $(($(cat "$e1") - b))"
	for c in 1 4; do
		u=$(usage $c)
		out=$(timer-lat -c $c 20000 "$n") || exit 1
		echo "wake $c $mode $out entries $(($(usage $c) - u))"
	done
done

#!/bin/sh
# lab-test: timing=modelled platform=tc2 append=no_bL_switcher timeout=300
# Cluster idle on TC2 modelled (issue 31): mainline's cpuidle-big_little
# over MCPM and tc2_pm.c, with the cluster-sleep states of the tree's own
# device tree; the SPC powers an idle CPU down (WFI with its wake-up
# unmasked), its cluster with the last one, and brings a CPU back on the
# GIC's wake-up request for an interrupt to it.
#  - each CPU has its cluster's driver and state (big_idle/little_idle,
#    cluster-sleep-b/-l);
#  - in a second of an idle system every CPU spends more than half of it
#    in the cluster-sleep state (its time, counted when each CPU is woken
#    after it: a cluster may sleep through the whole second), and MCPM
#    counts both clusters' teardowns and setups;
#  - each cluster is seen powered down in the SCC/SPC registers, read
#    from a CPU of the other cluster: every CPU of it in reset
#    (RESET_CTRL), its power-down enabled (A15_PWRDN_EN/A7_PWRDN_EN) and
#    its CCI-400 slave interface not snooping (3 or 4);
#  - a timer wakes the CPU it was set on out of cluster sleep (timer-lat
#    pinned to an A15 and to an A7: that CPU's cluster-sleep usage grows
#    by at least one per wake-up), lateness printed;
#  - an IPI wakes the CPU it is sent to (a task started on an idle A7
#    from CPU 0: that CPU's IPI count and cluster-sleep usage grow),
#    round trip printed.
# Modelled time: every figure repeats exactly.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
ktap_plan 9

cpuidle=/sys/devices/system/cpu
usage() { cat $cpuidle/cpu$1/cpuidle/state1/usage; }
usages() { for c in 0 1 2 3 4; do printf '%s ' "$(usage $c)"; done; }
residencies() { for c in 0 1 2 3 4; do printf '%s ' "$(cat $cpuidle/cpu$c/cpuidle/state1/time)"; done; }
stat() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/mcpm/stats; }

drv=""
for c in 0 1 2 3 4; do
	drv="$drv $(cat $cpuidle/cpu$c/cpuidle/driver/name):$(cat $cpuidle/cpu$c/cpuidle/state1/name)"
done
ktap_expect "each CPU's idle driver and cluster-sleep state" \
	" big_idle:cluster-sleep-b big_idle:cluster-sleep-b little_idle:cluster-sleep-l little_idle:cluster-sleep-l little_idle:cluster-sleep-l" \
	"$drv"

# Each CPU woken once (its time in the state is counted as it leaves it)
wake_all() { for c in 0 1 2 3 4; do taskset -c $c true; done; }
wake_all
before=$(usages) tb=$(residencies)
t0=$(stat cluster0_teardown) t1=$(stat cluster1_teardown)
s0=$(stat cluster0_setup) s1=$(stat cluster1_setup)
sleep 1
wake_all
after=$(usages) ta=$(residencies)
most=yes
set -- $ta
for b in $tb; do
	[ $(($1 - b)) -ge 500000 ] || most=no
	shift
done
if [ $most = yes ]; then
	ktap_pass "every CPU spends more than half of a 1 s idle in cluster sleep" \
		"time in it (us) before $tb after $ta; entries before $before after $after"
else
	ktap_fail "every CPU spends more than half of a 1 s idle in cluster sleep" \
		"time in it (us) before $tb after $ta; entries before $before after $after"
fi
d0=$(($(stat cluster0_teardown) - t0)) d1=$(($(stat cluster1_teardown) - t1))
e0=$(($(stat cluster0_setup) - s0)) e1=$(($(stat cluster1_setup) - s1))
if [ $d0 -gt 0 ] && [ $d1 -gt 0 ] && [ $e0 -gt 0 ] && [ $e1 -gt 0 ]; then
	ktap_pass "MCPM: both clusters torn down and set up again from idle" \
		"teardowns $d0 $d1 setups $e0 $e1"
else
	ktap_fail "MCPM: both clusters torn down and set up again from idle" \
		"teardowns $d0 $d1 setups $e0 $e1"
fi

# seen_down CPU MASK PWRDN CCI: on CPU, poll (100 reads, 10 ms apart)
# for RESET_CTRL & MASK == 0 with PWRDN (the cluster's power-down enable)
# set and the cluster's CCI slave interface (snoop control at CCI) not
# snooping
seen_down() {
	taskset -p -c "$1" $$ >/dev/null
	i=0
	while [ $i -lt 100 ]; do
		r=$(devmem 0x7fff0018 32) p=$(devmem "$3" 32) k=$(devmem "$4" 32)
		if [ $((r & $2)) -eq 0 ] && [ $((p & 1)) -eq 1 ] && [ $((k & 3)) -eq 0 ]; then
			echo "read $i: RESET_CTRL $(printf 0x%x "$r"), power-down enabled, CCI snoops off"
			taskset -p -c 0-4 $$ >/dev/null
			return 0
		fi
		usleep 10000
		i=$((i + 1))
	done
	echo "RESET_CTRL $(printf 0x%x "$r") power-down enable $p CCI snoop control $k"
	taskset -p -c 0-4 $$ >/dev/null
	return 1
}
if seen_down 2 0xc 0x7fff0b30 0x2c094000 > /tmp/seen; then
	out=$(cat /tmp/seen)
	ktap_pass "A15 cluster seen powered down (read on an A7)" "$out"
else
	ktap_fail "A15 cluster seen powered down (read on an A7)" "$(cat /tmp/seen)"
fi
if seen_down 0 0x70000 0x7fff0b34 0x2c095000 > /tmp/seen; then
	out=$(cat /tmp/seen)
	ktap_pass "A7 cluster seen powered down (read on an A15)" "$out"
else
	ktap_fail "A7 cluster seen powered down (read on an A15)" "$(cat /tmp/seen)"
fi

# timer CPU: 50 deadlines 20 ms apart on CPU (cluster sleep's target
# residency is 2-2.5 ms): its cluster-sleep usage grows by 50 or more
timer() {
	u=$(usage $1)
	out=$(timer-lat -c $1 20000 50)
	n=$(($(usage $1) - u))
	if [ $n -ge 50 ]; then
		ktap_pass "a timer wakes CPU $1 out of cluster sleep" "$out; cluster-sleep entries $n"
	else
		ktap_fail "a timer wakes CPU $1 out of cluster sleep" "$out; cluster-sleep entries $n"
	fi
}
timer 1
timer 4

# ipis CPU: IPIs received by CPU (every IPI row of /proc/interrupts)
ipis() { awk -v col=$(($1 + 2)) '$1 ~ /^IPI/ { n += $col } END { print n }' /proc/interrupts; }
taskset -p -c 0 $$ >/dev/null
i0=$(ipis 3) u=$(usage 3)
start=$(cut -d' ' -f1 /proc/uptime)
n=0
while [ $n -lt 20 ]; do
	taskset -c 3 true
	usleep 20000
	n=$((n + 1))
done
end=$(cut -d' ' -f1 /proc/uptime)
di=$(($(ipis 3) - i0)) du=$(($(usage 3) - u))
if [ $di -ge 20 ] && [ $du -ge 20 ]; then
	ktap_pass "IPIs wake CPU 3 out of cluster sleep for the tasks started on it" \
		"20 tasks: $di IPIs, $du cluster-sleep entries, ${start}s to ${end}s"
else
	ktap_fail "IPIs wake CPU 3 out of cluster sleep for the tasks started on it" \
		"20 tasks: $di IPIs, $du cluster-sleep entries"
fi

ktap_expect "online CPUs" "0-4" "$(cat /sys/devices/system/cpu/online)"
ktap_done

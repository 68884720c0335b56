#!/bin/sh
# lab-test: timing=modelled timeout=600
# Every built-in governor on the big.LITTLE cpufreq driver with the
# switcher active: performance puts each logical CPU on its A15 at the top,
# powersave on its A7 at the bottom; userspace walking every entry up and
# down lands on the entry's cluster (switcher cluster and MPIDR) with the
# cluster clock at least the entry's real frequency; ondemand, conservative
# and schedutil take a loaded logical CPU to its A15 and an idle one back
# to its A7; the transition statistics count what happened.  In modelled
# time (docs/timing.md): a governor's load and idle are the guest's, not
# the host's, and the result repeats.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/cpufreq.sh
ktap_plan 9

gov_all() { for _n in 0 1 2 3; do echo "$1" > $CF/policy$_n/scaling_governor; done; }
on_a15_top() { [ "$(cat $CF/policy$1/scaling_cur_freq)" = 1200000 ] && [ "$(sw_cluster $1)" = 0 ]; }
on_a7() { [ "$(sw_cluster $1)" = 1 ] && [ -z "$(cf_state $1)" ]; }
on_a15() { [ "$(sw_cluster $1)" = 0 ] && [ -z "$(cf_state $1)" ]; }

# 1. performance
gov_all performance
bad=""
for n in 0 1 2 3; do
	on_a15_top $n || bad="$bad cpu$n:$(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n)"
	bad="$bad$(cf_state $n)"
	[ "$(cat $CF/policy$n/bL_cur_cluster_freq)" = 1200000 ] || bad="$bad cpu$n:clock"
done
ktap_expect "performance: every logical CPU on its A15 at 1200000" "" "$bad"

# 2. powersave
gov_all powersave
bad=""
for n in 0 1 2 3; do
	[ "$(cat $CF/policy$n/scaling_cur_freq) $(sw_cluster $n)" = "175000 1" ] ||
		bad="$bad cpu$n:$(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n)"
	bad="$bad$(cf_state $n)"
	[ "$(cat $CF/policy$n/bL_cur_cluster_freq)" = 350000 ] || bad="$bad cpu$n:clock"
done
ktap_expect "powersave: every logical CPU on its A7 at 175000 (A7 clock 350000)" "" "$bad"
if why=$(sw_consistent); then
	ktap_pass "MCPM and the power controller agree after powersave"
else
	ktap_fail "MCPM and the power controller agree after powersave" "$why"
fi

# 3. userspace: every entry up and down on each logical CPU, others at the
# bottom except the one this shell runs its checks on, held at the top: a
# process start on an A7 at 350 MHz costs about 100 ms of guest time
# (docs/cpufreq.md), and each step starts several.  policy0 is never that
# one, so that its transitions are its own walk's.
gov_all userspace
for n in 0 1 2 3; do echo 175000 > $CF/policy$n/scaling_setspeed; done
bad=""
steps=0
t0=$(awk '{ print $1 }' $CF/policy0/stats/total_trans)
for n in 0 1 2 3; do
	home=$((n == 3 ? 1 : n + 1))
	echo 1200000 > $CF/policy$home/scaling_setspeed
	taskset -p -c $home $$ >/dev/null || bad="$bad taskset:$home"
	freqs=$(cat $CF/policy$n/scaling_available_frequencies)
	down=$(echo $freqs | tr ' ' '\n' | sort -rn | tr '\n' ' ')
	for f in $freqs $down; do
		echo $f > $CF/policy$n/scaling_setspeed || bad="$bad cpu$n:$f:write"
		[ "$(cat $CF/policy$n/scaling_cur_freq)" = "$f" ] || bad="$bad cpu$n:$f:cur=$(cat $CF/policy$n/scaling_cur_freq)"
		s=$(cf_state_once $n)
		[ -n "$s" ] && bad="$bad [$s]"
		steps=$((steps + 1))
	done
	echo 175000 > $CF/policy$n/scaling_setspeed
	echo 175000 > $CF/policy$home/scaling_setspeed
done
taskset -p -c 0-3 $$ >/dev/null
ktap_expect "userspace: $steps settings, each on its entry's cluster, MPIDR and clock" "" "$bad"
t1=$(awk '{ print $1 }' $CF/policy0/stats/total_trans)
# policy0: 14 changes up, 14 down (setting the current entry is no
# transition)
ktap_expect "CPU_FREQ_STAT: policy0 counted its 28 transitions" 28 $((t1 - t0))

# 4-6. dynamic governors: a loaded CPU to its A15, an idle one to its A7
for g in ondemand conservative schedutil; do
	gov_all $g
	bad=""
	for n in 0 1 2 3; do
		wait_for 15 on_a7 $n || bad="$bad cpu$n:idle-not-on-A7($(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n))"
	done
	for n in 0 3; do
		pid=$(busy $n)
		wait_for 10 on_a15 $n || bad="$bad cpu$n:loaded-not-on-A15($(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n))"
		kill $pid
		wait $pid 2>/dev/null
		wait_for 15 on_a7 $n || bad="$bad cpu$n:idle-again-not-on-A7($(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n))"
	done
	ktap_expect "$g: idle CPUs on their A7, loaded cpu0 and cpu3 to their A15 and back" "" "$bad"
done

# 7. the statistics add up: time_in_state covers the whole table
bad=""
for n in 0 1 2 3; do
	l=$(wc -l < $CF/policy$n/stats/time_in_state)
	[ "$l" = 15 ] || bad="$bad policy$n:$l-lines"
	[ "$(cat $CF/policy$n/stats/total_trans)" -gt 0 ] || bad="$bad policy$n:no-trans"
done
ktap_expect "CPU_FREQ_STAT: 15 states and transitions on every policy" "" "$bad"
ktap_done

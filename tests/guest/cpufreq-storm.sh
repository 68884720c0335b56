#!/bin/sh
# lab-test: timeout=600
# A 20 s governor storm: on each logical CPU a load that toggles between
# busy and idle at different paces, under ondemand for the first half and
# schedutil for the second, so that cpufreq switches the four logical CPUs
# between their clusters concurrently; then the state is consistent: every
# policy's frequency on its cluster, MCPM and the power controller agreeing, no failed
# switch, idle CPUs back on their A7s.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/cpufreq.sh
ktap_plan 6

gov_all() { for _n in 0 1 2 3; do echo "$1" > $CF/policy$_n/scaling_governor; done; }
on_a7() { [ "$(sw_cluster $1)" = 1 ] && [ -z "$(cf_state $1)" ]; }

# toggler N BUSY IDLE SECONDS: alternately BUSY and IDLE tenths of a second
toggler() {
	taskset -c "$1" sh -c '
		end=$(($(date +%s) + $4))
		while [ "$(date +%s)" -lt "$end" ]; do
			n=0
			while [ $n -lt $(($2 * 3000)) ]; do n=$((n + 1)); done
			sleep 0.$3
		done' sh "$1" "$2" "$3" "$4" >/dev/null 2>&1 &
	echo $!
}

sw0=$(sw_stat switches)
fail0=$(sw_stat failures)
tr0=0
for n in 0 1 2 3; do tr0=$((tr0 + $(cat $CF/policy$n/stats/total_trans))); done

gov_all ondemand
pids=""
pids="$pids $(toggler 0 3 2 20)"
pids="$pids $(toggler 1 1 1 20)"
pids="$pids $(toggler 2 5 5 20)"
pids="$pids $(toggler 3 2 7 20)"
sleep 10
gov_all schedutil
sleep 10
for p in $pids; do wait $p 2>/dev/null; done

tr1=0
for n in 0 1 2 3; do tr1=$((tr1 + $(cat $CF/policy$n/stats/total_trans))); done
sw1=$(sw_stat switches)
ktap_diag "cpufreq transitions $((tr1 - tr0)), switches $((sw1 - sw0))"

# 1. the storm really switched
if [ $((sw1 - sw0)) -ge 20 ]; then
	ktap_pass "the storm switched clusters ($((sw1 - sw0)) switches, $((tr1 - tr0)) transitions)"
else
	ktap_fail "the storm switched clusters" "only $((sw1 - sw0)) switches, $((tr1 - tr0)) transitions"
fi

# 2. no failed switch
ktap_expect "no switch failed" "$fail0" "$(sw_stat failures)"

# 3. idle afterwards: all on their A7s, states agree
bad=""
for n in 0 1 2 3; do
	wait_for 20 on_a7 $n || bad="$bad cpu$n:$(cat $CF/policy$n/scaling_cur_freq)/$(sw_cluster $n) $(cf_state $n)"
done
ktap_expect "idle after the storm: every logical CPU on its A7, states agree" "" "$bad"

# 4. MCPM and PSCI.  ondemand is still in charge, and a switch under way
# between the reads of mcpm/state looks inconsistent for a moment: retry
# for up to 2 s (a wrong state persists, a switch in progress does not).
if why=$(sw_consistent_within 20); then
	ktap_pass "MCPM and the power controller agree after the storm"
else
	ktap_fail "MCPM and the power controller agree after the storm" "$why"
fi

# 5. the governors still work: performance puts everything on the A15s
gov_all performance
bad=""
for n in 0 1 2 3; do
	[ "$(cat $CF/policy$n/scaling_cur_freq) $(sw_cluster $n)" = "1200000 0" ] || bad="$bad cpu$n"
	bad="$bad$(cf_state $n)"
done
ktap_expect "performance after the storm: every logical CPU on its A15 at 1200000" "" "$bad"

# 6. the switcher's own books
ktap_expect "switcher requests = switches + failures" \
	"$(sw_stat requests)" "$(($(sw_stat switches) + $(sw_stat failures)))"
ktap_done

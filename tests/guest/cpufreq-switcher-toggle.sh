#!/bin/sh
# lab-test: timing=modelled timeout=600
# The big.LITTLE cpufreq driver across switcher disable/enable: with the
# switcher off it re-registers with one policy per cluster (CPUs 0-3 and
# 4-7, real frequencies), with it on again one policy per logical CPU;
# no CPU or policy lost or left over, governors running through it;
# out-of-range requests are clamped, never a wrong cluster.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/cpufreq.sh
ktap_plan 10

A15="500000 600000 700000 800000 900000 1000000 1100000 1200000"
A7="350000 400000 500000 600000 700000 800000 900000 1000000"
pols() { (cd $CF && ls -d policy* | tr '\n' ' '); }
gov_all() { for _p in $CF/policy*; do echo "$1" > $_p/scaling_governor; done; }

# 1. switcher off with ondemand running and cpu1 loaded: cpu1 starts on
# its A7 (powersave) and must have reached its A15 under ondemand before
# the switcher is disabled; waited for (10 s at most), not slept on
gov_all powersave
w=0
while [ "$(sw_cluster 1)" != 1 ] && [ $w -lt 50 ]; do sleep 0.1; w=$((w + 1)); done
c0=$(sw_cluster 1)
gov_all ondemand
pid=$(busy 1)
w=0
while [ "$(sw_cluster 1)" != 0 ] && [ $w -lt 100 ]; do sleep 0.1; w=$((w + 1)); done
ktap_expect "ondemand takes the loaded cpu1 from its A7 to its A15 before the switcher is disabled" \
	"1 0 " "$c0 $(sw_cluster 1) $(cf_state 1)"
ktap_diag "cpu1 at $(cat $CF/policy1/scaling_cur_freq) kHz after $((w / 10)).$((w % 10)) s"
echo 0 > $SW/active
kill $pid; wait $pid 2>/dev/null
ktap_expect "switcher off: CPUs 0-7 online, policy0 (0-3) and policy4 (4-7)" \
	"0-7|policy0 policy4 |0 1 2 3|4 5 6 7" \
	"$(cat /sys/devices/system/cpu/online)|$(pols)|$(cat $CF/policy0/related_cpus | sed 's/ $//')|$(cat $CF/policy4/related_cpus | sed 's/ $//')"

# 2. real tables per cluster
ktap_expect "switcher off: real tables, A15 500-1200 MHz, A7 350-1000 MHz" \
	"$A15|$A7" \
	"$(sed 's/ *$//' $CF/policy0/scaling_available_frequencies)|$(sed 's/ *$//' $CF/policy4/scaling_available_frequencies)"

# 3. cpufreq-set on each cluster sets its clock; out of range is clamped
gov_all userspace
bad=""
cpufreq-set -c 5 -f 700000 || bad="$bad set-700000"
[ "$(cat $CF/policy4/scaling_cur_freq) $(cf_mapping 4)" = "700000 700000 1 700000" ] ||
	bad="$bad A7:$(cf_mapping 4)"
cpufreq-set -c 2 -f 900000 || bad="$bad set-900000"
[ "$(cf_mapping 0)" = "900000 0 900000" ] || bad="$bad A15:$(cf_mapping 0)"
cpufreq-set -c 0 -f 5000000 2>/dev/null
[ "$(cat $CF/policy0/scaling_cur_freq)" = 1200000 ] || bad="$bad high:$(cat $CF/policy0/scaling_cur_freq)"
cpufreq-set -c 4 -f 100000 2>/dev/null
[ "$(cat $CF/policy4/scaling_cur_freq)" = 350000 ] || bad="$bad low:$(cat $CF/policy4/scaling_cur_freq)"
ktap_expect "switcher off: cpufreq-set per cluster, out of range clamped to the cluster's limits" "" "$bad"

# 4. switcher on again with schedutil on both policies
gov_all schedutil
echo 1 > $SW/active
bad=""
for n in 0 1 2 3; do bad="$bad$(cf_state $n)"; done
ktap_expect "switcher on: CPUs 0-3, policy0-3 over the virtual table, states agree" \
	"0-3|policy0 policy1 policy2 policy3 |175000 1200000|" \
	"$(cat /sys/devices/system/cpu/online)|$(pols)|$(cat $CF/policy3/cpuinfo_min_freq) $(cat $CF/policy3/cpuinfo_max_freq)|$bad"

# 5. out-of-range and in-between requests land on the cluster of the entry
gov_all userspace
bad=""
for req in 100000 5000000 480000 499999 500001 450001 174999 1199999 1; do
	for n in 0 1 2 3; do
		cpufreq-set -c $n -f $req 2>/dev/null
		f=$(cat $CF/policy$n/scaling_cur_freq)
		case " $(cat $CF/policy$n/scaling_available_frequencies) " in
		*" $f "*) ;;
		*) bad="$bad cpu$n:$req->$f-not-in-table" ;;
		esac
		s=$(cf_state_once $n)
		[ -n "$s" ] && bad="$bad [$req: $s]"
	done
done
for n in 0 1 2 3; do
	cpufreq-set -c $n -f 5000000 2>/dev/null
	[ "$(cat $CF/policy$n/scaling_cur_freq) $(sw_cluster $n)" = "1200000 0" ] || bad="$bad cpu$n:max"
	echo 10 > $CF/policy$n/scaling_min_freq
	echo 99999999 > $CF/policy$n/scaling_max_freq
	[ "$(cat $CF/policy$n/scaling_min_freq) $(cat $CF/policy$n/scaling_max_freq)" = "175000 1200000" ] ||
		bad="$bad cpu$n:limits"
done
ktap_expect "switcher on: out-of-range and in-between requests clamped to an entry, on its cluster" "" "$bad"

# 6. limits move the CPU: scaling_max_freq below the A15 range puts it on the A7
echo 450000 > $CF/policy1/scaling_max_freq
ktap_expect "scaling_max_freq 450000 under userspace at 1200000: cpu1 at 450000 on its A7" \
	"450000 1 " "$(cat $CF/policy1/scaling_cur_freq) $(sw_cluster 1) $(cf_state 1)"
echo 1200000 > $CF/policy1/scaling_max_freq

# 7. three more round trips, each with a different governor running, loaded
bad=""
for g in ondemand conservative performance; do
	gov_all $g
	pid=$(busy 2)
	echo 0 > $SW/active
	[ "$(cat /sys/devices/system/cpu/online) $(pols)" = "0-7 policy0 policy4 " ] || bad="$bad off:$(cat /sys/devices/system/cpu/online)/$(pols)"
	gov_all $g
	echo 1 > $SW/active
	kill $pid; wait $pid 2>/dev/null
	[ "$(cat /sys/devices/system/cpu/online) $(pols)" = "0-3 policy0 policy1 policy2 policy3 " ] || bad="$bad on:$(cat /sys/devices/system/cpu/online)/$(pols)"
	for n in 0 1 2 3; do bad="$bad$(cf_state $n)"; done
done
ktap_expect "three more off/on round trips under load and governors: CPUs, policies, states" "" "$bad"

# 8. governors after the round trips
gov_all powersave
bad=""
for n in 0 1 2 3; do
	[ "$(cat $CF/policy$n/scaling_cur_freq) $(sw_cluster $n)" = "175000 1" ] || bad="$bad cpu$n"
done
ktap_expect "powersave after the round trips: all on their A7" "" "$bad"
if why=$(sw_consistent); then
	ktap_pass "MCPM and the power controller agree"
else
	ktap_fail "MCPM and the power controller agree" "$why"
fi
ktap_done

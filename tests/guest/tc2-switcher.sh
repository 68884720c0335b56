#!/bin/sh
# lab-test: timing=modelled platform=tc2 timeout=300
# The switcher on TC2 modelled, 2+3 as Linaro ran it, with cluster idle
# on (issue 31, first part): two pairs, the third A7 offline and
# reported; after a switch to cluster 1 each logical CPU reads an A7's
# MPIDR and part number on itself (two different A7s) and the SPC has
# powered the A15s down (RESET_CTRL, A15_PWRDN_EN: the outbound CPUs went
# down through tc2_pm.c, the second one taking the cluster with it);
# after the switch back each reads its own A15's, the SPC has both A15s
# up; then 50 round trips of each logical CPU, every switch accepted and
# counted, with cluster sleep entered meanwhile; with cluster sleep held
# off, MCPM and the SPC agree on which physical CPUs are up.
# shellcheck disable=SC2086 # CPU numbers and sysfs paths are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/platform.sh
ktap_plan 8

# the A15s' nCORERESET bits (2-3) of RESET_CTRL and A15_PWRDN_EN
a15_power() {
	echo "reset $(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0xc))) pwrdn $(($(devmem 0x7fff0b30 32) & 1))"
}

sw_2plus3_opening
sw_2plus3_to_a7s
ktap_expect "the SPC: both A15s down, the A15 cluster's power-down enabled" \
	"reset 0x0 pwrdn 1" "$(a15_power)"
sw_2plus3_to_a15s

s0=$(($(sw_switches 0) + $(sw_switches 1)))
u0=0
for c in 0 1; do u0=$((u0 + $(cat /sys/devices/system/cpu/cpu$c/cpuidle/state1/usage))); done
bad=""
i=0
while [ $i -lt 50 ]; do
	for n in 0 1; do
		sw_switch $n 1 || bad="$bad cpu$n:to-1"
		sw_switch $n 0 || bad="$bad cpu$n:to-0"
	done
	i=$((i + 1))
done
s1=$(($(sw_switches 0) + $(sw_switches 1)))
u1=0
for c in 0 1; do u1=$((u1 + $(cat /sys/devices/system/cpu/cpu$c/cpuidle/state1/usage))); done
if [ -z "$bad" ] && [ $((s1 - s0)) -eq 200 ] && [ $u1 -gt $u0 ]; then
	ktap_pass "50 round trips of each logical CPU, with cluster sleep" \
		"$((s1 - s0)) switches, $((u1 - u0)) cluster-sleep entries"
else
	ktap_fail "50 round trips of each logical CPU, with cluster sleep" \
		"refused:${bad:- none}; $((s1 - s0)) switches counted; cluster-sleep entries $((u1 - u0))"
fi
sw_2plus3_to_a15s "back on cluster 0 after the round trips"
# MCPM and the SPC agree (tc2_pm's power state), cluster sleep held off
lab_cluster_sleep off
if why=$(sw_consistent); then
	ktap_pass "the unpaired A7 and the idle halves are off per MCPM and the SPC"
else
	ktap_fail "the unpaired A7 and the idle halves are off per MCPM and the SPC" "$why"
fi
lab_cluster_sleep on
ktap_done

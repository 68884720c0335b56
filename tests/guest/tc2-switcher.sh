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
# counted, with cluster sleep entered meanwhile.
# shellcheck disable=SC2086 # CPU numbers and sysfs paths are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 7

ktap_expect "active with logical CPUs 0-1 online, directories cpu0 cpu1" "1 0-1 0 1" \
	"$(cat $SW/active) $(cat /sys/devices/system/cpu/online) $(sw_cpus | tr '\n' ' ' | sed 's/ $//')"
ktap_expect "one CPU reported without a counterpart" 1 \
	"$(dmesg | grep -c 'has no counterpart in the other cluster: kept offline')"

# cpuN MPIDR part, as each logical CPU reads them on itself
ids() { awk '$1 == "cpu0" || $1 == "cpu1" { print $1, $3, $7 }' /sys/kernel/debug/arm_cpuid; }
# the A15s' nCORERESET bits (2-3) of RESET_CTRL and A15_PWRDN_EN
a15_power() {
	echo "reset $(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0xc))) pwrdn $(($(devmem 0x7fff0b30 32) & 1))"
}

for n in 0 1; do sw_switch $n 1 || ktap_diag "cpu$n: switch to cluster 1 failed"; done
got=$(ids | awk '$2 ~ /^0x800001/ && $3 == "0xc07" { n++; m[$2] = 1 }
	END { k = 0; for (x in m) k++; print n + 0, k }')
ktap_expect "on cluster 1: cpu0 and cpu1 each read an A7's MPIDR and part, two different A7s" \
	"2 2" "$got"
ktap_expect "the SPC: both A15s down, the A15 cluster's power-down enabled" \
	"reset 0x0 pwrdn 1" "$(a15_power)"

for n in 0 1; do sw_switch $n 0 || ktap_diag "cpu$n: switch to cluster 0 failed"; done
ktap_expect "back on cluster 0: each reads its own A15's MPIDR and part" \
	"cpu0 0x80000000 0xc0f|cpu1 0x80000001 0xc0f" "$(ids | tr '\n' '|' | sed 's/|$//')"

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
ktap_expect "back on cluster 0 after the round trips" \
	"cpu0 0x80000000 0xc0f|cpu1 0x80000001 0xc0f" "$(ids | tr '\n' '|' | sed 's/|$//')"
ktap_done

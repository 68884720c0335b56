#!/bin/sh
# lab-test: platform=virt smp=5 dtb=qemu-virt-tc2.dtb timeout=300
# The switcher on the asymmetric TC2-like DT (2 x A15 + 3 x A7): two
# pairs, one A7 left offline and reported, both pairs switch.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 4

ktap_expect "active with logical CPUs 0-1 online, directories cpu0 cpu1" "1 0-1 0 1" \
	"$(cat $SW/active) $(cat /sys/devices/system/cpu/online) $(sw_cpus | tr '\n' ' ' | sed 's/ $//')"
ktap_expect "one CPU reported without a counterpart" 1 "$(dmesg | grep -c 'has no counterpart in the other cluster: kept offline')"
bad=""
for n in 0 1; do
	sw_switch $n 1 || bad="$bad cpu$n:to1"
	[ "$(sw_cluster $n)" = 1 ] || bad="$bad cpu$n:not1"
	sw_switch $n 0 || bad="$bad cpu$n:to0"
	[ "$(sw_cluster $n)" = 0 ] || bad="$bad cpu$n:not0"
done
ktap_expect "cpu0 and cpu1 switch 0->1->0" "" "$bad"
if why=$(sw_consistent); then
	ktap_pass "the unpaired A7 and the idle halves are off per PSCI"
else
	ktap_fail "the unpaired A7 and the idle halves are off per PSCI" "$why"
fi
ktap_done

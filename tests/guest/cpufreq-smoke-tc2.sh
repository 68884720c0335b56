#!/bin/sh
# lab-test: timing=modelled layout=2+3 smp=5 dtb=vexpress-a15-a7-tc2.dtb timeout=300
# The modelled platform in TC2's layout (2x A15 + 3x A7): two pairs, two
# policies over the virtual table; the unpaired A7 stays offline;
# powersave and performance on the right cluster; with the switcher off,
# one policy per cluster over 2 and 3 CPUs.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
CF=/sys/devices/system/cpu/cpufreq
ktap_plan 4
ktap_expect "tc2: policy0 and policy1 over 175000-1200000, driver vexpress-spc" \
	"policy0 policy1 |175000 1200000|vexpress-spc" \
	"$(cd $CF && ls -d policy* | tr '\n' ' ')|$(cat $CF/policy1/cpuinfo_min_freq) $(cat $CF/policy1/cpuinfo_max_freq)|$(cat $CF/policy1/scaling_driver)"
for n in 0 1; do echo powersave > $CF/policy$n/scaling_governor; done
ktap_expect "tc2 powersave: both on cluster 1" "1 1" "$(sw_cluster 0) $(sw_cluster 1)"
for n in 0 1; do echo performance > $CF/policy$n/scaling_governor; done
ktap_expect "tc2 performance: both on cluster 0" "0 0" "$(sw_cluster 0) $(sw_cluster 1)"
echo 0 > $SW/active
ktap_expect "tc2, switcher off: policy0 over CPUs 0-1 (A15 500-1200 MHz), policy2 over 2-4 (A7 350-1000 MHz)" \
	"policy0 policy2 |0 1|2 3 4|500000 1200000|350000 1000000" \
	"$(cd $CF && ls -d policy* | tr '\n' ' ')|$(sed 's/ $//' $CF/policy0/related_cpus)|$(sed 's/ $//' $CF/policy2/related_cpus)|$(cat $CF/policy0/cpuinfo_min_freq) $(cat $CF/policy0/cpuinfo_max_freq)|$(cat $CF/policy2/cpuinfo_min_freq) $(cat $CF/policy2/cpuinfo_max_freq)"
ktap_done

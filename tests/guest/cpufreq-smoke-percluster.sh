#!/bin/sh
# lab-test: timing=modelled timeout=300 append=no_bL_switcher
# Booted with no_bL_switcher: one policy per cluster from the start, and
# enabling the switcher later gives one per logical CPU.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
CF=/sys/devices/system/cpu/cpufreq
ktap_plan 2
ktap_expect "no_bL_switcher: policy0 (0-3) and policy4 (4-7), driver vexpress-spc" \
	"policy0 policy4 |0 1 2 3|4 5 6 7|vexpress-spc" \
	"$(cd $CF && ls -d policy* | tr '\n' ' ')|$(sed 's/ $//' $CF/policy0/related_cpus)|$(sed 's/ $//' $CF/policy4/related_cpus)|$(cat $CF/policy4/scaling_driver)"
echo 1 > $SW/active
ktap_expect "switcher enabled later: policy0-3, virtual table" \
	"policy0 policy1 policy2 policy3 |175000 1200000" \
	"$(cd $CF && ls -d policy* | tr '\n' ' ')|$(cat $CF/policy2/cpuinfo_min_freq) $(cat $CF/policy2/cpuinfo_max_freq)"
ktap_done

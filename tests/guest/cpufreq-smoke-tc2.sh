#!/bin/sh
# lab-test: platform=virt timeout=300 dtb=qemu-virt-tc2.dtb smp=5
# The TC2-like 2+3 DT: two pairs, two policies over the virtual table; the
# unpaired A7 stays offline; powersave and performance on the right cluster.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
CF=/sys/devices/system/cpu/cpufreq
ktap_plan 3
ktap_expect "tc2: policy0 and policy1 over 175000-1200000" \
	"policy0 policy1 |175000 1200000" \
	"$(cd $CF && ls -d policy* | tr '\n' ' ')|$(cat $CF/policy1/cpuinfo_min_freq) $(cat $CF/policy1/cpuinfo_max_freq)"
for n in 0 1; do echo powersave > $CF/policy$n/scaling_governor; done
ktap_expect "tc2 powersave: both on cluster 1" "1 1" "$(sw_cluster 0) $(sw_cluster 1)"
for n in 0 1; do echo performance > $CF/policy$n/scaling_governor; done
ktap_expect "tc2 performance: both on cluster 0" "0 0" "$(sw_cluster 0) $(sw_cluster 1)"
ktap_done

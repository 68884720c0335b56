#!/bin/sh
# lab-test: platform=virt smp=5 dtb=qemu-virt-tc2.dtb append=no_bL_switcher timeout=300
# The asymmetric TC2-like variant: 2 x A15 + 3 x A7, five CPUs (the
# switcher is kept off, so all five stay online).
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
ktap_plan 4

dt=/proc/device-tree
ktap_expect "all 5 CPUs online" "0-4" "$(cat /sys/devices/system/cpu/online)"
ktap_expect "cluster0 has 2 cores" 2 "$(set -- "$dt"/cpus/cpu-map/cluster0/core*; echo $#)"
ktap_expect "cluster1 has 3 cores" 3 "$(set -- "$dt"/cpus/cpu-map/cluster1/core*; echo $#)"
siblings=""
for n in 0 1 2 3 4; do
	siblings="$siblings$(cat /sys/devices/system/cpu/cpu$n/topology/core_siblings_list) "
done
ktap_expect "topology: clusters 0-1 and 2-4" "0-1 0-1 2-4 2-4 2-4 " "$siblings"
ktap_done

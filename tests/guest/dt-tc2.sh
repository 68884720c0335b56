#!/bin/sh
# lab-test: smp=5 dtb=qemu-virt-tc2.dtb timeout=300
# The asymmetric TC2-like variant: 2 x A15 + 3 x A7, five CPUs.
. /usr/share/lab/ktap.sh
ktap_plan 3

dt=/proc/device-tree
ktap_expect "all 5 CPUs online" "0-4" "$(cat /sys/devices/system/cpu/online)"
ktap_expect "cluster0 has 2 cores" 2 "$(ls -d "$dt"/cpus/cpu-map/cluster0/core* | wc -l)"
ktap_expect "cluster1 has 3 cores" 3 "$(ls -d "$dt"/cpus/cpu-map/cluster1/core* | wc -l)"
ktap_done

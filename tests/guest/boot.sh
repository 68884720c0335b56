#!/bin/sh
# lab-test: platform=rtsm,virt timing=rtsm:modelled append=no_bL_switcher timeout=300
# Boot of the 8-CPU guest (switcher kept off, so all CPUs stay online), on
# both platforms: every CPU online, and the device tree describes
# cluster 0 = four Cortex-A15 (MPIDR 0..3) and cluster 1 = four Cortex-A7
# (MPIDR 0x100..0x103 on rtsm, flat 4..7 on virt).  The runner fails every
# case if the kernel log is not clean.
# shellcheck disable=SC2086,SC2016,SC3028,SC2012 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM; sysfs names are plain
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
ktap_plan 8

ktap_expect "all 8 CPUs online" "0-7" "$(cat /sys/devices/system/cpu/online)"
ktap_expect "8 processors in /proc/cpuinfo" 8 "$(grep -c '^processor' /proc/cpuinfo)"
ktap_expect "kernel brought up 8 CPUs" 1 "$(dmesg | grep -c 'smp: Brought up 1 node, 8 CPUs')"

dt=/proc/device-tree
be32() { printf '%d' "0x$(hexdump -v -e '4/1 "%02x"' "$1")"; }

# For each cpu-map cluster: the cpu nodes its cores point to, as "reg:compatible".
describe_cluster() {
	for core in "$dt"/cpus/cpu-map/"$1"/core*; do
		ph=$(be32 "$core/cpu")
		for cpu in "$dt"/cpus/cpu@*; do
			if [ "$(be32 "$cpu/phandle")" = "$ph" ]; then
				printf '%s:%s ' "$(be32 "$cpu/reg")" "$(tr -d '\0' < "$cpu/compatible")"
			fi
		done
	done
}

ktap_expect "cpu-map has two clusters" "cluster0 cluster1" \
	"$(for c in "$dt"/cpus/cpu-map/cluster*; do printf '%s ' "${c##*/}"; done | sed 's/ $//')"
ktap_expect "cluster0 = A15 at MPIDR 0..3" \
	"0:arm,cortex-a15 1:arm,cortex-a15 2:arm,cortex-a15 3:arm,cortex-a15 " \
	"$(describe_cluster cluster0)"
a7=""
for r in $(lab_cpu_regs | cut -d' ' -f5-); do
	a7="$a7$(printf %d "0x$r"):arm,cortex-a7 "
done
ktap_expect "cluster1 = A7 at MPIDR $(lab_cpu_regs | cut -d' ' -f5- | tr ' ' ,)" \
	"$a7" "$(describe_cluster cluster1)"

# The DT reg of each logical CPU, in order.
mp=""
for c in 0 1 2 3 4 5 6 7; do
	mp="$mp$(cat /sys/devices/system/cpu/cpu$c/of_node/reg 2>/dev/null | hexdump -v -e '4/1 "%02x"' | sed 's/^0*//;s/^$/0/') "
done
ktap_expect "cpuN's DT node has reg $(lab_cpu_regs | tr ' ' ,)" "$(lab_cpu_regs) " "$mp"

# cpufreq only where there are CPU clocks: on rtsm one policy per cluster
# (the switcher is off), on virt (no CPU clock modelled) none at all.
CF=/sys/devices/system/cpu/cpufreq
pols=$(cd $CF && ls -d policy* 2>/dev/null | tr '\n' ' ')
if [ "$(lab_platform)" = rtsm ]; then
	ktap_expect "cpufreq: policy0 and policy4, driver vexpress-spc" "policy0 policy4 |vexpress-spc" \
		"$pols|$(cat $CF/policy0/scaling_driver 2>/dev/null)"
else
	ktap_expect "cpufreq: no policy (virt models no CPU clock)" "" "$pols"
fi
ktap_done

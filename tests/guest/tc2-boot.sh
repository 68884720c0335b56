#!/bin/sh
# lab-test: timing=modelled platform=tc2 append=no_bL_switcher timeout=300
# TC2 modelled (issue 31, first part): QEMU's vexpress-tc2 boots the
# kernel tree's own vexpress-v2p-ca15_a7.dtb (tests/host/tc2-dtb.sh checks
# it is that one).  Mainline's tc2_pm.c initialises over the SPC and
# MCPM's smp ops boot the four secondaries, each woken by the SPC on the
# GIC's wake-up request for its IPI; each CPU reports its own MPIDR and
# part number, read on it; the SPC's registers show every CPU out of
# reset; vexpress-spc-cpufreq runs on the SPC's path (the operating
# points it reads through the SPC's SYS_CFG channel are the model's) and
# the CCI driver is bound.  Cluster sleep is disabled first (cpuidle's
# state 1 on each CPU), so that every CPU is up when the registers are
# read; tc2-cluster-idle.sh tests it.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
ktap_plan 9

# Cluster sleep off, every online CPU woken: they stay powered while the
# registers are read
lab_cluster_sleep off

log=$(dmesg)
for msg in "ARM CCI driver probed" "TC2 power management initialized"; do
	if echo "$log" | grep -q "$msg"; then
		ktap_pass "kernel log: $msg"
	else
		ktap_fail "kernel log: $msg" "not in the kernel log"
	fi
done
ktap_expect "MCPM over the SPC brought up all 5 CPUs" "0-4" "$(cat /sys/devices/system/cpu/online)"

want="cpu0 mpidr 0x80000000 part 0xc0f
cpu1 mpidr 0x80000001 part 0xc0f
cpu2 mpidr 0x80000100 part 0xc07
cpu3 mpidr 0x80000101 part 0xc07
cpu4 mpidr 0x80000102 part 0xc07"
got=$(awk '{ print $1, $2, $3, $6, $7 }' /sys/kernel/debug/arm_cpuid 2>&1)
ktap_expect "each CPU's MPIDR and part number, read on it" "$want" "$got"

pkg=""
for n in 0 1 2 3 4; do
	pkg="$pkg$(cat /sys/devices/system/cpu/cpu$n/topology/physical_package_id)"
done
ktap_expect "clusters from MPIDR: 2 A15s in 0, 3 A7s in 1" "00111" "$pkg"

# SCC at 0x7fff0000: SYS_INFO (0x700) counts 2 A15s (bits 19:16) and 3 A7s
# (23:20); RESET_CTRL (0x018) has each powered CPU's nCORERESET set: A15
# CPUs bits 2-3, A7 CPUs bits 16-18.
ktap_expect "SPC: SYS_INFO 2+3 CPUs, RESET_CTRL every CPU out of reset" \
	"sys_info 0x320000 reset_ctrl 0x7000c" \
	"sys_info $(printf '0x%x' $(($(devmem 0x7fff0700 32) & 0xff0000))) reset_ctrl $(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0x7000c)))"

bound=""
for d in vexpress-spc-cpufreq/vexpress-spc-cpufreq ARM-CCI/2c090000.cci \
	vexpress-hwmon/dcc:energy-a15 vexpress-hwmon/dcc:energy-a7; do
	[ -e "/sys/bus/platform/drivers/$d" ] && bound="$bound ${d#*/}"
done
ktap_expect "vexpress-spc-cpufreq, arm-cci and vexpress-hwmon (the clusters' energy meters) bound" \
	" vexpress-spc-cpufreq 2c090000.cci dcc:energy-a15 dcc:energy-a7" "$bound"

# The operating points the driver read through the SPC (COMMS, SYS_CFG
# function SCC, A15_PERFVAL/A7_PERFVAL), as the model publishes them.
ktap_expect "A15 cluster's table, from the SPC" \
	"500000 600000 700000 800000 900000 1000000 1100000 1200000" \
	"$(xargs < /sys/devices/system/cpu/cpu0/cpufreq/scaling_available_frequencies)"
ktap_expect "A7 cluster's table, from the SPC" \
	"350000 400000 500000 600000 700000 800000 900000 1000000" \
	"$(xargs < /sys/devices/system/cpu/cpu2/cpufreq/scaling_available_frequencies)"
ktap_done

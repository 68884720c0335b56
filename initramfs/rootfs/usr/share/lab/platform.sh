# shellcheck shell=sh
# Which platform the guest runs on, for suites that run on several
# (tests/run's platform=rtsm,virt): "rtsm" (QEMU vexpress-a15-a7, the
# modelled platform: A7 MPIDRs 0x100-0x103, DCSCB, CCI-400), "tc2" (QEMU
# vexpress-tc2 with the kernel tree's TC2 device tree: MPIDRs 0x0-0x1 and
# 0x100-0x102, the SPC) or "virt" (QEMU virt: flat MPIDRs 0-7, the PSCI
# backend), from the root node's compatible string.

lab_platform() {
	case "$(tr '\0' ' ' < /proc/device-tree/compatible)" in
	*arm,vexpress,v2p-ca15_a7*) echo tc2 ;;
	*arm,vexpress*) echo rtsm ;;
	*linux,dummy-virt*|*lab,*) echo virt ;;
	*) echo unknown ;;
	esac
}

# How the guest's time runs (tests/run's timing=, docs/timing.md): "host"
# (the host's clock) or "modelled" (each CPU's own clock, every figure
# repeats), from the job's /job/timing; "host" for a guest without one.
lab_timing() {
	cat /job/timing 2>/dev/null || echo host
}

# The MPIDR affinity (DT reg) of the physical CPUs, in logical order, as
# hexadecimal words without 0x: "0 1 2 3 100 101 102 103", "0 1 100 101
# 102" (tc2) or "0 1 ... 7".
lab_cpu_regs() {
	case "$(lab_platform)" in
	rtsm) echo "0 1 2 3 100 101 102 103" ;;
	tc2) echo "0 1 100 101 102" ;;
	*) echo "0 1 2 3 4 5 6 7" ;;
	esac
}

# The GIC distributor's physical base (GICD_*; busybox devmem).
lab_gicd_base() {
	if [ "$(lab_platform)" = virt ]; then echo 0x08000000; else echo 0x2c001000; fi
}

# What reports a physical CPU's power state to MCPM's debugfs ("power"
# field of mcpm/state): PSCI AFFINITY_INFO on virt, the DCSCB's RST_STAT
# on rtsm; on tc2 the SPC, which tc2_pm.c does not report yet.  For test
# names.
lab_power_ctl() {
	case "$(lab_platform)" in
	rtsm) echo DCSCB ;;
	tc2) echo SPC ;;
	*) echo PSCI ;;
	esac
}

# The kernel message of the MCPM backend that must have registered.
lab_mcpm_backend_msg() {
	case "$(lab_platform)" in
	rtsm) echo "VExpress DCSCB support installed" ;;
	tc2) echo "TC2 power management initialized" ;;
	*) echo "mcpm-psci: CPU power through PSCI" ;;
	esac
}

# MCPM's race counters (mcpm/stats) on this platform: psci_already_on_retry
# exists only with the PSCI backend.
lab_race_counters() {
	echo "teardown_abort vlock_contended powerup_during_powerdown$( \
		[ "$(lab_platform)" = virt ] && echo " psci_already_on_retry")"
}

# lab_cluster_sleep on|off: allow or forbid cpuidle's cluster-sleep state
# (state 1 of big_little_idle, tc2) on every online CPU.  Off also wakes
# each CPU once, so that every online CPU is powered when it returns (a
# CPU asleep before stays down until an interrupt wakes it).
lab_cluster_sleep() {
	case "$1" in
	on) _d=0 ;;
	off) _d=1 ;;
	*) echo "lab_cluster_sleep: on or off, not '$1'" >&2; return 1 ;;
	esac
	for _p in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -d "$_p/cpuidle/state1" ] || continue
		[ "$(cat "$_p/online" 2>/dev/null || echo 1)" = 1 ] || continue
		echo $_d > "$_p/cpuidle/state1/disable" || return 1
		[ $_d = 0 ] || taskset -c "${_p##*cpu}" true || return 1
	done
}

# lab_cluster_sleep_enabled: true if some online CPU may enter cpuidle's
# cluster-sleep state (state 1 there and not disabled)
lab_cluster_sleep_enabled() {
	for _p in /sys/devices/system/cpu/cpu[0-9]*; do
		[ -r "$_p/cpuidle/state1/disable" ] || continue
		[ "$(cat "$_p/cpuidle/state1/disable")" = 0 ] && return 0
	done
	return 1
}

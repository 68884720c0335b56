#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=300
# The modelled RTSM VE Cortex-A15x4-A7x4 (QEMU vexpress-a15-a7): mainline's
# CCI and DCSCB drivers probe, MCPM's smp ops boot the 7 secondaries, and
# each CPU reports its own MPIDR and part number, read on that CPU
# (debugfs arm_cpuid), not taken from the DT.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
ktap_plan 9

log=$(dmesg)
for msg in "ARM CCI driver probed" "VExpress DCSCB support installed"; do
	if echo "$log" | grep -q "$msg"; then
		ktap_pass "kernel log: $msg"
	else
		ktap_fail "kernel log: $msg" "not in the kernel log"
	fi
done
ktap_expect "MCPM smp ops brought up all 8 CPUs" "0-7" "$(cat /sys/devices/system/cpu/online)"
if echo "$log" | grep -q "psci"; then
	ktap_fail "no PSCI on this platform" "$(echo "$log" | grep psci | head -n 1)"
else
	ktap_pass "no PSCI on this platform"
fi

ids=/sys/kernel/debug/arm_cpuid
want=""
for n in 0 1 2 3; do want="${want}cpu$n mpidr 0x8000000$n part 0xc0f
"; done
for n in 0 1 2 3; do want="${want}cpu$((n + 4)) mpidr 0x8000010$n part 0xc07
"; done
got=$(awk '{ print $1, $2, $3, $6, $7 }' "$ids" 2>&1)
ktap_expect "each CPU's MPIDR and part number, read on it" "$(printf %s "$want")" "$got"

siblings=""
for n in 0 1 2 3 4 5 6 7; do
	siblings="$siblings$(cat /sys/devices/system/cpu/cpu$n/topology/core_siblings_list) "
done
ktap_expect "topology from MPIDR: clusters 0-3 and 4-7" "0-3 0-3 0-3 0-3 4-7 4-7 4-7 4-7 " "$siblings"
pkg=""
for n in 0 1 2 3 4 5 6 7; do
	pkg="$pkg$(cat /sys/devices/system/cpu/cpu$n/topology/physical_package_id)"
done
ktap_expect "cluster ids 0 and 1" "00001111" "$pkg"

# The machine starts as RTSM's boot firmware leaves it (Linux assumes it):
# the boot cluster's CCI interface 3 snooping (nothing in Linux enables
# it: the boot CPU never runs mcpm_entry_point), non-secure access to the
# CCI allowed (Secure Access register, 0x2c090008, bit 0).
ktap_expect "firmware state: CCI interface 3 snoops and DVM on, non-secure access on" \
	"snoop3 0x3 secure_access 0x1" \
	"snoop3 $(printf '0x%x' $(($(devmem 0x2c094000 32) & 3))) secure_access $(printf '0x%x' $(($(devmem 0x2c090008 32) & 1)))"

# The CCI-400's identification (0x2c090fe0-0x2c090fec: PID0..3): part
# 0x420, ARM's JEP106 code, revision r0p0 as on TC2 (PID2 0x0b; it read
# 0x4b, revision 4, while the model called itself r1: issue 28, item 14).
pid=""
for o in 0xfe0 0xfe4 0xfe8 0xfec; do
	pid="$pid $(printf '0x%02x' $(($(devmem $((0x2c090000 + o)) 32) & 0xff)))"
done
ktap_expect "CCI-400 peripheral ID: part 0x420, ARM, revision r0p0" " 0x20 0xb4 0x0b 0x00" "$pid"
ktap_done

#!/bin/sh
# lab-test: timing=modelled platform=rtsm timeout=300
# The switcher on the modelled platform, seen by the CPUs and the hardware:
# after switching all four logical CPUs to cluster 1, each reads an A7's
# MPIDR (0x8000010x) and part number (0xc07) on itself, and the A15
# cluster is held in reset by the DCSCB (RST_STAT0 0x10f) with its CCI
# slave interface 3 not snooping; switching back gives the mirror image.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
ktap_plan 6

rd() { printf '0x%x' $(($(devmem "$1" 32))); }
snoop() { printf '0x%x' $(($(devmem "$1" 32) & 3)); }
# wait_stat ADDR VALUE: the outbound cluster's last CPU reaches WFI shortly
# after the switch returns
wait_stat() {
	i=0
	while [ "$(rd "$1")" != "$2" ] && [ $i -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rd "$1"
}

switch_all() {
	for c in 0 1 2 3; do
		echo "$1" > /sys/kernel/bL_switcher/cpu$c/cluster || return 1
	done
}

ids() { awk '{ print $1, $3, $7 }' /sys/kernel/debug/arm_cpuid; }

want_a7="cpu0 0x80000103 0xc07
cpu1 0x80000102 0xc07
cpu2 0x80000101 0xc07
cpu3 0x80000100 0xc07"
want_a15="cpu0 0x80000000 0xc0f
cpu1 0x80000001 0xc0f
cpu2 0x80000002 0xc0f
cpu3 0x80000003 0xc0f"

switch_all 1 || ktap_diag "a switch to cluster 1 failed"
ktap_expect "on cluster 1: each logical CPU reads an A7's MPIDR and part" "$want_a7" "$(ids)"
ktap_expect "A15 cluster held in reset (RST_STAT0)" 0x10f "$(wait_stat 0x6000000c 0x10f)"
ktap_expect "A15 cluster's CCI interface 3 not snooping" 0x0 "$(snoop 0x2c094000)"

switch_all 0 || ktap_diag "a switch back to cluster 0 failed"
ktap_expect "back on cluster 0: each logical CPU reads an A15's MPIDR and part" "$want_a15" "$(ids)"
ktap_expect "A7 cluster held in reset (RST_STAT1)" 0x10f "$(wait_stat 0x60000010 0x10f)"
ktap_expect "A7 cluster's CCI interface 4 not snooping" 0x0 "$(snoop 0x2c095000)"
ktap_done

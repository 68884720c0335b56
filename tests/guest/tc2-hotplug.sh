#!/bin/sh
# lab-test: timing=modelled platform=tc2 append=no_bL_switcher timeout=300
# Hotplug on TC2 modelled (issue 31, first part), through mainline's
# tc2_pm.c and the SPC, whole clusters included; every state is read back
# from the SCC and SPC registers (devmem), not from what the kernel
# believes:
#  - RESET_CTRL (0x7fff0018): a CPU's nCORERESET bit (A15 CPUs 2-3, A7
#    CPUs 16-18) is clear once the SPC has powered it down;
#  - WAKE_INT_MASK (0x7fff0b24): tc2_pm unmasks a CPU's wake-up as it goes
#    down (bits 0-1 A15, 4-6 A7) and masks it again once the CPU is up;
#  - A15_PWRDN_EN/A7_PWRDN_EN (0x7fff0b30/0x7fff0b34): the last man of a
#    cluster enables its power-down, the first man back disables it;
#  - the CCI-400's snoop control of each cluster's slave interface (A15s
#    on 3 at 0x2c094000, A7s on 4 at 0x2c095000; bits 0-1, snoops and
#    DVM): the last man turns its cluster's off, the first man back on.
# Cluster sleep is disabled first (cpuidle's state 1 on each CPU): the
# CPUs that stay online stay up.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
ktap_plan 7

hex() { printf '0x%x' $(($(devmem "$1" 32) & $2)); }
# spc_state: RESET_CTRL, WAKE_INT_MASK, A15 and A7 power-down enables,
# the A15 and A7 clusters' CCI snoop controls
spc_state() {
	echo "reset $(hex 0x7fff0018 0x7000c) wake $(hex 0x7fff0b24 0x73)" \
		"pwrdn $(hex 0x7fff0b30 1) $(hex 0x7fff0b34 1)" \
		"cci $(hex 0x2c094000 3) $(hex 0x2c095000 3)"
}
set_online() {
	for c in $2; do
		echo "$1" > /sys/devices/system/cpu/cpu$c/online || return 1
	done
}

# Cluster sleep off, every online CPU woken: they stay powered while the
# registers are read
lab_cluster_sleep off

ktap_expect "at boot: every CPU up, no wake-up unmasked, no power-down" \
	"reset 0x7000c wake 0x0 pwrdn 0x0 0x0 cci 0x3 0x3" "$(spc_state)"

set_online 0 4
ktap_expect "cpu4 (A7 CPU 2) offline: in reset, wake-up unmasked" \
	"reset 0x3000c wake 0x40 pwrdn 0x0 0x0 cci 0x3 0x3" "$(spc_state)"

set_online 0 "3 2"
ktap_expect "whole A7 cluster offline: its CPUs in reset, cluster power-down enabled, CCI port off" \
	"reset 0xc wake 0x70 pwrdn 0x0 0x1 cci 0x3 0x0" "$(spc_state)"

set_online 1 3
ktap_expect "cpu3 back: the cluster's first man, power-down disabled, its wake-up masked, CCI port on" \
	"reset 0x2000c wake 0x50 pwrdn 0x0 0x0 cci 0x3 0x3" "$(spc_state)"

set_online 1 "2 4"
set_online 0 "1 0"
ktap_expect "whole A15 cluster offline (the boot CPU too), its CCI port off" \
	"reset 0x70000 wake 0x3 pwrdn 0x1 0x0 cci 0x0 0x3" "$(spc_state)"

set_online 1 "0 1"
ktap_expect "everything back: as at boot" \
	"reset 0x7000c wake 0x0 pwrdn 0x0 0x0 cci 0x3 0x3" "$(spc_state)"
ktap_expect "online CPUs" "0-4" "$(cat /sys/devices/system/cpu/online)"
ktap_done

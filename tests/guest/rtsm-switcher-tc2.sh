#!/bin/sh
# lab-test: timing=modelled layout=2+3 smp=5 dtb=vexpress-a15-a7-tc2.dtb timeout=300
# The switcher on the modelled platform in TC2's layout (2x A15 + 3x A7,
# real per-cluster MPIDRs): two pairs, the third A7 kept offline and
# reported; after a switch to cluster 1 each logical CPU reads an A7's
# MPIDR and part number on itself (two different A7s), after the switch
# back its own A15's; MCPM and the DCSCB agree on who is up.
# shellcheck disable=SC2086,SC2016 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 5

ktap_expect "active with logical CPUs 0-1 online, directories cpu0 cpu1" "1 0-1 0 1" \
	"$(cat $SW/active) $(cat /sys/devices/system/cpu/online) $(sw_cpus | tr '\n' ' ' | sed 's/ $//')"
ktap_expect "one CPU reported without a counterpart" 1 \
	"$(dmesg | grep -c 'has no counterpart in the other cluster: kept offline')"

# cpuN MPIDR part, as each logical CPU reads them on itself
ids() { awk '$1 == "cpu0" || $1 == "cpu1" { print $1, $3, $7 }' /sys/kernel/debug/arm_cpuid; }

for n in 0 1; do sw_switch $n 1 || ktap_diag "cpu$n: switch to cluster 1 failed"; done
got=$(ids | awk '$2 ~ /^0x800001/ && $3 == "0xc07" { n++; m[$2] = 1 }
	END { k = 0; for (x in m) k++; print n + 0, k }')
ktap_expect "on cluster 1: cpu0 and cpu1 each read an A7's MPIDR and part, two different A7s" \
	"2 2" "$got"
ids | sed 's/^/# /'

for n in 0 1; do sw_switch $n 0 || ktap_diag "cpu$n: switch to cluster 0 failed"; done
ktap_expect "back on cluster 0: each reads its own A15's MPIDR and part" \
	"cpu0 0x80000000 0xc0f|cpu1 0x80000001 0xc0f" "$(ids | tr '\n' '|' | sed 's/|$//')"

if why=$(sw_consistent); then
	ktap_pass "the unpaired A7 and the idle halves are off per MCPM and the DCSCB"
else
	ktap_fail "the unpaired A7 and the idle halves are off per MCPM and the DCSCB" "$why"
fi
ktap_done

#!/bin/sh
# lab-test: timing=modelled layout=2+3 smp=5 dtb=vexpress-a15-a7-tc2.dtb timeout=300
# The switcher on the modelled platform in TC2's layout (2x A15 + 3x A7,
# real per-cluster MPIDRs): two pairs, the third A7 kept offline and
# reported; after a switch to cluster 1 each logical CPU reads an A7's
# MPIDR and part number on itself (two different A7s), after the switch
# back its own A15's; MCPM and the DCSCB agree on who is up.
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 5

sw_2plus3_opening
sw_2plus3_to_a7s
sw_ids | sed 's/^/# /'
sw_2plus3_to_a15s

if why=$(sw_consistent); then
	ktap_pass "the unpaired A7 and the idle halves are off per MCPM and the DCSCB"
else
	ktap_fail "the unpaired A7 and the idle halves are off per MCPM and the DCSCB" "$why"
fi
ktap_done

#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=600
# Whole-cluster power on the modelled platform, seen in the hardware
# registers (busybox devmem on /dev/mem): offlining the four A7s leaves
# them held in the DCSCB (RST_HOLD1 bits 3:0 and the cluster bit 8,
# RST_STAT1 0x10f: the lab's RST_STAT layout, docs/platform.md) and their
# CCI-400 slave interface 4 with snoop and DVM off; onlining them releases
# the holds and turns snoops back on.  Ten cycles.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/rtsm.sh
ktap_plan 4

before="hold $(hold1) stat $(stat1) snoop $(snoop4)"
ktap_expect "cluster 1 up at boot: no holds, snooping" "hold 0x0 stat 0x0 snoop 0x3" "$before"

bad_off="" bad_on=""
for cycle in 1 2 3 4 5 6 7 8 9 10; do
	set_cluster1 0 || { bad_off="$bad_off cycle $cycle: offline failed;"; break; }
	off="hold $(wait_for hold1 0x10f) stat $(wait_for stat1 0x10f) snoop $(snoop4)"
	[ "$off" = "hold 0x10f stat 0x10f snoop 0x0" ] || bad_off="$bad_off cycle $cycle: $off;"
	set_cluster1 1 || { bad_on="$bad_on cycle $cycle: online failed;"; break; }
	on="stat $(wait_for stat1 0x0) snoop $(snoop4) online $(cat /sys/devices/system/cpu/online)"
	[ "$on" = "stat 0x0 snoop 0x3 online 0-7" ] || bad_on="$bad_on cycle $cycle: $on;"
done
if [ -z "$bad_off" ]; then
	ktap_pass "10 cycles: offline cluster 1 is held in reset (RST_HOLD1, RST_STAT1 0x10f), CCI snoop/DVM off"
else
	ktap_fail "10 cycles: offline cluster 1 is held in reset (RST_HOLD1, RST_STAT1 0x10f), CCI snoop/DVM off" "$bad_off"
fi
if [ -z "$bad_on" ]; then
	ktap_pass "10 cycles: online cluster 1 is released, CCI snoop/DVM on"
else
	ktap_fail "10 cycles: online cluster 1 is released, CCI snoop/DVM on" "$bad_on"
fi
ktap_expect "cluster 0 untouched: interface 3 snooping" "0x3" \
	"$(printf '0x%x' $(($(devmem 0x2c094000 32) & 3)))"
ktap_done

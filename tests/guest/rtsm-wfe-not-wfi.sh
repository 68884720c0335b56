#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=60
# The DCSCB powers a CPU off when its reset hold is set and it is in WFI
# (STANDBYWFI), not while it waits in WFE (arm_cpu_in_wfi(), qemu/patches/01-arm-event-register): the lab's
# QEMU halts a CPU in WFE too (always in modelled time, where this runs),
# and the model took any halted CPU for one in WFI.  cpu5 (cluster 1 CPU
# 1) waits in a user-mode WFE loop woken by the timer's event stream, so
# it is halted in WFE nearly all the time; its reset hold is set for
# 0.2 s and released.  It must stay powered (RST_STAT1 bit 1 clear), its
# loop must finish, and nothing may be reported.  Before the fix the
# DCSCB powered it off at the write, and the kernel lost the CPU.
# shellcheck disable=SC2086 # numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/rtsm.sh
ktap_plan 3

ktap_expect "cpu5 online, cluster 1 powered: RST_HOLD1 and RST_STAT1 clear" "0x0 0x0" \
	"$(hold1) $(stat1)"

# 20000 WFEs, each ended by the event stream (every 131 us): 2.6 s
taskset -c 5 wfe-events none 20000 > /tmp/wfe-out 2>&1 &
pid=$!
sleep 0.5
hold=$(hold1)
devmem $((DCSCB + 0x4)) 32 $((hold | 0x2))
sleep 0.2
st=$(stat1)
devmem $((DCSCB + 0x4)) 32 $hold
ktap_expect "cpu5 waiting in WFE with its reset hold set: still powered (RST_STAT1)" \
	"0x0" "$st"

wait $pid
r=$?
total=$(awk '$1 == "total_us" { print $2 }' /tmp/wfe-out)
ktap_diag "wfe-events: status $r, total_us ${total:-none}"
ktap_expect "its WFE loop finished, and cpu5 is online" "0 yes 0-7" \
	"$r $([ -n "$total" ] && echo yes || echo no) $(cat /sys/devices/system/cpu/online)"
ktap_done

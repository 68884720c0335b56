#!/bin/sh
# lab-test: timing=host,modelled append=clocksource.arm_arch_timer.evtstrm=0 timeout=240
# What ends a WFE at once besides SEV and interrupts, on the lab's QEMU,
# where WFE sleeps (issue 28, item 9): an exception return sets the event
# register (the Arm ARM's list of what sets it), so a WFE right after a
# system call, or after an interrupt handler that changed what the code
# waits for, completes at once.  With the timer's event stream off, a WFE
# that sleeps through it waits for the next interrupt, the 10 ms tick:
# 200 loops of a system call and a WFE (tests/tools/wfe-events) must take
# well under one tick each.  Before QEMU set the event register on an
# exception return they took a tick each.  The check of the check: WFE
# alone in the same loop does wait for the tick.  SEVL is ARMv8: on these
# ARMv7 CPUs it is a NOP and the WFE after it waits as well
# (tests/host/wfe-v8.sh runs SEVL and the monitor on an ARMv8 CPU).
# In modelled time the figures repeat exactly.
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
ktap_plan 4

# key FILE NAME: the value of a "NAME value" line of wfe-events' output
key() { awk -v k="$2" '$1 == k { print $2; exit }' "$1"; }

ev=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)
if grep -q evtstrm /proc/cpuinfo; then
	ktap_fail "the event stream is off" "/proc/cpuinfo has evtstrm ($ev)"
else
	ktap_pass "the event stream is off" "clocksource $ev, no evtstrm in /proc/cpuinfo"
fi

# loops MODE N WHAT: N loops of MODE on cpu1; sets $rc, $total and $max
# (microseconds: all loops, the slowest one) and $why for a failure
loops() {
	rc=0
	taskset -c 1 wfe-events "$1" "$2" > /tmp/wfe.out 2> /tmp/wfe.err || rc=$?
	total=$(key /tmp/wfe.out total_us)
	max=$(key /tmp/wfe.out max_us)
	why="exit $rc, total '${total:-}' us, slowest '${max:-}' us $(cat /tmp/wfe.err)"
	[ "$rc" = 0 ] && [ -n "$total" ] && [ -n "$max" ]
}

# Other CPUs' SEVs (every arm32 spin_unlock) also end a waiting WFE, so a
# WFE that sleeps where it must not is seen by the slowest loop: no loop
# may take half a tick, and in the checks of the check one must: 200
# loops, where 40 were too few (in a modelled-time run of 2026-12-07 all
# 40 WFEs alone ended within 1.8 ms, cut short by other CPUs' SEVs; the
# figures of earlier runs had one at 7 to 10 ms).  That
# bound on one loop is asserted in modelled time, where it is the
# platform's (the slowest loop takes 1 us there); in host time a vCPU
# thread the host does not run for 5 ms makes a loop that slow (4.8 and
# 6.5 ms seen in CI on a 2-core host), so there only the 200 loops'
# total is asserted and the slowest reported.
if [ "$(lab_timing)" = modelled ]; then
	what="a system call, then WFE: completes at once (200 in < 50 ms, none >= 5 ms)"
	if loops eret 200 && [ "$total" -lt 50000 ] && [ "$max" -lt 5000 ]; then
		ktap_pass "$what" "$total us, slowest $max us"
	else
		ktap_fail "$what" "$why"
	fi
else
	what="a system call, then WFE: completes at once (200 in < 50 ms; one loop's bound in modelled time)"
	if loops eret 200 && [ "$total" -lt 50000 ]; then
		ktap_pass "$what" "$total us, slowest $max us (host time: not asserted)"
	else
		ktap_fail "$what" "$why"
	fi
fi
what="check of the check: WFE alone sleeps to an interrupt (one of 200 >= 5 ms)"
if loops none 200 && [ "$max" -ge 5000 ]; then
	ktap_pass "$what" "$total us, slowest $max us"
else
	ktap_fail "$what" "$why"
fi
what="SEVL on ARMv7 is a NOP: a WFE after it sleeps too (one of 200 >= 5 ms)"
if loops sevl 200 && [ "$max" -ge 5000 ]; then
	ktap_pass "$what" "$total us, slowest $max us"
else
	ktap_fail "$what" "$why"
fi
ktap_done

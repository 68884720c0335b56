#!/bin/sh
# lab-test: platform=rtsm dtb=vexpress-a15-a7.dtb timeout=300 klog-expect='^<4>\[[ 0-9.]*\] (WARNING: suspicious RCU usage|\[ BUG: Invalid wait context \])$'
# A pingpong switch storm on the modelled platform, with dcscb.c as the MCPM
# backend: switch-storm's own checks (each logical CPU on exactly one
# physical CPU, MCPM's states agree with the DCSCB's RST_STAT, clean kernel
# log) and the race it targets there, powerup_during_powerdown, moving.
. /usr/share/lab/ktap.sh
ktap_plan 1
out=$(switch-storm -m pingpong -d 20 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	ktap_pass "pingpong storm on dcscb.c" "$(echo "$out" | grep -E '^(switches|delta_powerup_during_powerdown) ' | tr '\n' ' ')"
else
	ktap_fail "pingpong storm on dcscb.c" "$(echo "$out" | grep -A3 '^result' | tr '\n' ' ')"
fi
ktap_done

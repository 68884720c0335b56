#!/bin/sh
# lab-test: timing=modelled timeout=300
# A slow power controller (mcpm/fault_delay_power_up_us, 30 ms) and an
# inbound CPU asked for again before it has reached its power-off: its use
# count went to 0, it is on its way down (as its cluster's last man, it
# may already have asked for the cluster's teardown), and a switch back
# to it comes in.  It aborts its power-down and runs on, so the backend's
# call (on DCSCB, the release of the hold the cluster's power-up has just
# set) must come at once: deferred, the CPU ran held and the DCSCB
# powered it off at its next WFI with its cache on (the checker's
# cpu-off-cached), losing logical cpu0 (an RCU stall, then the time
# limit).  cpu0 switches back and forth with gaps from 0 to 4.9 ms, in
# modelled time, so that some requests come while the A7 is on its way
# down: fault_delay_not_off counts those (the window was hit).
# shellcheck disable=SC2086,SC2016 # CPU numbers and sysfs paths are single words; single-quoted code runs in the pinned shell
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 4

DELAY=$MCPM_DIR/fault_delay_power_up_us
n0=$(mcpm_stat fault_delay_not_off)
echo 30000 > $DELAY
bad=""
i=0
while [ $i -lt 50 ]; do
	sw_switch 0 1 || bad="$bad $i:to-1"
	sw_switch 0 0 || bad="$bad $i:to-0"
	[ $i -gt 0 ] && usleep $((i * 100))
	i=$((i + 1))
done
echo 0 > $DELAY
ktap_expect "50 round trips of cpu0 with a 30 ms power-up: every switch succeeds" "" "$bad"
hits=$(($(mcpm_stat fault_delay_not_off) - n0))
if [ "$hits" -gt 0 ]; then
	ktap_pass "the window was hit: power-ups of an A7 not yet off" "$hits of them"
else
	ktap_fail "the window was hit: power-ups of an A7 not yet off" "fault_delay_not_off moved by $hits"
fi
if why=$(sw_consistent_within 50); then
	ktap_pass "MCPM and the power controller agree afterwards"
else
	ktap_fail "MCPM and the power controller agree afterwards" "$why"
fi
r=""
for n in $(sw_cpus); do
	r="$r$(taskset -c $n sh -c 'echo $((6 * 7))' 2>/dev/null)"
done
ktap_expect "every logical CPU runs a task (none lost)" "42424242" "$r"
ktap_done

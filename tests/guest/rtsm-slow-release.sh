#!/bin/sh
# lab-test: platform=rtsm timing=host,modelled timeout=300 qemu-global=vexpress-dcscb.cpu-on-delay-ns=100000000
# A CPU that stays in reset after its release (issue 28, item 3).  The
# DCSCB model here keeps a released CPU in reset 100 ms (of the virtual
# clock: cpu-on-delay-ns, as a power switch and reset sequencer take time
# on silicon), RST_STAT reading it off meanwhile; the switcher's inbound
# timeout is 20 ms, so every switch outlives its timeout with the inbound
# still in reset, and the switcher asks MCPM to cancel its power-up.
#  - the DCSCB backend must report such a CPU on its way (its hold is
#    released), not off: the cancel answers EBUSY (power_up_cancel_busy),
#    the switcher waits and the switch completes with a late inbound.
#    Before its RST_HOLD check (kernel 03/0018) the cancel took the use count to 0 and left the
#    hold released: the CPU came 80 ms later, parked at the gate with a use
#    count of 0, and its cluster could never tear down;
#  - with mcpm/fault_no_power_state (a backend that cannot tell a CPU's
#    power state, as tc2_pm.c) the switcher waits for it the same way and
#    does not mark the pair broken (kernel 03/0015; before, broken at once).
# Afterwards MCPM and the DCSCB agree, the A7 cluster tears down when the
# CPUs go back, and no pair is broken.  Runs in both timings: in modelled
# time QEMU stopped at the first switch ("Bad icount read") until the
# DCSCB stopped reading the virtual clock for a CPU entering WFI (QEMU
# patch 04/0001).
# shellcheck disable=SC2086 # CPU numbers and sysfs paths are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 6

PARAM=/sys/module/bL_switcher/parameters/inbound_timeout_ms
NOSTATE=$MCPM_DIR/fault_no_power_state
echo 20 > $PARAM

# late_switch N: switch logical CPU N to cluster 1 and back; prints
# "RC_THERE RC_BACK cancels cancel_busy late_inbounds" (the counters'
# increases over the two switches)
late_switch() {
	c0=$(mcpm_stat power_up_cancel)
	b0=$(mcpm_stat power_up_cancel_busy)
	l0=$(sw_stat late_inbounds)
	sw_switch $1 1 && r1=0 || r1=$?
	sw_switch $1 0 && r2=0 || r2=$?
	echo "$r1 $r2 $(($(mcpm_stat power_up_cancel) - c0))" \
		"$(($(mcpm_stat power_up_cancel_busy) - b0)) $(($(sw_stat late_inbounds) - l0))"
}

# Each switch (there and back) outlives its 20 ms timeout: the cancel
# finds the inbound in reset with its hold released, both times.
ktap_expect "cpu0 to its A7 and back, inbounds 100 ms in reset: both complete late, no cancel, 2 cancels busy" \
	"0 0 0 2 2" "$(late_switch 0)"
if why=$(sw_consistent); then
	ktap_pass "MCPM and the DCSCB agree afterwards (no CPU parked with use count 0)"
else
	ktap_fail "MCPM and the DCSCB agree afterwards (no CPU parked with use count 0)" "$why"
fi
ktap_expect "the A7 cluster is down again (its teardown not blocked)" "DOWN" \
	"$(mcpm_cluster_state 1 | cut -d' ' -f1)"

echo Y > $NOSTATE
l0=$(sw_stat late_inbounds)
sw_switch 1 1 && r1=0 || r1=$?
sw_switch 1 0 && r2=0 || r2=$?
echo N > $NOSTATE
ktap_expect "no power state to ask (as tc2_pm.c): cpu1 there and back both complete late" \
	"0 0 2" "$r1 $r2 $(($(sw_stat late_inbounds) - l0))"
echo 1000 > $PARAM

bad=""
for n in $(sw_cpus); do
	sw_switch $n 1 || bad="$bad cpu$n:there"
	sw_switch $n 0 || bad="$bad cpu$n:back"
done
ktap_expect "every logical CPU switches both ways afterwards (1 s timeout)" "" "$bad"
ktap_expect "no pair broken, MCPM and the DCSCB agree" "0 ok" \
	"$(dmesg | grep -c 'switching CPU[0-9]* disabled') $(sw_consistent > /dev/null && echo ok)"
ktap_done

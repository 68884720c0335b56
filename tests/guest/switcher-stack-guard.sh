#!/bin/sh
# lab-test: timeout=300 klog-expect='overran its 1024-byte outbound stack'
# Issue 11, defect 11: the outbound CPU of a switch runs on a 1 KiB stack
# of its own, one per physical CPU; the vmap stack overflow check does not
# cover it.  A guard word at its bottom is checked by that CPU each time it
# comes back as an inbound.  The test double bL_switcher/test_overrun_stack
# (CONFIG_BL_SWITCHER_STACK_TEST) makes the next outbound scribble its
# guard, as a call chain too deep for the stack would: the overrun must be
# reported (KERN_CRIT, stack_overruns in stats) when that CPU comes back,
# once; switch storms without it must report none.  How deep the
# outbound path goes is measured by the paint it leaves (stack_max_used
# in stats, kernel 03/0028): after the storm it must be above 0 and at most
# half the stack, 156 bytes through the DCSCB here.
# shellcheck disable=SC2086,SC2046 # CPU numbers and sysfs paths are single words; sw_cpus lists words
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 5

T=/sys/kernel/debug/bL_switcher/test_overrun_stack
ktap_expect "test double present (root only), no overrun after boot" "600 0" \
	"$(stat -c %a $T 2>&1) $(sw_stat stack_overruns)"

out=$(bl-storm pingpong 10 $(sw_cpus) 2>&1)
rc=$?
sw=$(echo "$out" | awk '$1 == "ok" { print $2 }')
ktap_expect "a pingpong storm (${sw:-?} switches) overruns no stack" "0 0" \
	"$rc $(sw_stat stack_overruns)"
used=$(sw_stat stack_max_used)
if [ "$used" -gt 0 ] 2>/dev/null && [ "$used" -le 512 ]; then
	ktap_pass "the storm used $used bytes of the 1024-byte outbound stack, at most half"
else
	ktap_fail "the storm used at most half of the 1024-byte outbound stack" "stack_max_used $used"
fi

# The outbound of cpu0's switch to cluster 1 scribbles its guard; that
# physical CPU checks it when it comes back with the switch back.
[ "$(sw_cluster 0)" = 0 ] || sw_switch 0 0
ob=$(sw_mpidr 0)
c=$(mcpm_cpu_field $ob cpu)
cl=$(mcpm_cpu_field $ob cluster)
klog_expect_begin
echo 1 > $T
sw_switch 0 1 || echo "switch to cluster 1 failed"
sw_switch 0 0 || echo "switch back failed"
msg=$(dmesg | grep -c "CPU $c cluster $cl overran its 1024-byte outbound stack")
ktap_expect "scribbled guard of CPU $c cluster $cl: reported once when it came back" \
	"1 1 0" "$(sw_stat stack_overruns) $msg $(cat $T)"
klog_expect_end

for n in $(sw_cpus); do
	sw_switch $n 1
	sw_switch $n 0
done
ktap_expect "guard armed again: further switches report nothing" "1" "$(sw_stat stack_overruns)"
ktap_done

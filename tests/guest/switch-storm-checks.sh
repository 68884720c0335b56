#!/bin/sh
# lab-test: platform=rtsm,virt timeout=600 klog-expect='__bL_switch_to: mcpm_cpu_power_up\(\) returned -5'
# switch-storm's own checks, in host time (in modelled time the chaos
# storm's hotplug vetoes come fast enough for their printk ratelimit,
# docs/timing.md); its refusals of bad arguments are
# tests/guest/switch-storm-args.sh, in modelled time.  -h prints help.
# Failures: a chaos storm under which switches fail (a fault injected
# behind its back) must report FAILED, and a storm that injects its own
# faults (-f) must account every failed switch to one of them; a
# statistic missing from the kernel's files fails the storm.
# shellcheck disable=SC2086 # argument lists are split on purpose
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 6

rc=0
switch-storm -h > /tmp/out 2>&1 || rc=$?
if [ "$rc" = 0 ] && grep -q '^usage: switch-storm' /tmp/out && ! grep -q shellcheck /tmp/out; then
	ktap_pass "switch-storm -h: help on stdout, exit 0"
else
	ktap_fail "switch-storm -h: help on stdout, exit 0" "exit $rc: $(head -n 3 /tmp/out | tr '\n' ' ')"
fi

# The storms below check what switch-storm reports, not races (tests/guest/
# storms.sh runs those): a few seconds each, in which the injected faults
# are used up within the first (tens of switches a second).
# A chaos storm during which switches fail: 3 failing power-ups injected
# behind switch-storm's back must make it fail.
klog_expect_begin
mcpm_fault_arm fail_power_up 3
rc=0
out=$(switch-storm -m chaos -d 5 2>&1) || rc=$?
left=$(mcpm_fault_left fail_power_up)
mcpm_fault_arm fail_power_up 0
echo "$out" | sed 's/^/# /'
if [ "$rc" = 1 ] && echo "$out" | grep -q '^result FAILED' && echo "$out" | grep -q 'switches failed'; then
	ktap_pass "chaos with $((3 - left)) failed switches it did not inject: result FAILED"
else
	ktap_fail "chaos with $((3 - left)) failed switches it did not inject: result FAILED" "exit $rc"
fi

# A storm that injects its own faults: every failure is one of them.
rc=0
out=$(switch-storm -m random -d 4 -f 3 2>&1) || rc=$?
echo "$out" | sed 's/^/# /'
used=$(echo "$out" | awk '$1 == "faults_used" { print $2 }')
fl=$(echo "$out" | awk '$1 == "failures" { print $2 }')
if [ "$rc" = 0 ] && echo "$out" | grep -qx 'result ok' && [ "${used:-0}" -gt 0 ] && [ "$fl" = "$used" ]; then
	ktap_pass "random -f 3: $fl failed switches, each an injected fault"
else
	ktap_fail "random -f 3: $fl failed switches, each an injected fault" "exit $rc, used ${used:-?}"
fi

# And one that was not told: the same faults fail it.
mcpm_fault_arm fail_power_up 2
rc=0
out=$(switch-storm -m random -d 4 2>&1) || rc=$?
mcpm_fault_arm fail_power_up 0
if [ "$rc" = 1 ] && echo "$out" | grep -q 'switches failed'; then
	ktap_pass "random with faults it did not inject: result FAILED"
else
	ktap_fail "random with faults it did not inject: result FAILED" "exit $rc: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
fi
klog_expect_end

# A statistic that is not there must fail the storm, not read as 0: a
# test double, a copy of mcpm/stats without vlock_contended bind-mounted
# over the real file for the length of one storm.
grep -v '^vlock_contended ' $MCPM_DIR/stats > /tmp/stats.double
mount --bind /tmp/stats.double $MCPM_DIR/stats
rc=0
out=$(switch-storm -m pingpong -d 2 2>&1) || rc=$?
umount $MCPM_DIR/stats
if [ "$rc" = 1 ] && echo "$out" | grep -q '^result FAILED' &&
	echo "$out" | grep -q 'statistics missing: vlock_contended'; then
	ktap_pass "mcpm/stats without vlock_contended (a test double): result FAILED, naming it"
else
	ktap_fail "mcpm/stats without vlock_contended (a test double): result FAILED, naming it" \
		"exit $rc: $(echo "$out" | sed -n '/^result/,$p' | tr '\n' ' ')"
fi
ktap_expect "the real mcpm/stats is back after the double" "1" \
	"$(grep -c '^vlock_contended ' $MCPM_DIR/stats)"
ktap_done

#!/bin/sh
# lab-test: timeout=400
# switch-storm -m pingpong for 60 s on the debug kernel: the invariants hold
# after the storm and every MCPM race counter the mode targets moved
# (switcher/switch-storm says which; docs/storms.md has the figures).
. /usr/share/lab/ktap.sh
ktap_plan 1

out=$(switch-storm -m pingpong -d ${1:-60} 2>&1)
echo "$out" | sed 's/^/# /'
if echo "$out" | grep -qx "result ok"; then
	ktap_pass "switch-storm pingpong: invariants hold, targeted race counters moved" \
		"$(echo "$out" | grep -E '^(switches|failures|switches_per_second|delta_(vlock_contended|powerup_during_powerdown|psci_already_on_retry|teardown_abort)) ' | tr '\n' ' ')"
else
	ktap_fail "switch-storm pingpong: invariants hold, targeted race counters moved" \
		"$(echo "$out" | sed -n '/^result/,$p' | tr '\n' ' ')"
fi
ktap_done

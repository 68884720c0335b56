#!/bin/sh
# lab-test: platform=rtsm,tc2 timeout=1200
# switch-storm in each of its modes for 8 s (first argument to change it)
# on the debug kernel, one after the other in one boot: after each storm
# the invariants hold and every MCPM race counter the mode targets moved
# (switcher/switch-storm says which; docs/storms.md has the figures), and
# each cluster was set up as often as it was torn down, but for its change
# of state.  On rtsm (4+4, DCSCB) and on tc2 (TC2 modelled: 2+3, two
# logical CPUs, mainline's tc2_pm.c over the SPC, cpuidle's cluster sleep
# on during the storms), where random, pingpong and together also target
# teardown_abort: an idle CPU woken by an interrupt while its cluster's
# last man tears down.
# random, pingpong and together go on, a storm's length at a time, until
# their targeted windows were hit: 15 lengths (120 s) at most (-u).  In
# the three CIs of 2026-12-07 every targeted counter moved in a mode's
# first 15 s, the rarest (teardown_abort of random on tc2) 5 to 15 times,
# the others tens or hundreds of times: most 8 s storms take one length.
# shellcheck disable=SC2086 # the durations and modes are single words
. /usr/share/lab/ktap.sh
ktap_plan 5

for mode in random pingpong together chaos governor; do
	# -u: storm on (bounded) until the targeted windows were hit; chaos
	# and governor target only cluster setup/teardown, hit every second
	until=""
	case $mode in random | pingpong | together) until="-u $((${1:-8} * 15))" ;; esac
	out=$(switch-storm -m $mode -d ${1:-8} $until 2>&1)
	echo "$out" | sed 's/^/# /'
	if echo "$out" | grep -qx "result ok"; then
		ktap_pass "switch-storm $mode: invariants hold, targeted race counters moved" \
			"$(echo "$out" | grep -E '^(switches|failures|switches_per_second|storm_chunks|cluster_setups_teardowns|delta_(vlock_contended|powerup_during_powerdown|psci_already_on_retry|teardown_abort)) ' | tr '\n' ' ')"
	else
		ktap_fail "switch-storm $mode: invariants hold, targeted race counters moved" \
			"$(echo "$out" | sed -n '/^result/,$p' | tr '\n' ' ')"
	fi
done
ktap_done

#!/bin/sh
# The guest side of make bench (scripts/bench): IKS switches, isolated and
# concurrent, then migration by CPU hotplug, in one boot.
SW=/sys/kernel/bL_switcher
N=${1:-1000}
HP=${2:-100}
echo "@@BENCH-START@@"
snap() { grep -E '^(switches|phase_[a-z_]+_ns_mean) ' $SW/stats | sed "s/^/$1 /"; }
snap stats_before
bl-bench switch "$N" 1 || exit 1
snap stats_isolated
bl-bench switch "$((N / 4))" 0 1 2 3 || exit 1
snap stats_concurrent
echo 0 > $SW/active
# cpu1 is an A15; its A7 counterpart is the CPU whose DT reg is 6
bl-bench hotplug "$HP" 1 6 || exit 1
echo 1 > $SW/active
echo "@@BENCH-END@@"

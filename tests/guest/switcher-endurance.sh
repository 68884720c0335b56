#!/bin/sh
# lab-test: timing=modelled timeout=900
# 2000 switches (500 per logical CPU, all four concurrently) on a kernel
# with VMAP_STACK: the outbound's stack handling used to give way after
# about 1600.  All must succeed, and the state must be consistent after.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 3

PER_CPU=${1:-500}
s0=$(sw_stat switches)
f0=$(sw_stat failures)
for n in 0 1 2 3; do
	( i=0; while [ $i -lt "$PER_CPU" ]; do sw_switch $n $(((i + 1) % 2)); i=$((i + 1)); done ) &
done
wait
ktap_expect "$((4 * PER_CPU)) switches done, none failed" "$((4 * PER_CPU)) 0" \
	"$(($(sw_stat switches) - s0)) $(($(sw_stat failures) - f0))"
if why=$(sw_consistent); then
	ktap_pass "MCPM and the power controller agree after the run"
else
	ktap_fail "MCPM and the power controller agree after the run" "$why"
fi
ktap_diag "$(grep -E '^latency_ns_(p50|p99|max)' $SWD/stats | tr '\n' ' ')"
n=0
for c in 0 1 2 3; do
	taskset -c $c sh -c 'echo $((6 * 7))' | grep -qx 42 && n=$((n + 1))
done
ktap_expect "every logical CPU runs a task" 4 "$n"
ktap_done

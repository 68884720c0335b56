#!/bin/sh
# lab-test: platform=tc2 append=no_bL_switcher timeout=300
# The race MCPM's cluster state machine exists for, hit on TC2 modelled
# (issue 31): a CPU of a cluster coming up while the cluster's last man
# tears it down.  Cluster idle takes the A7 cluster down whenever its
# CPUs sleep; tests/tools/teardown-race wakes CPU 3 by a timer at a
# sweeping offset (0-300 us, 1 us steps, 301 rounds 10 ms apart) after
# CPUs 2 and 4 went idle together, so that some wake-ups land while the
# last man is in its teardown.  Sweeps are repeated (at least 1, at most
# 20) until MCPM has aborted a teardown ("teardown_abort" in mcpm/stats above
# zero: the window was hit), as the storms do with their race counters.
# Nothing may be lost: every CPU online, the SPC showing them all back
# up, a clean kernel log and QEMU log (tests/run checks both).
# Host time, where the vCPUs run in parallel: in modelled time they take
# turns, and the window, a few of the last man's instructions, was hit
# once in 1000-3000 teardowns with a 1 us quantum, never with the
# default 10 us.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
ktap_plan 4

st() { awk -v k="$1" '$1 == k { print $2 }' /sys/kernel/debug/mcpm/stats; }
a0=$(st teardown_abort) t0=$(st cluster1_teardown) s0=$(st cluster1_setup)
taskset -p -c 0 $$ >/dev/null
sweeps=0 failed=""
while [ $sweeps -eq 0 ] || { [ $sweeps -lt 20 ] && [ "$(st teardown_abort)" -eq "$a0" ]; }; do
	out=$(teardown-race 2 3 10000 300 1000 4) || failed="exit status $?: $out"
	sweeps=$((sweeps + 1))
	[ -z "$failed" ] || break
done
if [ -z "$failed" ]; then
	ktap_pass "teardown-race sweeps on the A7 cluster" "$sweeps sweeps: $out"
else
	ktap_fail "teardown-race sweeps on the A7 cluster" "$failed"
fi
aborts=$(($(st teardown_abort) - a0))
downs=$(($(st cluster1_teardown) - t0)) ups=$(($(st cluster1_setup) - s0))
if [ $aborts -gt 0 ]; then
	ktap_pass "teardown_abort hit: the inbound came up during the last man's teardown" \
		"$aborts aborted teardowns in $sweeps sweeps; cluster 1: $downs teardowns, $ups setups"
else
	ktap_fail "teardown_abort hit: the inbound came up during the last man's teardown" \
		"none in $downs teardowns ($sweeps sweeps)"
fi
ktap_expect "every CPU still online" "0-4" "$(cat /sys/devices/system/cpu/online)"

# Every CPU powered again: cluster sleep off on each, each woken once,
# then RESET_CTRL (0x7fff0018) has every nCORERESET set
lab_cluster_sleep off
ktap_expect "the SPC: every CPU powered" "0x7000c" \
	"$(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0x7000c)))"
ktap_done

#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=300 qemu-expect='power-sequencing violation #[0-9]+ \(cpu-off-cached\): cluster 1 CPU 1 powered off \(RST_HOLD1 0x002\) with its data cache on \(SCTLR\.C\)' qemu-expect-count=1
# A check of the checker's rule cpu-off-cached (docs/platform.md; issue 28,
# item 13): a CPU powered off with its data cache on, the most common
# per-CPU power-down bug (a skipped v7_exit_coherency_flush(louis)), which
# no rule caught before.  First the clean case: cpu5 (cluster 1 CPU 1)
# goes offline and online with nothing reported.  Then
# mcpm/fault_skip_cpu_cache_disable, a test double, makes the next CPU
# power-down that is not a cluster's last skip its cache disable and
# flush: offlining cpu5 with it set must be reported once
# (qemu-expect-count=1; any other report fails the suite, as on every
# rtsm suite), and the CPU comes back cleanly afterwards.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/rtsm.sh
ktap_plan 4

SKIP=$MCPM_DIR/fault_skip_cpu_cache_disable
ktap_expect "the knob: mode 600, nothing pending" "600 0" "$(stat -c %a $SKIP) $(cat $SKIP)"

set_cpus 0 5 || ktap_diag "offlining cpu5 failed"
off=$(wait_for stat1 0x2)
set_cpus 1 5 || ktap_diag "onlining cpu5 failed"
ktap_expect "clean case: cpu5 offline (held in reset) and back, nothing reported" \
	"off 0x2 on 0x0" "off $off on $(wait_for stat1 0x0)"

echo 1 > $SKIP
set_cpus 0 5 || ktap_diag "offlining cpu5 failed"
ktap_expect "cpu5 offline with its cache disable skipped: held in reset, knob consumed" \
	"stat 0x2 pending 0" "stat $(wait_for stat1 0x2) pending $(cat $SKIP)"

set_cpus 1 5 || ktap_diag "onlining cpu5 failed"
ktap_expect "cpu5 back online afterwards" "stat 0x0 online 0-7" \
	"stat $(wait_for stat1 0x0) online $(cat /sys/devices/system/cpu/online)"
ktap_done

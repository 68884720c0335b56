#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=300 qemu-expect='power-sequencing violation #[0-9]+ (\(snoop-off-cached\): CCI-400 slave interface 4 told to stop snoops and DVM messages while cluster 1 CPU [0-3] has its data cache on|\(cpu-off-cached\): cluster 1 CPU [0-3] powered off \(RST_HOLD1 0x10f\) with its data cache on|\(cluster-reset-unheld\): cluster 1 reset asserted \(RST_HOLD1 0x10e\) while its CPU 0 is not held)' qemu-expect-count=3
# A check of the power-sequencing checker of the modelled platform (QEMU's
# DCSCB model, docs/platform.md): mcpm/fault_skip_cluster_cache_disable, a
# test double, makes the last man of the next cluster power-down disable
# its CCI-400 port with its data cache still on.  Offlining the four A7s
# with it set must make QEMU report snoop-off-cached for cluster 1, and
# then cpu-off-cached when that last man is powered off with its cache
# still on (since the checker's rule cpu-off-cached, qemu/patches/06-lab-tooling): the header's qemu-expect= makes
# tests/run fail the suite if a report is missing (and any other report
# fails it as on every rtsm suite).  The knob is consumed by that one
# power-down.  With the cluster down, the suite then releases CPU 0's
# hold in RST_HOLD1 (devmem) while the cluster reset stays asserted, and
# restores it: the checker must report cluster-reset-unheld (the cluster
# stays in reset, so nothing runs).  The three reports, and no others:
# qemu-expect-count=3.  The cluster comes back.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/rtsm.sh
ktap_plan 5

SKIP=$MCPM_DIR/fault_skip_cluster_cache_disable
echo 1 > $SKIP
ktap_expect "fault_skip_cluster_cache_disable: mode 600, set to 1" "600 1" \
	"$(stat -c %a $SKIP) $(cat $SKIP)"

set_cluster1 0 || ktap_diag "offlining cluster 1 failed"
ktap_expect "cluster 1 offline: held in reset, CCI slave interface 4 off" \
	"stat 0x10f snoop 0x0" "stat $(wait_for stat1 0x10f) snoop $(snoop4)"

ktap_expect "the knob was consumed by that one cluster power-down" "0" "$(cat $SKIP)"

# rule cluster-reset-unheld: CPU 0 not held under an asserted cluster reset
devmem $((DCSCB + 0x4)) 32 0x10e
h=$(hold1)
devmem $((DCSCB + 0x4)) 32 0x10f
ktap_expect "RST_HOLD1 0x10e (CPU 0 unheld, cluster reset on) then 0x10f: cluster stays in reset" \
	"hold 0x10e then 0x10f stat 0x10f" "hold $h then $(hold1) stat $(stat1)"

set_cluster1 1 || ktap_diag "onlining cluster 1 failed"
ktap_expect "cluster 1 back: released, snooping, all CPUs online" \
	"stat 0x0 snoop 0x3 online 0-7" \
	"stat $(wait_for stat1 0x0) snoop $(snoop4) online $(cat /sys/devices/system/cpu/online)"
ktap_done

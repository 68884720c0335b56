#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=300 qemu-expect='power-sequencing violation #[0-9]+ \(cached-not-snooping\): cluster 1 CPU 0 runs with its data cache on \(SCTLR\.C\) while CCI-400 slave interface 4 does not snoop' qemu-expect-count=1
# A check of the checker's second rule, cached-not-snooping
# (docs/platform.md): mcpm/fault_skip_cluster_setup, a test double, makes
# the next first man of a cluster skip its cluster-level power_up_setup,
# which on the DCSCB enables the cluster's CCI-400 port.  With cluster 1
# down, onlining cpu4 alone (cluster 1 CPU 0) with the knob set leaves
# slave interface 4 off while cpu4 turns its data cache on: QEMU must
# report cached-not-snooping for it, once (qemu-expect-count=1; any other
# report fails the suite as on every rtsm suite).  Taking cpu4 down again
# turns its cache off, which ends the episode; the cluster then comes back
# normally, snooping.  Bad knob values are refused and change nothing.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/rtsm.sh
ktap_plan 6

SKIP=$MCPM_DIR/fault_skip_cluster_setup
bad=""
for v in 2 -1 x ""; do
	if echo "$v" 2>/dev/null > $SKIP; then bad="$bad '$v' accepted"; fi
done
ktap_expect "bad cluster numbers refused, nothing pending; mode 600" "600 0$bad" \
	"$(stat -c %a $SKIP) $(cat $SKIP)"

set_cpus 0 4 5 6 7 || ktap_diag "offlining cluster 1 failed"
ktap_expect "cluster 1 offline: held in reset, CCI slave interface 4 off" \
	"stat 0x10f snoop 0x0" "stat $(wait_for stat1 0x10f) snoop $(snoop4)"

echo 1 > $SKIP
ktap_expect "cluster 1's setup skip pending (mask 0x2)" 2 "$(cat $SKIP)"

set_cpus 1 4 || ktap_diag "onlining cpu4 failed"
ktap_expect "cpu4 online with its cluster's setup skipped: interface 4 still off, knob consumed" \
	"online 0-4 stat 0xe snoop 0x0 pending 0" \
	"online $(cat /sys/devices/system/cpu/online) stat $(wait_for stat1 0xe) snoop $(snoop4) pending $(cat $SKIP)"

set_cpus 0 4 || ktap_diag "offlining cpu4 failed"
ktap_expect "cpu4 offline again: cluster 1 held in reset" "stat 0x10f" \
	"stat $(wait_for stat1 0x10f)"

set_cpus 1 4 5 6 7 || ktap_diag "onlining cluster 1 failed"
ktap_expect "cluster 1 back: released, snooping, all CPUs online" \
	"stat 0x0 snoop 0x3 online 0-7" \
	"stat $(wait_for stat1 0x0) snoop $(snoop4) online $(cat /sys/devices/system/cpu/online)"
ktap_done

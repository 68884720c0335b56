#!/bin/sh
# lab-test: timing=modelled platform=rtsm append=no_bL_switcher timeout=300 qemu-expect='power-sequencing violation #[0-9]+ \(cached-not-snooping\): cluster 1 CPU 0 ran with its data cache on \(SCTLR\.C\) while CCI-400 slave interface 4 did not snoop \(seen at its snoop enable\)' qemu-expect-count=1
# A check of the checker (issue 28, item 13): a cached CPU on a port
# enabled late.  mcpm/fault_late_port_enable (kernel 05/0012), a test double, makes the
# next first man of a cluster skip its power_up_setup (which enables the
# cluster's CCI-400 port with the MMU and cache off) and enable the port
# itself once in the kernel, with its cache on.  Until then it ran cached
# without snooping; if nothing else looked meanwhile (a WFI, a DCSCB or CCI
# access of any CPU: here CPUs 0-3 spin instead of idling), only a check
# at the snoop-enable write sees it.  The checker's patch (qemu/patches/06-lab-tooling) has that check: the
# suite wants exactly that report, once (qemu-expect-count=1, its text
# "seen at its snoop enable"); without the check QEMU reports nothing and
# the suite fails.  The clean cases around it report nothing: cluster 1
# down and up again through the normal path.
# shellcheck disable=SC2086,SC2016 # CPU numbers are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/rtsm.sh
ktap_plan 5

LATE=$MCPM_DIR/fault_late_port_enable
bad=""
for v in 2 -1 x ""; do
	if echo "$v" 2>/dev/null > $LATE; then bad="$bad '$v' accepted"; fi
done
ktap_expect "bad cluster numbers refused, nothing pending; mode 600" "600 0$bad" \
	"$(stat -c %a $LATE) $(cat $LATE)"

set_cpus 0 4 5 6 7 || ktap_diag "offlining cluster 1 failed"
ktap_expect "cluster 1 offline: held in reset, CCI slave interface 4 off" \
	"stat 0x10f snoop 0x0" "stat $(wait_for stat1 0x10f) snoop $(snoop4)"

# CPUs 0-3 busy: none of them enters WFI while cpu4 comes up.
pids=""
for n in 0 1 2 3; do
	taskset -c $n sh -c 'while :; do :; done' &
	pids="$pids $!"
done
echo 1 > $LATE
set_cpus 1 4 || ktap_diag "onlining cpu4 failed"
kill $pids
wait 2>/dev/null
ktap_expect "cpu4 online, its port enabled late by itself: interface 4 snooping, knob consumed" \
	"online 0-4 snoop 0x3 pending 0 skip 0" \
	"online $(cat /sys/devices/system/cpu/online) snoop $(snoop4) pending $(cat $LATE) skip $(cat $MCPM_DIR/fault_skip_cluster_setup)"

set_cpus 0 4 || ktap_diag "offlining cpu4 failed"
ktap_expect "cpu4 offline again: cluster 1 held in reset, interface 4 off" \
	"stat 0x10f snoop 0x0" "stat $(wait_for stat1 0x10f) snoop $(snoop4)"

set_cpus 1 4 5 6 7 || ktap_diag "onlining cluster 1 failed"
ktap_expect "cluster 1 back the normal way: released, snooping, all CPUs online" \
	"stat 0x0 snoop 0x3 online 0-7" \
	"stat $(wait_for stat1 0x0) snoop $(snoop4) online $(cat /sys/devices/system/cpu/online)"
ktap_done

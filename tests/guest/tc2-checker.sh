#!/bin/sh
# lab-test: timing=modelled platform=tc2 append=no_bL_switcher timeout=300 qemu-expect='vexpress-tc2-scc: power-sequencing violation #[1-4] (\(snoop-off-cached\): CCI-400 slave interface 4 told to stop snoops and DVM messages while cluster 1 CPU [0-2] has its data cache on|\(cpu-off-cached\): cluster 1 CPU 2 powered off \(by the SPC in WFI, its wake-up unmasked\) with its data cache on)' qemu-expect-count=4
# A check of the power-sequencing checker on TC2 modelled (QEMU's SPC
# model embeds it, qemu/patches/08-lab-tooling-tc2): every tc2 suite runs
# under it and fails on any report in the QEMU log, so this one shows
# that it reports.  With cluster sleep off (every A7 powered, in WFI,
# its data cache on), the A7 cluster's CCI-400 slave interface (4, at
# 0x2c095000) is told to stop snooping, by devmem from an A15: the
# checker must report snoop-off-cached once for each of the three A7s,
# and nothing when the interface snoops again (the same episode).  The
# header's qemu-expect= makes tests/run fail the suite if a report is
# missing or another appears.  Then cpu-off-cached:
# mcpm/fault_skip_cpu_cache_disable, a test double (kernel 05/0008),
# makes the next CPU power-down that is not its cluster's last skip the
# CPU's cache disable, and cpu4 (cluster 1 CPU 2) is taken offline: the
# SPC powers it down in WFI with its cache on, reported once; the same
# done right before it, nothing.  QEMU has no caches: nothing is lost,
# and the cluster runs on.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
. /usr/share/lab/mcpm.sh
ktap_plan 6

A7_SNOOP=0x2c095000
snoop() { printf '0x%x' $(($(devmem $A7_SNOOP 32) & 3)); }
taskset -p -c 0 $$ >/dev/null
lab_cluster_sleep off
ktap_expect "A7 cluster's interface snoops, every A7 powered (RESET_CTRL)" \
	"0x3 0x70000" "$(snoop) $(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0x70000)))"

devmem $A7_SNOOP 32 0
off=$(snoop)
devmem $A7_SNOOP 32 3
ktap_expect "interface 4 told to stop snooping, then to snoop again" \
	"0x0 0x3" "$off $(snoop)"

# The A7s still run: a task on each
ran=""
for c in 2 3 4; do ran="$ran$(taskset -c $c cat /proc/self/stat | awk '{ print $39 }')"; done
ktap_expect "each A7 runs a task afterwards" "234" "$ran"

# cpu-off-cached, cluster sleep still off (an idle CPU's power-down would
# take the knob): cpu4's nCORERESET is bit 18 of RESET_CTRL
cpu4_reset() { printf '0x%x' $(($(devmem 0x7fff0018 32) & 0x40000)); }
SKIP=$MCPM_DIR/fault_skip_cpu_cache_disable
set_online 4 0 || ktap_diag "offlining cpu4 failed"
off=$(cpu4_reset)
set_online 4 1 || ktap_diag "onlining cpu4 failed"
ktap_expect "clean case: cpu4 offline (in reset) and back, nothing reported" \
	"off 0x0 on 0x40000" "off $off on $(cpu4_reset)"
echo 1 > $SKIP
set_online 4 0 || ktap_diag "offlining cpu4 failed"
ktap_expect "cpu4 offline with its cache disable skipped: in reset, knob consumed" \
	"0x0 0" "$(cpu4_reset) $(cat $SKIP)"
set_online 4 1 || ktap_diag "onlining cpu4 failed"
lab_cluster_sleep on
ktap_expect "cpu4 back online afterwards" "0x40000 0-4" \
	"$(cpu4_reset) $(cat /sys/devices/system/cpu/online)"
ktap_done

#!/bin/sh
# lab-test: timing=modelled timeout=300 append=bL_switcher.inbound_timeout_ms=100 klog-expect='CPU1: inbound CPU [0-9]+ cluster 1 neither came up nor is confirmed off \(-16\): switching CPU1 disabled|CPU1: switching disabled after an inbound CPU was lost|__bL_switch_to: mcpm_cpu_power_up\(\) returned'
# A broken pair stays broken until a reboot (issue 28, item 1; kernel
# patch "keep a broken pair's partner offline when disabled";
# docs/switcher.md).  With the inbound timeout at 100 ms and every
# power-up delayed by 2 s (mcpm/fault_delay_power_up_us), switching
# logical CPU 1 to its A7 waits 100 ms, finds the A7 on its way (its
# power-up pending), waits ten times as long again, still cannot confirm
# it off, and marks the pair broken (EIO).  A second switch is refused at
# once.  The A7 then comes up late and waits at the entry gate.  Turning
# the switcher off must leave that A7 (cpu1's partner, logical CPU 6 with
# hardware id 0x102) offline, with its request held, while every other
# CPU comes back, and cpu1 must run on its A15.  Before the fix the
# disable brought the partner online.
# shellcheck disable=SC2086 # CPU numbers and sysfs paths are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 5

A7=$(sw_other 1)
PARTNER=""
for n in 4 5 6 7; do [ "$(cpu_hwid $n)" = "$((A7))" ] && PARTNER=$n; done
# the pair's messages are expected from the fault to the end of the job
# (its A7 stays lost, and the switcher says so when it is disabled)
klog_expect_begin
echo 2000000 > $MCPM_DIR/fault_delay_power_up_us
err=$(sw_write_error sh -c "echo 1 > $SW/cpu1/cluster")
ktap_expect "inbound late past ten timeouts: EIO, cpu1 stays on its A15, the A7's request held" \
	"Input/output error 0 1" "$err $(sw_cluster 1) $(mcpm_cpu_field $A7 use_count)"
err=$(sw_write_error sh -c "echo 1 > $SW/cpu1/cluster")
ktap_expect "the pair is broken: the next switch is refused with EIO" \
	"Input/output error 0" "$err $(sw_cluster 1)"
echo 0 > $MCPM_DIR/fault_delay_power_up_us
n=0
while [ "$(mcpm_cpu_field $A7 state)" != UP ] && [ $n -lt 40 ]; do
	sleep 0.1
	n=$((n + 1))
done
ktap_expect "the late A7 comes up and waits at the entry gate" "UP 1 ON" \
	"$(mcpm_cpu_field $A7 state) $(mcpm_cpu_field $A7 use_count) $(mcpm_cpu_field $A7 power)"

echo 0 > $SW/active
others=""
for n in 0 1 2 3 4 5 6 7; do
	[ "$n" = "$PARTNER" ] || others="$others$(cpu_online $n)"
done
ktap_expect "switcher off: every CPU back but the broken pair's A7 (cpu$PARTNER)" \
	"1111111 0" "$others $(cpu_online $PARTNER)"
ktap_expect "cpu1 runs on its A15; the A7 still waits with its request" "0x80000001 UP 1" \
	"$(awk '$1 == "cpu1" { print $3 }' /sys/kernel/debug/arm_cpuid) $(mcpm_cpu_field $A7 state) $(mcpm_cpu_field $A7 use_count)"
ktap_done

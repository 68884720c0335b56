#!/bin/sh
# lab-test: timing=modelled append=no_bL_switcher timeout=300 klog-expect='CPU5: failed to come online|CPU5: failed to boot: -16'
# CPU hotplug when a secondary's power-up is lost or late (issue 28,
# item 1; kernel patches "refuse a third power_up request" and "withdraw
# the power-up of a secondary that did not come online").  cpu5 (cluster 1
# CPU 1) is taken offline, then, with MCPM's fault injection (debug
# kernel):
#  - three lost power-ups in a row (mcpm/lose_power_up, a fault attribute
#    of the kernel's fault-injection framework): each 'online' fails with
#    EIO, and each time the request is withdrawn (use count 0, power OFF);
#    the framework logged each fault it injected and has none left.  Before the fix the count stayed at 1, the
#    second attempt took it to 2 and the third was
#    "kernel BUG at arch/arm/common/mcpm_entry.c:662!";
#  - a clean 'online' then works;
#  - a late power-up (mcpm/fault_delay_power_up_us 3 s, past __cpu_up()'s
#    1 s): the boot fails, the request stays held (the CPU is on its way:
#    ON_PENDING), a second 'online' meanwhile gets EBUSY, the CPU then
#    comes up and waits at the entry gate (UP, use count 1, never started
#    without a stack), and the next 'online' brings it up on that request;
#    an offline/online cycle afterwards is clean, and no power_up request
#    was ever refused for being a third.
# shellcheck disable=SC2086 # CPU numbers and sysfs paths are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 9

CPU=5
HW=$(cpu_hwid $CPU)
state() { echo "$(mcpm_cpu_field $HW state) $(mcpm_cpu_field $HW use_count) $(mcpm_cpu_field $HW power)"; }
online() { sw_write_error sh -c "echo 1 > /sys/devices/system/cpu/cpu$CPU/online"; }
busy0=$(mcpm_stat power_up_busy)

set_online $CPU 0
ktap_expect "cpu$CPU offline: its MCPM state" "DOWN 0 OFF" "$(state)"

klog_expect_begin
fi0=$(dmesg | grep -c 'FAULT_INJECTION: forcing a failure' || true)
seen=""
for _ in 1 2 3; do
	mcpm_fault_arm lose_power_up 1
	seen="$seen [$(online); $(state)]"
done
e="[Input/output error; DOWN 0 OFF]"
ktap_expect "three lost power-ups: each online fails with EIO and is withdrawn" \
	" $e $e $e" "$seen"
fi1=$(dmesg | grep -c 'FAULT_INJECTION: forcing a failure' || true)
ktap_expect "the fault-injection framework logged the 3 faults and has none left" \
	"3 0" "$((fi1 - fi0)) $(mcpm_fault_left lose_power_up)"

err=$(online)
ktap_expect "then a clean online brings it up" "; UP 1 ON; 1" \
	"$err; $(state); $(cpu_online $CPU)"

set_online $CPU 0
echo 3000000 > $MCPM_DIR/fault_delay_power_up_us
err=$(online)
ktap_expect "a late power-up: online fails with EIO, the request held (on its way)" \
	"Input/output error; DOWN 1 ON_PENDING" "$err; $(state)"
err=$(online)
ktap_expect "online again while it is on its way: EBUSY, nothing asked" \
	"Device or resource busy; DOWN 1 ON_PENDING" "$err; $(state)"
echo 0 > $MCPM_DIR/fault_delay_power_up_us
# the delayed power-up lands 3 s after it was asked for
n=0
while [ "$(state)" != "UP 1 ON" ] && [ $n -lt 50 ]; do
	sleep 0.1
	n=$((n + 1))
done
ktap_expect "the late CPU comes up and waits at the entry gate, still offline" \
	"UP 1 ON 0" "$(state) $(cpu_online $CPU)"

err=$(online)
ktap_expect "the next online brings it up on the held request" "; UP 1 ON; 1" \
	"$err; $(state); $(cpu_online $CPU)"
klog_expect_end

set_online $CPU 0
s1=$(state)
err=$(online)
ktap_expect "an offline/online cycle afterwards is clean; no third request refused" \
	"DOWN 0 OFF; ; UP 1 ON; 0" "$s1; $err; $(state); $(($(mcpm_stat power_up_busy) - busy0))"
ktap_done

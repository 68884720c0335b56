#!/bin/sh
# lab-test: platform=virt timeout=600
# A power controller that refuses CPU_OFF: the CPU has already marked
# itself CPU_DOWN with use count 0, so it must not re-enter the kernel
# (it would sit in mcpm_entry_point, on, with a use count of 0, and every
# later power-up of it would meet ALREADY_ON): it must ask again and end
# up off.  mcpm/fault_refuse_power_off N refuses the first N CPU_OFFs of
# each power-down (0-100).
#  - refused once: each outbound ends off, every refusal counted in
#    mcpm/stats power_off_refused (one per power-down, from the cache-off
#    path: nothing else counts there);
#  - refused 30 times: asked again after a back-off that doubles from
#    10 us to 10 ms (10.23 ms for the first ten, then 10 ms each, 210 ms
#    in all), so the CPU is off no sooner than 0.2 s after its switch, not
#    30 requests in a few microseconds as before; the 30 counted;
#  - a switch back to a CPU still being refused (100 times) waits for it
#    to be off (ALREADY_ON, retried) and completes; the outbound must
#    still be on as the switch back starts (the race window hit);
#  - the outbound stack (1 KiB a physical CPU), measured by its paint over
#    all of the above: used, and at most half of it (kernel 03/0028: 184
#    bytes here, the deepest path the lab has).
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 8

REFUSE=$MCPM_DIR/fault_refuse_power_off
e="[Invalid argument]"
errs=""
for v in 101 -1 abc; do
	errs="${errs}[$(sw_write_error sh -c "echo '$v' > $REFUSE")]"
done
ktap_expect "fault_refuse_power_off: mode 600, 101, -1, abc -> EINVAL, stays 0" \
	"600 ${e}${e}${e} 0" "$(stat -c %a $REFUSE) $errs $(cat $REFUSE)"

# uptime_cs: /proc/uptime in hundredths of a second
uptime_cs() { read -r _u _ < /proc/uptime; echo $((${_u%.*} * 100 + 1${_u#*.} - 100)); }

bad=""
r0=$(mcpm_stat power_off_refused)
echo 1 > $REFUSE
for n in 0 1 2 3; do
	ob=$(sw_mpidr $n)
	sw_switch $n 1 || bad="$bad cpu$n:switch-failed"
	i=0
	while [ "$(mcpm_cpu_field $ob power)" != OFF ] && [ $i -lt 20 ]; do
		usleep 100000
		i=$((i + 1))
	done
	got="$(mcpm_cpu_field $ob state) $(mcpm_cpu_field $ob use_count) $(mcpm_cpu_field $ob power)"
	[ "$got" = "DOWN 0 OFF" ] || bad="$bad cpu$n:outbound-$ob:$got"
done
echo 0 > $REFUSE
ktap_expect "each outbound whose first CPU_OFF was refused ends DOWN 0 OFF" "" "$bad"
ktap_expect "power_off_refused counted the 4 refusals" 4 \
	"$(($(mcpm_stat power_off_refused) - r0))"

# 30 refusals: the outbound of logical CPU 0's switch back to cluster 0
bad=""
r0=$(mcpm_stat power_off_refused)
ob=$(sw_mpidr 0)
echo 30 > $REFUSE
t0=$(uptime_cs)
sw_switch 0 0 || bad="cpu0:switch-failed"
i=0
while [ "$(mcpm_cpu_field $ob power)" != OFF ] && [ $i -lt 300 ]; do
	usleep 10000
	i=$((i + 1))
done
t1=$(uptime_cs)
echo 0 > $REFUSE
got="$(mcpm_cpu_field $ob state) $(mcpm_cpu_field $ob use_count) $(mcpm_cpu_field $ob power)"
refused=$(($(mcpm_stat power_off_refused) - r0))
if [ -z "$bad" ] && [ "$got" = "DOWN 0 OFF" ] && [ "$refused" = 30 ] &&
   [ $((t1 - t0)) -ge 20 ]; then
	ktap_pass "30 refusals: asked again with back-off, off after 0.2 s or more, 30 counted" \
		"$got, $refused refused, off after $((t1 - t0))0 ms"
else
	ktap_fail "30 refusals: asked again with back-off, off after 0.2 s or more, 30 counted" \
		"$bad $got, $refused refused, off after $((t1 - t0))0 ms"
fi

# A switch back to a CPU whose CPU_OFF is being refused (100 times, 0.9 s
# of back-off): its power_up meets ALREADY_ON and waits for the CPU to be
# off.  The race window is hit when the outbound is still on as the switch
# back starts.
a0=$(mcpm_stat psci_already_on_retry)
echo 100 > $REFUSE
ob=$(sw_mpidr 0)
sw_switch 0 1 && back=ok || back=switch-failed
p1=$(mcpm_cpu_field $ob power)
sw_switch 0 0 && again=ok || again=failed-back
echo 0 > $REFUSE
retries=$(($(mcpm_stat psci_already_on_retry) - a0))
if [ "$back $again $p1" = "ok ok ON" ] && [ "$(sw_mpidr 0)" = "$ob" ] && [ $retries -ge 1 ]; then
	ktap_pass "switching back to a CPU still being refused waits for it and completes" \
		"outbound $p1 as the switch back began, ALREADY_ON retried $retries times"
else
	ktap_fail "switching back to a CPU still being refused waits for it and completes" \
		"$back $again, outbound $p1 as the switch back began, on $(sw_mpidr 0) (want $ob), ALREADY_ON retried $retries times"
fi

bad=""
for n in 0 1 2 3; do
	sw_switch $n 0 || bad="$bad cpu$n:back-failed"
	sw_switch $n 1 || bad="$bad cpu$n:again-failed"
	sw_switch $n 0 || bad="$bad cpu$n:back-again-failed"
done
ktap_expect "every logical CPU switches both ways afterwards" "" "$bad"
if why=$(sw_consistent); then
	ktap_pass "MCPM and PSCI agree afterwards"
else
	ktap_fail "MCPM and PSCI agree afterwards" "$why"
fi
used=$(sw_stat stack_max_used)
if [ "$used" -gt 0 ] 2>/dev/null && [ "$used" -le 512 ]; then
	ktap_pass "refused power-offs used $used bytes of the 1024-byte outbound stack, at most half"
else
	ktap_fail "refused power-offs used at most half of the 1024-byte outbound stack" \
		"stack_max_used $used (overruns $(sw_stat stack_overruns))"
fi
ktap_done

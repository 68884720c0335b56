#!/bin/sh
# lab-test: platform=virt timeout=600
# A power controller that refuses CPU_OFF once: the CPU has already marked
# itself CPU_DOWN with use count 0, so it must not re-enter the kernel
# (it would sit in mcpm_entry_point, on, with a use count of 0, and every
# later power-up of it would meet ALREADY_ON): it must ask again and end
# up off.  mcpm/fault_refuse_power_off refuses the first CPU_OFF of each
# power-down.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 4

REFUSE=$MCPM_DIR/fault_refuse_power_off
e="[Invalid argument]"
errs=""
for v in 2 -1 abc; do
	errs="${errs}[$(sw_write_error sh -c "echo '$v' > $REFUSE")]"
done
ktap_expect "fault_refuse_power_off: mode 600, 2, -1, abc -> EINVAL, stays 0" \
	"600 ${e}${e}${e} 0" "$(stat -c %a $REFUSE) $errs $(cat $REFUSE)"

bad=""
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
ktap_done

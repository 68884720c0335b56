#!/bin/sh
# lab-test: timing=modelled timeout=400 klog-expect='big.LITTLE switcher: could not be disabled|bL_activation_notify: notifier chain failed with status 0x8011'
# kexec with the switcher active (issue 11, defect 3): machine_shutdown()
# takes every CPU but one down by CPU hotplug, which the switcher used to
# veto (then smp_shutdown_nonboot_cpus() hit its BUG_ON).  The switcher must
# step aside: the first kernel, with cpu1 switched to its A7, kexecs the same
# kernel (kexec-self), whose initramfs is this guest's root, so this script
# runs again there (stage 2, seen from lab.kexec_stage=2 on its command
# line) and checks that the second kernel brought its 8 CPUs up through MCPM
# and started the switcher again.  Both kernels' messages are on the one
# console the runner checks.
# Issue 28, item 4: a switcher that cannot stand aside.  The second kernel
# arms bL_switcher/test_refuse_disable (a PRE_DISABLE notifier that says
# no, CONFIG_BL_SWITCHER_TRANSITION_TEST) and kexecs again with cpu1 on
# its A7: the switcher stays active, says "could not be disabled" (the
# runner requires that line: the refusal was hit), and kexec takes its
# CPUs down as they are (kernel 03/0021); before, smp_shutdown_nonboot_cpus()
# met the hotplug veto and hit its BUG_ON.  A third kernel (stage 3) must
# come up with its 8 CPUs and the switcher.
# shellcheck disable=SC2086 # CPU numbers are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/platform.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh

STATE=/job/kexec-stage1

# booted KERNEL: the checks of a kernel started by kexec (4 results)
booted() {
	ktap_expect "$1 kernel: 8 CPUs brought up at boot" "1" \
		"$(dmesg | grep -c 'smp: Brought up 1 node, 8 CPUs')"
	if dmesg | grep -q "$(lab_mcpm_backend_msg)"; then
		# 7 secondaries powered up, then the switcher took 4 down.
		ktap_expect "$1 kernel: 7 secondaries powered up by MCPM" "7" "$(mcpm_stat cpu_power_up)"
	else
		ktap_fail "$1 kernel: 7 secondaries powered up by MCPM" "the MCPM backend did not register: no '$(lab_mcpm_backend_msg)'"
	fi
	ktap_expect "$1 kernel: switcher active, logical CPUs 0-3 online" "1 0-3" \
		"$(cat $SW/active) $(cat /sys/devices/system/cpu/online)"
	if bad=$(sw_round_trip_all); then
		ktap_pass "$1 kernel: each logical CPU switches 0->1->0, MCPM and the power controller agree"
	else
		ktap_fail "$1 kernel: each logical CPU switches 0->1->0, MCPM and the power controller agree" "$bad"
	fi
}

if grep -q "lab.kexec_stage=3" /proc/cmdline; then
	# Stage 3, in the third kernel.
	ktap_n=$(cat $STATE)
	klog_expect_end
	ktap_pass "the third kernel runs this job (lab.kexec_stage=3)" "$(cat /proc/cmdline)"
	booted third
	ktap_done
fi

if grep -q "lab.kexec_stage=2" /proc/cmdline; then
	# Stage 2, in the second kernel: the KTAP numbering goes on.
	ktap_n=$(cat $STATE)
	ktap_pass "the second kernel runs this job (lab.kexec_stage=2)" "$(cat /proc/cmdline)"
	booted second
	REFUSE=/sys/kernel/debug/bL_switcher/test_refuse_disable
	# the refusals' messages are expected until the third kernel runs
	klog_expect_begin
	echo 1 > $REFUSE
	echo 0 > $SW/active
	ktap_expect "second kernel: a disable refused by the test double leaves the switcher active" \
		"1 0" "$(cat $SW/active) $(cat $REFUSE)"
	sw_switch 1 1
	echo 1 > $REFUSE
	ktap_expect "second kernel: cpu1 on its A7, the next disable to be refused" "1 1" \
		"$(sw_cluster 1) $(cat $REFUSE)"
	echo "$((ktap_n + 1))" > $STATE
	if out=$(kexec-self -n -a lab.kexec_stage=3 2>&1); then
		ktap_pass "second kernel: kexec-self loaded the third"
	else
		ktap_fail "second kernel: kexec-self loaded the third" "$out"
		ktap_done
	fi
	ktap_diag "kexec -e: the third kernel takes over from here, the switcher refusing to stand aside"
	kexec -e -x
	ktap_fail "kexec -e started the third kernel" "kexec -e returned $?"
	ktap_done
fi

ktap_plan 16
ktap_expect "first kernel: switcher active, logical CPUs 0-3 online" "1 0-3" \
	"$(cat $SW/active) $(cat /sys/devices/system/cpu/online)"
sw_switch 1 1
ktap_expect "first kernel: cpu1 switched to its A7 before kexec" "1" "$(sw_cluster 1)"
# The second kernel's root is packed now: it must already hold the number
# of the results up to and including the next one.
echo "$((ktap_n + 1))" > $STATE
if out=$(kexec-self -n -a lab.kexec_stage=2 2>&1); then
	ktap_pass "kexec-self loaded /boot/zImage, /boot/dtb and the root as initramfs"
else
	ktap_fail "kexec-self loaded /boot/zImage, /boot/dtb and the root as initramfs" "$out"
	ktap_done
fi
ktap_diag "kexec -e: the second kernel takes over from here"
kexec -e -x
ktap_fail "kexec -e started the second kernel" "kexec -e returned $?"
ktap_done

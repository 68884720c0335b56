#!/bin/sh
# lab-test: timing=modelled timeout=300 append=no_bL_switcher expect-fail=lab-xfail expect-problems=23
# A check of the kernel-log checker (scripts/lab/klog.py with the rules of
# /usr/share/lab/klog-rules): it MUST fail this suite, and the runner
# reports it as an expected failure (XFAIL) only if exactly the 23 lines
# injected here (each tagged lab-xfail) are what fails it.  Injected
# through /dev/kmsg at the level the kernel prints each of them:
#   - a WARNING printed first, then more log than the old 128 KiB buffer
#     held (the old scan of the final 'dmesg' lost such a WARNING);
#   - a plain message at KERN_ERR that no pattern names;
#   - each failure the rules name (issue 12's list and the older ones);
#   - the same guest-side check (klog.sh, used by switch-storm) must find
#     them too, and the /usr/share/lab/klog-rules it reads is the host's.
# shellcheck disable=SC3028 # busybox ash
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
ktap_plan 4

klog_mark
inject() { echo "<$1>$2 [lab-xfail]" > /dev/kmsg; }

inject 4 "WARNING: CPU: 0 PID: 1 at lab/klog-checker.sh:1 early_warning+0x0/0x0"
# 200 KiB of KERN_INFO after it: more than the old 128 KiB log buffer.
line=$(printf '%0900d' 0)
i=0
while [ "$i" -lt 228 ]; do
	echo "<6>lab-flood $i $line" > /dev/kmsg
	i=$((i + 1))
done
flood=$(dmesg -r | grep -c '^<[0-9]*>\[[ 0-9.]*\] lab-flood') || true
if [ "$flood" -eq 228 ]; then
	ktap_pass "flooded the log with 228 x 900 B (> 128 KiB) after the WARNING"
else
	ktap_fail "flooded the log with 228 x 900 B (> 128 KiB) after the WARNING" "saw $flood flood lines"
fi

inject 3 "lab: a plain KERN_ERR message no pattern names"
inject 3 "rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 2-... } 21 jiffies s: 141"
inject 3 "CPU3: cpu didn't die"
inject 3 "CPU3: unable to kill"
inject 2 "CPU5: failed to boot: -5"
inject 3 "CPU5: failed to come online"
inject 2 "Bad mode in prefetch abort handler detected"
inject 1 "Unable to handle kernel NULL pointer dereference at virtual address 00000000"
inject 4 "list_add corruption. prev->next should be next (c1234567), but was 00000000."
inject 3 "BUG: scheduling while atomic: swapper/2/0/0x00000002"
inject 2 "CPU2: inbound CPU 6 cluster 1 is stuck in mcpm_entry_point"
inject 0 "Kernel panic - not syncing: nothing, injected"
inject 4 "------------[ cut here ]------------"
inject 4 "WARNING: possible circular locking dependency detected"
inject 3 "INFO: task sh:77 blocked for more than 60 seconds."
inject 0 "watchdog: BUG: soft lockup - CPU#2 stuck for 22s!"
inject 3 "rcu: INFO: rcu_sched self-detected stall on CPU"
inject 1 "Internal error: Oops: 805 [#1] SMP ARM"
inject 4 "printk: sh: 3 output lines suppressed due to ratelimiting"
inject 4 "kernel BUG at arch/arm/common/bL_switcher.c:130!"
inject 4 "DEBUG_LOCKS_WARN_ON(1)"
inject 4 "WARNING: a warning-text line, no CPU or PID"
ktap_pass "injected 23 lines that the rules must fail"

n=$(klog_problems_since | grep -c 'lab-xfail') || true
ktap_expect "the guest's klog.sh finds the same 23 lines" 23 "$n"
n=$(klog_problems_since | grep -vc 'lab-xfail') || true
ktap_expect "and nothing else in the guest's log" 0 "$n"
ktap_done

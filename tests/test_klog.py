"""Unit tests of the kernel-log rules (scripts/lab/klog.py and the one rule
file, initramfs/rootfs/usr/share/lab/klog-rules, read by the guest's
klog.sh too).  Lines are given as the guest's console shows them, with
console_msg_format=syslog: "<PRI>[ seconds] text"."""

import os
import subprocess
import unittest

from lab import klog
from lab.klog import problems

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every failure the issue lists, as the kernel prints it and at its level.
REAL_FAILURES = [
    "<3>[   12.0] rcu: INFO: rcu_sched detected expedited stalls on CPUs/tasks: { 2-... } 21 jiffies s: 141",
    "<3>[   12.1] CPU3: cpu didn't die",
    "<3>[   12.2] CPU3: unable to kill",
    "<2>[   12.3] CPU5: failed to boot: -5",
    "<3>[   12.4] CPU5: failed to come online",
    "<2>[   12.5] Bad mode in prefetch abort handler detected",
    "<1>[   12.6] 8<--- cut here ---",
    "<1>[   12.7] Unable to handle kernel NULL pointer dereference at virtual address 00000000",
    "<4>[   12.8] list_add corruption. prev->next should be next (c1234567), but was 00000000.",
    "<3>[   12.9] BUG: scheduling while atomic: swapper/2/0/0x00000002",
    "<2>[   13.0] mcpm: CPU2 stuck in mcpm_entry_point",
    "<3>[   13.1] bL_switcher: cpu1: switch to cluster 1 failed: -5",
    "<4>[   13.2] WARNING: CPU: 1 PID: 7 at kernel/cpu.c:1 foo+0x1/0x2",
    "<0>[   13.3] Kernel panic - not syncing: Fatal exception",
    "<4>[   13.4] ------------[ cut here ]------------",
    "<4>[   13.5] WARNING: possible circular locking dependency detected",
    "<3>[   13.6] INFO: task sh:77 blocked for more than 60 seconds.",
    "<0>[   13.7] watchdog: BUG: soft lockup - CPU#2 stuck for 22s!",
    "<3>[   13.8] rcu: INFO: rcu_sched self-detected stall on CPU",
    "** 17 printk messages dropped **",
    "<4>[   13.9] printk: sh: 3 output lines suppressed due to ratelimiting",
    "<4>[   14.0] bL_switcher_set: 12 callbacks suppressed",
    "<4>[   14.1] sched: RT throttling activated",
    "<4>[   14.2] clocksource: timekeeping watchdog on CPU1: Marking clocksource 'jiffies' as unstable because the skew is too large:",
]


class KlogTest(unittest.TestCase):
    def test_every_listed_failure_is_caught(self):
        for line in REAL_FAILURES:
            with self.subTest(line=line):
                self.assertEqual(len(problems(line)), 1, line)

    def test_any_err_level_fails_without_a_pattern(self):
        self.assertEqual(len(problems("<3>[    1.0] foo: something nobody listed")), 1)
        self.assertEqual(len(problems("<11>[    1.0] from userspace at KERN_ERR")), 1)
        self.assertEqual(problems("<4>[    1.0] foo: a warning-level note"), [])
        self.assertEqual(problems("<14>[    1.0] from userspace at KERN_INFO"), [])

    def test_allowed_and_clean_lines_pass(self):
        self.assertEqual(problems(
            "<3>[    0.009178] CPU0: Spectre v2: firmware did not set auxiliary control register IBE bit, system vulnerable\n"
            "<6>[    0.100000] smp: Brought up 1 node, 8 CPUs\n"
            "<6>[    0.200000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar\n"
            "<0>[   14.705746] reboot: Power down\n"), [])
        # allowed only as the whole line it is
        self.assertEqual(len(problems("<0>[   14.7] reboot: Power down after a panic")), 1)

    def test_bad_pattern_fails_at_any_level(self):
        self.assertEqual(len(problems("<6>[    1.0] WARNING: CPU: 0 PID: 1 at x")), 1)
        self.assertEqual(len(problems("WARNING: CPU: 0 PID: 1 at x")), 1)

    def test_kernel_lines_split_from_job_output(self):
        kern, other = klog.kernel_lines([
            "ok 1 first",
            "ok 2 sec<4>[   12.3] WARNING: CPU: 0 PID: 1 at x",
            "** 3 printk messages dropped **",
        ])
        self.assertEqual(kern, ["<4>[   12.3] WARNING: CPU: 0 PID: 1 at x",
                                "** 3 printk messages dropped **"])
        self.assertEqual(other, ["ok 1 first", "ok 2 sec"])

    def test_rules_file_is_well_formed(self):
        bad, allow = klog.load_rules()
        self.assertTrue(bad and allow)

    def test_guest_awk_applies_the_same_rules(self):
        """The guest's klog.sh, run here with the host's awk (the guest's is
        busybox awk, POSIX like this one), flags exactly what klog.py does."""
        sh = os.path.join(TOP, "initramfs", "rootfs", "usr", "share", "lab", "klog.sh")
        text = "\n".join(REAL_FAILURES + [
            "<3>[    0.0] CPU0: Spectre v2: firmware did not set auxiliary control register IBE bit, system vulnerable",
            "<6>[    0.1] smp: Brought up 1 node, 8 CPUs",
            "<3>[    0.2] foo: something nobody listed",
        ]) + "\n"
        out = subprocess.run(
            ["sh", "-c", f'KLOG_RULES="$1"; . "{sh}"; klog_problems', "sh", klog.RULES],
            input=text, capture_output=True, text=True, check=True).stdout
        self.assertEqual(out.splitlines(), [line for _, line in problems(text)])


if __name__ == "__main__":
    unittest.main()

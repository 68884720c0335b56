"""Unit tests of the kernel log scanner (scripts/lab/klog.py)."""

import unittest

from lab.klog import problems


class KlogTest(unittest.TestCase):
    def kinds(self, text):
        return [k for k, _ in problems(text)]

    def test_clean_boot_lines_pass(self):
        self.assertEqual(self.kinds(
            "[    0.009178] CPU0: Spectre v2: firmware did not set auxiliary control register IBE bit, system vulnerable\n"
            "[    0.100000] smp: Brought up 1 node, 8 CPUs\n"
            "[    0.200000] Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar\n"), [])

    def test_reports_are_found(self):
        text = "\n".join([
            "[    1.0] kernel BUG at arch/arm/common/bL_switcher.c:130!",
            "[    1.1] WARNING: CPU: 1 PID: 7 at kernel/cpu.c:1 foo+0x1/0x2",
            "[    1.2] Internal error: Oops: 805 [#1] SMP ARM",
            "[    1.3] WARNING: possible circular locking dependency detected",
            "[    1.4] rcu: INFO: rcu_sched self-detected stall on CPU",
            "[    1.5] INFO: task sh:77 blocked for more than 60 seconds.",
            "[    1.6] BUG: sleeping function called from invalid context at mm/slab.h:1",
            "[    1.7] Kernel panic - not syncing: Fatal exception",
            "[    1.8] watchdog: BUG: soft lockup - CPU#2 stuck for 22s!",
        ])
        self.assertEqual(self.kinds(text), ["BUG", "WARNING", "Oops", "WARNING", "RCU stall",
                                            "hung task", "BUG", "panic", "BUG"])


if __name__ == "__main__":
    unittest.main()

"""Unit tests of the KTAP parser (run by tests/run as the suite "ktap")."""

import unittest

from ktap import parse


class ParseTest(unittest.TestCase):
    def test_pass_fail_skip_and_reasons(self):
        rep = parse([
            "KTAP version 1", "1..3",
            "# 8 CPUs", "ok 1 cpus online",
            "# expected '0-7', got '0-6'", "not ok 2 - mask",
            "ok 3 tc2 # SKIP no such DTB",
        ])
        self.assertEqual(rep.errors, [])
        self.assertEqual([c.passed for c in rep.cases], [True, False, True])
        self.assertEqual(rep.cases[0].reason, "8 CPUs")
        self.assertEqual(rep.cases[1].name, "mask")
        self.assertEqual(rep.cases[1].reason, "expected '0-7', got '0-6'")
        self.assertTrue(rep.cases[2].skipped)
        self.assertEqual(rep.cases[2].reason, "no such DTB")

    def test_kernel_messages_between_results_are_ignored(self):
        rep = parse(["KTAP version 1", "1..1",
                     "[   12.000000] CPU4: shutdown", "ok 1 hotplug"])
        self.assertEqual(rep.errors, [])
        self.assertEqual(rep.cases[0].reason, "")

    def test_missing_results_are_reported(self):
        rep = parse(["KTAP version 1", "1..3", "ok 1 a"])
        self.assertIn("planned 3 tests, saw 1", rep.errors)

    def test_missing_plan_and_version(self):
        rep = parse(["ok 1 a"])
        self.assertIn("no plan line", rep.errors)
        self.assertIn("no KTAP version line", rep.errors)

    def test_out_of_order_numbers(self):
        rep = parse(["KTAP version 1", "1..2", "ok 2 b", "ok 1 a"])
        self.assertTrue(any("test number 2" in e for e in rep.errors))

    def test_diagnostic_does_not_leak_to_next_result(self):
        rep = parse(["KTAP version 1", "1..2", "# why", "not ok 1 a", "ok 2 b"])
        self.assertEqual(rep.cases[1].reason, "")


if __name__ == "__main__":
    unittest.main()

"""Unit tests of the runner (tests/run) itself: each builds a suite that
must fail one of its checks and asserts that the runner fails it.  These
are the checks of the checker: a hanging host suite, one that boots a
guest and hangs (no QEMU may be left), a hanging unit suite, exit status 1
with every case ok, an unknown '# lab-test:' key, an expected failure that
does not happen, a bad platform= setting, and skipped unit tests counted
as skips."""

import contextlib
import importlib.machinery
import importlib.util
import io
import os
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))


def load_runner():
    loader = importlib.machinery.SourceFileLoader("lab_runner", os.path.join(HERE, "run"))
    spec = importlib.util.spec_from_loader("lab_runner", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


runner = load_runner()


def alive(pid):
    """PID runs (a zombie waiting for its new parent to reap it does not)."""
    for _ in range(20):
        try:
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return False
        if state == "Z":
            return False
        time.sleep(0.1)
    return True


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.old_logs = runner.LOGS
        runner.LOGS = os.path.join(self.tmp.name, "logs")
        self.addCleanup(setattr, runner, "LOGS", self.old_logs)

    def script(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def host(self, text):
        tally = runner.Tally()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            runner.run_host_suite(tally, self.script("suite.sh", text), "debug")
        return tally, out.getvalue()

    def test_hanging_host_suite_fails_and_is_killed(self):
        t0 = time.monotonic()
        tally, out = self.host("""\
            #!/usr/bin/env bash
            # lab-test: timeout=3
            echo "KTAP version 1"; echo "1..1"
            sleep 1000 &
            echo "lab-runner-hang-child $!"
            wait
            """)
        secs = time.monotonic() - t0
        self.assertLess(secs, 30)
        self.assertEqual((tally.passed, tally.failed), (0, 1), out)
        self.assertIn("timed out after 3 s", out)
        with open(os.path.join(runner.LOGS, "suite", "output.log")) as f:
            child = [line.split()[1] for line in f if line.startswith("lab-runner-hang-child")][0]
        self.assertFalse(alive(child), "the suite's child outlived it")

    def test_exit_status_1_with_every_case_ok_fails(self):
        tally, out = self.host("""\
            echo "KTAP version 1"; echo "1..1"; echo "ok 1 fine"; exit 1
            """)
        self.assertEqual((tally.passed, tally.failed), (1, 1), out)
        self.assertIn("exit status 1 although every case passed", out)

    def test_exit_status_0_with_a_failed_case_fails(self):
        tally, out = self.host("""\
            echo "KTAP version 1"; echo "1..1"; echo "not ok 1 broken"; exit 0
            """)
        self.assertIn("exit status 0 although a case failed", out)
        self.assertEqual(tally.failed, 2, out)

    def test_clean_suite_passes(self):
        tally, out = self.host("""\
            echo "KTAP version 1"; echo "1..1"; echo "ok 1 fine"
            """)
        self.assertEqual((tally.passed, tally.failed), (1, 0), out)
        self.assertIn("  suite: ok 1 fine", out)

    def test_unknown_header_key_fails(self):
        tally, out = self.host("""\
            # lab-test: timeout=10 tiemout=5
            echo "KTAP version 1"; echo "1..1"; echo "ok 1 fine"
            """)
        self.assertEqual((tally.passed, tally.failed), (0, 1), out)
        self.assertIn("unknown lab-test setting 'tiemout=5'", out)
        path = self.script("g.sh", "# lab-test: smp=2 expect-problems=1\n")
        with self.assertRaises(ValueError):
            runner.header(path, "guest")
        with self.assertRaises(ValueError):
            runner.header(self.script("h.sh", "# lab-test: smp=2\n"), "host")

    def test_results_are_streamed_as_they_come(self):
        """The first result is printed while the suite still runs."""
        code = textwrap.dedent(f"""\
            import sys
            sys.path.insert(0, {os.path.join(HERE, '..', 'scripts')!r})
            sys.path.insert(0, {HERE!r})
            import test_runner
            r = test_runner.runner
            r.LOGS = {self.tmp.name!r}
            r.run_host_suite(r.Tally(), sys.argv[1], "debug")
            """)
        path = self.script("slow.sh", """\
            echo "KTAP version 1"; echo "1..2"; echo "ok 1 first"
            sleep 4
            echo "ok 2 second"
            """)
        p = subprocess.Popen([sys.executable, "-c", code, path], stdout=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        seen = None
        for line in p.stdout:
            if "ok 1 first" in line:
                seen = time.monotonic() - t0
        p.wait()
        p.stdout.close()
        self.assertIsNotNone(seen)
        self.assertLess(seen, 3.5, "the first result came only when the suite ended")

    def test_expected_failure_must_happen(self):
        opts = {"expect-fail": "lab-xfail", "expect-problems": "2"}
        cases = [
            ([], False),
            ([("WARNING:", "<4>[ 1.0] WARNING: lab-xfail 1")], False),   # one too few
            ([("WARNING:", "<4>[ 1.0] WARNING: lab-xfail 1"),
              ("BUG:", "<3>[ 1.1] BUG: something real")], False),      # not ours
            ([("WARNING:", "<4>[ 1.0] WARNING: lab-xfail 1"),
              ("BUG:", "<3>[ 1.1] BUG: lab-xfail 2")], True),
        ]
        for problems, ok in cases:
            with self.subTest(problems=problems):
                tally = runner.Tally()
                with contextlib.redirect_stdout(io.StringIO()):
                    runner.check_expected_failure(tally, "s", opts, problems, "k.log")
                self.assertEqual((tally.xfailed, tally.failed), (1, 0) if ok else (0, 1))

    def test_checker_violations_fail_the_suite(self):
        """A violation in the QEMU log, or any other guest error of the
        models, fails an rtsm suite unless declared by qemu-expect=, and a
        declared one must appear."""
        a = ("vexpress-dcscb: power-sequencing violation #1 (snoop-off-cached): "
             "CCI-400 slave interface 4 told to stop snoops ...")
        b = ("vexpress-dcscb: power-sequencing violation #2 (cluster-reset-unheld): "
             "cluster 1 reset asserted ...")
        noise = "arm-cci400: bad offset 0x20"
        expect = {"qemu-expect": r"\(snoop-off-cached\)"}
        cases = [
            # (log lines, opts, fails every case, expected-reports result)
            ([], {}, False, None),
            ([noise], {}, True, None),
            ([noise, a], {}, True, None),
            ([a], expect, False, True),
            ([noise], expect, True, False),
            ([noise], {"qemu-expect": "bad offset"}, False, True),
            ([a, b], expect, True, True),
            ([a], dict(expect, **{"qemu-expect-count": "2"}), False, False),
            ([a, a], dict(expect, **{"qemu-expect-count": "2"}), False, True),
        ]
        for lines, opts, fatal, seen in cases:
            with self.subTest(lines=lines, opts=opts):
                log = self.script("qemu.log", "".join(f"{line}\n" for line in lines))
                tally = runner.Tally()
                with contextlib.redirect_stdout(io.StringIO()) as out:
                    why = runner.check_qemu_log(tally, "s", opts, log)
                self.assertEqual(bool(why), fatal, why)
                if seen is None:
                    self.assertEqual((tally.passed, tally.failed), (0, 0), out.getvalue())
                else:
                    self.assertEqual((tally.passed, tally.failed),
                                     (1, 0) if seen else (0, 1), out.getvalue())
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertIn("no QEMU log", runner.check_qemu_log(
                runner.Tally(), "s", {}, os.path.join(self.tmp.name, "none.log")))
            self.assertEqual(runner.check_qemu_log(runner.Tally(), "s", {}, None), "")
        with self.assertRaises(ValueError):
            runner.header(self.script("v.sh", "# lab-test: platform=virt qemu-expect=x\n"),
                          "guest")
        with self.assertRaises(ValueError):
            runner.header(self.script("w.sh", "# lab-test: platform=rtsm qemu-expect-count=1\n"),
                          "guest")

    def test_failed_subtest_fails_its_case(self):
        """A unit test whose subTest fails is reported failed (it was
        reported passed: the failure is filed under the _SubTest)."""
        path = self.script("sub_suite.py", textwrap.dedent("""\
            import unittest

            class T(unittest.TestCase):
                def test_sub(self):
                    for i in range(2):
                        with self.subTest(i=i):
                            self.assertEqual(i, 0)
        """))
        sys.path.insert(0, self.tmp.name)
        self.addCleanup(sys.path.remove, self.tmp.name)
        tally = runner.Tally()
        with contextlib.redirect_stdout(io.StringIO()):
            runner.run_unit_suite(tally, path)
        self.assertEqual((tally.passed, tally.failed), (0, 1))

    def test_klog_expect_only_inside_marked_windows(self):
        """klog-expect= excuses its lines only between the job's markers."""
        rx = runner.re.compile("injected fault")
        fault = "<3>[    2.0] injected fault -5"
        other = "<3>[    2.1] something else failed"
        begin = f"<4>[    1.9] {runner.KLOG_EXPECT_BEGIN}"
        end = f"<4>[    2.2] {runner.KLOG_EXPECT_END}"
        cases = [
            # (log lines, problems left, excused, windows)
            ([fault], 1, 0, 0),
            ([begin, fault, end], 0, 1, 1),
            ([begin, fault, other, end], 1, 1, 1),
            ([begin, end, fault], 1, 0, 1),
            ([fault, begin, fault, end, fault], 2, 1, 1),
            ([begin, fault], 0, 1, 1),
        ]
        for lines, left, excused, windows in cases:
            with self.subTest(lines=lines):
                got = runner.expected_in_windows("\n".join(lines), rx)
                self.assertEqual((len(got[0]), len(got[1]), got[2]), (left, excused, windows))

    def test_platforms(self):
        """A suite runs on the default platform (rtsm) unless it names
        others; it is named SUITE@PLATFORM off the default one; a platform
        the lab lacks, one named twice, or one dtb= for two platforms is
        refused."""
        hdr = runner.header(self.script("d.sh", "# lab-test: timeout=5\n"), "guest")
        self.assertEqual(runner.platforms(hdr), ["rtsm"])
        hdr = runner.header(self.script("b.sh", "# lab-test: platform=rtsm,virt\n"), "guest")
        self.assertEqual(runner.platforms(hdr), ["rtsm", "virt"])
        self.assertEqual([runner.instance_name("boot", p) for p in runner.platforms(hdr)],
                         ["boot", "boot@virt"])
        runner.header(self.script("q.sh", "# lab-test: qemu-expect=x\n"), "guest")
        runner.header(self.script("t.sh", "# lab-test: platform=tc2 qemu-expect=x\n"), "guest")
        for bad in ("platform=sgi", "platform=virt,virt", "platform=rtsm,virt dtb=x.dtb",
                    "platform=rtsm,virt qemu-expect=x"):
            with self.assertRaises(ValueError, msg=bad):
                runner.header(self.script("p.sh", f"# lab-test: {bad}\n"), "guest")

    def test_slowest(self):
        """The summary lists the slowest suites first, at most ten, with
        their share of the whole run."""
        times = [(float(i), f"s{i}") for i in range(12)]
        lines = runner.slowest(times).splitlines()
        self.assertEqual(lines[0], "# slowest 10 of 12 suites (host time):")
        self.assertEqual(len(lines), 11)
        self.assertIn("s11", lines[1])
        self.assertIn("17%", lines[1])      # 11 of 66 s
        self.assertIn("s2", lines[-1])

    def test_qemu_global(self):
        """qemu-global= sets device properties with -global, each a
        DEVICE.PROPERTY=VALUE, and refuses anything else."""
        hdr = runner.header(self.script(
            "g1.sh", "# lab-test: qemu-global='a-b.c-d=1 e.f=x'\n"), "guest")
        self.assertEqual(runner.layout_args(hdr), ["-global", "a-b.c-d=1", "-global", "e.f=x"])
        for bad in ("qemu-global=nodot", "qemu-global=a.b", "qemu-global=a=b"):
            with self.assertRaises(ValueError, msg=bad):
                runner.header(self.script("g2.sh", f"# lab-test: {bad}\n"), "guest")

    def test_layout(self):
        """layout=A+B boots the rtsm machine with A A15s and B A7s: it adds
        the machine's a15-cpus/a7-cpus options, and is refused off rtsm,
        out of the machine's range, without the matching smp= or without
        a dtb=."""
        hdr = runner.header(self.script("l0.sh", "# lab-test: timeout=5\n"), "guest")
        self.assertEqual(runner.layout_args(hdr), [])
        hdr = runner.header(self.script(
            "l1.sh", "# lab-test: layout=2+3 smp=5 dtb=x.dtb\n"), "guest")
        self.assertEqual(runner.layout_args(hdr), ["-machine", "a15-cpus=2,a7-cpus=3"])
        for bad in ("layout=2+3 dtb=x.dtb", "layout=2+3 smp=5",
                    "layout=0+3 smp=3 dtb=x.dtb", "layout=2+5 smp=7 dtb=x.dtb",
                    "layout=2x3 smp=5 dtb=x.dtb",
                    "platform=virt layout=2+3 smp=5 dtb=x.dtb"):
            with self.assertRaises(ValueError, msg=bad):
                runner.header(self.script("l2.sh", f"# lab-test: {bad}\n"), "guest")

    def test_governor(self):
        """A guest suite boots under performance unless it names a governor;
        "default" leaves the kernel's own; a governor the kernel lacks is
        refused, and the boot line carries the choice."""
        hdr = runner.header(self.script("g0.sh", "# lab-test: timeout=5\n"), "guest")
        self.assertEqual(runner.governor(hdr), "performance")
        hdr = runner.header(self.script("g1.sh", "# lab-test: governor=default\n"), "guest")
        self.assertIsNone(runner.governor(hdr))
        hdr = runner.header(self.script("g2.sh", "# lab-test: governor=ondemand\n"), "guest")
        self.assertEqual(runner.governor(hdr), "ondemand")
        with self.assertRaises(ValueError):
            runner.header(self.script("g3.sh", "# lab-test: governor=interactive\n"), "guest")
        self.assertEqual(runner.guest.governor_append("ondemand", "quiet"),
                         "cpufreq.default_governor=ondemand quiet")
        self.assertEqual(runner.guest.governor_append(None, "quiet"), "quiet")

    def test_timing(self):
        """A guest suite runs in host time unless it asks for modelled time;
        modelled time adds per-CPU icount clocks with the quantum and a
        fixed RTC; a PLATFORM:TIMING entry counts on that platform alone;
        an unknown timing or platform, a timing twice, a quantum in host
        time, a quantum out of range, or modelled time on Debian's QEMU
        is refused."""
        hdr = runner.header(self.script("t0.sh", "# lab-test: timeout=5\n"), "guest")
        self.assertNotIn("timing", hdr)
        hdr = runner.header(self.script("t1.sh", "# lab-test: timing=modelled quantum=1000\n"),
                            "guest")
        args = runner.guest.timing_args("rtsm", hdr["timing"], hdr["quantum"])
        self.assertEqual(args[:2], ["-icount", "shift=0,sleep=off,percpu=on,quantum=1000"])
        self.assertIn("clock=vm", args[3])
        self.assertEqual(runner.guest.timing_args("rtsm", "host"), [])
        hdr = runner.header(self.script("t3.sh", "# lab-test: timing=host,modelled\n"), "guest")
        self.assertEqual(runner.timings(hdr), ["host", "modelled"])
        self.assertEqual([runner.instance_name("w", "rtsm", t) for t in runner.timings(hdr)],
                         ["w", "w@modelled"])
        self.assertEqual(runner.instance_name("w", "virt", None), "w@virt")
        # a timing for one platform: the others keep the default
        hdr = runner.header(self.script("t4.sh", "# lab-test: platform=rtsm,virt "
                                        "timing=rtsm:modelled\n"), "guest")
        self.assertEqual((runner.timings(hdr, "rtsm"), runner.timings(hdr, "virt")),
                         (["modelled"], ["host"]))
        hdr = runner.header(self.script("t5.sh", "# lab-test: platform=rtsm,virt "
                                        "timing=host,rtsm:modelled\n"), "guest")
        self.assertEqual((runner.timings(hdr, "rtsm"), runner.timings(hdr, "virt")),
                         (["host", "modelled"], ["host"]))
        self.assertEqual(runner.timings(hdr), ["host", "modelled"])
        for bad in ("timing=wall", "quantum=1000", "timing=host quantum=1000",
                    "timing=modelled quantum=10us", "timing=modelled,modelled",
                    "timing=virt:modelled", "timing=rtsm:wall",
                    "platform=rtsm,virt timing=modelled,rtsm:modelled"):
            with self.assertRaises(ValueError, msg=bad):
                runner.header(self.script("t2.sh", f"# lab-test: {bad}\n"), "guest")
        env = {runner.guest.VIRT_QEMU_ENV: "stock"}
        for plat, timing, quantum in (("rtsm", "host", 1000), ("rtsm", "modelled", 0),
                                      ("rtsm", "modelled", 10**9), ("virt", "modelled", None)):
            with self.assertRaises(ValueError, msg=(plat, timing, quantum)), \
                    mock.patch.dict(os.environ, env):
                runner.guest.timing_args(plat, timing, quantum)

    def test_skipped_unit_tests_are_skips(self):
        self.script("test_lab_skipdemo.py", """\
            import unittest
            class T(unittest.TestCase):
                def test_a(self):
                    pass
                @unittest.skip("not here")
                def test_b(self):
                    pass
                @unittest.expectedFailure
                def test_c(self):
                    pass
            """)
        sys.path.insert(0, self.tmp.name)
        self.addCleanup(sys.path.remove, self.tmp.name)
        tally = runner.Tally()
        with contextlib.redirect_stdout(io.StringIO()):
            runner.run_unit_suite(tally, os.path.join(self.tmp.name, "test_lab_skipdemo.py"))
        self.assertEqual((tally.passed, tally.skipped, tally.failed), (1, 1, 1))

    def test_hanging_unit_suite_fails_in_time(self):
        """A unit suite runs under a time limit (in the child process that
        run_suites() starts for it): a test that hangs fails the suite
        when it expires, instead of holding the whole run."""
        self.script("test_lab_hangdemo.py", """\
            import time
            import unittest
            class T(unittest.TestCase):
                def test_hang(self):
                    time.sleep(30)
            """)
        sys.path.insert(0, self.tmp.name)
        self.addCleanup(sys.path.remove, self.tmp.name)
        tally = runner.Tally()
        out = io.StringIO()
        t0 = time.monotonic()
        with contextlib.redirect_stdout(out):
            runner.run_unit_suite(tally, os.path.join(self.tmp.name, "test_lab_hangdemo.py"),
                                  limit=1)
        self.assertLess(time.monotonic() - t0, 10)
        self.assertEqual((tally.passed, tally.failed), (0, 1))
        self.assertIn("timed out after 1 s", out.getvalue())

    def test_unit_suite_runs_apart(self):
        """run_suites() runs a unit suite in a child process: its results
        are reported as in-process ones, what it does to os.environ stays
        there, and a child that dies fails the suite."""
        good = self.script("test_lab_apartdemo.py", """\
            import os
            import unittest
            class T(unittest.TestCase):
                def test_pass(self):
                    os.environ["LAB_APART_DEMO"] = "set in the child"
                def test_fail(self):
                    self.assertEqual(1, 2)
                @unittest.skip("not here")
                def test_skip(self):
                    pass
            """)
        dies = self.script("test_lab_diesdemo.py", """\
            import os
            os._exit(7)
            """)
        tally = runner.Tally()
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            runner.run_suites(tally, [("unit", good, None, None, None),
                                      ("unit", dies, None, None, None)], 2, "debug")
        text = out.getvalue()
        self.assertEqual((tally.passed, tally.failed, tally.skipped), (1, 2, 1), text)
        self.assertIn("PASS test_lab_apartdemo/test_pass", text)
        self.assertIn("FAIL test_lab_apartdemo/test_fail: AssertionError: 1 != 2", text)
        self.assertIn("FAIL test_lab_diesdemo/(suite): unit suite process: exit 7, 0 results", text)
        self.assertNotIn("LAB_APART_DEMO", os.environ)

    def test_side_by_side(self):
        """Modelled-time guest suites and host suites with parallel=yes may
        share the host; host-time guest suites, other host suites, a host
        suite with a bad header and unit suites may not."""
        side = runner.side_by_side
        host = self.script("p.sh", "# lab-test: parallel=yes\n")
        self.assertTrue(side(("host", host, None, None, None)))
        self.assertFalse(side(("host", self.script("q.sh", "# lab-test: timeout=9\n"),
                               None, None, None)))
        self.assertFalse(side(("host", self.script("r.sh", "# lab-test: parallel=maybe\n"),
                               None, None, None)))
        self.assertTrue(side(("guest", "g.sh", "g@modelled", ("rtsm", "modelled"), {})))
        self.assertFalse(side(("guest", "g.sh", "g", ("rtsm", "host"), {})))
        self.assertFalse(side(("guest", "g.sh", "g", None, ValueError("bad"))))
        self.assertFalse(side(("unit", "test_x.py", None, None, None)))
        with self.assertRaises(ValueError):
            runner.header(self.script("s.sh", "# lab-test: parallel=1\n"), "host")

    def test_test_jobs(self):
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop("LAB_TEST_JOBS", None)
            self.assertEqual(runner.test_jobs(), os.cpu_count() or 1)
        for val, want in (("1", 1), ("3", 3)):
            with mock.patch.dict(os.environ, {"LAB_TEST_JOBS": val}):
                self.assertEqual(runner.test_jobs(), want)
        for val in ("0", "-1", "two", ""):
            with mock.patch.dict(os.environ, {"LAB_TEST_JOBS": val}):
                with self.assertRaises(ValueError):
                    runner.test_jobs()

    def test_side_by_side_suites_overlap_and_the_others_do_not(self):
        """Two parallel=yes host suites that each wait for the other's mark
        finish only if they run at the same time; a suite without it starts
        after both ended, and one that raises in the runner fails alone."""
        d = self.tmp.name
        meet = textwrap.dedent("""\
            #!/usr/bin/env bash
            # lab-test: parallel=yes timeout=20
            echo "KTAP version 1"; echo "1..1"
            touch "{d}/{me}"; date +%s.%N > "{d}/{me}.start"
            for i in $(seq 50); do [ -e "{d}/{other}" ] && break; sleep 0.1; done
            date +%s.%N > "{d}/{me}.end"
            if [ -e "{d}/{other}" ]; then echo "ok 1 met"; else echo "not ok 1 alone"; exit 1; fi
            """)
        a = self.script("a.sh", meet.format(d=d, me="a", other="b"))
        b = self.script("b.sh", meet.format(d=d, me="b", other="a"))
        c = self.script("c.sh", f"""\
            echo "KTAP version 1"; echo "1..1"; date +%s.%N > "{d}/c.start"; echo "ok 1 fine"
            """)
        tally = runner.Tally()
        suites = [("host", c, None, None, None), ("host", a, None, None, None),
                  ("host", b, None, None, None)]
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            times = runner.run_suites(tally, suites, 2, "debug")
        self.assertEqual((tally.passed, tally.failed), (3, 0), out.getvalue())
        self.assertEqual(sorted(n for _, n in times), ["a", "b", "c"])

        def stamp(name):
            with open(os.path.join(d, name)) as f:
                return float(f.read())
        self.assertGreaterEqual(stamp("c.start"), max(stamp("a.end"), stamp("b.end")))
        # one job: the two side-by-side suites cannot meet, and each fails
        for f in ("a", "b"):
            os.unlink(os.path.join(d, f))
        tally = runner.Tally()
        with contextlib.redirect_stdout(io.StringIO()):
            runner.run_suites(tally, suites[1:], 1, "debug")
        self.assertEqual(tally.failed, 1, "the second suite found the first one's mark")
        tally = runner.Tally()
        with mock.patch.object(runner, "run_host_suite", side_effect=OSError("boom")), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            runner.run_suites(tally, suites, 2, "debug")
        self.assertEqual((tally.passed, tally.failed), (0, 3), out.getvalue())
        self.assertIn("runner error: OSError('boom')", out.getvalue())

    def test_timed_out_host_suite_leaves_no_qemu(self):
        """A host suite that boots a guest and hangs: at its time limit the
        runner sends SIGTERM, guest-run kills its QEMU (which runs in a
        session of its own, out of the suite's process group), and no
        QEMU is left.  Boots the debug kernel on virt with one CPU."""
        top = os.path.dirname(HERE)
        if not os.path.exists(os.path.join(top, "build", "kernel-debug", "arch", "arm",
                                           "boot", "zImage")):
            self.skipTest("no debug kernel built")
        tally, out = self.host(f"""\
            #!/usr/bin/env bash
            # lab-test: timeout=12
            echo "KTAP version 1"; echo "1..1"
            printf 'echo lab-guest-hangs\\nwhile :; do sleep 1; done\\n' > "$LAB_LOGS/hang.sh"
            {top}/scripts/guest-run --no-build --variant debug --platform virt --smp 1 \\
                --timeout 600 --log-dir "$LAB_LOGS/guest" "$LAB_LOGS/hang.sh"
            """)
        self.assertEqual((tally.passed, tally.failed), (0, 1), out)
        self.assertIn("timed out after 12 s", out)
        with open(os.path.join(runner.LOGS, "suite", "output.log")) as f:
            self.assertIn("lab-guest-hangs", f.read(), "the guest's job never ran")
        with open(os.path.join(runner.LOGS, "suite", "guest", "qemu-pid")) as f:
            qemu = f.read().strip()
        self.assertFalse(alive(qemu), f"QEMU {qemu} outlived its timed-out suite")


if __name__ == "__main__":
    unittest.main()

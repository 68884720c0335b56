#!/usr/bin/env python3
"""Migrate a virt guest on the lab's QEMU in the middle of a WFE wait, and
an idle one to Debian's stock QEMU (tests/host/wfe-migrate.sh).

usage: wfe_migrate.py [--qemu LAB_QEMU] LOG_DIR

LAB_QEMU is the lab's qemu-system-arm to test (default build/qemu-build's).

The guest (virt, the debug kernel) first idles, then runs wfe-wait: seven
threads wait in WFE for a flag that CPU 0 sets without SEV.  Each source
is stopped and migrated to a file (QMP "migrate" to exec:cat, QEMU's
stand-in for savevm without a disk); the lab sends its "cpu/wfe"
subsection only for a CPU halted in WFE, so each file says what it holds.

Host time, the guest's event stream off (a wait with the stream on sleeps
in the WFE helper, and a pause waits for it to end, so no CPU is saved
halted; with it off a waiting CPU halts): state A while the guest idles,
with no CPU halted in WFE (retried until so), and state B inside the
wait, with CPUs halted in WFE.  The lab's QEMU loads B and the job runs
on to its end (each halted CPU loaded as saved and woken, the kernel log
within the rules); stock QEMU loads A and runs the job to its end; stock
QEMU refuses B (a check of the check: it has no model to take a CPU
halted in WFE).

Modelled time (per-CPU clocks, where every WFE wait halts with the event
stream's next event a timer): state C inside the wait, retried until a
CPU is saved waiting for that event; the lab's QEMU loads it with the
timer as saved, and the job runs on to its end.

Prints KTAP; exits 0 if every case passed, 1 otherwise.
"""

import json
import os
import re
import select
import shlex
import socket
import struct
import subprocess
import sys
import time

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(TOP, "scripts"))
from lab import guest, klog  # noqa: E402

WAIT_S = 4            # wfe-wait's first round: the wait the save B falls in
ROUNDS = 10           # and its short rounds after it
WAIT_MODELLED_S = 60  # the first round in modelled time, which runs faster
SAVE_TRIES = 8
# Modelled time: in one CI run (a busy host) eight saves in a row found no
# CPU halted in WFE; more tries, the wait long enough for them
SAVE_TRIES_MODELLED = 30
TRACE_EVENTS = ("arm_wfe_load", "arm_wfe_evtstrm", "arm_wfe_wake", "arm_wfe_sleep")
HALTED = re.compile(r"\barm_wfe_(save|load) cpu (\d+) \w+ halted in WFE: "
                    r"event register (\d+), event-stream event at (-?\d+) ns")
# How the stream names a subsection: QEMU_VM_SUBSECTION, the name's length,
# the name (the JSON description at the stream's end names it too).
SUBSECTION = b"\x05\x07cpu/wfe"

JOB = """set -e
if [ -e /sys/kernel/bL_switcher/active ]; then
	echo 0 > /sys/kernel/bL_switcher/active
fi
for c in /sys/devices/system/cpu/cpu[0-9]*/online; do
	[ "$(cat "$c")" = 1 ] || echo 1 > "$c"
done
echo "wfe-migrate: idle"
sleep 3
echo "wfe-migrate: wait"
wfe-wait nosev "$1" "$2"
echo "wfe-migrate: done"
"""


class Failure(Exception):
    pass


class Qemu:
    """A QEMU process with its serial console on a pipe and QMP on a
    socket; the console goes to LOG."""

    def __init__(self, cmd, log, qmp_path):
        self.qmp_path = qmp_path
        self.log = open(log, "wb")
        self.lines = []
        self.buf = b""
        self.exited = None
        cmd = list(cmd) + ["-qmp", f"unix:{qmp_path},server=on,wait=off"]
        self.log.write(("# " + shlex.join(cmd) + "\n").encode())
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.sock = None
        deadline = time.monotonic() + 30
        while self.sock is None:
            self.pump(0.05)
            if self.proc.poll() is not None:
                raise Failure(f"QEMU exited at start: {self.tail()}")
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(qmp_path)
                self.sock = s
            except OSError:
                if time.monotonic() > deadline:
                    raise Failure("no QMP socket after 30 s")
        self.qmp_file = self.sock.makefile("rw")
        self._read_reply(greeting=True)
        self.qmp("qmp_capabilities")

    def tail(self):
        return " | ".join(self.lines[-5:])

    def pump(self, timeout):
        """Read what QEMU printed, for up to TIMEOUT s."""
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return
        chunk = os.read(fd, 65536)
        if not chunk:
            self.exited = self.proc.wait()
            return
        self.log.write(chunk)
        self.log.flush()
        self.buf += chunk
        *new, self.buf = self.buf.split(b"\n")
        self.lines += [ln.decode("utf-8", "replace").rstrip("\r") for ln in new]

    def wait_for(self, regex, timeout):
        rx = re.compile(regex)
        start = 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i in range(start, len(self.lines)):
                m = rx.search(self.lines[i])
                if m:
                    return m
            start = len(self.lines)
            if self.exited is not None:
                raise Failure(f"QEMU ended before /{regex}/: {self.tail()}")
            self.pump(0.2)
        raise Failure(f"no /{regex}/ within {timeout} s: {self.tail()}")

    def settle(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.pump(max(0.0, min(0.1, deadline - time.monotonic())))

    def _read_reply(self, greeting=False):
        while True:
            line = self.qmp_file.readline()
            if not line:
                raise Failure("QMP connection closed")
            msg = json.loads(line)
            if greeting and "QMP" in msg:
                return msg
            if "return" in msg:
                return msg["return"]
            if "error" in msg:
                raise Failure(f"QMP error: {msg['error']}")

    def qmp(self, command, **arguments):
        req = {"execute": command}
        if arguments:
            req["arguments"] = arguments
        try:
            self.qmp_file.write(json.dumps(req) + "\n")
            self.qmp_file.flush()
            return self._read_reply()
        except OSError as e:
            self.settle(0.5)
            raise Failure(f"QMP {command}: {e}; QEMU printed: {self.tail()}")

    def save(self, path):
        """Stop the guest and migrate it to PATH; the guest stays stopped."""
        self.qmp("stop")
        if os.path.exists(path):
            os.unlink(path)
        self.qmp("migrate", uri="exec:cat > " + shlex.quote(path))
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            st = self.qmp("query-migrate").get("status")
            if st == "completed":
                with open(path, "rb") as f:
                    return f.read()
            if st in ("failed", "cancelled"):
                raise Failure(f"migration to {path}: {st}")
            self.pump(0.05)
        raise Failure(f"migration to {path} not done in 60 s")

    def close(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except ProcessLookupError:
                pass
        self.proc.wait()
        while True:
            chunk = self.proc.stdout.read(65536)
            if not chunk:
                break
            self.log.write(chunk)
        self.log.close()
        if self.sock:
            self.sock.close()


def resume(q, timeout=60):
    """Wait for Q's incoming migration to end and start the guest: the
    source was stopped before it saved, so the loaded guest is paused."""
    deadline = time.monotonic() + timeout
    while q.qmp("query-status").get("status") == "inmigrate":
        if time.monotonic() > deadline:
            raise Failure(f"still loading after {timeout} s")
        q.pump(0.01)
    if q.qmp("query-migrate").get("status") != "completed":
        raise Failure(f"the load failed: {q.tail()}")
    q.qmp("cont")


def parse_subsections(data):
    """[(event register, event-stream event ns)] of each cpu/wfe
    subsection of a migration stream: after the name, its version, then
    the fields (event_register, halted_in_wfe, the timer's expiry)."""
    found = []
    for m in re.finditer(re.escape(SUBSECTION) + rb"(.{4})(.{4})(.{4})(.{8})", data, re.S):
        found.append((struct.unpack(">I", m.group(2))[0],
                      struct.unpack(">q", m.group(4))[0]))
    return found


def job_status(q, timeout):
    """Run Q to the job's end: its exit status."""
    m = q.wait_for(guest.MARK_EXIT.pattern, timeout)
    return int(m.group(1))


def kernel_problems(lines):
    kern, _ = klog.kernel_lines(lines)
    return klog.problems("".join(line + "\n" for line in kern))


def halted_states(trace_path):
    """[(cpu, event register, event-stream event ns)] of the arm_wfe_save
    or arm_wfe_load lines of a trace log, in order."""
    found = []
    with open(trace_path, errors="replace") as f:
        for line in f:
            m = HALTED.search(line)
            if m:
                found.append((int(m.group(2)), int(m.group(3)), int(m.group(4))))
    return found


def first_events(trace_path):
    """{cpu: first traced WFE event after the load} of a trace log."""
    rx = re.compile(r"\b(arm_wfe_(?:evtstrm|wake|sleep)) cpu (\d+)\b")
    first = {}
    with open(trace_path, errors="replace") as f:
        for line in f:
            m = rx.search(line)
            if m and int(m.group(2)) not in first:
                first[int(m.group(2))] = m.group(1)
    return first


def main():
    args = sys.argv[1:]
    lab_qemu = guest.LAB_QEMU
    if len(args) == 3 and args[0] == "--qemu":
        lab_qemu = os.path.abspath(args[1])
        args = args[2:]
    if len(args) != 1 or args[0].startswith("-"):
        print("usage: wfe_migrate.py [--qemu LAB_QEMU] LOG_DIR", file=sys.stderr)
        return 2
    logs = os.path.abspath(args[0])
    os.makedirs(logs, exist_ok=True)
    n = 0
    failed = 0

    def result(ok, name, diag=""):
        nonlocal n, failed
        n += 1
        if diag:
            print(f"# {diag}")
        print(f"{'ok' if ok else 'not ok'} {n} {name}")
        failed += not ok
        sys.stdout.flush()

    def fmt(states):
        return ", ".join(f"cpu{c} event {e} at {ns}" for c, e, ns in states) or "none"

    print("KTAP version 1")
    print("1..10")
    if not os.access(lab_qemu, os.X_OK):
        print(f"Bail out! no {lab_qemu}: run 'make qemu'")
        return 1
    job = os.path.join(logs, "job.sh")
    with open(job, "w") as f:
        f.write(JOB)
    kernel = guest.kernel_image("debug")
    dtb = guest.PLATFORMS["virt"]["dtb"]
    initrd = os.path.join(logs, "initramfs.cpio.gz")
    guest.job_initramfs(initrd, job, (str(WAIT_S), str(ROUNDS)), kernel, dtb)
    initrd_m = os.path.join(logs, "initramfs-modelled.cpio.gz")
    guest.job_initramfs(initrd_m, job, (str(WAIT_MODELLED_S), str(ROUNDS)), kernel, dtb,
                        "modelled")
    append = guest.governor_append(guest.JOB_GOVERNOR, "")
    host = guest.qemu_command(kernel, dtb, initrd, guest.DEFAULT_SMP,
                              append + " clocksource.arm_arch_timer.evtstrm=0",
                              platform="virt")[1:]
    # (the lab's QEMU for modelled timing's options; LAB_QEMU runs them)
    os.environ[guest.VIRT_QEMU_ENV] = "lab"
    modelled = guest.qemu_command(kernel, dtb, initrd_m, guest.DEFAULT_SMP, append,
                                  platform="virt",
                                  qemu_args=guest.timing_args("virt", "modelled"))[1:]
    stock_qemu = guest.PLATFORMS["virt"]["qemu"]
    files = {k: os.path.join(logs, f"state-{k}") for k in ("idle", "wfe", "modelled")}
    traces = {k: os.path.join(logs, f"{k}-trace.log")
              for k in ("source", "modelled-source", "lab-b", "lab-c")}
    # QEMU appends to a trace file: start with none from an earlier run.
    for f in list(files.values()) + list(traces.values()):
        if os.path.exists(f):
            os.unlink(f)
    events = os.path.join(logs, "trace-events")
    with open(events, "w") as f:
        f.write("\n".join(TRACE_EVENTS) + "\n")

    def source(cmd, name, idle_save, want):
        """Run the guest, save it (A if IDLE_SAVE, then the mid-wait state,
        retried until WANT(subsections)); returns (A, B, mid_wait)."""
        a = None
        q = Qemu([lab_qemu] + cmd + ["-trace", f"enable=arm_wfe_save,file={traces[name]}"],
                 os.path.join(logs, f"{name}.log"), os.path.join(logs, f"{name}.qmp"))
        try:
            if idle_save:
                q.wait_for(r"^wfe-migrate: idle", 120)
                for _ in range(SAVE_TRIES):
                    q.settle(0.3)
                    a = q.save(files["idle"])
                    if SUBSECTION not in a:
                        break
                    q.qmp("cont")
                q.qmp("cont")
            q.wait_for(r"^wfe-wait: wait-begin", 120)
            q.settle(0.5)
            for _ in range(SAVE_TRIES if idle_save else SAVE_TRIES_MODELLED):
                b = q.save(files["wfe" if idle_save else "modelled"])
                if want(parse_subsections(b)):
                    break
                q.qmp("cont")
                q.settle(0.05)
            mid_wait = not any("wait-end" in line for line in q.lines)
            q.qmp("quit")
            q.proc.wait(30)
        finally:
            q.close()
        return a, b, mid_wait

    def load(cmd, state, name):
        """Load STATE into the lab's QEMU, run the job to its end; returns
        (status, kernel-log problems, output)."""
        q = Qemu([lab_qemu] + cmd + ["-incoming", "exec:cat " + shlex.quote(state),
                                     "-trace", f"events={events},file={traces[name]}"],
                 os.path.join(logs, f"{name}.log"), os.path.join(logs, f"{name}.qmp"))
        try:
            resume(q)
            # The first events after the load are what this checks; the
            # rest of the wait would only fill the log.
            q.settle(0.5)
            for ev in TRACE_EVENTS:
                q.qmp("trace-event-set-state", name=ev, enable=False)
            status = job_status(q, 300)
            return status, kernel_problems(q.lines), "\n".join(q.lines)
        finally:
            q.close()

    def check_load(name, saved, halted, what):
        """The cases of a load: the job ends, each halted CPU is loaded as
        saved and wakes."""
        try:
            status, probs, out = load(host if name == "lab-b" else modelled,
                                      files["wfe" if name == "lab-b" else "modelled"], name)
            done = "wfe-migrate: done" in out
            result(status == 0 and done and not probs,
                   f"{what}: the lab's QEMU loads it and the job ends",
                   f"status {status}; kernel log: {len(probs)} problem(s) "
                   f"{probs[:2] if probs else ''}")
        except Failure as e:
            result(False, f"{what}: the lab's QEMU loads it and the job ends", str(e))
        loaded = halted_states(traces[name]) if os.path.exists(traces[name]) else []
        result(saved == loaded and saved,
               f"{what}: each CPU halted in WFE is loaded as saved",
               f"saved: {fmt(saved)}; loaded: {fmt(loaded)}")
        first = first_events(traces[name]) if os.path.exists(traces[name]) else {}
        woke = sorted(c for c, ev in first.items() if ev != "arm_wfe_sleep")
        result(woke == sorted(c for c, _, _ in saved),
               f"{what}: every CPU saved halted in WFE wakes after the load",
               "first traced events after the load: "
               + ", ".join(f"cpu{c} {ev}" for c, ev in sorted(first.items())))
        return loaded

    # 1. host time, the event stream off
    try:
        a, b, mid_wait = source(host, "source", True, lambda subs: len(subs) > 0)
    except Failure as e:
        print(f"Bail out! source: {e}")
        return 1
    halted = b.count(SUBSECTION)
    result(SUBSECTION not in a and halted > 0 and mid_wait,
           "host time: saved idle with no CPU halted in WFE, and inside the wait with some",
           f"idle: {len(a)} bytes, {a.count(SUBSECTION)} cpu/wfe; in the wait: "
           f"{len(b)} bytes, {halted} CPUs halted in WFE, inside the wait: {mid_wait}")
    # The final save's arm_wfe_save lines are the source trace's last ones.
    saved = halted_states(traces["source"])[-halted:] if halted else []
    check_load("lab-b", saved, halted, "host time, mid-wait")

    stock = None
    try:
        stock = Qemu([stock_qemu] + host + ["-incoming", "exec:cat " + shlex.quote(files["idle"])],
                     os.path.join(logs, "stock-a.log"), os.path.join(logs, "stock-a.qmp"))
        resume(stock)
        status = job_status(stock, 180)
        probs = kernel_problems(stock.lines)
        done = any("wfe-migrate: done" in line for line in stock.lines)
        result(status == 0 and done and not probs,
               "stock QEMU loads the lab's guest saved with no CPU halted in WFE",
               f"status {status}; kernel log: {len(probs)} problem(s) "
               f"{probs[:2] if probs else ''}")
    except Failure as e:
        result(False, "stock QEMU loads the lab's guest saved with no CPU halted in WFE",
               str(e))
    finally:
        if stock:
            stock.close()

    # A check of the check: stock QEMU refuses B.
    cmd = ([stock_qemu] + host + ["-incoming", "exec:cat " + shlex.quote(files["wfe"]),
                                  "-trace", "vmstate_subsection_load_bad"])
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=60, start_new_session=True)
        err = (p.stdout + p.stderr).decode("utf-8", "replace")
        refused = p.returncode != 0 and "cpu/wfe" in err
        why = " | ".join(line for line in err.splitlines()
                         if "cpu/wfe" in line or "error" in line)[:300]
        result(refused, "stock QEMU refuses the guest saved with CPUs halted in WFE",
               f"exit {p.returncode}: {why}")
    except subprocess.TimeoutExpired:
        result(False, "stock QEMU refuses the guest saved with CPUs halted in WFE",
               "stock QEMU took it and ran for 60 s")

    # 2. modelled time: a CPU saved waiting for the event stream's event
    def waiting(subs):
        return any(e == 0 and ns != -1 for e, ns in subs)
    try:
        _, c, _ = source(modelled, "modelled-source", False, waiting)
    except Failure as e:
        print(f"Bail out! modelled-time source: {e}")
        return 1
    halted_c = c.count(SUBSECTION)
    saved_c = halted_states(traces["modelled-source"])[-halted_c:] if halted_c else []
    result(any(e == 0 and ns != -1 for _, e, ns in saved_c),
           "modelled time: saved with a CPU halted in WFE waiting for the event stream",
           f"{halted_c} CPUs halted in WFE: {fmt(saved_c)}")
    check_load("lab-c", saved_c, halted_c, "modelled time, mid-wait")
    print(f"# {n - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Boot the lab's QEMU guest, optionally with a job, and collect its logs.

The machine is described once, here; scripts/guest-run, the test suite and
the benchmarks all boot it through run().
"""

import ctypes
import os
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time

from . import cpio, klog

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.path.join(TOP, "build")

# The emulated machine: QEMU's "virt" board with Cortex-A15 vCPUs.  The
# big.LITTLE description (two clusters, A15 and A7) is in the DTB.
MACHINE = {
    "qemu": "qemu-system-arm",
    "machine": "virt",
    "cpu": "cortex-a15",
    "memory": "1G",
    "console": "ttyAMA0",
}

DEFAULT_DTB = os.path.join(BUILD, "dtb", "qemu-virt-bl.dtb")
DEFAULT_SMP = 8
# The cpufreq governor a job's guest boots with.  The kernel's own default
# (schedutil, kernel/configs/base.config) keeps a near-idle system on its
# A7s, and moves idle logical CPUs there within a second of boot; the
# suites and benchmarks drive the switcher themselves and need each CPU
# to stay on the cluster they put it on, which performance does (every
# CPU on its A15 until something moves it).  docs/cpufreq.md.
JOB_GOVERNOR = "performance"
# The governors the lab's kernel has (kernel/configs/base.config).
GOVERNORS = ("performance", "powersave", "userspace", "ondemand", "conservative",
             "schedutil")

# The machines the guest boots on.  "virt" is MACHINE above, on Debian's own
# qemu-system-arm.  "rtsm" is the lab's modelled big.LITTLE platform, QEMU's
# vexpress-a15-a7 machine built from Debian's source with qemu/patches
# (make qemu): two real clusters (MPIDR Aff1), a CCI-400 and a DCSCB, driven
# by mainline's arm-cci.c and dcscb.c (see docs/platform.md).
PLATFORMS = {
    "virt": dict(MACHINE, dtb=DEFAULT_DTB, extra=[]),
    "rtsm": {
        "qemu": os.path.join(BUILD, "qemu-build", "qemu-system-arm"),
        "machine": "vexpress-a15-a7",
        "cpu": None,
        "memory": "1G",
        "console": "ttyAMA0",
        "dtb": os.path.join(BUILD, "dtb", "vexpress-a15-a7.dtb"),
        # The motherboard's PL041 codec wants an audio backend: none.
        "extra": ["-audiodev", "none,id=lab-noaudio",
                  "-global", "pl041.audiodev=lab-noaudio"],
    },
    # TC2 (issue 31, in progress): QEMU's vexpress-tc2 machine, 2 Cortex-A15
    # + 3 Cortex-A7 with the SPC, booting the kernel tree's own, unmodified
    # vexpress-v2p-ca15_a7.dtb through mainline's tc2_pm.c and spc.c.
    "tc2": {
        "qemu": os.path.join(BUILD, "qemu-build", "qemu-system-arm"),
        "machine": "vexpress-tc2",
        "cpu": None,
        "memory": "1G",
        "console": "ttyAMA0",
        "dtb": os.path.join(BUILD, "dtb", "vexpress-v2p-ca15_a7.dtb"),
        "smp": 5,
        "extra": ["-audiodev", "none,id=lab-noaudio",
                  "-global", "pl041.audiodev=lab-noaudio"],
    },
}
DEFAULT_PLATFORM = "rtsm"

# The lab's own qemu-system-arm (make qemu).  "virt" runs on Debian's binary
# unless LAB_VIRT_QEMU names another: "lab" for this one, "stock" for
# Debian's, or a path.  The benchmarks and the WFE test compare the two.
LAB_QEMU = os.path.join(BUILD, "qemu-build", "qemu-system-arm")
VIRT_QEMU_ENV = "LAB_VIRT_QEMU"


def platform_qemu(platform):
    """The qemu-system-arm binary PLATFORM runs on (see LAB_VIRT_QEMU)."""
    qemu = PLATFORMS[platform]["qemu"]
    if platform != "virt":
        return qemu
    choice = os.environ.get(VIRT_QEMU_ENV, "")
    if choice in ("", "stock"):
        return qemu
    if choice == "lab":
        return LAB_QEMU
    return choice

# How the guest's time runs (docs/timing.md).  "host": each vCPU is a host
# thread (multi-threaded TCG) and the guest's clock is the host's, the
# daughterboard's model throttling the vCPUs to their clusters' speeds.
# "modelled": the lab's QEMU gives each CPU a clock of its own, advanced by
# the instructions it executes at its cluster's clock (-icount percpu=on),
# the vCPUs run in turn on one host thread, no more than a quantum ahead of
# the devices' clock, and every time and energy figure repeats exactly,
# whatever the host does.  Real parallelism finds races a round-robin does
# not, so storms, soak and the race suites, and make run, keep host.
TIMINGS = ("host", "modelled")
DEFAULT_TIMING = "host"
# The quantum of modelled time, in ns (docs/timing.md says why this one).
DEFAULT_QUANTUM_NS = 10000
# Modelled time's one fixed wall clock: the RTC follows the guest's clock
# from this date, so that it is not a host input either.
MODELLED_RTC_BASE = "2026-01-01T00:00:00"


def timing_args(platform, timing, quantum=None):
    """The QEMU options of TIMING ("host" or "modelled") on PLATFORM, with
    QUANTUM ns (modelled only; None for DEFAULT_QUANTUM_NS).  Raises
    ValueError where the timing cannot run: modelled time needs the lab's
    QEMU (rtsm, or virt with LAB_VIRT_QEMU=lab)."""
    if timing not in TIMINGS:
        raise ValueError(f"timing {timing!r}: not one of {', '.join(TIMINGS)}")
    if timing == "host":
        if quantum is not None:
            raise ValueError("a quantum is for modelled timing only")
        return []
    if platform_qemu(platform) != LAB_QEMU:
        raise ValueError(f"modelled timing needs the lab's QEMU; {platform} runs on "
                         f"{platform_qemu(platform)} (set {VIRT_QEMU_ENV}=lab for virt)")
    quantum = DEFAULT_QUANTUM_NS if quantum is None else int(quantum)
    if not 1 <= quantum <= 100_000_000:
        raise ValueError(f"quantum {quantum} ns: give 1 to 100000000 ns")
    return ["-icount", f"shift=0,sleep=off,percpu=on,quantum={quantum}",
            "-rtc", f"base={MODELLED_RTC_BASE},clock=vm"]


MARK_DMESG_BEGIN = "@@GUEST-DMESG-BEGIN@@"
MARK_DMESG_END = "@@GUEST-DMESG-END@@"
MARK_EXIT = re.compile(r"@@GUEST-EXIT (\d+)@@")

# Exit statuses of run() that do not come from the guest's job.
EXIT_TIMEOUT = 124
EXIT_NO_STATUS = 125


def kernel_image(variant):
    return os.path.join(BUILD, f"kernel-{variant}", "arch", "arm", "boot", "zImage")


def base_initramfs():
    return os.path.join(BUILD, "initramfs", "base.cpio.gz")


# What QEMU reports as a guest error on the rtsm platform, one per line, and
# how the power-sequencing checker of its DCSCB model words a violation
# (docs/platform.md).
QEMU_LOG = "qemu.log"
CHECKER_VIOLATION = re.compile(r"power-sequencing violation #\d+ \(")


def checker_violations(text):
    """The lines of a QEMU guest-error log that report a violation of the
    power sequence."""
    return [line for line in text.splitlines() if CHECKER_VIOLATION.search(line)]


def guest_errors(text):
    """Every report in a QEMU guest-error log (-d guest_errors): the
    checker's violations and every other guest error of the machine's
    models (a write to a read-only register, a refused SYS_CFG value, a
    failed restart).  A clean run has none."""
    return [line for line in text.splitlines() if line.strip()]


# guest-run's status when the job succeeded but strict mode found problems
# in the kernel log or QEMU's guest-error log.
EXIT_STRICT = 98


def strict_problems(res, klog_expect=None, qemu_expect=None):
    """What strict mode fails a run on: every line of RES's kernel log that
    breaks the klog rules, and every QEMU guest error (rtsm), except those
    matching KLOG_EXPECT and QEMU_EXPECT (regular expressions, or None).
    Returns a list of one-line descriptions."""
    found = []
    with open(res.kernel_log, errors="replace") as f:
        probs = klog.problems(f.read())
    if klog_expect:
        rx = re.compile(klog_expect)
        probs = [p for p in probs if not rx.search(p[1])]
    found += [f"kernel log: {kind}: {line}" for kind, line in probs]
    if res.qemu_log:
        try:
            with open(res.qemu_log, errors="replace") as f:
                errors = guest_errors(f.read())
        except FileNotFoundError:
            errors = [f"no QEMU log {res.qemu_log}"]
        if qemu_expect:
            rx = re.compile(qemu_expect)
            errors = [e for e in errors if not rx.search(e)]
        found += [f"QEMU guest error: {e}" for e in errors]
    return found


def qemu_command(kernel, dtb, initrd, smp, append, interactive=False,
                 platform=DEFAULT_PLATFORM, trace=None, qemu_log=None, qemu_args=()):
    """The QEMU command line; TRACE is (PATTERN, FILE) for -trace.  Both
    paths use -nodefaults: QEMU's default devices (a NIC whose option ROM
    comes from ipxe-qemu, a VGA) are not part of the machine, and
    -nodefaults without a -serial leaves no console.

    A job's guest prints each kernel message's level on the console
    (console_msg_format=syslog) and only KERN_WARNING or worse
    (loglevel=5), so scripts/lab/klog.py can apply its rules to the whole
    console stream; printk.devkmsg=on keeps /dev/kmsg writes of the tests
    from being rate-limited.  The interactive guest shows every message
    without levels, as a user expects.  QEMU_LOG is a file for QEMU's
    guest errors (-d guest_errors), where the rtsm platform's checker
    reports violations of the power sequence.  QEMU_ARGS are added as
    they are (e.g. -global options of the machine's devices)."""
    m = PLATFORMS[platform]
    job_args = "" if interactive else "loglevel=5 console_msg_format=syslog printk.devkmsg=on"
    cmd = [platform_qemu(platform), "-M", m["machine"]]
    if m["cpu"]:
        cmd += ["-cpu", m["cpu"]]
    cmd += ["-smp", str(smp),
            "-m", m["memory"], "-kernel", kernel, "-dtb", dtb, "-initrd", initrd,
            "-append", " ".join(filter(None, [
                f"console={m['console']}", "panic=-1", job_args, append])),
            "-no-reboot", "-nodefaults", "-display", "none"] + m["extra"] + list(qemu_args)
    if trace:
        cmd += ["-trace", f"enable={trace[0]},file={trace[1]}", "-msg", "timestamp=on"]
    if qemu_log:
        cmd += ["-d", "guest_errors", "-D", qemu_log]
    if interactive:
        # The terminal is the serial console, multiplexed with the monitor
        # (Ctrl-A x quits, Ctrl-A c the monitor); Ctrl-C goes to the guest.
        cmd += ["-chardev", "stdio,id=con,mux=on,signal=off",
                "-serial", "chardev:con", "-mon", "chardev=con,mode=readline"]
    else:
        cmd += ["-serial", "stdio", "-monitor", "none"]
    return cmd


def boot_archive(out, kernel, dtb):
    """An uncompressed archive holding the booted kernel and DTB as
    /boot/zImage and /boot/dtb, so that kexec in the guest can start the
    same kernel again (docs/switcher.md, "kexec")."""
    ar = cpio.Archive()
    for path, src in (("boot/zImage", kernel), ("boot/dtb", dtb)):
        with open(src, "rb") as f:
            ar.add(path, 0o100644, f.read())
    ar.write(out, compress=False)


def _concatenate(out, parts):
    """Write PARTS one after the other to OUT, each starting at a multiple
    of 4 bytes (zeros between them): the kernel reads an uncompressed
    archive only at such an offset, and skips the zeros."""
    with open(out, "wb") as dst:
        for part in parts:
            dst.write(b"\0" * (-dst.tell() % 4))
            with open(part, "rb") as src:
                dst.write(src.read())


def interactive_initramfs(out, kernel, dtb):
    """Base initramfs plus boot_archive()."""
    boot_archive(out + ".boot", kernel, dtb)
    _concatenate(out, [base_initramfs(), out + ".boot"])
    os.unlink(out + ".boot")


def job_initramfs(out, script, args, kernel=None, dtb=None, timing=DEFAULT_TIMING):
    """Base initramfs plus a second archive holding /job/script and
    /job/run, the wrapper that runs it with ARGS (the kernel unpacks
    concatenated archives in order), and /job/timing, TIMING ("host" or
    "modelled", for lab_timing() of /usr/share/lab/platform.sh), then,
    given KERNEL and DTB, boot_archive()."""
    job = cpio.Archive()
    with open(script, "rb") as f:
        job.add("job/script", 0o100755, f.read())
    wrapper = "#!/bin/sh\nexec /bin/sh /job/script " + " ".join(
        shlex.quote(a) for a in args) + "\n"
    job.add("job/run", 0o100755, wrapper.encode())
    job.add("job/timing", 0o100644, (timing + "\n").encode())
    job.write(out + ".job")
    parts = [base_initramfs(), out + ".job"]
    if kernel and dtb:
        boot_archive(out + ".boot", kernel, dtb)
        parts.append(out + ".boot")
    _concatenate(out, parts)
    for part in parts[1:]:
        os.unlink(part)


class Result:
    def __init__(self, status, log_dir, timed_out=False):
        self.status = status
        self.log_dir = log_dir
        self.timed_out = timed_out
        self.console_log = os.path.join(log_dir, "console.log")
        # Every kernel message of the console stream, boot to power-off.
        self.kernel_log = os.path.join(log_dir, "kernel.log")
        # The guest's 'dmesg' after the job (every level, for reading).
        self.dmesg_log = os.path.join(log_dir, "dmesg.log")
        self.output_log = os.path.join(log_dir, "output.log")
        # QEMU's guest errors (rtsm: the power-sequencing checker's
        # reports), or None on a platform that has no checker.
        self.qemu_log = None
        # time.monotonic() when QEMU was started
        self.started = None


# libc, loaded before any fork: the child of a process with threads (the
# test runner's side-by-side suites) must not load a library between fork
# and exec.
_LIBC = ctypes.CDLL(None, use_errno=True)


def _die_with_parent():
    """In QEMU's child before exec: get SIGKILL when the thread that
    started it ends (prctl PR_SET_PDEATHSIG), however it ends: QEMU runs
    in a session of its own, out of reach of its parent's process group."""
    if _LIBC.prctl(1, signal.SIGKILL, 0, 0, 0) != 0:     # 1: PR_SET_PDEATHSIG
        os._exit(126)


def _kill_group(proc):
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def governor_append(governor, append):
    """APPEND with the boot's default cpufreq governor put before it (so
    that a cpufreq.default_governor= in APPEND still wins); GOVERNOR None
    leaves the kernel's own default (CONFIG_CPU_FREQ_DEFAULT_GOV_*)."""
    if not governor:
        return append
    return " ".join(filter(None, [f"cpufreq.default_governor={governor}", append]))


def run(script, args=(), *, variant="release", dtb=None, smp=None, append="",
        timeout=300, log_dir=None, stream=sys.stdout, kernel=None,
        platform=DEFAULT_PLATFORM, qemu_trace=None, qemu_args=(),
        governor=JOB_GOVERNOR, timing=DEFAULT_TIMING, quantum=None):
    """Boot a fresh guest that runs SCRIPT with ARGS and powers off.

    Streams the job's output to STREAM, keeps the console, the job's
    output and the kernel log (and on rtsm QEMU's guest errors,
    qemu.log) in LOG_DIR, and returns a Result whose
    status is the job's exit status, EXIT_TIMEOUT if the guest was
    killed at the time limit, or EXIT_NO_STATUS if it ended without
    reporting one (a panic, for instance).  QEMU never outlives this call.
    PLATFORM is a key of PLATFORMS; QEMU_TRACE a -trace pattern, whose
    events go to LOG_DIR/qemu-trace.log; QEMU_ARGS more QEMU options.
    GOVERNOR is the cpufreq governor every policy starts with (None: the
    kernel's default); jobs default to JOB_GOVERNOR.  TIMING is "host" or
    "modelled" (see TIMINGS), QUANTUM its quantum in ns.
    """
    qemu_args = timing_args(platform, timing, quantum) + list(qemu_args)
    kernel = kernel or kernel_image(variant)
    dtb = dtb or PLATFORMS[platform]["dtb"]
    smp = smp or PLATFORMS[platform].get("smp", DEFAULT_SMP)
    if log_dir is None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        log_dir = os.path.join(BUILD, "runs",
                               f"{stamp}-{os.getpid()}-{os.path.basename(script)}")
    os.makedirs(log_dir, exist_ok=True)
    for f in (kernel, dtb, base_initramfs(), platform_qemu(platform)):
        if os.sep in f and not os.path.exists(f):
            raise FileNotFoundError(f"{f} is missing: build it with 'make guest'")
    initrd = os.path.join(log_dir, "initramfs.cpio.gz")
    job_initramfs(initrd, script, args, kernel, dtb, timing)

    res = Result(EXIT_NO_STATUS, log_dir)
    trace = (qemu_trace, os.path.join(log_dir, "qemu-trace.log")) if qemu_trace else None
    if platform != "virt":
        res.qemu_log = os.path.join(log_dir, QEMU_LOG)
        # QEMU appends to it: start empty, so that it is this run's only.
        open(res.qemu_log, "w").close()
    cmd = qemu_command(kernel, dtb, initrd, smp, governor_append(governor, append),
                       platform=platform, trace=trace, qemu_log=res.qemu_log,
                       qemu_args=qemu_args)
    with open(os.path.join(log_dir, "qemu-command"), "w") as f:
        f.write(shlex.join(cmd) + "\n")

    console = open(res.console_log, "wb")
    output = open(res.output_log, "w", errors="replace")
    dmesg_lines = []
    kernel_lines = []
    in_dmesg = False
    res.started = time.monotonic()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=_die_with_parent)
    # For tests that measure QEMU itself (its CPU time, from /proc).
    with open(os.path.join(log_dir, "qemu-pid"), "w") as f:
        f.write(f"{proc.pid}\n")
    old_handlers = {}

    def on_signal(signum, frame):
        _kill_group(proc)
        raise KeyboardInterrupt(f"signal {signum}")

    # Only the main thread can have signal handlers; in another (a test
    # runner's worker), QEMU dies with the thread's process all the same.
    if threading.current_thread() is threading.main_thread():
        for s in (signal.SIGTERM, signal.SIGHUP):
            old_handlers[s] = signal.signal(s, on_signal)
    deadline = time.monotonic() + timeout
    buf = b""
    try:
        fd = proc.stdout.fileno()
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                res.timed_out = True
                res.status = EXIT_TIMEOUT
                break
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                if not buf:
                    break
                chunk = b"\n"  # end the last, unterminated line
            console.write(chunk)
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").rstrip("\r")
                if MARK_DMESG_BEGIN in line:
                    in_dmesg = True
                    continue
                if MARK_DMESG_END in line:
                    in_dmesg = False
                    continue
                m = MARK_EXIT.search(line)
                if m:
                    res.status = int(m.group(1))
                    continue
                kern, other = klog.kernel_lines([line])
                if in_dmesg:
                    # The job's dmesg has no levels; a console line with
                    # its level that comes in this window is the kernel's
                    # own, printed while dmesg ran, and is scanned.
                    kernel_lines += kern
                    dmesg_lines += other
                    continue
                kernel_lines += kern
                for line in other:
                    output.write(line + "\n")
                    if stream:
                        stream.write(line + "\n")
                        stream.flush()
    finally:
        _kill_group(proc)
        for s, h in old_handlers.items():
            signal.signal(s, h)
        console.close()
        output.close()

    with open(res.kernel_log, "w") as f:
        f.write("".join(line + "\n" for line in kernel_lines))
    with open(res.dmesg_log, "w") as f:
        f.write("".join(line + "\n" for line in dmesg_lines))
    return res


def interactive(*, variant="release", dtb=None, smp=None, append="", kernel=None,
                platform=DEFAULT_PLATFORM, qemu_trace=None, governor=None,
                timing=DEFAULT_TIMING, quantum=None):
    """Boot the guest to a shell on this terminal (Ctrl-A x quits QEMU).
    In modelled TIMING the guest's clock is not the wall clock: while every
    CPU idles it jumps from one timer to the next, as fast as the host
    goes."""
    qemu_args = timing_args(platform, timing, quantum)
    trace = (qemu_trace, os.path.join(BUILD, "qemu-trace.log")) if qemu_trace else None
    kernel = kernel or kernel_image(variant)
    dtb = dtb or PLATFORMS[platform]["dtb"]
    os.makedirs(os.path.join(BUILD, "runs"), exist_ok=True)
    initrd = os.path.join(BUILD, "runs", f"interactive-{os.getpid()}.cpio.gz")
    interactive_initramfs(initrd, kernel, dtb)
    qemu_log = os.path.join(BUILD, QEMU_LOG) if platform != "virt" else None
    smp = smp or PLATFORMS[platform].get("smp", DEFAULT_SMP)
    cmd = qemu_command(kernel, dtb, initrd, smp, governor_append(governor, append),
                       interactive=True, platform=platform, trace=trace,
                       qemu_log=qemu_log, qemu_args=qemu_args)
    print("+ " + shlex.join(cmd), flush=True)
    try:
        return subprocess.call(cmd)
    finally:
        os.unlink(initrd)

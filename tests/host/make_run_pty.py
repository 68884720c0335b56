"""Drive `make run VARIANT=debug` through a pty like a user (see
tests/host/make-run.sh).  usage: make_run_pty.py TOP TYPESCRIPT"""

import os
import pty
import re
import select
import signal
import sys
import time

# The shell's prompt; busybox's line editor may follow it with a cursor
# position query (ESC [6n) that a real terminal would answer.
PROMPT = re.compile(rb"bl-lab:[^\r\n]*# (\x1b\[6n)?$")
RC = re.compile(rb"@@rc=(\d+)@@")

# What each command of README.md's "In the guest's shell" block must print
# (a regex over its output lines, re.M), in the guest as `make run` boots
# it.  A README command missing here, or an entry no longer in the README,
# fails the test: the README and this list move together.
CHECKS = {
    "cat /sys/devices/system/cpu/online": r"^0-3$",
    "cat /sys/kernel/debug/bL_switcher/pairs": r"^0 0x0 0x103$",
    "cat /sys/kernel/bL_switcher/cpu0/cluster": r"^1$",
    "cpufreq-set -c 0 -g performance": r"",
    "cat /sys/kernel/bL_switcher/cpu0/mpidr": r"^0x0$",
    "echo 1 > /sys/kernel/bL_switcher/cpu0/cluster": r"",
    "cat /sys/kernel/debug/bL_switcher/stats": r"^switches \d+",
    "cat /sys/kernel/debug/mcpm/state": r"^cluster 1 ",
    "cat /sys/kernel/debug/mcpm/stats": r"^cluster_setup \d+",
    "cat /sys/devices/system/cpu/cpu*/topology/core_siblings_list": r"^0-3$",
    "cpufreq-info -c 0": r"analyzing CPU 0",
    "cpufreq-set -c 0 -g powersave": r"",
    "cat /sys/devices/system/cpu/cpufreq/policy0/bL_cur_cluster": r"^1$",
}


# Where the README says a command moves cpu0: after it, cpu0's cluster,
# the MPIDR of the CPU it runs on and its frequency must read as here
# (waited for, 2 s at most: a governor's switch is the switcher thread's).
MOVES = {
    "cpufreq-set -c 0 -g performance": "0 0x0 1200000",
    "echo 1 > /sys/kernel/bL_switcher/cpu0/cluster": "1 0x103",
    "cpufreq-set -c 0 -g powersave": "1 0x103 175000",
}


def where_cmd(want):
    """A shell line that waits until cpu0 reads WANT (cluster, MPIDR and,
    if WANT has three words, frequency) and prints what it reads between
    markers (split in the typed line, so that its echo does not match)."""
    sw = "/sys/kernel/bL_switcher/cpu0"
    read = f'"$(cat {sw}/cluster) $(cat {sw}/mpidr)'
    if len(want.split()) == 3:
        read += " $(cat /sys/devices/system/cpu/cpufreq/policy0/scaling_cur_freq)"
    read += '"'
    return (f'w=0; while [ {read} != "{want}" ] && [ $w -lt 20 ]; do sleep 0.1; '
            f'w=$((w + 1)); done; echo "@@whe""re $(echo {read})@@"')


WHERE = re.compile(rb"@@where ([^@]*)@@")


def readme_commands(top):
    lines = open(os.path.join(top, "README.md")).read().splitlines()
    i = lines.index("In the guest's shell:")
    while not lines[i].startswith("```"):
        i += 1
    start = i + 1
    cmds = []
    for line in lines[start:]:
        if line.startswith("```"):
            break
        cmd = re.split(r"\s+# ", line)[0].strip()
        if cmd:
            cmds.append(cmd)
    return cmds


class Term:
    def __init__(self, argv, cwd, typescript):
        self.log = open(typescript, "wb")
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.chdir(cwd)
            os.execvp(argv[0], argv)
        self.buf = b""

    def expect(self, rx, timeout):
        """Read until RX matches the text read since the last expect();
        return (match, text) or (None, text) at the time limit or EOF."""
        deadline = time.monotonic() + timeout
        while True:
            m = rx.search(self.buf)
            if m:
                text, self.buf = self.buf[:m.end()], self.buf[m.end():]
                return m, text
            left = deadline - time.monotonic()
            if left <= 0:
                return None, self.buf
            ready, _, _ = select.select([self.fd], [], [], min(left, 1))
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                return None, self.buf
            self.log.write(chunk)
            self.log.flush()
            self.buf += chunk

    def send(self, text):
        # One character at a time, as typed: the guest's UART has a small
        # receive FIFO.
        for ch in text.encode():
            os.write(self.fd, bytes([ch]))
            time.sleep(0.01)

    def wait(self, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            self.expect(re.compile(rb"(?!)"), 0.5)
        return None

    def kill(self):
        try:
            os.kill(self.pid, signal.SIGKILL)  # make, then QEMU via the pty's hangup
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass


def main():
    top, typescript = sys.argv[1], sys.argv[2]
    cmds = readme_commands(top)
    missing = [c for c in cmds if c not in CHECKS]
    stale = [c for c in CHECKS if c not in cmds]
    n = 0
    failed = 0

    def result(ok, name, diag=""):
        nonlocal n, failed
        n += 1
        failed += not ok
        if diag:
            print("# " + diag.replace("\n", " | ")[:400])
        print(("ok" if ok else "not ok") + f" {n} {name}", flush=True)

    print("KTAP version 1")
    moves = [c for c in cmds if c in MOVES]
    print(f"1..{len(cmds) + len(moves) + 4}", flush=True)
    result(not missing and not stale, "every README guest command has a check here",
           f"README commands without a check: {missing}; checks of commands no longer "
           f"in the README: {stale}" if missing or stale else "")

    os.makedirs(os.path.dirname(typescript), exist_ok=True)
    # LAB_MAKE_RUN_CMD: another command to drive (for debugging this test)
    argv = os.environ.get("LAB_MAKE_RUN_CMD", "make -s run VARIANT=debug").split()
    term = Term(argv, top, typescript)
    try:
        m, text = term.expect(PROMPT, 600)
        qemu = re.search(rb"\+ ((?:\S*/)?qemu-system-arm [^\r\n]*)", text)
        tail = text[-300:].decode(errors="replace")
        result(m is not None, "make run boots to the guest's shell prompt",
               f"no prompt; last output: {tail} (see {typescript})" if m is None else "")
        result(qemu is not None and b"-nodefaults" in qemu.group(1),
               "the interactive QEMU has no default devices (-nodefaults)",
               qemu.group(1).decode(errors="replace") if qemu else "no QEMU command printed")
        if m is None:
            for cmd in cmds:
                result(False, f"guest: {cmd}", "no shell")
            for cmd in moves:
                result(False, f"guest: after '{cmd}' cpu0 reads {MOVES[cmd]}", "no shell")
            result(False, "poweroff -f ends make run with status 0", "no shell")
            return 1
        # Kernel messages (the switch prints some) would break up the
        # output: keep them off this console, as a user may too.
        term.send("dmesg -n 1\r")
        term.expect(PROMPT, 30)
        for cmd in cmds:
            term.send(cmd + "\r")
            _, out = term.expect(PROMPT, 120)
            term.send('echo "@@rc=$?"@@\r')
            rc, _ = term.expect(RC, 30)
            term.expect(PROMPT, 30)
            out_s = out.decode(errors="replace").replace("\r", "")
            body = out_s.split("\n", 1)[1] if "\n" in out_s else ""
            body = re.sub(r"bl-lab:[^\n]*# (\x1b\[6n)?$", "", body)
            want = CHECKS.get(cmd)
            ok = rc is not None and rc.group(1) == b"0" and want is not None and \
                re.search(want, body, re.M) is not None
            result(ok, f"guest: {cmd}",
                   f"exit {rc.group(1).decode() if rc else '?'}; output: {body.strip()[:300]}")
            if cmd in MOVES:
                term.send(where_cmd(MOVES[cmd]) + "\r")
                got, _ = term.expect(WHERE, 30)
                term.expect(PROMPT, 30)
                got = got.group(1).decode(errors="replace") if got else "nothing"
                result(got == MOVES[cmd],
                       f"guest: after '{cmd}' cpu0 reads {MOVES[cmd]} (cluster, MPIDR"
                       f"{', kHz' if len(MOVES[cmd].split()) == 3 else ''})", f"read: {got}")
        term.send("poweroff -f\r")
        status = term.wait(120)
        result(status == 0, "poweroff -f ends make run with status 0",
               f"make exit status {status}")
    finally:
        term.kill()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Find the kernel messages that fail a test in a console log.

The rules are not here: they are in one file,
initramfs/rootfs/usr/share/lab/klog-rules, which the guest's switch-storm
reads too (as /usr/share/lab/klog-rules).  In short: every message at
KERN_ERR or worse fails unless an "allow" rule names it, and every line
matching a "bad" rule fails whatever its level.

The guest boots with console_msg_format=syslog, so a kernel message on the
console reads "<PRI>[ seconds] text" and its level is PRI % 8.
"""

import os
import re

RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                     "initramfs", "rootfs", "usr", "share", "lab", "klog-rules")

# A kernel record on the console: "<PRI>[ seconds] text", anywhere in a
# line (a message can start in the middle of a line of the job's output).
RECORD = re.compile(r"<(\d{1,3})>\[\s*\d+\.\d+\]")
# Printed by the console itself, not a record: messages were lost.
DROPPED = re.compile(r"\*\* \d+ printk messages dropped \*\*")
KERN_ERR = 3


def load_rules(path=RULES):
    """Return (bad, allow): lists of (regex text, compiled regex)."""
    bad, allow = [], []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            kind, _, pat = line.partition(" ")
            if kind not in ("bad", "allow") or not pat:
                raise ValueError(f"{path}:{lineno}: want 'bad REGEX' or 'allow REGEX'")
            (bad if kind == "bad" else allow).append((pat, re.compile(pat)))
    return bad, allow


def level(line):
    """The level of the kernel record in LINE, or None if it has none."""
    m = RECORD.search(line)
    return int(m.group(1)) % 8 if m else None


def kernel_lines(console_lines):
    """Split console lines into (kernel, other): the kernel records (from
    the record's start on) and the rest (the job's output)."""
    kernel, other = [], []
    for line in console_lines:
        m = RECORD.search(line) or DROPPED.search(line)
        if m:
            if m.start() > 0:
                other.append(line[:m.start()])
            kernel.append(line[m.start():])
        else:
            other.append(line)
    return kernel, other


def problems(text, rules=None):
    """Return (kind, line) for every line of TEXT that fails the rules:
    kind is the "bad" pattern that matched, or "KERN_ERR or worse"."""
    bad, allow = rules or load_rules()
    found = []
    for line in text.splitlines():
        for pat, rx in bad:
            if rx.search(line):
                found.append((pat, line.strip()))
                break
        else:
            lvl = level(line)
            if lvl is not None and lvl <= KERN_ERR and \
                    not any(rx.search(line) for _, rx in allow):
                found.append((f"level {lvl} (KERN_ERR or worse)", line.strip()))
    return found

"""Find the reports a healthy kernel never prints in a kernel log."""

import re

# Each pattern names one kind of report.  A test fails on any of them.
BAD = [
    ("BUG", re.compile(r"\bBUG[: ]|kernel BUG at")),
    ("WARNING", re.compile(r"WARNING: |------------\[ cut here \]")),
    ("Oops", re.compile(r"Internal error: |\bOops\b|Unable to handle kernel")),
    ("panic", re.compile(r"Kernel panic")),
    ("lockdep", re.compile(r"possible recursive locking|circular locking dependency|"
                           r"inconsistent lock state|DEBUG_LOCKS_WARN_ON|"
                           r"suspicious RCU usage|lock held when returning")),
    ("RCU stall", re.compile(r"rcu: INFO: .*detected stall|self-detected stall|"
                             r"rcu_.* detected stalls")),
    ("hung task", re.compile(r"INFO: task .* blocked for more than")),
    ("soft lockup", re.compile(r"soft lockup|hard LOCKUP")),
    ("list corruption", re.compile(r"list_(add|del) corruption")),
]


def problems(text):
    """Return (kind, line) for every line of TEXT that reports a problem."""
    found = []
    for line in text.splitlines():
        for kind, pat in BAD:
            if pat.search(line):
                found.append((kind, line.strip()))
                break
    return found

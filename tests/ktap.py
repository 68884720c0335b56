"""A small parser for KTAP (Documentation/dev-tools/ktap.rst) as the lab's
guest and host test scripts print it, in a console that may also carry
kernel messages.  Only the top level is read; subtests are not used here.
"""

import re

_VERSION = re.compile(r"^\s*(KTAP|TAP) version \d+\s*$")
_PLAN = re.compile(r"^\s*1\.\.(\d+)\s*$")
_RESULT = re.compile(r"^\s*(ok|not ok) (\d+)(?: -)? ?([^#]*?)\s*(?:#\s*(.*))?$")
_DIAG = re.compile(r"^\s*# ?(.*)$")


class Case:
    def __init__(self, number, name, passed, directive="", reason=""):
        self.number = number
        self.name = name
        self.passed = passed
        self.directive = directive
        self.reason = reason

    @property
    def skipped(self):
        return self.directive.upper().startswith("SKIP")

    def __repr__(self):
        return f"Case({self.number}, {self.name!r}, {self.passed}, {self.directive!r}, {self.reason!r})"


class Report:
    def __init__(self):
        self.version_seen = False
        self.plan = None
        self.cases = []
        self.errors = []


def parse(lines):
    """Parse an iterable of lines into a Report.  The diagnostic line just
    before a result becomes that result's reason."""
    rep = Report()
    last_diag = ""
    for line in lines:
        line = line.rstrip("\r\n")
        if _VERSION.match(line):
            rep.version_seen = True
            continue
        m = _PLAN.match(line)
        if m:
            if rep.plan is not None:
                rep.errors.append(f"second plan line: {line.strip()}")
            rep.plan = int(m.group(1))
            continue
        m = _RESULT.match(line)
        if m:
            number = int(m.group(2))
            expected = len(rep.cases) + 1
            if number != expected:
                rep.errors.append(f"test number {number} where {expected} was expected")
            directive = (m.group(4) or "").strip()
            reason = directive[4:].strip() if directive.upper().startswith("SKIP") else last_diag
            rep.cases.append(Case(number, m.group(3).strip(), m.group(1) == "ok",
                                  directive, reason))
            last_diag = ""
            continue
        m = _DIAG.match(line)
        if m:
            last_diag = m.group(1).strip()
    if not rep.version_seen:
        rep.errors.append("no KTAP version line")
    if rep.plan is None:
        rep.errors.append("no plan line")
    elif rep.plan != len(rep.cases):
        rep.errors.append(f"planned {rep.plan} tests, saw {len(rep.cases)}")
    return rep

#!/usr/bin/env python3
"""What a function that runs with its data cache off loads from memory.

A CPU whose SCTLR.C is clear reads memory past the caches: data another
CPU, or this one before, left dirty in a cache reads stale.  Pointers set
at boot (psci_ops, arch_timer_read_counter) are the classic case.  The
lab's model has no caches, so no guest test can see it; this reads the
object code instead (issue 28, item 2).

For each function given as NAME or NAME@sctlr (checked from the first
write of SCTLR on, where the function turns its cache off itself) it
disassembles vmlinux and reports
  - every data symbol it loads or stores through an address it forms
    (movw/movt pairs, literal-pool words, plus the offset of the access),
  - every direct call or tail call, and
  - every indirect call (blx/bx through a register other than lr), as
    REG=argN when the register still holds the function's Nth argument
    (copied by mov, never written otherwise), REG=*SYM when it was loaded
    from SYM, else REG=?.
The caller says what is allowed.  Register tracking is a linear scan that
follows a base register through "add rD, rD, ..." (an index into an array
keeps the array's symbol) and forgets it at any other write.  A register
loaded from a tracked address is tracked as "*SYM" (a pointer read from
SYM: anything it points to is as stale as SYM), and one read from TPIDRURO
as "current" (the running task, whose fields are written with caches on).

Usage: cache_off_reads.py VMLINUX SPEC... ; prints one line per function:
  NAME data=SYM,SYM calls=FN,FN indirect=REG=argN,REG=?
or "NAME missing" for a function vmlinux does not have.
"""
import bisect
import re
import subprocess
import sys

OBJDUMP = "arm-linux-gnueabihf-objdump"
NM = "arm-linux-gnueabihf-nm"

REG = r"(?:r\d+|sl|fp|ip|sp|lr|pc|sb)"
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
NO_DEST = ("str", "cmp", "cmn", "tst", "teq", "b", "cb", "push", "it",
           "isb", "dsb", "dmb", "mcr", "nop", "sev", "wf", "pld", "bl",
           "bx", "blx", "udf", "svc", "hvc", "smc", ".word", ".short")


def symbols(vmlinux):
    out = subprocess.run([NM, "-n", "-S", vmlinux], check=True,
                         capture_output=True, text=True).stdout
    syms = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2].lower() in "bdrg":
            syms.append((int(f[0], 16), int(f[1], 16), f[3]))
    syms.sort()
    return syms


def symbol_at(syms, starts, addr):
    i = bisect.bisect_right(starts, addr) - 1
    if i >= 0 and syms[i][0] <= addr < syms[i][0] + syms[i][1]:
        return syms[i][2]
    return "0x%x" % addr


def disassemble(vmlinux, name):
    out = subprocess.run([OBJDUMP, "-d", "--no-show-raw-insn",
                          "--disassemble=" + name, vmlinux],
                         check=True, capture_output=True, text=True).stdout
    lines, inside = [], False
    for line in out.splitlines():
        if line.endswith("<%s>:" % name):
            inside = True
            continue
        if inside and not line.strip():
            break
        if inside:
            m = INSN.match(line)
            if m:
                lines.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return lines


def dest_regs(mnem, ops):
    """Registers an instruction writes, as far as this scan cares."""
    base = mnem.split(".")[0]
    if base.startswith(("pop", "ldm")):
        return re.findall(REG, ops[ops.find("{"):])
    if base.startswith("mrrc"):
        return re.findall(REG, ops)[:2]
    if base.startswith("mrc"):
        f = [x.strip() for x in ops.split(",")]
        return [f[2]] if len(f) > 2 else []
    if base.startswith("ldrd"):
        return re.findall(REG, ops)[:2]
    if base.startswith(("umull", "smull", "umlal", "smlal")):
        return re.findall(REG, ops)[:2]
    for p in NO_DEST:
        if base == p or (p not in ("b", "bl") and base.startswith(p)):
            return []
    if re.fullmatch(r"b(?:eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?",
                    base):
        return []
    m = re.match(REG, ops)
    return [m.group(0)] if m else []


def scan(vmlinux, spec, syms, starts):
    name, _, start_at = spec.partition("@")
    insns = disassemble(vmlinux, name)
    if not insns:
        return name, None, None, None
    words = {}
    for addr, mnem, ops in insns:
        if mnem == ".word":
            words[addr] = int(ops.split()[0], 0)
    known = {}          # register -> address it holds (or an array's base)
    low = {}            # register -> pending movw half
    data, calls, indirect = set(), set(), set()
    recording = not start_at
    args = {"r%d" % i: "arg%d" % i for i in range(4)}  # still an argument
    for addr, mnem, ops in insns:
        if mnem.startswith(".") or mnem == "udf":
            continue
        base = mnem.split(".")[0]
        if (start_at == "sctlr" and base.startswith("mcr") and
                re.search(r"cr1,\s*cr0,\s*\{0\}", ops)):
            recording = True
        regs = re.findall(REG, ops)
        # memory access through a tracked base
        m = re.search(r"\[(%s)(?:,\s*#(-?\d+))?[^\]]*\]" % REG, ops)
        if not m and base.startswith(("ldm", "stm")):
            m = re.match(r"(%s)!?,\s*\{" % REG, ops)
        if m and base.startswith(("ldr", "str", "ldm", "stm")) and \
                m.group(1) in known and recording:
            where = known[m.group(1)]
            if isinstance(where, str):
                data.add(where)
            else:
                data.add(symbol_at(syms, starts, where +
                                   int((m.groups() + (None,))[1] or 0)))
        # calls
        if base in ("bl", "b", "blx", "bx") or re.fullmatch(
                r"b(?:eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)", base):
            t = re.search(r"<([^>+]+)(\+0x[0-9a-f]+)?>", ops)
            if t and t.group(1) != name and recording:
                calls.add(t.group(1))
            elif base in ("blx", "bx") and regs and regs[0] != "lr" and recording:
                held = known.get(regs[0])
                indirect.add("%s=%s" % (regs[0], args.get(
                    regs[0], held if isinstance(held, str) else "?")))
        # register values
        dests = dest_regs(mnem, ops)
        if not (base == "mov" and len(regs) == 2 and regs[1] in args):
            for d in dests:
                args.pop(d, None)
        if base == "mrc" and re.search(r"cr13,\s*cr0,\s*\{3\}", ops):
            known[dests[0]] = "current"     # TPIDRURO: the current task
            continue
        if base.startswith("ldr") and m and m.group(1) in known and dests:
            where = known[m.group(1)]
            if not isinstance(where, str):
                where = symbol_at(syms, starts, where + int(m.group(2) or 0))
            for d in dests:
                known[d] = "*" + where
            continue
        if base == "movw" and dests:
            imm = re.search(r"#(\d+)", ops)
            low[dests[0]] = int(imm.group(1)) if imm else None
            known.pop(dests[0], None)
            continue
        if base == "movt" and dests and low.get(dests[0]) is not None:
            imm = re.search(r"#(\d+)", ops)
            value = (int(imm.group(1)) << 16) | low.pop(dests[0])
            known[dests[0]] = value
            continue
        lit = re.search(r"\[pc, #-?\d+\]\s*@ \(([0-9a-f]+)", ops)
        if base == "ldr" and lit and dests:
            value = words.get(int(lit.group(1), 16))
            if value is not None:
                known[dests[0]] = value
                if recording:
                    data.add(symbol_at(syms, starts, value))
            continue
        if base.startswith("add") and regs[0] in known and re.match(
                r"(%s),\s*\1,\s*%s(?:,\s*lsl #\d+)?$" % (REG, REG), ops):
            continue        # an index into the same array
        if base == "mov" and len(regs) == 2 and regs[1] in args and \
                re.fullmatch(r"%s,\s*%s" % (REG, REG), ops):
            args[regs[0]] = args[regs[1]]
            known.pop(regs[0], None)
            continue
        for d in dests:
            known.pop(d, None)
            low.pop(d, None)
            args.pop(d, None)
    return name, data, calls, indirect


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cache_off_reads.py VMLINUX NAME[@sctlr]...")
    syms = symbols(sys.argv[1])
    starts = [s[0] for s in syms]
    for spec in sys.argv[2:]:
        name, data, calls, indirect = scan(sys.argv[1], spec, syms, starts)
        if data is None:
            print("%s missing" % name)
            continue
        print("%s data=%s calls=%s indirect=%s" % (
            name, ",".join(sorted(data)), ",".join(sorted(calls)),
            ",".join(sorted(indirect))))


if __name__ == "__main__":
    main()

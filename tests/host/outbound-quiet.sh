#!/usr/bin/env bash
# lab-test: parallel=yes
# Nothing prints or traces on the outbound CPU's way down (issue 28,
# item 8).  Once bL_do_switch() has let the inbound in, the outbound runs
# as the same logical CPU in the same task, on a 1 KiB stack of its own:
# printk or a trace event there would use per-CPU buffers the inbound uses
# at the same time, from a stack sized without them.  The lab's kernels
# build pr_debug() out (no DEBUG, no dynamic debug), so no guest test sees
# one; this reads the source of every function on that path in the
# patched tree.  (WARN and BUG on a broken invariant are left alone: a
# kernel in that state has worse problems than a shared printk buffer.)
# The check of the check: the same rule applied to
# dcscb_cpu_powerup(), which prints (it runs on the requesting CPU), must
# fail.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$("$top/scripts/kernel-tree" path)

# file:function, the outbound's path from bL_do_switch() to power-off
FUNCS=(
	arch/arm/common/bL_switcher.c:bL_do_switch
	arch/arm/common/mcpm_entry.c:mcpm_cpu_power_down
	arch/arm/common/mcpm_entry.c:mcpm_cpu_down_cache_off
	arch/arm/common/mcpm_entry.c:mcpm_cpu_power_off
	arch/arm/common/mcpm_entry.c:mcpm_fault_delay_power_off
	arch/arm/common/mcpm_entry.c:mcpm_delay_cache_off
	arch/arm/mach-versatile/dcscb.c:dcscb_cpu_powerdown_prepare
	arch/arm/mach-versatile/dcscb.c:dcscb_cluster_powerdown_prepare
	arch/arm/mach-versatile/dcscb.c:dcscb_cpu_cache_disable
	arch/arm/mach-versatile/dcscb.c:dcscb_cluster_cache_disable
	arch/arm/common/mcpm_psci.c:mcpm_psci_cpu_cache_disable
	arch/arm/common/mcpm_psci.c:mcpm_psci_cluster_cache_disable
	arch/arm/common/mcpm_psci.c:mcpm_psci_cpu_power_off
)

# prints FILE FUNCTION: the printing or tracing calls in each definition
# of FUNCTION in FILE (there may be one per #ifdef branch), "missing" if
# there is none
prints() {
	python3 - "$1" "$2" <<'EOF'
import re
import sys

path, name = sys.argv[1], sys.argv[2]
src = open(path).read()
found, calls = False, []
for m in re.finditer(r"^[a-z_][^;{}()]*\b%s\([^;{]*\)\s*\{" % re.escape(name),
                     src, re.M):
    found = True
    depth, i = 1, m.end()
    while depth and i < len(src):
        depth += {"{": 1, "}": -1}.get(src[i], 0)
        i += 1
    calls += re.findall(r"\b(pr_\w+|printk\w*|dev_\w+|trace_\w+|dump_stack)\s*\(",
                        src[m.end():i])
print(" ".join(calls) if found else "missing")
EOF
}

n=0
echo "KTAP version 1"
echo "1..$((${#FUNCS[@]} + 1))"
for f in "${FUNCS[@]}"; do
	file=${f%%:*} name=${f#*:}
	n=$((n + 1))
	got=$(prints "$tree/$file" "$name")
	if [ -z "$got" ]; then
		echo "ok $n $name prints and traces nothing"
	else
		echo "# $file: $got"
		echo "not ok $n $name prints and traces nothing"
	fi
done
n=$((n + 1))
got=$(prints "$tree/arch/arm/mach-versatile/dcscb.c" dcscb_cpu_powerup)
if [ -n "$got" ] && [ "$got" != missing ]; then
	echo "# dcscb_cpu_powerup: $got"
	echo "ok $n check of the check: dcscb_cpu_powerup, which prints, is seen printing"
else
	echo "# dcscb_cpu_powerup: '$got'"
	echo "not ok $n check of the check: dcscb_cpu_powerup, which prints, is seen printing"
fi

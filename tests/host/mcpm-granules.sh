#!/usr/bin/env bash
# lab-test: parallel=yes
# Data that CPUs with their caches off write in memory while others read
# it with theirs on must not share a writeback granule with data another
# party writes: a cached read-modify-write of the shared granule would
# write back a stale copy of the other's bytes (issue 28, item 7).  On
# the cacheless model no guest test can see it, so this reads the layout
# of the debug kernel's vmlinux: the fault-injection byte of each cluster
# that mcpm_head.S clears with the MMU off (mcpm_fault_skip_setup) and the
# per-CPU counters kept with the caches off (mcpm_entry_stats) each start
# a granule of their own.  The check of the check: the same test applied
# to a two-cluster array of one granule in all, the layout before the fix,
# must fail.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vmlinux=${VMLINUX:-$top/build/kernel-debug/vmlinux}
tree=$("$top/scripts/kernel-tree" path)
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"

echo "KTAP version 1"
echo "1..3"
order=$(awk '$1 == "#define" && $2 == "__CACHE_WRITEBACK_ORDER" { print $3 }' \
	"$tree/arch/arm/include/asm/cacheflush.h")
granule=$((1 << order))
# MAX_NR_CLUSTERS (asm/mcpm.h): 4 with MCPM_QUAD_CLUSTER, else 2
if grep -qx CONFIG_MCPM_QUAD_CLUSTER=y "$(dirname "$vmlinux")/.config"; then
	clusters=4
else
	clusters=2
fi
cpus=$(awk '$1 == "#define" && $2 == "MAX_CPUS_PER_CLUSTER" { print $3 }' \
	"$tree/arch/arm/include/asm/mcpm.h")

# own_granules ADDR SIZE N: whether N elements of SIZE / N bytes from ADDR
# each start at a granule boundary and span whole granules
own_granules() {
	local addr=$(($1)) size=$(($2)) n=$3
	[ $((addr % granule)) -eq 0 ] && [ $((size % n)) -eq 0 ] &&
		[ $((size / n)) -ge $granule ] && [ $((size / n % granule)) -eq 0 ]
}

# symbol NAME: "0xADDR 0xSIZE" from vmlinux
symbol() {
	arm-linux-gnueabihf-nm -S "$vmlinux" |
		awk -v s="$1" '$4 == s { print "0x" $1, "0x" $2 }'
}

for sym in mcpm_fault_skip_setup:$clusters mcpm_entry_stats:$((clusters * cpus)); do
	name=${sym%%:*} count=${sym#*:}
	read -r addr size <<< "$(symbol "$name")"
	what="$name: $count elements, each in writeback granules of its own ($granule bytes)"
	if [ -z "${addr:-}" ]; then
		fail "$what" "$name not in $vmlinux"
	elif own_granules "$addr" "$size" "$count"; then
		pass "$what"
	else
		fail "$what" "$name at $addr, $((size)) bytes for $count elements"
	fi
done

# The check of the check: the old layout, one granule for both clusters.
if own_granules 0xc0a00000 "$granule" "$clusters"; then
	fail "check of the check: $clusters clusters in one $granule-byte granule fail" "passed"
else
	pass "check of the check: $clusters clusters in one $granule-byte granule fail"
fi

#!/usr/bin/env bash
# Kconfig dependencies of the series: MCPM_PSCI cannot be had without
# ARM_CPU_TOPOLOGY (without it MCPM falls back to decoding flat MPIDRs and
# CPUs 4-7 cannot come up).  The lab's base.config with ARM_CPU_TOPOLOGY
# turned off must lose MCPM_PSCI, which scripts/kernel-config reports
# (among the other options that need the topology, such as SCHED_MC).
# KTREE overrides the kernel tree (default: the lab's prepared tree).
# Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=${KTREE:-$("$top/scripts/kernel-tree" path)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "KTAP version 1"
echo "1..1"
sed 's/^CONFIG_ARM_CPU_TOPOLOGY=y$/CONFIG_ARM_CPU_TOPOLOGY=n/' "$top/kernel/configs/base.config" \
	> "$tmp/no-topology.config"
grep -qx CONFIG_ARM_CPU_TOPOLOGY=n "$tmp/no-topology.config"
if "$top/scripts/kernel-config" "$tree" "$tmp/obj" "$tmp/no-topology.config" 2> "$tmp/err"; then
	echo "# base.config with ARM_CPU_TOPOLOGY=n still gives MCPM_PSCI=y"
	echo "not ok 1 MCPM_PSCI depends on ARM_CPU_TOPOLOGY"
	exit 1
fi
if grep -q "asks for CONFIG_MCPM_PSCI=y" "$tmp/err"; then
	echo "# $(grep "CONFIG_MCPM_PSCI=" "$tmp/err")"
	echo "ok 1 MCPM_PSCI depends on ARM_CPU_TOPOLOGY"
else
	echo "# MCPM_PSCI=y kept; kernel-config said: $(head -n 3 "$tmp/err" | tr '\n' ' ')"
	echo "not ok 1 MCPM_PSCI depends on ARM_CPU_TOPOLOGY"
	exit 1
fi

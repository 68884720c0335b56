#!/usr/bin/env bash
# lab-test: parallel=yes
# Kconfig dependencies of the series: MCPM_PSCI cannot be had without
# ARM_CPU_TOPOLOGY (without it MCPM falls back to decoding flat MPIDRs and
# CPUs 4-7 cannot come up).  The lab's base.config with ARM_CPU_TOPOLOGY
# turned off must lose MCPM_PSCI, which scripts/kernel-config reports
# (among the other options that need the topology, such as SCHED_MC).
# Likewise KEXEC needs PM_SLEEP_SMP on SMP arm32: without SUSPEND and
# HIBERNATION in base.config it is dropped.
# KTREE overrides the kernel tree (default: the lab's prepared tree).
# Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tree=${KTREE:-$("$top/scripts/kernel-tree" path)}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "KTAP version 1"
echo "1..2"
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

sed -e '/^CONFIG_SUSPEND=y$/d' -e '/^CONFIG_HIBERNATION=y$/d' "$top/kernel/configs/base.config" \
	> "$tmp/no-sleep.config"
if grep -qE '^CONFIG_(SUSPEND|HIBERNATION)=' "$tmp/no-sleep.config" ||
	! grep -qx CONFIG_KEXEC=y "$tmp/no-sleep.config"; then
	echo "# base.config does not ask for KEXEC, SUSPEND and HIBERNATION as this test expects"
	echo "not ok 2 KEXEC needs system sleep (PM_SLEEP_SMP)"
	exit 1
fi
if "$top/scripts/kernel-config" "$tree" "$tmp/obj2" "$tmp/no-sleep.config" 2> "$tmp/err2"; then
	echo "# base.config without SUSPEND and HIBERNATION still gives KEXEC=y"
	echo "not ok 2 KEXEC needs system sleep (PM_SLEEP_SMP)"
	exit 1
fi
if grep -q "asks for CONFIG_KEXEC=y" "$tmp/err2"; then
	echo "# $(grep "CONFIG_KEXEC=" "$tmp/err2")"
	echo "ok 2 KEXEC needs system sleep (PM_SLEEP_SMP)"
else
	echo "# KEXEC=y kept; kernel-config said: $(head -n 3 "$tmp/err2" | tr '\n' ' ')"
	echo "not ok 2 KEXEC needs system sleep (PM_SLEEP_SMP)"
	exit 1
fi

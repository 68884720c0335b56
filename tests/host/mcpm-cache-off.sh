#!/usr/bin/env bash
# lab-test: parallel=yes
# What the power-down path reads with its data cache off (issue 28,
# item 2).  A CPU with SCTLR.C clear reads memory past the caches, so data
# set with the caches on and never cleaned to memory (psci_ops, the PSCI
# driver's invoke_psci_fn, arch_timer_read_counter) may read stale: on
# hardware a call through a stale pointer.  The lab's model has no caches,
# so no guest test can see it; this reads the debug kernel's object code
# (tests/host/lib/cache_off_reads.py) for every function that runs with
# the cache off, from start to end or from its own SCTLR write on, and
# requires that it
#   - loads and stores only data that is cleaned to memory when set, or
#     written only with caches off (CLEANED below, each with its reason),
#   - calls only functions checked here or the cache-flush leaves,
#   - calls through no pointer except an argument it was given (the
#     backend's cpu_power_off and the CPU's cpu_reset, which
#     mcpm_cpu_power_down reads before its cache goes off).
# The check of the check: PSCI's own psci_0_2_cpu_off, which the backend
# called before the fix, must fail.  Prints KTAP.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
vmlinux=${VMLINUX:-$top/build/kernel-debug/vmlinux}
# shellcheck source=lib/ktap.sh
. "$top/tests/host/lib/ktap.sh"

# symbol: why it may be read with the cache off
declare -A CLEANED=(
	[mcpm_entry_stats]="written only with caches off, in granules of their own"
	[mcpm_fault_refuse_off]="sync_cache_w() when set"
	[mcpm_fault_off_delay_us]="sync_cache_w() when set"
	[mcpm_psci_conduit]="sync_cache_w() when set"
	[cci_ctrl_base]="arm-cci.c: sync_cache_w() when probed"
	[ports]="arm-cci.c: sync_cache_w() when probed"
	[cpu_port]="arm-cci.c: sync_cache_w() when probed"
	[*ports]="arm-cci.c's port array: __sync_cache_range_w() when probed"
	[**ports]="a port's registers, through the array's base: device memory"
	[nr_cpu_ids]="arm-cci.c's loop bound, never cleaned; a stale copy holds the image's NR_CPUS, never below it"
	[outer_cache]="sync_cache_w()'s outer-cache hooks, never cleaned; set only with an L2C-310, which no MCPM platform has, so the image's NULLs are right"
)
# the flush routines: assembler that reads only CP15 registers
LEAVES=" v7_flush_dcache_all v7_flush_dcache_louis v7_flush_kern_dcache_area
	b15_flush_kern_dcache_area __arm_smccc_smc __arm_smccc_hvc "
LEAVES=${LEAVES//$'\n'/ }
LEAVES=${LEAVES//$'\t'/}
# function: the pointer it may call through
declare -A ARGCALL=(
	[mcpm_cpu_power_off]="arg0"		# the backend's cpu_power_off
	[mcpm_cpu_down_cache_off]="arg0"	# this CPU's cpu_reset
	[__sync_cache_range_w]="*outer_cache"	# see CLEANED
)

FUNCS=(
	mcpm_cpu_down_cache_off __sync_cache_range_w
	mcpm_cpu_power_off mcpm_delay_cache_off mcpm_fault_delay_power_off
	mcpm_psci_cpu_power_off mcpm_psci_cpu_cache_disable@sctlr
	mcpm_psci_cluster_cache_disable@sctlr dcscb_cpu_cache_disable@sctlr
	dcscb_cluster_cache_disable@sctlr cci_disable_port_by_cpu
)
checked=" $(printf '%s ' "${FUNCS[@]%@*}")"

# verdict LINE: empty when the function's line from cache_off_reads.py
# keeps the rules, else what breaks them
verdict() {
	local name data calls indirect why="" x
	read -r name data calls indirect <<< "$1"
	if [ "$data" = missing ]; then
		echo "not in vmlinux"
		return
	fi
	data=${data#data=} calls=${calls#calls=} indirect=${indirect#indirect=}
	for x in ${data//,/ }; do
		[ -n "${CLEANED[$x]:-}" ] || why+="loads $x; "
	done
	for x in ${calls//,/ }; do
		[[ "$checked$LEAVES" == *" $x "* ]] || why+="calls $x; "
	done
	for x in ${indirect//,/ }; do
		[ "${x#*=}" = "${ARGCALL[$name]:-none}" ] || why+="calls through ${x%=*} (${x#*=}); "
	done
	echo "$why"
}

if [ ! -f "$vmlinux" ]; then
	echo "KTAP version 1"; echo "1..1"
	fail "vmlinux to read" "no $vmlinux: make kernel VARIANT=debug"
	exit 0
fi
out=$(python3 "$top/tests/host/lib/cache_off_reads.py" "$vmlinux" "${FUNCS[@]}" psci_0_2_cpu_off)
echo "KTAP version 1"
echo "1..$((${#FUNCS[@]} + 1))"
while read -r line; do
	name=${line%% *}
	why=$(verdict "$line")
	if [ "$name" = psci_0_2_cpu_off ]; then
		what="check of the check: psci_0_2_cpu_off (the backend's CPU_OFF before the fix) fails"
		if [ -n "$why" ]; then
			echo "# $line"; echo "# $why"; pass "$what"
		else
			fail "$what" "$line passed"
		fi
	elif [ -z "$why" ]; then
		echo "# $line"
		pass "$name reads with its cache off only data cleaned to memory"
	else
		fail "$name reads with its cache off only data cleaned to memory" "$line: $why"
	fi
done <<< "$out"

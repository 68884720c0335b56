# Helpers for guest scripts that drive the big.LITTLE switcher.
# Source after ktap.sh and mcpm.sh:  . /usr/share/lab/switcher.sh

SW=/sys/kernel/bL_switcher
# statistics and the pairs (debugfs: tables are not sysfs ABI)
SWD=/sys/kernel/debug/bL_switcher
TRACE=/sys/kernel/tracing

# sw_cpus: the paired logical CPUs (those with a cpuN directory)
sw_cpus() {
	for _d in "$SW"/cpu[0-9]*; do
		[ -d "$_d" ] && echo "${_d##*/cpu}"
	done
}

sw_cluster() { cat "$SW/cpu$1/cluster"; }
sw_mpidr() { cat "$SW/cpu$1/mpidr"; }
sw_switches() { cat "$SW/cpu$1/switches"; }

# sw_pair N: sets _p0 and _p1 to the hardware ids of logical CPU N's pair,
# cluster 0's first ("" if N is not paired); the shell's own read, no
# process (see cf_state_once)
sw_pair() {
	_p0=""
	_p1=""
	while read -r _pn _pa _pb; do
		[ "$_pn" = "$1" ] && { _p0=$_pa; _p1=$_pb; return 0; }
	done < "$SWD/pairs"
	return 1
}

# sw_other N: hardware id of the pair member not running logical CPU N
sw_other() {
	_cur=$(sw_mpidr "$1")
	sw_pair "$1"
	if [ "$_p0" = "$_cur" ]; then echo "$_p1"; else echo "$_p0"; fi
}

# sw_switch N CLUSTER: switch, quietly; returns the write's status
sw_switch() {
	echo "$2" 2>/dev/null > "$SW/cpu$1/cluster"
}

# sw_stat NAME: one line of the switcher's stats
sw_stat() {
	awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print "missing" }' "$SWD/stats"
}

# sw_errno_of CMD...: run CMD, print the error message its write gave
sw_write_error() {
	( "$@" ) 2>&1 >/dev/null | sed 's/.*write error: //' | head -n 1
}

# sw_mpidr_readback: "CPU:MPIDR ..." for every online CPU, as each CPU
# reads its own MPIDR (power:cpu_migrate_current, via trace_trigger)
sw_mpidr_readback() {
	echo 0 > "$TRACE/tracing_on"
	echo > "$TRACE/trace"
	echo 1 > "$TRACE/events/power/cpu_migrate_current/enable"
	echo 1 > "$TRACE/tracing_on"
	echo 1 > "$SW/trace_trigger"
	echo 0 > "$TRACE/tracing_on"
	echo 0 > "$TRACE/events/power/cpu_migrate_current/enable"
	sed -n 's/.*\[0*\([0-9][0-9]*\)\].*cpu_migrate_current:.*cpu_hwid=0x0*\([0-9A-Fa-f][0-9A-Fa-f]*\).*/\1:0x\2/p' \
		"$TRACE/trace" | sort -n | tr 'A-F\n' 'a-f ' | sed 's/:0x$/:0x0/; s/ $//'
}

# sw_consistent: each paired logical CPU runs on the pair member its
# mpidr file names, which MCPM and PSCI show up; every other CPU of the
# system is down and off per PSCI.  Prints what disagrees.
sw_consistent() {
	_up=" "
	for _n in $(sw_cpus); do
		read -r _m < "$SW/cpu$_n/mpidr"
		_up="$_up$((_m)) "
	done
	_list=""
	# shellcheck disable=SC2046 # one hardware id per CPU, split on purpose
	set -- $(cpu_hwids)
	for _d in /sys/devices/system/cpu/cpu[0-9]*; do
		case "$_up" in
		*" $1 "*) _list="$_list ${_d##*cpu}:$1:UP,1,ON" ;;
		*) _list="$_list ${_d##*cpu}:$1:DOWN,0,OFF" ;;
		esac
		shift
	done
	mcpm_cpus_are "$_list"
}

# sw_consistent_within TENTHS: sw_consistent, retried every 0.1 s for up
# to TENTHS tenths of a second while it disagrees (a switch or power-off
# under way settles, a wrong state stays); prints what still disagrees
sw_consistent_within() {
	_w=0
	while ! _why=$(sw_consistent) && [ "$_w" -lt "$1" ]; do
		sleep 0.1
		_w=$((_w + 1))
	done
	[ -z "$_why" ] || { echo "$_why"; return 1; }
}

# Switches every logical CPU to cluster 1 and back to 0, then checks
# sw_consistent and that the switcher has four logical CPUs.  Prints what
# failed; returns non-zero if anything did.
sw_round_trip_all() {
	_rt=""
	for _n in $(sw_cpus); do
		sw_switch "$_n" 1 || _rt="$_rt cpu$_n:to-1"
		sw_switch "$_n" 0 || _rt="$_rt cpu$_n:to-0"
	done
	if _why=$(sw_consistent); then :; else _rt="$_rt $_why"; fi
	[ "$(sw_cpus | wc -l)" = 4 ] || _rt="$_rt $(sw_cpus | wc -l) logical CPUs"
	echo "$_rt"
	[ -z "$_rt" ]
}

# In TC2's layout, two A15s and three A7s (rtsm's 2+3 and tc2): the
# switcher's opening, and a round trip of both logical CPUs, as ktap
# results.
# sw_ids: "cpuN MPIDR part" of logical CPUs 0 and 1, as each reads them
# on itself
sw_ids() {
	awk '$1 == "cpu0" || $1 == "cpu1" { print $1, $3, $7 }' /sys/kernel/debug/arm_cpuid
}

# sw_2plus3_opening: two pairs, the third A7 kept offline and reported
sw_2plus3_opening() {
	ktap_expect "active with logical CPUs 0-1 online, directories cpu0 cpu1" "1 0-1 0 1" \
		"$(cat "$SW/active") $(cat /sys/devices/system/cpu/online) $(sw_cpus | tr '\n' ' ' | sed 's/ $//')"
	ktap_expect "one CPU reported without a counterpart" 1 \
		"$(dmesg | grep -c 'has no counterpart in the other cluster: kept offline')"
}

# sw_2plus3_to_a7s: both logical CPUs to cluster 1, where each must read
# an A7's MPIDR and part on itself, two different A7s
sw_2plus3_to_a7s() {
	for _n in 0 1; do sw_switch $_n 1 || ktap_diag "cpu$_n: switch to cluster 1 failed"; done
	ktap_expect "on cluster 1: cpu0 and cpu1 each read an A7's MPIDR and part, two different A7s" \
		"2 2" "$(sw_ids | awk '$2 ~ /^0x800001/ && $3 == "0xc07" { n++; m[$2] = 1 }
			END { k = 0; for (x in m) k++; print n + 0, k }')"
}

# sw_2plus3_to_a15s: both back to cluster 0, each on its own A15
sw_2plus3_to_a15s() {
	for _n in 0 1; do sw_switch $_n 0 || ktap_diag "cpu$_n: switch to cluster 0 failed"; done
	ktap_expect "${1:-back on cluster 0}: each reads its own A15's MPIDR and part" \
		"cpu0 0x80000000 0xc0f|cpu1 0x80000001 0xc0f" "$(sw_ids | tr '\n' '|' | sed 's/|$//')"
}

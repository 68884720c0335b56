# Helpers for guest scripts that look at MCPM and CPU hotplug.
# Source after ktap.sh:  . /usr/share/lab/mcpm.sh

MCPM_DIR=/sys/kernel/debug/mcpm

# mcpm_stat NAME: the value of one counter of mcpm/stats
mcpm_stat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print "missing" }' \
		"$MCPM_DIR/stats"
}

# mcpm_cluster_state N: "STATE INBOUND" of cluster N
mcpm_cluster_state() {
	awk -v c="$1" '$1 == "cluster" && $2 == c { print $4, $6 }' "$MCPM_DIR/state"
}

# mcpm_cpu_field HWID FIELD: a field (state, use_count, power, cluster, cpu)
# of the CPU with that hardware id, from mcpm/state
mcpm_cpu_field() {
	awk -v h="$(printf '0x%x' "$1")" -v f="$2" '
		$1 == "cpu" { for (i = 1; i < NF; i += 2) v[$i] = $(i + 1);
			      if (v["hwid"] == h) print v[f] }' "$MCPM_DIR/state"
}

# cpu_hwid N: the hardware id (MPIDR affinity bits) of logical CPU N, from
# its DT node's reg
cpu_hwid() {
	printf '%d' "0x$(hexdump -v -e '4/1 "%02x"' /sys/devices/system/cpu/cpu"$1"/of_node/reg)"
}

cpu_online() {
	if [ "$1" = 0 ]; then echo 1; else cat /sys/devices/system/cpu/cpu"$1"/online; fi
}

# set_online N 0|1: quietly; returns the write's status
set_online() {
	echo "$2" 2>/dev/null > /sys/devices/system/cpu/cpu"$1"/online
}

# mcpm_consistent: every CPU's MCPM state, use count and PSCI power state
# agree with the online mask, and every cluster's state with its CPUs.
# Prints what disagrees; returns non-zero then.
mcpm_consistent() {
	_bad=0
	for _d in /sys/devices/system/cpu/cpu[0-9]*; do
		_n=${_d##*cpu}
		_h=$(cpu_hwid "$_n")
		_on=$(cpu_online "$_n")
		_st=$(mcpm_cpu_field "$_h" state)
		_uc=$(mcpm_cpu_field "$_h" use_count)
		_pw=$(mcpm_cpu_field "$_h" power)
		if [ "$_on" = 1 ]; then
			_want="UP 1 ON"
		else
			_want="DOWN 0 OFF"
		fi
		if [ "$_st $_uc $_pw" != "$_want" ]; then
			echo "cpu$_n (hwid $_h) online=$_on but state/use_count/power = $_st $_uc $_pw"
			_bad=1
		fi
	done
	for _c in 0 1; do
		_up=0
		for _d in /sys/devices/system/cpu/cpu[0-9]*; do
			_n=${_d##*cpu}
			[ "$(cat "$_d/topology/physical_package_id")" = "$_c" ] || continue
			[ "$(cpu_online "$_n")" = 1 ] && _up=1
		done
		_cs=$(mcpm_cluster_state "$_c")
		if [ "$_up" = 1 ]; then _want="UP NOT_COMING_UP"; else _want="DOWN NOT_COMING_UP"; fi
		if [ "$_cs" != "$_want" ]; then
			echo "cluster $_c has online CPUs=$_up but state is $_cs"
			_bad=1
		fi
	done
	return "$_bad"
}

# Helpers for guest scripts that look at MCPM and CPU hotplug.
# Source after ktap.sh:  . /usr/share/lab/mcpm.sh

MCPM_DIR=/sys/kernel/debug/mcpm

# mcpm_stat NAME: the value of one counter of mcpm/stats
mcpm_stat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) print "missing" }' \
		"$MCPM_DIR/stats"
}

# mcpm_fault_arm ATTR N: the next N power-ups of a CPU that is down meet
# fault ATTR: fail_power_up (they fail with EIO) or lose_power_up (reported
# done, the CPU left off), fault attributes of the kernel's fault-injection
# framework in mcpm/ (debug kernel: CONFIG_MCPM_FAULT_INJECTION).  N 0
# disarms it.
mcpm_fault_arm() {
	if [ "$2" = 0 ]; then
		echo 0 > "$MCPM_DIR/$1/probability"
		echo 0 > "$MCPM_DIR/$1/times"
		return
	fi
	echo 1 > "$MCPM_DIR/$1/interval"
	echo "$2" > "$MCPM_DIR/$1/times"
	echo 100 > "$MCPM_DIR/$1/probability"
}

# mcpm_fault_left ATTR: how many of the faults armed on ATTR are to come
mcpm_fault_left() {
	cat "$MCPM_DIR/$1/times"
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

# cpu_hwids: the hardware ids of all the system's CPUs, in the order of
# /sys/devices/system/cpu/cpu[0-9]* (one process for all of them: a process
# start costs a third of a second of guest time on an A7 at 350 MHz)
cpu_hwids() {
	for _h in $(hexdump -v -e '4/1 "%02x" " "' /sys/devices/system/cpu/cpu[0-9]*/of_node/reg); do
		printf '%d ' "0x$_h"
	done
}

# mcpm_cpus_are "N:HWID:STATE,USE_COUNT,POWER ...": prints each listed CPU
# whose line in mcpm/state says otherwise; returns non-zero then
mcpm_cpus_are() {
	awk -v list="$1" '
		$1 == "cpu" {
			for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
			got[v["hwid"]] = v["state"] " " v["use_count"] " " v["power"]
		}
		END {
			bad = 0
			n = split(list, w, " ")
			for (i = 1; i <= n; i++) {
				split(w[i], f, ":")
				want = f[3]
				gsub(",", " ", want)
				h = sprintf("0x%x", f[2])
				if (got[h] != want) {
					printf "cpu%s (hwid %s): state/use_count/power %s, expected %s\n", f[1], f[2], got[h], want
					bad = 1
				}
			}
			exit bad
		}' "$MCPM_DIR/state"
}

# mcpm_consistent: every CPU's MCPM state, use count and PSCI power state
# agree with the online mask, and every cluster's state with its CPUs.
# Prints what disagrees; returns non-zero then.
mcpm_consistent() {
	_bad=0
	_list=""
	_pkgs=" "
	# shellcheck disable=SC2046 # one hardware id per CPU, split on purpose
	set -- $(cpu_hwids)
	for _d in /sys/devices/system/cpu/cpu[0-9]*; do
		_n=${_d##*cpu}
		_on=1
		[ "$_n" = 0 ] || read -r _on < "$_d/online"
		if [ "$_on" = 1 ]; then
			_list="$_list $_n:$1:UP,1,ON"
			read -r _pk < "$_d/topology/physical_package_id"
			_pkgs="$_pkgs$_pk "
		else
			_list="$_list $_n:$1:DOWN,0,OFF"
		fi
		shift
	done
	mcpm_cpus_are "$_list" || _bad=1
	for _c in 0 1; do
		case "$_pkgs" in
		*" $_c "*) _up=1 _want="UP NOT_COMING_UP" ;;
		*) _up=0 _want="DOWN NOT_COMING_UP" ;;
		esac
		_cs=$(mcpm_cluster_state "$_c")
		if [ "$_cs" != "$_want" ]; then
			echo "cluster $_c has online CPUs=$_up but state is $_cs"
			_bad=1
		fi
	done
	return "$_bad"
}

# Helpers for guest scripts that look at the big.LITTLE cpufreq front end.
# Source after ktap.sh, mcpm.sh and switcher.sh:  . /usr/share/lab/cpufreq.sh
CF=/sys/devices/system/cpu/cpufreq
# the driver's tables (debugfs): policyN/table, "<freq> <cluster> <real>"
CFD=/sys/kernel/debug/vexpress-spc-cpufreq
# cf_table N: the path of policy N's table
cf_table() { echo "$CFD/policy$1/table"; }
# cf_mapping N: "<frequency> <cluster> <cluster clock>" of policy N now:
# cpuinfo_cur_freq (the driver's ->get), bL_cur_cluster, bL_cur_cluster_freq
cf_mapping() {
	echo "$(cat "$CF/policy$1/cpuinfo_cur_freq") $(cat "$CF/policy$1/bL_cur_cluster") $(cat "$CF/policy$1/bL_cur_cluster_freq")"
}
# entry_cluster N F: the cluster frequency F stands for in policy N
entry_cluster() { awk -v f="$2" '$1 == f { print $2 }' "$CFD/policy$1/table"; }
# cf_state_once N: "" if policy N's frequency, its cluster per the table, the
# switcher's cluster and MPIDR and the cluster clock agree, else what differs.
# Reads with the shell's own read: a process start costs a third of a
# second of guest time on an A7 at the bottom of its range (debug kernel).
cf_state_once() {
	read -r _f < "$CF/policy$1/scaling_cur_freq"
	_c=""
	_r=""
	while read -r _e _ec _er _rest; do
		if [ "$_e" = "$_f" ]; then
			_c=$_ec
			_r=$_er
			break
		fi
	done < "$CFD/policy$1/table"
	read -r _mc < "$CF/policy$1/bL_cur_cluster"
	read -r _mr < "$CF/policy$1/bL_cur_cluster_freq"
	read -r _sc < "$SW/cpu$1/cluster"
	read -r _m < "$SW/cpu$1/mpidr"
	sw_pair "$1"
	# shellcheck disable=SC2154 # _p0, _p1: set by sw_pair (switcher.sh)
	if [ "$_c" = 0 ]; then _want=$_p0; else _want=$_p1; fi
	if [ -z "$_c" ] || [ "$_sc" != "$_c" ] || [ "$_m" != "$_want" ] ||
	   [ "$_mc" != "$_c" ] || [ "$_mr" -lt "$_r" ]; then
		echo "cpu$1: freq $_f -> cluster $_c real $_r; switcher cluster $_sc mpidr $_m (want $_want); bL_cur_cluster $_mc at $_mr kHz"
	fi
}
# cf_state N: cf_state_once, retried for up to 2 s: with a governor running,
# a transition may be under way between two of the reads (the frequency
# is set, the switch not yet done); a wrong state persists, that does not
cf_state() {
	_try=10
	while :; do
		_s=$(cf_state_once "$1")
		[ -z "$_s" ] && return 0
		_try=$((_try - 1))
		[ "$_try" -le 0 ] && break
		sleep 0.2
	done
	echo "$_s"
}
# wait_for SECONDS CMD...: poll CMD every 0.2 s until it succeeds
wait_for() {
	_t=$(($1 * 5))
	shift
	while [ "$_t" -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		_t=$((_t - 1))
	done
	return 1
}
# busy N: a busy loop pinned to logical CPU N; prints its pid
busy() {
	taskset -c "$1" sh -c 'while :; do :; done' >/dev/null 2>&1 &
	echo $!
}

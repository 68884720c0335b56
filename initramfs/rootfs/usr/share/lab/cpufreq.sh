# Helpers for guest scripts that look at the big.LITTLE cpufreq front end.
# Source after ktap.sh, mcpm.sh and switcher.sh:  . /usr/share/lab/cpufreq.sh
# shellcheck disable=SC2046 # pair, bL_mapping: space-separated words, split on purpose
CF=/sys/devices/system/cpu/cpufreq
# entry_cluster N F / entry_real N F: what frequency F stands for in policy N
entry_cluster() { awk -v f="$2" '$1 == f { print $2 }' "$CF/policy$1/bL_table"; }
entry_real() { awk -v f="$2" '$1 == f { print $3 }' "$CF/policy$1/bL_table"; }
# pair_hwid N C: the hardware id of logical CPU N's pair member in cluster C
pair_hwid() {
	set -- "$2" $(cat "$SW/cpu$1/pair")
	if [ "$1" = 0 ]; then echo "$2"; else echo "$3"; fi
}
# cf_state_once N: "" if policy N's frequency, its cluster per bL_table, the
# switcher's cluster and MPIDR and the cluster clock agree, else what differs
cf_state_once() {
	_f=$(cat "$CF/policy$1/scaling_cur_freq")
	_c=$(entry_cluster "$1" "$_f")
	_r=$(entry_real "$1" "$_f")
	set -- "$1" $(cat "$CF/policy$1/bL_mapping")
	_sc=$(sw_cluster "$1")
	_m=$(sw_mpidr "$1")
	_want=$(pair_hwid "$1" "$_c")
	if [ -z "$_c" ] || [ "$_sc" != "$_c" ] || [ "$_m" != "$_want" ] ||
	   [ "$3" != "$_c" ] || [ "$4" -lt "$_r" ] ||
	   [ "$(cat "$CF/policy$1/scaling_cur_cluster")" != "$_c" ]; then
		echo "cpu$1: freq $_f -> cluster $_c real $_r; switcher cluster $_sc mpidr $_m (want $_want); bL_mapping $2 $3 $4"
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

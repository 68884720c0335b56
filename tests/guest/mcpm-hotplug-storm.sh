#!/bin/sh
# lab-test: append=no_bL_switcher timeout=600
# Hotplug storm through MCPM: four concurrent loops online and offline
# random CPUs (1..7) for 20 s.  Afterwards every CPU is back online, every
# line of mcpm/state agrees with the power controller (DCSCB RST_STAT
# or PSCI) and with the online mask, and the
# runner checks the kernel log.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
. /usr/share/lab/mcpm.sh
ktap_plan 5

# The race counters before the storm (on rtsm the A7s may contend for
# their first-man vlock at boot: see mcpm-hotplug.sh).
races0=""
for r in $(lab_race_counters); do races0="$races0$r=$(mcpm_stat "$r") "; done
SECS=${1:-20}
end=$(($(date +%s) + SECS))
dir=/tmp/storm
mkdir -p $dir

storm() {
	ops=0
	while [ "$(date +%s)" -lt "$end" ]; do
		c=$((RANDOM % 7 + 1))
		v=$((RANDOM % 2))
		# concurrent writers race for the same CPU: EBUSY/EINVAL are fine
		set_online $c $v && ops=$((ops + 1))
	done
	echo $ops > $dir/ops.$1
}

dn0=$(mcpm_stat cpu_power_down)
for w in 1 2 3 4; do storm $w & done
wait
ops=$(cat $dir/ops.* | awk '{ s += $1 } END { print s }')
downs=$(($(mcpm_stat cpu_power_down) - dn0))
if [ "$downs" -ge 20 ]; then
	ktap_pass "storm ran: $ops successful writes, $downs MCPM power downs in ${SECS} s"
else
	ktap_fail "storm ran" "only $downs MCPM power downs ($ops writes)"
fi

for c in 1 2 3 4 5 6 7; do set_online $c 1; done
ktap_expect "every CPU back online" "0-7" "$(cat /sys/devices/system/cpu/online)"
if why=$(mcpm_consistent); then
	ktap_pass "mcpm/state agrees with the power controller and the online mask"
else
	ktap_fail "mcpm/state agrees with the power controller and the online mask" "$why"
fi
n=0
for c in 0 1 2 3 4 5 6 7; do
	taskset -c $c sh -c 'echo $((6 * 7))' 2>/dev/null | grep -qx 42 && n=$((n + 1))
done
ktap_expect "a task runs on each of the 8 CPUs" 8 "$n"
# CPU hotplug is serialised: the inbound/outbound race branches stay untaken.
races=""
for r in $(lab_race_counters); do
	races="$races$r=$(mcpm_stat "$r") "
done
ktap_expect "race counters do not move (hotplug is serialised)" "$races0" "$races"
ktap_done

#!/bin/sh
# lab-test: platform=rtsm,virt timing=rtsm:modelled append=no_bL_switcher timeout=600
# MCPM runs the guest's CPUs: the secondaries boot through MCPM (over the
# DCSCB on rtsm, PSCI on virt), the topology shows two clusters of four,
# and CPU hotplug takes CPUs and whole clusters down and up through MCPM's
# state machine, with the power controller (DCSCB RST_STAT, PSCI
# AFFINITY_INFO) reporting each CPU really off.  The switcher is kept off
# (no_bL_switcher) so that all eight CPUs are free to hotplug.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/platform.sh
ktap_plan 15

PWR=$(lab_power_ctl)
RACES=$(lab_race_counters)
# The race counters after boot.  On rtsm the secondaries wait in the boot
# firmware's SYS_FLAGS loop and all enter mcpm_entry_point when it is set,
# so the A7s may contend for cluster 1's first-man vlock at boot: a real
# race, not one of hotplug's.
races0=""
for r in $RACES; do races0="$races0$r=$(mcpm_stat "$r") "; done

# 1. secondaries booted through MCPM
if dmesg | grep -q "$(lab_mcpm_backend_msg)"; then
	ktap_expect "7 secondaries powered up by MCPM at boot" "7" "$(mcpm_stat cpu_power_up)"
else
	ktap_fail "7 secondaries powered up by MCPM at boot" \
		"the MCPM backend did not register: no '$(lab_mcpm_backend_msg)'"
fi
ktap_expect "cluster 1 set up once by a first man at boot" "1" "$(mcpm_stat cluster_setup)"

# 2. topology: two clusters of four
topo=""
for n in 0 1 2 3 4 5 6 7; do
	t=/sys/devices/system/cpu/cpu$n/topology
	topo="$topo$(cat $t/physical_package_id)/$(cat $t/core_id)/$(cat $t/core_siblings_list) "
done
ktap_expect "topology: two clusters of four (package/core/siblings)" \
	"0/0/0-3 0/1/0-3 0/2/0-3 0/3/0-3 1/0/4-7 1/1/4-7 1/2/4-7 1/3/4-7 " "$topo"
if why=$(mcpm_consistent); then
	ktap_pass "mcpm/state agrees with the online mask and $PWR after boot"
else
	ktap_fail "mcpm/state agrees with the online mask and $PWR after boot" "$why"
fi
# a check of the check: told to expect a running CPU off, it fails on
# that CPU and only on it
h0=$(cpu_hwid 0)
rc=0
why=$(mcpm_cpus_are "0:$h0:DOWN,0,OFF 1:$(cpu_hwid 1):UP,1,ON") || rc=$?
ktap_expect "mcpm_cpus_are fails a running CPU expected off, and only it" \
	"1 cpu0 (hwid $h0): state/use_count/power UP 1 ON, expected DOWN 0 OFF" "$rc $why"

# 3. cluster 1 down and up, once, checked in detail
td0=$(mcpm_stat cluster_teardown)
su0=$(mcpm_stat cluster_setup)
for c in 4 5 6 7; do set_online $c 0; done
st="$(mcpm_cluster_state 1)"
pw=""
for c in 4 5 6 7; do pw="$pw$(mcpm_cpu_field "$(cpu_hwid $c)" state)/$(mcpm_cpu_field "$(cpu_hwid $c)" power) "; done
ktap_expect "cpu4-7 offline: cluster 1 DOWN, its CPUs DOWN and OFF per $PWR" \
	"DOWN NOT_COMING_UP DOWN/OFF DOWN/OFF DOWN/OFF DOWN/OFF " "$st $pw"
ktap_expect "exactly one cluster_teardown for it" "$((td0 + 1))" "$(mcpm_stat cluster_teardown)"
for c in 4 5 6 7; do set_online $c 1; done
ktap_expect "cpu4-7 online: exactly one cluster_setup, cluster 1 UP" \
	"$((su0 + 1)) UP NOT_COMING_UP" "$(mcpm_stat cluster_setup) $(mcpm_cluster_state 1)"

# 4. ten more cycles move each counter by exactly ten
td0=$(mcpm_stat cluster_teardown)
su0=$(mcpm_stat cluster_setup)
up0=$(mcpm_stat cpu_power_up)
dn0=$(mcpm_stat cpu_power_down)
i=0
while [ $i -lt 10 ]; do
	for c in 4 5 6 7; do set_online $c 0; done
	for c in 4 5 6 7; do set_online $c 1; done
	i=$((i + 1))
done
ktap_expect "ten cluster 1 cycles: +10 teardowns, +10 setups, +40 CPU downs and ups" \
	"10 10 40 40" \
	"$(($(mcpm_stat cluster_teardown) - td0)) $(($(mcpm_stat cluster_setup) - su0)) $(($(mcpm_stat cpu_power_down) - dn0)) $(($(mcpm_stat cpu_power_up) - up0))"

# 5. the boot CPU's siblings: cluster 0 must stay up
td0=$(mcpm_stat cluster_teardown)
for c in 1 2 3; do set_online $c 0; done
pw=""
for c in 1 2 3; do pw="$pw$(mcpm_cpu_field "$(cpu_hwid $c)" power) "; done
ktap_expect "cpu1-3 offline: cluster 0 stays UP, cpu1-3 OFF per $PWR, no teardown" \
	"UP NOT_COMING_UP OFF OFF OFF 0" "$(mcpm_cluster_state 0) $pw$(($(mcpm_stat cluster_teardown) - td0))"
for c in 1 2 3; do set_online $c 1; done
ktap_expect "cpu1-3 back online" "0-7" "$(cat /sys/devices/system/cpu/online)"

# 6. the boot CPU: it has an online file, so it must come back (issue 11,
# defect 10: it used to fault on the read-only boot processor table and
# never came back, "CPU0: failed to come online")
up0=$(mcpm_stat cpu_power_up)
set_online 0 0
off="$(cat /sys/devices/system/cpu/online) $(mcpm_cpu_field 0 state)/$(mcpm_cpu_field 0 power) $(mcpm_cluster_state 0)"
if set_online 0 1; then rc=0; else rc=$?; fi
ran=$(taskset -c 0 sh -c 'awk "{ print \$39 }" /proc/self/stat' 2>&1)
ktap_expect "cpu0 off (DOWN/OFF, cluster 0 UP) and back through MCPM: online, UP/ON, +1 power-up, runs a task" \
	"1-7 DOWN/OFF UP NOT_COMING_UP rc=0 0-7 UP/ON 1 0" \
	"$off rc=$rc $(cat /sys/devices/system/cpu/online) $(mcpm_cpu_field 0 state)/$(mcpm_cpu_field 0 power) $(($(mcpm_stat cpu_power_up) - up0)) $ran"
# every CPU that offers an online file, in turn, as a new user would try
bad=""
for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
	n=${f%/online}
	n=${n##*cpu}
	set_online $n 0 || bad="$bad cpu$n:off-failed"
	set_online $n 1 || bad="$bad cpu$n:on-failed"
	[ "$(cat $f)" = 1 ] || bad="$bad cpu$n:not-back"
done
if [ -z "$bad" ]; then
	ktap_pass "every CPU with an online file goes offline and comes back, in turn"
else
	ktap_fail "every CPU with an online file goes offline and comes back, in turn" "$bad"
fi

if why=$(mcpm_consistent); then
	ktap_pass "mcpm/state agrees with the online mask and $PWR at the end"
else
	ktap_fail "mcpm/state agrees with the online mask and $PWR at the end" "$why"
fi

# 7. serialised hotplug cannot produce the inbound/outbound races
races=""
for r in $RACES; do races="$races$r=$(mcpm_stat "$r") "; done
ktap_expect "race counters do not move under serialised hotplug" "$races0" "$races"
ktap_done

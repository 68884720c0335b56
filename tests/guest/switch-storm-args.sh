#!/bin/sh
# lab-test: timing=modelled timeout=300
# switch-storm's refusals of bad arguments: each is refused on stderr with
# exit 2 before anything changes (no switch made, no bl-storm or vfpcheck
# left running, every cpufreq governor as it was, the switcher active).
# switch-storm refuses them before it starts anything, from its arguments
# and the switcher's sysfs, which are the same on virt: rtsm only, in
# modelled time (nothing here depends on the host's time; the second's
# wait for a storm started by mistake costs no host time there).  Its
# storms' own checks are tests/guest/switch-storm-checks.sh.
# shellcheck disable=SC2086 # argument lists are split on purpose
. /usr/share/lab/ktap.sh
. /usr/share/lab/switcher.sh
ktap_plan 12

state() {
	echo "requests=$(sw_stat requests) active=$(cat $SW/active)"
	echo "storms=$(pidof bl-storm | wc -w) vfp=$(pidof vfpcheck | wc -w)"
	cat /sys/devices/system/cpu/cpufreq/policy*/scaling_governor 2>/dev/null | tr '\n' ' '
}

# a storm started by mistake would show within a second
# shellcheck disable=SC2034 # read by ktap_refused in ktap.sh
KTAP_REFUSED_SETTLE=1
ktap_refused state switch-storm pingpong -d 30
ktap_refused state switch-storm -m pingpong 30
ktap_refused state switch-storm -c "0 9"
ktap_refused state switch-storm -m chaos -d 10abc
ktap_refused state switch-storm -m governor -d 10abc
ktap_refused state switch-storm -m governor -c "0 9"
ktap_refused state switch-storm -m sideways
ktap_refused state switch-storm -d 0
ktap_refused state switch-storm -f many
ktap_refused state switch-storm -m together -u soon
ktap_refused state switch-storm -m chaos -d 5 -u 60
ktap_refused state switch-storm -m together -d 60 -u 30
ktap_done

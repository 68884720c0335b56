#!/bin/sh
# lab-test: platform=rtsm timeout=480
# Switch storms on the modelled platform, with dcscb.c as the MCPM backend:
# pingpong, together and random (each on, bounded by -u, until the race it
# targets was hit) and chaos (switcher toggling and hotplug under the
# storm). Each passes switch-storm's own checks (each logical CPU on exactly
# one physical CPU, MCPM's states agree with the DCSCB's RST_STAT, no failed
# switch, clean kernel log); the runner adds the QEMU power-sequencing
# checker's log, which must stay free of reports.
# shellcheck disable=SC2086 # the options are single words
. /usr/share/lab/ktap.sh
ktap_plan 4
for m in "pingpong -d 10" "together -d 10 -u 80" "random -d 10 -u 80" "chaos -d 15"; do
	mode=${m%% *}
	out=$(switch-storm -m $m 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc -eq 0 ] && echo "$out" | grep -qx "result ok"; then
		ktap_pass "$mode storm on dcscb.c" "$(echo "$out" | grep -E '^(switches|failures|delta_(vlock_contended|powerup_during_powerdown|cluster_teardown)) ' | tr '\n' ' ')"
	else
		ktap_fail "$mode storm on dcscb.c" "$(echo "$out" | grep -A3 '^result' | tr '\n' ' ')"
	fi
done
ktap_done

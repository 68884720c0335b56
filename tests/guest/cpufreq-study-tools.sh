#!/bin/sh
# lab-test: timing=modelled timeout=420 governor=default
# The tools of the near-idle measurement and the governor study (issue 14),
# booted with the kernel's default governor:
# - the default is schedutil, and on a near-idle system it keeps every
#   logical CPU on its A7 without a switch (the lab's near-idle default);
# - cpufreq/idle-switches: bad arguments are refused on stderr with exit 2
#   before any governor changes; near idle, powersave keeps every logical
#   CPU on its A7 (no switch, all the time at A7 entries, and the A15
#   cluster, held in reset, draws nothing) and performance keeps every one
#   on its A15; the governors are restored afterwards;
# - cpufreq/workload and cpufreq/governor-study: bad arguments refused the
#   same way; a short study run gives a line per governor and workload,
#   with the periodic workload's bursts counted and energy on the meters.
# In modelled time (docs/timing.md), so that a near-idle system's
# switches and energy are the guest's own and repeat exactly.
# shellcheck disable=SC2086 # argument lists are split on purpose
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 21

CF=/sys/devices/system/cpu/cpufreq
# the shell's own read: a process start costs a third of a second on an A7
# at the bottom of its range (debug kernel), and the checks below are many
govs() { for _p in "$CF"/policy*; do read -r _g < "$_p/scaling_governor"; printf '%s ' "$_g"; done; }

clusters() { cat $SW/cpu[0-3]/cluster | tr '\n' ' '; }

ktap_expect "booted with the kernel's default governor: schedutil on every policy" \
	"schedutil schedutil schedutil schedutil " "$(govs)"
out=$(idle-switches -d 6 schedutil)
ktap_diag "$out"
set -- $out
ktap_expect "schedutil (the default), near idle: no switch, all the time and every logical CPU on its A7" \
	"0 100% 1 1 1 1 " "$6 ${10} $(clusters)"

# unchanged by a refused tool: the governors, no switch requested. Every
# policy is under userspace meanwhile: schedutil may switch on its own when
# a tool's process start looks like load (CI saw 4 requests across one
# refused call), and a governor that cannot switch keeps the count the
# tool's alone.
for p in "$CF"/policy*; do echo userspace > "$p/scaling_governor"; done
study_state() { echo "$(govs) $(sw_stat requests)"; }
ktap_refused study_state idle-switches -d 0 powersave
ktap_refused study_state idle-switches -d 10abc powersave
ktap_refused study_state idle-switches -i -1 powersave
ktap_refused study_state idle-switches -x
ktap_refused study_state idle-switches sideways
ktap_refused study_state idle-switches powersave sideways
ktap_refused study_state workload sideways
ktap_refused study_state workload -p 0 periodic
ktap_refused study_state workload -w 12x bursty
ktap_refused study_state workload periodic bursty
ktap_refused study_state governor-study -x
ktap_refused study_state governor-study powersave sideways
# a check of the check: a tool that accepts its arguments is not refused
# (run in a subshell, so that its "not ok" does not count here)
out=$(ktap_refused study_state cat /dev/null)
ktap_expect "ktap_refused fails a command that exits 0" "not ok cat /dev/null: refused, exit 2, nothing changed" \
	"$(echo "$out" | sed -n 's/^not ok [0-9]* /not ok /p')"
for p in "$CF"/policy*; do echo schedutil > "$p/scaling_governor"; done

before=$(govs)
out=$(idle-switches -d 6 powersave performance)
ktap_diag "$out"
# field VALUE-AFTER GOVERNOR: that field of that governor's line
field() { echo "$out" | awk -v g="$2" -v k="$1" '$2 == g { for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }'; }
ktap_expect "powersave, near idle: no switch, all the time on the A7s, the A15 cluster draws nothing" \
	"0 100% 0" "$(field switches powersave) $(field a7_share powersave) $(field a15_mj powersave)"
ktap_expect "performance, near idle: no switch, no time on the A7s" \
	"0 0%" "$(field switches performance) $(field a7_share performance)"
ktap_expect "the governors restored" "$before" "$(govs)"

out=$(workload -d 1 periodic)
ktap_diag "$out"
set -- $out
# workload periodic time_ms T wall_ms W misses M worst_ms X a15_mj E a7_mj E
if [ $# = 14 ] && [ "$2" = periodic ] && [ "$4" -gt 0 ] && [ "$6" -ge 1000 ] &&
	[ "${12}" -ge 0 ] && [ "${14}" -ge 0 ] && [ $((${12} + ${14})) -gt 0 ]; then
	ktap_pass "workload -d 1 periodic: a 1 s window, its bursts timed, energy on the meters"
else
	ktap_fail "workload -d 1 periodic: a 1 s window, its bursts timed, energy on the meters" "$out"
fi
before=$(govs)
out=$(governor-study -q powersave performance)
ktap_diag "$out"
ktap_expect "governor-study -q: one line per governor and workload, the switcher's state on each" \
	"6 6 powersave:periodic powersave:bursty powersave:sustained performance:periodic performance:bursty performance:sustained " \
	"$(echo "$out" | grep -c '^study .* workload ') $(echo "$out" | grep -c '^study [a-z]* switcher 1 ') $(echo "$out" | awk '{ printf "%s:%s ", $2, $8 }')"
ktap_expect "governor-study: the governors restored" "$before" "$(govs)"
ktap_done

#!/bin/sh
# lab-test: platform=rtsm,virt timing=rtsm:modelled timeout=600 klog-expect='CPU2: inbound CPU [0-9]+ cluster 1 did not come up within [0-9]+ ms: switch abandoned|__bL_switch_to: mcpm_cpu_power_up\(\) returned -5'
# The in-kernel switcher on the 8-CPU guest: active after boot with four
# A15/A7 pairs, each logical CPU switched 0 -> 1 -> 0 with its MPIDR read
# back on the CPU itself, the outbound really off per the power controller
# (DCSCB RST_STAT on rtsm, PSCI on virt), the /sys
# contract (values, errors, permissions), tracepoints, the dummy
# interface, hotplug veto, fault injection, and enable/disable round trips;
# and the login banner names only files that exist.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/klog.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/platform.sh
ktap_plan 20

PWR=$(lab_power_ctl)

# 1-2. active after boot, four pairs across the clusters
ktap_expect "switcher active after boot, logical CPUs 0-3 online" "1 0-3" \
	"$(cat $SW/active) $(cat /sys/devices/system/cpu/online)"
pairs=""
for n in $(sw_cpus); do
	sw_pair "$n"
	# shellcheck disable=SC2154 # _p0, _p1: set by sw_pair (switcher.sh)
	set -- "$_p0" "$_p1"
	pairs="$pairs$n:$(($1 < 4))$(($2 >= 4)) "
done
ktap_expect "each of cpu0-3 pairs an A15 (hwid 0-3) with an A7 (hwid 4-7)" \
	"0:11 1:11 2:11 3:11 " "$pairs"

# 3. the login banner (/etc/motd, what `make run` shows first) names only
# files that exist: its paths with {a,b} expanded, cpuN read as cpu0 and
# cpu* as a glob
motd_paths() {
	tr ' ' '\n' < /etc/motd | grep '^/sys' | awk '
	function expand(s,   i, c, d, a, b, n, part, cur, out, k) {
		a = index(s, "{")
		if (!a)
			return s
		d = 0
		for (i = a; i <= length(s); i++) {
			c = substr(s, i, 1)
			if (c == "{")
				d++
			else if (c == "}" && !--d) {
				b = i
				break
			}
		}
		n = 0; cur = ""; d = 0
		for (i = a + 1; i < b; i++) {
			c = substr(s, i, 1)
			if (c == "{") d++
			if (c == "}") d--
			if (c == "," && !d) { part[++n] = cur; cur = "" } else cur = cur c
		}
		part[++n] = cur
		out = ""
		for (k = 1; k <= n; k++)
			out = out " " expand(substr(s, 1, a - 1) part[k] substr(s, b + 1))
		return out
	}
	{ gsub(/cpuN/, "cpu0"); print expand($0) }' | tr ' ' '\n' | grep .
}
missing="" named=0
for f in $(motd_paths); do
	named=$((named + 1))
	# shellcheck disable=SC2012 # a glob's match, only its existence counts
	ls -d $f >/dev/null 2>&1 || missing="$missing $f"
done
if [ "$named" -ge 10 ] && [ -z "$missing" ]; then
	ktap_pass "the login banner's $named paths all exist"
else
	ktap_fail "the login banner's $named paths all exist" "missing:${missing:- none (too few named)}"
fi

# 4. each logical CPU 0 -> 1 -> 0
bad=""
for n in $(sw_cpus); do
	a15=$(sw_mpidr $n)
	a7=$(sw_other $n)
	s0=$(sw_switches $n)
	sw_switch $n 1 || bad="$bad cpu$n:switch-to-1-failed"
	[ "$(sw_cluster $n) $(sw_mpidr $n)" = "1 $a7" ] || bad="$bad cpu$n:not-on-$a7"
	[ "$(mcpm_cpu_field $a15 power)" = OFF ] || bad="$bad cpu$n:$a15-not-off"
	[ "$(mcpm_cpu_field $a7 state)" = UP ] || bad="$bad cpu$n:$a7-not-up"
	sw_switch $n 0 || bad="$bad cpu$n:switch-to-0-failed"
	[ "$(sw_cluster $n) $(sw_mpidr $n)" = "0 $a15" ] || bad="$bad cpu$n:not-back-on-$a15"
	[ "$(mcpm_cpu_field $a7 power)" = OFF ] || bad="$bad cpu$n:$a7-not-off"
	[ "$(sw_switches $n)" = "$((s0 + 2))" ] || bad="$bad cpu$n:switches=$(sw_switches $n)"
done
if [ -z "$bad" ]; then
	ktap_pass "cpu0-3 switched 0->1->0: cluster, mpidr, $PWR OFF of the outbound, switches +2"
else
	ktap_fail "cpu0-3 switched 0->1->0: cluster, mpidr, $PWR OFF of the outbound, switches +2" "$bad"
fi

# 5. MPIDR as each CPU reads it, with cpu1 and cpu3 on their A7s
sw_switch 1 1
sw_switch 3 1
want=""
for n in 0 1 2 3; do want="$want$n:$(sw_mpidr $n) "; done
ktap_expect "each CPU reads back the MPIDR its mpidr file names" "${want% }" "$(sw_mpidr_readback)"
if why=$(sw_consistent); then
	ktap_pass "MCPM and $PWR agree: running CPUs up, the other four off"
else
	ktap_fail "MCPM and $PWR agree: running CPUs up, the other four off" "$why"
fi
sw_switch 1 0
sw_switch 3 0

# 6. power:cpu_migrate_begin/finish tracepoints
echo > $TRACE/trace
echo 1 > $TRACE/events/power/cpu_migrate_begin/enable
echo 1 > $TRACE/events/power/cpu_migrate_finish/enable
echo 1 > $TRACE/tracing_on
sw_switch 2 1
sw_switch 2 0
echo 0 > $TRACE/events/power/cpu_migrate_begin/enable
echo 0 > $TRACE/events/power/cpu_migrate_finish/enable
ktap_expect "two switches give two cpu_migrate_begin and two cpu_migrate_finish events" "2 2" \
	"$(grep -c cpu_migrate_begin: $TRACE/trace) $(grep -c cpu_migrate_finish: $TRACE/trace)"

# 7. the dummy character device still switches (asynchronously)
echo "0,1" > /dev/b.L_switcher
i=0
while [ "$(sw_cluster 0)" != 1 ] && [ $i -lt 50 ]; do usleep 100000; i=$((i + 1)); done
ktap_expect "/dev/b.L_switcher '0,1' moves cpu0 to cluster 1" 1 "$(sw_cluster 0)"
sw_switch 0 0

# 8-9. bad writes change nothing
before="$(sw_cluster 1) $(sw_mpidr 1) $(sw_switches 1) $(sw_stat requests)"
errs=""
for v in 2 -1 abc "" "0 1" "1x"; do
	errs="${errs}[$(sw_write_error sh -c "echo '$v' > $SW/cpu1/cluster")]"
done
head -c 4096 /dev/urandom | tr -d '\n' > /tmp/garbage
errs="${errs}[$(sw_write_error sh -c "cat /tmp/garbage > $SW/cpu1/cluster")]"
after="$(sw_cluster 1) $(sw_mpidr 1) $(sw_switches 1) $(sw_stat requests)"
e="[Invalid argument]"
ktap_expect "cluster: 2, -1, abc, empty, '0 1', 1x, 4 KiB garbage -> EINVAL, nothing changes" \
	"${e}${e}${e}${e}${e}${e}${e} $before" "$errs $after"
errs=""
for v in 2 -1 abc "" on; do
	errs="${errs}[$(sw_write_error sh -c "echo '$v' > $SW/active")]"
done
ktap_expect "active: 2, -1, abc, empty, on -> EINVAL, switcher stays active" \
	"${e}${e}${e}${e}${e} 1 0-3" "$errs $(cat $SW/active) $(cat /sys/devices/system/cpu/online)"

# 10. permissions: root-writable only
modes="$(stat -c %a $SW/active $SW/trace_trigger $SW/cpu0/cluster $SW/cpu0/mpidr $SW/cpu0/switches $SWD/stats $SWD/pairs | tr '\n' ' ')"
uerr="$(runas 1000 1000 sh -c "echo 1 > $SW/cpu0/cluster" 2>&1 | sed 's/.*: //' | head -n 1)"
ktap_expect "modes 644 200 644 444 444, debugfs stats and pairs 444; user 1000 cannot switch" \
	"644 200 644 444 444 444 444  Permission denied 0" "$modes $uerr $(sw_cluster 0)"

# 9b. the ABI: every readable sysfs file holds one value; the tables are
# in debugfs (stats: name-value lines; pairs: one line per logical CPU)
files=""
bad=""
for f in "$SW"/* "$SW"/cpu0/*; do
	[ -f "$f" ] || continue
	n=${f#"$SW"/}
	files="$files $n"
	[ "$(stat -c %a "$f")" = 200 ] && continue
	[ "$(wc -w < "$f")" = 1 ] || bad="$bad $n:$(wc -w < "$f")-values"
done
npairs=$(wc -l < $SWD/pairs)
ktap_expect "sysfs active cpu0/{cluster,mpidr,switches} trace_trigger, one value each; debugfs pairs has 4 lines" \
	" active trace_trigger cpu0/cluster cpu0/mpidr cpu0/switches 4" "$files$bad $npairs"

# 11. hotplug of a CPU the switcher removed is refused
ktap_expect "onlining cpu4 while active -> EBUSY" "Device or resource busy" \
	"$(sw_write_error sh -c 'echo 1 > /sys/devices/system/cpu/cpu4/online')"

# 12-13. fault injection: a lost power-up times out and is undone; a failed
# one errors out; the next switch works
f0=$(sw_stat failures)
c0=$(mcpm_stat power_up_cancel)
a7=$(sw_other 2)
klog_expect_begin
mcpm_fault_arm lose_power_up 1
err=$(sw_write_error sh -c "echo 1 > $SW/cpu2/cluster")
ktap_expect "lost power-up: ETIMEDOUT, cpu2 stays on cluster 0, A7 off, failure and cancel counted" \
	"Connection timed out 0 OFF DOWN $((f0 + 1)) $((c0 + 1))" \
	"$err $(sw_cluster 2) $(mcpm_cpu_field $a7 power) $(mcpm_cpu_field $a7 state) $(sw_stat failures) $(mcpm_stat power_up_cancel)"
mcpm_fault_arm fail_power_up 1
err=$(sw_write_error sh -c "echo 1 > $SW/cpu2/cluster")
sw_switch 2 1
r=$?
ktap_expect "failed power-up: EIO and no change; then the next switch succeeds" \
	"Input/output error 0 1 1" "$err $r $(sw_cluster 2) $((r == 0))"
klog_expect_end
sw_switch 2 0

# 14. the books balance
ktap_expect "stats: requests = switches + failures" "$(sw_stat requests)" \
	"$(($(sw_stat switches) + $(sw_stat failures)))"

# 15-17. enable/disable round trips restore all 8 CPUs in their places
ok=1
all_regs=""
n=0
for r in $(lab_cpu_regs); do all_regs="$all_regs$n:0x$r "; n=$((n + 1)); done
all_regs=${all_regs% }
why=""
for round in 1 2 3; do
	sw_switch 1 1
	sw_switch 3 1
	echo 0 > $SW/active
	on=$(cat /sys/devices/system/cpu/online)
	rb=$(sw_mpidr_readback)
	[ "$on" = 0-7 ] || { ok=0; why="$why round $round: online $on"; }
	[ "$rb" = "$all_regs" ] ||
		{ ok=0; why="$why round $round: MPIDRs $rb"; }
	mcpm_consistent > /tmp/why || { ok=0; why="$why round $round: $(cat /tmp/why)"; }
	echo 1 > $SW/active
	[ "$(cat /sys/devices/system/cpu/online)" = 0-3 ] || { ok=0; why="$why round $round: re-enable online $(cat /sys/devices/system/cpu/online)"; }
done
if [ $ok = 1 ]; then
	ktap_pass "3 disable/enable rounds: 8 CPUs online, CPU n reads MPIDR n, MCPM agrees"
else
	ktap_fail "3 disable/enable rounds: 8 CPUs online, CPU n reads MPIDR n, MCPM agrees" "$why"
fi
ktap_expect "after re-enable every logical CPU is on cluster 0" "0 0 0 0" \
	"$(for n in 0 1 2 3; do sw_cluster $n; done | tr '\n' ' ' | sed 's/ $//')"
if why=$(sw_consistent); then
	ktap_pass "MCPM and $PWR agree at the end"
else
	ktap_fail "MCPM and $PWR agree at the end" "$why"
fi
ktap_expect "switch from cpu0 to cluster 1 after all that" "0 1" "$(sw_switch 0 1; echo $?) $(sw_cluster 0)"
ktap_done

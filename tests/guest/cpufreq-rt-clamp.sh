#!/bin/sh
# lab-test: timing=modelled timeout=420 governor=default
# RT tasks and schedutil with the switcher (docs/cpufreq.md, "RT tasks and
# schedutil").  schedutil asks for the top of the table whenever an RT
# task is runnable, unless utilisation clamping says otherwise; the
# switcher's kswitcher threads are RT, and a switch lasts long enough for
# schedutil to see one runnable: right after a switch to the A7 it asks
# for the A15 again, and an idle CPU ping-pongs.  The lab boots with
# kernel.sched_util_clamp_min_rt_default 0 (initramfs/rootfs/etc/
# sysctl.conf).  Here, in one boot, in modelled time (docs/timing.md),
# under schedutil with its rate limit at 0 (every update is looked at):
# with each CPU's switch count settled first, logical CPU 0 or 1 runs a
# burst (30,000 rounds of a shell loop: long enough to take it to its
# A15), then idles for 2 s (back to its A7: two switches), 4 times with
# the kernel's default (1024) and 4 with the lab's (0), alternating in
# pairs.  A trial ping-pongs when it makes more than the burst's two
# switches.  In modelled time every trial repeats exactly: at 1024 the
# trials made 9, 11, 11 and 9 switches and ended on the A15; at 0 each
# made its 2 and ended on the A7.  (In host time, before, the threshold
# was 8 switches over 24 trials with two busy loops loading the host:
# process starts made stray round trips, and whether the window was hit
# depended on the host's load.)
# - the kernel's default: at least one trial ping-pongs: the window was hit;
# - the lab's: no trial does, and every trial ends on the A7.
. /usr/share/lab/ktap.sh
. /usr/share/lab/switcher.sh
ktap_plan 4

RT=/proc/sys/kernel/sched_util_clamp_min_rt_default
TRIALS=8
PP=2
CF=/sys/devices/system/cpu/cpufreq

read -r boot_rt < "$RT"
ktap_expect "the lab boots with kernel.sched_util_clamp_min_rt_default 0" 0 "$boot_rt"

# shellcheck disable=SC2016 # the loop is the child shell's
burst() { taskset -c "$1" sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'; }

rate_limits=""
for p in "$CF"/policy[0-9]*; do
	read -r r < "$p/schedutil/rate_limit_us"
	rate_limits="$rate_limits $p:$r"
	echo 0 > "$p/schedutil/rate_limit_us"
done
sleep 2

def_pp=0 def_max=0 lab_pp=0 lab_a7=0 lab_n=0 log=""
i=0
while [ "$i" -lt "$TRIALS" ]; do
	i=$((i + 1))
	c=$((i % 2))
	if [ $((i / 2 % 2)) = 0 ]; then m=1024; else m=0; fi
	echo "$m" > "$RT"
	# let a ping-pong left by the previous trial on this CPU die down:
	# up to 5 s until its count holds for 0.5 s
	read -r a < "$SW/cpu$c/switches"
	p=-1 n=0
	while [ "$a" != "$p" ] && [ "$n" -lt 10 ]; do
		p=$a
		sleep 0.5
		read -r a < "$SW/cpu$c/switches"
		n=$((n + 1))
	done
	burst "$c"
	sleep 2
	read -r b < "$SW/cpu$c/switches"
	read -r cl < "$SW/cpu$c/cluster"
	d=$((b - a))
	log="$log $m:cpu$c:$d:$cl"
	if [ "$m" = 1024 ]; then
		[ "$d" -gt "$PP" ] && def_pp=$((def_pp + 1))
		[ "$d" -gt "$def_max" ] && def_max=$d
	else
		lab_n=$((lab_n + 1))
		[ "$d" -gt "$PP" ] && lab_pp=$((lab_pp + 1))
		[ "$cl" = 1 ] && lab_a7=$((lab_a7 + 1))
	fi
done
echo 0 > "$RT"
for pr in $rate_limits; do
	echo "${pr#*:}" > "${pr%:*}/schedutil/rate_limit_us"
done
ktap_diag "trials (rt_min:cpu:switches:cluster at the end):$log"

if [ "$def_pp" -ge 1 ]; then
	ktap_pass "kernel's default (1024): an idle CPU ping-pongs after a burst (the window was hit)" \
		"$def_pp of $((TRIALS - lab_n)) trials with more than $PP switches, at most $def_max"
else
	ktap_fail "kernel's default (1024): an idle CPU ping-pongs after a burst (the window was hit)" \
		"no trial with more than $PP switches (at most $def_max): the race window was not hit"
fi
ktap_expect "lab's default (0): no trial ping-pongs" \
	"0 of $lab_n trials with more than $PP switches" "$lab_pp of $lab_n trials with more than $PP switches"
ktap_expect "lab's default (0): every trial ends on the A7" "$lab_n of $lab_n" "$lab_a7 of $lab_n"
ktap_done

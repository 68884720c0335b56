#!/bin/sh
# lab-test: timeout=600
# What a task sees across switches of its logical CPU: its integer and
# VFP/NEON state intact over 100 switches (vfpcheck checks its own
# computation), sleeps that wake on time, and interrupts that keep
# arriving on the logical CPU they are routed to (its timer PPI and IPIs).
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
ktap_plan 5

# 1-2. a task pinned to cpu2 across 100 switches of cpu2
taskset -c 2 vfpcheck 3600 > /tmp/vfp.out 2>&1 &
vfp=$!
s0=$(sw_switches 2)
i=0
fails=0
while [ $i -lt 100 ]; do
	sw_switch 2 $(((i + 1) % 2)) || fails=$((fails + 1))
	i=$((i + 1))
done
ktap_expect "100 switches of cpu2 while vfpcheck runs pinned to it" "100 0" \
	"$(($(sw_switches 2) - s0)) $fails"
# It must still be running and die of our SIGTERM (143): a mismatch exits
# 1, and any other status (SIGILL 132, SIGSEGV 139, ...) is a failure too.
alive=0
kill -0 $vfp 2>/dev/null && alive=1
kill -TERM $vfp 2>/dev/null
wait $vfp
st=$?
if [ $alive = 1 ] && [ $st = 143 ]; then
	ktap_pass "vfpcheck's integer and VFP/NEON state intact" "ran through all switches, no mismatch"
else
	ktap_fail "vfpcheck's integer and VFP/NEON state intact" \
		"vfpcheck ended with status $st$([ $st -gt 128 ] && echo " (signal $((st - 128)))"): $(cat /tmp/vfp.out)"
fi
# and a finite run that reports its rounds, while cpu2 keeps switching
( i=0; while [ $i -lt 20 ]; do sw_switch 2 $(((i + 1) % 2)); i=$((i + 1)); done ) &
taskset -c 2 vfpcheck 4 > /tmp/vfp4.out 2>&1
st=$?
wait
ktap_expect "vfpcheck 4 s on cpu2 during 20 more switches exits 0" "0" "$st"

# 3. a sleep on a switched CPU wakes up on time
( i=0; while [ $i -lt 10 ]; do sw_switch 1 $(((i + 1) % 2)); usleep 100000; i=$((i + 1)); done ) &
read -r t0 _ < /proc/uptime
taskset -c 1 sleep 2
read -r t1 _ < /proc/uptime
wait
ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
if [ "$ms" -ge 1900 ] && [ "$ms" -le 2600 ]; then
	ktap_pass "sleep 2 pinned to cpu1 while it switches 10 times wakes on time" "${ms} ms"
else
	ktap_fail "sleep 2 pinned to cpu1 while it switches 10 times wakes on time" "${ms} ms"
fi

# 4. interrupts routed to cpu3 keep arriving after switches.  QEMU's PL011
# takes console output without ever raising its interrupt, so the SPIs of
# this guest stay silent; cpu3's own timer PPI and the function-call IPIs
# sent to it are what can be seen moving in /proc/interrupts.
irqcount() { awk -v k="$1" '$1 == k || $NF == k { print $5 }' /proc/interrupts; }
t0=$(irqcount arch_timer)
f0=$(irqcount IPI3:)
sw_switch 3 1
sw_switch 3 0
sw_switch 3 1
taskset -c 3 sh -c 'end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done'
echo 1 > $SW/trace_trigger
t1=$(irqcount arch_timer)
f1=$(irqcount IPI3:)
on=$(sw_cluster 3)
sw_switch 3 0
if [ "$on" = 1 ] && [ "$t1" -gt "$t0" ] && [ "$f1" -gt "$f0" ]; then
	ktap_pass "after 3 switches cpu3 (now on its A7) still gets its timer PPI and function-call IPIs" \
		"arch_timer $t0 -> $t1, IPI3 $f0 -> $f1"
else
	ktap_fail "after 3 switches cpu3 (now on its A7) still gets its timer PPI and function-call IPIs" \
		"cluster $on, arch_timer $t0 -> $t1, IPI3 $f0 -> $f1"
fi
ktap_done

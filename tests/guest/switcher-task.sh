#!/bin/sh
# lab-test: timeout=600
# What a task sees across switches of its logical CPU: its integer and
# VFP/NEON state intact over 100 switches (vfpcheck checks its own
# computation), sleeps that wake on time, and interrupts that keep
# arriving on the logical CPU they are routed to after its last switch:
# its timer PPI, IPIs, and an SPI (the PL031's alarm) whose distributor
# target follows it.
# shellcheck disable=SC2086,SC2016,SC3028 # CPU numbers and sysfs paths are single words; single-quoted code runs in the guest; busybox ash has RANDOM
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/platform.sh
ktap_plan 8

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

# 4-5. cpu3's own interrupts after its last switch: counted only from the
# moment cpu3 runs on its A7, so a timer or an IPI path that died with the
# switch fails.  At HZ=100 a CPU kept busy for 2 s takes about 200 ticks
# (a busy CPU keeps its tick under NO_HZ_IDLE); 100 is the floor.  Each
# trace_trigger write is one function-call IPI to every other online CPU:
# the writer runs on cpu0, as a write on cpu3 calls its function there
# without an IPI (in modelled time the shell often lands on cpu3).
irqcount() { awk -v k="$1" -v c="$2" '$1 == k || $NF == k { print $(c + 2) }' /proc/interrupts; }
sw_switch 3 1
sw_switch 3 0
sw_switch 3 1
on=$(sw_cluster 3)
read -r u0 _ < /proc/uptime
t0=$(irqcount arch_timer 3)
taskset -c 3 sh -c 'read -r u _ < /proc/uptime; end=$((${u%.*} + 3)); while [ ${u%.*} -lt $end ]; do read -r u _ < /proc/uptime; done'
t1=$(irqcount arch_timer 3)
read -r u1 _ < /proc/uptime
ms=$(awk -v a="$u0" -v b="$u1" 'BEGIN { printf "%d", (b - a) * 1000 }')
if [ "$on" = 1 ] && [ "$ms" -ge 2000 ] && [ $((t1 - t0)) -ge 100 ]; then
	ktap_pass "after its last switch cpu3 (on its A7) takes its timer tick: >= 100 in a busy loop >= 2 s" \
		"arch_timer on cpu3 $t0 -> $t1 in $ms ms"
else
	ktap_fail "after its last switch cpu3 (on its A7) takes its timer tick: >= 100 in a busy loop >= 2 s" \
		"cluster $on, arch_timer on cpu3 $t0 -> $t1 in $ms ms"
fi
f0=$(irqcount IPI3: 3)
taskset -c 0 sh -c "i=0; while [ \$i -lt 20 ]; do echo 1 > $SW/trace_trigger; i=\$((i + 1)); done"
f1=$(irqcount IPI3: 3)
if [ $((f1 - f0)) -ge 20 ]; then
	ktap_pass "after its last switch cpu3 takes the 20 function-call IPIs sent to it" "IPI3 on cpu3 $f0 -> $f1"
else
	ktap_fail "after its last switch cpu3 takes the 20 function-call IPIs sent to it" "IPI3 on cpu3 $f0 -> $f1"
fi
sw_switch 3 0

# 6-7. An SPI follows a switch: the PL031's alarm, routed to logical cpu3
# through smp_affinity, fires once after each of four switches and is
# counted on cpu3 alone; the distributor's target byte for it
# (GICD_ITARGETSR, read with devmem) names the interface of the physical
# CPU cpu3 then runs on, which that CPU reads for itself in the banked
# GICD_ITARGETSR0 (gic_migrate_target() moved it).
GICD=$(lab_gicd_base)
RTC=/sys/class/rtc/rtc0
rtc_irq=$(awk '/rtc-pl031/ { sub(":", "", $1); print $1 }' /proc/interrupts)
rtc_hw=$(awk '/rtc-pl031/ { for (i = 1; i < NF; i++) if ($i ~ /^GIC/) print $(i + 1) }' /proc/interrupts)
spi_total() {
	awk -v k="$rtc_irq:" '$1 == k { s = 0; for (i = 2; $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts
}
target_byte() {
	printf '0x%02x' $((($(devmem $((GICD + 0x800 + ($1 & ~3))) 32) >> (8 * ($1 & 3))) & 0xff))
}
own_mask() { printf '0x%02x' $(($(taskset -c "$1" devmem $((GICD + 0x800)) 32) & 0xff)); }
echo 8 > "/proc/irq/$rtc_irq/smp_affinity"
spi_log=""
spi_bad=""
tgt_log=""
tgt_bad=""
prev=$(own_mask 3)
for c in 1 0 1 0; do
	sw_switch 3 $c || spi_bad="$spi_bad switch-to-$c-failed"
	mine=$(own_mask 3)
	tgt=$(target_byte "$rtc_hw")
	tgt_log="$tgt_log $c:$tgt/$mine"
	{ [ "$tgt" = "$mine" ] && [ "$mine" != "$prev" ]; } || tgt_bad=1
	prev=$mine
	a0=$(irqcount "$rtc_irq:" 3)
	s0=$(spi_total)
	echo 0 > $RTC/wakealarm
	echo +1 > $RTC/wakealarm
	w=0
	while [ "$(irqcount "$rtc_irq:" 3)" = "$a0" ] && [ $w -lt 40 ]; do
		usleep 100000
		w=$((w + 1))
	done
	a1=$(irqcount "$rtc_irq:" 3)
	s1=$(spi_total)
	spi_log="$spi_log $c:$a0->$a1/$s0->$s1"
	{ [ $((a1 - a0)) = 1 ] && [ $((s1 - s0)) = 1 ]; } || spi_bad="$spi_bad $c"
done
if [ -n "$rtc_irq" ] && [ -z "$spi_bad" ]; then
	ktap_pass "the PL031 alarm (SPI $rtc_hw) routed to cpu3 fires once after each of 4 switches, counted on cpu3" \
		"cluster:cpu3-count/all-CPUs$spi_log"
else
	ktap_fail "the PL031 alarm (SPI $rtc_hw) routed to cpu3 fires once after each of 4 switches, counted on cpu3" \
		"irq '$rtc_irq', failed after:$spi_bad; cluster:cpu3-count/all-CPUs$spi_log"
fi
if [ -z "$tgt_bad" ]; then
	ktap_pass "after each switch GICD_ITARGETSR for the SPI names the physical CPU under cpu3" \
		"cluster:target/own-interface$tgt_log"
else
	ktap_fail "after each switch GICD_ITARGETSR for the SPI names the physical CPU under cpu3" \
		"cluster:target/own-interface$tgt_log"
fi
echo 0 > $RTC/wakealarm
echo ff > "/proc/irq/$rtc_irq/smp_affinity"
ktap_done

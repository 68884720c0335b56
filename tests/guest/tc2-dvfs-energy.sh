#!/bin/sh
# lab-test: platform=tc2 timing=modelled append=no_bL_switcher timeout=600 qemu-expect='vexpress-bl-dcc: (no function|reference clock)' qemu-expect-count=5
# TC2 modelled (issue 31): cpufreq through the SPC, and the
# daughterboard's functions as TC2's own device tree names them (QEMU's
# vexpress-bl-dcc with "spc": the SPC's performance levels set the
# clusters' clocks and supplies), through mainline's vexpress-spc-cpufreq,
# vexpress-regulator and vexpress-hwmon, the switcher off (policy0 = the
# A15s, policy2 = the A7s):
#  - vexpress-hwmon is bound: energy, power and current of each cluster
#    and the DCC's temperature, labelled as in the tree;
#  - under userspace, each OPP of each cluster reaches scaling_cur_freq,
#    the SPC's clock (clk debugfs cpuN) and the SPC's PERF_LVL register
#    (its index in the table), and the OPP's voltage (OPP debugfs, read
#    by the driver from the SPC) is the model's supply (VOLT, and the
#    "A15/A7 Vcore" regulator);
#  - a fixed loop's time follows the clock, as on rtsm: top against
#    bottom of each cluster's range, and an A7 against an A15 at the same
#    1 GHz, within 1% (modelled time);
#  - the energy meters never decrease; the same loop costs less energy on
#    an A7 at 350 MHz than on an A15 at 1.2 GHz;
#  - a cluster the SPC has powered down (its CPUs offline) draws nothing;
#    with cluster sleep on, an idle cluster draws less than with it off;
#  - the SPC's supplies refuse writes, the reference clocks a rate
#    outside their range and a device the tile lacks: SYS_CFGSTAT's
#    error, nothing changes.
# shellcheck disable=SC2086,SC2013 # CPU numbers and frequencies are single words
. /usr/share/lab/ktap.sh
. /usr/share/lab/platform.sh
. /usr/share/lab/syscfg.sh
. /usr/share/lab/dvfs.sh
CF=/sys/devices/system/cpu/cpufreq
CLK=/sys/kernel/debug/clk
OPP=/sys/kernel/debug/opp
# The SPC's performance levels: A15 cluster, A7 cluster
PERF_LVL0=0x7fff0b00
PERF_LVL1=0x7fff0b08
ktap_plan 12

got=0
for d in /sys/bus/platform/drivers/vexpress-hwmon/dcc:*; do
	[ -e "$d" ] && got=$((got + 1))
done
labels=""
for l in "A15 Jcore:energy" "A7 Jcore:energy" "A15 Pcore:power" "A7 Pcore:power" \
	 "A15 Icore:curr" "A7 Icore:curr" "DCC:temp"; do
	f=$(hwmon_file "${l%%:*}" "${l#*:}") && [ -r "$f" ] && labels="$labels ${l%%:*}"
done
ktap_expect "vexpress-hwmon bound to the tile's 7 sensors, each labelled as in the tree" \
	"7 A15 Jcore A7 Jcore A15 Pcore A7 Pcore A15 Icore A7 Icore DCC" "$got$labels"
ktap_expect "the DCC's temperature (not modelled: a constant 40 C; hwmon in mC, the DCC in uC)" \
	"40000 40000000" "$(cat "$(hwmon_file DCC temp)") $(syscfg_exec $CFG_TEMP 0)"
E0=$(hwmon_file "A15 Jcore" energy)
E1=$(hwmon_file "A7 Jcore" energy)
P1=$(hwmon_file "A7 Pcore" power)

# Each OPP of each cluster under userspace
bad="" badv="" volts=""
for p in 0 2; do
	c=$((p / 2))
	if [ $c = 0 ]; then supply="A15 Vcore"; lvl=$PERF_LVL0; else supply="A7 Vcore"; lvl=$PERF_LVL1; fi
	echo userspace > $CF/policy$p/scaling_governor
	i=0
	for f in $(cat $CF/policy$p/scaling_available_frequencies); do
		echo $f > $CF/policy$p/scaling_setspeed
		got="$(cat $CF/policy$p/scaling_cur_freq) $(cat $CLK/cpu$p/clk_rate) $(($(devmem $lvl 32)))"
		[ "$got" = "$f $((f * 1000)) $i" ] || bad="$bad policy$p $f: $got;"
		uv=$(cat $OPP/cpu$p/opp:$((f * 1000))/supply-0/u_volt_target 2>/dev/null || echo none)
		got="$(regulator_uv "$supply") $(syscfg_exec $CFG_VOLT $c)"
		[ "$got" = "$uv $uv" ] || badv="$badv policy$p $f: OPP $uv, regulator and model $got;"
		volts="$volts $((f / 1000)):$((uv / 1000))"
		i=$((i + 1))
	done
done
if [ -z "$bad" ]; then
	ktap_pass "every OPP of both clusters: scaling_cur_freq, the SPC's clock and its PERF_LVL agree"
else
	ktap_fail "every OPP of both clusters: scaling_cur_freq, the SPC's clock and its PERF_LVL agree" "$bad"
fi
if [ -z "$badv" ]; then
	ktap_pass "every OPP of both clusters: the model's supply and the regulator at the OPP's voltage" \
		"MHz:mV$volts"
else
	ktap_fail "every OPP of both clusters: the model's supply and the regulator at the OPP's voltage" "$badv"
fi

# ns CPU: the fastest of three runs of the fixed loop on CPU, the test's
# shell on the other cluster
ns() {
	if [ "$1" -lt 2 ]; then taskset -p -c 3 $$ >/dev/null; else taskset -p -c 1 $$ >/dev/null; fi
	for _r in 1 2 3; do cpu-loop -c "$1" 30 | awk '{ print $4 }'; done | sort -n | head -n 1
}
khz() { echo "$2" > $CF/policy$1/scaling_setspeed; }
e0_first=$(cat $E0) e1_first=$(cat $E1)
khz 0 1200000; a15_top=$(ns 0); e0_mid=$(cat $E0)
khz 0 1000000; a15_1g=$(ns 0)
khz 0 500000; a15_500=$(ns 0)
khz 2 1000000; a7_top=$(ns 2); e1_mid=$(cat $E1)
khz 2 350000; a7_bottom=$(ns 2)
dvfs_speed_ratios "$a15_top" "$a15_1g" "$a15_500" "$a7_top" "$a7_bottom"

# The same loop's energy: an A7 at 350 MHz against an A15 at 1.2 GHz
khz 0 1200000
dvfs_same_work 0 2 "$E0" "$E1" 3 1
seq="$e0_first $e0_mid $(cat $E0) / $e1_first $e1_mid $(cat $E1)"
if echo "$seq" | awk '{ for (i = 2; i <= NF; i++) if ($i != "/" && $(i - 1) != "/" && $i <= $(i - 1)) exit 1 }'; then
	ktap_pass "energy meters rise while their clusters work" "$seq"
else
	ktap_fail "energy meters rise while their clusters work" "$seq"
fi

# The A7 cluster offline: the SPC powers it down, it draws nothing
taskset -p -c 0 $$ >/dev/null
for c in 4 3 2; do echo 0 > /sys/devices/system/cpu/cpu$c/online; done
sleep 0.3
e=$(cat $E1)
sleep 1
ktap_expect "A7 cluster offline (RESET_CTRL's A7 bits clear): no energy in 1 s, no power" \
	"0x0 0 0" "$(printf '0x%x' $(($(devmem 0x7fff0018 32) & 0x70000))) $(($(cat $E1) - e)) $(cat $P1)"
for c in 2 3 4; do echo 1 > /sys/devices/system/cpu/cpu$c/online; done

# Idle power of the A7 cluster over 2 s, the shell on cpu0: cluster
# sleep off (its CPUs in WFI, the cluster powered) and on (the SPC
# powers the cluster down between interrupts)
idle_uj() {
	lab_cluster_sleep "$1"
	sleep 0.5
	_e=$(cat $E1)
	sleep 2
	echo $(($(cat $E1) - _e))
}
off=$(idle_uj off)
on=$(idle_uj on)
if [ "$on" -lt "$off" ]; then
	ktap_pass "an idle A7 cluster draws less with cluster sleep on" \
		"2 s idle: $off uJ with cluster sleep off, $on uJ with it on (modelled)"
else
	ktap_fail "an idle A7 cluster draws less with cluster sleep on" \
		"2 s idle: $off uJ with cluster sleep off, $on uJ with it on"
fi

# Bad input straight to SYS_CFGCTRL: the error, and nothing changes
state() { echo "$(syscfg_exec $CFG_VOLT 0) $(syscfg_exec $CFG_VOLT 1) $(syscfg_exec $CFG_OSC 0) $(syscfg_exec $CFG_OSC 4)"; }
before=$(state)
errs=0
syscfg_exec $CFG_VOLT 0 900000 || errs=$((errs + 1))
syscfg_exec $CFG_VOLT 1 1000000 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 0 100 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 4 50000000 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 9 24000000 || errs=$((errs + 1))
ktap_expect "5 bad SYS_CFG writes (supplies, reference clocks out of range, OSC 9): each refused, nothing changes" \
	"5 $before" "$errs $(state)"
ktap_done

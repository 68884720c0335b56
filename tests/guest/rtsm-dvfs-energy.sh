#!/bin/sh
# lab-test: platform=rtsm timing=modelled append=no_bL_switcher timeout=600 qemu-expect='vexpress-bl-dcc: (A15|A7) cluster (clock|supply) [0-9]+ (Hz|uV) refused|vexpress-bl-dcc: no function' qemu-expect-count=7
# The modelled platform's cluster clocks, speed and energy meters
# (QEMU's vexpress-bl-dcc behind SYS_CFG site 1, docs/dvfs-energy.md),
# through mainline's clk-vexpress-osc and vexpress-hwmon and the cpufreq
# front end's per-cluster policies (the switcher off: policy0 = the A15s,
# policy4 = the A7s):
#  - the meters appear as hwmon devices labelled with their cluster;
#  - under userspace, each OPP of each cluster reaches the clock tree
#    (clk debugfs), the model's oscillator and scaling_cur_freq, and its
#    voltage (OPP debugfs) the regulator and the model's supply; a rate
#    between OPPs is rounded up (CPUFREQ_RELATION_L), garbage is refused;
#  - a fixed loop's time follows the clock: top against bottom of each
#    cluster's range, and an A7 against an A15 at the same 1 GHz (the
#    model's speed ratio 1024/516), within 1% (in modelled time,
#    docs/timing.md: in host time the throttle and the host's load made
#    it 15%);
#  - the energy meters never decrease; the same loop costs less energy on
#    an A7 at 350 MHz than on an A15 at 1.2 GHz; a cluster held in reset
#    draws nothing;
#  - governors: the same loop under powersave takes longer and costs less
#    energy than under performance;
#  - out-of-range OSC and VOLT values and a function the site lacks,
#    written straight to SYS_CFGCTRL, get SYS_CFGSTAT's error and change
#    nothing.
# shellcheck disable=SC2086,SC2013,SC2034 # CPU numbers and frequencies are single words; the round counter is unused
. /usr/share/lab/ktap.sh
. /usr/share/lab/rtsm.sh
. /usr/share/lab/syscfg.sh
. /usr/share/lab/dvfs.sh
CF=/sys/devices/system/cpu/cpufreq
CLK=/sys/kernel/debug/clk
OPP=/sys/kernel/debug/opp
ktap_plan 14

got=""
for l in "A15 Jcore:energy" "A7 Jcore:energy" "A15 Pcore:power" "A7 Pcore:power" \
	 "A15 Icore:curr" "A7 Icore:curr"; do
	f=$(hwmon_file "${l%%:*}" "${l#*:}") && [ -r "$f" ] && got="$got ${l%%:*}"
done
ktap_expect "hwmon: energy, power and current of each cluster, labelled" \
	" A15 Jcore A7 Jcore A15 Pcore A7 Pcore A15 Icore A7 Icore" "$got"
E0=$(hwmon_file "A15 Jcore" energy)
E1=$(hwmon_file "A7 Jcore" energy)
P1=$(hwmon_file "A7 Pcore" power)

# Each OPP of each cluster under userspace: cpufreq, the clock tree, the
# regulator and the model agree with the OPP table.
bad="" badv="" volts=""
for p in 0 4; do
	c=$((p / 4))
	if [ $c = 0 ]; then supply="A15 Vcore"; else supply="A7 Vcore"; fi
	echo userspace > $CF/policy$p/scaling_governor
	for f in $(cat $CF/policy$p/scaling_available_frequencies); do
		echo $f > $CF/policy$p/scaling_setspeed
		got="$(cat $CF/policy$p/scaling_cur_freq) $(cat $CLK/cluster$c/clk_rate) $(syscfg_exec $CFG_OSC $c)"
		[ "$got" = "$f $((f * 1000)) $((f * 1000))" ] || bad="$bad policy$p $f: $got;"
		uv=$(cat $OPP/cpu$p/opp:$((f * 1000))/supply-0/u_volt_target 2>/dev/null || echo none)
		got="$(regulator_uv "$supply") $(syscfg_exec $CFG_VOLT $c)"
		[ "$got" = "$uv $uv" ] || badv="$badv policy$p $f: OPP $uv, regulator and model $got;"
		volts="$volts $((f / 1000)):$((uv / 1000))"
	done
done
if [ -z "$bad" ]; then
	ktap_pass "every OPP of both clusters: scaling_cur_freq, clk_rate and the model's OSC agree"
else
	ktap_fail "every OPP of both clusters: scaling_cur_freq, clk_rate and the model's OSC agree" "$bad"
fi
if [ -z "$badv" ]; then
	ktap_pass "every OPP of both clusters: the regulator and the model's VOLT at the OPP's voltage" \
		"MHz:mV$volts"
else
	ktap_fail "every OPP of both clusters: the regulator and the model's VOLT at the OPP's voltage" "$badv"
fi

echo 550000 > $CF/policy0/scaling_setspeed
ktap_expect "550 MHz on the A15s is rounded up to the 600 MHz OPP" \
	"600000 600000000" "$(cat $CF/policy0/scaling_cur_freq) $(syscfg_exec $CFG_OSC 0)"
before="$(cat $CF/policy0/scaling_setspeed) $(syscfg_exec $CFG_OSC 0)"
refused=0
for v in abc 12abc -1 ""; do
	echo "$v" > $CF/policy0/scaling_setspeed 2>/dev/null || refused=$((refused + 1))
done
ktap_expect "garbage in scaling_setspeed is refused and changes nothing" \
	"4 $before" "$refused $(cat $CF/policy0/scaling_setspeed) $(syscfg_exec $CFG_OSC 0)"

# loop_ns CPU: one timed run of the fixed loop on CPU, the test's own
# shell kept off CPU's cluster
loop_ns() {
	if [ "$1" -lt 4 ]; then taskset -p -c 5 $$ >/dev/null; else taskset -p -c 1 $$ >/dev/null; fi
	cpu-loop -c "$1" 30 | awk '{ print $4 }'
}
set_khz() { echo "$2" > $CF/policy$1/scaling_setspeed; }
min() { if [ -z "$1" ] || [ "$2" -lt "$1" ]; then echo "$2"; else echo "$1"; fi; }
# Three rounds of every setting (in modelled time the rounds agree but for
# the kernel's own work during them; the fastest is kept), the meters read
# after each: the readings must never decrease.
ROUNDS="1 2 3"
e_before="$(cat $E0) $(cat $E1)"
seq0="" seq1=""
a15_top="" a15_1g="" a15_500="" a7_top="" a7_bottom=""
for round in $ROUNDS; do
	set_khz 0 1200000
	a15_top=$(min "$a15_top" "$(loop_ns 0)")
	set_khz 0 1000000
	a15_1g=$(min "$a15_1g" "$(loop_ns 0)")
	set_khz 0 500000
	a15_500=$(min "$a15_500" "$(loop_ns 0)")
	set_khz 4 1000000
	a7_top=$(min "$a7_top" "$(loop_ns 4)")
	set_khz 4 350000
	a7_bottom=$(min "$a7_bottom" "$(loop_ns 4)")
	seq0="$seq0 $(cat $E0)" seq1="$seq1 $(cat $E1)"
done
dvfs_speed_ratios "$a15_top" "$a15_1g" "$a15_500" "$a7_top" "$a7_bottom"

# Energy of the same loop: an A7 at 350 MHz against an A15 at 1.2 GHz
set_khz 0 1200000
dvfs_same_work 0 4 "$E0" "$E1" 5 1
e_after="$(cat $E0) $(cat $E1)"
# shellcheck disable=SC2046 # four numbers
set -- $e_before $e_after
# rising LIST: each reading at least the one before, the last above the first
rising() { echo "$*" | awk '{ for (i = 2; i <= NF; i++) if ($i < $(i - 1)) exit 1; exit !($NF > $1) }'; }
readings=$(($(echo $ROUNDS | wc -w) + 2))
if rising "$1 $seq0 $3" && rising "$2 $seq1 $4"; then
	ktap_pass "energy meters never decrease ($readings readings each, while both clusters work)"
else
	ktap_fail "energy meters never decrease ($readings readings each, while both clusters work)" \
		"A15:$1 $seq0 $3 A7:$2 $seq1 $4"
fi

# Governors: the same loop under powersave (500 MHz, 0.9 V) and under
# performance (1.2 GHz, 1.05 V) on an A15, the shell on the A7s
taskset -p -c 5 $$ >/dev/null
run_gov() {
	echo "$1" > $CF/policy0/scaling_governor
	_e=$(cat $E0)
	_t=$(cpu-loop -c 0 60 | awk '{ print $4 }')
	echo "$((_t / 1000)) $(($(cat $E0) - _e)) $(cat $CF/policy0/scaling_cur_freq)"
}
# shellcheck disable=SC2046 # three numbers each
set -- $(run_gov performance) $(run_gov powersave)
ktap_diag "loop under performance: $(($1 / 1000)) ms, $2 uJ at $3 kHz; under powersave: $(($4 / 1000)) ms, $5 uJ at $6 kHz"
if [ "$4" -gt "$1" ] && [ "$5" -lt "$2" ]; then
	ktap_pass "powersave: the loop takes longer and costs less energy than under performance"
else
	ktap_fail "powersave: the loop takes longer and costs less energy than under performance" \
		"performance $1 us $2 uJ, powersave $4 us $5 uJ"
fi
# The cluster's power while the loop runs, energy over time, follows the
# model's V^2 f between the two OPPs (the voltages the OPP table gave the
# regulator above): within 10%, the rest being the cluster's idle power
# and the kernel's own work.
mv_of() { echo "$volts" | tr ' ' '\n' | awk -F: -v f="$1" '$1 == f { print $2; exit }'; }
v_hi=$(mv_of $(($3 / 1000)))
v_lo=$(mv_of $(($6 / 1000)))
ratio=$(awk -v t1="$1" -v e1="$2" -v t2="$4" -v e2="$5" -v f1="$3" -v f2="$6" -v v1="$v_hi" -v v2="$v_lo" '
	BEGIN { if (t1 <= 0 || t2 <= 0 || e2 <= 0 || v2 <= 0 || f2 <= 0) { print "none none 1"; exit }
		m = (e1 / t1) / (e2 / t2); x = (v1 * v1 * f1) / (v2 * v2 * f2)
		printf "%.3f %.3f %d", m, x, (m < 0.9 * x || m > 1.1 * x) }')
# shellcheck disable=SC2086 # three words
set -- $ratio
if [ "$3" = 0 ]; then
	ktap_pass "A15 cluster power at $v_hi mV against $v_lo mV OPP: the ratio follows V^2 f within 10%" \
		"measured $1, V^2 f $2"
else
	ktap_fail "A15 cluster power at $v_hi mV against $v_lo mV OPP: the ratio follows V^2 f within 10%" \
		"measured $1, V^2 f $2"
fi
echo userspace > $CF/policy0/scaling_governor

# The A7 cluster held in reset: its meter stands still, its power reads 0
taskset -p -c 0-3 $$ >/dev/null
set_cluster1 0
held=$(wait_for stat1 0x10f)
sleep 0.3
e=$(cat $E1)
sleep 1
ktap_expect "cluster 1 held in reset (RST_STAT1 $held): no energy in 1 s, no power" \
	"0x10f 0 0" "$held $(($(cat $E1) - e)) $(cat $P1)"
set_cluster1 1

# Bad input straight to SYS_CFGCTRL: the error, and nothing changes
before="$(syscfg_exec $CFG_OSC 0) $(syscfg_exec $CFG_OSC 1) $(syscfg_exec $CFG_VOLT 0) $(syscfg_exec $CFG_VOLT 1)"
errs=0
syscfg_exec $CFG_OSC 0 100 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 0 1300000000 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 1 1200000000 || errs=$((errs + 1))
syscfg_exec $CFG_VOLT 0 1200000 || errs=$((errs + 1))
syscfg_exec $CFG_VOLT 1 0 || errs=$((errs + 1))
syscfg_exec $CFG_OSC 7 500000000 || errs=$((errs + 1))
syscfg_exec $CFG_POWER 0 1 || errs=$((errs + 1))
after="$(syscfg_exec $CFG_OSC 0) $(syscfg_exec $CFG_OSC 1) $(syscfg_exec $CFG_VOLT 0) $(syscfg_exec $CFG_VOLT 1)"
ktap_expect "7 bad SYS_CFG writes: each gets SYS_CFGSTAT's error, nothing changes" \
	"7 $before" "$errs $after"
ktap_done

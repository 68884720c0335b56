#!/bin/sh
# lab-test: timing=modelled timeout=300
# The big.LITTLE cpufreq driver with the switcher active: one policy per
# logical CPU, each over the merged virtual table (A7 at half its real
# frequency below the A15 range, then the A15), each entry one (cluster,
# real frequency); the mapping shown per policy agrees with the switcher.
# shellcheck disable=SC2086,SC2016,SC2012,SC2231 # CPU numbers, frequencies and sysfs paths are single words; single-quoted code runs in the guest
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/cpufreq.sh
ktap_plan 10

VIRT="175000 200000 250000 300000 350000 400000 450000 500000 600000 700000 800000 900000 1000000 1100000 1200000"

# 1. driver and policies
pols=$(cd $CF && ls -d policy* | tr '\n' ' ')
ktap_expect "driver vexpress-spc, one policy per logical CPU 0-3" \
	"vexpress-spc vexpress-spc vexpress-spc vexpress-spc|policy0 policy1 policy2 policy3 |0 1 2 3" \
	"$(cat $CF/policy*/scaling_driver | tr '\n' ' ' | sed 's/ $//')|$pols|$(cat $CF/policy*/related_cpus | tr '\n' ' ' | sed 's/ $//')"

# 2. the table of each policy
bad=""
for n in 0 1 2 3; do
	got=$(cat $CF/policy$n/scaling_available_frequencies | sed 's/ *$//')
	[ "$got" = "$VIRT" ] || bad="$bad policy$n:[$got]"
done
ktap_expect "virtual table 175-450 MHz (A7 350-900 halved), 500-1200 MHz (A15)" "" "$bad"

# 3. strictly increasing, each entry one (cluster, real) pair, A7 halved
bad=$(awk 'NR > 1 && $1 <= prev { print "not increasing at " $1 }
	$2 == 1 && $3 != 2 * $1 { print "A7 entry " $1 " real " $3 }
	$2 == 0 && $3 != $1 { print "A15 entry " $1 " real " $3 }
	seen[$2 " " $3]++ { print "duplicate " $2 " " $3 }
	$2 == 1 && a15 { print "A7 entry above an A15 one" }
	$2 == 0 { a15 = 1 }
	{ prev = $1 }' "$(cf_table 0)")
ktap_expect "the table (debugfs) strictly increasing, one (cluster, real) per entry" "" "$bad"
tr '\n' ';' < "$(cf_table 0)" | sed 's/^/# /'; echo

# 4. the same on every policy
bad=""
for n in 1 2 3; do
	cmp -s "$(cf_table 0)" "$(cf_table $n)" || bad="$bad policy$n"
done
ktap_expect "every policy has the same table" "" "$bad"

# 5. cpuinfo limits and latency from the DT's clock-latency-ns
ktap_expect "cpuinfo min/max 175000/1200000, transition latency 300000 ns" \
	"175000 1200000 300000" \
	"$(cat $CF/policy0/cpuinfo_min_freq $CF/policy0/cpuinfo_max_freq $CF/policy0/cpuinfo_transition_latency | tr '\n' ' ' | sed 's/ $//')"

# 6. the mapping of each policy agrees with the switcher
bad=""
for n in 0 1 2 3; do bad="$bad$(cf_state $n)"; done
ktap_expect "scaling_cur_freq, the table, bL_cur_cluster(_freq) agree with the switcher" "" "$bad"

# 7. a switch behind cpufreq's back is seen at cpuinfo_cur_freq
for n in 0 1 2 3; do echo userspace > $CF/policy$n/scaling_governor; done
echo 1000000 > $CF/policy2/scaling_setspeed
sw_switch 2 1
f=$(cat $CF/policy2/cpuinfo_cur_freq)
c=$(entry_cluster 2 "$f")
echo 1000000 > $CF/policy2/scaling_setspeed
ktap_expect "switched to the A7 through the switcher: cpuinfo_cur_freq is an A7 entry, setspeed brings it back" \
	"1 0 1000000" "$c $(sw_cluster 2) $(cat $CF/policy2/scaling_cur_freq)"

# 8. stats: one line per entry in time_in_state
ktap_expect "CPU_FREQ_STAT: time_in_state has the 15 entries" "$VIRT" \
	"$(awk '{ print $1 }' $CF/policy0/stats/time_in_state | tr '\n' ' ' | sed 's/ $//')"

# 9. the clusters' clocks are the modelled platform's oscillators (vexpress-osc)
mount -t debugfs none /sys/kernel/debug 2>/dev/null
if [ -r /sys/kernel/debug/clk/clk_summary ]; then
	got=$(awk '$1 == "cluster0" || $1 == "cluster1" { print $1 }' /sys/kernel/debug/clk/clk_summary | sort | tr '\n' ' ')
	ktap_expect "cluster clocks cluster0 and cluster1 registered" "cluster0 cluster1 " "$got"
else
	ktap_skip "cluster clocks cluster0 and cluster1 registered" "no clk debugfs"
fi

# 10. the ABI: the driver's own policy files are bL_*, none takes the
# core's scaling_ prefix, and each holds one value (tables are in debugfs)
core=" affected_cpus cpuinfo_cur_freq cpuinfo_max_freq cpuinfo_min_freq cpuinfo_transition_latency related_cpus scaling_available_frequencies scaling_available_governors scaling_cur_freq scaling_driver scaling_governor scaling_max_freq scaling_min_freq scaling_setspeed "
bad=""
own=""
for f in $CF/policy0/*; do
	[ -f "$f" ] || continue
	n=${f##*/}
	case "$core" in *" $n "*) continue ;; esac
	own="$own $n"
	case "$n" in bL_*) ;; *) bad="$bad $n:name" ;; esac
	[ "$(wc -w < $f)" = 1 ] || bad="$bad $n:$(wc -w < $f)-values"
done
ktap_expect "the driver's sysfs files: bL_cur_cluster bL_cur_cluster_freq bL_switch_failures bL_switch_refused, one value each" \
	" bL_cur_cluster bL_cur_cluster_freq bL_switch_failures bL_switch_refused" "$own$bad"
ktap_done

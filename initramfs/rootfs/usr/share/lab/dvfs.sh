# shellcheck shell=sh
# What the cluster clocks and energy meters must show, on every platform
# with them (rtsm, tc2), as ktap results.  Source after ktap.sh.

# dvfs_speed_ratios A15_1200 A15_1000 A15_500 A7_1000 A7_350: a fixed
# loop's times (ns) at those clocks (MHz) follow the model's speed,
# f / 1.2 GHz * DMIPS/MHz / 1024, within 1%: an A7 at f is 516/1024 of
# an A15
dvfs_speed_ratios() {
	ktap_diag "loop (ns): A15 1.2 GHz $1, 1 GHz $2, 500 MHz $3; A7 1 GHz $4, 350 MHz $5"
	ktap_within1 "A15: 500 MHz against 1.2 GHz" $(($3 * 1000 / $1)) 2400
	ktap_within1 "A7: 350 MHz against 1 GHz" $(($5 * 1000 / $4)) 2857
	ktap_within1 "A7 against A15, both at 1 GHz (DMIPS/MHz 1024/516)" $(($4 * 1000 / $2)) 1984
}

# dvfs_same_work A15 A7 METER_A15 METER_A7 SHELL_A15 SHELL_A7: the same
# loop costs less energy on CPU A7 (its cluster at 350 MHz) than on CPU
# A15 (at 1.2 GHz), each meter read around its run, the test's shell
# moved to SHELL_A15 (a CPU of the other cluster) for the A15's run and
# to SHELL_A7 for the A7's
dvfs_same_work() {
	taskset -p -c "$5" $$ >/dev/null
	_e=$(cat "$3"); cpu-loop -c "$1" 60 >/dev/null; _e15=$(($(cat "$3") - _e))
	taskset -p -c "$6" $$ >/dev/null
	_e=$(cat "$4"); cpu-loop -c "$2" 60 >/dev/null; _e7=$(($(cat "$4") - _e))
	ktap_diag "same loop: A15 at 1.2 GHz $_e15 uJ, A7 at 350 MHz $_e7 uJ"
	if [ "$_e7" -gt 0 ] && [ "$_e7" -lt "$_e15" ]; then
		ktap_pass "the same work costs less energy on an A7 at 350 MHz than on an A15 at 1.2 GHz"
	else
		ktap_fail "the same work costs less energy on an A7 at 350 MHz than on an A15 at 1.2 GHz" \
			"A15 $_e15 uJ, A7 $_e7 uJ"
	fi
}

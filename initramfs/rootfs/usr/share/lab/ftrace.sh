# shellcheck shell=sh
# The function tracer storm of tests/guest/ftrace-storm.sh and
# rtsm-ftrace-storm.sh.  Source after ktap.sh:  . /usr/share/lab/ftrace.sh

FT=/sys/kernel/tracing

# The functions an outbound CPU may run once its inbound has resumed the
# same logical CPU in the same task (mcpm_cpu_power_down() and what it
# calls), and in particular between leaving coherency (its cache off) and
# its power-off, on either backend: nothing may trace them.  Those the
# compiler inlines are never traceable; the others must be notrace or in
# a file built without -pg (mcpm_entry.c, mcpm_psci.c, dcscb.c are).
FT_NOTRACE="mcpm_cpu_power_down mcpm_this_cpu_cluster mcpm_hwid_to_cpu_cluster
setup_mm_for_reboot __mcpm_cpu_going_down __mcpm_outbound_enter_critical
__mcpm_cluster_state mcpm_psci_cpu_powerdown_prepare mcpm_psci_cluster_powerdown_prepare
dcscb_cpu_powerdown_prepare dcscb_cluster_powerdown_prepare
__mcpm_cpu_down __mcpm_outbound_leave_critical mcpm_fault_delay_power_off
mcpm_fault_refuse_power_off mcpm_psci_cpu_cache_disable mcpm_psci_cluster_cache_disable
mcpm_psci_cpu_power_off psci_0_1_cpu_off psci_0_2_cpu_off __psci_cpu_off
dcscb_cpu_cache_disable dcscb_cluster_cache_disable cci_disable_port_by_cpu
cci_port_control"

# What the storm traces: MCPM, PSCI, the DCSCB, the CCI and the switcher.
FT_FILTER="mcpm_* *psci* dcscb_* cci_* bL_* __mcpm_* setup_mm_for_reboot"

# ft_traceable: the FT_NOTRACE functions the tracer offers
ft_traceable() {
	for _f in $FT_NOTRACE; do
		grep -qx "$_f" "$FT/available_filter_functions" && printf '%s ' "$_f"
	done
	return 0
}

# ft_storm_checks MODE SECONDS: the ktap cases (3) of a switch storm with the
# function tracer on the FT_FILTER functions
ft_storm_checks() {
	ktap_expect "no function of the path to power-off is traceable" "" "$(ft_traceable)"

	echo 0 > "$FT/tracing_on"
	echo nop > "$FT/current_tracer"
	echo 4096 > "$FT/buffer_size_kb"
	: > "$FT/set_ftrace_filter"
	for _g in $FT_FILTER; do
		echo "$_g" >> "$FT/set_ftrace_filter" 2>/dev/null || true
	done
	_nfilt=$(wc -l < "$FT/set_ftrace_filter")
	echo function > "$FT/current_tracer"
	: > "$FT/trace"
	echo 1 > "$FT/tracing_on"
	_sw0=$(sw_stat switches)
	_out=$(switch-storm -m "$1" -d "$2" 2>&1)
	_rc=$?
	echo 0 > "$FT/tracing_on"
	_sw=$(( $(sw_stat switches) - _sw0 ))
	if [ $_rc -eq 0 ] && [ "$_sw" -gt 0 ]; then
		ktap_pass "$1 storm with the function tracer on ($_nfilt functions)" \
			"$_sw switches"
	else
		ktap_fail "$1 storm with the function tracer on ($_nfilt functions)" \
			"rc $_rc, $_sw switches: $(echo "$_out" | grep -A3 '^result' | tr '\n' ' ')"
	fi

	# The tracer saw each outbound CPU up to bL_do_switch(), which opens
	# its inbound's gate, and nothing the outbounds ran after the gate.
	_seen=$(awk '$1 !~ /^#/ { sub(/ <-.*/, ""); print $NF }' "$FT/trace" | sort | uniq -c |
		awk '{ print $2 ":" $1 }' | tr '\n' ' ')
	_bad=""
	for _f in $FT_NOTRACE; do
		case " $_seen" in *" $_f:"*) _bad="$_bad $_f" ;; esac
	done
	_out=$(echo " $_seen" | sed -n 's/.* bL_do_switch:\([0-9]*\).*/\1/p')
	if [ -z "$_bad" ] && [ "${_out:-0}" -gt 0 ]; then
		ktap_pass "traced bL_do_switch ${_out}x, nothing after the gate" "$_seen"
	else
		ktap_fail "traced bL_do_switch, nothing after the gate" \
			"bL_do_switch ${_out:-0}x; traced after the gate:$_bad; seen: $_seen"
	fi
	echo nop > "$FT/current_tracer"
	: > "$FT/set_ftrace_filter"
}

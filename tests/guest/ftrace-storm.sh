#!/bin/sh
# lab-test: timeout=300
# Issue 11, defect 4: a CPU powering down leaves coherency (its cache off)
# before its power-off: PSCI CPU_OFF through mcpm_psci_cpu_power_off() and
# psci_0_2_cpu_off(), after __mcpm_cpu_down().  A function tracer running
# there writes its ring buffer with the cache off.  None of those functions
# may be traceable, and a switch storm with the function tracer on MCPM,
# PSCI and the switcher must trace the outbound CPUs' mcpm_cpu_power_down()
# and nothing after it, with a clean kernel log.  QEMU has no caches, so
# the tracer being there would not crash: the trace is the assertion.
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/ftrace.sh
ktap_plan 3
ft_storm_checks pingpong 20
ktap_done

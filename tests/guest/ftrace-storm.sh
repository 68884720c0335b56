#!/bin/sh
# lab-test: platform=virt timeout=300
# Issue 11, defect 4: a CPU powering down leaves coherency (its cache off)
# before its power-off: PSCI CPU_OFF through mcpm_psci_cpu_power_off() and
# psci_0_2_cpu_off(), after __mcpm_cpu_down().  A function tracer running
# there writes its ring buffer with the cache off.  And the outbound CPU of
# a switch runs mcpm_cpu_power_down() after its inbound resumed the same
# logical CPU in the same task, whose trace buffer and recursion state a
# tracer would then share between two CPUs.  None of those functions may
# be traceable, and a switch storm with the function tracer on MCPM, PSCI,
# the DCSCB, the CCI and the switcher must trace the outbounds up to
# bL_do_switch() and nothing after, with a clean kernel log.  QEMU models
# no caches, so a tracer in the wrong place would not crash here: the
# trace is the assertion.
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/ftrace.sh
ktap_plan 3
# A random storm, not pingpong: with the tracer on, a switch takes tens of
# milliseconds of host time under TCG, and pingpong's back-to-back
# requests kept each switcher thread (SCHED_FIFO) busy enough that the
# scheduler's RT throttling fired in one CI run (2026-12-07, virt; the
# kernel log's check fails on it).  Random's pauses (0-20 ms) leave the
# threads about a quarter of a CPU and trace more switches (1603 against
# pingpong's 1320 in a 15 s storm on virt, host time).
ft_storm_checks random 15
ktap_done

#!/bin/sh
# lab-test: platform=rtsm timeout=300
# ftrace-storm.sh on the modelled platform: dcscb.c's power-down path (its
# prepare methods, its cache disables, the CCI port, the WFI) traced by
# nobody once the inbound runs.
. /usr/share/lab/ktap.sh
. /usr/share/lab/mcpm.sh
. /usr/share/lab/switcher.sh
. /usr/share/lab/ftrace.sh
ktap_plan 3
# random, not pingpong: ftrace-storm.sh says why
ft_storm_checks random 15
ktap_done

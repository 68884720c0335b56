#!/bin/sh
# The soak's guest side: switch-storm -m chaos for MINUTES (first argument),
# with its figures.  Run by scripts/soak through guest-run.
minutes=${1:-30}
switch-storm -m chaos -d $((minutes * 60))

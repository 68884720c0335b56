# shellcheck shell=bash
# KTAP results for host suites.  Source after the suite has printed its
# "KTAP version 1" and plan lines, or before; each call prints one result:
#   pass NAME [DIAG]    ok N NAME, after "# DIAG" if given
#   fail NAME DIAG      # DIAG, then not ok N NAME; counted in $failed
#   skip NAME WHY       ok N NAME # SKIP WHY
# A suite ends with  [ "$failed" -eq 0 ]  for its exit status.
n=0
failed=0
pass() { n=$((n + 1)); [ -n "${2:-}" ] && echo "# $2"; echo "ok $n $1"; }
fail() { n=$((n + 1)); failed=$((failed + 1)); echo "# $2"; echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }

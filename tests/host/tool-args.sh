#!/usr/bin/env bash
# Bad arguments to the guest's C tools (bl-storm, bl-bench, vfpcheck,
# runas, cpu-loop, workload, spin-bench, counter-pass, timer-lat, wfe-events,
# teardown-race): each case must print an error on stderr and exit 2 at once,
# before any switch, write or exec.  The static armhf binaries run here
# under qemu-arm (qemu-user); nothing they could touch exists on the host,
# and a case that does not stop within 10 s fails.  switch-storm's
# arguments are checked in the guest (tests/guest/switch-storm-args.sh).
# Prints KTAP.
# lab-test: parallel=yes timeout=300
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/guest-tools/usr/local/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

cases=(
	"bl-storm together nan 0"
	"bl-storm random inf 0"
	"bl-storm random 10abc 0"
	"bl-storm random 10 abc"
	"bl-storm random 10 -1"
	"bl-storm random 10 0 1 2 3 4 5 6 7 8"
	"bl-storm sideways 10 0"
	"bl-bench switch abc 0"
	"bl-bench switch 0 0"
	"bl-bench switch 5 0 1 2 3 4 5 6 7 8"
	"bl-bench switch 5 x"
	"bl-bench hotplug 5 1 one"
	"bl-bench cpufreq 5 0 high 1000"
	"vfpcheck nan"
	"vfpcheck 5s"
	"vfpcheck -1"
	"runas abc 0 true"
	"runas 0 -1 true"
	"runas 1000x 1000 true"
	"cpu-loop"
	"cpu-loop abc"
	"cpu-loop 0"
	"cpu-loop 10abc"
	"cpu-loop -c x 5"
	"cpu-loop -c 5"
	"cpu-loop -q 5"
	"workload"
	"workload sideways"
	"workload -t 0 sustained"
	"workload -t 65 sustained"
	"workload -d 99999 periodic"
	"workload -g 1s bursty"
	"workload -w -5 periodic"
	"workload periodic bursty"
	"spin-bench"
	"spin-bench 2"
	"spin-bench 0 0"
	"spin-bench 2s 0"
	"spin-bench 2 0 0"
	"spin-bench 2 0x"
	"spin-bench 2 4095"
	"spin-bench -x 2 0"
	"spin-bench 2 0 1 2 3 4 5 6 7 8"
	"counter-pass"
	"counter-pass 100 0"
	"counter-pass 0 0 1"
	"counter-pass 10x 0 1"
	"counter-pass 100 0 x"
	"counter-pass -k -1 100 0 1"
	"counter-pass -k 1e3 100 0 1"
	"counter-pass -q 100 0 1"
	"counter-pass 100 0 1 2 3 4 5 6 7 8"
	"timer-lat"
	"timer-lat 100"
	"timer-lat 5 10"
	"timer-lat 100 0"
	"timer-lat 100x 10"
	"timer-lat -c x 100 10"
	"teardown-race"
	"teardown-race 2 3 10000 300"
	"teardown-race 2 2 10000 300 1000"
	"teardown-race 2 3 999 300 1000"
	"teardown-race 2 3 10000 10000 1000"
	"teardown-race 2 3 10000 300 0"
	"teardown-race 2 3 10000 300 1000x"
	"teardown-race 2 3 10000 300 1000 3"
	"teardown-race x 3 10000 300 1000"
	"wfe-events"
	"wfe-events eret"
	"wfe-events eret 0"
	"wfe-events sevl 5x"
	"wfe-events none 100001"
	"wfe-events monitor 0"
	"wfe-events monitor 1001"
	"wfe-events sideways 5"
)
echo "KTAP version 1"
echo "1..${#cases[@]}"
for c in "${cases[@]}"; do
	n=$((n + 1))
	read -r -a argv <<< "$c"
	rc=0
	timeout 10 qemu-arm "$bin/${argv[0]}" "${argv[@]:1}" > "$tmp/out" 2> "$tmp/err" || rc=$?
	if [ "$rc" -eq 2 ] && [ -s "$tmp/err" ] && grep -q "^${argv[0]}: \|^usage: " "$tmp/err" &&
		[ ! -s "$tmp/out" ]; then
		echo "# $(head -n 1 "$tmp/err")"
		echo "ok $n $c: error on stderr, exit 2"
	else
		failed=$((failed + 1))
		echo "# exit $rc$([ "$rc" -eq 124 ] && echo ' (still running after 10 s)'); stderr: $(head -c 200 "$tmp/err" | tr '\n' ' '); stdout: $(head -c 200 "$tmp/out" | tr '\n' ' ')"
		echo "not ok $n $c: error on stderr, exit 2"
	fi
done
[ "$failed" -eq 0 ]

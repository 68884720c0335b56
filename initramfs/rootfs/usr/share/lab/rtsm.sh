# shellcheck shell=sh
# The modelled platform's power hardware as the rtsm suites read it with
# busybox devmem (docs/platform.md): the DCSCB's RST_HOLD1/RST_STAT1 (the
# A7 cluster) and CCI-400 slave interface 4 (its port).
# Source after ktap.sh:  . /usr/share/lab/rtsm.sh

DCSCB=0x60000000
CCI_S4=0x2c095000

rtsm_rd() { printf '0x%x' $(($(devmem "$1" 32))); }
hold1() { rtsm_rd $((DCSCB + 0x4)); }
stat1() { rtsm_rd $((DCSCB + 0x10)); }
# snoop and DVM enables of the A7 cluster's port
snoop4() { printf '0x%x' $(($(devmem $CCI_S4 32) & 3)); }

# wait_for WHAT EXPECTED: poll the function WHAT up to 2 s until it prints
# EXPECTED (the last CPU reaches WFI shortly after its offline returns);
# prints its last value
wait_for() {
	_i=0
	while [ "$($1)" != "$2" ] && [ $_i -lt 20 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	"$1"
}

# set_cpus 0|1 CPU...: offline or online each; fails at the first refusal
set_cpus() {
	_want=$1
	shift
	for _n in "$@"; do
		echo "$_want" > /sys/devices/system/cpu/cpu"$_n"/online || return 1
	done
}

# set_cluster1 0|1: the four A7s (cpu4-7) offline or online
set_cluster1() { set_cpus "$1" 4 5 6 7; }

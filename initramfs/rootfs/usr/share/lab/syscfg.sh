# shellcheck shell=sh
# The motherboard's SYS_CFG interface (SYS_CFGDATA/CTRL/STAT at
# 0x1c0100a0/a4/a8) driven with busybox devmem, as vexpress-config drives
# it: a request to daughterboard site 1, whose configuration controller
# (QEMU's vexpress-bl-dcc on the modelled platforms) owns the clusters'
# clocks (OSC 0/1; on tc2 the SPC sets them and OSC 0-8 are the tile's
# reference clocks), supplies (VOLT 0/1), power (POWER 0/1), energy
# meters (ENERGY 0-3) and its temperature (TEMP 0).  docs/dvfs-energy.md
# has the functions.
# Source:  . /usr/share/lab/syscfg.sh

SYS_CFGDATA=0x1c0100a0
SYS_CFGCTRL=0x1c0100a4
SYS_CFGSTAT=0x1c0100a8
# shellcheck disable=SC2034 # for the scripts that source this
CFG_OSC=1 CFG_VOLT=2 CFG_AMP=3 CFG_TEMP=4 CFG_POWER=12 CFG_ENERGY=13

# syscfg_exec FUNCTION DEVICE [VALUE]: a read (prints the value) or a
# write of VALUE; returns 1 if SYS_CFGSTAT reports an error
syscfg_exec() {
	_ctrl=$(((1 << 31) | ($1 << 20) | (1 << 16) | $2))
	devmem $SYS_CFGSTAT 32 0
	if [ $# -ge 3 ]; then
		devmem $SYS_CFGDATA 32 "$3"
		_ctrl=$((_ctrl | (1 << 30)))
	fi
	devmem $SYS_CFGCTRL 32 $_ctrl
	_stat=$(($(devmem $SYS_CFGSTAT 32)))
	[ $((_stat & 2)) -eq 0 ] || return 1
	[ $# -ge 3 ] || printf '%u\n' $(($(devmem $SYS_CFGDATA 32)))
}

# energy_uj CLUSTER: the cluster's 64-bit energy meter (low word first:
# it latches the high word)
energy_uj() {
	_lo=$(syscfg_exec $CFG_ENERGY $((2 * $1))) || return 1
	_hi=$(syscfg_exec $CFG_ENERGY $((2 * $1 + 1))) || return 1
	echo $(((_hi << 32) + _lo))
}

# The same functions as Linux's drivers present them:
# hwmon_file LABEL KIND: the vexpress-hwmon input whose label is LABEL
# (KIND: energy, power, curr, temp)
hwmon_file() {
	for _l in /sys/class/hwmon/hwmon*/"$2"*_label; do
		[ "$(cat "$_l")" = "$1" ] && { echo "${_l%_label}_input"; return 0; }
	done
	return 1
}

# regulator_uv NAME: the microvolts of the regulator called NAME
# (vexpress-regulator reads the model's VOLT), "none" if there is none
regulator_uv() {
	for _r in /sys/class/regulator/regulator.*; do
		[ "$(cat "$_r/name")" = "$1" ] && { cat "$_r/microvolts"; return 0; }
	done
	echo none
}

# shellcheck shell=sh
# Kernel-log check for guest tools, with the lab's one list of rules
# (/usr/share/lab/klog-rules, also read by the host's scripts/lab/klog.py).
#
#   . /usr/share/lab/klog.sh
#   klog_mark                     # remember where the log ends now
#   ... run something ...
#   bad=$(klog_problems_since)    # the new lines that break the rules
#
# klog_problems reads "dmesg -r" lines ("<PRI>[ seconds] text") on stdin and
# prints each line that fails: a "bad" pattern at any level, or a level of
# KERN_ERR or worse that no "allow" pattern names.

KLOG_RULES=${KLOG_RULES:-/usr/share/lab/klog-rules}
klog_lines0=0

klog_problems() {
	awk -v rules="$KLOG_RULES" '
	BEGIN {
		nb = na = 0
		while ((getline l < rules) > 0) {
			if (l ~ /^bad /) bad[nb++] = substr(l, 5)
			else if (l ~ /^allow /) allow[na++] = substr(l, 7)
		}
		if (nb == 0) { print "klog: no rules in " rules > "/dev/stderr"; exit 2 }
	}
	{
		for (i = 0; i < nb; i++) if ($0 ~ bad[i]) { print; next }
		if (match($0, /<[0-9]+>\[/)) {
			lvl = substr($0, RSTART + 1, RLENGTH - 3) % 8
			if (lvl <= 3) {
				for (i = 0; i < na; i++) if ($0 ~ allow[i]) next
				print
			}
		}
	}'
}

klog_mark() {
	klog_lines0=$(dmesg -r | wc -l)
}

klog_problems_since() {
	dmesg -r | tail -n +"$((klog_lines0 + 1))" | klog_problems
}

# klog_expect_begin / klog_expect_end: mark, in the kernel log, where the
# job injects the faults whose messages its klog-expect= header declares;
# tests/run excuses those messages only between the two markers.
klog_expect_begin() {
	echo "<4>lab: klog-expect begin" > /dev/kmsg
}

klog_expect_end() {
	echo "<4>lab: klog-expect end" > /dev/kmsg
}

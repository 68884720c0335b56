// SPDX-License-Identifier: GPL-2.0
/*
 * timer-lat - how late timer wake-ups come: sleep to absolute deadlines on
 * CLOCK_MONOTONIC, one after another, and measure how long after each
 * deadline the thread runs again (the timer interrupt, the kernel's
 * wake-up and the switch to the thread), with a timer slack of 1 ns (the
 * kernel's default, 50 us, would hide the rest).  In modelled time
 * (docs/timing.md) a deadline must not wait for the end of a quantum.
 *
 * usage: timer-lat [-c CPU] PERIOD_US COUNT
 *
 * COUNT (1 to 100000) deadlines PERIOD_US (10 to 1000000) microseconds
 * apart, on CPU if given.  Prints
 *   wakeups N mean_ns M p50_ns A p99_ns B max_ns X
 * (p50 and p99: the lateness that half and 99% of the wake-ups did not
 * exceed).
 * Exits 0, 1 if the thread cannot be pinned or a sleep fails, 2 on bad
 * arguments (nothing run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "../../switcher/parse-num.h"

#define MAX_COUNT 100000
static int64_t late_ns[MAX_COUNT];

static int64_t ts_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static int cmp_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* The lateness that PCT percent of the N sorted wake-ups did not exceed */
static int64_t percentile(long n, int pct)
{
	long i = (n * pct + 99) / 100 - 1;

	return late_ns[i < 0 ? 0 : i];
}

static void usage(void)
{
	fprintf(stderr, "usage: timer-lat [-c CPU] PERIOD_US (10-1000000) COUNT (1-100000)\n");
}

int main(int argc, char **argv)
{
	long cpu = -1, period, count, i;
	struct timespec next, now;
	int64_t late, sum = 0, max = 0;
	int opt, err;

	while ((opt = getopt(argc, argv, "c:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = parse_num(optarg, CPU_SETSIZE - 1);
			if (cpu < 0) {
				fprintf(stderr, "timer-lat: bad CPU '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			usage();
			return 2;
		}
	}
	if (optind != argc - 2) {
		usage();
		return 2;
	}
	period = parse_num(argv[optind], 1000000);
	count = parse_num(argv[optind + 1], MAX_COUNT);
	if (period < 10 || count < 1) {
		usage();
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("timer-lat: sched_setaffinity");
			return 1;
		}
	}
	/* The default 50 us of timer slack would be most of what is measured */
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL)) {
		perror("timer-lat: PR_SET_TIMERSLACK");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 0; i < count; i++) {
		int64_t t = ts_ns(&next) + period * 1000;

		next.tv_sec = t / 1000000000;
		next.tv_nsec = t % 1000000000;
		err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (err) {
			fprintf(stderr, "timer-lat: clock_nanosleep: %s\n", strerror(err));
			return 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = ts_ns(&now) - t;
		late_ns[i] = late;
		sum += late;
		if (late > max)
			max = late;
	}
	qsort(late_ns, count, sizeof(late_ns[0]), cmp_ns);
	printf("wakeups %ld mean_ns %lld p50_ns %lld p99_ns %lld max_ns %lld\n", count,
	       (long long)(sum / count), (long long)percentile(count, 50),
	       (long long)percentile(count, 99), (long long)max);
	return 0;
}

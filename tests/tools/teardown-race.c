// SPDX-License-Identifier: GPL-2.0
/*
 * teardown-race - wake one CPU of a cluster while another is taking the
 * cluster down: the race MCPM's inbound/outbound state machine exists
 * for (an inbound CPU coming up while the last man tears its cluster
 * down: "teardown_abort" in MCPM's debugfs stats).
 *
 * usage: teardown-race LAST_CPU WAKE_CPU PERIOD_US MAX_OFFSET_US STEP_NS [WITH_CPU]
 *
 * Two threads, pinned to LAST_CPU and WAKE_CPU (two CPUs of one cluster
 * whose other CPUs are idle), sleep to absolute deadlines on
 * CLOCK_MONOTONIC, PERIOD_US (1000 to 1000000) microseconds apart: the
 * last man's thread to each deadline D, so that its CPU goes idle again
 * just after D, and as the cluster's last CPU takes it down; the other
 * thread to D + offset, the offset sweeping from 0 to MAX_OFFSET_US
 * (1 to 100000) in steps of STEP_NS (1 to 1000000) nanoseconds, so that
 * one of the wake-ups lands in the teardown, wherever it falls after D.
 * With cluster idle the CPUs sleep in between.  WITH_CPU, a third CPU of
 * the cluster, keeps the last man's deadlines: the two go idle together,
 * and whichever is the last man waits in its teardown for the other to
 * be down, which widens the window.  The threads use a timer slack of
 * 1 ns.  Prints
 *   rounds N period_us P max_offset_us M step_ns S
 * and exits 0; 1 if a thread cannot be pinned or a sleep fails, 2 on
 * bad arguments (nothing run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>
#include "../../switcher/parse-num.h"

struct racer {
	long cpu;
	int64_t start_ns;	/* the first deadline, D0 */
	int64_t period_ns;
	int64_t step_ns;	/* the offset grows by this each round; 0: none */
	long rounds;
	int err;
};

static void to_ts(int64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

static void *racer(void *arg)
{
	struct racer *r = arg;
	struct timespec ts;
	cpu_set_t set;
	long i;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		r->err = errno;
		return NULL;
	}
	if (prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL)) {
		r->err = errno;
		return NULL;
	}
	for (i = 0; i < r->rounds; i++) {
		to_ts(r->start_ns + i * (r->period_ns + r->step_ns), &ts);
		r->err = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r->err)
			return NULL;
	}
	return NULL;
}

static void usage(void)
{
	fprintf(stderr, "usage: teardown-race LAST_CPU WAKE_CPU PERIOD_US (1000-1000000) "
		"MAX_OFFSET_US (1-100000) STEP_NS (1-1000000)\n");
}

int main(int argc, char **argv)
{
	long last, wake, period_us, max_us, step_ns;
	struct racer r[3];
	pthread_t t[3];
	struct timespec now;
	long with = -1;
	int i, n = 2;

	if (argc != 6 && argc != 7) {
		usage();
		return 2;
	}
	last = parse_num(argv[1], CPU_SETSIZE - 1);
	wake = parse_num(argv[2], CPU_SETSIZE - 1);
	period_us = parse_num(argv[3], 1000000);
	max_us = parse_num(argv[4], 100000);
	step_ns = parse_num(argv[5], 1000000);
	if (argc == 7) {
		with = parse_num(argv[6], CPU_SETSIZE - 1);
		n = 3;
		if (with < 0 || with == last || with == wake) {
			usage();
			fprintf(stderr, "teardown-race: WITH_CPU must be a third CPU\n");
			return 2;
		}
	}
	if (last < 0 || wake < 0 || last == wake || period_us < 1000 || max_us < 1 ||
	    step_ns < 1 || max_us * 1000 >= period_us * 1000 - step_ns) {
		usage();
		fprintf(stderr, "teardown-race: two different CPUs, and an offset range "
			"shorter than the period\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	for (i = 0; i < n; i++) {
		r[i].cpu = i == 2 ? with : i ? wake : last;
		/* a period to settle after the threads start */
		r[i].start_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec +
				2 * period_us * 1000;
		r[i].period_ns = period_us * 1000;
		r[i].rounds = max_us * 1000 / step_ns + 1;
		r[i].err = 0;
	}
	/*
	 * The last man's deadlines are D0 + k * (period + step), the other's
	 * D0 + k * (period + step) + k * step: its offset grows by a step a
	 * round.  Write both as start + k * (period + step) with the other
	 * thread's period one step longer.
	 */
	r[0].step_ns = step_ns;
	r[1].step_ns = 2 * step_ns;
	r[2].step_ns = step_ns;
	for (i = 0; i < n; i++) {
		if (pthread_create(&t[i], NULL, racer, &r[i])) {
			fprintf(stderr, "teardown-race: cannot start a thread\n");
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < n; i++) {
		if (r[i].err) {
			fprintf(stderr, "teardown-race: CPU %ld: %s\n", r[i].cpu, strerror(r[i].err));
			return 1;
		}
	}
	printf("rounds %ld period_us %ld max_offset_us %ld step_ns %ld\n", r[0].rounds,
	       period_us, max_us, step_ns);
	return 0;
}

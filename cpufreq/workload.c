// SPDX-License-Identifier: GPL-2.0
/*
 * workload - the fixed workloads of the governor study (make governors,
 * docs/governors.md): what a cpufreq governor's choices cost in time,
 * missed deadlines and energy.
 *
 *   workload [-w UNITS] [-p MS] [-d SECONDS] [-n LOADS] [-g MS] [-t THREADS] KIND
 *
 * One unit of work is 1000 rounds of a dependent integer loop (no memory
 * traffic), 3-4 us on an A15 at 1.2 GHz of the modelled platform on
 * the lab's 2-core build machine.  KIND is one of:
 *
 *   periodic   every -p MS (default 20) one burst of -w UNITS (default
 *              600) with its deadline at the end of the period, for -d
 *              SECONDS (default 5); one thread, like audio decoding.
 *   bursty     -n LOADS (default 8) bursts of -w UNITS (default 40000)
 *              each, -g MS (default 400) of idle "think time" after each,
 *              one thread, like page loads.
 *   sustained  -w UNITS (default 600000) in all, split over -t THREADS
 *              (default: the CPUs online).
 *
 * Prints one line:
 *
 *   workload KIND time_ms T wall_ms W misses M worst_ms X a15_mj E a7_mj E
 *
 * time_ms is the completion time: the sum of the bursts' times from their
 * start to their end (periodic, bursty) or the time to finish (sustained);
 * wall_ms the whole window, idle time included; misses the periodic
 * bursts that ended after their deadline (0 otherwise); worst_ms the
 * slowest burst, for periodic from its release (the start of its period,
 * so a burst that starts late counts its wait); the energy figures
 * are what each cluster's hwmon meter ("A15 Jcore", "A7 Jcore") counted
 * over the window, "-" where the platform has none.  Bad arguments are
 * refused before anything runs (exit 2).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../switcher/parse-num.h"

#define ROUNDS_PER_UNIT 1000

static void usage(void)
{
	fprintf(stderr,
		"usage: workload [-w UNITS] [-p MS] [-d SECONDS] [-n LOADS] [-g MS] [-t THREADS]\n"
		"                periodic|bursty|sustained\n");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_until(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static volatile unsigned int sink;

static void work(long units)
{
	unsigned long long i, n = (unsigned long long)units * ROUNDS_PER_UNIT;
	unsigned int x = 1;

	for (i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	sink = x;
}

/* The hwmon energy meter labelled LABEL in uJ, or -1 if there is none. */
static long long meter(const char *label)
{
	char path[64], buf[64];
	long long v = -1;
	FILE *f;
	int i;

	for (i = 0; i < 32; i++) {
		snprintf(path, sizeof(path), "/sys/class/hwmon/hwmon%d/energy1_label", i);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		buf[strcspn(buf, "\n")] = 0;
		if (strcmp(buf, label))
			continue;
		snprintf(path, sizeof(path), "/sys/class/hwmon/hwmon%d/energy1_input", i);
		f = fopen(path, "r");
		if (!f)
			return -1;
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
		break;
	}
	return v;
}

static void print_mj(const char *name, long long e0, long long e1)
{
	if (e0 < 0 || e1 < 0)
		printf(" %s -", name);
	else
		printf(" %s %lld", name, (e1 - e0) / 1000);
}

static void *sustained_thread(void *arg)
{
	work(*(long *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	long units = -1, period_ms = 20, seconds = 5, loads = 8, gap_ms = 400, threads = 0;
	long long t0, t1, busy = 0, worst = 0, e15, e7;
	long misses = 0, i;
	const char *kind;
	int opt;

	while ((opt = getopt(argc, argv, "w:p:d:n:g:t:")) != -1) {
		long *dst, max;

		switch (opt) {
		case 'w': dst = &units; max = 10000000; break;
		case 'p': dst = &period_ms; max = 10000; break;
		case 'd': dst = &seconds; max = 3600; break;
		case 'n': dst = &loads; max = 10000; break;
		case 'g': dst = &gap_ms; max = 60000; break;
		case 't': dst = &threads; max = 64; break;
		default:
			usage();
			return 2;
		}
		*dst = parse_num(optarg, max);
		if (*dst < 1) {
			fprintf(stderr, "workload: bad -%c '%s' (a whole number from 1 to %ld)\n",
				opt, optarg, max);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage();
		return 2;
	}
	kind = argv[optind];
	if (!strcmp(kind, "periodic")) {
		if (units < 0)
			units = 600;
	} else if (!strcmp(kind, "bursty")) {
		if (units < 0)
			units = 40000;
	} else if (!strcmp(kind, "sustained")) {
		if (units < 0)
			units = 600000;
		if (!threads)
			threads = sysconf(_SC_NPROCESSORS_ONLN);
		if (threads < 1 || threads > 64) {
			fprintf(stderr, "workload: cannot tell how many CPUs are online\n");
			return 1;
		}
	} else {
		fprintf(stderr, "workload: unknown workload '%s'\n", kind);
		usage();
		return 2;
	}

	e15 = meter("A15 Jcore");
	e7 = meter("A7 Jcore");
	t0 = now_ns();
	if (kind[0] == 'p') {
		long long period = period_ms * 1000000LL, release, start, end;
		long n = seconds * 1000 / period_ms;

		for (i = 0; i < n; i++) {
			release = t0 + i * period;
			sleep_until(release);
			start = now_ns();
			work(units);
			end = now_ns();
			busy += end - start;
			if (end - release > worst)
				worst = end - release;
			if (end > release + period)
				misses++;
		}
		sleep_until(t0 + n * period);
	} else if (kind[0] == 'b') {
		long long start, end;

		for (i = 0; i < loads; i++) {
			start = now_ns();
			work(units);
			end = now_ns();
			busy += end - start;
			if (end - start > worst)
				worst = end - start;
			sleep_until(end + gap_ms * 1000000LL);
		}
	} else {
		pthread_t tid[64];
		long share[64];

		for (i = 0; i < threads; i++) {
			share[i] = units / threads + (i < units % threads);
			if (pthread_create(&tid[i], NULL, sustained_thread, &share[i])) {
				fprintf(stderr, "workload: cannot start thread %ld\n", i);
				return 1;
			}
		}
		for (i = 0; i < threads; i++)
			pthread_join(tid[i], NULL);
		busy = now_ns() - t0;
		worst = busy;
	}
	t1 = now_ns();

	printf("workload %s time_ms %lld wall_ms %lld misses %ld worst_ms %lld.%lld",
	       kind, busy / 1000000, (t1 - t0) / 1000000, misses,
	       worst / 1000000, worst / 100000 % 10);
	print_mj("a15_mj", e15, meter("A15 Jcore"));
	print_mj("a7_mj", e7, meter("A7 Jcore"));
	printf("\n");
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-loop - a fixed CPU-bound loop, timed: what a cluster's clock does to
 * the speed of a vCPU on the modelled platform (docs/dvfs-energy.md).
 *
 *   cpu-loop [-c CPU] MEGA-ITERATIONS
 *
 * Runs MEGA-ITERATIONS million rounds of a dependent integer loop (no
 * memory traffic) on CPU (default: where it is started) and prints
 * "loop ITERATIONS ns NANOSECONDS cpu N": N is the CPU it ended on.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "../switcher/parse-num.h"

static void usage(void)
{
	fprintf(stderr, "usage: cpu-loop [-c CPU] MEGA-ITERATIONS (1-100000)\n");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long cpu = -1, mega;
	unsigned long long i, n;
	volatile unsigned int sink;
	unsigned int x = 1;
	long long t0, t1;
	int opt;

	while ((opt = getopt(argc, argv, "c:")) != -1) {
		switch (opt) {
		case 'c':
			cpu = parse_num(optarg, CPU_SETSIZE - 1);
			if (cpu < 0) {
				fprintf(stderr, "cpu-loop: bad CPU '%s'\n", optarg);
				return 2;
			}
			break;
		default:
			usage();
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage();
		return 2;
	}
	mega = parse_num(argv[optind], 100000);
	if (mega < 1) {
		fprintf(stderr, "cpu-loop: bad MEGA-ITERATIONS '%s'\n", argv[optind]);
		usage();
		return 2;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("cpu-loop: sched_setaffinity");
			return 1;
		}
	}
	n = (unsigned long long)mega * 1000000;
	t0 = now_ns();
	for (i = 0; i < n; i++)
		x = x * 1103515245u + 12345u;
	t1 = now_ns();
	sink = x;
	(void)sink;
	printf("loop %llu ns %lld cpu %d\n", n, t1 - t0, sched_getcpu());
	return 0;
}

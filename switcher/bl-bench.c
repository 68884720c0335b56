// SPDX-License-Identifier: GPL-2.0
/*
 * bl-bench - time big.LITTLE migrations in the lab guest, for make bench.
 *
 * usage: bl-bench switch N CPU...   N round trips of each CPU through
 *                                   /sys/kernel/bL_switcher/cpuN/cluster,
 *                                   one thread per CPU, all concurrently
 *        bl-bench hotplug N BIG LITTLE
 *                                   N round trips by CPU hotplug (switcher
 *                                   off): offline BIG + online LITTLE,
 *                                   then offline LITTLE + online BIG
 *        bl-bench cpufreq N POLICY HIGH LOW
 *                                   N round trips of cpufreq policy POLICY
 *                                   (userspace governor) between HIGH and
 *                                   LOW kHz, through scaling_setspeed
 *
 * Prints one line per migration: "sample KIND DIRECTION NANOSECONDS",
 * DIRECTION being big_to_little or little_to_big.  Each sample is the
 * wall time of the write(s) that did the migration; the switcher's own
 * in-kernel timing is in /sys/kernel/debug/bL_switcher/stats.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"

#define MAX_CPUS 8

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

struct job {
	pthread_t thread;
	int cpu, n;
	long long *ns;	/* 2n samples: even = to cluster 1, odd = back */
	int err;
};

static void *switch_job(void *arg)
{
	struct job *j = arg;
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/sys/kernel/bL_switcher/cpu%d/cluster", j->cpu);
	for (i = 0; i < 2 * j->n; i++) {
		long long t0 = now_ns();
		int err = write_file(path, i % 2 ? "0" : "1");

		if (err) {
			j->err = err;
			return NULL;
		}
		j->ns[i] = now_ns() - t0;
	}
	return NULL;
}

static int bench_switch(int n, int ncpus, char **cpus)
{
	struct job jobs[MAX_CPUS];
	int c, i, ret = 0;

	for (c = 0; c < ncpus; c++) {
		char path[64];

		jobs[c].cpu = parse_num(cpus[c], 4095);
		snprintf(path, sizeof(path), "/sys/kernel/bL_switcher/cpu%d", jobs[c].cpu);
		if (jobs[c].cpu < 0 || access(path, F_OK)) {
			fprintf(stderr, "bl-bench: '%s' is not a logical CPU of the switcher\n",
				cpus[c]);
			return 2;
		}
		jobs[c].n = n;
		jobs[c].err = 0;
		jobs[c].ns = calloc(2 * n, sizeof(long long));
		if (!jobs[c].ns) {
			perror("bl-bench: calloc");
			return 1;
		}
	}
	for (c = 0; c < ncpus; c++) {
		int err = pthread_create(&jobs[c].thread, NULL, switch_job, &jobs[c]);

		if (err) {
			fprintf(stderr, "bl-bench: pthread_create: %s\n", strerror(err));
			ret = 1;
			ncpus = c;	/* join the ones started */
			break;
		}
	}
	for (c = 0; c < ncpus; c++)
		pthread_join(jobs[c].thread, NULL);
	if (ret)
		return ret;
	for (c = 0; c < ncpus; c++) {
		if (jobs[c].err) {
			fprintf(stderr, "bl-bench: cpu%d: %s\n", jobs[c].cpu, strerror(-jobs[c].err));
			ret = 1;
			continue;
		}
		for (i = 0; i < 2 * n; i++)
			printf("sample %s %s %lld\n", ncpus > 1 ? "iks_concurrent" : "iks_isolated",
			       i % 2 ? "little_to_big" : "big_to_little", jobs[c].ns[i]);
	}
	return ret;
}

static int set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

static int bench_hotplug(int n, int big, int little)
{
	int i, err;

	/* start with BIG online and LITTLE offline */
	(void)set_online(little, 0);
	for (i = 0; i < 2 * n; i++) {
		int from = i % 2 ? little : big, to = i % 2 ? big : little;
		long long t0 = now_ns();

		err = set_online(from, 0);
		if (!err)
			err = set_online(to, 1);
		if (err) {
			fprintf(stderr, "bl-bench: hotplug cpu%d -> cpu%d: %s\n", from, to,
				strerror(-err));
			return 1;
		}
		printf("sample hotplug %s %lld\n", i % 2 ? "little_to_big" : "big_to_little",
		       now_ns() - t0);
	}
	return set_online(little, 1) ? 1 : 0;
}

static int bench_cpufreq(int n, int policy, const char *high, const char *low)
{
	char path[80];
	int i, err;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpufreq/policy%d/scaling_setspeed", policy);
	for (i = 0; i < 2 * n; i++) {
		long long t0 = now_ns();

		err = write_file(path, i % 2 ? high : low);
		if (err) {
			fprintf(stderr, "bl-bench: %s: %s\n", path, strerror(-err));
			return 1;
		}
		printf("sample cpufreq %s %lld\n", i % 2 ? "little_to_big" : "big_to_little",
		       now_ns() - t0);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bl-bench switch N CPU... | hotplug N BIG LITTLE | cpufreq N POLICY HIGH LOW\n");
	return 2;
}

/* Every argument is checked before anything is written. */
int main(int argc, char **argv)
{
	int n = argc > 2 ? parse_num(argv[2], 1000000) : -1;

	if (argc < 3 || n < 1) {
		if (argc >= 3)
			fprintf(stderr, "bl-bench: N must be a whole number in [1, 1000000], not '%s'\n",
				argv[2]);
		return usage();
	}
	if (argc >= 4 && !strcmp(argv[1], "switch")) {
		if (argc - 3 > MAX_CPUS) {
			fprintf(stderr, "bl-bench: %d CPUs given, at most %d\n", argc - 3, MAX_CPUS);
			return 2;
		}
		return bench_switch(n, argc - 3, argv + 3);
	}
	if (argc == 5 && !strcmp(argv[1], "hotplug")) {
		int big = parse_num(argv[3], 4095), little = parse_num(argv[4], 4095);

		if (big < 0 || little < 0 || big == little) {
			fprintf(stderr, "bl-bench: BIG and LITTLE must be two CPU numbers\n");
			return 2;
		}
		return bench_hotplug(n, big, little);
	}
	if (argc == 6 && !strcmp(argv[1], "cpufreq")) {
		int policy = parse_num(argv[3], 4095);

		if (policy < 0 || parse_num(argv[4], 100000000) < 0 ||
		    parse_num(argv[5], 100000000) < 0) {
			fprintf(stderr, "bl-bench: POLICY, HIGH and LOW must be whole numbers\n");
			return 2;
		}
		return bench_cpufreq(n, policy, argv[4], argv[5]);
	}
	return usage();
}

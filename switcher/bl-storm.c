// SPDX-License-Identifier: GPL-2.0
/*
 * bl-storm - drive concurrent big.LITTLE switches through
 * /sys/kernel/bL_switcher/cpuN/cluster, one thread per logical CPU.
 *
 * usage: bl-storm [-e] MODE SECONDS CPU...
 *
 * MODE is
 *   random    each CPU to a random cluster after a random pause (0-20 ms)
 *   pingpong  each CPU to the other cluster and straight back, no pause:
 *             the next power_up of a pair's CPU arrives while its power
 *             down from the previous switch is still in flight
 *   together  all CPUs released by a barrier at the same instant, all to
 *             the same cluster, then all back: one cluster's last man
 *             tears down while the other's first man is elected among
 *             inbound CPUs arriving together
 *
 * Each write returns when its switch is done.  Prints one "key value"
 * line per figure: writes, ok, errors by errno, rate, and the latency of
 * the writes as seen here (min, median, p99, max, in microseconds).
 * SECONDS is a positive number up to a day; each CPU a logical CPU the
 * switcher has (/sys/kernel/bL_switcher/cpuN), at most 8.  Bad arguments
 * are reported on stderr with exit status 2 before any switch is made.
 * Exits 0 only if every write succeeded; 1 if any failed.  With -e,
 * ENOENT, ENODEV and ESRCH (the switcher disabled under the storm, on
 * purpose: the cpuN directory is gone, or was removed between the open
 * and the write, which kernfs answers with ENODEV, or the request was
 * queued as it stopped) are not failures.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "parse-num.h"

#define MAX_CPUS	8
#define MAX_SAMPLES	200000

enum mode { RANDOM, PINGPONG, TOGETHER };

struct worker {
	pthread_t thread;
	int cpu;
	unsigned int seed;
	unsigned long writes, ok;
	unsigned long err_enoent, err_enodev, err_esrch, err_etimedout, err_other;
	uint32_t *lat_us;
	unsigned long nlat;
};

static enum mode mode;
static double deadline;
static int nworkers;
static struct worker workers[MAX_CPUS];
static pthread_barrier_t barrier;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_cluster(int cpu)
{
	char path[64], c = '?';
	int fd;

	snprintf(path, sizeof(path), "/sys/kernel/bL_switcher/cpu%d/cluster", cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = '?';
	close(fd);
	return c == '0' ? 0 : c == '1' ? 1 : -1;
}

/* one synchronous switch request; returns 0 or an errno */
static int do_switch(struct worker *w, int cluster)
{
	char path[64];
	const char *val = cluster ? "1\n" : "0\n";
	double t0;
	int fd, err = 0;

	snprintf(path, sizeof(path), "/sys/kernel/bL_switcher/cpu%d/cluster", w->cpu);
	t0 = now();
	fd = open(path, O_WRONLY);
	if (fd < 0)
		err = errno;
	else if (write(fd, val, 2) != 2)
		err = errno;
	if (fd >= 0)
		close(fd);
	w->writes++;
	if (!err) {
		w->ok++;
		if (w->nlat < MAX_SAMPLES)
			w->lat_us[w->nlat++] = (uint32_t)((now() - t0) * 1e6);
	} else if (err == ENOENT) {
		w->err_enoent++;
		usleep(10000);	/* the switcher is being disabled */
	} else if (err == ENODEV) {
		w->err_enodev++;	/* cpuN removed after our open() */
		usleep(10000);
	} else if (err == ESRCH) {
		w->err_esrch++;	/* queued while the switcher was being disabled */
	} else if (err == ETIMEDOUT) {
		w->err_etimedout++;
	} else {
		if (!w->err_other)
			fprintf(stderr, "bl-storm: cpu%d: %s\n", w->cpu, strerror(err));
		w->err_other++;
	}
	return err;
}

static volatile int stop_together;

/* together: one round per barrier pair; one thread decides when to stop */
static void run_together(struct worker *w)
{
	int target = 1;

	for (;;) {
		if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			stop_together = now() >= deadline;
		pthread_barrier_wait(&barrier);
		if (stop_together)
			return;
		do_switch(w, target);
		target = !target;
	}
}

static void *run(void *arg)
{
	struct worker *w = arg;

	if (mode == TOGETHER) {
		run_together(w);
		return NULL;
	}
	while (now() < deadline) {
		int cur;

		if (mode == RANDOM) {
			usleep(rand_r(&w->seed) % 20000);
			do_switch(w, rand_r(&w->seed) % 2);
			continue;
		}
		cur = read_cluster(w->cpu);
		if (cur < 0) {
			usleep(10000);
			continue;
		}
		do_switch(w, !cur);
		do_switch(w, cur);
	}
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int usage(void)
{
	fprintf(stderr, "usage: bl-storm [-e] random|pingpong|together SECONDS CPU...\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long writes = 0, ok = 0, n = 0, i;
	unsigned long enoent = 0, enodev = 0, esrch = 0, etimedout = 0, other = 0;
	uint32_t *all;
	double secs, t0, elapsed;
	char *end, path[64];
	int w, a = 1, allow_enoent = 0, err;

	if (argc > 1 && !strcmp(argv[1], "-e")) {
		allow_enoent = 1;
		a++;
	}
	if (argc - a < 3)
		return usage();
	if (!strcmp(argv[a], "random"))
		mode = RANDOM;
	else if (!strcmp(argv[a], "pingpong"))
		mode = PINGPONG;
	else if (!strcmp(argv[a], "together"))
		mode = TOGETHER;
	else {
		fprintf(stderr, "bl-storm: unknown mode '%s' (random, pingpong, together)\n", argv[a]);
		return 2;
	}
	errno = 0;
	secs = strtod(argv[a + 1], &end);
	if (errno || end == argv[a + 1] || *end || !(secs > 0 && secs <= 86400)) {
		fprintf(stderr, "bl-storm: SECONDS must be a number in (0, 86400], not '%s'\n",
			argv[a + 1]);
		return 2;
	}
	nworkers = argc - a - 2;
	if (nworkers > MAX_CPUS) {
		fprintf(stderr, "bl-storm: %d CPUs given, at most %d\n", nworkers, MAX_CPUS);
		return 2;
	}
	for (w = 0; w < nworkers; w++) {
		long cpu = parse_num(argv[a + 2 + w], 4095);

		snprintf(path, sizeof(path), "/sys/kernel/bL_switcher/cpu%ld", cpu);
		if (cpu < 0 || access(path, F_OK)) {
			fprintf(stderr, "bl-storm: '%s' is not a logical CPU of the switcher (%s)\n",
				argv[a + 2 + w], cpu < 0 ? "not a CPU number" : "no such directory");
			return 2;
		}
		workers[w].cpu = (int)cpu;
		workers[w].lat_us = calloc(MAX_SAMPLES, sizeof(uint32_t));
		if (!workers[w].lat_us) {
			perror("bl-storm: calloc");
			return 1;
		}
	}
	pthread_barrier_init(&barrier, NULL, nworkers);
	t0 = now();
	deadline = t0 + secs;
	for (w = 0; w < nworkers; w++) {
		workers[w].seed = (unsigned int)(t0 * 1e6) + w * 7919;
		err = pthread_create(&workers[w].thread, NULL, run, &workers[w]);
		if (err) {
			/* the barrier would never open: nothing else to do */
			fprintf(stderr, "bl-storm: pthread_create: %s\n", strerror(err));
			_exit(1);
		}
	}
	for (w = 0; w < nworkers; w++)
		pthread_join(workers[w].thread, NULL);
	elapsed = now() - t0;

	for (w = 0; w < nworkers; w++)
		n += workers[w].nlat;
	all = calloc(n ? n : 1, sizeof(uint32_t));
	if (!all) {
		perror("bl-storm: calloc");
		return 1;
	}
	for (n = 0, w = 0; w < nworkers; w++) {
		struct worker *x = &workers[w];

		writes += x->writes;
		ok += x->ok;
		enoent += x->err_enoent;
		enodev += x->err_enodev;
		esrch += x->err_esrch;
		etimedout += x->err_etimedout;
		other += x->err_other;
		for (i = 0; i < x->nlat; i++)
			all[n++] = x->lat_us[i];
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	printf("mode %s\nseconds %.1f\nwrites %lu\nok %lu\n", argv[a], elapsed, writes, ok);
	printf("err_enoent %lu\nerr_enodev %lu\nerr_esrch %lu\nerr_etimedout %lu\nerr_other %lu\n",
	       enoent, enodev, esrch, etimedout, other);
	printf("ok_per_second %.1f\n", ok / elapsed);
	if (n) {
		printf("write_us_min %u\nwrite_us_median %u\nwrite_us_p99 %u\nwrite_us_max %u\n",
		       all[0], all[n / 2], all[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1],
		       all[n - 1]);
	}
	return etimedout || other || ((enoent || enodev || esrch) && !allow_enoent);
}

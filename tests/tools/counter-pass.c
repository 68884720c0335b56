// SPDX-License-Identifier: GPL-2.0
/*
 * counter-pass - pass generic timer counter readings from CPU to CPU and
 * check that time never goes backwards on the way (modelled time,
 * docs/timing.md: each CPU has its own clock, up to a quantum ahead of
 * another's).
 *
 * usage: counter-pass [-k SKEW] HANDOFFS CPU...
 *
 * One thread per CPU given (2 to 8 of them), in a ring.  The thread that
 * holds the token reads its CPU's virtual counter (CNTVCT, with MRRC: the
 * kernel lets PL0 read it), checks that the reading is not below the one
 * it was handed, stores its own and hands the token to the next thread
 * with a plain store; the next one polls for it (no WFE, no system call:
 * the hand-off is memory only).  HANDOFFS (1 to 10000000) hand-offs in
 * all.  Prints
 *   handoffs N backwards B worst_ticks W span_ticks S
 * where B counts readings below the value handed over, W is the largest
 * such shortfall (0 if none) and S the ticks from the first reading to
 * the last.  Exits 0 if B is 0, 1 if not (or a thread cannot be pinned),
 * 2 on bad arguments (nothing run).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "../../switcher/parse-num.h"

#define MAX_THREADS 8

static volatile uint64_t passed;	/* the last reading handed over */
static volatile unsigned long turn;	/* hand-off number; whose turn */
static unsigned long handoffs;
static unsigned int nthreads;
static unsigned long backwards;
static uint64_t worst, first, last;
static int cpus[MAX_THREADS];
static int failed_pin;
static uint64_t skew;

static inline uint64_t cntvct(void)
{
	uint32_t lo, hi;

	__asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void *ring(void *arg)
{
	unsigned int me = (unsigned int)(uintptr_t)arg;
	cpu_set_t set;
	unsigned long t;

	CPU_ZERO(&set);
	CPU_SET(cpus[me], &set);
	if (pthread_setaffinity_np(pthread_self(), sizeof(set), &set)) {
		failed_pin = 1;
		return NULL;
	}
	for (t = me; t < handoffs; t += nthreads) {
		uint64_t got, now;

		while (turn != t && !failed_pin)
			;
		if (failed_pin)
			return NULL;
		__sync_synchronize();	/* the reading is read after the token */
		got = passed;
		now = cntvct();
		if (t == 0)
			first = now;
		else if (now < got) {
			backwards++;
			if (got - now > worst)
				worst = got - now;
		}
		last = now;
		passed = now + skew;
		__sync_synchronize();	/* the reading is seen before the token */
		turn = t + 1;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	unsigned int i;
	char *end;
	long v;
	int opt;

	while ((opt = getopt(argc, argv, "k:")) != -1) {
		switch (opt) {
		case 'k':
			if (*optarg < '0' || *optarg > '9')
				goto bad_skew;
			skew = strtoull(optarg, &end, 10);
			if (*end || skew > 1000000000000ULL) {
bad_skew:
				fprintf(stderr, "counter-pass: bad SKEW '%s' (0-10^12)\n", optarg);
				return 2;
			}
			break;
		default:
			goto usage;
		}
	}
	if (argc - optind < 3 || argc - optind > MAX_THREADS + 1) {
usage:
		fprintf(stderr, "usage: counter-pass [-k SKEW] HANDOFFS CPU... (2 to %d CPUs)\n",
			MAX_THREADS);
		return 2;
	}
	v = parse_num(argv[optind], 10000000);
	if (v < 1) {
		fprintf(stderr, "counter-pass: bad HANDOFFS '%s' (1-10000000)\n", argv[optind]);
		return 2;
	}
	handoffs = v;
	nthreads = argc - optind - 1;
	for (i = 0; i < nthreads; i++) {
		v = parse_num(argv[optind + 1 + i], CPU_SETSIZE - 1);
		if (v < 0) {
			fprintf(stderr, "counter-pass: bad CPU '%s'\n", argv[optind + 1 + i]);
			return 2;
		}
		cpus[i] = v;
	}
	for (i = 0; i < nthreads; i++) {
		if (pthread_create(&th[i], NULL, ring, (void *)(uintptr_t)i)) {
			perror("counter-pass: pthread_create");
			failed_pin = 1;
			nthreads = i;
			break;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	if (failed_pin) {
		fprintf(stderr, "counter-pass: could not run a thread on each CPU\n");
		return 1;
	}
	printf("handoffs %lu backwards %lu worst_ticks %llu span_ticks %llu\n",
	       handoffs, backwards, (unsigned long long)worst,
	       (unsigned long long)(last - first));
	return backwards ? 1 : 0;
}

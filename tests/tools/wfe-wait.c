// SPDX-License-Identifier: GPL-2.0
/*
 * wfe-wait - seven threads on CPUs 1-7 wait for a flag in a user-mode WFE
 * loop (WFE is allowed at PL0); a thread on CPU 0 sets the flag and, in
 * mode "sev", executes SEV.  For the tests of QEMU's WFE (tests/host/wfe.sh,
 * tests/host/wfe-migrate.sh) and make bench's TLB figure (flush, below).
 *
 * usage: wfe-wait sev|nosev SECONDS ROUNDS [flush]
 *
 * Round 1 keeps the seven waiting for SECONDS (0.1 to 60), between the
 * lines "wfe-wait: wait-begin" and "wfe-wait: wait-end", for the host to
 * measure what the wait costs QEMU.  ROUNDS - 1 (0 to 1000) short rounds
 * follow, each with a 20 ms wait.  In each round, once the seven are
 * waiting (they have announced it and 20 ms have passed, or SECONDS in
 * round 1), CPU 0 notes CLOCK_MONOTONIC, sets the flag, and in mode
 * "sev" executes DSB and SEV; each waiter notes the time it saw the flag.
 * Prints one "key value" line per figure, latencies in microseconds:
 *   evtstrm        1 if the kernel enabled the timer event stream (HWCAP)
 *   wake_max_us    the latest of the seven wake-ups, per round (one line
 *                  "wake_max_us ROUND US" each)
 *   wake_max_median_us, wake_max_max_us  over the rounds
 *   loops_first_round  WFE loop iterations of the seven in round 1
 * With "flush", CPU 0 spends round 1's wait changing a page's protection
 * back and forth instead of sleeping: each change flushes the page from
 * every CPU's TLB (a broadcast TLB maintenance operation, which QEMU runs
 * with every vCPU out of its execution loop), and so does one second of
 * the same before the waiters start, with the other CPUs idle:
 *   flush_idle_per_s, flush_wait_per_s  protection changes a second
 * Bad arguments: message on stderr, exit status 2, nothing run.  Exits 1
 * if the machine has fewer than 8 CPUs or a thread cannot be pinned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../../switcher/parse-num.h"
#include "wfe-util.h"

#define WAITERS		7
#define MAX_ROUNDS	1000
#define SHORT_WAIT_NS	20000000L
#define HWCAP_EVTSTRM_BIT	(1UL << 21)	/* arm32 HWCAP_EVTSTRM */

static volatile unsigned int go;	/* the round the waiters may leave */
static volatile unsigned int ready;	/* waiters waiting in this round */
static volatile unsigned int done;	/* waiters that saw the flag */
static int64_t t_set[MAX_ROUNDS + 1];
static int64_t t_wake[MAX_ROUNDS + 1][WAITERS];
static unsigned long loops_first[WAITERS];
static unsigned int rounds;

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { ns / 1000000000, ns % 1000000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Change the protection of PAGE back and forth for SECS seconds: the
 * changes a second, or -1 if mprotect() fails.
 */
static long flush_rate(volatile char *page, double secs)
{
	int64_t start = now_ns(), end = start + (int64_t)(secs * 1e9), t;
	long n = 0;

	do {
		if (mprotect((void *)page, 4096, PROT_READ) ||
		    mprotect((void *)page, 4096, PROT_READ | PROT_WRITE))
			return -1;
		page[0]++;	/* keep it mapped, so each change flushes it */
		n += 2;
		t = now_ns();
	} while (t < end);
	return (long)(n * 1e9 / (t - start));
}

static void sev(void)
{
	__asm__ volatile("dsb ish\n\tsev" ::: "memory");
}

static void *waiter(void *arg)
{
	int i = (int)(intptr_t)arg;
	unsigned int r;

	for (r = 1; r <= rounds; r++) {
		unsigned long n = 0;

		__atomic_add_fetch(&ready, 1, __ATOMIC_ACQ_REL);
		while (__atomic_load_n(&go, __ATOMIC_ACQUIRE) != r) {
			wfe();
			n++;
		}
		t_wake[r][i] = now_ns();
		if (r == 1)
			loops_first[i] = n;
		__atomic_add_fetch(&done, 1, __ATOMIC_ACQ_REL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static int64_t worst[MAX_ROUNDS + 1];
	pthread_t th[WAITERS];
	unsigned long loops = 0;
	long n;
	long flush_idle = 0, flush_wait = 0;
	volatile char *page = NULL;
	int use_sev, flush, i;
	unsigned int r;
	double secs;
	char *end;

	if (argc < 4 || argc > 5 || (strcmp(argv[1], "sev") && strcmp(argv[1], "nosev")) ||
	    (argc == 5 && strcmp(argv[4], "flush"))) {
		fprintf(stderr, "usage: wfe-wait sev|nosev SECONDS ROUNDS [flush]\n");
		return 2;
	}
	use_sev = !strcmp(argv[1], "sev");
	flush = argc == 5;
	errno = 0;
	secs = strtod(argv[2], &end);
	if (errno || *end || end == argv[2] || !(secs >= 0.1 && secs <= 60)) {
		fprintf(stderr, "wfe-wait: SECONDS '%s' is not a number from 0.1 to 60\n",
			argv[2]);
		return 2;
	}
	n = parse_num(argv[3], MAX_ROUNDS);
	if (n < 1) {
		fprintf(stderr, "wfe-wait: ROUNDS '%s' is not a whole number from 1 to %d\n",
			argv[3], MAX_ROUNDS);
		return 2;
	}
	rounds = n;
	if (sysconf(_SC_NPROCESSORS_ONLN) < WAITERS + 1) {
		fprintf(stderr, "wfe-wait: needs %d online CPUs, has %ld\n",
			WAITERS + 1, sysconf(_SC_NPROCESSORS_ONLN));
		return 1;
	}
	if (pin(0)) {
		perror("wfe-wait: pin to CPU 0");
		return 1;
	}
	printf("evtstrm %d\n", (getauxval(AT_HWCAP) & HWCAP_EVTSTRM_BIT) ? 1 : 0);
	if (flush) {
		page = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page == MAP_FAILED) {
			perror("wfe-wait: mmap");
			return 1;
		}
		page[0] = 1;
		flush_idle = flush_rate(page, 1.0);
		if (flush_idle < 0) {
			perror("wfe-wait: mprotect");
			return 1;
		}
	}
	for (i = 0; i < WAITERS; i++) {
		pthread_attr_t attr;
		cpu_set_t set;
		int err;

		/* Pinned from the start, so each waits on its own CPU. */
		CPU_ZERO(&set);
		CPU_SET(i + 1, &set);
		pthread_attr_init(&attr);
		err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!err)
			err = pthread_create(&th[i], &attr, waiter, (void *)(intptr_t)i);
		pthread_attr_destroy(&attr);
		if (err) {
			fprintf(stderr, "wfe-wait: thread on CPU %d: %s\n", i + 1, strerror(err));
			return 1;
		}
	}

	for (r = 1; r <= rounds; r++) {
		while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) != WAITERS * r)
			sleep_ns(1000000);
		if (r == 1) {
			printf("wfe-wait: wait-begin\n");
			fflush(stdout);
			if (flush) {
				flush_wait = flush_rate(page, secs);
				if (flush_wait < 0)
					perror("wfe-wait: mprotect");
			} else {
				sleep_ns((int64_t)(secs * 1e9));
			}
			printf("wfe-wait: wait-end\n");
			fflush(stdout);
		} else {
			sleep_ns(SHORT_WAIT_NS);
		}
		t_set[r] = now_ns();
		__atomic_store_n(&go, r, __ATOMIC_RELEASE);
		if (use_sev)
			sev();
		while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) != WAITERS * r)
			sleep_ns(100000);
	}
	for (i = 0; i < WAITERS; i++)
		pthread_join(th[i], NULL);

	for (r = 1; r <= rounds; r++) {
		worst[r] = 0;
		for (i = 0; i < WAITERS; i++)
			if (t_wake[r][i] - t_set[r] > worst[r])
				worst[r] = t_wake[r][i] - t_set[r];
		printf("wake_max_us %u %lld\n", r, (long long)(worst[r] / 1000));
	}
	for (i = 0; i < WAITERS; i++)
		loops += loops_first[i];
	qsort(worst + 1, rounds, sizeof(worst[0]), cmp_i64);
	printf("wake_max_median_us %lld\n", (long long)(worst[1 + rounds / 2] / 1000));
	printf("wake_max_max_us %lld\n", (long long)(worst[rounds] / 1000));
	printf("loops_first_round %lu\n", loops);
	if (flush) {
		printf("flush_idle_per_s %ld\n", flush_idle);
		printf("flush_wait_per_s %ld\n", flush_wait);
	}
	return flush_wait < 0;
}

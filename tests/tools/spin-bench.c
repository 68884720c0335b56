// SPDX-License-Identifier: GPL-2.0
/*
 * spin-bench - a contended spinlock, timed, for make bench (issue 15).
 *
 * usage: spin-bench [-u] SECONDS CPU...
 *
 * One thread per CPU given (1 to 8 distinct online CPUs), pinned to it,
 * takes and releases one shared lock for SECONDS (0.1 to 60): a short
 * critical section, then a little work outside it, again and again.  The
 * lock waits as the arm32 kernel's spinlocks do: a ticket taken with an
 * exclusive load/store pair, then WFE until the owner field reaches the
 * ticket; the release stores the next owner, DSB and SEV.  So the figures
 * show what the emulator's WFE and SEV cost a contended kernel lock: on a
 * QEMU where WFE does not sleep, each waiter spins a host thread that the
 * lock's holder may need.
 *
 * Prints one line:
 *   spin threads N seconds S acquisitions A per_s R handoffs H
 *     handoff_median_ns X handoff_p90_ns X handoff_p99_ns X
 *     wait_median_ns X wait_p99_ns X
 * where a handoff is the time from one thread's release to another
 * thread's acquisition of the lock (SEV to the waiter's wake-up and
 * entry), and a wait the time from asking for the lock to holding it;
 * their percentiles are over each thread's first 262,144 of each.
 * The critical section increments a shared counter without atomics; if
 * it does not end equal to the number of acquisitions, the lock did not
 * exclude, and the tool says so and exits 1.  -u (unlocked) runs the same
 * loop without taking the lock: a check of that check, which should then
 * fail.
 * Bad arguments: message on stderr, exit status 2, nothing run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_THREADS	8
#define MAX_SAMPLES	(1 << 18)	/* per thread and kind; more are not kept */
#define INSIDE_WORK	20		/* loop turns in the critical section */
#define OUTSIDE_WORK	100		/* and between two acquisitions */

/* owner: the ticket being served; next: the next ticket to hand out */
static union {
	uint32_t word;
	struct {
		uint16_t owner;		/* little-endian: the low half */
		uint16_t next;
	} t;
} lock;

static volatile unsigned long counter;	/* only touched under the lock */
static int64_t released_at;		/* under the lock: last release */
static int released_by = -1;		/* under the lock: its thread */
static volatile int stop;
static int unlocked;			/* -u: no lock at all */

struct worker {
	pthread_t thread;
	int id, cpu;
	unsigned long acquisitions, handoffs;
	unsigned int nhand, nwait;
	uint32_t *hand, *wait;		/* samples, ns, capped */
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void spin_lock(void)
{
	/* ldrex/strex loop: the ticket is the old "next" */
	uint32_t old = __atomic_fetch_add(&lock.word, 1U << 16, __ATOMIC_ACQUIRE);
	uint16_t ticket = old >> 16;

	while (__atomic_load_n(&lock.t.owner, __ATOMIC_ACQUIRE) != ticket)
		__asm__ volatile("wfe" ::: "memory");
}

static void spin_unlock(void)
{
	uint16_t owner = lock.t.owner;

	__atomic_store_n(&lock.t.owner, (uint16_t)(owner + 1), __ATOMIC_RELEASE);
	__asm__ volatile("dsb ishst\n\tsev" ::: "memory");
}

static void work(int turns)
{
	volatile int i;

	for (i = 0; i < turns; i++)
		;
}

static uint32_t clamp_ns(int64_t ns)
{
	return ns < 0 ? 0 : ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

static void *worker_fn(void *arg)
{
	struct worker *w = arg;

	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		int64_t asked = now_ns(), got;

		if (!unlocked)
			spin_lock();
		got = now_ns();
		if (released_by >= 0 && released_by != w->id) {
			w->handoffs++;
			if (w->nhand < MAX_SAMPLES)
				w->hand[w->nhand++] = clamp_ns(got - released_at);
		}
		if (w->nwait < MAX_SAMPLES)
			w->wait[w->nwait++] = clamp_ns(got - asked);
		counter = counter + 1;
		work(INSIDE_WORK);
		w->acquisitions++;
		released_by = w->id;
		released_at = now_ns();
		if (!unlocked)
			spin_unlock();
		work(OUTSIDE_WORK);
	}
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The P-th percentile of N samples (sorted here), 0 if none. */
static uint32_t pct(uint32_t *v, unsigned int n, int p)
{
	unsigned long i;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_u32);
	i = ((unsigned long)n * p + 99) / 100;
	return v[i ? i - 1 : 0];
}

static int usage(void)
{
	fprintf(stderr, "usage: spin-bench [-u] SECONDS CPU...\n");
	return 2;
}

/* Every thread's samples of one kind in one array; NULL if out of memory. */
static uint32_t *merge(struct worker *w, int n, int hand, unsigned int *count)
{
	uint32_t *all = malloc((size_t)n * MAX_SAMPLES * sizeof(uint32_t));
	int i;

	*count = 0;
	if (!all)
		return NULL;
	for (i = 0; i < n; i++) {
		unsigned int k = hand ? w[i].nhand : w[i].nwait;

		memcpy(all + *count, hand ? w[i].hand : w[i].wait, k * sizeof(uint32_t));
		*count += k;
	}
	return all;
}

int main(int argc, char **argv)
{
	static struct worker w[MAX_THREADS];
	unsigned long total = 0, handoffs = 0;
	unsigned int nh, nw;
	uint32_t *hand, *wait;
	struct timespec ts;
	cpu_set_t allowed;
	int n, i, j, started;
	double secs;
	char *end;

	if (argc > 1 && !strcmp(argv[1], "-u")) {
		unlocked = 1;
		argc--;
		argv++;
	}
	if (argc < 3 || argv[1][0] == '-')
		return usage();
	errno = 0;
	secs = strtod(argv[1], &end);
	if (errno || *end || end == argv[1] || !(secs >= 0.1 && secs <= 60)) {
		fprintf(stderr, "spin-bench: SECONDS '%s' is not a number from 0.1 to 60\n",
			argv[1]);
		return 2;
	}
	n = argc - 2;
	if (n > MAX_THREADS) {
		fprintf(stderr, "spin-bench: %d CPUs given, at most %d\n", n, MAX_THREADS);
		return 2;
	}
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		perror("spin-bench: sched_getaffinity");
		return 1;
	}
	for (i = 0; i < n; i++) {
		const char *s = argv[i + 2];
		long cpu;

		errno = 0;
		cpu = strtol(s, &end, 10);
		if (*s < '0' || *s > '9' || errno || *end || cpu >= CPU_SETSIZE ||
		    !CPU_ISSET(cpu, &allowed)) {
			fprintf(stderr, "spin-bench: '%s' is not an online CPU of this task\n", s);
			return 2;
		}
		for (j = 0; j < i; j++)
			if (w[j].cpu == cpu) {
				fprintf(stderr, "spin-bench: CPU %ld given twice\n", cpu);
				return 2;
			}
		w[i].id = i;
		w[i].cpu = cpu;
	}
	for (i = 0; i < n; i++) {
		w[i].hand = calloc(MAX_SAMPLES, sizeof(uint32_t));
		w[i].wait = calloc(MAX_SAMPLES, sizeof(uint32_t));
		if (!w[i].hand || !w[i].wait) {
			perror("spin-bench: calloc");
			return 1;
		}
	}

	for (started = 0; started < n; started++) {
		pthread_attr_t attr;
		cpu_set_t set;
		int err;

		CPU_ZERO(&set);
		CPU_SET(w[started].cpu, &set);
		pthread_attr_init(&attr);
		err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (!err)
			err = pthread_create(&w[started].thread, &attr, worker_fn, &w[started]);
		pthread_attr_destroy(&attr);
		if (err) {
			fprintf(stderr, "spin-bench: thread on CPU %d: %s\n", w[started].cpu,
				strerror(err));
			break;
		}
	}
	if (started == n) {
		ts.tv_sec = (time_t)secs;
		ts.tv_nsec = (long)((secs - ts.tv_sec) * 1e9);
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < started; i++)
		pthread_join(w[i].thread, NULL);
	if (started < n)
		return 1;

	for (i = 0; i < n; i++) {
		total += w[i].acquisitions;
		handoffs += w[i].handoffs;
	}
	if (counter != total) {
		fprintf(stderr, "spin-bench: the lock did not exclude: counter %lu after %lu acquisitions\n",
			counter, total);
		return 1;
	}
	hand = merge(w, n, 1, &nh);
	wait = merge(w, n, 0, &nw);
	if (!hand || !wait) {
		perror("spin-bench: malloc");
		return 1;
	}
	printf("spin threads %d seconds %.2f acquisitions %lu per_s %.0f handoffs %lu",
	       n, secs, total, total / secs, handoffs);
	printf(" handoff_median_ns %u", pct(hand, nh, 50));
	printf(" handoff_p90_ns %u", pct(hand, nh, 90));
	printf(" handoff_p99_ns %u", pct(hand, nh, 99));
	printf(" wait_median_ns %u", pct(wait, nw, 50));
	printf(" wait_p99_ns %u\n", pct(wait, nw, 99));
	return 0;
}

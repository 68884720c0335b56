// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlock_stress.c - stress test of the real arch/arm/common/vlock.S, linked
 * into an ARM user-space program and run under qemu-arm (guest threads are
 * host threads, so the contenders really run in parallel).
 *
 * usage: vlock_stress NTHREADS ROUNDS MUTEX_ITERS
 *
 * Phase 1, elections: in each of ROUNDS rounds all NTHREADS threads call
 * vlock_trylock(&lock, id) on a free lock (after a small random delay, to
 * vary the interleaving); nobody unlocks until every thread has returned.
 * Then exactly one thread must have won, the owner byte must hold its vote
 * (id + VLOCK_VOTING_OFFSET) and all voting bytes must be clear.  One
 * thread (a different one each round) checks that and calls vlock_unlock
 * before the next round.
 *
 * Phase 2, lock use: every thread makes MUTEX_ITERS trylock attempts on the
 * same lock; a winner increments an in-critical-section counter (must reach
 * exactly 1), a plain unprotected counter, and unlocks.  At the end the
 * plain counter must equal the number of wins (no lost updates).
 *
 * The negative control (tests/verify/run) links this same program with a
 * mutant of vlock.S whose wait for the other voters is removed.
 *
 * A thread's CPU number is its index, except with two threads: CPUs 0 and
 * 2, whose votes (4 and 6) xor to 2, so a trylock lost after voting (an
 * overlapping election) returns neither 0 nor 1 and is counted.  (CPUs 0
 * and 1 vote 4 and 5, which xor to 1 and look like a fast fail.)  An
 * election stress that never saw an overlap proved nothing: with two or
 * more threads and at least 1000 elections, lost_after_voting must be > 0.
 *
 * Exit status 0 iff every check held.  Prints one "figures:" line.
 */

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_THREADS 4		/* MAX_CPUS_PER_CLUSTER */
#define OWNER_NONE 0		/* VLOCK_OWNER_NONE */
#define VOTING_OFFSET 4		/* VLOCK_VOTING_OFFSET */

/* Random delay (loop iterations, a mask) before each election's trylock. */
#ifndef DELAY_MASK
#define DELAY_MASK 63
#endif

/* The layout vlock.S expects: owner byte at 0, voting bytes from 4. */
struct vlock {
	volatile uint8_t owner;
	uint8_t pad[VOTING_OFFSET - 1];
	volatile uint8_t voting[4];
} __attribute__((aligned(64)));

/* arch/arm/common/vlock.S (or its mutant): r0 = lock, r1 = cpu; returns 0 iff won. */
extern int vlock_trylock(struct vlock *v, unsigned int cpu);
extern void vlock_unlock(struct vlock *v);

static struct vlock lock;
static int nthreads;
static long rounds, mutex_iters;

/* Sense-reversing barrier.  It spins, so that all threads leave it at
 * nearly the same time; only when threads outnumber the cores does it
 * yield while waiting. */
static int oversubscribed;

static struct {
	int count;
	int sense;
} __attribute__((aligned(64))) bar;

static void barrier_wait(int *local_sense)
{
	int spins = 0;

	*local_sense = !*local_sense;
	if (__atomic_add_fetch(&bar.count, 1, __ATOMIC_ACQ_REL) == nthreads) {
		__atomic_store_n(&bar.count, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&bar.sense, *local_sense, __ATOMIC_RELEASE);
		return;
	}
	while (__atomic_load_n(&bar.sense, __ATOMIC_ACQUIRE) != *local_sense)
		if (oversubscribed && ++spins > 64)
			sched_yield();
}

/* Phase 1 results */
static int round_winners __attribute__((aligned(64)));
static int round_winner_id;
static long bad_rounds, owner_mismatch, voting_left, lost_after_vote;
static long wins_by[MAX_THREADS];

/* Phase 2 results */
static int in_cs __attribute__((aligned(64)));
static long plain_counter;
static long mutex_wins[MAX_THREADS];
static long mutex_violations;

static unsigned int xorshift(unsigned int *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void delay(unsigned int n)
{
	for (volatile unsigned int i = 0; i < n; i++)
		;
}

static unsigned int cpu_of(int id)
{
	return nthreads == 2 ? (unsigned int)id * 2 : (unsigned int)id;
}

static void check_round(void)
{
	int w = __atomic_load_n(&round_winners, __ATOMIC_ACQUIRE);
	int id = round_winner_id;

	if (w != 1) {
		bad_rounds++;
	} else {
		wins_by[id]++;
		if (lock.owner != cpu_of(id) + VOTING_OFFSET)
			owner_mismatch++;
	}
	for (int i = 0; i < MAX_THREADS; i++)
		if (lock.voting[i])
			voting_left++;
	__atomic_store_n(&round_winners, 0, __ATOMIC_RELAXED);
	vlock_unlock(&lock);
}

static void *contender(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg;
	unsigned int seed = 0x9e3779b9u * (id + 1);
	int sense = 0;
	long lost_vote = 0;

	/* Phase 1: elections */
	for (long r = 0; r < rounds; r++) {
		barrier_wait(&sense);
		delay(xorshift(&seed) & DELAY_MASK);
		int ret = vlock_trylock(&lock, cpu_of((int)id));

		if (ret == 0) {
			__atomic_fetch_add(&round_winners, 1, __ATOMIC_ACQ_REL);
			round_winner_id = (int)id;
		} else if (ret != 1) {
			/* eor of two different votes: lost after voting
			 * (a lower bound: 4 ^ 5 == 1 looks like a fast fail) */
			lost_vote++;
		}
		barrier_wait(&sense);
		/* the checker rotates, so that no thread is always late */
		if (id == (unsigned int)(r % nthreads))
			check_round();
	}
	barrier_wait(&sense);
	__atomic_fetch_add(&lost_after_vote, lost_vote, __ATOMIC_RELAXED);

	/* Phase 2: lock use */
	for (long i = 0; i < mutex_iters; i++) {
		if (vlock_trylock(&lock, cpu_of((int)id)) != 0) {
			delay(xorshift(&seed) & 7);
			continue;
		}
		if (__atomic_add_fetch(&in_cs, 1, __ATOMIC_ACQ_REL) != 1)
			__atomic_fetch_add(&mutex_violations, 1, __ATOMIC_RELAXED);
		long c = plain_counter;		/* unprotected read-modify-write */
		delay(xorshift(&seed) & 3);
		plain_counter = c + 1;
		mutex_wins[id]++;
		__atomic_sub_fetch(&in_cs, 1, __ATOMIC_ACQ_REL);
		vlock_unlock(&lock);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	struct timespec t0, t1;
	long total_mutex_wins = 0;
	int ok;

	if (argc != 4) {
		fprintf(stderr, "usage: %s NTHREADS ROUNDS MUTEX_ITERS\n", argv[0]);
		return 2;
	}
	nthreads = atoi(argv[1]);
	rounds = atol(argv[2]);
	mutex_iters = atol(argv[3]);
	if (nthreads < 1 || nthreads > MAX_THREADS || rounds < 0 || mutex_iters < 0) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	memset((void *)&lock, 0, sizeof(lock));
	oversubscribed = nthreads > sysconf(_SC_NPROCESSORS_ONLN);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, contender, (void *)(uintptr_t)i)) {
			perror("pthread_create");
			return 2;
		}
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);

	for (int i = 0; i < nthreads; i++)
		total_mutex_wins += mutex_wins[i];

	ok = bad_rounds == 0 && owner_mismatch == 0 && voting_left == 0 &&
	     mutex_violations == 0 && plain_counter == total_mutex_wins &&
	     lock.owner == OWNER_NONE &&
	     (nthreads < 2 || rounds < 1000 || lost_after_vote > 0);

	printf("figures: threads=%d elections=%ld trylock_calls=%ld "
	       "bad_rounds=%ld owner_mismatch=%ld voting_left=%ld "
	       "lost_after_voting>=%ld wins_by=",
	       nthreads, rounds, rounds * nthreads + mutex_iters * nthreads,
	       bad_rounds, owner_mismatch, voting_left, lost_after_vote);
	for (int i = 0; i < nthreads; i++)
		printf("%s%ld", i ? "/" : "", wins_by[i]);
	printf(" lock_wins=%ld counter=%ld cs_overlaps=%ld seconds=%.2f %s\n",
	       total_mutex_wins, plain_counter, mutex_violations,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}

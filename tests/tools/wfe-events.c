// SPDX-License-Identifier: GPL-2.0
/*
 * wfe-events - what must end a WFE at once or wake it, beyond SEV and
 * interrupts (issue 28, item 9), in user mode, for tests/guest/wfe-events.sh
 * and tests/host/wfe-v8.sh.  Boot with the timer's event stream off
 * (clocksource.arm_arch_timer.evtstrm=0): a WFE that sleeps where it
 * must not then waits for the next interrupt, the 10 ms tick.
 *
 * usage: wfe-events eret|sevl|none N
 *        wfe-events monitor ROUNDS
 *
 * eret N     N times: a system call (an exception return sets the event
 *            register), then WFE, which must complete at once
 * sevl N     N times: SEVL (ARMv8: sets this CPU's event register), then
 *            WFE, which must complete at once; on ARMv7 SEVL is a NOP
 * none N     N times: WFE alone, which sleeps until the next interrupt
 *            (the check of the checks: what the others would cost)
 * monitor R  R rounds (ARMv8): a thread on CPU 1 waits for a flag with
 *            LDREX and WFE; a thread on CPU 0 sets the flag 2 ms later
 *            with a plain store and no SEV, which clears the waiter's
 *            global monitor, a wake-up event
 *
 * Prints "key value" lines: for eret, sevl and none "total_us" (the N loops,
 * CLOCK_MONOTONIC) and "max_us" (the slowest one); for monitor
 * "wake_median_us" and "wake_max_us" (from the store to the waiter seeing
 * it).  Bad arguments: message on stderr, exit status 2, nothing run.
 * Exits 1 if a thread cannot be pinned.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../switcher/parse-num.h"
#include "wfe-util.h"

#define MAX_N		100000
#define MAX_ROUNDS	1000
#define SET_DELAY_NS	2000000L

#ifdef __thumb__
#define SEVL_INSN	".inst.n 0xbf50\n"	/* SEVL, T1 */
#else
#define SEVL_INSN	".inst 0xe320f005\n"	/* SEVL, A1 */
#endif

static volatile unsigned int flag;	/* what the monitor waiter waits for */
static volatile unsigned int go;	/* the round the waiter may start */
static volatile unsigned int ready;	/* the waiter is in this round */
static volatile unsigned int done;	/* the waiter saw the flag */
static int64_t t_set[MAX_ROUNDS];
static int64_t t_seen[MAX_ROUNDS];
static unsigned long rounds;

enum loop_event { EV_ERET, EV_SEVL, EV_NONE };

/* The loops of eret, sevl and none: the event (if any) just before each WFE. */
static void run_loops(enum loop_event ev, unsigned long n)
{
	int64_t start = now_ns(), prev = start, max = 0;
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (ev == EV_SEVL)
			__asm__ volatile(SEVL_INSN ::: "memory");
		else if (ev == EV_ERET)
			syscall(SYS_getppid);
		wfe();
		int64_t t = now_ns();

		if (t - prev > max)
			max = t - prev;
		prev = t;
	}
	printf("total_us %lld\nmax_us %lld\n", (long long)((prev - start) / 1000),
	       (long long)(max / 1000));
}

static unsigned int load_exclusive(volatile unsigned int *p)
{
	unsigned int v;

	__asm__ volatile("ldrex %0, [%1]" : "=r"(v) : "r"(p) : "memory");
	return v;
}

static void *monitor_waiter(void *arg)
{
	unsigned long r;

	(void)arg;
	for (r = 0; r < rounds; r++) {
		while (go != r)		/* the flag is clear for this round */
			;
		__atomic_store_n(&ready, r + 1, __ATOMIC_SEQ_CST);
		while (!load_exclusive(&flag))
			wfe();
		__asm__ volatile("clrex" ::: "memory");
		t_seen[r] = now_ns();
		__atomic_store_n(&done, r + 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

static int run_monitor(void)
{
	struct timespec delay = { 0, SET_DELAY_NS };
	int64_t lat[MAX_ROUNDS];
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t t;
	unsigned long r;
	int err;

	if (pin(0)) {
		perror("wfe-events: pin to CPU 0");
		return 1;
	}
	CPU_ZERO(&set);
	CPU_SET(1, &set);
	pthread_attr_init(&attr);
	err = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	if (!err)
		err = pthread_create(&t, &attr, monitor_waiter, NULL);
	if (err) {
		fprintf(stderr, "wfe-events: waiter on CPU 1: %s\n", strerror(err));
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		while (ready != r + 1)
			;
		nanosleep(&delay, NULL);	/* the waiter is in WFE by now */
		t_set[r] = now_ns();
		__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);	/* no SEV */
		while (done != r + 1)
			;
		__atomic_store_n(&flag, 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&go, r + 1, __ATOMIC_SEQ_CST);
	}
	pthread_join(t, NULL);
	for (r = 0; r < rounds; r++)
		lat[r] = t_seen[r] - t_set[r];
	qsort(lat, rounds, sizeof(lat[0]), cmp_i64);
	printf("wake_median_us %lld\nwake_max_us %lld\n",
	       (long long)(lat[rounds / 2] / 1000),
	       (long long)(lat[rounds - 1] / 1000));
	return 0;
}

int main(int argc, char **argv)
{
	long n;

	if (argc != 3 || (strcmp(argv[1], "eret") && strcmp(argv[1], "sevl") &&
			  strcmp(argv[1], "none") && strcmp(argv[1], "monitor"))) {
		fprintf(stderr, "usage: wfe-events eret|sevl|none N\n"
			"       wfe-events monitor ROUNDS\n");
		return 2;
	}
	if (!strcmp(argv[1], "monitor")) {
		n = parse_num(argv[2], MAX_ROUNDS);
		if (n < 1) {
			fprintf(stderr, "wfe-events: ROUNDS must be 1 to %d, not '%s'\n",
				MAX_ROUNDS, argv[2]);
			return 2;
		}
		rounds = n;
		return run_monitor();
	}
	n = parse_num(argv[2], MAX_N);
	if (n < 1) {
		fprintf(stderr, "wfe-events: N must be 1 to %d, not '%s'\n", MAX_N, argv[2]);
		return 2;
	}
	run_loops(!strcmp(argv[1], "eret") ? EV_ERET :
		  !strcmp(argv[1], "sevl") ? EV_SEVL : EV_NONE, n);
	return 0;
}

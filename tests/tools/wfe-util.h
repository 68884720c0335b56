/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wfe-util.h - what the WFE test tools (wfe-wait, wfe-events) share: the
 * clock they time waits with, pinning to a CPU, WFE itself, and a sort
 * order for latencies.  Include after defining _GNU_SOURCE.
 */
#ifndef LAB_WFE_UTIL_H
#define LAB_WFE_UTIL_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in ns */
static inline int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Pin the calling thread to CPU; 0 or -1 as sched_setaffinity() */
static inline int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static inline void wfe(void)
{
	__asm__ volatile("wfe" ::: "memory");
}

/* qsort() order of int64_t */
static inline int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

#endif

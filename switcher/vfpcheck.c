// SPDX-License-Identifier: GPL-2.0
/*
 * vfpcheck - check that a task's VFP/NEON and integer state survive
 * whatever happens to the CPU under it (cluster switches, migrations).
 *
 * usage: vfpcheck SECONDS
 *
 * Each round loads all 32 D registers and FPSCR with a pattern, spins
 * with them live for a while (so that a switch is likely to land in the
 * middle), runs one NEON addition on them, stores everything back and
 * compares with what the pattern says; an integer hash chain computed in
 * registers during the spin is compared with the same chain computed in
 * C.  Prints the number of rounds and exits 1 on the first mismatch.
 * Static armhf build for the lab guest.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPIN	20000

/* FPSCR: round towards zero (RMode = 3), flush-to-zero, default NaN. */
#define FPSCR_PATTERN	((3u << 22) | (1u << 24) | (1u << 25))

static uint32_t chain(uint32_t x, unsigned int n)
{
	while (n--)
		x = x * 1664525u + 1013904223u;
	return x;
}

static int round_trip(uint32_t seed)
{
	uint64_t in[32], out[32];
	uint32_t fpscr_out, hash = seed;
	uint32_t sum[4];
	int i;

	for (i = 0; i < 32; i++)
		in[i] = ((uint64_t)chain(seed + i, 3) << 32) | chain(seed ^ (i * 77u), 5);

	__asm__ volatile(
		"vmsr	fpscr, %[fpscr]\n\t"
		"vldm	%[in], {d0-d15}\n\t"
		"add	r12, %[in], #128\n\t"
		"vldm	r12, {d16-d31}\n\t"
		"mov	r12, %[spin]\n"
		"1:\n\t"
		"mul	%[hash], %[hash], %[a]\n\t"
		"add	%[hash], %[hash], %[c]\n\t"
		"subs	r12, r12, #1\n\t"
		"bne	1b\n\t"
		"vadd.i32	q15, q14, q13\n\t"
		"vstm	%[out], {d0-d15}\n\t"
		"add	r12, %[out], #128\n\t"
		"vstm	r12, {d16-d31}\n\t"
		"vmrs	%[fpscr_out], fpscr\n\t"
		: [hash] "+r" (hash), [fpscr_out] "=r" (fpscr_out)
		: [in] "r" (in), [out] "r" (out), [spin] "r" (SPIN),
		  [a] "r" (1664525u), [c] "r" (1013904223u),
		  [fpscr] "r" (FPSCR_PATTERN)
		: "r12", "cc", "memory",
		  "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		  "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15",
		  "d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23",
		  "d24", "d25", "d26", "d27", "d28", "d29", "d30", "d31");

	/* q15 = q14 + q13, lane by lane (32-bit) */
	for (i = 0; i < 4; i++) {
		uint32_t a, b;

		memcpy(&a, (uint32_t *)&in[28] + i, 4);
		memcpy(&b, (uint32_t *)&in[26] + i, 4);
		sum[i] = a + b;
	}
	memcpy(&in[30], sum, sizeof(sum));

	if (memcmp(in, out, sizeof(in))) {
		for (i = 0; i < 32; i++)
			if (in[i] != out[i])
				fprintf(stderr, "vfpcheck: d%d is %016llx, expected %016llx\n", i,
					(unsigned long long)out[i], (unsigned long long)in[i]);
		return 1;
	}
	if ((fpscr_out & FPSCR_PATTERN) != FPSCR_PATTERN) {
		fprintf(stderr, "vfpcheck: FPSCR is %08x, expected bits %08x\n",
			fpscr_out, FPSCR_PATTERN);
		return 1;
	}
	if (hash != chain(seed, SPIN)) {
		fprintf(stderr, "vfpcheck: integer chain is %08x, expected %08x\n",
			hash, chain(seed, SPIN));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct timespec now, end;
	unsigned long rounds = 0;
	double secs;

	char *rest;

	if (argc != 2) {
		fprintf(stderr, "usage: vfpcheck SECONDS\n");
		return 2;
	}
	errno = 0;
	secs = strtod(argv[1], &rest);
	if (errno || rest == argv[1] || *rest || !(secs > 0 && secs <= 86400)) {
		fprintf(stderr, "vfpcheck: SECONDS must be a number in (0, 86400], not '%s'\n",
			argv[1]);
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += (time_t)secs;
	end.tv_nsec += (long)((secs - (time_t)secs) * 1e9);
	if (end.tv_nsec >= 1000000000L) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000L;
	}
	do {
		if (round_trip((uint32_t)rounds * 2654435761u)) {
			printf("vfpcheck: FAILED after %lu rounds\n", rounds);
			return 1;
		}
		rounds++;
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end.tv_sec ||
		 (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	printf("vfpcheck: %lu rounds, state intact\n", rounds);
	return 0;
}

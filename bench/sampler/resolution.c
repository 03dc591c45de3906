// SPDX-License-Identifier: GPL-2.0-only
/*
 * resolution - nanoseconds per loop iteration of the sampler's spinner
 * against an oslat-style loop (a fenced TSC read and a histogram bucket
 * per iteration), alternated on one pinned CPU in the same run.
 *
 * An iteration's cost is the time spun without noise divided by the
 * iterations: gaps of at least 1 us are noise in both loops and do not
 * count, so a busy machine does not inflate the figure.
 *
 *   resolution [CPU [ROUNDS [SECONDS]]]
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

#include "osnoise/sampler.h"

#define BUCKETS 32

/* oslat's method, written afresh: fenced read, ceil(delta in us), count it. */
static double oslat_style(const struct sampler_clock *ck, uint64_t ticks, uint64_t thr)
{
	static uint64_t hist[BUCKETS];
	uint64_t per_us = (uint64_t)(ck->mhz + 0.5), prev, now, end, iters = 0, noise = 0;

	_mm_lfence();
	prev = __rdtsc();
	end = prev + ticks;
	do {
		uint64_t d, b;

		_mm_lfence();
		now = __rdtsc();
		d = now - prev;
		b = (d + per_us - 1) / per_us;
		hist[b < BUCKETS ? b : BUCKETS - 1]++;
		if (d >= thr)
			noise += d;
		prev = now;
		iters++;
	} while (now < end);
	return (double)sampler_ticks_to_ns(ck, ticks - noise) / iters;
}

static double ours(const struct sampler_clock *ck, uint64_t ticks, uint64_t thr)
{
	struct sampler_period_rec r;

	if (sampler_spin_for(ck, ticks, thr, &r))
		exit(1);
	return (double)sampler_ticks_to_ns(ck, r.end - r.start - r.sum) / r.iters;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 ? atoi(argv[1]) : 0, rounds = argc > 2 ? atoi(argv[2]) : 5;
	double secs = argc > 3 ? atof(argv[3]) : 1.0, a[64], b[64];
	struct sampler_clock ck;
	uint64_t ticks, thr;
	cpu_set_t set;

	if (rounds < 1 || rounds > 64)
		rounds = 5;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (sampler_clock_init(&ck, true) || !ck.tsc) {
		fprintf(stderr, "resolution: needs a usable TSC\n");
		return 1;
	}
	ticks = sampler_ns_to_ticks(&ck, (uint64_t)(secs * 1e9));
	thr = sampler_ns_to_ticks(&ck, 1000);
	for (int i = 0; i < rounds; i++) {
		a[i] = ours(&ck, ticks, thr);
		b[i] = oslat_style(&ck, ticks, thr);
		printf("round %d: sampler %.2f ns/iter, oslat-style %.2f ns/iter\n", i + 1, a[i], b[i]);
	}
	qsort(a, rounds, sizeof(a[0]), cmp);
	qsort(b, rounds, sizeof(b[0]), cmp);
	printf("RESULT resolution cpu %d tsc %.3f MHz: sampler median %.2f ns/iter (goal <= 12), "
	       "oslat-style median %.2f ns/iter, ratio %.2f\n", cpu, ck.mhz, a[rounds / 2],
	       b[rounds / 2], a[rounds / 2] / b[rounds / 2]);
	return 0;
}

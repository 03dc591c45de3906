/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hist - the histogram map of `rtla osnoise hist` and `rtla hwnoise hist`
 * (hist.c), and of timerlat hist's exact percentiles (timerlat/top.c); the
 * rows' sink and printers are declared in osnoise.h.
 *
 * The sink keeps, per CPU, how many samples of each whole-us duration it
 * saw (an open-addressing map: noise durations cluster, so a long run holds
 * a few hundred keys), their exact ns sum, minimum and maximum, and the
 * periods seen. Upstream's buckets, its text summary (bucket floors, as the
 * kernel's hist trigger gives them) and the exact JSON figures are all
 * derived from that at the end, whatever -b and -E say.
 */
#ifndef RTLA_OSNOISE_HIST_H
#define RTLA_OSNOISE_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "osnoise/osnoise.h"

struct hist_slot {
	uint64_t us;		/* a duration in whole us (the ns truncated, as the kernel does) */
	uint64_t count;		/* samples of that duration; 0: an empty slot */
};

struct hist_cpu {
	uint64_t count;		/* samples */
	uint64_t sum_ns, min_ns, max_ns;
	uint64_t periods;	/* periods seen: "no noise" differs from "not measured" */
	uint64_t lost;		/* samples the map found no memory for */
	bool coarse;		/* some came counted per us: min_ns and max_ns are floors */
	struct hist_slot *slot;
	size_t cap, used;	/* cap is 0 or a power of two */
	unsigned bits;		/* log2(cap) */
};

struct noise_hist {
	int nr_cpus;
	struct hist_cpu *cpu;
};

struct noise_hist *noise_hist_new(int nr_cpus);
void noise_hist_free(struct noise_hist *h);
/* One sample of NS on CPU; -ENOMEM when the map could not grow (counted as lost). */
int noise_hist_add(struct noise_hist *h, int cpu, uint64_t ns);
/* COUNT samples of whole-us duration US on CPU, whose exact durations sum to SUM_NS. */
int noise_hist_add_counted(struct noise_hist *h, int cpu, uint64_t us, uint64_t count,
			   uint64_t sum_ns);
/* CPU's durations in increasing order, *n of them; NULL when none (or no memory). */
struct hist_slot *noise_hist_sorted(const struct noise_hist *h, int cpu, size_t *n);
/*
 * The nearest-rank percentile PER_10000/10000 of TOTAL samples in S (sorted):
 * the smallest duration that at least ceil(TOTAL * PER_10000 / 10000) samples
 * do not exceed. 0 when there are none.
 */
uint64_t noise_hist_percentile(const struct hist_slot *s, size_t n, uint64_t total,
			       unsigned per_10000);

/*
 * A histogram row of the tools that bucket as they go (timerlat hist,
 * hwlat hist): -E entries of -b units each, then one "over" counter.
 */
uint64_t *noise_buckets_new(const struct noise_params *p);
/* Count V (in the row's unit) in its bucket, or in "over". */
void noise_buckets_count(const struct noise_params *p, uint64_t *bucket, uint64_t v);
/* The row as NAME: {"buckets": [[start, count] of each non-empty one], "over": N}. */
void noise_buckets_json(struct json *j, const char *name, const struct noise_params *p,
			const uint64_t *bucket);

#endif

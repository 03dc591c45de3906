// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist - `rtla osnoise hist`: the histogram tools' sink, upstream's
 * histogram text, the exact figures of the JSON record, then osnoise hist's
 * usage and its tool row (hwnoise hist's, in src/hwnoise/, shares the rest).
 *
 * Upstream reads a kernel hist trigger whose buckets are -b us wide and
 * prints each bucket's lower bound as the duration of all its samples, so
 * its min, avg and max are bucket floors. The text here follows that rule
 * (scripts compare it with upstream's); the JSON record carries what the
 * samples really were: the exact minimum, mean and maximum, and exact
 * nearest-rank percentiles at the kernel's 1 us resolution.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "msg.h"
#include "osnoise/hist.h"
#include "osnoise/top.h"
#include "util.h"

#define MAP_MIN_BITS	6	/* 64 slots to start with, 1 KiB */

struct noise_hist *noise_hist_new(int nr_cpus)
{
	struct noise_hist *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->nr_cpus = nr_cpus;
	h->cpu = calloc(nr_cpus, sizeof(*h->cpu));
	if (!h->cpu) {
		free(h);
		return NULL;
	}
	return h;
}

void noise_hist_free(struct noise_hist *h)
{
	if (!h)
		return;
	for (int cpu = 0; cpu < h->nr_cpus; cpu++)
		free(h->cpu[cpu].slot);
	free(h->cpu);
	free(h);
}

/* Fibonacci hashing: consecutive durations land far apart. */
static size_t slot_of(uint64_t us, unsigned bits)
{
	return (size_t)((us * 0x9e3779b97f4a7c15ULL) >> (64 - bits));
}

static struct hist_slot *find_slot(struct hist_slot *slot, unsigned bits, uint64_t us)
{
	size_t mask = ((size_t)1 << bits) - 1, i = slot_of(us, bits);

	while (slot[i].count && slot[i].us != us)
		i = (i + 1) & mask;
	return &slot[i];
}

/* Double the map (or make the first one) and move every key over. */
static int grow(struct hist_cpu *c)
{
	unsigned bits = c->slot ? c->bits + 1 : MAP_MIN_BITS;
	struct hist_slot *slot = calloc((size_t)1 << bits, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].count)
			*find_slot(slot, bits, c->slot[i].us) = c->slot[i];
	free(c->slot);
	c->slot = slot;
	c->bits = bits;
	c->cap = (size_t)1 << bits;
	return 0;
}

/* COUNT more samples of US in CPU's map; false when it could not grow. */
static bool count_us(struct hist_cpu *c, uint64_t us, uint64_t count)
{
	struct hist_slot *s;

	/* at most 3/4 full, so that a probe ends soon */
	if ((c->used + 1) * 4 > c->cap * 3 && grow(c)) {
		c->lost += count;
		return false;
	}
	s = find_slot(c->slot, c->bits, us);
	if (!s->count) {
		s->us = us;
		c->used++;
	}
	s->count += count;
	return true;
}

int noise_hist_add(struct noise_hist *h, int cpu, uint64_t ns)
{
	struct hist_cpu *c;

	if (cpu < 0 || cpu >= h->nr_cpus)
		return -EINVAL;
	c = &h->cpu[cpu];
	if (!count_us(c, ns / 1000, 1))
		return -ENOMEM;
	if (!c->count || ns < c->min_ns)
		c->min_ns = ns;
	if (ns > c->max_ns)
		c->max_ns = ns;
	c->count++;
	c->sum_ns += ns;
	return 0;
}

int noise_hist_add_counted(struct noise_hist *h, int cpu, uint64_t us, uint64_t count,
			   uint64_t sum_ns)
{
	struct hist_cpu *c;

	if (cpu < 0 || cpu >= h->nr_cpus)
		return -EINVAL;
	c = &h->cpu[cpu];
	if (!count || !count_us(c, us, count))
		return count ? -ENOMEM : 0;
	/* the extremes are known to the microsecond only: its lower bound */
	c->coarse = true;
	if (!c->count || us * 1000 < c->min_ns)
		c->min_ns = us * 1000;
	if (us * 1000 > c->max_ns)
		c->max_ns = us * 1000;
	c->count += count;
	c->sum_ns += sum_ns;
	return 0;
}

static int by_us(const void *a, const void *b)
{
	const struct hist_slot *x = a, *y = b;

	return x->us < y->us ? -1 : x->us > y->us;
}

struct hist_slot *noise_hist_sorted(const struct noise_hist *h, int cpu, size_t *n)
{
	const struct hist_cpu *c = &h->cpu[cpu];
	struct hist_slot *s;
	size_t k = 0;

	*n = 0;
	if (!c->used || !(s = malloc(c->used * sizeof(*s))))
		return NULL;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].count)
			s[k++] = c->slot[i];
	qsort(s, k, sizeof(*s), by_us);
	*n = k;
	return s;
}

uint64_t noise_hist_percentile(const struct hist_slot *s, size_t n, uint64_t total,
			       unsigned per_10000)
{
	/* ceil(total * per_10000 / 10000), with no product wider than 64 bits */
	uint64_t rank = total / 10000 * per_10000 + (total % 10000 * per_10000 + 9999) / 10000;
	uint64_t seen = 0;

	if (!n || !total)
		return 0;
	if (!rank)
		rank = 1;
	for (size_t i = 0; i < n; i++) {
		seen += s[i].count;
		if (seen >= rank)
			return s[i].us;
	}
	return s[n - 1].us;
}

/* ---- the tool row's sink ---------------------------------------------------- */

int noise_hist_sink_new(struct noise_run *run)
{
	run->hist = noise_hist_new(run->params->nr_cpus);
	return run->hist ? 0 : -ENOMEM;
}

void noise_hist_add_period(struct noise_run *run, const struct noise_period *p)
{
	run->hist->cpu[p->cpu].periods++;
}

void noise_hist_add_sample(struct noise_run *run, int cpu, uint64_t ns)
{
	noise_hist_add(run->hist, cpu, ns);
}

void noise_hist_add_samples(struct noise_run *run, int cpu, uint64_t us, uint64_t count,
			    uint64_t sum_ns)
{
	noise_hist_add_counted(run->hist, cpu, us, count, sum_ns);
}

void noise_hist_sink_free(struct noise_run *run)
{
	struct noise_hist *h = run->hist;

	for (int cpu = 0; h && cpu < h->nr_cpus; cpu++)
		if (h->cpu[cpu].lost)
			warn_msg("%llu samples of CPU %d are missing from the histogram: out of memory",
				 (unsigned long long)h->cpu[cpu].lost, cpu);
	noise_hist_free(h);
	run->hist = NULL;
}

/* ---- upstream's text ---------------------------------------------------------- */

/* A column of the text: a measured CPU that has samples. */
struct column {
	int cpu;
	const struct hist_cpu *c;
	struct hist_slot *s;
	size_t n, at;
	uint64_t in_range;	/* samples in the printed buckets; the rest is "over" */
	uint64_t floor_sum;	/* sum of bucket floors, upstream's avg */
};

static int columns_new(const struct noise_run *run, struct column **out)
{
	const struct noise_params *p = run->params;
	const struct noise_hist *h = run->hist;
	struct column *col = calloc(p->nr_cpus ? p->nr_cpus : 1, sizeof(*col));
	int ncol = 0;

	*out = col;
	if (!col)
		return -ENOMEM;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct column *c = &col[ncol];

		if (!CPU_ISSET(cpu, &p->cpus) || !h->cpu[cpu].count)
			continue;
		c->cpu = cpu;
		c->c = &h->cpu[cpu];
		c->s = noise_hist_sorted(h, cpu, &c->n);
		if (!c->s)
			return -ENOMEM;
		for (size_t i = 0; i < c->n; i++)
			c->floor_sum += (c->s[i].us - c->s[i].us % p->bucket_us) * c->s[i].count;
		ncol++;
	}
	return ncol;
}

static void columns_free(struct column *col, int ncol)
{
	for (int i = 0; col && i < ncol; i++)
		free(col[i].s);
	free(col);
}

static void print_header(FILE *f, const struct noise_run *run, time_t now,
			 const struct column *col, int ncol)
{
	char duration[32];

	noise_format_duration(now - run->start_time, duration, sizeof(duration));
	fprintf(f, "# %s\n", run->tool->title);
	fprintf(f, "# Time unit is microseconds (us)\n");
	fprintf(f, "# Duration: %s\n", duration);
	if (!run->params->no_index)
		fputs("Index", f);
	for (int i = 0; i < ncol; i++)
		fprintf(f, "   CPU-%03d", col[i].cpu);
	fputc('\n', f);
}

/* The bucket rows; false when none was printed. */
static bool print_buckets(FILE *f, const struct noise_params *p, struct column *col, int ncol)
{
	long long bs = p->bucket_us;
	bool printed = false;

	for (long long b = 0; b < p->entries; b++) {
		if (!p->with_zeros) {
			/* an empty row is never printed: go straight to the next full one */
			long long next = p->entries;

			for (int i = 0; i < ncol; i++)
				if (col[i].at < col[i].n && (long long)(col[i].s[col[i].at].us / bs) < next)
					next = col[i].s[col[i].at].us / bs;
			if (next >= p->entries)
				break;
			b = next;
		}
		if (!p->no_index)
			fprintf(f, "%-6lld", b * bs);
		for (int i = 0; i < ncol; i++) {
			struct column *c = &col[i];
			uint64_t k = 0;

			while (c->at < c->n && (long long)(c->s[c->at].us / bs) == b)
				k += c->s[c->at++].count;
			c->in_range += k;
			fprintf(f, "%9llu ", (unsigned long long)k);
		}
		fputc('\n', f);
		printed = true;
	}
	return printed;
}

static void print_summary(FILE *f, const struct noise_params *p, const struct column *col,
			  int ncol)
{
	uint64_t bs = p->bucket_us;

	fputs(p->no_index ? "" : "count:", f);
	for (int i = 0; i < ncol; i++)
		fprintf(f, "%9llu ", (unsigned long long)col[i].c->count);
	fputc('\n', f);
	fputs(p->no_index ? "" : "min:  ", f);
	for (int i = 0; i < ncol; i++) {
		uint64_t us = col[i].c->min_ns / 1000;

		fprintf(f, "%9llu ", (unsigned long long)(us - us % bs));
	}
	fputc('\n', f);
	fputs(p->no_index ? "" : "avg:  ", f);
	for (int i = 0; i < ncol; i++)
		fprintf(f, "%9.2f ", (double)col[i].floor_sum / col[i].c->count);
	fputc('\n', f);
	fputs(p->no_index ? "" : "max:  ", f);
	for (int i = 0; i < ncol; i++) {
		uint64_t us = col[i].c->max_ns / 1000;

		fprintf(f, "%9llu ", (unsigned long long)(us - us % bs));
	}
	fputc('\n', f);
}

void noise_hist_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;
	struct column *col;
	int ncol;

	ncol = columns_new(run, &col);
	if (ncol < 0) {
		err_msg("out of memory for the histogram");
		columns_free(col, p->nr_cpus);
		return;
	}
	if (!p->no_header)
		print_header(f, run, now, col, ncol);
	if (!print_buckets(f, p, col, ncol)) {
		/* upstream's words for "nothing above the threshold", with or without a summary */
		fputs("over: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0\n", f);
		columns_free(col, ncol);
		return;
	}
	fputs(p->no_index ? "" : "over: ", f);
	for (int i = 0; i < ncol; i++)
		fprintf(f, "%9llu ", (unsigned long long)(col[i].c->count - col[i].in_range));
	fputc('\n', f);
	if (!p->no_summary)
		print_summary(f, p, col, ncol);
	noise_print_missed(f, run);
	columns_free(col, ncol);
}

/* ---- the JSON record ------------------------------------------------------------ */

static const struct {
	const char *key;
	unsigned per_10000;
} percentiles[] = {
	{ "p50_us", 5000 }, { "p90_us", 9000 }, { "p99_us", 9900 }, { "p999_us", 9990 },
	{ "p9999_us", 9999 },
};

#define NR_PERCENTILES ARRAY_SIZE(percentiles)

static void json_no_samples(struct json *j, const struct hist_cpu *c)
{
	json_null(j, "min_us");
	json_null(j, "avg_us");
	json_null(j, "max_us");
	for (size_t i = 0; i < NR_PERCENTILES; i++)
		json_null(j, percentiles[i].key);
	json_u64(j, "over_count", 0);
	json_array_begin(j, "buckets");
	json_array_end(j);
	json_str(j, "reason", c->periods ? "no noise at or above the threshold"
					 : "no period of this CPU was measured");
}

static void json_samples(struct json *j, const struct noise_params *p, const struct hist_cpu *c,
			 const struct hist_slot *s, size_t n)
{
	uint64_t bs = p->bucket_us, over = 0;
	char pair[64];

	json_double(j, "min_us", c->min_ns / 1000.0, 3);
	json_double(j, "avg_us", (double)c->sum_ns / c->count / 1000.0, 3);
	json_double(j, "max_us", c->max_ns / 1000.0, 3);
	for (size_t i = 0; i < NR_PERCENTILES; i++)
		json_u64(j, percentiles[i].key,
			 noise_hist_percentile(s, n, c->count, percentiles[i].per_10000));
	for (size_t i = 0; i < n; i++)
		if (s[i].us / bs >= (uint64_t)p->entries)
			over += s[i].count;
	json_u64(j, "over_count", over);
	/* the text's non-empty rows, each one [index_us, count] on a line */
	json_array_begin(j, "buckets");
	for (size_t i = 0; i < n && s[i].us / bs < (uint64_t)p->entries; ) {
		uint64_t b = s[i].us / bs, k = 0;

		for (; i < n && s[i].us / bs == b; i++)
			k += s[i].count;
		snprintf(pair, sizeof(pair), "[%llu, %llu]", (unsigned long long)(b * bs),
			 (unsigned long long)k);
		json_raw(j, NULL, pair);
	}
	json_array_end(j);
}

void noise_hist_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	const struct noise_hist *h = run->hist;
	bool coarse = false;

	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		coarse |= h->cpu[cpu].coarse;
	json_object_begin(j, "histogram");
	json_str(j, "unit", "us");
	json_i64(j, "bucket_size_us", p->bucket_us);
	json_i64(j, "entries", p->entries);
	/* how exact min_us and max_us are: to the ns, or (counted by the kernel) to the us */
	json_i64(j, "resolution_ns", coarse ? 1000 : 1);
	json_object_end(j);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct hist_cpu *c = &h->cpu[cpu];
		struct hist_slot *s;
		size_t n;

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		json_u64(j, "periods", c->periods);
		json_u64(j, "count", c->count);
		s = noise_hist_sorted(h, cpu, &n);
		if (s)
			json_samples(j, p, c, s, n);
		else
			json_no_samples(j, c);
		free(s);
		json_object_end(j);
	}
	json_array_end(j);
}

/* ---- the tool: osnoise hist's options, usage and row ---------------------------- */

#define HIST_SYNOPSIS \
	"[-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\\n" \
	"	  [-T us] [-t [file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>] \\\n" \
	"	  [-c cpu-list] [-H cpu-list] [-P priority] [-b N] [-E N] [--no-header] [--no-summary] \\\n" \
	"	  [--no-index] [--with-zeros] [-C [cgroup_name]] "

/* upstream's bytes: "[--warm-up]" without its argument (its option line says "s") */
const char noise_hist_synopsis[] = HIST_SYNOPSIS "[--warm-up]";
/* hwnoise hist is ours: its usage names the argument */
const char noise_hist_synopsis_ours[] = HIST_SYNOPSIS "[--warm-up s]";

static void hist_usage(FILE *f)
{
	noise_usage(f, &osnoise_hist_cli, "osnoise hist", "a per-cpu histogram of the OS noise",
		    noise_hist_synopsis);
}

const struct cli_spec osnoise_hist_cli = {
	.command = "osnoise hist",
	.options = noise_hist_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hist_usage,
};

const struct noise_tool osnoise_hist_tool = {
	.name = "osnoise hist",
	.title = "RTLA osnoise histogram",
	.cli = &osnoise_hist_cli,
	.gate_tool = GATE_OSNOISE_HIST,
	.os_columns = true,
	.period_us = NOISE_PERIOD_US,
	NOISE_HIST_SINK_AND_PRINTERS,
};

uint64_t *noise_buckets_new(const struct noise_params *p)
{
	return calloc(p->entries + 1, sizeof(uint64_t));
}

void noise_buckets_count(const struct noise_params *p, uint64_t *bucket, uint64_t v)
{
	uint64_t b = v / p->bucket_us;

	bucket[b < (uint64_t)p->entries ? b : (uint64_t)p->entries]++;
}

void noise_buckets_json(struct json *j, const char *name, const struct noise_params *p,
			const uint64_t *bucket)
{
	json_object_begin(j, name);
	json_array_begin(j, "buckets");
	for (long long b = 0; b < p->entries; b++) {
		if (!bucket[b])
			continue;
		json_array_begin(j, NULL);
		json_i64(j, NULL, b * p->bucket_us);
		json_u64(j, NULL, bucket[b]);
		json_array_end(j);
	}
	json_array_end(j);
	json_u64(j, "over", bucket[p->entries]);
	json_object_end(j);
}

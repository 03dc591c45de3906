// SPDX-License-Identifier: GPL-2.0-only
/*
 * hist - `rtla timerlat hist`'s histogram, byte for byte as upstream
 * prints it: a column per context of every measured CPU that saw an IRQ or
 * thread latency, a row per bucket with something in it (every row with
 * --with-zeros), "over", then count/min/avg/max per column and over all
 * CPUs. The sink is top.c's; min, avg and max are exact, in the display
 * unit, not bucket floors.
 */
#include <stdio.h>

#include "json.h"
#include "osnoise/hist.h"
#include "osnoise/top.h"
#include "timerlat/timerlat.h"

/* The columns of one CPU, in upstream's order: IRQ, Thr, Usr. */
static int columns(const struct noise_params *p, enum timerlat_context *cols)
{
	int n = 0;

	if (!p->no_irq)
		cols[n++] = TL_IRQ;
	if (!p->no_thread)
		cols[n++] = TL_THREAD;
	if (timerlat_user_data(p))
		cols[n++] = TL_USER;
	return n;
}

/* "%9llu " or, where nothing was counted, a "-" in its place */
static void print_value(FILE *f, const struct timerlat_stats *s, uint64_t v)
{
	if (s->count)
		fprintf(f, "%9llu ", (unsigned long long)v);
	else
		fprintf(f, "%9c ", '-');
}

enum summary_row { ROW_COUNT, ROW_MIN, ROW_AVG, ROW_MAX };

static void print_summary_value(FILE *f, const struct timerlat_stats *s, enum summary_row row)
{
	switch (row) {
	case ROW_COUNT:
		fprintf(f, "%9llu ", (unsigned long long)s->count);
		break;
	case ROW_MIN:
		print_value(f, s, s->min);
		break;
	case ROW_AVG:
		print_value(f, s, s->count ? s->sum / s->count : 0);
		break;
	case ROW_MAX:
		print_value(f, s, s->max);
		break;
	}
}

static const char *const row_names[] = { "count:", "min:  ", "avg:  ", "max:  " };

static void print_summary(FILE *f, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	enum timerlat_context cols[TL_CONTEXTS];
	struct timerlat_stats all[TL_CONTEXTS];
	int n = columns(p, cols);

	for (int row = ROW_COUNT; row <= ROW_MAX; row++) {
		if (!p->no_index)
			fputs(row_names[row], f);
		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; timerlat_cpu_shown(run, cpu) && i < n; i++)
				print_summary_value(f, &run->latency->cpu[cpu].ctx[cols[i]], row);
		fputc('\n', f);
	}

	timerlat_sum_cpus(run, all);
	if (!p->no_index)
		fputs("ALL:  ", f);
	for (int i = 0; i < n; i++)
		fputs(cols[i] == TL_IRQ ? "      IRQ" : cols[i] == TL_THREAD ? "       Thr" : "       Usr",
		      f);
	fputc('\n', f);
	for (int row = ROW_COUNT; row <= ROW_MAX; row++) {
		if (!p->no_index)
			fputs(row_names[row], f);
		for (int i = 0; i < n; i++)
			print_summary_value(f, &all[cols[i]], row);
		fputc('\n', f);
	}
}

void timerlat_hist_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;
	enum timerlat_context cols[TL_CONTEXTS];
	int n = columns(p, cols);
	char duration[32];

	if (!p->no_header) {
		noise_format_duration(now - run->start_time, duration, sizeof(duration));
		fprintf(f, "# RTLA timerlat histogram\n# Time unit is %s\n# Duration: %s\n",
			p->nano ? "nanoseconds (ns)" : "microseconds (us)", duration);
		if (run->latency->sampled)	/* not the tracer's quantities */
			fprintf(f, "# Sampler backend: %sThr at the clock read after the wake-up\n",
				p->no_irq ? "" : "IRQ at hrtimer_expire_entry, ");
		if (!p->no_index)
			fputs("Index", f);
		for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
			for (int i = 0; timerlat_cpu_shown(run, cpu) && i < n; i++)
				fprintf(f, "   %s-%03d", cols[i] == TL_IRQ ? "IRQ" :
					cols[i] == TL_THREAD ? "Thr" : "Usr", cpu);
		}
		fputc('\n', f);
	}
	/* a row holds as many counts as there are columns: print it only when it has one */
	for (long long b = 0; b <= p->entries; b++) {
		uint64_t total = 0;

		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; timerlat_cpu_shown(run, cpu) && i < n; i++)
				total += run->latency->cpu[cpu].bucket[cols[i]][b];
		if (b < p->entries && !total && !p->with_zeros)
			continue;
		if (!p->no_index) {
			if (b < p->entries)
				fprintf(f, "%-6lld", b * p->bucket_us);
			else
				fputs("over: ", f);
		}
		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; timerlat_cpu_shown(run, cpu) && i < n; i++)
				fprintf(f, "%9llu ",
					(unsigned long long)run->latency->cpu[cpu].bucket[cols[i]][b]);
		fputc('\n', f);
	}
	if (!p->no_summary)
		print_summary(f, run);
	noise_print_missed(f, run);
}

void timerlat_hist_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;

	json_object_begin(j, "histogram");
	json_str(j, "unit", p->nano ? "ns" : "us");
	json_i64(j, "bucket_size", p->bucket_us);
	json_i64(j, "entries", p->entries);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		for (int x = 0; x < TL_CONTEXTS; x++) {
			if (x == TL_USER && !timerlat_user_data(p))
				continue;
			noise_buckets_json(j, timerlat_context_names[x], p,
					   run->latency->cpu[cpu].bucket[x]);
		}
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
	timerlat_top_json(j, run);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * top - the sink timerlat top and hist share, and `rtla timerlat top`'s
 * table as upstream prints it (scripts parse it: every space matters),
 * with the record's per-CPU figures and what --fail-if reads.
 *
 * Each latency is folded into its CPU and context: count, last, min, max,
 * sum in ns (top divides at print time, as upstream's top); hist also
 * buckets it in the display unit and counts it by whole us, so that the
 * percentiles are exact to the us whatever -b and -E say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "osnoise/hist.h"
#include "osnoise/top.h"
#include "timerlat/timerlat.h"
#include "util.h"

#define PER_US_MAX	(10 * 1000 * 1000)	/* 10 s: longer latencies count as 10 s */

const char *const timerlat_context_names[TL_CONTEXTS] = { "irq", "thread", "user" };

/* the percentiles of hist's record and gate, in 1/10000 */
static const unsigned percentiles[] = { 5000, 9000, 9900, 9990, 9999 };

void timerlat_sink_sampled(struct noise_run *run, bool irq_known)
{
	run->latency->sampled = true;
	run->latency->no_irq = !irq_known;
	if (!irq_known && run->latency->hist)
		run->params->no_irq = true;	/* hist: the column goes, as with --no-irq */
}

int timerlat_sink_new(struct noise_run *run)
{
	const struct noise_params *p = run->params;
	struct timerlat_data *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	run->latency = d;
	d->hist = run->tool->print_live == NULL;
	d->divisor = p->nano ? 1 : 1000;
	d->cpu = calloc(p->nr_cpus, sizeof(*d->cpu));
	if (!d->cpu)
		return -ENOMEM;
	for (int c = 0; d->hist && c < TL_CONTEXTS; c++)
		if (!(d->per_us[c] = noise_hist_new(p->nr_cpus)))
			return -ENOMEM;
	for (int cpu = 0; d->hist && cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		for (int c = 0; c < TL_CONTEXTS; c++) {
			d->cpu[cpu].bucket[c] = noise_buckets_new(p);
			if (!d->cpu[cpu].bucket[c])
				return -ENOMEM;
		}
	}
	return 0;
}

void timerlat_sink_free(struct noise_run *run)
{
	struct timerlat_data *d = run->latency;

	if (!d)
		return;
	for (int cpu = 0; d->cpu && cpu < run->params->nr_cpus; cpu++) {
		for (int c = 0; c < TL_CONTEXTS; c++)
			free(d->cpu[cpu].bucket[c]);
	}
	for (int c = 0; c < TL_CONTEXTS; c++)
		noise_hist_free(d->per_us[c]);
	free(d->cpu);
	free(d);
	run->latency = NULL;
}

void timerlat_add_latency(struct noise_run *run, int cpu, enum timerlat_context context,
			  uint64_t seq, uint64_t ns)
{
	struct timerlat_data *d = run->latency;
	struct timerlat_cpu *c = &d->cpu[cpu];
	struct timerlat_stats *s = &c->ctx[context];
	uint64_t v = ns;

	if (!CPU_ISSET(cpu, &run->params->cpus))
		return;
	if (d->hist) {
		/* upstream's hist works in the display unit from the start */
		v = ns / d->divisor;
		noise_buckets_count(run->params, c->bucket[context], v);
		/* the percentiles miss a latency the map found no memory for; nothing else does */
		noise_hist_add(d->per_us[context], cpu,
			       ns < PER_US_MAX * 1000ull ? ns : (PER_US_MAX - 1) * 1000ull);
	}
	if (!s->count) {
		s->min = v;
		s->seq_first = seq;
	}
	if (v < s->min)
		s->min = v;
	s->seq_last = seq;
	if (v > s->max)
		s->max = v;
	s->count++;
	s->cur = v;
	s->sum += v;
}

uint64_t timerlat_percentile_us(const struct timerlat_data *d, int cpu,
				enum timerlat_context context, unsigned per_10000)
{
	const struct noise_hist *h = d->per_us[context];
	struct hist_slot *sorted;
	uint64_t p;
	size_t n;

	if (!h || cpu < 0 || cpu >= h->nr_cpus)
		return 0;
	sorted = noise_hist_sorted(h, cpu, &n);
	p = noise_hist_percentile(sorted, n, h->cpu[cpu].count, per_10000);
	free(sorted);
	return p;
}

static const char no_value[] = "        -";

static void print_header(FILE *f, const struct noise_run *run, time_t now)
{
	bool user = timerlat_user_data(run->params);
	const char *unit = run->params->nano ? "ns" : "us";
	char duration[32];

	noise_format_duration(now - run->start_time, duration, sizeof(duration));
	if (run->latency->sampled)	/* not the tracer's quantities: say which they are */
		fprintf(f, "%9sTimer Latency, sampler backend: %sThread at the clock read after "
			"the wake-up\n", "", run->latency->no_irq ? "no IRQ column (no trace events), "
			: "IRQ at hrtimer_expire_entry, ");
	else
		fprintf(f, "%37sTimer Latency%46s%*s\n", "", "", user ? 41 : 0, "");
	fprintf(f, "%-6s   |          IRQ Timer Latency (%s)        |         Thread Timer Latency (%s)",
		duration, unit, unit);
	if (user)
		fprintf(f, "      |    Ret user Timer Latency (%s)", unit);
	fputs("\nCPU COUNT      |      cur       min       avg       max |      cur       min       avg"
	      "       max", f);
	if (user)
		fputs(" |      cur       min       avg       max", f);
	fputc('\n', f);
}

/* cur (unless NULL: the ALL row has none), min, avg, max; the last without its space */
static void print_block(FILE *f, const struct timerlat_stats *s, uint64_t div, bool cur)
{
	if (cur)
		fprintf(f, "%9llu ", (unsigned long long)(s->cur / div));
	else
		fputs("          ", f);
	fprintf(f, "%9llu %9llu %9llu", (unsigned long long)(s->min / div),
		(unsigned long long)(s->sum / s->count / div), (unsigned long long)(s->max / div));
}

static void print_cpu(FILE *f, const struct noise_run *run, int cpu)
{
	const struct timerlat_cpu *c = &run->latency->cpu[cpu];
	uint64_t div = run->latency->divisor;

	/* without IRQ latencies (a sampler without events) the count is the thread's */
	fprintf(f, "%3d #%-9llu |", cpu, (unsigned long long)c->ctx[run->latency->no_irq ?
									TL_THREAD : TL_IRQ].count);
	if (c->ctx[TL_IRQ].count)
		print_block(f, &c->ctx[TL_IRQ], div, true);
	else
		fprintf(f, "%s %s %s %s", no_value, no_value, no_value, no_value);
	fputs(" |", f);
	if (c->ctx[TL_THREAD].count)
		print_block(f, &c->ctx[TL_THREAD], div, true);
	else
		fprintf(f, "%s %s %s %s", no_value, no_value, no_value, no_value);
	if (timerlat_user_data(run->params)) {
		fputs(" |", f);
		if (c->ctx[TL_USER].count)
			print_block(f, &c->ctx[TL_USER], div, true);
		else
			fprintf(f, "%s %s %s %s", no_value, no_value, no_value, no_value);
	}
	fputc('\n', f);
}

/*
 * The ALL row: every measured CPU together, the count in at most six
 * digits and an exponent. Upstream's empty blocks differ from each other
 * (and an empty user block ends the line without a newline, which glues the
 * stop line to it): the widths are kept, the newline is always written.
 */
bool timerlat_cpu_shown(const struct noise_run *run, int cpu)
{
	const struct timerlat_cpu *c = &run->latency->cpu[cpu];

	return CPU_ISSET(cpu, &run->params->cpus) &&
	       (c->ctx[TL_IRQ].count || c->ctx[TL_THREAD].count);
}

void timerlat_sum_cpus(const struct noise_run *run, struct timerlat_stats all[TL_CONTEXTS])
{
	memset(all, 0, TL_CONTEXTS * sizeof(*all));
	for (int cpu = 0; cpu < run->params->nr_cpus; cpu++) {
		for (int x = 0; timerlat_cpu_shown(run, cpu) && x < TL_CONTEXTS; x++) {
			const struct timerlat_stats *s = &run->latency->cpu[cpu].ctx[x];

			if (!s->count)
				continue;
			if (!all[x].count || s->min < all[x].min)
				all[x].min = s->min;
			if (s->max > all[x].max)
				all[x].max = s->max;
			all[x].count += s->count;
			all[x].sum += s->sum;
		}
	}
}

static void print_all(FILE *f, const struct noise_run *run)
{
	struct timerlat_stats all[TL_CONTEXTS];
	const char *dashes = "----------------------------------------";
	uint64_t div = run->latency->divisor, count;
	bool user = timerlat_user_data(run->params);
	int e = 0;

	timerlat_sum_cpus(run, all);
	if (!all[TL_IRQ].count && !all[TL_THREAD].count)
		return;
	for (count = all[run->latency->no_irq ? TL_THREAD : TL_IRQ].count; count > 999999; count /= 10)
		e++;
	fprintf(f, "%.15s|%.40s|%.39s%s%.*s\n", dashes, dashes, dashes, user ? "-|" : "",
		user ? 39 : 0, dashes);
	fprintf(f, "ALL #%-6llu e%d |", (unsigned long long)count, e);
	if (all[TL_IRQ].count)
		print_block(f, &all[TL_IRQ], div, false);
	else
		fprintf(f, "          %s %s %s", no_value, no_value, no_value);
	fputs(" |", f);
	if (all[TL_THREAD].count)
		print_block(f, &all[TL_THREAD], div, false);
	else
		fprintf(f, "%s %s %s %s", no_value, no_value, no_value, no_value);
	if (user) {
		fputs(" |", f);
		if (all[TL_USER].count)
			print_block(f, &all[TL_USER], div, false);
		else
			fprintf(f, "          %s %s %s |", no_value, no_value, no_value);
	}
	fputc('\n', f);
}

void timerlat_top_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;

	if (p->aa_only)
		return;
	print_header(f, run, now);
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (timerlat_cpu_shown(run, cpu))
			print_cpu(f, run, cpu);
	print_all(f, run);
	noise_print_missed(f, run);
}

/*
 * What stays on the screen: the last table; with --aa-only none, and when
 * nothing stopped the run, the largest latency the tracer saw (upstream's
 * line, with the file's own newline).
 */
void timerlat_top_print_final(FILE *f, const struct noise_run *run, time_t now)
{
	if (run->params->aa_only && !run->stop_hit && run->max_latency)
		fprintf(f, "  Max latency was %s\n", run->max_latency);
	timerlat_top_print(f, run, now);
}

/* One context's exact figures in ns: null where it measured nothing. */
static void json_context(struct json *j, const struct timerlat_data *d, int cpu,
			 enum timerlat_context x)
{
	const struct timerlat_cpu *c = &d->cpu[cpu];
	bool hist = d->hist;
	uint64_t div = d->divisor;
	static const char *const pct_keys[] = { "p50_us", "p90_us", "p99_us", "p999_us",
						"p9999_us" };
	const struct timerlat_stats *s = &c->ctx[x];

	json_object_begin(j, timerlat_context_names[x]);
	json_u64(j, "count", s->count);
	/* which of the tracer's activations they were: a raw trace of the run can be cut to them */
	if (s->count) {
		json_u64(j, "seq_first", s->seq_first);
		json_u64(j, "seq_last", s->seq_last);
	} else {
		json_null(j, "seq_first");
		json_null(j, "seq_last");
	}
	if (!s->count) {
		json_null(j, "min_ns");
		json_null(j, "avg_ns");
		json_null(j, "max_ns");
	} else if (hist) {
		/* hist keeps them in its display unit */
		json_u64(j, "min_ns", s->min * div);
		json_double(j, "avg_ns", (double)s->sum * div / s->count, 1);
		json_u64(j, "max_ns", s->max * div);
	} else {
		json_u64(j, "min_ns", s->min);
		json_double(j, "avg_ns", (double)s->sum / s->count, 1);
		json_u64(j, "max_ns", s->max);
	}
	for (size_t i = 0; hist && i < ARRAY_SIZE(percentiles); i++) {
		if (s->count)
			json_u64(j, pct_keys[i], timerlat_percentile_us(d, cpu, x, percentiles[i]));
		else
			json_null(j, pct_keys[i]);
	}
	json_object_end(j);
}

/* Both tools' per-CPU part of the record: each context's exact figures. */
void timerlat_top_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	const struct timerlat_data *d = run->latency;

	json_str(j, "workload", d->sampled ? "sampler" : p->workload == TL_WORKLOAD_KERNEL ? "kernel" :
				p->workload == TL_WORKLOAD_USER ? "user" : "user-load");
	json_i64(j, "period_us", p->period_us);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		for (int x = 0; x < TL_CONTEXTS; x++)
			if (x != TL_USER || timerlat_user_data(p))
				json_context(j, d, cpu, x);
		json_object_end(j);
	}
	json_array_end(j);
	timerlat_analysis_json(j, run);
}

/* --fail-if: per context max, avg, min and count in us; hist adds the percentiles. */
void timerlat_gate_figures(const struct noise_run *run, int cpu, struct gate_figures *f)
{
	const struct timerlat_data *d = run->latency;
	const struct timerlat_cpu *c = &d->cpu[cpu];
	/* in us: hist holds the display unit, top ns */
	double to_us = d->hist ? d->divisor / 1000.0 : 1 / 1000.0;

	for (int x = 0; x < TL_CONTEXTS; x++) {
		const struct timerlat_stats *s = &c->ctx[x];

		if (x == TL_USER && !timerlat_user_data(run->params))
			continue;
		f->measured |= s->count > 0;
		f->have[GATE_TL_COUNT + x] = true;
		f->v[GATE_TL_COUNT + x] = s->count;
		if (!s->count)
			continue;	/* no latency: not measured, which fails a limit on it */
		f->have[GATE_TL_MAX + x] = f->have[GATE_TL_AVG + x] = f->have[GATE_TL_MIN + x] = true;
		f->v[GATE_TL_MAX + x] = s->max * to_us;
		f->v[GATE_TL_MIN + x] = s->min * to_us;
		f->v[GATE_TL_AVG + x] = (double)s->sum / s->count * to_us;
		for (int i = 0; d->hist && i < (int)ARRAY_SIZE(percentiles); i++) {
			f->have[GATE_TL_P50 + 3 * i + x] = true;
			f->v[GATE_TL_P50 + 3 * i + x] = timerlat_percentile_us(d, cpu, x, percentiles[i]);
		}
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * gate - the --fail-if criteria: their parser, the per-CPU figures they are
 * checked against, the verdict and its one-line summary.
 *
 * The parser is strict for the reason the other option parsers are: a gate
 * that misreads its limit passes silently. Every time takes an explicit or
 * implied unit (us), a percentage may carry "%", a count is a whole number.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "osnoise/gate.h"
#include "osnoise/hist.h"
#include "osnoise/osnoise.h"
#include "osnoise/top.h"
#include "util.h"

/* the noise tools, which measure noise: top's totals on every one, hist's samples on two */
#define NOISE_TOOLS	(GATE_OSNOISE_TOP | GATE_OSNOISE_HIST | GATE_HWNOISE_TOP | GATE_HWNOISE_HIST)
#define NOISE_HISTS	(GATE_OSNOISE_HIST | GATE_HWNOISE_HIST)
#define IRQS_ON		(GATE_OSNOISE_TOP | GATE_OSNOISE_HIST)	/* hwnoise runs with IRQs off */
#define TIMERLAT	(GATE_TIMERLAT_TOP | GATE_TIMERLAT_HIST)
#define HWLAT		(GATE_HWLAT_TOP | GATE_HWLAT_HIST)

/* a timerlat metric of each context: irq, thread and user, in that order */
#define TL_CONTEXTS(id, fmt, unit, tools, help) \
	[id] = { fmt("irq"), unit, tools, help " in the timer's IRQ." }, \
	[id + 1] = { fmt("thread"), unit, tools, help " when the thread ran." }, \
	[id + 2] = { fmt("user"), unit, tools, help " back in user space (-u, -U)." }
#define TL_MAX(c)	c "_max_us"
#define TL_AVG(c)	c "_avg_us"
#define TL_MIN(c)	c "_min_us"
#define TL_COUNT(c)	c "_sample_count"
#define TL_P50(c)	"p50_" c "_us"
#define TL_P90(c)	"p90_" c "_us"
#define TL_P99(c)	"p99_" c "_us"
#define TL_P999(c)	"p999_" c "_us"
#define TL_P9999(c)	"p9999_" c "_us"

const struct gate_metric_info gate_metrics[GATE_NR_METRICS] = {
	[GATE_MAX_SINGLE] = { "max_single_us", GATE_UNIT_US, NOISE_TOOLS,
			      "Longest single noise seen on the CPU, in microseconds." },
	[GATE_MAX_NOISE] = { "max_noise_us", GATE_UNIT_US, NOISE_TOOLS,
			     "Noise of the noisiest period of the CPU, in microseconds." },
	[GATE_NOISE] = { "noise_us", GATE_UNIT_US, NOISE_TOOLS,
			 "All noise of the run on the CPU, in microseconds." },
	[GATE_AVAIL] = { "cpu_available_pct", GATE_UNIT_PCT, NOISE_TOOLS,
			 "Share of the runtime the measuring thread had the CPU, in percent." },
	[GATE_P50] = { "p50_us", GATE_UNIT_US, NOISE_HISTS,
		       "Median single noise (nearest rank, 1 us resolution)." },
	[GATE_P90] = { "p90_us", GATE_UNIT_US, NOISE_HISTS,
		       "90th percentile of single noises (nearest rank, 1 us resolution)." },
	[GATE_P99] = { "p99_us", GATE_UNIT_US, NOISE_HISTS,
		       "99th percentile of single noises (nearest rank, 1 us resolution)." },
	[GATE_P999] = { "p999_us", GATE_UNIT_US, NOISE_HISTS,
			"99.9th percentile of single noises (nearest rank, 1 us resolution)." },
	[GATE_P9999] = { "p9999_us", GATE_UNIT_US, NOISE_HISTS,
			 "99.99th percentile of single noises (nearest rank, 1 us resolution)." },
	[GATE_SAMPLES] = { "sample_count", GATE_UNIT_COUNT, NOISE_HISTS | HWLAT,
			   "Single noises (hwlat: samples, one a window at most) above the threshold." },
	[GATE_HW] = { "hw_count", GATE_UNIT_COUNT, NOISE_TOOLS,
		      "Noises no operating system activity explains (hardware)." },
	[GATE_NMI] = { "nmi_count", GATE_UNIT_COUNT, NOISE_TOOLS | HWLAT,
		       "Non-maskable interrupts that interfered." },
	[GATE_IRQ] = { "irq_count", GATE_UNIT_COUNT, IRQS_ON,
		       "Interrupts that interfered." },
	[GATE_SOFTIRQ] = { "softirq_count", GATE_UNIT_COUNT, IRQS_ON,
			   "Softirqs that interfered." },
	[GATE_THREAD] = { "thread_count", GATE_UNIT_COUNT, IRQS_ON,
			  "Threads that interfered." },
	TL_CONTEXTS(GATE_TL_MAX, TL_MAX, GATE_UNIT_US, TIMERLAT,
		    "Longest timer latency, in microseconds,"),
	TL_CONTEXTS(GATE_TL_AVG, TL_AVG, GATE_UNIT_US, TIMERLAT,
		    "Average timer latency, in microseconds,"),
	TL_CONTEXTS(GATE_TL_MIN, TL_MIN, GATE_UNIT_US, TIMERLAT,
		    "Shortest timer latency, in microseconds,"),
	TL_CONTEXTS(GATE_TL_COUNT, TL_COUNT, GATE_UNIT_COUNT, TIMERLAT,
		    "Timer latencies measured"),
	TL_CONTEXTS(GATE_TL_P50, TL_P50, GATE_UNIT_US, GATE_TIMERLAT_HIST,
		    "Median timer latency (nearest rank, 1 us resolution)"),
	TL_CONTEXTS(GATE_TL_P50 + 3, TL_P90, GATE_UNIT_US, GATE_TIMERLAT_HIST,
		    "90th percentile of timer latencies (nearest rank, 1 us resolution)"),
	TL_CONTEXTS(GATE_TL_P50 + 6, TL_P99, GATE_UNIT_US, GATE_TIMERLAT_HIST,
		    "99th percentile of timer latencies (nearest rank, 1 us resolution)"),
	TL_CONTEXTS(GATE_TL_P50 + 9, TL_P999, GATE_UNIT_US, GATE_TIMERLAT_HIST,
		    "99.9th percentile of timer latencies (nearest rank, 1 us resolution)"),
	TL_CONTEXTS(GATE_TL_P50 + 12, TL_P9999, GATE_UNIT_US, GATE_TIMERLAT_HIST,
		    "99.99th percentile of timer latencies (nearest rank, 1 us resolution)"),
	/* read by the driver for every tool, so every tool's row has it */
	[GATE_SMI] = { "smi_count", GATE_UNIT_COUNT, ~0u,
		       "System Management Interrupts during the run (MSR_SMI_COUNT)." },
	[GATE_HWLAT_MAX] = { "max_latency_us", GATE_UNIT_US, HWLAT,
			     "Longest hardware latency (inner or outer gap), in microseconds." },
	[GATE_HWLAT_INNER] = { "inner_max_us", GATE_UNIT_US, HWLAT,
			       "Longest gap between two reads of the clock, in microseconds." },
	[GATE_HWLAT_OUTER] = { "outer_max_us", GATE_UNIT_US, HWLAT,
			       "Longest gap between two loops of the reads, in microseconds." },
	[GATE_HWLAT_EXCEEDING] = { "exceeding_count", GATE_UNIT_COUNT, HWLAT,
				   "Loops whose gap was above the threshold." },
	[GATE_HWLAT_NMI_TIME] = { "nmi_total_us", GATE_UNIT_US, HWLAT,
				  "Time spent in NMIs during the samples, in microseconds." },
};

static const char *const op_names[] = {
	[GATE_GT] = ">", [GATE_GE] = ">=", [GATE_LT] = "<", [GATE_LE] = "<=",
	[GATE_EQ] = "==", [GATE_NE] = "!=",
};

const char *gate_op_str(enum gate_op op)
{
	return op_names[op];
}

bool gate_holds(enum gate_op op, double value, double limit)
{
	switch (op) {
	case GATE_GT: return value > limit;
	case GATE_GE: return value >= limit;
	case GATE_LT: return value < limit;
	case GATE_LE: return value <= limit;
	case GATE_EQ: return value == limit;
	case GATE_NE: return value != limit;
	}
	return false;
}

static int fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, PARSE_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *skip_space(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* ">=" before ">": the longest operator that matches. */
static int read_op(const char **s, enum gate_op *op)
{
	static const enum gate_op order[] = { GATE_GE, GATE_LE, GATE_EQ, GATE_NE, GATE_GT, GATE_LT };

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		size_t n = strlen(op_names[order[i]]);

		if (!strncmp(*s, op_names[order[i]], n)) {
			*op = order[i];
			*s += n;
			return 0;
		}
	}
	return -EINVAL;
}

/* Digits with at most one '.', no sign, no exponent: what a limit looks like. */
static int read_number(const char **s, double *v, bool *fraction)
{
	const char *p = *s;
	int digits = 0;

	*fraction = false;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p) || (*p == '.' && !*fraction)) {
		if (*p == '.')
			*fraction = true;
		else
			digits++;
		p++;
	}
	if (!digits || p[-1] == '.')
		return -EINVAL;
	*v = strtod(*s, NULL);
	*s = p;
	return 0;
}

static int unit_scale(enum gate_unit unit, const char *u, double *scale)
{
	static const struct { const char *name; double to_us; } times[] = {
		{ "", 1 }, { "us", 1 }, { "ns", 1e-3 }, { "ms", 1e3 }, { "s", 1e6 },
	};

	switch (unit) {
	case GATE_UNIT_US:
		for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
			if (!strcmp(u, times[i].name)) {
				*scale = times[i].to_us;
				return 0;
			}
		}
		return -EINVAL;
	case GATE_UNIT_PCT:
		*scale = 1;
		return strcmp(u, "") && strcmp(u, "%") ? -EINVAL : 0;
	case GATE_UNIT_COUNT:
		*scale = 1;
		return *u ? -EINVAL : 0;
	}
	return -EINVAL;
}

int gate_parse(struct gate_criteria *c, const char *expr, char *err)
{
	const struct gate_metric_info *info = NULL;
	struct gate_criterion cr = { 0 }, *items;
	const char *p = skip_space(expr), *name = p;
	char unit[16];
	size_t n = 0;
	bool fraction;
	double scale;

	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	if (!n)
		return fail(err, "'%s': expected METRIC OP VALUE, e.g. max_single_us>20", expr);
	for (int m = 0; m < GATE_NR_METRICS; m++) {
		if (strlen(gate_metrics[m].name) == n && !strncmp(name, gate_metrics[m].name, n)) {
			info = &gate_metrics[m];
			cr.metric = m;
		}
	}
	if (!info)
		return fail(err, "'%s': unknown metric '%.*s' (max_single_us, max_noise_us, noise_us, "
			    "cpu_available_pct, p50_us..p9999_us, *_count; timerlat: irq_max_us, "
			    "thread_avg_us, user_min_us, p99_irq_us, ...; hwlat: max_latency_us, "
			    "exceeding_count, ...)", expr, (int)n,
			    name);
	p = skip_space(p + n);
	if (read_op(&p, &cr.op))
		return fail(err, "'%s': expected an operator (>, >=, <, <=, ==, !=) after %s",
			    expr, info->name);
	p = skip_space(p);
	if (read_number(&p, &cr.limit, &fraction))
		return fail(err, "'%s': expected a number after %s%s", expr, info->name,
			    op_names[cr.op]);
	for (n = 0; (isalnum((unsigned char)p[n]) || p[n] == '%') && n < sizeof(unit) - 1; n++)
		unit[n] = p[n];
	unit[n] = '\0';
	if (*skip_space(p + n))
		return fail(err, "'%s': unexpected '%s' after the value", expr, skip_space(p + n));
	if (unit_scale(info->unit, unit, &scale))
		return fail(err, "'%s': %s takes %s, not '%s'", expr, info->name,
			    info->unit == GATE_UNIT_US ? "a time in ns, us, ms or s" :
			    info->unit == GATE_UNIT_PCT ? "a percentage" : "a whole number",
			    unit);
	if (info->unit == GATE_UNIT_COUNT && fraction)
		return fail(err, "'%s': %s takes a whole number", expr, info->name);
	if (info->unit == GATE_UNIT_PCT && cr.limit > 100)
		return fail(err, "'%s': a percentage is at most 100", expr);
	cr.limit *= scale;
	snprintf(cr.text, sizeof(cr.text), "%s %s %.10g", info->name, op_names[cr.op], cr.limit);

	items = realloc(c->items, (c->len + 1) * sizeof(*items));
	if (!items)
		return fail(err, "out of memory");
	c->items = items;
	c->items[c->len++] = cr;
	return 0;
}

void gate_criteria_free(struct gate_criteria *c)
{
	free(c->items);
	c->items = NULL;
	c->len = 0;
}

bool gate_asks(const struct gate_criteria *c, enum gate_metric m)
{
	for (int i = 0; i < c->len; i++)
		if (c->items[i].metric == m)
			return true;
	return false;
}

bool gate_metric_measured(const struct gate_metric_info *m, unsigned tool)
{
	return m->tools & tool;
}

int gate_check_tool(const struct gate_criteria *c, unsigned tool, char *err)
{
	for (int i = 0; i < c->len; i++) {
		const struct gate_metric_info *m = &gate_metrics[c->items[i].metric];

		if (gate_metric_measured(m, tool))
			continue;
		if (tool & HWLAT)
			return fail(err, "'%s': hwlat measures hardware latencies, no %s "
				    "(max_latency_us, inner_max_us, outer_max_us, sample_count, "
				    "exceeding_count, nmi_count, nmi_total_us)", c->items[i].text, m->name);
		if (m->tools == HWLAT)
			return fail(err, "'%s': %s is a hardware latency: use hwlat top or hwlat hist",
				    c->items[i].text, m->name);
		if ((m->tools & ~HWLAT) == NOISE_HISTS)
			return fail(err, "'%s': %s needs every single noise: use osnoise hist or "
				    "hwnoise hist", c->items[i].text, m->name);
		if (m->tools == IRQS_ON && (tool & NOISE_TOOLS))
			return fail(err, "'%s': hwnoise runs with interrupts off and counts no %s",
				    c->items[i].text, m->name);
		if (m->tools == GATE_TIMERLAT_HIST && (tool & TIMERLAT))
			return fail(err, "'%s': %s needs every latency: use timerlat hist",
				    c->items[i].text, m->name);
		if (m->tools & TIMERLAT)
			return fail(err, "'%s': %s is a timer latency: use timerlat top or timerlat "
				    "hist", c->items[i].text, m->name);
		return fail(err, "'%s': timerlat measures timer latencies, no %s (irq_max_us, "
			    "thread_max_us, user_max_us, *_avg_us, *_min_us, *_sample_count, "
			    "p99_irq_us ...)", c->items[i].text, m->name);
	}
	return 0;
}

static void set(struct gate_figures *f, enum gate_metric m, double v)
{
	f->have[m] = true;
	f->v[m] = v;
}

/* From the period totals: what top shows. */
static void figures_of_totals(const struct noise_cpu *c, bool os, struct gate_figures *f)
{
	if (!c->periods)
		return;
	f->measured = true;
	set(f, GATE_MAX_SINGLE, c->max_sample);
	set(f, GATE_MAX_NOISE, c->max_noise);
	set(f, GATE_NOISE, c->sum_noise);
	if (c->sum_runtime)
		set(f, GATE_AVAIL, noise_cpu_avail(c) / 100000.0);
	set(f, GATE_HW, c->hw);
	set(f, GATE_NMI, c->nmi);
	if (os) {
		set(f, GATE_IRQ, c->irq);
		set(f, GATE_SOFTIRQ, c->softirq);
		set(f, GATE_THREAD, c->thread);
	}
}

/* From hist's samples: exact maximum and percentiles (0 on a CPU with no noise). */
static void figures_of_hist(const struct noise_hist *h, int cpu, struct gate_figures *f)
{
	static const unsigned per_10000[] = { 5000, 9000, 9900, 9990, 9999 };
	const struct hist_cpu *c = &h->cpu[cpu];
	struct hist_slot *s;
	size_t n;

	if (!c->periods && !c->count)
		return;
	f->measured = true;
	set(f, GATE_SAMPLES, c->count);
	s = noise_hist_sorted(h, cpu, &n);
	for (int i = 0; i < 5; i++)
		if (s || !c->count)
			set(f, GATE_P50 + i, noise_hist_percentile(s, n, c->count, per_10000[i]));
	free(s);
	/* a sample longer than any period's maximum (the sampler's gaps) wins */
	if (c->count && (!f->have[GATE_MAX_SINGLE] || c->max_ns / 1000.0 > f->v[GATE_MAX_SINGLE]))
		set(f, GATE_MAX_SINGLE, c->max_ns / 1000.0);
}

void gate_figures(const struct noise_run *run, int cpu, struct gate_figures *f)
{
	const struct noise_cpu *totals = run->cpu ? run->cpu : run->totals;
	uint64_t smis;

	memset(f, 0, sizeof(*f));
	if (run->tool->gate_figures) {
		run->tool->gate_figures(run, cpu, f);
	} else {
		if (totals)
			figures_of_totals(&totals[cpu], run->tool->os_columns, f);
		if (run->hist)
			figures_of_hist(run->hist, cpu, f);
	}
	if (smi_counts_delta(&run->smi, cpu, &smis))
		set(f, GATE_SMI, smis);
}

uint64_t gate_lost(const struct noise_run *run)
{
	if (run->missed_events == UINT64_MAX || run->lost_samples == UINT64_MAX)
		return UINT64_MAX;
	return run->missed_events + run->lost_samples;
}

int gate_evaluate(const struct noise_run *run, const struct gate_criteria *c,
		  struct gate_verdict *v)
{
	const struct noise_params *p = run->params;

	memset(v, 0, sizeof(*v));
	v->first_failed = -1;
	v->lost = gate_lost(run);
	v->failed = c->len && v->lost;
	v->results = calloc((size_t)CPU_COUNT(&p->cpus) * (c->len ? c->len : 1), sizeof(*v->results));
	if (!v->results)
		return -ENOMEM;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		struct gate_figures f;
		bool cpu_failed = false;

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		v->nr_cpus++;
		gate_figures(run, cpu, &f);
		for (int i = 0; i < c->len; i++) {
			struct gate_result *r = &v->results[v->nr_results];
			enum gate_metric m = c->items[i].metric;

			*r = (struct gate_result){ .cpu = cpu, .criterion = i, .have = f.have[m],
						   .value = f.v[m] };
			r->failed = !r->have || gate_holds(c->items[i].op, r->value, c->items[i].limit);
			if (r->failed && v->first_failed < 0)
				v->first_failed = v->nr_results;
			v->failed |= r->failed;
			cpu_failed |= r->failed;
			v->nr_results++;
		}
		v->nr_cpus_failed += cpu_failed;
	}
	return 0;
}

void gate_verdict_free(struct gate_verdict *v)
{
	free(v->results);
	v->results = NULL;
}

void gate_value_str(enum gate_metric m, bool have, double value, char *buf, size_t len)
{
	if (!have)
		snprintf(buf, len, "n/a");
	else if (gate_metrics[m].unit == GATE_UNIT_PCT)
		snprintf(buf, len, "%.5f", value);
	else if (value == floor(value))
		snprintf(buf, len, "%.0f", value);
	else
		snprintf(buf, len, "%.3f", value);
}

void gate_summary(const struct gate_criteria *c, const struct gate_verdict *v, char *buf,
		  size_t len)
{
	const struct gate_result *r;
	const struct gate_criterion *cr;
	char value[32];

	if (v->failed && v->first_failed < 0) {
		if (v->lost == UINT64_MAX)
			snprintf(buf, len, "FAILED: an unknown number of events lost: the figures "
				 "are incomplete");
		else
			snprintf(buf, len, "FAILED: %llu events or samples lost: the figures are "
				 "incomplete", (unsigned long long)v->lost);
		return;
	}
	if (v->first_failed < 0) {
		snprintf(buf, len, "passed: %d criteri%s on %d CPU%s", c->len,
			 c->len == 1 ? "on" : "a", v->nr_cpus, v->nr_cpus == 1 ? "" : "s");
		return;
	}
	r = &v->results[v->first_failed];
	cr = &c->items[r->criterion];
	gate_value_str(cr->metric, r->have, r->value, value, sizeof(value));
	if (r->have)
		snprintf(buf, len, "FAILED: cpu %d %s %s %s %.10g; %d of %d CPUs passed", r->cpu,
			 gate_metrics[cr->metric].name, value, gate_op_str(cr->op), cr->limit,
			 v->nr_cpus - v->nr_cpus_failed, v->nr_cpus);
	else
		snprintf(buf, len, "FAILED: cpu %d %s not measured; "
			 "%d of %d CPUs passed", r->cpu, gate_metrics[cr->metric].name,
			 v->nr_cpus - v->nr_cpus_failed, v->nr_cpus);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gate - pass/fail criteria for CI latency gates (--fail-if) and the
 * per-CPU figures they, the JUnit file and the Prometheus file are made of.
 *
 * A criterion is "METRIC OP VALUE[UNIT]", e.g. "max_single_us>20",
 * "cpu_available_pct<99.99", "p99_us>=5us", "hw_count>0". It is checked on
 * every measured CPU once the run has ended (it never stops the run); a CPU
 * fails when METRIC OP VALUE holds, or when the metric could not be measured
 * on it: a gate must not pass on a CPU it knows nothing about.
 */
#ifndef RTLA_OSNOISE_GATE_H
#define RTLA_OSNOISE_GATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "parse.h"

struct noise_run;

enum gate_metric {
	GATE_MAX_SINGLE,	/* max_single_us: the longest single noise */
	GATE_MAX_NOISE,		/* max_noise_us: the noisiest period */
	GATE_NOISE,		/* noise_us: all noise of the run */
	GATE_AVAIL,		/* cpu_available_pct */
	GATE_P50, GATE_P90, GATE_P99, GATE_P999, GATE_P9999,	/* hist only */
	GATE_SAMPLES,		/* sample_count: hist only */
	GATE_HW, GATE_NMI,	/* hw_count, nmi_count */
	GATE_IRQ, GATE_SOFTIRQ, GATE_THREAD,	/* not hwnoise: IRQs are off there */
	/* timerlat: per context (irq, thread, user), the first of three in that order */
	GATE_TL_MAX = GATE_THREAD + 1,	/* irq_max_us, thread_max_us, user_max_us */
	GATE_TL_AVG = GATE_TL_MAX + 3,	/* *_avg_us */
	GATE_TL_MIN = GATE_TL_AVG + 3,	/* *_min_us */
	GATE_TL_COUNT = GATE_TL_MIN + 3,	/* *_sample_count */
	GATE_TL_P50 = GATE_TL_COUNT + 3,	/* p50_irq_us ..., then p90, p99, p999, p9999: hist */
	GATE_SMI = GATE_TL_P50 + 15,	/* smi_count: every tool (src/smi.h) */
	/* hwlat (also sample_count and nmi_count above) */
	GATE_HWLAT_MAX,			/* max_latency_us: the longest inner or outer gap */
	GATE_HWLAT_INNER,		/* inner_max_us */
	GATE_HWLAT_OUTER,		/* outer_max_us */
	GATE_HWLAT_EXCEEDING,		/* exceeding_count: loops over the threshold */
	GATE_HWLAT_NMI_TIME,		/* nmi_total_us */
	GATE_NR_METRICS
};

/* The tools, as bits: which measure a metric (gate_metric_info.tools). */
enum gate_tool {
	GATE_OSNOISE_TOP = 1 << 0,
	GATE_OSNOISE_HIST = 1 << 1,
	GATE_HWNOISE_TOP = 1 << 2,
	GATE_HWNOISE_HIST = 1 << 3,
	GATE_TIMERLAT_TOP = 1 << 4,
	GATE_TIMERLAT_HIST = 1 << 5,
	GATE_HWLAT_TOP = 1 << 6,
	GATE_HWLAT_HIST = 1 << 7,
};

enum gate_unit {
	GATE_UNIT_US,		/* a time: 20, 20us, 1500ns, 0.5ms, 1s */
	GATE_UNIT_PCT,		/* a percentage: 99.99 or 99.99% */
	GATE_UNIT_COUNT,	/* a plain whole number */
};

enum gate_op { GATE_GT, GATE_GE, GATE_LT, GATE_LE, GATE_EQ, GATE_NE };

struct gate_metric_info {
	const char *name;	/* as in EXPR, the JSON record and Prometheus */
	enum gate_unit unit;
	unsigned tools;		/* the tools that measure it (enum gate_tool) */
	const char *help;	/* the Prometheus HELP line */
};

extern const struct gate_metric_info gate_metrics[GATE_NR_METRICS];

struct gate_criterion {
	enum gate_metric metric;
	enum gate_op op;
	double limit;		/* in the metric's unit: us, %, count */
	char text[64];		/* "max_single_us > 20", for messages and JUnit */
};

struct gate_criteria {
	struct gate_criterion *items;
	int len;
};

/* Parse and append one EXPR; -EINVAL with a reason in err. */
int gate_parse(struct gate_criteria *c, const char *expr, char *err);
void gate_criteria_free(struct gate_criteria *c);
/* Does a criterion of C ask for M? */
bool gate_asks(const struct gate_criteria *c, enum gate_metric m);
/* Does TOOL (enum gate_tool) measure M? */
bool gate_metric_measured(const struct gate_metric_info *m, unsigned tool);
/* 0, or -EINVAL when a criterion asks for what TOOL does not measure. */
int gate_check_tool(const struct gate_criteria *c, unsigned tool, char *err);
const char *gate_op_str(enum gate_op op);
bool gate_holds(enum gate_op op, double value, double limit);

/* One CPU's figures; have[m] is false where the run did not measure m. */
struct gate_figures {
	bool measured;		/* at least one period completed */
	bool have[GATE_NR_METRICS];
	double v[GATE_NR_METRICS];
};

/* The figures of CPU in RUN (top's totals, or hist's samples and totals). */
void gate_figures(const struct noise_run *run, int cpu, struct gate_figures *f);

/* A criterion's outcome on one CPU. */
struct gate_result {
	int cpu;
	int criterion;		/* index in the criteria */
	bool failed;
	bool have;		/* false: not measured on that CPU, which fails it */
	double value;
};

/* What the gate found over the whole run (gate_evaluate). */
struct gate_verdict {
	struct gate_result *results;	/* CPUs in order, each with every criterion */
	int nr_results;
	int nr_cpus, nr_cpus_failed;
	int first_failed;		/* index into results, -1: no criterion failed */
	uint64_t lost;			/* gate_lost() */
	bool failed;			/* a criterion failed, or criteria met lost data */
};

/*
 * What the run lost: the tracer's missed events plus the sampler's dropped
 * gaps and periods; 0 when nothing, UINT64_MAX when some but not how many.
 * A gate does not pass on figures with holes in them.
 */
uint64_t gate_lost(const struct noise_run *run);

/* Evaluate the criteria on every measured CPU of RUN; -ENOMEM. */
int gate_evaluate(const struct noise_run *run, const struct gate_criteria *c,
		  struct gate_verdict *v);
void gate_verdict_free(struct gate_verdict *v);
/* "FAILED: cpu 3 max_single_us 37 > 20; 7 of 8 CPUs passed" or "passed: ..." */
void gate_summary(const struct gate_criteria *c, const struct gate_verdict *v, char *buf,
		  size_t len);
/* A value in its metric's unit as text: "37", "99.99812", "n/a". */
void gate_value_str(enum gate_metric m, bool have, double value, char *buf, size_t len);

/* The writers (gate_out.c): 0 or -errno; both write FILE.tmp and rename it. */
int gate_write_junit(const struct noise_run *run, const struct gate_criteria *c,
		     const struct gate_verdict *v, double elapsed_s, const char *path);
int gate_write_prometheus(const struct noise_run *run, const struct gate_criteria *c,
			  const struct gate_verdict *v, const char *path);
/* The same to a stream, for the unit tests. */
void gate_junit(FILE *f, const struct noise_run *run, const struct gate_criteria *c,
		const struct gate_verdict *v, double elapsed_s);
void gate_prometheus(FILE *f, const struct noise_run *run, const struct gate_criteria *c,
		     const struct gate_verdict *v);

#endif

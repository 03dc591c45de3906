// SPDX-License-Identifier: GPL-2.0-only
/*
 * gate_out - the gate for the consumers that exist: JUnit XML for CI
 * servers (GitLab, Jenkins: the schema in tests/fixtures/gates/junit.xsd)
 * and Prometheus text for node_exporter's textfile collector.
 *
 * Both files are written beside their destination as NAME.tmp and renamed
 * over it: a collector that scrapes while a run ends reads the last whole
 * file, never half of one. Prometheus wants base units, so the times go
 * out in seconds and the availability as a ratio (the names say so).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "osnoise/gate.h"
#include "osnoise/misconfig.h"
#include "osnoise/osnoise.h"
#include "output.h"
#include "rtconfig.h"
#include "util.h"

/* ---- JUnit ------------------------------------------------------------------ */

static void utc_stamp(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
}

/* "hwnoise" -> "rtla.hwnoise", "osnoise hist" -> "rtla.osnoise.hist" */
static void dotted(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "rtla.%s", name);
	for (char *p = buf; *p; p++)
		if (*p == ' ')
			*p = '.';
}

static void junit_property(FILE *f, const char *name, const char *value)
{
	fprintf(f, "      <property name=\"%s\" value=\"", name);
	xml_text(f, value ? value : "");
	fputs("\"/>\n", f);
}

static void junit_case(FILE *f, const char *classname, const char *name, const char *failure,
		       const char *detail)
{
	fprintf(f, "    <testcase classname=\"%s\" name=\"", classname);
	xml_text(f, name);
	if (!failure) {
		fputs("\" time=\"0\"/>\n", f);
		return;
	}
	fputs("\" time=\"0\">\n      <failure type=\"latency gate\" message=\"", f);
	xml_text(f, failure);
	fputs("\">", f);
	xml_text(f, detail);
	fputs("</failure>\n    </testcase>\n", f);
}

/* --require: a testcase per requirement, failed with the kernel's value where it does not hold */
static int junit_requirements(FILE *f, const struct noise_run *run, const char *classbase)
{
	char classname[96], name[64], failure[96];
	int n = 0;

	snprintf(classname, sizeof(classname), "%s.config", classbase);
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		const char *verdict = run->rtconfig ?
			rtconfig_verdict_name(run->rtconfig->items[i].verdict) : "unknown";

		if (!misconfig_required(run, i))
			continue;
		n++;
		if (!f)
			continue;
		snprintf(name, sizeof(name), "require %s", rtconfig_items[i].word);
		snprintf(failure, sizeof(failure), "misconfigured: %s is %s", rtconfig_items[i].name,
			 verdict);
		junit_case(f, classname, name, misconfig_holds(run, i) ? NULL : failure,
			   run->rtconfig ? run->rtconfig->items[i].value : "not read");
	}
	return n;
}

void gate_junit(FILE *f, const struct noise_run *run, const struct gate_criteria *c,
		const struct gate_verdict *v, double elapsed_s)
{
	char classbase[64], classname[96], stamp[32], name[128], failure[160], detail[256];
	int tests = c->len ? v->nr_results : v->nr_cpus, failures = 0;
	struct utsname u;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	for (int i = 0; i < v->nr_results; i++)
		failures += v->results[i].failed;
	dotted(run->tool->name, classbase, sizeof(classbase));
	tests += junit_requirements(NULL, run, classbase);
	for (int i = 0; i < RTC_NR_ITEMS; i++)
		failures += misconfig_required(run, i) && !misconfig_holds(run, i);
	utc_stamp(run->start_time, stamp, sizeof(stamp));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"rtla %s\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
		   "time=\"%.3f\">\n", run->tool->name, tests, failures, elapsed_s);
	fprintf(f, "  <testsuite name=\"rtla %s\" tests=\"%d\" failures=\"%d\" errors=\"0\" "
		   "skipped=\"0\" time=\"%.3f\" timestamp=\"%s\" hostname=\"", run->tool->name,
		tests, failures, elapsed_s, stamp);
	xml_text(f, u.nodename);
	fputs("\">\n    <properties>\n", f);
	junit_property(f, "backend", run->backend->name);
	junit_property(f, "kernel", u.release);
	for (int i = 0; i < c->len; i++)
		junit_property(f, "fail-if", c->items[i].text);
	fputs("    </properties>\n", f);

	/* a run without criteria still says which CPUs were measured at all */
	for (int cpu = 0; !c->len && cpu < run->params->nr_cpus; cpu++) {
		struct gate_figures fig;

		if (!CPU_ISSET(cpu, &run->params->cpus))
			continue;
		gate_figures(run, cpu, &fig);
		snprintf(classname, sizeof(classname), "%s.cpu%d", classbase, cpu);
		snprintf(failure, sizeof(failure), "cpu %d: %s", cpu,
			 run->tool->tracer == TRACER_TIMERLAT ? "no latency measured" :
			 run->tool->tracer == TRACER_HWLAT ? "not sampled" : "no period completed");
		junit_case(f, classname, "measured", fig.measured ? NULL : failure, failure);
	}
	for (int i = 0; i < v->nr_results; i++) {
		const struct gate_result *r = &v->results[i];
		const struct gate_criterion *cr = &c->items[r->criterion];
		const char *metric = gate_metrics[cr->metric].name;
		char value[32];

		gate_value_str(cr->metric, r->have, r->value, value, sizeof(value));
		snprintf(classname, sizeof(classname), "%s.cpu%d", classbase, r->cpu);
		snprintf(name, sizeof(name), "fail-if %s", cr->text);
		if (r->have)
			snprintf(failure, sizeof(failure), "cpu %d %s %s %s %.10g", r->cpu, metric,
				 value, gate_op_str(cr->op), cr->limit);
		else
			snprintf(failure, sizeof(failure), "cpu %d %s not measured", r->cpu, metric);
		snprintf(detail, sizeof(detail), "cpu=%d metric=%s value=%s limit=%.10g "
			 "fails_if=\"%s\"", r->cpu, metric, value, cr->limit, cr->text);
		junit_case(f, classname, name, r->failed ? failure : NULL, detail);
	}
	junit_requirements(f, run, classbase);
	fputs("  </testsuite>\n</testsuites>\n", f);
}

/* ---- Prometheus ------------------------------------------------------------- */

/*
 * timerlat's, per context: the three contexts of a metric share its name,
 * told apart by a context label (and its percentiles by a percentile label)
 */
#define TL_PROM(metric, name, scale, help) \
	{ metric, name, "context=\"irq\"", scale, help }, \
	{ metric + 1, name, "context=\"thread\"", scale, help }, \
	{ metric + 2, name, "context=\"user\"", scale, help }
#define TL_PROM_PCT(i, pct) \
	{ GATE_TL_P50 + 3 * (i), "rtla_timerlat_latency_percentile_seconds", \
	  "context=\"irq\",percentile=\"" pct "\"", 1e-6, TL_PCT_HELP }, \
	{ GATE_TL_P50 + 3 * (i) + 1, "rtla_timerlat_latency_percentile_seconds", \
	  "context=\"thread\",percentile=\"" pct "\"", 1e-6, TL_PCT_HELP }, \
	{ GATE_TL_P50 + 3 * (i) + 2, "rtla_timerlat_latency_percentile_seconds", \
	  "context=\"user\",percentile=\"" pct "\"", 1e-6, TL_PCT_HELP }
#define TL_PCT_HELP "Timer latency percentiles (nearest rank, 1 us resolution), in seconds."
#define NOISE_PCT_HELP "Single noise percentiles (nearest rank, 1 us resolution), in seconds."

/*
 * Each gate metric under its base-unit name; SCALE turns our unit into it.
 * Rows of one name are next to each other: the name's HELP and TYPE once.
 */
static const struct {
	enum gate_metric metric;
	const char *name;
	const char *labels;	/* told apart within a name: percentile="99", context="irq" */
	double scale;
	const char *help;	/* NULL: the gate metric's own */
} prom_metrics[] = {
	{ GATE_MAX_SINGLE, "rtla_noise_max_single_seconds", NULL, 1e-6,
	  "Longest single noise seen on the CPU, in seconds." },
	{ GATE_MAX_NOISE, "rtla_noise_max_period_noise_seconds", NULL, 1e-6,
	  "Noise of the noisiest period of the CPU, in seconds." },
	{ GATE_NOISE, "rtla_noise_run_noise_seconds", NULL, 1e-6,
	  "All noise of the run on the CPU, in seconds." },
	{ GATE_AVAIL, "rtla_noise_cpu_available_ratio", NULL, 1e-2,
	  "Share of the runtime the measuring thread had the CPU (0 to 1)." },
	{ GATE_P50, "rtla_noise_single_percentile_seconds", "percentile=\"50\"", 1e-6, NOISE_PCT_HELP },
	{ GATE_P90, "rtla_noise_single_percentile_seconds", "percentile=\"90\"", 1e-6, NOISE_PCT_HELP },
	{ GATE_P99, "rtla_noise_single_percentile_seconds", "percentile=\"99\"", 1e-6, NOISE_PCT_HELP },
	{ GATE_P999, "rtla_noise_single_percentile_seconds", "percentile=\"99.9\"", 1e-6,
	  NOISE_PCT_HELP },
	{ GATE_P9999, "rtla_noise_single_percentile_seconds", "percentile=\"99.99\"", 1e-6,
	  NOISE_PCT_HELP },
	{ GATE_SAMPLES, "rtla_noise_samples", NULL, 1, NULL },
	{ GATE_HW, "rtla_noise_hw_events", NULL, 1, NULL },
	{ GATE_NMI, "rtla_noise_nmi_events", NULL, 1, NULL },
	{ GATE_IRQ, "rtla_noise_irq_events", NULL, 1, NULL },
	{ GATE_SOFTIRQ, "rtla_noise_softirq_events", NULL, 1, NULL },
	{ GATE_THREAD, "rtla_noise_thread_events", NULL, 1, NULL },
	TL_PROM(GATE_TL_MAX, "rtla_timerlat_max_latency_seconds", 1e-6,
		"Longest timer latency of the context on the CPU, in seconds."),
	TL_PROM(GATE_TL_AVG, "rtla_timerlat_avg_latency_seconds", 1e-6,
		"Average timer latency of the context on the CPU, in seconds."),
	TL_PROM(GATE_TL_MIN, "rtla_timerlat_min_latency_seconds", 1e-6,
		"Shortest timer latency of the context on the CPU, in seconds."),
	TL_PROM(GATE_TL_COUNT, "rtla_timerlat_latencies", 1,
		"Timer latencies measured in the context on the CPU."),
	TL_PROM_PCT(0, "50"), TL_PROM_PCT(1, "90"), TL_PROM_PCT(2, "99"), TL_PROM_PCT(3, "99.9"),
	TL_PROM_PCT(4, "99.99"),
	{ GATE_SMI, "rtla_smi_events", NULL, 1, NULL },
	{ GATE_HWLAT_MAX, "rtla_hwlat_max_latency_seconds", NULL, 1e-6,
	  "Longest hardware latency (inner or outer gap) on the CPU, in seconds." },
	{ GATE_HWLAT_INNER, "rtla_hwlat_inner_max_seconds", NULL, 1e-6,
	  "Longest gap between two reads of the clock on the CPU, in seconds." },
	{ GATE_HWLAT_OUTER, "rtla_hwlat_outer_max_seconds", NULL, 1e-6,
	  "Longest gap between two loops of the reads on the CPU, in seconds." },
	{ GATE_HWLAT_EXCEEDING, "rtla_hwlat_exceeding_loops", NULL, 1, NULL },
	{ GATE_HWLAT_NMI_TIME, "rtla_hwlat_nmi_seconds", NULL, 1e-6,
	  "Time spent in NMIs during the samples on the CPU, in seconds." },
};

#define NR_PROM ARRAY_SIZE(prom_metrics)

static void prom_label_value(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', f);
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

/* {cpu="3",tool="hwnoise",backend="sampler",host="h"[,LABELS]}, cpu < 0 leaves it out */
static void prom_labels(FILE *f, const struct noise_run *run, const char *host, int cpu,
			const char *labels)
{
	fputc('{', f);
	if (cpu >= 0)
		fprintf(f, "cpu=\"%d\",", cpu);
	fputs("tool=\"", f);
	prom_label_value(f, run->tool->name);
	fprintf(f, "\",backend=\"%s\",host=\"", run->backend->name);
	prom_label_value(f, host);
	fputc('"', f);
	if (labels)
		fprintf(f, ",%s", labels);
	fputs("} ", f);
}

static void prom_head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The configuration's verdicts (1: ok), and with --require whether all held. */
static void prom_rtconfig(FILE *f, const struct noise_run *run, const char *host)
{
	char labels[96];
	bool any = false;

	if (!run->rtconfig)
		return;
	prom_head(f, "rtla_rt_config_ok",
		  "1 if the item of the real-time configuration is ok on the measured CPUs.");
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		snprintf(labels, sizeof(labels), "item=\"%s\",require=\"%s\"", rtconfig_items[i].name,
			 rtconfig_items[i].word);
		fputs("rtla_rt_config_ok", f);
		prom_labels(f, run, host, -1, labels);
		fprintf(f, "%d\n", run->rtconfig->items[i].verdict == RTC_OK);
		any |= misconfig_required(run, i);
	}
	if (!any)
		return;
	prom_head(f, "rtla_rt_config_requirements_met",
		  "1 if every --require word held at the start, 0 if the run is misconfigured.");
	fputs("rtla_rt_config_requirements_met", f);
	prom_labels(f, run, host, -1, NULL);
	fprintf(f, "%d\n", !misconfig_found(run));
}

void gate_prometheus(FILE *f, const struct noise_run *run, const struct gate_criteria *c,
		     const struct gate_verdict *v)
{
	const struct noise_params *p = run->params;
	struct gate_figures *fig = calloc(p->nr_cpus, sizeof(*fig));
	struct utsname u;

	if (!fig)
		return;
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (CPU_ISSET(cpu, &p->cpus))
			gate_figures(run, cpu, &fig[cpu]);

	for (size_t i = 0; i < NR_PROM; i++) {
		bool any = false;

		/* one HELP/TYPE per name, all its samples right after it */
		if (i && !strcmp(prom_metrics[i].name, prom_metrics[i - 1].name))
			continue;
		for (size_t k = i; k < NR_PROM && !strcmp(prom_metrics[k].name, prom_metrics[i].name); k++)
			for (int cpu = 0; cpu < p->nr_cpus; cpu++)
				any |= fig[cpu].have[prom_metrics[k].metric];
		if (!any)
			continue;
		prom_head(f, prom_metrics[i].name, prom_metrics[i].help ? prom_metrics[i].help :
			  gate_metrics[prom_metrics[i].metric].help);
		for (size_t k = i; k < NR_PROM && !strcmp(prom_metrics[k].name, prom_metrics[i].name); k++) {
			for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
				enum gate_metric m = prom_metrics[k].metric;

				if (!fig[cpu].have[m])
					continue;
				fputs(prom_metrics[k].name, f);
				prom_labels(f, run, u.nodename, cpu, prom_metrics[k].labels);
				fprintf(f, "%.10g\n", fig[cpu].v[m] * prom_metrics[k].scale);
			}
		}
	}

	/* timerlat and hwlat have no periods: their counts are latencies, samples */
	if (run->tool->tracer == TRACER_OSNOISE)
		prom_head(f, "rtla_noise_periods", "Measurement periods completed on the CPU.");
	for (int cpu = 0; cpu < p->nr_cpus && run->tool->tracer == TRACER_OSNOISE; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		fputs("rtla_noise_periods", f);
		prom_labels(f, run, u.nodename, cpu, NULL);
		fprintf(f, "%u\n", run->periods ? run->periods[cpu] : 0);
	}
	if (c->len) {
		prom_head(f, "rtla_gate_passed",
			  "1 if every --fail-if criterion passed on the CPU, 0 if one failed.");
		for (int i = 0; i < v->nr_results; i += c->len) {
			bool failed = false;

			for (int k = 0; k < c->len; k++)
				failed |= v->results[i + k].failed;
			fputs("rtla_gate_passed", f);
			prom_labels(f, run, u.nodename, v->results[i].cpu, NULL);
			fprintf(f, "%d\n", !failed);
		}
	}
	prom_rtconfig(f, run, u.nodename);
	prom_head(f, "rtla_noise_run_end_timestamp_seconds",
		  "When the run that wrote this file ended, in seconds since the epoch.");
	fputs("rtla_noise_run_end_timestamp_seconds", f);
	prom_labels(f, run, u.nodename, -1, NULL);
	fprintf(f, "%lld\n", (long long)time(NULL));
	free(fig);
}

/* ---- written whole: a temporary file renamed over PATH (fs_write_replace) --- */

struct gate_out_args {
	const struct noise_run *run;
	const struct gate_criteria *c;
	const struct gate_verdict *v;
	double elapsed_s;
};

static void junit_cb(FILE *f, const void *arg)
{
	const struct gate_out_args *a = arg;

	gate_junit(f, a->run, a->c, a->v, a->elapsed_s);
}

static void prometheus_cb(FILE *f, const void *arg)
{
	const struct gate_out_args *a = arg;

	gate_prometheus(f, a->run, a->c, a->v);
}

int gate_write_junit(const struct noise_run *run, const struct gate_criteria *c,
		     const struct gate_verdict *v, double elapsed_s, const char *path)
{
	struct gate_out_args a = { run, c, v, elapsed_s };

	return fs_write_replace(path, NULL, junit_cb, &a);
}

int gate_write_prometheus(const struct noise_run *run, const struct gate_criteria *c,
			  const struct gate_verdict *v, const char *path)
{
	struct gate_out_args a = { run, c, v, 0 };

	return fs_write_replace(path, NULL, prometheus_cb, &a);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gate - the --fail-if parser (every metric, operator, unit and the
 * malformed forms), the criteria over fake runs, the JUnit and Prometheus
 * writers on a known run, the CPU keywords on a fake /sys, and the JSON
 * reader rtla compare uses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "jsonread.h"
#include "cpuspec.h"
#include "osnoise/gate.h"
#include "osnoise/hist.h"
#include "osnoise/osnoise.h"
#include "osnoise/top.h"
#include "sysroot.h"
#include "tap.h"
#include "util.h"

static const struct noise_backend test_backend = { .name = "sampler" };

static void test_parse_valid(void)
{
	static const struct {
		const char *expr;
		enum gate_metric metric;
		enum gate_op op;
		double limit;
		const char *text;
	} good[] = {
		{ "max_single_us>20", GATE_MAX_SINGLE, GATE_GT, 20, "max_single_us > 20" },
		{ "max_noise_us>=100", GATE_MAX_NOISE, GATE_GE, 100, "max_noise_us >= 100" },
		{ "noise_us<5", GATE_NOISE, GATE_LT, 5, "noise_us < 5" },
		{ "cpu_available_pct<99.99", GATE_AVAIL, GATE_LT, 99.99, "cpu_available_pct < 99.99" },
		{ "cpu_available_pct<=99.5%", GATE_AVAIL, GATE_LE, 99.5, "cpu_available_pct <= 99.5" },
		{ "p50_us==3", GATE_P50, GATE_EQ, 3, "p50_us == 3" },
		{ "p90_us!=0", GATE_P90, GATE_NE, 0, "p90_us != 0" },
		{ "p99_us>5", GATE_P99, GATE_GT, 5, "p99_us > 5" },
		{ "p999_us>5us", GATE_P999, GATE_GT, 5, "p999_us > 5" },
		{ "p9999_us>1500ns", GATE_P9999, GATE_GT, 1.5, "p9999_us > 1.5" },
		{ "sample_count>1000", GATE_SAMPLES, GATE_GT, 1000, "sample_count > 1000" },
		{ "hw_count>0", GATE_HW, GATE_GT, 0, "hw_count > 0" },
		{ "nmi_count>2", GATE_NMI, GATE_GT, 2, "nmi_count > 2" },
		{ "irq_count>1000", GATE_IRQ, GATE_GT, 1000, "irq_count > 1000" },
		{ "softirq_count>10", GATE_SOFTIRQ, GATE_GT, 10, "softirq_count > 10" },
		{ "thread_count>10", GATE_THREAD, GATE_GT, 10, "thread_count > 10" },
		{ "max_single_us > 0.5ms", GATE_MAX_SINGLE, GATE_GT, 500, "max_single_us > 500" },
		{ "  max_single_us>1s  ", GATE_MAX_SINGLE, GATE_GT, 1e6, "max_single_us > 1000000" },
		{ "max_noise_us>0.25", GATE_MAX_NOISE, GATE_GT, 0.25, "max_noise_us > 0.25" },
		{ "cpu_available_pct<100", GATE_AVAIL, GATE_LT, 100, "cpu_available_pct < 100" },
	};
	char err[PARSE_ERR_MAX];

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct gate_criteria c = { 0 };
		int ret = gate_parse(&c, good[i].expr, err);

		if (!ok(!ret && c.len == 1, "'%s' parses", good[i].expr)) {
			printf("#   %s\n", err);
			continue;
		}
		ok(c.items[0].metric == good[i].metric && c.items[0].op == good[i].op &&
		   c.items[0].limit > good[i].limit - 1e-9 && c.items[0].limit < good[i].limit + 1e-9,
		   "'%s': metric, operator and limit", good[i].expr);
		is_str(c.items[0].text, good[i].text, "'%s' reads back", good[i].expr);
		gate_criteria_free(&c);
	}
}

static void test_parse_malformed(void)
{
	static const struct {
		const char *expr;
		const char *err;
	} bad[] = {
		{ "", "'': expected METRIC OP VALUE, e.g. max_single_us>20" },
		{ ">20", "'>20': expected METRIC OP VALUE, e.g. max_single_us>20" },
		{ "max_single>20", "'max_single>20': unknown metric 'max_single' (max_single_us, "
		  "max_noise_us, noise_us, cpu_available_pct, p50_us..p9999_us, *_count; timerlat: "
		  "irq_max_us, thread_avg_us, user_min_us, p99_irq_us, ...; hwlat: max_latency_us, "
		  "exceeding_count, ...)" },
		{ "max_single_us", "'max_single_us': expected an operator (>, >=, <, <=, ==, !=) "
		  "after max_single_us" },
		{ "max_single_us=20", "'max_single_us=20': expected an operator (>, >=, <, <=, ==, !=) "
		  "after max_single_us" },
		{ "max_single_us=>20", "'max_single_us=>20': expected an operator (>, >=, <, <=, ==, "
		  "!=) after max_single_us" },
		{ "max_single_us>", "'max_single_us>': expected a number after max_single_us>" },
		{ "max_single_us>-1", "'max_single_us>-1': expected a number after max_single_us>" },
		{ "max_single_us>+1", "'max_single_us>+1': expected a number after max_single_us>" },
		{ "max_single_us>.5", "'max_single_us>.5': expected a number after max_single_us>" },
		{ "max_single_us>5.", "'max_single_us>5.': expected a number after max_single_us>" },
		{ "max_single_us>1e3", "'max_single_us>1e3': max_single_us takes a time in ns, us, "
		  "ms or s, not 'e3'" },
		{ "max_single_us>20us5", "'max_single_us>20us5': max_single_us takes a time in ns, us, "
		  "ms or s, not 'us5'" },
		{ "max_single_us>20m", "'max_single_us>20m': max_single_us takes a time in ns, us, ms "
		  "or s, not 'm'" },
		{ "max_single_us>20%", "'max_single_us>20%': max_single_us takes a time in ns, us, ms "
		  "or s, not '%'" },
		{ "max_single_us>20 us", "'max_single_us>20 us': unexpected 'us' after the value" },
		{ "max_single_us>20>30", "'max_single_us>20>30': unexpected '>30' after the value" },
		{ "cpu_available_pct<99us", "'cpu_available_pct<99us': cpu_available_pct takes a "
		  "percentage, not 'us'" },
		{ "cpu_available_pct<100.5", "'cpu_available_pct<100.5': a percentage is at most 100" },
		{ "hw_count>0.5", "'hw_count>0.5': hw_count takes a whole number" },
		{ "hw_count>1us", "'hw_count>1us': hw_count takes a whole number, not 'us'" },
		{ "hw_count>1%", "'hw_count>1%': hw_count takes a whole number, not '%'" },
		{ "p99_us>5 5", "'p99_us>5 5': unexpected '5' after the value" },
	};
	char err[PARSE_ERR_MAX];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gate_criteria c = { 0 };

		is_int(gate_parse(&c, bad[i].expr, err), -EINVAL, "'%s' is refused", bad[i].expr);
		is_str(err, bad[i].err, "'%s': the reason", bad[i].expr);
		is_int(c.len, 0, "'%s': nothing added", bad[i].expr);
		gate_criteria_free(&c);
	}
}

static void test_check_tool(void)
{
	struct gate_criteria c = { 0 };
	char err[PARSE_ERR_MAX];

	gate_parse(&c, "p99_us>5", err);
	is_int(gate_check_tool(&c, GATE_OSNOISE_TOP, err), -EINVAL, "a percentile on top is refused");
	is_str(err, "'p99_us > 5': p99_us needs every single noise: use osnoise hist or hwnoise hist",
	       "and says where it is measured");
	is_int(gate_check_tool(&c, GATE_OSNOISE_HIST, err), 0, "on hist it is fine");
	gate_criteria_free(&c);
	gate_parse(&c, "irq_count>0", err);
	is_int(gate_check_tool(&c, GATE_HWNOISE_TOP, err), -EINVAL, "irq_count on hwnoise is refused");
	is_str(err, "'irq_count > 0': hwnoise runs with interrupts off and counts no irq_count",
	       "and says why");
	is_int(gate_check_tool(&c, GATE_OSNOISE_TOP, err), 0, "irq_count on osnoise top is fine");
	is_int(gate_check_tool(&c, GATE_TIMERLAT_TOP, err), -EINVAL, "irq_count on timerlat is refused");
	is_str(err, "'irq_count > 0': timerlat measures timer latencies, no irq_count (irq_max_us, "
	       "thread_max_us, user_max_us, *_avg_us, *_min_us, *_sample_count, p99_irq_us ...)",
	       "and says what timerlat measures");
	gate_criteria_free(&c);
	gate_parse(&c, "p99_thread_us>20", err);
	is_int(gate_check_tool(&c, GATE_TIMERLAT_HIST, err), 0, "a timerlat percentile on its hist");
	is_int(gate_check_tool(&c, GATE_TIMERLAT_TOP, err), -EINVAL, "not on its top");
	is_str(err, "'p99_thread_us > 20': p99_thread_us needs every latency: use timerlat hist",
	       "which says where it is");
	is_int(gate_check_tool(&c, GATE_OSNOISE_HIST, err), -EINVAL, "nor on osnoise hist");
	is_str(err, "'p99_thread_us > 20': p99_thread_us is a timer latency: use timerlat top or "
	       "timerlat hist", "which says it is timerlat's");
	gate_criteria_free(&c);
	gate_parse(&c, "user_max_us>=0.5ms", err);
	is_str(c.items[0].text, "user_max_us >= 500", "user_max_us takes a time");
	is_int(gate_check_tool(&c, GATE_TIMERLAT_TOP, err), 0, "on timerlat top");
	gate_criteria_free(&c);
}

static void test_ops(void)
{
	ok(gate_holds(GATE_GT, 21, 20) && !gate_holds(GATE_GT, 20, 20), ">");
	ok(gate_holds(GATE_GE, 20, 20) && !gate_holds(GATE_GE, 19, 20), ">=");
	ok(gate_holds(GATE_LT, 19, 20) && !gate_holds(GATE_LT, 20, 20), "<");
	ok(gate_holds(GATE_LE, 20, 20) && !gate_holds(GATE_LE, 21, 20), "<=");
	ok(gate_holds(GATE_EQ, 20, 20) && !gate_holds(GATE_EQ, 21, 20), "==");
	ok(gate_holds(GATE_NE, 21, 20) && !gate_holds(GATE_NE, 20, 20), "!=");
}

/* A finished top run (hwnoise) on 4 CPUs, 0-2 measured; CPU 2 completed no period. */
struct top_fixture {
	struct noise_params p;
	struct noise_run run;
	struct noise_cpu cpu[4];
	unsigned periods[4];
};

static void top_fixture_init(struct top_fixture *fx, const struct noise_tool *tool)
{
	memset(fx, 0, sizeof(*fx));
	fx->p.nr_cpus = 4;
	for (int cpu = 0; cpu < 3; cpu++)
		CPU_SET(cpu, &fx->p.cpus);
	fx->run.tool = tool;
	fx->run.params = &fx->p;
	fx->run.backend = &test_backend;
	fx->run.cpu = fx->cpu;
	fx->run.periods = fx->periods;
	fx->run.start_time = 1796300000;	/* 2026-12-03T12:13:20Z */
	fx->cpu[0] = (struct noise_cpu){ .periods = 10, .sum_runtime = 7500000, .sum_noise = 150,
					 .max_noise = 40, .max_sample = 12, .hw = 3, .nmi = 0 };
	fx->cpu[1] = (struct noise_cpu){ .periods = 10, .sum_runtime = 7500000, .sum_noise = 900,
					 .max_noise = 300, .max_sample = 37, .hw = 0, .nmi = 1 };
	fx->periods[0] = fx->periods[1] = 10;
}

static struct gate_criteria criteria(const char *a, const char *b)
{
	struct gate_criteria c = { 0 };
	char err[PARSE_ERR_MAX];

	if (a && gate_parse(&c, a, err))
		abort();
	if (b && gate_parse(&c, b, err))
		abort();
	return c;
}

static void test_evaluate(void)
{
	struct top_fixture fx;
	struct gate_criteria c;
	struct gate_verdict v;
	char line[256];

	top_fixture_init(&fx, &hwnoise_tool);
	c = criteria("max_single_us>20", "cpu_available_pct<99.99");
	is_int(gate_evaluate(&fx.run, &c, &v), 0, "evaluated");
	is_int(v.nr_cpus, 3, "three CPUs measured");
	is_int(v.nr_results, 6, "every CPU with every criterion");
	is_int(v.nr_cpus_failed, 2, "CPU 1 (37 us, 99.988 %%) and CPU 2 (nothing measured) fail");
	ok(!v.results[0].failed && !v.results[1].failed, "CPU 0 passes both");
	ok(v.results[2].failed && v.results[2].have && v.results[2].value == 37,
	   "CPU 1 fails max_single_us with 37");
	ok(v.results[3].failed && v.results[3].value > 99.987 && v.results[3].value < 99.989,
	   "CPU 1 fails cpu_available_pct with 99.988");
	ok(v.results[4].failed && !v.results[4].have, "CPU 2: not measured is a failure");
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: cpu 1 max_single_us 37 > 20; 1 of 3 CPUs passed", "the summary line");
	gate_verdict_free(&v);
	gate_criteria_free(&c);

	CPU_CLR(2, &fx.p.cpus);
	c = criteria("max_single_us>40", "hw_count>3");
	gate_evaluate(&fx.run, &c, &v);
	is_int(v.first_failed, -1, "nothing over the limits: passed");
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "passed: 2 criteria on 2 CPUs", "the summary of a pass");
	gate_verdict_free(&v);
	gate_criteria_free(&c);

	c = criteria("hw_count>=3", NULL);
	gate_evaluate(&fx.run, &c, &v);
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: cpu 0 hw_count 3 >= 3; 1 of 2 CPUs passed", ">= at the limit fails");
	gate_verdict_free(&v);
	gate_criteria_free(&c);
}

/* A run that lost events or samples fails any gate, with or without a failed criterion. */
static void test_evaluate_lost(void)
{
	struct top_fixture fx;
	struct gate_criteria c, none = { 0 };
	struct gate_verdict v;
	char line[256];

	top_fixture_init(&fx, &hwnoise_tool);
	CPU_CLR(2, &fx.p.cpus);
	c = criteria("max_single_us>40", NULL);
	is_int(gate_lost(&fx.run), 0, "nothing lost");
	gate_evaluate(&fx.run, &c, &v);
	ok(!v.failed, "complete and within the limits: passed");
	gate_verdict_free(&v);

	fx.run.missed_events = 12;
	gate_evaluate(&fx.run, &c, &v);
	ok(v.failed && v.first_failed == -1, "12 missed events: failed, though no criterion did");
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: 12 events or samples lost: the figures are incomplete",
	       "the summary says how many");
	gate_verdict_free(&v);

	fx.run.lost_samples = 3;
	is_int(gate_lost(&fx.run), 15, "the tracer's missed events and the sampler's lost samples add");
	fx.run.missed_events = UINT64_MAX;
	gate_evaluate(&fx.run, &c, &v);
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: an unknown number of events lost: the figures are incomplete",
	       "an unknown count");
	gate_verdict_free(&v);

	fx.run.missed_events = 0;
	gate_evaluate(&fx.run, &none, &v);
	ok(!v.failed && v.lost == 3, "without --fail-if (only --junit): not failed, lost kept");
	gate_verdict_free(&v);
	gate_criteria_free(&c);
}

/* hist: percentiles from samples, the rest from the period totals */
static void test_evaluate_hist(void)
{
	struct noise_params p = { .nr_cpus = 2, .bucket_us = 1, .entries = 256 };
	struct noise_run run = { .tool = &osnoise_hist_tool, .params = &p, .backend = &test_backend };
	struct noise_cpu totals[2] = { 0 };
	struct noise_period per = { .cpu = 0, .runtime = 1000000, .noise = 120, .max_sample = 50 };
	struct gate_criteria c;
	struct gate_verdict v;
	struct gate_figures f;
	char line[256];

	CPU_SET(0, &p.cpus);
	CPU_SET(1, &p.cpus);
	run.totals = totals;
	if (osnoise_hist_tool.sink_new(&run))
		abort();
	noise_run_add_period(&run, &per);
	per.cpu = 1;
	per.noise = 0;
	per.max_sample = 0;
	noise_run_add_period(&run, &per);
	for (int i = 1; i <= 100; i++)
		noise_run_add_sample(&run, 0, i * 1000ULL + 400);	/* 1.4 .. 100.4 us */
	gate_figures(&run, 0, &f);
	ok(f.have[GATE_P99] && f.v[GATE_P99] == 99, "p99 of 1..100 us is 99");
	ok(f.have[GATE_P50] && f.v[GATE_P50] == 50, "p50 is 50");
	ok(f.v[GATE_MAX_SINGLE] > 100.39 && f.v[GATE_MAX_SINGLE] < 100.41,
	   "max_single_us: the exact sample beats the period's 50");
	ok(f.have[GATE_AVAIL] && f.v[GATE_AVAIL] == 99.988, "cpu_available_pct from the totals");
	is_int(f.v[GATE_SAMPLES], 100, "sample_count");
	gate_figures(&run, 1, &f);
	ok(f.have[GATE_P99] && f.v[GATE_P99] == 0, "a CPU without noise: p99 is 0, not missing");

	c = criteria("p99_us>98", "max_noise_us>100");
	gate_evaluate(&run, &c, &v);
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: cpu 0 p99_us 99 > 98; 1 of 2 CPUs passed", "hist summary");
	ok(v.results[1].failed && v.results[1].value == 120, "max_noise_us from the totals");
	gate_verdict_free(&v);
	gate_criteria_free(&c);
	osnoise_hist_tool.sink_free(&run);
}

static char *capture(void (*fn)(FILE *, const struct noise_run *, const struct gate_criteria *,
				const struct gate_verdict *, double),
		     const struct noise_run *run, const struct gate_criteria *c,
		     const struct gate_verdict *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, run, c, v, 3.5);
	fclose(f);
	return buf;
}

static void prometheus_4(FILE *f, const struct noise_run *run, const struct gate_criteria *c,
			 const struct gate_verdict *v, double unused)
{
	gate_prometheus(f, run, c, v);
}

static void test_writers(void)
{
	struct top_fixture fx;
	struct gate_criteria c;
	struct gate_verdict v;
	struct utsname u;
	char want[8192], *got, *end;

	uname(&u);
	top_fixture_init(&fx, &hwnoise_tool);
	CPU_CLR(2, &fx.p.cpus);
	c = criteria("max_single_us>20", NULL);
	gate_evaluate(&fx.run, &c, &v);

	got = capture(gate_junit, &fx.run, &c, &v);
	snprintf(want, sizeof(want),
		 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		 "<testsuites name=\"rtla hwnoise\" tests=\"2\" failures=\"1\" errors=\"0\" time=\"3.500\">\n"
		 "  <testsuite name=\"rtla hwnoise\" tests=\"2\" failures=\"1\" errors=\"0\" skipped=\"0\" "
		 "time=\"3.500\" timestamp=\"2026-12-03T12:13:20\" hostname=\"%s\">\n"
		 "    <properties>\n"
		 "      <property name=\"backend\" value=\"sampler\"/>\n"
		 "      <property name=\"kernel\" value=\"%s\"/>\n"
		 "      <property name=\"fail-if\" value=\"max_single_us &gt; 20\"/>\n"
		 "    </properties>\n"
		 "    <testcase classname=\"rtla.hwnoise.cpu0\" name=\"fail-if max_single_us &gt; 20\" "
		 "time=\"0\"/>\n"
		 "    <testcase classname=\"rtla.hwnoise.cpu1\" name=\"fail-if max_single_us &gt; 20\" "
		 "time=\"0\">\n"
		 "      <failure type=\"latency gate\" message=\"cpu 1 max_single_us 37 &gt; 20\">"
		 "cpu=1 metric=max_single_us value=37 limit=20 fails_if=&quot;max_single_us &gt; 20"
		 "&quot;</failure>\n"
		 "    </testcase>\n"
		 "  </testsuite>\n"
		 "</testsuites>\n", u.nodename, u.release);
	is_str(got, want, "JUnit of a known run");
	free(got);

	got = capture(prometheus_4, &fx.run, &c, &v);
	end = strstr(got, "# HELP rtla_noise_run_end_timestamp_seconds");
	if (end)
		*end = '\0';	/* the end time is the clock's */
#define L(name, cpu) name "{cpu=\"" #cpu "\",tool=\"hwnoise\",backend=\"sampler\",host=\"%s\"} "
	snprintf(want, sizeof(want),
		 "# HELP rtla_noise_max_single_seconds Longest single noise seen on the CPU, in seconds.\n"
		 "# TYPE rtla_noise_max_single_seconds gauge\n"
		 L("rtla_noise_max_single_seconds", 0) "1.2e-05\n"
		 L("rtla_noise_max_single_seconds", 1) "3.7e-05\n"
		 "# HELP rtla_noise_max_period_noise_seconds Noise of the noisiest period of the CPU, in seconds.\n"
		 "# TYPE rtla_noise_max_period_noise_seconds gauge\n"
		 L("rtla_noise_max_period_noise_seconds", 0) "4e-05\n"
		 L("rtla_noise_max_period_noise_seconds", 1) "0.0003\n"
		 "# HELP rtla_noise_run_noise_seconds All noise of the run on the CPU, in seconds.\n"
		 "# TYPE rtla_noise_run_noise_seconds gauge\n"
		 L("rtla_noise_run_noise_seconds", 0) "0.00015\n"
		 L("rtla_noise_run_noise_seconds", 1) "0.0009\n"
		 "# HELP rtla_noise_cpu_available_ratio Share of the runtime the measuring thread had the CPU (0 to 1).\n"
		 "# TYPE rtla_noise_cpu_available_ratio gauge\n"
		 L("rtla_noise_cpu_available_ratio", 0) "0.99998\n"
		 L("rtla_noise_cpu_available_ratio", 1) "0.99988\n"
		 "# HELP rtla_noise_hw_events Noises no operating system activity explains (hardware).\n"
		 "# TYPE rtla_noise_hw_events gauge\n"
		 L("rtla_noise_hw_events", 0) "3\n"
		 L("rtla_noise_hw_events", 1) "0\n"
		 "# HELP rtla_noise_nmi_events Non-maskable interrupts that interfered.\n"
		 "# TYPE rtla_noise_nmi_events gauge\n"
		 L("rtla_noise_nmi_events", 0) "0\n"
		 L("rtla_noise_nmi_events", 1) "1\n"
		 "# HELP rtla_noise_periods Measurement periods completed on the CPU.\n"
		 "# TYPE rtla_noise_periods gauge\n"
		 L("rtla_noise_periods", 0) "10\n"
		 L("rtla_noise_periods", 1) "10\n"
		 "# HELP rtla_gate_passed 1 if every --fail-if criterion passed on the CPU, 0 if one failed.\n"
		 "# TYPE rtla_gate_passed gauge\n"
		 L("rtla_gate_passed", 0) "1\n"
		 L("rtla_gate_passed", 1) "0\n",
		 u.nodename, u.nodename, u.nodename, u.nodename, u.nodename, u.nodename, u.nodename,
		 u.nodename, u.nodename, u.nodename, u.nodename, u.nodename, u.nodename, u.nodename,
		 u.nodename, u.nodename);
#undef L
	is_str(got, want, "Prometheus text of a known run");
	free(got);
	gate_verdict_free(&v);
	gate_criteria_free(&c);
}

/* smi_count: every tool has it; a CPU fails on SMIs, or where they could not be read. */
static void test_smi_metric(void)
{
	static const unsigned tools[] = { GATE_OSNOISE_TOP, GATE_OSNOISE_HIST, GATE_HWNOISE_TOP,
					  GATE_HWNOISE_HIST, GATE_TIMERLAT_TOP, GATE_TIMERLAT_HIST };
	uint32_t start[4] = { 5, 5, 5, 5 }, end[4] = { 5, 7, 5, 5 };
	struct top_fixture fx;
	struct gate_criteria c;
	struct gate_verdict v;
	char err[PARSE_ERR_MAX], line[256], *got;

	c = criteria("smi_count>0", NULL);
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		is_int(gate_check_tool(&c, tools[i], err), 0, "smi_count on tool bit %#x", tools[i]);
	ok(gate_asks(&c, GATE_SMI) && !gate_asks(&c, GATE_HW), "gate_asks finds smi_count alone");
	is_int(gate_parse(&c, "smi_count>0.5", err), -EINVAL, "smi_count takes a whole number");

	top_fixture_init(&fx, &hwnoise_tool);
	CPU_CLR(2, &fx.p.cpus);
	fx.run.smi = (struct smi_counts){ .available = true, .stopped = true, .nr_cpus = 4,
					  .cpus = fx.p.cpus, .start = start, .end = end };
	gate_evaluate(&fx.run, &c, &v);
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: cpu 1 smi_count 2 > 0; 1 of 2 CPUs passed", "CPU 1's two SMIs fail it");
	got = capture(prometheus_4, &fx.run, &c, &v);
	ok(strstr(got, "# TYPE rtla_smi_events gauge\n") &&
	   strstr(got, "rtla_smi_events{cpu=\"1\",tool=\"hwnoise\",backend=\"sampler\""),
	   "Prometheus has rtla_smi_events per CPU");
	free(got);
	gate_verdict_free(&v);

	fx.run.smi.available = false;
	gate_evaluate(&fx.run, &c, &v);
	gate_summary(&c, &v, line, sizeof(line));
	is_str(line, "FAILED: cpu 0 smi_count not measured; 0 of 2 CPUs passed",
	       "SMIs that could not be read fail the gate, never pass it");
	got = capture(prometheus_4, &fx.run, &c, &v);
	ok(!strstr(got, "rtla_smi_events"), "and Prometheus has no rtla_smi_events");
	free(got);
	gate_verdict_free(&v);
	gate_criteria_free(&c);
}

/* The files replace their destination whole, through NAME.tmp. */
static void test_write_replacing(void)
{
	char dir[] = "/tmp/test_gate.XXXXXX", path[128], tmp[160], buf[64] = "";
	struct top_fixture fx;
	struct gate_criteria c = { 0 };
	struct gate_verdict v;
	FILE *f;

	top_fixture_init(&fx, &hwnoise_tool);
	gate_evaluate(&fx.run, &c, &v);
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/rtla.prom", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(path, "w");
	fputs("old\n", f);
	fclose(f);
	is_int(gate_write_prometheus(&fx.run, &c, &v, path), 0, "written");
	f = fopen(path, "r");
	ok(f && fgets(buf, sizeof(buf), f) && !strncmp(buf, "# HELP", 6), "the old file replaced");
	if (f)
		fclose(f);
	ok(access(tmp, F_OK), "no temporary file left");
	snprintf(path, sizeof(path), "%s/missing/rtla.prom", dir);
	is_int(gate_write_junit(&fx.run, &c, &v, 1, path), -ENOENT, "a missing directory: -ENOENT");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ok(!system(path), "cleaned up");
	gate_verdict_free(&v);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/%s", dir, name);
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_cpu_keywords(void)
{
	char dir[] = "/tmp/test_cpuspec.XXXXXX", cmd[256], err[PARSE_ERR_MAX], list[64];
	cpu_set_t set;

	if (!mkdtemp(dir))
		abort();
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/devices/system/cpu", dir);
	ok(!system(cmd), "a fake /sys");
	write_file(dir, "online", "0-7\n");
	write_file(dir, "isolated", "4-7\n");
	write_file(dir, "nohz_full", "3-5\n");
	ok(!sysroot_set(dir), "sysroot %s", dir);
	ok(cpuspec_is_keyword("isolated") && !cpuspec_is_keyword("0-3") &&
	   !cpuspec_is_keyword("Isolated"), "the words");

	is_int(cpuspec_parse("online", 8, &set, err), 0, "online");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "0-7", "online is 0-7");
	is_int(cpuspec_parse("isolated", 8, &set, err), 0, "isolated");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "4-7", "isolated is 4-7");
	is_int(cpuspec_parse("nohz_full", 8, &set, err), 0, "nohz_full");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "3-5", "nohz_full is 3-5");
	is_int(cpuspec_parse("housekeeping", 8, &set, err), 0, "housekeeping");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "0-2",
	       "housekeeping: online, neither isolated nor nohz_full");
	is_int(cpuspec_parse("isolated", 6, &set, err), 0, "isolated beyond nr_cpus");
	is_str(cpu_list_format(&set, 6, list, sizeof(list)), "4-5", "cut at nr_cpus");
	is_int(cpuspec_parse("1,3", 8, &set, err), 0, "a list is still a list");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "1,3", "1,3");

	write_file(dir, "isolated", "\n");
	write_file(dir, "nohz_full", "(null)\n");
	is_int(cpuspec_parse("isolated", 8, &set, err), -EINVAL, "no isolated CPU: an error");
	is_str(err, "'isolated': this machine has no isolated CPU (boot with isolcpus=)",
	       "that says so");
	is_int(cpuspec_parse("nohz_full", 8, &set, err), -EINVAL, "nohz_full '(null)': an error");
	is_str(err, "'nohz_full': this machine has no nohz_full CPU (boot with nohz_full=)",
	       "that says so");
	is_int(cpuspec_parse("housekeeping", 8, &set, err), 0, "housekeeping: all of them");
	is_str(cpu_list_format(&set, 8, list, sizeof(list)), "0-7", "0-7");
	snprintf(cmd, sizeof(cmd), "rm %s/sys/devices/system/cpu/nohz_full", dir);
	ok(!system(cmd), "a kernel without nohz_full");
	is_int(cpuspec_parse("housekeeping", 8, &set, err), 0, "housekeeping without the file");
	snprintf(cmd, sizeof(cmd), "rm %s/sys/devices/system/cpu/online", dir);
	ok(!system(cmd), "no online file");
	is_int(cpuspec_parse("online", 8, &set, err), -ENOENT, "online must be there");
	is_str(err, "cannot read /sys/devices/system/cpu/online: No such file or directory",
	       "and the error says which file");
	sysroot_set("/");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ok(!system(cmd), "cleaned up");
}

static void test_jsonread(void)
{
	static const char *const bad[][2] = {
		{ "", "line 1: unexpected end" },
		{ "{", "line 1: expected a key" },
		{ "{\"a\" 1}", "line 1: expected ':'" },
		{ "[1,]", "line 1: unexpected ']'" },
		{ "[1 2]", "line 1: expected ',' or ']'" },
		{ "{\"a\":1}\n x", "line 2: text after the document" },
		{ "\"ab", "line 1: unterminated string" },
		{ "\"a\\q\"", "line 1: bad escape '\\q'" },
		{ "01", "line 1: bad number" },
		{ "tru", "line 1: unexpected word" },
		{ "[\"\\u12g4\"]", "line 1: bad \\u escape" },
	};
	char err[JV_ERR_MAX];
	struct jv *v = jv_parse("{\"cpus\": [{\"cpu\": 3, \"max_single_us\": 37.5, \"r\": null}],"
				" \"kernel\": \"6.12\\u00e9\\n\", \"ok\": true, \"no\": false,"
				" \"neg\": -1.5e2}", err);
	double n;

	if (!ok(v != NULL, "a record parses"))
		return;
	ok(jv_num(&jv_get(v, "cpus")->items[0], "max_single_us", &n) && n == 37.5, "a number");
	ok(jv_get(&jv_get(v, "cpus")->items[0], "r")->type == JV_NULL, "null");
	is_str(jv_str(v, "kernel", NULL), "6.12\xc3\xa9\n", "a string with escapes");
	ok(jv_get(v, "ok")->b && !jv_get(v, "no")->b, "true, false");
	ok(jv_num(v, "neg", &n) && n == -150, "an exponent");
	ok(!jv_get(v, "missing") && !jv_num(v, "kernel", &n), "absent and mistyped members");
	jv_free(v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = jv_parse(bad[i][0], err);
		ok(!v, "'%s' is refused", bad[i][0]);
		is_str(err, bad[i][1], "'%s': the reason", bad[i][0]);
		jv_free(v);
	}
}

int main(void)
{
	test_parse_valid();
	test_parse_malformed();
	test_check_tool();
	test_ops();
	test_evaluate();
	test_evaluate_lost();
	test_evaluate_hist();
	test_writers();
	test_smi_metric();
	test_write_replacing();
	test_cpu_keywords();
	test_jsonread();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of timerlat top and hist: the sink, upstream's table and
 * histogram byte for byte (the user column, empty blocks, the ALL row and
 * its exponent, -n, the over row and the summary, --no-irq, --no-index),
 * the exact percentiles, the --fail-if figures, the options with
 * upstream's messages, and which cpuidle states --deepest-idle-state takes.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fsutil.h"
#include "json.h"
#include "msg.h"
#include "osnoise/osnoise.h"
#include "sysroot.h"
#include "tap.h"
#include "timerlat/timerlat.h"
#include "tmptree.h"

static const struct noise_backend test_backend = { .name = "test" };

struct fixture {
	struct noise_params p;
	struct noise_run run;
	uint64_t seq;
};

/* A run of TOOL over CPUs 0-3, of which 0-2 are measured; the user column with USER. */
static void fixture_init(struct fixture *fx, const struct noise_tool *tool, bool user)
{
	memset(fx, 0, sizeof(*fx));
	fx->p.nr_cpus = 4;
	fx->p.bucket_us = 1;
	fx->p.entries = 256;
	fx->p.period_us = 1000;
	fx->p.workload = user ? TL_WORKLOAD_USER : TL_WORKLOAD_KERNEL;
	CPU_ZERO(&fx->p.cpus);
	for (int cpu = 0; cpu < 3; cpu++)
		CPU_SET(cpu, &fx->p.cpus);
	fx->run.tool = tool;
	fx->run.params = &fx->p;
	fx->run.backend = &test_backend;
	fx->run.start_time = 1000;
	if (tool->sink_new(&fx->run))
		exit(2);
}

static void fixture_free(struct fixture *fx)
{
	fx->run.tool->sink_free(&fx->run);
}

static char *print_with(void (*print)(FILE *, const struct noise_run *, time_t),
			const struct fixture *fx, time_t now)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print(f, &fx->run, now);
	fclose(f);
	return buf;
}

static void add(struct fixture *fx, int cpu, enum timerlat_context c, uint64_t ns)
{
	noise_run_add_latency(&fx->run, cpu, c, ++fx->seq, ns);
}

static void test_top_table(void)
{
	struct fixture fx;
	char *out;

	fixture_init(&fx, &timerlat_top_tool, true);
	add(&fx, 0, TL_IRQ, 4000);
	add(&fx, 0, TL_THREAD, 9999);
	add(&fx, 0, TL_USER, 12000);
	add(&fx, 0, TL_IRQ, 1500);
	add(&fx, 0, TL_THREAD, 3000);
	/* cpu 1: IRQ only; cpu 2: nothing (left out); cpu 3: not measured */
	add(&fx, 1, TL_IRQ, 15000);
	add(&fx, 3, TL_IRQ, 77000);
	out = print_with(timerlat_top_print, &fx, 1010);
	ok(!strncmp(out, "                                     Timer Latency", 50) &&
	   strspn(out + 50, " ") == 46 + 41 && out[50 + 46 + 41] == '\n',
	   "the title: 37 spaces, Timer Latency, 46 and, with the user column, 41 more");
	is_str(strchr(out, '\n') + 1,
	       "  0 00:00:10   |          IRQ Timer Latency (us)        |         Thread Timer Latency"
	       " (us)      |    Ret user Timer Latency (us)\n"
	       "CPU COUNT      |      cur       min       avg       max |      cur       min       avg"
	       "       max |      cur       min       avg       max\n"
	       "  0 #2         |        1         1         2         4 |        3         3         6"
	       "         9 |       12        12        12        12\n"
	       "  1 #1         |       15        15        15        15 |        -         -         -"
	       "         - |        -         -         -         -\n"
	       "---------------|----------------------------------------|-----------------------------"
	       "-----------|---------------------------------------\n"
	       "ALL #3      e0 |                  1         6        15 |                  3         6"
	       "         9 |                 12        12        12\n",
	       "top with the user column: the header, a row per CPU with a latency, the ALL row");
	free(out);
	fixture_free(&fx);

	/* kernel threads: no user column; -n: ns; the average is the sum's, then divided */
	fixture_init(&fx, &timerlat_top_tool, false);
	fx.p.nano = true;
	fixture_free(&fx);
	fixture_init(&fx, &timerlat_top_tool, false);
	fx.run.latency->divisor = 1;
	fx.p.nano = true;
	add(&fx, 2, TL_IRQ, 1234);
	out = print_with(timerlat_top_print, &fx, 1000);
	ok(!strncmp(out, "                                     Timer Latency", 50) &&
	   strspn(out + 50, " ") == 46 && out[50 + 46] == '\n', "the title without the user column");
	is_str(strchr(out, '\n') + 1,
	       "  0 00:00:00   |          IRQ Timer Latency (ns)        |         Thread Timer Latency"
	       " (ns)\n"
	       "CPU COUNT      |      cur       min       avg       max |      cur       min       avg"
	       "       max\n"
	       "  2 #1         |     1234      1234      1234      1234 |        -         -         -"
	       "         -\n"
	       "---------------|----------------------------------------|-----------------------------"
	       "----------\n"
	       "ALL #1      e0 |               1234      1234      1234 |        -         -         -"
	       "         -\n",
	       "kernel threads, in ns: no user column; an empty thread block in the ALL row");
	free(out);
	fixture_free(&fx);

	/* the ALL count keeps six digits and counts the divisions */
	fixture_init(&fx, &timerlat_top_tool, false);
	for (int i = 0; i < 1234567; i++)
		add(&fx, 0, TL_IRQ, 1000);
	out = print_with(timerlat_top_print, &fx, 1000);
	ok(strstr(out, "\n  0 #1234567   |") != NULL, "a CPU's count is whole");
	ok(strstr(out, "\nALL #123456 e1 |") != NULL, "ALL: 123456 e1");
	free(out);
	fixture_free(&fx);

	/* --aa-only prints no table */
	fixture_init(&fx, &timerlat_top_tool, false);
	fx.p.aa_only = true;
	add(&fx, 0, TL_IRQ, 1000);
	out = print_with(timerlat_top_print, &fx, 1000);
	is_str(out, "", "--aa-only: no table");
	free(out);
	fixture_free(&fx);
}

static void test_hist(void)
{
	struct fixture fx;
	char *out;

	fixture_init(&fx, &timerlat_hist_tool, true);
	fx.p.entries = 10;
	fixture_free(&fx);
	fixture_init(&fx, &timerlat_hist_tool, true);
	add(&fx, 0, TL_IRQ, 2500);
	add(&fx, 0, TL_IRQ, 2999);
	add(&fx, 0, TL_THREAD, 5100);
	add(&fx, 0, TL_USER, 300000);	/* beyond 256 buckets: over */
	add(&fx, 1, TL_IRQ, 7000);
	out = print_with(timerlat_hist_print, &fx, 1003);
	is_str(out,
	       "# RTLA timerlat histogram\n"
	       "# Time unit is microseconds (us)\n"
	       "# Duration:   0 00:00:03\n"
	       "Index   IRQ-000   Thr-000   Usr-000   IRQ-001   Thr-001   Usr-001\n"
	       "2             2         0         0         0         0         0 \n"
	       "5             0         1         0         0         0         0 \n"
	       "7             0         0         0         1         0         0 \n"
	       "over:         0         0         1         0         0         0 \n"
	       "count:        2         1         1         1         0         0 \n"
	       "min:          2         5       300         7         -         - \n"
	       "avg:          2         5       300         7         -         - \n"
	       "max:          2         5       300         7         -         - \n"
	       "ALL:        IRQ       Thr       Usr\n"
	       "count:        3         1         1 \n"
	       "min:          2         5       300 \n"
	       "avg:          3         5       300 \n"
	       "max:          7         5       300 \n",
	       "hist: the rows with a count, over, the summary per CPU and over all");
	free(out);

	fx.p.no_irq = true;
	fx.p.no_summary = true;
	fx.p.no_header = true;
	out = print_with(timerlat_hist_print, &fx, 1003);
	is_str(out,
	       "5             1         0         0         0 \n"
	       "over:         0         1         0         0 \n",
	       "--no-irq --no-header --no-summary: rows of the other columns only");
	free(out);
	fx.p.no_irq = false;
	fx.p.no_index = true;
	fx.p.with_zeros = true;
	out = print_with(timerlat_hist_print, &fx, 1003);
	ok(!strncmp(out, "        0         0         0         0         0         0 \n", 60),
	   "--no-index --with-zeros: the first row is bucket 0, no index");
	free(out);
	fixture_free(&fx);

	/* -b 1000 in ns: the buckets are of 1000 ns, the figures in ns */
	fixture_init(&fx, &timerlat_hist_tool, false);
	fixture_free(&fx);
	fx.p.nano = true;
	fx.p.bucket_us = 1000;
	fx.run.tool->sink_new(&fx.run);
	add(&fx, 0, TL_IRQ, 2500);
	add(&fx, 0, TL_THREAD, 999);
	out = print_with(timerlat_hist_print, &fx, 1000);
	ok(strstr(out, "# Time unit is nanoseconds (ns)\n") != NULL, "-n: ns");
	ok(strstr(out, "\n0             0         1 \n2000          1         0 \n") != NULL,
	   "-n -b 1000: bucket starts in ns");
	ok(strstr(out, "\nmin:       2500       999 \n") != NULL, "-n: exact ns figures");
	free(out);
	fixture_free(&fx);
}

static void test_percentiles_and_gate(void)
{
	struct fixture fx;
	struct gate_figures f = { 0 };

	fixture_init(&fx, &timerlat_hist_tool, false);
	for (int i = 1; i <= 1000; i++)
		add(&fx, 0, TL_THREAD, i * 1000ULL + 500);	/* 1..1000 us */
	add(&fx, 0, TL_IRQ, 20 * 1000 * 1000 * 1000ULL);	/* 20 s: counted as the last us */
	is_int(timerlat_percentile_us(fx.run.latency, 0, TL_THREAD, 5000), 500, "p50");
	is_int(timerlat_percentile_us(fx.run.latency, 0, TL_THREAD, 9900), 990, "p99");
	is_int(timerlat_percentile_us(fx.run.latency, 0, TL_THREAD, 9999), 1000, "p99.99");
	is_int(timerlat_percentile_us(fx.run.latency, 1, TL_THREAD, 9900), 0,
	       "no latency: 0");
	timerlat_gate_figures(&fx.run, 0, &f);
	ok(f.measured, "measured");
	ok(f.have[GATE_TL_P50 + 6 + TL_THREAD] && f.v[GATE_TL_P50 + 6 + TL_THREAD] == 990,
	   "p99_thread_us is 990");
	ok(f.have[GATE_TL_MAX + TL_THREAD] && f.v[GATE_TL_MAX + TL_THREAD] == 1000,
	   "thread_max_us in us (hist keeps us)");
	ok(f.have[GATE_TL_COUNT + TL_IRQ] && f.v[GATE_TL_COUNT + TL_IRQ] == 1, "irq_sample_count");
	ok(!f.have[GATE_TL_COUNT + TL_USER], "no user context with kernel threads");
	memset(&f, 0, sizeof(f));
	timerlat_gate_figures(&fx.run, 1, &f);
	ok(!f.measured && !f.have[GATE_TL_MAX + TL_IRQ] && f.have[GATE_TL_COUNT + TL_IRQ],
	   "a CPU without latencies: counts of 0, no maximum (a limit on it fails)");
	fixture_free(&fx);

	fixture_init(&fx, &timerlat_top_tool, false);
	add(&fx, 0, TL_IRQ, 1500);
	add(&fx, 0, TL_IRQ, 2000);
	memset(&f, 0, sizeof(f));
	timerlat_gate_figures(&fx.run, 0, &f);
	ok(f.v[GATE_TL_AVG + TL_IRQ] == 1.75 && f.v[GATE_TL_MIN + TL_IRQ] == 1.5,
	   "top: exact averages and minima in us from ns");
	ok(!f.have[GATE_TL_P50 + TL_IRQ], "top has no percentiles");
	fixture_free(&fx);
}

/* Prometheus: timerlat's gauges by context, no periods */
static void test_prometheus(void)
{
	struct gate_criteria c = { 0 };
	struct gate_verdict v = { .first_failed = -1 };
	struct fixture fx;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	fixture_init(&fx, &timerlat_hist_tool, true);
	add(&fx, 0, TL_THREAD, 12500);
	f = open_memstream(&out, &len);
	gate_prometheus(f, &fx.run, &c, &v);
	fclose(f);
	ok(strstr(out, "# TYPE rtla_timerlat_max_latency_seconds gauge\n") != NULL, "a gauge");
	ok(strstr(out, "rtla_timerlat_max_latency_seconds{cpu=\"0\",tool=\"timerlat hist\","
		       "backend=\"test\",host=\"") != NULL, "with the run's labels");
	ok(strstr(out, "\",context=\"thread\"} 1.2e-05\n") != NULL,
	   "the thread context's 12 us (hist's whole us), in seconds");
	ok(strstr(out, "rtla_timerlat_latencies{cpu=\"0\"") && strstr(out, ",context=\"irq\"} 0\n"),
	   "a count of 0 where a context measured nothing");
	ok(strstr(out, ",context=\"thread\",percentile=\"99.99\"} 1.2e-05\n") != NULL,
	   "the percentiles with both labels");
	ok(!strstr(out, "rtla_noise_periods"), "no periods");
	free(out);
	fixture_free(&fx);
}

static int parse(const struct noise_tool *tool, struct noise_params *p, const char *args)
{
	char *argv[32], buf[512];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", args);
	argv[argc++] = (char *)"timerlat";
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return noise_parse_args(argc, argv, tool, p);
}

static void test_options(void)
{
	struct noise_params p;

	is_int(parse(&timerlat_top_tool, &p, "-c 0"), 0, "defaults");
	is_int(p.period_us, 1000, "period 1000 us");
	is_int(p.dma_latency_us, -1, "no DMA request");
	is_int(p.deepest_idle, -2, "idle states untouched");
	ok(p.workload == TL_WORKLOAD_AUTO, "the workload is the kernel's choice");
	noise_params_free(&p);

	is_int(parse(&timerlat_top_tool, &p, "-a 40"), 0, "-a");
	ok(p.stop_us == 40 && p.stop_total_us == 40 && p.print_stack_us == 40, "-a sets -i, -T, -s");
	is_int(p.threshold_actions.len, 1, "and a trace action");
	is_str(p.threshold_actions.items[0].file, "timerlat_trace.txt", "to timerlat_trace.txt");
	noise_params_free(&p);

	is_int(parse(&timerlat_hist_tool, &p, "--on-threshold trace"), 0, "trace action");
	is_str(p.threshold_actions.items[0].file, "timerlat_trace.txt", "timerlat's default file");
	noise_params_free(&p);

	is_int(parse(&timerlat_top_tool, &p, "--aa-only 30"), 0, "--aa-only");
	ok(p.aa_only && p.stop_us == 30 && p.stop_total_us == 30, "--aa-only sets the stops");
	is_int(p.threshold_actions.len, 0, "and no trace");
	noise_params_free(&p);

	is_int(parse(&timerlat_top_tool, &p, "-U"), 0, "-U");
	ok(p.workload == TL_WORKLOAD_USER_LOAD && timerlat_user_data(&p), "-U: the user column");
	noise_params_free(&p);
	is_int(parse(&timerlat_top_tool, &p, "-u -U"), 0, "-u -U");
	ok(p.workload == TL_WORKLOAD_USER_LOAD, "-U wins: rtla starts no workers");
	noise_params_free(&p);

	is_int(parse(&timerlat_top_tool, &p, "-k -u"), CLI_ERROR, "-k -u refused");
	is_int(parse(&timerlat_top_tool, &p, "-p 1000001"), CLI_ERROR, "-p over 1 s refused");
	is_int(parse(&timerlat_top_tool, &p, "-p 99"), CLI_ERROR, "-p under 100 us refused");
	is_int(parse(&timerlat_top_tool, &p, "--dma-latency 10000"), 0, "--dma-latency 10000");
	noise_params_free(&p);
	is_int(parse(&timerlat_top_tool, &p, "--dma-latency -1"), CLI_ERROR, "--dma-latency -1");
	is_int(parse(&timerlat_hist_tool, &p, "--no-irq --no-thread"), CLI_ERROR, "nothing to do");
	is_int(parse(&timerlat_top_tool, &p, "--no-aa --aa-only 5"), CLI_ERROR, "--no-aa --aa-only");
	is_int(parse(&timerlat_top_tool, &p, "--aa-only 5 -J"), CLI_ERROR, "--aa-only has no figures");
	is_int(parse(&timerlat_hist_tool, &p, "--dump-task --stack-format skip"), 0, "hist's spelling");
	ok(p.dump_tasks && p.stack_format == STACK_SKIP, "--dump-task, --stack-format skip");
	noise_params_free(&p);
	is_int(parse(&timerlat_hist_tool, &p, "--fail-if p99_user_us>20"), 0, "a percentile on hist");
	noise_params_free(&p);
	is_int(parse(&timerlat_top_tool, &p, "--fail-if p99_user_us>20"), CLI_ERROR,
	       "not on top");
	is_int(parse(&timerlat_top_tool, &p, "-r 100"), CLI_ERROR, "osnoise's -r is not timerlat's");
}

static void test_idle_states(void)
{
	struct timerlat_kernel k;
	struct noise_params p = { .nr_cpus = 2 };
	char dir[512];

	snprintf(root, sizeof(root), "/tmp/rtla-timerlat-XXXXXX");
	if (!mkdtemp(root))
		exit(2);
	for (int cpu = 0; cpu < 2; cpu++) {
		for (int s = 0; s < 3; s++) {
			snprintf(dir, sizeof(dir), "%s/sys/devices/system/cpu/cpu%d/cpuidle/state%d",
				 root, cpu, s);
			fs_mkdir_p(dir, 0755);
			put(strcat(dir, "/disable"), "0\n");
		}
	}
	ok(!sysroot_set(root), "a tree with 3 idle states on 2 CPUs");
	CPU_ZERO(&p.cpus);
	CPU_SET(1, &p.cpus);

	timerlat_kernel_prepare(&k);
	p.deepest_idle = -2;
	is_int(timerlat_kernel_init(&k, &p), 0, "untouched");
	is_int(k.nr_idle, 0, "no state taken");
	timerlat_kernel_free(&k);

	p.deepest_idle = 0;
	is_int(timerlat_kernel_init(&k, &p), 0, "--deepest-idle-state 0");
	is_int(k.nr_idle, 2, "states 1 and 2 of the measured CPU");
	ok(k.nr_idle == 2 && strstr(k.idle_paths[0], "/cpu1/cpuidle/state1/disable") &&
	   strstr(k.idle_paths[1], "/cpu1/cpuidle/state2/disable"), "cpu1's state1 and state2");
	timerlat_kernel_free(&k);

	p.deepest_idle = -1;
	CPU_SET(0, &p.cpus);
	is_int(timerlat_kernel_init(&k, &p), 0, "--deepest-idle-state -1");
	is_int(k.nr_idle, 6, "every state of both CPUs");
	timerlat_kernel_free(&k);
	sysroot_set("/");
	snprintf(dir, sizeof(dir), "rm -rf %s", root);
	ok(!system(dir), "the tree removed");
}

int main(void)
{
	test_top_table();
	test_hist();
	test_percentiles_and_gate();
	test_prometheus();
	test_options();
	test_idle_states();
	return tap_done();
}

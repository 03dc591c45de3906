// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtla dhry - Dhrystone 2.1 on every chosen CPU.
 *
 * Options in, a per-CPU table (or a JSON record) out: Dhrystones per second,
 * DMIPS, DMIPS/MHz where the clock is known, the check of the benchmark's
 * final values, and each CPU against the median so that a core running at
 * the wrong clock stands out during bring-up.
 */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "cpuspec.h"
#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "sysroot.h"
#include "util.h"

#include "dhry.h"
#include "runner.h"

#define DHRY_VAX		1757	/* Dhrystones/s of the VAX 11/780, the "1 MIPS" machine */
#define DEFAULT_SECONDS		2	/* as the kernel's test_dhry: shorter runs are not meaningful */
#define MAX_SECONDS		86400
#define DEFAULT_THRESHOLD	10	/* percent below the median */
#define BUSY_WARN		90	/* percent: below it, other tasks shared the CPU */

enum {
	COL_CPU, COL_ITERATIONS, COL_SECONDS, COL_BUSY, COL_DPS, COL_DMIPS, COL_MHZ,
	COL_DMIPS_MHZ, COL_CLOCK, COL_CHECK, COL_RATIO, COL_SLOW,
};

static const struct out_column columns[] = {
	[COL_CPU]	 = { "CPU", "cpu", OUT_NUM, 3, OUT_RIGHT, "CPU number" },
	[COL_ITERATIONS] = { "ITERATIONS", "iterations", OUT_NUM, 10, OUT_RIGHT,
			     "measured runs through Dhrystone" },
	[COL_SECONDS]	 = { "SECONDS", "seconds", OUT_NUM, 7, OUT_RIGHT,
			     "CPU time of the measured runs (Weicker's user time)" },
	[COL_BUSY]	 = { "BUSY", "busy_pct", OUT_NUM, 5, OUT_RIGHT,
			     "% of the wall time the benchmark had its CPU (less: other tasks ran)" },
	[COL_DPS]	 = { "DHRY/S", "dhrystones_per_second", OUT_NUM, 10, OUT_RIGHT,
			     "Dhrystones per second" },
	[COL_DMIPS]	 = { "DMIPS", "dmips", OUT_NUM, 8, OUT_RIGHT, "Dhrystones per second / 1757" },
	[COL_MHZ]	 = { "MHZ", "mhz", OUT_NUM, 5, OUT_RIGHT, "CPU clock during the run (see CLOCK)" },
	[COL_DMIPS_MHZ]	 = { "DMIPS/MHZ", "dmips_per_mhz", OUT_NUM, 9, OUT_RIGHT, "DMIPS per MHz" },
	[COL_CLOCK]	 = { "CLOCK", "clock", OUT_STR, 7, 0,
			     "where MHZ comes from: perf (cycles counted), cpufreq or none" },
	[COL_CHECK]	 = { "CHECK", "check", OUT_STR, 6, 0,
			     "final values: OK, FAILED (wrong: no score) or ERROR" },
	[COL_RATIO]	 = { "RATIO", "ratio", OUT_NUM, 5, OUT_RIGHT, "Dhrystones/s over the median CPU's" },
	[COL_SLOW]	 = { "SLOW", "slow", OUT_BOOL, 4, 0, "slower than the median by more than --threshold" },
};
#define NCOLUMNS	ARRAY_SIZE(columns)
#define DEFAULT_COLUMNS	"CPU,ITERATIONS,SECONDS,BUSY,DHRY/S,DMIPS,MHZ,DMIPS/MHZ,CLOCK,CHECK,RATIO,SLOW"

enum { OPT_PARALLEL = CLI_LONG, OPT_SEQUENTIAL, OPT_THRESHOLD };

struct dhry_cmd {
	struct dhry_opts run;
	struct out_opts out;
	long long threshold;
	const char *cpu_arg;
	bool parallel;
};

/* What the table and the record show for one CPU, derived from its result. */
struct score {
	bool ok;
	double seconds;
	double busy;
	double dps;
	double dmips;
	double ratio;
	bool slow;
};

static void usage(FILE *f);

#define STR(x) #x
#define XSTR(x) STR(x)

static void column_names(FILE *out, const struct cli_completion *c)
{
	out_column_names(out, columns, ARRAY_SIZE(columns));
}

static const struct cli_option options[] = {
	CLI_VALUE('c', "cpus", "CPUS", "CPUs to measure: a list, or online, isolated,\n"
		  "nohz_full, housekeeping (default: every online CPU)",
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS),
	CLI_VALUE('i', "iterations", "N", "exactly N runs through Dhrystone on each CPU\n"
		  "(at most 2147483637)"),
	CLI_VALUE('d', "duration", "TIME", "calibrate so that each CPU runs at least TIME\n"
		  "(default " XSTR(DEFAULT_SECONDS) "s; s, m, h suffixes)"),
	CLI_FLAG(OPT_PARALLEL, "parallel", "all CPUs at once, started together (default)"),
	CLI_FLAG(OPT_SEQUENTIAL, "sequential",
		 "one CPU at a time: no interference between SMT\nsiblings or shared caches"),
	CLI_VALUE(OPT_THRESHOLD, "threshold", "PCT",
		  "flag CPUs slower than the median by more than PCT %\n(default "
		  XSTR(DEFAULT_THRESHOLD) ")"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec dhry_cli = {
	.command = "dhry",
	.options = options,
	.usage = usage,
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: rtla dhry [-c CPUS] [-i ITERATIONS | -d TIME] [--parallel | --sequential]\n"
		"                 [--threshold PCT] [-J] [--json-file FILE] [--raw] [-n] [-o COLUMNS]\n\n"
		"Dhrystone 2.1 on every chosen CPU: Dhrystones per second, DMIPS (/%d),\n"
		"DMIPS/MHz where the clock is known, the check of the benchmark's final values\n"
		"(a run with a wrong value is FAILED and has no score), and each CPU against\n"
		"the median CPU.\n\n", DHRY_VAX);
	cli_print_options(&dhry_cli, f);
	out_usage(f, columns, NCOLUMNS);
	fprintf(f, "\nBenchmark built with %s: %s\n", dhry_compiler, dhry_cflags);
}

/* 0, or CLI_EXIT / CLI_ERROR with the help or the error printed. */
static int parse_args(int argc, char **argv, struct dhry_cmd *c)
{
	char err[PARSE_ERR_MAX];
	struct cli_parser p;
	bool duration = false;
	int id;

	cli_begin(&p, &dhry_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &c->out))
			continue;
		switch (id) {
		case 'c':
			c->cpu_arg = p.arg;
			break;
		case 'i':
			if (parse_llong(p.arg, 1, DHRY_RUNS_MAX, &c->run.iterations, err))
				return cli_error(&p, p.word, err);
			break;
		case 'd':
			if (parse_duration(p.arg, &c->run.seconds, err))
				return cli_error(&p, p.word, err);
			if (c->run.seconds > MAX_SECONDS)
				return cli_error(&p, "-d: too long (at most 1d per CPU)", p.arg);
			duration = true;
			break;
		case OPT_PARALLEL:
			c->parallel = true;
			break;
		case OPT_SEQUENTIAL:
			c->run.sequential = true;
			break;
		case OPT_THRESHOLD:
			if (parse_llong(p.arg, 0, 100, &c->threshold, err))
				return cli_error(&p, p.word, err);
			break;
		}
	}
	if (id < 0)
		return id;
	if (p.optind < argc)
		return cli_error(&p, "unexpected argument", argv[p.optind]);
	if (c->run.iterations && duration)
		return cli_error(&p, "-i and -d exclude each other: give a count or a time", NULL);
	if (c->parallel && c->run.sequential)
		return cli_error(&p, "--parallel and --sequential exclude each other", NULL);
	return 0;
}

/* The CPUs to run on: -c's list or word, each online and allowed, or all such CPUs. */
static int choose_cpus(const char *arg, cpu_set_t *set)
{
	cpu_set_t online, allowed;
	char err[PARSE_ERR_MAX], list[256];
	int ret;

	ret = sysroot_online_cpus(&online);
	if (ret <= 0) {
		err_msg("cannot read the online CPUs: %s", strerror(ret ? -ret : ENOENT));
		return -EINVAL;
	}
	if (cpus_allowed(&allowed))
		allowed = online;
	if (!arg) {
		CPU_AND(set, &online, &allowed);
		if (!CPU_COUNT(set)) {
			err_msg("no online CPU is in this process's affinity mask");
			return -EINVAL;
		}
		return 0;
	}
	/* the words of the noise tools (upstream's), so that one mistake reads alike */
	if (cpuspec_parse(arg, sysroot_nr_cpus(), set, err)) {
		err_msg("Invalid -c cpu list: %s", err);
		return -EINVAL;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, set))
			continue;
		if (!CPU_ISSET(cpu, &online)) {
			err_msg("Invalid -c cpu list: '%s': CPU %d is not online (online: %s)", arg, cpu,
				cpu_list_format(&online, CPU_SETSIZE, list, sizeof(list)));
			return -EINVAL;
		}
		if (!CPU_ISSET(cpu, &allowed)) {
			err_msg("Invalid -c cpu list: '%s': CPU %d is outside the CPUs this process "
				"may run on (%s)", arg, cpu,
				cpu_list_format(&allowed, CPU_SETSIZE, list, sizeof(list)));
			return -EINVAL;
		}
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Scores, ratios to the median and the slow flags; returns the median (0: none). */
static double score_all(const struct dhry_result *res, int n, long long threshold,
			struct score *sc)
{
	double *dps = calloc(n, sizeof(*dps)), median = 0;
	int ok = 0;

	for (int i = 0; i < n; i++) {
		sc[i] = (struct score){ 0 };
		if (res[i].error || res[i].failed)
			continue;
		sc[i].ok = true;
		/* a clock tick is the least a run can take, even -i 1 */
		sc[i].seconds = (res[i].ns ? res[i].ns : 1) / 1e9;
		sc[i].busy = res[i].wall_ns ? 100.0 * res[i].cpu_ns / res[i].wall_ns : 100;
		if (sc[i].busy > 100)
			sc[i].busy = 100;
		sc[i].dps = res[i].iterations / sc[i].seconds;
		sc[i].dmips = sc[i].dps / DHRY_VAX;
		if (dps)
			dps[ok++] = sc[i].dps;
	}
	if (ok) {
		qsort(dps, ok, sizeof(*dps), cmp_double);
		median = ok % 2 ? dps[ok / 2] : (dps[ok / 2 - 1] + dps[ok / 2]) / 2;
	}
	free(dps);
	for (int i = 0; i < n && median > 0; i++) {
		if (!sc[i].ok)
			continue;
		sc[i].ratio = sc[i].dps / median;
		sc[i].slow = sc[i].ratio < 1.0 - threshold / 100.0;
	}
	return median;
}

static const char *check_name(const struct dhry_result *r)
{
	return r->error ? "ERROR" : r->failed ? "FAILED" : "OK";
}

static int print_table(struct out_table *t, const struct dhry_result *res,
		       const struct score *sc, int n)
{
	for (int i = 0; i < n; i++) {
		const struct dhry_result *r = &res[i];
		struct out_row *row = out_row_add(t);

		if (!row)
			return -ENOMEM;
		out_set_u64(row, COL_CPU, r->cpu);
		out_set_str(row, COL_CHECK, check_name(r));
		out_set_str(row, COL_CLOCK, dhry_clock_name(r->clock));
		/* a wrong run has no score: its cells stay empty (null in JSON) */
		if (!sc[i].ok)
			continue;
		out_set_u64(row, COL_ITERATIONS, r->iterations);
		out_set_fmt(row, COL_SECONDS, "%.3f", sc[i].seconds);
		out_set_fmt(row, COL_BUSY, "%.1f", sc[i].busy);
		out_set_fmt(row, COL_DPS, "%.0f", sc[i].dps);
		out_set_fmt(row, COL_DMIPS, "%.1f", sc[i].dmips);
		if (r->clock != DHRY_CLOCK_NONE) {
			out_set_fmt(row, COL_MHZ, "%.0f", r->mhz);
			out_set_fmt(row, COL_DMIPS_MHZ, "%.3f", sc[i].dmips / r->mhz);
		}
		out_set_fmt(row, COL_RATIO, "%.3f", sc[i].ratio);
		out_set_bool(row, COL_SLOW, sc[i].slow);
	}
	return out_table_print(t);
}

static const char *verdict(const struct dhry_result *res, const struct score *sc, int n)
{
	const char *v = "passed";

	for (int i = 0; i < n; i++) {
		if (res[i].error || res[i].failed)
			return "failed";
		if (sc[i].slow)
			v = "slow";
	}
	return v;
}

/* Version 1 of the rtla-dhry record (rtla-dhry(1), JSON). */
#define DHRY_SCHEMA_VERSION	1

struct dhry_json {
	const struct dhry_cmd *c;
	const struct dhry_result *res;
	const struct score *sc;
	int n;
	double median, wall_s;
};

/* The record's body, after the envelope (output.h). */
static int write_record(struct json *j, const void *arg)
{
	const struct dhry_json *rec = arg;
	const struct dhry_cmd *c = rec->c;
	const struct dhry_result *res = rec->res;
	const struct score *sc = rec->sc;
	int n = rec->n;
	double median = rec->median, wall_s = rec->wall_s;
	double total = 0;

	json_double(j, "duration_s", wall_s, 3);
	json_str(j, "verdict", verdict(res, sc, n));
	json_str(j, "benchmark", "Dhrystone 2.1");
	json_str(j, "compiler", dhry_compiler);
	json_str(j, "cflags", dhry_cflags);
	json_str(j, "mode", c->run.sequential ? "sequential" : "parallel");
	if (c->run.iterations)
		json_i64(j, "iterations", c->run.iterations);
	else
		json_null(j, "iterations");
	if (c->run.iterations)
		json_null(j, "min_seconds");
	else
		json_i64(j, "min_seconds", c->run.seconds);
	json_i64(j, "threshold_pct", c->threshold);
	json_i64(j, "vax_dhrystones_per_second", DHRY_VAX);

	json_array_begin(j, "cpus");
	for (int i = 0; i < n; i++) {
		const struct dhry_result *r = &res[i];
		bool clock = sc[i].ok && r->clock != DHRY_CLOCK_NONE;

		json_object_begin(j, NULL);
		json_i64(j, "cpu", r->cpu);
		json_str(j, "check", check_name(r));
		json_str(j, "error", r->why[0] ? r->why : NULL);
		if (r->end_ns) {
			json_u64(j, "start_ns", r->start_ns);
			json_u64(j, "end_ns", r->end_ns);
		} else {
			json_null(j, "start_ns");
			json_null(j, "end_ns");
		}
		if (sc[i].ok) {
			json_u64(j, "iterations", r->iterations);
			json_double(j, "seconds", sc[i].seconds, 6);
			json_double(j, "busy_pct", sc[i].busy, 1);
			json_double(j, "dhrystones_per_second", sc[i].dps, 0);
			json_double(j, "dmips", sc[i].dmips, 2);
			json_double(j, "ratio", sc[i].ratio, 4);
			json_bool(j, "slow", sc[i].slow);
			total += sc[i].dps;
		} else {
			json_null(j, "iterations");
			json_null(j, "seconds");
			json_null(j, "busy_pct");
			json_null(j, "dhrystones_per_second");
			json_null(j, "dmips");
			json_null(j, "ratio");
			json_null(j, "slow");
		}
		json_str(j, "clock", dhry_clock_name(r->clock));
		json_double(j, "mhz", clock ? r->mhz : NAN, 1);
		json_double(j, "dmips_per_mhz", clock ? sc[i].dmips / r->mhz : NAN, 4);
		json_object_end(j);
	}
	json_array_end(j);

	json_double(j, "median_dmips", median > 0 ? median / DHRY_VAX : NAN, 2);
	json_double(j, "total_dhrystones_per_second", total, 0);
	json_double(j, "total_dmips", total / DHRY_VAX, 2);
	json_array_begin(j, "slow_cpus");
	for (int i = 0; i < n; i++)
		if (sc[i].slow)
			json_i64(j, NULL, res[i].cpu);
	json_array_end(j);
	json_array_begin(j, "failed_cpus");
	for (int i = 0; i < n; i++)
		if (!sc[i].ok)
			json_i64(j, NULL, res[i].cpu);
	json_array_end(j);
	return 0;
}

/* One line per CPU that needs attention, and one about runs too short to mean much. */
static void report(const struct dhry_cmd *c, const struct dhry_result *res,
		   const struct score *sc, int n)
{
	double shortest = 0;
	int shortest_cpu = -1;

	for (int i = 0; i < n; i++) {
		if (res[i].error)
			err_msg("CPU %d: %s", res[i].cpu, res[i].why);
		else if (res[i].failed)
			err_msg("CPU %d: FAILED: %s", res[i].cpu, res[i].why);
		else if (sc[i].slow)
			warn_msg("CPU %d is %.1f %% slower than the median CPU", res[i].cpu,
				 (1 - sc[i].ratio) * 100);
		/* short runs are all noise; a long one that lost its CPU says why it is slow */
		if (sc[i].ok && sc[i].seconds >= DEFAULT_SECONDS && sc[i].busy < BUSY_WARN)
			warn_msg("CPU %d: the benchmark had its CPU %.0f %% of the time; other tasks ran there",
				 res[i].cpu, sc[i].busy);
		if (sc[i].ok && (shortest_cpu < 0 || sc[i].seconds < shortest)) {
			shortest = sc[i].seconds;
			shortest_cpu = res[i].cpu;
		}
	}
	if (c->run.iterations && shortest_cpu >= 0 && shortest < DEFAULT_SECONDS)
		warn_msg("CPU %d ran %.3f s: runs under %d s are not meaningful; raise -i or drop it",
			 shortest_cpu, shortest, DEFAULT_SECONDS);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_dhry(int argc, char **argv)
{
	struct dhry_cmd c = {
		.run.seconds = DEFAULT_SECONDS,
		.threshold = DEFAULT_THRESHOLD,
	};
	const char *fault = getenv("RTLA_DHRY_FAULT_CPU");
	const char *term;
	char err[PARSE_ERR_MAX];
	struct dhry_result *res = NULL;
	struct out_table *t = NULL;
	struct out_opts table_opts;
	struct score *sc = NULL;
	struct out_record rec;
	struct dhry_json body;
	int n, ret;
	double median, t0;

	ret = parse_args(argc, argv, &c);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	ret = EXIT_ERROR;
	if (choose_cpus(c.cpu_arg, &c.run.cpus))
		return EXIT_ERROR;
	/* a bad -o or an unwritable --json-file must fail before minutes of benchmark */
	table_opts = c.out;
	table_opts.json_file = NULL;	/* the record is richer than the table: ours */
	if (out_table_new(&t, "cpus", columns, NCOLUMNS, DEFAULT_COLUMNS, &table_opts, err)) {
		err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	if (out_record_open(&rec, c.out.json, c.out.json_file)) {
		out_table_free(t);
		return EXIT_ERROR;
	}
	/*
	 * The progress line is redrawn with \r and ESC[K: a terminal that
	 * cannot erase (TERM=dumb, a serial console with no TERM) gets none.
	 */
	term = getenv("TERM");
	c.run.progress = isatty(STDERR_FILENO) && term && *term && strcmp(term, "dumb");
	/* the tests' way to see a wrong final value reported as such */
	if (fault && *fault) {
		c.run.fault = true;
		c.run.fault_cpu = atoi(fault);
	}

	n = CPU_COUNT(&c.run.cpus);
	res = calloc(n, sizeof(*res));
	sc = calloc(n, sizeof(*sc));
	if (!res || !sc) {
		err_msg("%s", strerror(ENOMEM));
		goto out;
	}
	t0 = now_s();
	n = dhry_measure(&c.run, res, n);
	if (n < 0) {
		err_msg("%s", strerror(-n));
		goto out;
	}
	median = score_all(res, n, c.threshold, sc);

	ret = strcmp(verdict(res, sc, n), "failed") ? EXIT_PASSED : EXIT_ERROR;
	/* a write error on stdout is main()'s to report, once */
	if (!c.out.json)
		print_table(t, res, sc, n);
	body = (struct dhry_json){ &c, res, sc, n, median, now_s() - t0 };
	if (out_record_write(&rec, DHRY_SCHEMA_VERSION, write_record, &body))
		ret = EXIT_ERROR;
	report(&c, res, sc, n);
out:
	out_record_abandon(&rec);
	out_table_free(t);
	free(res);
	free(sc);
	return ret;
}

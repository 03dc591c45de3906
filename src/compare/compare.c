// SPDX-License-Identifier: GPL-2.0-only
/*
 * compare - `rtla compare BASE.json NEW.json`: judge a noise or timerlat run
 * against a baseline run, CPU by CPU.
 *
 * Both files are the records the noise tools write (-J, --json-file). Every
 * figure both records hold for a CPU is shown with its delta; the latency
 * figures are judged: a regression is a figure worse than the baseline by
 * more than --tolerance percent (and by more than the 1 us the tracer
 * resolves), or by more than a --max-increase the user set for it. The
 * event counts are judged only when named with --max-increase: they move
 * with the workload more than with the machine. Records of different
 * kernels, hosts, tools, backends, CPUs or options are still compared (a
 * kernel upgrade is what a baseline is for) with a warning naming each
 * difference, except timerlat records of different backends: the sampler's
 * thread latency is not the tracer's (src/timerlat/sampler.h), so those are
 * refused unless --across-backends says the user knows. Exit 2 on a
 * regression, 1 on an error.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonread.h"
#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "util.h"

enum { OPT_TOLERANCE = CLI_LONG, OPT_MAX_INCREASE, OPT_ACROSS_BACKENDS };

#define DEFAULT_TOLERANCE_PCT	10.0
#define RESOLUTION_US		1.0	/* below this a time did not really change */
#define COMPARE_SCHEMA_VERSION	1

/*
 * timerlat's figures of a context: in the record's object CONTEXT, as the
 * --fail-if metrics name them (irq_max_us, p99_thread_us), in us
 */
#define TL_FIGURES(c) \
	{ c "_max_us", true, false, true, c, "max_ns", 1e-3 }, \
	{ c "_avg_us", true, false, true, c, "avg_ns", 1e-3 }, \
	{ c "_min_us", true, false, true, c, "min_ns", 1e-3 }, \
	{ "p50_" c "_us", true, false, true, c, "p50_us", 1 }, \
	{ "p90_" c "_us", true, false, true, c, "p90_us", 1 }, \
	{ "p99_" c "_us", true, false, true, c, "p99_us", 1 }, \
	{ "p999_" c "_us", true, false, true, c, "p999_us", 1 }, \
	{ "p9999_" c "_us", true, false, true, c, "p9999_us", 1 }, \
	{ c "_sample_count", false, false, false, c, "count", 1 }

/* The figures of a record's CPU compared, worse when higher unless said otherwise. */
static const struct {
	const char *key;
	bool judged;		/* by --tolerance; the others only by --max-increase */
	bool lower_is_worse;	/* cpu_available_pct */
	bool time;		/* in us: the resolution applies */
	const char *object;	/* NULL: the CPU's own field KEY; else FIELD of that object */
	const char *field;
	double scale;		/* to the figure's unit */
} figures[] = {
	{ "max_single_us", true, false, true, NULL, NULL, 1 },
	{ "max_noise_us", true, false, true, NULL, NULL, 1 },
	{ "noise_us", true, false, true, NULL, NULL, 1 },
	{ "cpu_available_pct", true, true, false, NULL, NULL, 1 },
	{ "max_us", true, false, true, NULL, NULL, 1 },
	{ "avg_us", true, false, true, NULL, NULL, 1 },
	{ "p50_us", true, false, true, NULL, NULL, 1 },
	{ "p90_us", true, false, true, NULL, NULL, 1 },
	{ "p99_us", true, false, true, NULL, NULL, 1 },
	{ "p999_us", true, false, true, NULL, NULL, 1 },
	{ "p9999_us", true, false, true, NULL, NULL, 1 },
	{ "count", false, false, false, NULL, NULL, 1 },
	{ "hw_count", false, false, false, NULL, NULL, 1 },
	{ "nmi_count", false, false, false, NULL, NULL, 1 },
	{ "irq_count", false, false, false, NULL, NULL, 1 },
	{ "softirq_count", false, false, false, NULL, NULL, 1 },
	{ "thread_count", false, false, false, NULL, NULL, 1 },
	TL_FIGURES("irq"),
	TL_FIGURES("thread"),
	TL_FIGURES("user"),
	/* hwlat's */
	{ "max_latency_us", true, false, true, NULL, NULL, 1 },
	{ "inner_max_us", true, false, true, NULL, NULL, 1 },
	{ "outer_max_us", true, false, true, NULL, NULL, 1 },
	{ "sample_count", false, false, false, NULL, NULL, 1 },
	{ "exceeding_count", false, false, false, NULL, NULL, 1 },
	{ "nmi_total_us", false, false, true, NULL, NULL, 1 },
};

#define NR_FIGURES ARRAY_SIZE(figures)

enum { COL_CPU, COL_METRIC, COL_BASE, COL_NEW, COL_DELTA, COL_CHANGE, COL_LIMIT, COL_VERDICT };

static const struct out_column cols[] = {
	[COL_CPU] = { "CPU", "cpu", OUT_NUM, 3, OUT_RIGHT, "the CPU" },
	[COL_METRIC] = { "METRIC", "metric", OUT_STR, 17, 0,
			 "the figure, as in the records (timerlat's as its gate metrics name them)" },
	[COL_BASE] = { "BASE", "base", OUT_NUM, 10, OUT_RIGHT, "its value in BASE.json" },
	[COL_NEW] = { "NEW", "new", OUT_NUM, 10, OUT_RIGHT, "its value in NEW.json" },
	[COL_DELTA] = { "DELTA", "delta", OUT_NUM, 10, OUT_RIGHT, "NEW - BASE" },
	[COL_CHANGE] = { "CHANGE", "change_pct", OUT_NUM, 8, OUT_RIGHT,
			 "the change in percent of BASE (- when BASE is 0)" },
	[COL_LIMIT] = { "LIMIT", "limit", OUT_STR, 8, OUT_RIGHT,
			"what is judged: +10% or +5 (--max-increase); - when not judged" },
	[COL_VERDICT] = { "VERDICT", "verdict", OUT_STR, 10, 0,
			  "ok, better, worse (not judged), regression, or missing" },
};

#define NCOLS ARRAY_SIZE(cols)

/* --max-increase METRIC=VALUE: the figures, the user goes on with the value */
static void figure_names(FILE *out, const struct cli_completion *c)
{
	for (size_t i = 0; i < NR_FIGURES; i++)
		fprintf(out, "%s=\n", figures[i].key);
}

static void column_names(FILE *out, const struct cli_completion *c)
{
	out_column_names(out, cols, NCOLS);
}

static const struct cli_option compare_options[] = {
	CLI_VALUE(OPT_TOLERANCE, "tolerance", "PCT",
		  "how much worse than BASE a latency figure may be, in percent (default 10)"),
	CLI_VALUE(OPT_MAX_INCREASE, "max-increase", "METRIC=VALUE",
		  "how much worse METRIC may be, in its unit (us, percentage points, a count);\n"
		  "\t\tinstead of --tolerance for it; judges counts too; multiple are allowed",
		  .complete = CLI_COMP_CALL, .candidates = figure_names),
	CLI_FLAG(OPT_ACROSS_BACKENDS, "across-backends",
		 "compare timerlat records of the tracer and the sampler backend, which\n"
		 "\t\tmeasure different quantities (refused without it)"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

static void compare_usage(FILE *f);

const struct cli_spec compare_cli = {
	.command = "compare",
	.options = compare_options,
	.usage = compare_usage,
	.positional = CLI_COMP_FILE,
};

static void compare_usage(FILE *f)
{
	fputs("Usage: rtla compare [options] BASE.json NEW.json\n\n"
	      "Compare a noise or timer latency run (the JSON record of osnoise top/hist,\n"
	      "hwnoise [hist], timerlat top/hist) with a baseline run, CPU by CPU; exit 2\n"
	      "when a figure regressed.\n\n"
	      "Options:\n", f);
	cli_print_options(&compare_cli, f);
	out_usage(f, cols, NCOLS);
}

struct limits {
	double tolerance_pct;
	bool has_max[NR_FIGURES];
	double max[NR_FIGURES];
};

static int figure_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NR_FIGURES; i++)
		if (strlen(figures[i].key) == len && !strncmp(figures[i].key, name, len))
			return i;
	return -1;
}

static int parse_number(const char *s, double *v, char *err)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(*v) || *v < 0 || *s == '+' || *s == '-' ||
	    strspn(s, "0123456789.") != strlen(s)) {
		snprintf(err, PARSE_ERR_MAX, "'%s' is not a number >= 0", s);
		return -EINVAL;
	}
	return 0;
}

static int parse_max_increase(const char *s, struct limits *l, char *err)
{
	const char *eq = strchr(s, '=');
	int i = eq ? figure_index(s, eq - s) : -1;

	if (!eq) {
		snprintf(err, PARSE_ERR_MAX, "'%s': expected METRIC=VALUE", s);
		return -EINVAL;
	}
	if (i < 0) {
		snprintf(err, PARSE_ERR_MAX, "'%s': unknown metric '%.*s'", s, (int)(eq - s), s);
		return -EINVAL;
	}
	if (parse_number(eq + 1, &l->max[i], err))
		return -EINVAL;
	l->has_max[i] = true;
	return 0;
}

/* The schema names of the records a noise tool writes (json_record_begin()). */
static const char *const noise_schemas[] = {
	"rtla-osnoise-top", "rtla-osnoise-hist", "rtla-hwnoise", "rtla-hwnoise-hist",
	"rtla-timerlat-top", "rtla-timerlat-hist", "rtla-hwlat-top", "rtla-hwlat-hist",
};

static bool is_noise_schema(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(noise_schemas); i++)
		if (!strcmp(name, noise_schemas[i]))
			return true;
	return false;
}

/* A noise record: an object with the envelope of a noise tool and a "cpus" array. */
static struct jv *load_record(const char *path)
{
	char err[JV_ERR_MAX];
	struct jv *v = jv_parse_file(path, err);
	const struct jv *cpus;
	const char *schema;

	if (!v) {
		err_msg("%s: %s", path, err);
		return NULL;
	}
	cpus = jv_get(v, "cpus");
	if (v->type != JV_OBJ || !cpus || cpus->type != JV_ARR || !jv_get(v, "schema")) {
		err_msg("%s: not a record of a noise tool (no \"cpus\"; write one with -J or "
			"--json-file)", path);
		jv_free(v);
		return NULL;
	}
	/* another command's record has "cpus" too (dhry): its figures are not noise */
	schema = jv_str(jv_get(v, "schema"), "name", "");
	if (!is_noise_schema(schema)) {
		err_msg("%s: not a record of a noise tool (its schema is '%s'; compare takes "
			"records of osnoise top, osnoise hist, hwnoise, hwnoise hist, timerlat top, "
			"timerlat hist, hwlat top and hwlat hist)", path, schema);
		jv_free(v);
		return NULL;
	}
	return v;
}

static const struct jv *find_cpu(const struct jv *rec, int cpu)
{
	const struct jv *cpus = jv_get(rec, "cpus");
	double n;

	for (size_t i = 0; i < cpus->len; i++)
		if (jv_num(&cpus->items[i], "cpu", &n) && (int)n == cpu)
			return &cpus->items[i];
	return NULL;
}

/* Do both records measure the same thing? (one line saying why not) */
static bool same_quantities(const struct jv *a, const struct jv *b)
{
	const char *ba = jv_str(a, "backend", "?"), *bb = jv_str(b, "backend", "?");

	if (strncmp(jv_str(a, "command", ""), "timerlat", 8) || !strcmp(ba, bb))
		return true;
	err_msg("BASE was measured by the %s backend and NEW by the %s: their latencies are "
		"different quantities (give --across-backends to compare them anyway)", ba, bb);
	return false;
}

/* "the records differ in kernel: 6.12.0 (BASE) vs 6.18.0 (NEW)" */
static void warn_differences(const struct jv *a, const struct jv *b)
{
	static const char *const top[] = { "command", "host", "kernel", "backend" };
	static const char *const opts[] = { "cpus", "runtime_us", "period_us", "threshold_us",
					    "duration_s", "house_keeping", "priority" };
	const struct jv *oa = jv_get(a, "options"), *ob = jv_get(b, "options");
	char va[64], vb[64];

	for (size_t i = 0; i < ARRAY_SIZE(top); i++) {
		const char *x = jv_str(a, top[i], "?"), *y = jv_str(b, top[i], "?");

		if (strcmp(x, y))
			warn_msg("the records differ in %s: %s (BASE) vs %s (NEW)", top[i], x, y);
	}
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct jv *x = jv_get(oa, opts[i]), *y = jv_get(ob, opts[i]);
		const struct jv *v[2] = { x, y };
		char *out[2] = { va, vb };

		for (int k = 0; k < 2; k++) {
			if (!v[k] || v[k]->type == JV_NULL)
				snprintf(out[k], 64, "none");
			else if (v[k]->type == JV_NUM)
				snprintf(out[k], 64, "%.10g", v[k]->num);
			else if (v[k]->type == JV_STR)
				snprintf(out[k], 64, "%s", v[k]->str);
			else
				snprintf(out[k], 64, "?");
		}
		if (strcmp(va, vb))
			warn_msg("the records differ in option %s: %s (BASE) vs %s (NEW)", opts[i],
				 va, vb);
	}
}

struct tally {
	int regressions, compared;
};

/* Figure F of a record's CPU object C, in its unit; false where the record has none. */
static bool figure_value(const struct jv *c, size_t f, double *v)
{
	const struct jv *o = figures[f].object ? jv_get(c, figures[f].object) : c;
	const struct jv *x = o && o->type == JV_OBJ ?
			     jv_get(o, figures[f].field ? figures[f].field : figures[f].key) : NULL;

	if (!x || x->type != JV_NUM)
		return false;
	*v = x->num * (figures[f].scale ? figures[f].scale : 1);
	return true;
}

static void add_row(struct out_table *t, int cpu, const char *metric,
		    const double *bv, const double *nv, const char *limit, const char *verdict)
{
	struct out_row *r = out_row_add(t);
	double delta = 0;

	out_set_fmt(r, COL_CPU, "%d", cpu);
	out_set_str(r, COL_METRIC, metric);
	if (bv)
		out_set_fmt(r, COL_BASE, "%.10g", *bv);
	else
		out_set_none(r, COL_BASE);
	if (nv)
		out_set_fmt(r, COL_NEW, "%.10g", *nv);
	else
		out_set_none(r, COL_NEW);
	if (bv && nv) {
		delta = *nv - *bv;
		out_set_fmt(r, COL_DELTA, "%.10g", delta);
		if (*bv)
			out_set_fmt(r, COL_CHANGE, "%.1f", delta / fabs(*bv) * 100);
		else
			out_set_none(r, COL_CHANGE);
	} else {
		out_set_none(r, COL_DELTA);
		out_set_none(r, COL_CHANGE);
	}
	if (limit)
		out_set_str(r, COL_LIMIT, limit);
	else
		out_set_none(r, COL_LIMIT);
	out_set_str(r, COL_VERDICT, verdict);
}

/*
 * How much worse NEW is than BASE (positive: worse), and whether that is a
 * regression under the limits; LIMIT gets what was judged.
 */
static const char *judge(size_t f, double base, double new, const struct limits *l,
			 char *limit, size_t len, bool *regression)
{
	double worse = figures[f].lower_is_worse ? base - new : new - base;
	/* cpu_available_pct: the share of the CPU lost to noise grows */
	double ref = figures[f].lower_is_worse ? 100 - base : base;

	*regression = false;
	if (l->has_max[f]) {
		snprintf(limit, len, "+%.10g", l->max[f]);
		*regression = worse > l->max[f];
	} else if (figures[f].judged) {
		snprintf(limit, len, "+%.10g%%", l->tolerance_pct);
		*regression = worse > 0 && (ref > 0 ? worse / ref * 100 > l->tolerance_pct : true) &&
			      (!figures[f].time || worse > RESOLUTION_US);
	} else {
		limit[0] = '\0';
	}
	if (*regression)
		return "regression";
	if (!limit[0])
		return worse > 0 ? "worse" : worse < 0 ? "better" : "same";
	return worse < 0 ? "better" : "ok";
}

static void compare_cpu(struct out_table *t, const struct jv *bc, const struct jv *nc, int cpu,
			const struct limits *l, struct tally *tally)
{
	for (size_t f = 0; f < NR_FIGURES; f++) {
		char limit[32];
		const char *verdict;
		bool regression;
		double bv, nv;

		if (!figure_value(bc, f, &bv))
			continue;	/* the baseline did not measure it: nothing to judge */
		if (!figure_value(nc, f, &nv)) {
			/* a figure the baseline has and NEW lost is not a pass */
			add_row(t, cpu, figures[f].key, &bv, NULL, NULL, "missing");
			tally->regressions++;
			continue;
		}
		verdict = judge(f, bv, nv, l, limit, sizeof(limit), &regression);
		add_row(t, cpu, figures[f].key, &bv, &nv, limit[0] ? limit : NULL, verdict);
		tally->regressions += regression;
		tally->compared++;
	}
}

struct compare_record {
	struct out_table *t;
	const struct tally *tally;
	const char *base, *new;
	const struct limits *l;
};

/* The record's body, after the envelope (output.h). */
static int write_record(struct json *j, const void *arg)
{
	const struct compare_record *rec = arg;
	const struct tally *tally = rec->tally;
	const struct limits *l = rec->l;

	json_str(j, "verdict", tally->regressions ? "failed" : "passed");
	json_str(j, "base", rec->base);
	json_str(j, "new", rec->new);
	json_double(j, "tolerance_pct", l->tolerance_pct, 3);
	json_i64(j, "compared", tally->compared);
	json_i64(j, "regressions", tally->regressions);
	return out_table_json(rec->t, j);
}

int cmd_compare(int argc, char **argv)
{
	struct limits l = { .tolerance_pct = DEFAULT_TOLERANCE_PCT };
	bool across_backends = false;
	struct out_opts out = { 0 };
	struct jv *base = NULL, *new = NULL;
	struct tally tally = { 0 };
	struct out_table *t = NULL;
	struct out_record rec = { 0 };
	struct compare_record body;
	char err[PARSE_ERR_MAX];
	struct cli_parser p;
	const struct jv *cpus;
	int id, status = EXIT_ERROR;

	cli_begin(&p, &compare_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &out))
			continue;
		switch (id) {
		case OPT_TOLERANCE:
			if (parse_number(p.arg, &l.tolerance_pct, err)) {
				cli_error(&p, "invalid --tolerance", err);
				return EXIT_ERROR;
			}
			break;
		case OPT_MAX_INCREASE:
			if (parse_max_increase(p.arg, &l, err)) {
				cli_error(&p, "invalid --max-increase", err);
				return EXIT_ERROR;
			}
			break;
		case OPT_ACROSS_BACKENDS:
			across_backends = true;
			break;
		}
	}
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (argc - p.optind != 2) {
		cli_usage_error(&compare_cli, argc - p.optind < 2 ? "missing argument" :
				"unexpected argument", argc - p.optind < 2 ?
				"expected BASE.json NEW.json" : argv[p.optind + 2]);
		return EXIT_ERROR;
	}
	base = load_record(argv[p.optind]);
	new = base ? load_record(argv[p.optind + 1]) : NULL;
	if (!new || (!across_backends && !same_quantities(base, new)))
		goto out;
	/* the record is ours to write: it carries the verdict beside the rows */
	if (out_record_open(&rec, out.json, out.json_file))
		goto out;
	out.json = false;
	out.json_file = NULL;
	if (out_table_new(&t, "comparisons", cols, NCOLS,
			  "CPU,METRIC,BASE,NEW,DELTA,CHANGE,LIMIT,VERDICT", &out, err)) {
		cli_usage_error(&compare_cli, "invalid -o", err);
		goto out;
	}
	warn_differences(base, new);
	cpus = jv_get(base, "cpus");
	for (size_t i = 0; i < cpus->len; i++) {
		const struct jv *bc = &cpus->items[i], *nc;
		double n;

		if (!jv_num(bc, "cpu", &n))
			continue;
		nc = find_cpu(new, (int)n);
		if (!nc) {
			warn_msg("cpu %d is in BASE but was not measured in NEW", (int)n);
			tally.regressions++;
			continue;
		}
		compare_cpu(t, bc, nc, (int)n, &l, &tally);
	}
	cpus = jv_get(new, "cpus");
	for (size_t i = 0; i < cpus->len; i++) {
		double n;

		if (jv_num(&cpus->items[i], "cpu", &n) && !find_cpu(base, (int)n))
			warn_msg("cpu %d is in NEW only: not compared", (int)n);
	}
	if (!tally.compared)
		warn_msg("no figure of BASE was found in NEW: nothing compared");

	status = tally.regressions ? EXIT_STOPPED : EXIT_PASSED;
	if (!rec.to_stdout) {
		out_table_print(t);
		if (tally.regressions)
			err_msg("FAILED: %d regression%s beyond the limits", tally.regressions,
				tally.regressions == 1 ? "" : "s");
	}
	body = (struct compare_record){ t, &tally, argv[p.optind], argv[p.optind + 1], &l };
	if (out_record_write(&rec, COMPARE_SCHEMA_VERSION, write_record, &body))
		status = EXIT_ERROR;
	out_flush_stdout();
out:
	out_record_abandon(&rec);
	out_table_free(t);
	jv_free(base);
	jv_free(new);
	return status;
}

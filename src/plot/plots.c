// SPDX-License-Identifier: GPL-2.0-only
/*
 * plots - the plots of a record (plots.h). Every plot of a CPU per curve
 * goes through draw_cpus(): the others first, the worst CPU last (on top)
 * in the mark colour, and one legend.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "plot/plots.h"
#include "plot/svg.h"
#include "util.h"

#define WIDTH		900
#define HEIGHT		380
#define Y_FLOOR		0.8	/* the log axis' bottom: a count of 1 stands above it */
#define LEGEND_CPUS	12	/* beyond: the worst by name, the others counted */

const char *plot_schema(const struct jv *rec)
{
	return jv_str(jv_get(rec, "schema"), "name", "");
}

/* The number at INDEX of array V, or NAN */
static double at(const struct jv *v, size_t index)
{
	return v && v->type == JV_ARR && index < v->len && v->items[index].type == JV_NUM ?
	       v->items[index].num : NAN;
}

/* One CPU's curve: its points and, for a histogram, its figures. */
struct curve {
	int cpu;
	double *x, *y;
	int n;
	double max_us, p99_us, p999_us, over;
};

static void curves_free(struct curve *c, int n)
{
	for (int i = 0; c && i < n; i++) {
		free(c[i].x);
		free(c[i].y);
	}
	free(c);
}

/* room for N points; 0 or -ENOMEM */
static int curve_alloc(struct curve *c, size_t n)
{
	c->x = calloc(n, sizeof(double));
	c->y = calloc(n, sizeof(double));
	return c->x && c->y ? 0 : -ENOMEM;
}

/*
 * N curves, one per CPU, the worst on top in the mark colour, and the
 * legend: every CPU by name, or beyond LEGEND_CPUS the worst alone and the
 * others counted (their colours cycle; a curve's <title> names its CPU).
 */
static void draw_cpus(struct svg *s, const struct curve *c, int n, int worst)
{
	char (*names)[32] = calloc(n > 0 ? n : 1, sizeof(*names)), others[96];
	const char **labels = calloc(n > 0 ? n : 1, sizeof(*labels));
	const char **colours = calloc(n > 0 ? n : 1, sizeof(*colours));

	if (!names || !labels || !colours)
		goto out;
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), i == worst ? "CPU %d (worst)" : "CPU %d", c[i].cpu);
		labels[i] = names[i];
		colours[i] = i == worst ? SVG_MARK : svg_colour(i);
		if (i != worst)
			svg_line(s, c[i].x, c[i].y, c[i].n, colours[i], 1.2, names[i]);
	}
	if (worst >= 0 && worst < n)
		svg_line(s, c[worst].x, c[worst].y, c[worst].n, SVG_MARK, 2.5, names[worst]);
	if (n <= LEGEND_CPUS || worst < 0) {
		svg_legend(s, labels, colours, n <= LEGEND_CPUS ? n : 0);
	} else {
		snprintf(others, sizeof(others), "the other %d CPUs (a curve's tooltip names its CPU)",
			 n - 1);
		labels[0] = names[worst];
		labels[1] = others;
		colours[0] = SVG_MARK;
		colours[1] = svg_colour(0);
		svg_legend(s, labels, colours, 2);
	}
out:
	free(names);
	free(labels);
	free(colours);
}

/* the legend entries draw_cpus() draws for N CPUs */
static int legend_entries(int n)
{
	return n <= LEGEND_CPUS ? n : 2;
}

/* BUCKETS ([[us, count], ...], ascending) of size BS as steps that drop to the floor between runs */
static int steps_of(struct curve *c, const struct jv *buckets, double bs)
{
	size_t n = buckets ? buckets->len : 0;
	double end = 0;

	if (curve_alloc(c, 4 * n + 2))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		double v = at(&buckets->items[i], 0), count = at(&buckets->items[i], 1);

		if (!isfinite(v) || !isfinite(count))
			continue;
		if (c->n && end < v) {
			c->x[c->n] = end, c->y[c->n++] = Y_FLOOR;
			c->x[c->n] = v, c->y[c->n++] = Y_FLOOR;
		}
		c->x[c->n] = v, c->y[c->n++] = count;
		c->x[c->n] = v + bs, c->y[c->n++] = count;
		end = v + bs;
	}
	if (c->n)
		c->x[c->n] = end, c->y[c->n++] = Y_FLOOR;
	return 0;
}

/* CPU's row of a record's cpus[] */
static const struct jv *cpu_row(const struct jv *rec, int cpu)
{
	const struct jv *cpus = jv_arr(rec, "cpus");

	for (size_t i = 0; cpus && i < cpus->len; i++)
		if (jv_num_or(&cpus->items[i], "cpu", -1) == cpu)
			return &cpus->items[i];
	return NULL;
}

/*
 * The histogram curves of a noise record (CTX NULL) or of context CTX of a
 * timerlat or hwlat record, *NR of them (a CPU without samples too: its run
 * saw nothing above the threshold); NULL with *NR 0 when there are none,
 * -ENOMEM in *ERR when out of memory
 */
static struct curve *gather(const struct jv *rec, const char *ctx, int *nr, double *bs, int *err)
{
	const struct jv *hist = jv_get(rec, "histogram");
	const struct jv *cpus = ctx ? jv_arr(hist, "cpus") : jv_arr(rec, "cpus");
	struct curve *c;

	*nr = 0;
	*bs = jv_num_or(hist, ctx ? "bucket_size" : "bucket_size_us", 1);
	if (!cpus || !cpus->len)
		return NULL;
	c = calloc(cpus->len, sizeof(*c));
	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t i = 0; i < cpus->len; i++) {
		const struct jv *row = &cpus->items[i], *h = ctx ? jv_get(row, ctx) : row;
		const struct jv *own = ctx ? cpu_row(rec, (int)jv_num_or(row, "cpu", -1)) : row;
		/* timerlat's figures are in an object per context, hwlat's are CTX_max_us */
		const struct jv *figures = ctx ? jv_get(own, ctx) : row;
		struct curve *k = &c[*nr];
		char key[32];

		if (!h || !jv_arr(h, "buckets"))
			continue;
		k->cpu = (int)jv_num_or(row, "cpu", -1);
		k->over = jv_num_or(h, ctx ? "over" : "over_count", 0);
		k->p99_us = jv_num_or(figures, "p99_us", NAN);
		k->p999_us = jv_num_or(figures, "p999_us", NAN);
		k->max_us = ctx ? jv_num_or(figures, "max_ns", NAN) / 1000 : jv_num_or(figures, "max_us", NAN);
		if (ctx && !figures) {
			snprintf(key, sizeof(key), "%s_max_us", ctx);
			k->max_us = jv_num_or(own, key, NAN);
		}
		(*nr)++;
		if (steps_of(k, jv_arr(h, "buckets"), *bs)) {
			curves_free(c, *nr);
			*nr = 0;
			*err = -ENOMEM;
			return NULL;
		}
	}
	return c;
}

/*
 * Does a --fail-if limit apply to this histogram: max_single_us and the
 * percentiles (p99_us) of a noise record; CTX_max_us and pNN_CTX_us of
 * timerlat's context CTX
 */
static bool limit_applies(const char *metric, const char *ctx)
{
	char max[32], tail[32];
	const char *p = metric + 1 + strspn(metric + 1, "0123456789");

	if (!ctx)
		return !strcmp(metric, "max_single_us") || (metric[0] == 'p' && !strcmp(p, "_us"));
	snprintf(max, sizeof(max), "%s_max_us", ctx);
	snprintf(tail, sizeof(tail), "_%s_us", ctx);
	return !strcmp(metric, max) || (metric[0] == 'p' && !strcmp(p, tail));
}

/*
 * The worst CPU's p99, p99.9 and maximum as marks; those beyond the
 * histogram's last bucket (XMAX) named in the note instead, with the
 * samples the histogram did not hold
 */
static void histogram_marks(struct svg *s, const struct curve *c, double xmax)
{
	static const char *const names[] = { "p99", "p99.9", "max" };
	const double v[] = { c->p99_us, c->p999_us, c->max_us };
	char note[256] = "", a[32], b[32], label[384];
	size_t len = 0;

	for (int i = 0; i < 3; i++) {
		if (isnan(v[i]) || (i == 1 && v[1] == v[0]))
			continue;
		snprintf(label, sizeof(label), "%s %s us", names[i], svg_num(v[i], i == 2 ? 1 : 0, a, sizeof(a)));
		if (v[i] <= xmax)
			svg_mark(s, v[i], true, i == 2 ? SVG_MARK : "#000000", label);
		else if (len < sizeof(note))
			len += snprintf(note + len, sizeof(note) - len, "%s%s", len ? ", " : "", label);
	}
	if (len || c->over > 0) {
		snprintf(label, sizeof(label), "the worst, CPU %d, beyond the histogram's %s us: %s%s%s samples",
			 c->cpu, svg_num(xmax, 0, a, sizeof(a)), note, len ? "; " : "",
			 svg_num(c->over, 0, b, sizeof(b)));
		svg_note(s, label);
	}
}

/* The --fail-if limits on this histogram's figures, from the record's gate */
static void histogram_limits(struct svg *s, const struct jv *rec, const char *ctx)
{
	const struct jv *limits = jv_arr(jv_get(rec, "gate"), "limits");
	char label[96];

	for (size_t i = 0; limits && i < limits->len; i++) {
		const struct jv *l = &limits->items[i];
		double v = jv_num_or(l, "limit", NAN);

		if (isnan(v) || !limit_applies(jv_str(l, "metric", ""), ctx))
			continue;
		snprintf(label, sizeof(label), "--fail-if %s", jv_str(l, "criterion", ""));
		svg_mark(s, v, true, "#009E73", label);
	}
}

/* WHAT names the histogram: "single noise", "IRQ latency", "hardware latency (inner loop gaps)" */
static int plot_histogram(FILE *f, const struct jv *rec, const char *ctx, const char *what)
{
	struct svg_axis x = { .max = 10, .label = ctx ? "latency (us)" : "single noise (us)" };
	struct svg_axis y = { .min = Y_FLOOR, .max = 10, .log = true, .label = "samples" };
	char title[160], desc[400], a[32], b[32], c[32];
	int n, worst = 0, err = 0;
	struct curve *cv;
	double bs;
	struct svg s;

	cv = gather(rec, ctx, &n, &bs, &err);
	if (!n)
		return err;
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < cv[i].n; k++) {
			x.max = fmax(x.max, cv[i].x[k]);
			y.max = fmax(y.max, cv[i].y[k]);
		}
		if (cv[i].max_us > cv[worst].max_us || (isnan(cv[worst].max_us) && !isnan(cv[i].max_us)))
			worst = i;
	}
	y.max = pow(10, ceil(log10(y.max * 1.5)));
	snprintf(title, sizeof(title), "%s: %s histogram, one curve per CPU", jv_str(rec, "command", ""),
		 what);
	snprintf(desc, sizeof(desc), "%d CPUs; the worst, CPU %d: max %s us, p99 %s us, p99.9 %s us",
		 n, cv[worst].cpu, svg_num(cv[worst].max_us, 1, a, sizeof(a)),
		 svg_num(cv[worst].p99_us, 0, b, sizeof(b)), svg_num(cv[worst].p999_us, 0, c, sizeof(c)));
	svg_begin(&s, f, WIDTH, HEIGHT, title, desc, &x, &y, legend_entries(n));
	svg_axes(&s);
	draw_cpus(&s, cv, n, worst);
	histogram_marks(&s, &cv[worst], x.max);
	histogram_limits(&s, rec, ctx);
	svg_end(&s);
	curves_free(cv, n);
	return 1;
}

/* The index of field NAME in a series, or -1 */
static int field_of(const struct jv *series, const char *name)
{
	const struct jv *fields = jv_arr(series, "fields");

	for (size_t i = 0; fields && i < fields->len; i++)
		if (!strcmp(jv_str(&fields->items[i], "name", ""), name))
			return (int)i;
	return -1;
}

/*
 * What a series plot shows of each point: the field VALUE where the field
 * COUNT is not 0 (the point measured something), divided by SCALE; for
 * availability, 100 x (1 - VALUE / COUNT)
 */
struct series_view {
	const char *count, *value;
	double scale;
	bool availability;
	const char *title, *ylabel;
};

static double point_value(const struct jv *pt, const struct series_view *v, int count, int value)
{
	double n = at(pt, count), x = at(pt, value);

	if (!(n > 0) || !isfinite(x))
		return NAN;
	return v->availability ? 100.0 * (1 - x / n) : x / v->scale;
}

/* A series' rows as curves of the view's values, the point at the middle of its interval */
static struct curve *series_curves(const struct jv *rows, const struct series_view *v, int count,
				   int value, double width, double unit, int *err)
{
	struct curve *c = calloc(rows->len, sizeof(*c));

	if (!c) {
		*err = -ENOMEM;
		return NULL;
	}
	for (size_t r = 0; r < rows->len; r++) {
		const struct jv *pts = jv_arr(&rows->items[r], "points");

		c[r].cpu = (int)jv_num_or(&rows->items[r], "cpu", -1);
		if (curve_alloc(&c[r], (pts ? pts->len : 0) + 1)) {
			curves_free(c, rows->len);
			*err = -ENOMEM;
			return NULL;
		}
		for (size_t i = 0; pts && i < pts->len; i++) {
			double y = point_value(&pts->items[i], v, count, value);

			if (!isfinite(y))
				continue;
			c[r].x[c[r].n] = (i + 0.5) * width / unit;
			c[r].y[c[r].n++] = y;
		}
	}
	return c;
}

static int plot_series(FILE *f, const struct jv *rec, const struct series_view *v)
{
	const struct jv *series = jv_get(rec, "series"), *rows = jv_arr(series, "rows");
	double width = jv_num_or(series, "width_s", 0), unit = 1, worst_v = -INFINITY, worst_t = 0;
	double ymin = INFINITY, ymax = -INFINITY;
	struct svg_axis x = { .max = 1, .label = "time since the start (s)" };
	struct svg_axis y = { .max = 1, .label = v->ylabel };
	int count = field_of(series, v->count), value = field_of(series, v->value), worst = -1, err = 0;
	char title[160], desc[200], a[32], b[32];
	struct curve *c;
	double end = 0;
	struct svg s;
	int n;

	if (!rows || !rows->len || !(width > 0) || count < 0 || value < 0)
		return 0;
	n = (int)rows->len;
	c = series_curves(rows, v, count, value, width, 1, &err);
	if (!c)
		return err;
	for (int r = 0; r < n; r++)
		for (int i = 0; i < c[r].n; i++) {
			/* availability: the lowest is the worst */
			double bad = v->availability ? -c[r].y[i] : c[r].y[i];

			end = fmax(end, c[r].x[i] + width / 2);
			ymin = fmin(ymin, c[r].y[i]);
			ymax = fmax(ymax, c[r].y[i]);
			if (worst < 0 || bad > worst_v) {
				worst_v = bad;
				worst = r;
				worst_t = c[r].x[i] - width / 2;
			}
		}
	if (worst < 0) {
		curves_free(c, n);
		return 0;
	}
	if (end > 3 * 3600)
		unit = 3600, x.label = "time since the start (h)";
	else if (end > 180)
		unit = 60, x.label = "time since the start (min)";
	for (int r = 0; r < n; r++)
		for (int i = 0; i < c[r].n; i++)
			c[r].x[i] /= unit;
	x.max = end / unit;
	if (v->availability) {
		y.min = ymin > 99.9 ? 99.0 : fmax(floor(ymin) - 1, 0);
		y.max = 100;
	} else {
		y.max = ymax > 0 ? ymax * 1.1 : 1;
	}
	snprintf(title, sizeof(title), "%s: %s over time, per CPU", jv_str(rec, "command", ""), v->title);
	snprintf(desc, sizeof(desc), "%d CPUs, a point every %s s; the worst point: CPU %d at %s s", n,
		 svg_num(width, 3, a, sizeof(a)), c[worst].cpu, svg_num(worst_t, 0, b, sizeof(b)));
	svg_begin(&s, f, WIDTH, HEIGHT, title, desc, &x, &y, legend_entries(n));
	svg_axes(&s);
	draw_cpus(&s, c, n, worst);
	svg_end(&s);
	curves_free(c, n);
	return 1;
}

static bool flag(const struct jv *v, const char *key)
{
	const struct jv *b = jv_get(v, key);

	return b && b->type == JV_BOOL && b->b;
}

static int plot_dhry(FILE *f, const struct jv *rec)
{
	const struct jv *cpus = jv_arr(rec, "cpus");
	struct svg_axis x = { -0.5, 0.5, false, "CPU", SVG_TICKS_WHOLE };
	struct svg_axis y = { .max = 1, .label = "DMIPS" };
	double median = jv_num_or(rec, "median_dmips", NAN), pct = jv_num_or(rec, "threshold_pct", 10);
	const char *names[] = { "DMIPS", "slow core" }, *colours[] = { svg_colour(0), SVG_MARK };
	char desc[200], a[32], b[32], label[96];
	struct svg s;

	if (!cpus || !cpus->len)
		return 0;
	for (size_t i = 0; i < cpus->len; i++) {
		double cpu = jv_num_or(&cpus->items[i], "cpu", 0);

		y.max = fmax(y.max, jv_num_or(&cpus->items[i], "dmips", 0));
		x.max = fmax(x.max, cpu + 0.5);
		x.min = fmin(x.min, cpu - 0.5);
	}
	y.max *= 1.15;
	snprintf(desc, sizeof(desc), "%zu CPUs, median %s DMIPS; slower than %s%% below it is a slow core",
		 cpus->len, svg_num(median, 0, a, sizeof(a)), svg_num(pct, 0, b, sizeof(b)));
	svg_begin(&s, f, WIDTH, HEIGHT, "dhry: DMIPS per CPU (Dhrystone 2.1)", desc, &x, &y, 2);
	svg_axes(&s);
	for (size_t i = 0; i < cpus->len; i++) {
		const struct jv *c = &cpus->items[i];
		double mhz = jv_num_or(c, "mhz", NAN), dmips = jv_num_or(c, "dmips", 0);

		snprintf(label, sizeof(label), "CPU %d: %s DMIPS", (int)jv_num_or(c, "cpu", 0),
			 svg_num(dmips, 0, a, sizeof(a)));
		if (!isnan(mhz))
			snprintf(label + strlen(label), sizeof(label) - strlen(label), ", %s DMIPS/MHz",
				 svg_num(jv_num_or(c, "dmips_per_mhz", 0), 2, b, sizeof(b)));
		svg_bar(&s, jv_num_or(c, "cpu", 0), 0.7, dmips, flag(c, "slow") ? SVG_MARK : svg_colour(0),
			false, label);
	}
	snprintf(label, sizeof(label), "slow below %s DMIPS (median - %s%%)",
		 svg_num(median * (1 - pct / 100), 0, a, sizeof(a)), svg_num(pct, 0, b, sizeof(b)));
	if (!isnan(median))
		svg_mark(&s, median * (1 - pct / 100), false, "#000000", label);
	svg_legend(&s, names, colours, 2);
	svg_end(&s);
	return 1;
}

/* compare's figures drawn: the times (us), but the run's total noise */
static bool drawn_figure(const struct jv *row)
{
	const char *m = jv_str(row, "metric", "");

	return str_ends_with(m, "_us") && strcmp(m, "noise_us");
}

/* compare: the times of each CPU, BASE hollow and NEW filled, a regression in the mark colour */
static int plot_compare(FILE *f, const struct jv *rec)
{
	const struct jv *rows = jv_arr(rec, "comparisons");
	/* the rows are named under the axis: no label of its own */
	struct svg_axis x = { -0.5, 0.5, false, "", SVG_TICKS_NONE };
	struct svg_axis y = { .min = 0.8, .max = 10, .log = true, .label = "us (log)" };
	const char *names[] = { "BASE", "NEW", "NEW, a regression" };
	const char *colours[] = { "#000000", svg_colour(3), SVG_MARK };
	char label[160], a[32], b[32];
	int n = 0;
	struct svg s;

	for (size_t i = 0; rows && i < rows->len; i++) {
		if (!drawn_figure(&rows->items[i]))
			continue;
		n++;
		y.max = fmax(y.max, fmax(jv_num_or(&rows->items[i], "base", 0),
					 jv_num_or(&rows->items[i], "new", 0)));
	}
	if (!n)
		return 0;
	x.max = n - 0.5;
	y.max = pow(10, ceil(log10(y.max * 1.5)));
	snprintf(label, sizeof(label), "%s regression%s of %s figures judged",
		 svg_num(jv_num_or(rec, "regressions", 0), 0, a, sizeof(a)),
		 jv_num_or(rec, "regressions", 0) == 1 ? "" : "s",
		 svg_num(jv_num_or(rec, "compared", 0), 0, b, sizeof(b)));
	/* 60 px more under the axis for the rows' names */
	svg_begin(&s, f, WIDTH, HEIGHT + 60, "compare: BASE and NEW, per CPU and figure", label,
		  &x, &y, 3);
	s.bottom -= 60;
	svg_axes(&s);
	n = 0;
	for (size_t i = 0; i < rows->len; i++) {
		const struct jv *r = &rows->items[i];
		const char *verdict = jv_str(r, "verdict", "");
		bool bad = !strcmp(verdict, "regression");

		if (!drawn_figure(r))
			continue;
		snprintf(label, sizeof(label), "CPU %d %s: BASE %s, NEW %s (%s)", (int)jv_num_or(r, "cpu", 0),
			 jv_str(r, "metric", ""), svg_num(jv_num_or(r, "base", 0), 1, a, sizeof(a)),
			 svg_num(jv_num_or(r, "new", 0), 1, b, sizeof(b)), verdict);
		svg_bar(&s, n, 0.8, jv_num_or(r, "base", 0), "#000000", true, label);
		svg_bar(&s, n, 0.45, jv_num_or(r, "new", 0), bad ? SVG_MARK : svg_colour(3), false, label);
		snprintf(label, sizeof(label), "%d %s", (int)jv_num_or(r, "cpu", 0), jv_str(r, "metric", ""));
		svg_category(&s, n, label, bad ? SVG_MARK : "#000000");
		n++;
	}
	svg_legend(&s, names, colours, 3);
	svg_end(&s);
	return 1;
}

/* Did a timerlat record measure context CTX: wake-ups counted on some CPU */
static bool has_context(const struct jv *rec, const char *ctx)
{
	const struct jv *cpus = jv_arr(rec, "cpus");

	for (size_t i = 0; cpus && i < cpus->len; i++)
		if (jv_num_or(jv_get(&cpus->items[i], ctx), "count", 0) > 0)
			return true;
	return false;
}

static const struct series_view max_single = {
	"periods", "max_single_us", 1, false, "max single noise", "max single noise (us)",
};
static const struct series_view availability = {
	"runtime_us", "noise_us", 1, true, "availability", "CPU available to the workload (%)",
};

/* timerlat's contexts: the record's key, the histogram's name, the series' view */
static const struct {
	const char *key, *hist;
	struct series_view series;
} contexts[] = {
	{ "irq", "IRQ latency", { "irq_count", "irq_max_ns", 1000, false, "max IRQ latency", "max latency (us)" } },
	{ "thread", "thread latency",
	  { "thread_count", "thread_max_ns", 1000, false, "max thread latency", "max latency (us)" } },
	{ "user", "user-space latency",
	  { "user_count", "user_max_ns", 1000, false, "max user-space latency", "max latency (us)" } },
};

/* each one adds its plots while ONE is false or none was drawn yet */
#define MORE(n, one) (!(one) || !(n))

static int plots_noise(FILE *f, const struct jv *rec, bool one)
{
	int n = plot_histogram(f, rec, NULL, "single noise"), r;

	if (n >= 0 && MORE(n, one) && (r = plot_series(f, rec, &max_single)) != 0)
		n = r < 0 ? r : n + r;
	if (n >= 0 && MORE(n, one) && (r = plot_series(f, rec, &availability)) != 0)
		n = r < 0 ? r : n + r;
	return n;
}

static int plots_timerlat(FILE *f, const struct jv *rec, bool one)
{
	int n = 0, r;

	for (size_t c = 0; c < ARRAY_SIZE(contexts) && n >= 0 && MORE(n, one); c++)
		if (has_context(rec, contexts[c].key) &&
		    (r = plot_histogram(f, rec, contexts[c].key, contexts[c].hist)) != 0)
			n = r < 0 ? r : n + r;
	for (size_t c = 0; c < ARRAY_SIZE(contexts) && n >= 0 && MORE(n, one); c++)
		if (has_context(rec, contexts[c].key) &&
		    (r = plot_series(f, rec, &contexts[c].series)) != 0)
			n = r < 0 ? r : n + r;
	return n;
}

static int plots_hwlat(FILE *f, const struct jv *rec, bool one)
{
	int n = plot_histogram(f, rec, "inner", "hardware latency (inner loop gaps)"), r;

	if (n >= 0 && MORE(n, one) &&
	    (r = plot_histogram(f, rec, "outer", "hardware latency (outer loop gaps)")) != 0)
		n = r < 0 ? r : n + r;
	return n;
}

static int plots_dhry(FILE *f, const struct jv *rec, bool one)
{
	return plot_dhry(f, rec);
}

static int plots_compare(FILE *f, const struct jv *rec, bool one)
{
	return plot_compare(f, rec);
}

/* Which plots a record has, by its schema name (its start: rtla-timerlat-top, -hist) */
static const struct {
	const char *schema;
	int (*plots)(FILE *f, const struct jv *rec, bool one);
} kinds[] = {
	{ "rtla-osnoise", plots_noise },
	{ "rtla-hwnoise", plots_noise },
	{ "rtla-timerlat", plots_timerlat },
	{ "rtla-hwlat", plots_hwlat },
	{ "rtla-dhry", plots_dhry },
	{ "rtla-compare", plots_compare },
};

int plot_record(FILE *f, const struct jv *rec, int first)
{
	const char *schema = plot_schema(rec);

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strncmp(schema, kinds[i].schema, strlen(kinds[i].schema)))
			return kinds[i].plots(f, rec, first);
	return 0;
}

int plot_svg_file(const char *path, const struct jv *rec)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int plots, ret = 0;

	if (!m)
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", m);
	plots = plot_record(m, rec, 1);
	if (fclose(m) || plots == -ENOMEM)
		ret = -ENOMEM;
	else if (!plots)
		ret = -ENODATA;
	else if (!strcmp(path, "-"))
		fwrite(text, 1, len, stdout);	/* main() reports a failed stdout, once */
	else
		ret = fs_write_text(path, text, len);
	free(text);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * plots - the plots of a record (plots.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsutil.h"
#include "output.h"
#include "plot/plots.h"
#include "plot/svg.h"

#define WIDTH	900
#define HEIGHT	380
#define Y_FLOOR	0.8	/* the log axis' bottom: a count of 1 stands above it */

static const char *const contexts[] = { "irq", "thread", "user" };
static const char *const context_names[] = { "IRQ", "thread", "user-space" };

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

/*
 * The legend of one curve per CPU: each CPU by name, the worst marked;
 * beyond LEGEND_CPUS the worst alone and the others together (their
 * colours cycle: a curve's <title> names its CPU)
 */
#define LEGEND_CPUS 12

static void cpu_legend(struct svg *s, const char *const *names, const char *const *colours, int n,
		       int worst)
{
	char others[96];
	const char *two[2], *two_colours[2] = { SVG_MARK, "#0072B2" };

	if (n <= LEGEND_CPUS) {
		svg_legend(s, names, colours, n);
		return;
	}
	snprintf(others, sizeof(others), "the other %d CPUs (a curve's tooltip names its CPU)", n - 1);
	two[0] = names[worst];
	two[1] = others;
	svg_legend(s, two, two_colours, 2);
}

/* the legend entries cpu_legend() draws */
static int legend_entries(int n)
{
	return n <= LEGEND_CPUS ? n : 6;
}

/* One CPU's histogram as a step curve, with its figures. */
struct curve {
	int cpu;
	double *x, *y;
	int n;
	double max_us, p99_us, p999_us, over;
};

static void curves_free(struct curve *c, int n)
{
	for (int i = 0; i < n; i++) {
		free(c[i].x);
		free(c[i].y);
	}
	free(c);
}

/* BUCKETS ([[us, count], ...], ascending) of size BS as steps that drop to the floor between runs */
static int steps_of(struct curve *c, const struct jv *buckets, double bs)
{
	size_t n = buckets ? buckets->len : 0;
	double end = 0;

	c->x = calloc(4 * n + 2, sizeof(double));
	c->y = calloc(4 * n + 2, sizeof(double));
	if (!c->x || !c->y)
		return -1;
	for (size_t i = 0; i < n; i++) {
		double v = at(&buckets->items[i], 0), count = at(&buckets->items[i], 1);

		if (isnan(v) || isnan(count))
			continue;
		if (c->n && end < v) {
			c->x[c->n] = end, c->y[c->n++] = Y_FLOOR;
			c->x[c->n] = v, c->y[c->n++] = Y_FLOOR;
		}
		c->x[c->n] = v, c->y[c->n++] = count;
		c->x[c->n] = v + bs, c->y[c->n++] = count;
		end = v + bs;
	}
	if (c->n) {
		c->x[c->n] = end, c->y[c->n++] = Y_FLOOR;
	}
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

/* The histogram curves of a noise record (CTX NULL) or of timerlat's context CTX */
static struct curve *gather(const struct jv *rec, const char *ctx, int *nr, double *bs)
{
	const struct jv *hist = jv_get(rec, "histogram");
	const struct jv *cpus = ctx ? jv_arr(hist, "cpus") : jv_arr(rec, "cpus");
	struct curve *c;

	*nr = 0;
	*bs = jv_num_or(hist, ctx ? "bucket_size" : "bucket_size_us", 1);
	if (!cpus || !cpus->len)
		return NULL;
	c = calloc(cpus->len, sizeof(*c));
	if (!c)
		return NULL;
	for (size_t i = 0; i < cpus->len; i++) {
		const struct jv *row = &cpus->items[i], *h = ctx ? jv_get(row, ctx) : row;
		const struct jv *own = ctx ? cpu_row(rec, (int)jv_num_or(row, "cpu", -1)) : row;
		/* timerlat's figures are in an object per context, hwlat's are inner_max_us */
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
		if (steps_of(k, jv_arr(h, "buckets"), *bs)) {
			curves_free(c, *nr + 1);
			return NULL;
		}
		(*nr)++;	/* a CPU without samples too: its run measured nothing above -T */
	}
	return c;
}

/*
 * A --fail-if limit on this histogram's figures (max_single_us, p99_us;
 * timerlat's thread_max_us, p99_thread_us): its value, else NAN.
 */
static double limit_of(const char *criterion, const char *ctx, const char **name)
{
	static char metric[64];
	const char *s = criterion;
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_");
	char want_max[32], want_p[32];

	if (n >= sizeof(metric))
		return NAN;
	memcpy(metric, s, n);
	metric[n] = '\0';
	s += n;
	s += strspn(s, " <>=!");
	*name = metric;
	snprintf(want_max, sizeof(want_max), "%s_max_us", ctx ? ctx : "");
	snprintf(want_p, sizeof(want_p), "_%s_us", ctx ? ctx : "");
	if (ctx ? strcmp(metric, want_max) &&
		  !(metric[0] == 'p' && strstr(metric, want_p) && !strcmp(strstr(metric, want_p), want_p))
		: strcmp(metric, "max_single_us") &&
		  !(metric[0] == 'p' && strlen(metric) > 4 && !strcmp(metric + strlen(metric) - 3, "_us") &&
		    strspn(metric + 1, "0123456789") == strlen(metric) - 4))
		return NAN;
	return strtod(s, NULL);
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
		else
			len += snprintf(note + len, sizeof(note) - len, "%s%s", len ? ", " : "", label);
	}
	if (len || c->over > 0) {
		snprintf(label, sizeof(label), "the worst, CPU %d, beyond the histogram's %s us: %s%s%s samples", c->cpu,
			 svg_num(xmax, 0, a, sizeof(a)), note, len ? "; " : "", svg_num(c->over, 0, b, sizeof(b)));
		svg_note(s, label);
	}
}

static int plot_histogram(FILE *f, const struct jv *rec, const char *ctx, const char *ctx_name)
{
	struct svg_axis x = { .max = 10, .label = "latency (us)" };
	struct svg_axis y = { .min = Y_FLOOR, .max = 10, .log = true, .label = "samples" };
	const char *tool = jv_str(rec, "command", "noise");
	const struct jv *gate = jv_arr(jv_get(rec, "gate"), "criteria");
	const char **names, **colours;
	char title[160], desc[400], a[32], b[32], c[32], label[96];
	struct curve *cv;
	int n, worst = 0;
	double bs;
	struct svg s;

	cv = gather(rec, ctx, &n, &bs);
	if (!n) {
		free(cv);
		return 0;
	}
	if (!ctx)
		x.label = "single noise (us)";
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < cv[i].n; k++) {
			if (cv[i].x[k] > x.max)
				x.max = cv[i].x[k];
			if (cv[i].y[k] > y.max)
				y.max = cv[i].y[k];
		}
		if (cv[i].max_us > cv[worst].max_us || (isnan(cv[worst].max_us) && !isnan(cv[i].max_us)))
			worst = i;
	}
	y.max = pow(10, ceil(log10(y.max * 1.5)));
	snprintf(title, sizeof(title), "%s: %s%slatency histogram, one curve per CPU", tool,
		 ctx ? ctx_name : "", ctx ? " " : "");
	if (ctx && !strncmp(ctx, "inner", 5))
		snprintf(title, sizeof(title), "%s: hardware latency histogram (inner loop gaps), one curve per CPU", tool);
	if (ctx && !strncmp(ctx, "outer", 5))
		snprintf(title, sizeof(title), "%s: hardware latency histogram (outer loop gaps), one curve per CPU", tool);
	if (!ctx)
		snprintf(title, sizeof(title), "%s: single noise histogram, one curve per CPU", tool);
	snprintf(desc, sizeof(desc), "%d CPUs; the worst, CPU %d: max %s us, p99 %s us, p99.9 %s us",
		 n, cv[worst].cpu, svg_num(cv[worst].max_us, 1, a, sizeof(a)),
		 svg_num(cv[worst].p99_us, 0, b, sizeof(b)), svg_num(cv[worst].p999_us, 0, c, sizeof(c)));
	names = calloc(n, sizeof(*names));
	colours = calloc(n, sizeof(*colours));
	if (!names || !colours) {
		free(names);
		free(colours);
		curves_free(cv, n);
		return 0;
	}
	svg_begin(&s, f, WIDTH, HEIGHT, title, desc, &x, &y, legend_entries(n));
	svg_axes(&s);
	for (int i = 0; i < n; i++) {
		char *name = malloc(32);

		if (name)
			snprintf(name, 32, i == worst ? "CPU %d (worst)" : "CPU %d", cv[i].cpu);
		names[i] = name ? name : "CPU";
		colours[i] = i == worst ? SVG_MARK : svg_colour(i);
		if (i != worst)
			svg_line(&s, cv[i].x, cv[i].y, cv[i].n, colours[i], 1.2, false, names[i]);
	}
	/* the worst on top */
	svg_line(&s, cv[worst].x, cv[worst].y, cv[worst].n, SVG_MARK, 2.5, false, names[worst]);
	histogram_marks(&s, &cv[worst], x.max);
	for (size_t i = 0; gate && i < gate->len; i++) {
		const char *metric, *text = gate->items[i].type == JV_STR ? gate->items[i].str : "";
		double lim = limit_of(text, ctx, &metric);

		snprintf(label, sizeof(label), "--fail-if %s", text);
		if (!isnan(lim))
			svg_mark(&s, lim, true, "#009E73", label);
	}
	cpu_legend(&s, names, colours, n, worst);
	svg_end(&s);
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], "CPU"))
			free((char *)names[i]);
	free(names);
	free(colours);
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

enum series_kind { MAX_SINGLE, AVAILABILITY, LATENCY };

/* V of a series point by kind; NAN where the point has nothing */
static double series_value(const struct jv *pt, enum series_kind kind, const int *fi)
{
	switch (kind) {
	case MAX_SINGLE:
		return at(pt, fi[0]) > 0 ? at(pt, fi[1]) : NAN;
	case AVAILABILITY:
		return at(pt, fi[2]) > 0 ? 100.0 * (1 - at(pt, fi[1]) / at(pt, fi[2])) : NAN;
	case LATENCY:
		return at(pt, fi[0]) > 0 ? at(pt, fi[1]) / 1000 : NAN;
	}
	return NAN;
}

static int plot_series(FILE *f, const struct jv *rec, enum series_kind kind, const char *ctx,
		       const char *ctx_name)
{
	const struct jv *series = jv_get(rec, "series"), *rows = jv_arr(series, "rows");
	double width = jv_num_or(series, "width_s", 0), unit = 1, ymin = INFINITY, ymax = -INFINITY;
	struct svg_axis x = { .max = 1, .label = "time since the start (s)" }, y = { .max = 1 };
	char title[160], desc[200], fname[2][32], a[32];
	int fi[3], len = 0, worst = -1, n;
	double worst_v = -INFINITY, worst_t = 0;
	const char **names, **colours;
	struct svg s;

	if (!rows || !rows->len || width <= 0)
		return 0;
	if (kind == LATENCY) {
		snprintf(fname[0], sizeof(fname[0]), "%s_count", ctx);
		snprintf(fname[1], sizeof(fname[1]), "%s_max_ns", ctx);
		fi[0] = field_of(series, fname[0]);
		fi[1] = field_of(series, fname[1]);
		fi[2] = 0;
	} else {
		fi[0] = field_of(series, "periods");
		fi[1] = field_of(series, kind == MAX_SINGLE ? "max_single_us" : "noise_us");
		fi[2] = field_of(series, "runtime_us");
	}
	if (fi[0] < 0 || fi[1] < 0 || fi[2] < 0)
		return 0;
	for (size_t r = 0; r < rows->len; r++) {
		const struct jv *pts = jv_arr(&rows->items[r], "points");

		for (size_t i = 0; pts && i < pts->len; i++) {
			double v = series_value(&pts->items[i], kind, fi);

			if (isnan(v))
				continue;
			if ((int)i + 1 > len)
				len = (int)i + 1;
			ymin = v < ymin ? v : ymin;
			if (v > ymax)
				ymax = v;
			if ((kind == AVAILABILITY ? -v : v) > worst_v) {
				worst_v = kind == AVAILABILITY ? -v : v;
				worst = (int)r;
				worst_t = i * width;
			}
		}
	}
	if (!len)
		return 0;
	if (len * width > 3 * 3600)
		unit = 3600, x.label = "time since the start (h)";
	else if (len * width > 180)
		unit = 60, x.label = "time since the start (min)";
	x.max = len * width / unit;
	switch (kind) {
	case MAX_SINGLE:
		y.label = "max single noise (us)";
		y.max = ymax > 0 ? ymax * 1.1 : 1;
		snprintf(title, sizeof(title), "%s: max single noise over time, per CPU",
			 jv_str(rec, "command", ""));
		break;
	case AVAILABILITY:
		y.label = "CPU available to the workload (%)";
		y.min = ymin > 99.9 ? 99.0 : floor(ymin) - 1 < 0 ? 0 : floor(ymin) - 1;
		y.max = 100;
		snprintf(title, sizeof(title), "%s: availability over time, per CPU",
			 jv_str(rec, "command", ""));
		break;
	case LATENCY:
		y.label = "max latency (us)";
		y.max = ymax > 0 ? ymax * 1.1 : 1;
		snprintf(title, sizeof(title), "%s: max %s latency over time, per CPU",
			 jv_str(rec, "command", ""), ctx_name);
		break;
	}
	snprintf(desc, sizeof(desc), "%zu CPUs, a point every %s s; the worst point: CPU %d at %s s",
		 rows->len, svg_num(width, 3, a, sizeof(a)),
		 (int)jv_num_or(&rows->items[worst], "cpu", -1), svg_num(worst_t, 0, fname[0], sizeof(fname[0])));
	n = (int)rows->len;
	names = calloc(n, sizeof(*names));
	colours = calloc(n, sizeof(*colours));
	if (!names || !colours) {
		free(names);
		free(colours);
		return 0;
	}
	svg_begin(&s, f, WIDTH, HEIGHT, title, desc, &x, &y, legend_entries(n));
	svg_axes(&s);
	for (int pass = 0; pass < 2; pass++) {
		for (int r = 0; r < n; r++) {
			const struct jv *pts = jv_arr(&rows->items[r], "points");
			double *xs, *ys;
			int k = 0;
			char *name;

			if ((r == worst) != pass || !pts)
				continue;
			xs = calloc(pts->len + 1, sizeof(double));
			ys = calloc(pts->len + 1, sizeof(double));
			name = malloc(32);
			if (!xs || !ys || !name) {
				free(xs);
				free(ys);
				free(name);
				continue;
			}
			for (size_t i = 0; i < pts->len; i++) {
				double v = series_value(&pts->items[i], kind, fi);

				if (isnan(v))
					continue;
				/* a point at the middle of its interval */
				xs[k] = (i + 0.5) * width / unit;
				ys[k++] = v;
			}
			snprintf(name, 32, r == worst ? "CPU %d (worst)" : "CPU %d",
				 (int)jv_num_or(&rows->items[r], "cpu", -1));
			names[r] = name;
			colours[r] = r == worst ? SVG_MARK : svg_colour(r);
			svg_line(&s, xs, ys, k, colours[r], r == worst ? 2.5 : 1.2, false, name);
			free(xs);
			free(ys);
		}
	}
	for (int r = 0; r < n; r++)
		if (!names[r])
			names[r] = "", colours[r] = "#ffffff";
	cpu_legend(&s, names, colours, n, worst);
	svg_end(&s);
	for (int r = 0; r < n; r++)
		if (*names[r])
			free((char *)names[r]);
	free(names);
	free(colours);
	return 1;
}

static int plot_dhry(FILE *f, const struct jv *rec)
{
	const struct jv *cpus = jv_arr(rec, "cpus");
	struct svg_axis x = { -0.5, 0.5, false, "CPU", SVG_TICKS_WHOLE };
	struct svg_axis y = { .max = 1, .label = "DMIPS" };
	double median = jv_num_or(rec, "median_dmips", NAN), pct = jv_num_or(rec, "threshold_pct", 10);
	const char *names[] = { "DMIPS", "slow core" }, *colours[] = { "#0072B2", SVG_MARK };
	char title[160], desc[200], a[32], b[32], label[96];
	struct svg s;

	if (!cpus || !cpus->len)
		return 0;
	for (size_t i = 0; i < cpus->len; i++) {
		double d = jv_num_or(&cpus->items[i], "dmips", 0), cpu = jv_num_or(&cpus->items[i], "cpu", 0);

		if (d > y.max)
			y.max = d;
		if (cpu + 0.5 > x.max)
			x.max = cpu + 0.5;
		if (cpu - 0.5 < x.min)
			x.min = cpu - 0.5;
	}
	y.max *= 1.15;
	snprintf(title, sizeof(title), "dhry: DMIPS per CPU (Dhrystone 2.1)");
	snprintf(desc, sizeof(desc), "%zu CPUs, median %s DMIPS; slower than %s%% below it is a slow core",
		 cpus->len, svg_num(median, 0, a, sizeof(a)), svg_num(pct, 0, b, sizeof(b)));
	svg_begin(&s, f, WIDTH, HEIGHT, title, desc, &x, &y, 2);
	svg_axes(&s);
	for (size_t i = 0; i < cpus->len; i++) {
		const struct jv *c = &cpus->items[i];
		bool slow = jv_get(c, "slow") && jv_get(c, "slow")->type == JV_BOOL && jv_get(c, "slow")->b;
		double mhz = jv_num_or(c, "mhz", NAN);

		snprintf(label, sizeof(label), "CPU %d: %s DMIPS%s%s%s", (int)jv_num_or(c, "cpu", 0),
			 svg_num(jv_num_or(c, "dmips", 0), 0, a, sizeof(a)), isnan(mhz) ? "" : ", ",
			 isnan(mhz) ? "" : svg_num(jv_num_or(c, "dmips_per_mhz", 0), 2, b, sizeof(b)),
			 isnan(mhz) ? "" : " DMIPS/MHz");
		svg_bar(&s, jv_num_or(c, "cpu", 0), 0.7, jv_num_or(c, "dmips", 0), slow ? SVG_MARK : "#0072B2",
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

/* compare: the times of each CPU, BASE hollow and NEW filled, a regression in the mark colour */
static int plot_compare(FILE *f, const struct jv *rec)
{
	const struct jv *rows = jv_arr(rec, "comparisons");
	struct svg_axis x = { -0.5, 0.5, false, "CPU and figure", SVG_TICKS_NONE };
	struct svg_axis y = { .min = 0.8, .max = 10, .log = true, .label = "us (log)" };
	const char *names[] = { "BASE", "NEW", "NEW, a regression" };
	const char *colours[] = { "#000000", "#56B4E9", SVG_MARK };
	char label[160], a[32], b[32];
	int n = 0;
	struct svg s;

	for (size_t i = 0; rows && i < rows->len; i++) {
		const char *m = jv_str(&rows->items[i], "metric", "");

		if (strlen(m) > 3 && !strcmp(m + strlen(m) - 3, "_us") && strcmp(m, "noise_us")) {
			n++;
			if (jv_num_or(&rows->items[i], "base", 0) > y.max)
				y.max = jv_num_or(&rows->items[i], "base", 0);
			if (jv_num_or(&rows->items[i], "new", 0) > y.max)
				y.max = jv_num_or(&rows->items[i], "new", 0);
		}
	}
	if (!n)
		return 0;
	x.max = n - 0.5;
	y.max = pow(10, ceil(log10(y.max * 1.5)));
	snprintf(label, sizeof(label), "%s regression%s of %s figures judged",
		 svg_num(jv_num_or(rec, "regressions", 0), 0, a, sizeof(a)),
		 jv_num_or(rec, "regressions", 0) == 1 ? "" : "s", svg_num(jv_num_or(rec, "compared", 0), 0, b, sizeof(b)));
	svg_begin(&s, f, WIDTH, HEIGHT + 60, "compare: BASE and NEW, per CPU and figure", label,
		  &x, &y, 3);
	s.bottom -= 60;
	svg_axes(&s);
	n = 0;
	for (size_t i = 0; i < rows->len; i++) {
		const struct jv *r = &rows->items[i];
		const char *m = jv_str(r, "metric", ""), *verdict = jv_str(r, "verdict", "");
		bool bad = !strcmp(verdict, "regression");
		double xc;

		if (!(strlen(m) > 3 && !strcmp(m + strlen(m) - 3, "_us") && strcmp(m, "noise_us")))
			continue;
		snprintf(label, sizeof(label), "CPU %d %s: BASE %s, NEW %s (%s)", (int)jv_num_or(r, "cpu", 0), m,
			 svg_num(jv_num_or(r, "base", 0), 1, a, sizeof(a)), svg_num(jv_num_or(r, "new", 0), 1, b, sizeof(b)),
			 verdict);
		svg_bar(&s, n, 0.8, jv_num_or(r, "base", 0), "#000000", true, label);
		svg_bar(&s, n, 0.45, jv_num_or(r, "new", 0), bad ? SVG_MARK : "#56B4E9", false, label);
		xc = svg_px(&s, n);
		fprintf(f, "<text transform=\"translate(%.1f %d) rotate(-45)\" text-anchor=\"end\" "
			"font-size=\"10\"%s>", xc, s.bottom + 12, bad ? " fill=\"" SVG_MARK "\"" : "");
		snprintf(label, sizeof(label), "%d %s", (int)jv_num_or(r, "cpu", 0), m);
		xml_text(f, label);
		fputs("</text>\n", f);
		n++;
	}
	svg_legend(&s, names, colours, 3);
	svg_end(&s);
	return 1;
}

/* which contexts a timerlat record measured: those with samples in its series or histogram */
static bool has_context(const struct jv *rec, const char *ctx)
{
	const struct jv *cpus = jv_arr(rec, "cpus");

	for (size_t i = 0; cpus && i < cpus->len; i++)
		if (jv_num_or(jv_get(&cpus->items[i], ctx), "count", 0) > 0)
			return true;
	return false;
}

int plot_record(FILE *f, const struct jv *rec, int first)
{
	const char *schema = plot_schema(rec);
	int n = 0;

	if (strstr(schema, "hwlat")) {
		n += plot_histogram(f, rec, "inner", "inner");
		if (!(first && n))
			n += plot_histogram(f, rec, "outer", "outer");
	} else if (strstr(schema, "timerlat")) {
		for (int c = 0; c < 3 && !(first && n); c++)
			if (has_context(rec, contexts[c]))
				n += plot_histogram(f, rec, contexts[c], context_names[c]);
		for (int c = 0; c < 3 && !(first && n); c++)
			if (has_context(rec, contexts[c]))
				n += plot_series(f, rec, LATENCY, contexts[c], context_names[c]);
	} else if (strstr(schema, "noise")) {
		n += plot_histogram(f, rec, NULL, NULL);
		if (!(first && n))
			n += plot_series(f, rec, MAX_SINGLE, NULL, NULL);
		if (!(first && n))
			n += plot_series(f, rec, AVAILABILITY, NULL, NULL);
	} else if (!strcmp(schema, "rtla-dhry")) {
		n += plot_dhry(f, rec);
	} else if (!strcmp(schema, "rtla-compare")) {
		n += plot_compare(f, rec);
	}
	return n;
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
	if (fclose(m))
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sections - what rtla report shows of each record: the envelope as a
 * header, the findings a person reads first (a gate that failed, a slow
 * core, a missing interface, a process that maps W+X), the plots
 * (src/plot/), and the record's tables with their findings on top. Times
 * are shown in us (a record's _ns figures are converted), numbers with
 * thousands separated.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "plot/plots.h"
#include "plot/svg.h"
#include "report/report.h"
#include "util.h"

#define MAX_ROWS 1000	/* of one table; the record holds the rest */
#define MAX_CAUSES 15	/* of a CPU's late wake-ups, by time */

const char report_css[] =
	"body { font-family: sans-serif; margin: 1.5em; color: #111; max-width: 1000px; }\n"
	"h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #0072B2; padding-bottom: .2em; }\n"
	"section { margin-bottom: 3em; }\n"
	"table { border-collapse: collapse; margin: .8em 0; font-size: .85em; }\n"
	"th, td { border: 1px solid #bbb; padding: .2em .5em; vertical-align: top; }\n"
	"th { background: #eef3f8; text-align: left; }\n"
	"td.num { text-align: right; font-variant-numeric: tabular-nums; }\n"
	"table.env th { width: 10em; }\n"
	"caption { text-align: left; font-weight: bold; padding: .3em 0; }\n"
	"tr.finding td { background: #fdebe1; }\n"
	".verdict { font-weight: bold; }\n"
	".findings li { margin: .2em 0; }\n"
	".bar { display: inline-block; height: .9em; vertical-align: middle; }\n"
	".bars { display: inline-block; white-space: nowrap; width: 250px; }\n"
	"svg { display: block; margin: 1em 0; max-width: 100%; height: auto; }\n"
	"footer { color: #555; font-size: .8em; }\n"
	"@media print { section { break-inside: avoid-page; } nav { display: none; } }\n";


static bool scalar(const struct jv *v)
{
	return v->type != JV_ARR && v->type != JV_OBJ;
}

/* A scalar for a person: null "-", yes/no, 12,345.6; KEY's _ns shown in us */
static void value(FILE *f, const char *key, const struct jv *v)
{
	char buf[64];

	switch (v ? v->type : JV_NULL) {
	case JV_NULL:
		fputs("-", f);
		break;
	case JV_BOOL:
		fputs(v->b ? "yes" : "no", f);
		break;
	case JV_NUM: {
		double d = v->num;

		if (key && (str_ends_with(key, "_ns") || !strcmp(key, "ns")))
			d /= 1000;
		fputs(svg_num(d, d == floor(d) ? 0 : d >= 100 ? 1 : 3, buf, sizeof(buf)), f);
		break;
	}
	case JV_STR:
		xml_text(f, v->str[0] ? v->str : "''");
		break;
	case JV_ARR:
		/* a list of scalars in full; of objects, how many */
		for (size_t i = 0; i < v->len; i++)
			if (!scalar(&v->items[i])) {
				fprintf(f, "(%zu items)", v->len);
				return;
			}
		for (size_t i = 0; i < v->len; i++) {
			fputs(i ? ", " : "", f);
			value(f, key, &v->items[i]);
		}
		if (!v->len)
			fputs("none", f);
		break;
	case JV_OBJ:
		for (size_t i = 0; i < v->len; i++) {
			fputs(i ? "; " : "", f);
			xml_text(f, v->keys[i]);
			fputs(" ", f);
			value(f, v->keys[i], &v->items[i]);
		}
		break;
	}
}

/* A column heading from a record key: "max_single_us" -> "max single (us)" */
static void heading(FILE *f, const char *key)
{
	static const struct { const char *tail, *unit; } units[] = {
		{ "_us", " (us)" }, { "_ns", " (us)" }, { "_pct", " (%)" }, { "_s", " (s)" },
	};
	size_t n = strlen(key);
	const char *unit = "";

	if (!strcmp(key, "ns")) {
		fputs("time (us)", f);
		return;
	}
	for (size_t u = 0; u < ARRAY_SIZE(units); u++)
		if (str_ends_with(key, units[u].tail)) {
			n -= strlen(units[u].tail);
			unit = units[u].unit;
			break;
		}
	for (size_t i = 0; i < n; i++)
		fputc(key[i] == '_' ? ' ' : key[i], f);
	fputs(unit, f);
}

/* One cell's value: KEY, or PARENT.KEY one level down */
struct column {
	const char *parent, *key;
};

static const struct jv *cell(const struct jv *row, const struct column *c)
{
	return jv_get(c->parent ? jv_get(row, c->parent) : row, c->key);
}

typedef int (*rank_fn)(const struct jv *row);

/*
 * ROWS (objects) as a table, its columns the first row's scalars and those
 * of its objects one level down; rows RANK puts lower first (findings),
 * highlighted when their rank is 0 and RANK is given.
 */
static void table(FILE *f, const char *caption, const struct jv *rows, rank_fn rank, size_t max)
{
	struct column cols[64];		/* no record has more: the rest would be left out */
	int ncols = 0, top = 0, *order, *ranks;
	size_t n;

	if (!rows || !rows->len || rows->items[0].type != JV_OBJ)
		return;
	for (size_t i = 0; i < rows->items[0].len && ncols < 64; i++) {
		const struct jv *v = &rows->items[0].items[i];

		if (scalar(v) || (v->type == JV_ARR && v->len && scalar(&v->items[0])) ||
		    (v->type == JV_ARR && !v->len))
			cols[ncols++] = (struct column){ NULL, rows->items[0].keys[i] };
		else if (v->type == JV_OBJ)
			for (size_t k = 0; k < v->len && ncols < 64; k++)
				if (scalar(&v->items[k]))
					cols[ncols++] = (struct column){ rows->items[0].keys[i], v->keys[k] };
	}
	n = rows->len;
	order = calloc(n, sizeof(*order));
	ranks = calloc(n, sizeof(*ranks));
	if (!order || !ranks) {
		free(order);
		free(ranks);
		return;
	}
	/* rank by rank (a few, small), the record's order within one */
	for (size_t i = 0; i < n; i++) {
		ranks[i] = rank ? rank(&rows->items[i]) : 1;
		top = ranks[i] > top ? ranks[i] : top;
	}
	for (int r = 0, k = 0; r <= top; r++)
		for (size_t i = 0; i < n; i++)
			if (ranks[i] == r)
				order[k++] = (int)i;
	fputs("<table>\n<caption>", f);
	xml_text(f, caption);
	fputs("</caption>\n<tr>", f);
	for (int c = 0; c < ncols; c++) {
		fputs("<th>", f);
		if (cols[c].parent) {
			xml_text(f, cols[c].parent);
			fputs(" ", f);
		}
		heading(f, cols[c].key);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t i = 0; i < n && i < max; i++) {
		const struct jv *row = &rows->items[order[i]];

		fputs(rank && !ranks[order[i]] ? "<tr class=\"finding\">" : "<tr>", f);
		for (int c = 0; c < ncols; c++) {
			const struct jv *v = cell(row, &cols[c]);

			fputs(v && v->type == JV_NUM ? "<td class=\"num\">" : "<td>", f);
			value(f, cols[c].key, v);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	if (n > max)
		fprintf(f, "<tr><td colspan=\"%d\">%zu more rows in the record</td></tr>\n", ncols,
			n - max);
	fputs("</table>\n", f);
	free(order);
	free(ranks);
}

/* An object's scalars as a two-column table */
static void pairs(FILE *f, const char *caption, const struct jv *obj)
{
	if (!obj || obj->type != JV_OBJ || !obj->len)
		return;
	fputs("<table class=\"env\">\n<caption>", f);
	xml_text(f, caption);
	fputs("</caption>\n", f);
	for (size_t i = 0; i < obj->len; i++) {
		if (!scalar(&obj->items[i]) && obj->items[i].type != JV_ARR)
			continue;
		fputs("<tr><th>", f);
		heading(f, obj->keys[i]);
		fputs("</th><td>", f);
		value(f, obj->keys[i], &obj->items[i]);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void header(FILE *f, const struct jv *rec, const char *path)
{
	static const char *const keys[] = {
		"host", "kernel", "command", "version", "started", "duration_s", "verdict", "backend",
		"degraded",
	};
	const struct jv *opts = jv_get(rec, "options");

	fputs("<h2>", f);
	xml_text(f, jv_str(rec, "command", "?"));
	fputs(" on ", f);
	xml_text(f, jv_str(rec, "host", "?"));
	fputs("</h2>\n<table class=\"env\">\n<tr><th>record</th><td>", f);
	xml_text(f, path);
	fputs(" (", f);
	xml_text(f, plot_schema(rec));
	fprintf(f, ", version %g)</td></tr>\n", jv_num_or(jv_get(rec, "schema"), "version", 1));
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const struct jv *v = jv_get(rec, keys[i]);

		if (!v || (v->type == JV_NULL && strcmp(keys[i], "verdict")))
			continue;
		fputs("<tr><th>", f);
		heading(f, keys[i]);
		fputs(!strcmp(keys[i], "verdict") ? "</th><td class=\"verdict\">" : "</th><td>", f);
		value(f, keys[i], v);
		fputs("</td></tr>\n", f);
	}
	if (opts && opts->type == JV_OBJ) {
		fputs("<tr><th>options</th><td>", f);
		for (size_t i = 0, shown = 0; i < opts->len; i++) {
			const struct jv *v = &opts->items[i];

			if (v->type == JV_NULL || (v->type == JV_BOOL && !v->b) ||
			    (v->type == JV_ARR && !v->len) || v->type == JV_OBJ)
				continue;
			fputs(shown++ ? "; " : "", f);
			xml_text(f, opts->keys[i]);
			fputs(" ", f);
			value(f, opts->keys[i], v);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* the findings list: one <li> each, opened on the first */
struct findings {
	FILE *f;
	int n;
};

static void finding_begin(struct findings *fd)
{
	fputs(fd->n++ ? "<li>" : "<ul class=\"findings\">\n<li>", fd->f);
}

__attribute__((format(printf, 2, 3)))
static void finding(struct findings *fd, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	finding_begin(fd);
	xml_text(fd->f, text);
	fputs("</li>\n", fd->f);
}

static void findings_end(struct findings *fd)
{
	if (fd->n)
		fputs("</ul>\n", fd->f);
}

static int rank_config(const struct jv *row)
{
	const char *v = jv_str(row, "verdict", "");

	return !strcmp(v, "bad") ? 0 : !strcmp(v, "ok") ? 2 : 1;
}

static int rank_compare(const struct jv *row)
{
	const char *v = jv_str(row, "verdict", "");

	return !strcmp(v, "regression") ? 0 : !strcmp(v, "missing") ? 1 : !strcmp(v, "worse") ? 2 : 3;
}

static int rank_feature(const struct jv *row)
{
	const char *v = jv_str(row, "state", "");

	return !strcmp(v, "no") ? 0 : !strcmp(v, "yes") ? 2 : 1;
}

static int rank_capdump(const struct jv *row)
{
	const char *eff = jv_str(row, "cap_eff", "0"), *amb = jv_str(row, "cap_amb", "0");

	return strspn(eff, "0") == strlen(eff) && strspn(amb, "0") == strlen(amb) ? 1 : 0;
}

static int rank_mdwe(const struct jv *row)
{
	return jv_num_or(row, "wx_mappings", 0) > 0 ? 0 : 1;
}

static int rank_dhry(const struct jv *row)
{
	const struct jv *slow = jv_get(row, "slow");

	return (slow && slow->type == JV_BOOL && slow->b) || jv_str(row, "error", NULL) ? 0 : 1;
}

/* The measurement records (noise, timerlat, hwlat): what went wrong first */
static void measurement_findings(struct findings *fd, const struct jv *rec)
{
	const struct jv *gate = jv_get(rec, "gate"), *fails = jv_arr(gate, "failures");
	const struct jv *cfg = jv_get(rec, "rt_config"), *unmet = jv_arr(cfg, "unmet");
	const struct jv *stop = jv_get(rec, "stop"), *smi = jv_arr(jv_get(rec, "smi"), "cpus");
	char a[32], b[32];

	for (size_t i = 0; fails && i < fails->len; i++) {
		const struct jv *x = &fails->items[i];

		finding(fd, "--fail-if %s failed on CPU %d: %s is %s (limit %s)",
			jv_str(x, "criterion", "?"), (int)jv_num_or(x, "cpu", -1), jv_str(x, "metric", "?"),
			svg_num(jv_num_or(x, "value", NAN), 3, a, sizeof(a)),
			svg_num(jv_num_or(x, "limit", NAN), 3, b, sizeof(b)));
	}
	for (size_t i = 0; unmet && i < unmet->len; i++)
		finding(fd, "misconfigured for real time: %s",
			unmet->items[i].type == JV_STR ? unmet->items[i].str : "?");
	if (stop && stop->type == JV_OBJ)
		finding(fd, "stopped: %s on CPU %d at %s us", jv_str(stop, "condition", "?"),
			(int)jv_num_or(stop, "cpu", -1), svg_num(jv_num_or(stop, "value_us", NAN), 0, a, sizeof(a)));
	if (jv_str(rec, "degraded", NULL))
		finding(fd, "degraded: %s", jv_str(rec, "degraded", ""));
	if (jv_num_or(rec, "missed_events", 0) > 0)
		finding(fd, "%s trace events were lost: the figures have holes",
			svg_num(jv_num_or(rec, "missed_events", 0), 0, a, sizeof(a)));
	if (jv_num_or(rec, "lost_samples", 0) > 0)
		finding(fd, "%s samples were lost: the figures have holes",
			svg_num(jv_num_or(rec, "lost_samples", 0), 0, a, sizeof(a)));
	for (size_t i = 0; smi && i < smi->len; i++)
		if (jv_num_or(&smi->items[i], "count", 0) > 0)
			finding(fd, "CPU %d took %s SMIs (system management interrupts) during the run",
				(int)jv_num_or(&smi->items[i], "cpu", -1),
				svg_num(jv_num_or(&smi->items[i], "count", 0), 0, a, sizeof(a)));
}

/* timerlat: the causes of the late wake-ups, each CPU's worst as a breakdown */
static void timerlat_causes(FILE *f, const struct jv *rec)
{
	const struct jv *ww = jv_arr(rec, "worst_wakeups");
	static const char *const parts[] = {
		"irq_latency_ns", "irq_to_wakeup_ns", "wakeup_to_run_ns", "run_to_user_ns",
	};
	static const char *const part_names[] = {
		"timer IRQ late", "IRQ to wake-up", "wake-up to run", "run to user space",
	};
	char a[32];

	if (!ww || !ww->len)
		return;
	fputs("<h3>Why the worst wake-ups were late</h3>\n<p>Each bar is one wake-up's latency "
	      "split into its parts: ", f);
	for (size_t p = 0; p < ARRAY_SIZE(parts); p++) {
		fprintf(f, "<span class=\"bar\" style=\"width:1em;background:%s\"></span> ",
			svg_colour(p));
		xml_text(f, part_names[p]);
		fputs(p + 1 < ARRAY_SIZE(parts) ? ", " : ".</p>\n", f);
	}
	for (size_t i = 0; i < ww->len; i++) {
		const struct jv *c = &ww->items[i], *worst = jv_arr(c, "worst");

		fprintf(f, "<table>\n<caption>CPU %d: its worst wake-ups</caption>\n"
			"<tr><th>wake-up</th><th>latency (us)</th><th>breakdown</th>"
			"<th>causes (us)</th></tr>\n", (int)jv_num_or(c, "cpu", -1));
		for (size_t w = 0; worst && w < worst->len; w++) {
			const struct jv *x = &worst->items[w], *causes = jv_arr(x, "causes");
			double total = jv_num_or(x, "latency_ns", 0);

			fprintf(f, "<tr><td class=\"num\">%s</td>", svg_num(jv_num_or(x, "seq", 0), 0, a, sizeof(a)));
			fprintf(f, "<td class=\"num\">%s</td><td><span class=\"bars\">",
				svg_num(total / 1000, 1, a, sizeof(a)));
			for (size_t p = 0; p < ARRAY_SIZE(parts) && total > 0; p++) {
				double part = jv_num_or(x, parts[p], 0);

				fprintf(f, "<span class=\"bar\" style=\"width:%.1fpx;background:%s\" "
					"title=\"%s %s us\"></span>", 240 * part / total, svg_colour(p),
					part_names[p], svg_num(part / 1000, 1, a, sizeof(a)));
			}
			fputs("</span></td><td>", f);
			for (size_t k = 0; causes && k < causes->len && k < 4; k++) {
				const struct jv *cz = &causes->items[k];

				fputs(k ? "; " : "", f);
				xml_text(f, jv_str(cz, "kind", "?"));
				fputs(" ", f);
				xml_text(f, jv_str(cz, "name", ""));
				if (jv_num_or(cz, "pid", 0) > 0)
					fprintf(f, " [%d]", (int)jv_num_or(cz, "pid", 0));
				fprintf(f, " %s", svg_num(jv_num_or(cz, "ns", 0) / 1000, 1, a, sizeof(a)));
			}
			fputs("</td></tr>\n", f);
		}
		fputs("</table>\n", f);
		table(f, "All late wake-ups of the CPU: time by cause, the largest first",
		      jv_arr(c, "causes_total"), NULL, MAX_CAUSES);
	}
}

static void view_noise(FILE *f, const struct jv *rec, struct findings *fd)
{
	const struct jv *cpus = jv_arr(rec, "cpus");
	const char *key = strstr(plot_schema(rec), "hist") ? "max_us" : "max_single_us";
	double worst = -1;
	int worst_cpu = -1;
	char a[32];

	measurement_findings(fd, rec);
	for (size_t i = 0; cpus && i < cpus->len; i++)
		if (jv_num_or(&cpus->items[i], key, -1) > worst) {
			worst = jv_num_or(&cpus->items[i], key, -1);
			worst_cpu = (int)jv_num_or(&cpus->items[i], "cpu", -1);
		}
	if (worst_cpu >= 0)
		finding(fd, "the noisiest CPU: %d, with a single noise of %s us", worst_cpu,
			svg_num(worst, 0, a, sizeof(a)));
	findings_end(fd);
	plot_record(f, rec, 0);
	table(f, "Per CPU", cpus, NULL, MAX_ROWS);
}

/* an auto-analysis' list of interferences: "name [id] 12.3 us; ..." */
static void interferences(FILE *f, const struct jv *items)
{
	char a[32];

	for (size_t i = 0; items && i < items->len; i++) {
		const struct jv *x = &items->items[i];
		const char *name = jv_str(x, "name", jv_str(x, "comm", NULL));
		double id = jv_num_or(x, "pid", jv_num_or(x, "vector", -1));

		fputs(i ? "; " : "", f);
		if (name)
			xml_text(f, name);
		if (id >= 0)
			fprintf(f, " [%.0f]", id);
		fprintf(f, " %s us", svg_num(jv_num_or(x, "duration_ns", 0) / 1000, 1, a, sizeof(a)));
	}
	if (!items || !items->len)
		fputs("none", f);
}

/*
 * The tracer's auto-analysis at a stop (timerlat -a, -i, -T), a table per
 * CPU: the latency, its parts, the blocking thread, each interference and
 * the IRQ's stack, innermost call first
 */
static void timerlat_analysis(FILE *f, const struct jv *rec)
{
	static const char *const lists[] = { "nmi", "irqs", "softirqs", "threads" };
	const struct jv *all = jv_arr(rec, "analysis");
	char a[32];

	for (size_t i = 0; all && i < all->len; i++) {
		const struct jv *c = &all->items[i], *bt = jv_get(c, "blocking_thread");
		const struct jv *stack = jv_arr(c, "stack");

		fprintf(f, "<table class=\"env\">\n<caption>CPU %d: why the %s was late (the tracer's "
			"auto-analysis)</caption>\n", (int)jv_num_or(c, "cpu", -1), jv_str(c, "case", "?"));
		for (size_t k = 0; k < c->len; k++)
			if (c->items[k].type == JV_NUM && strcmp(c->keys[k], "cpu")) {
				fputs("<tr><th>", f);
				heading(f, c->keys[k]);
				fputs("</th><td class=\"num\">", f);
				value(f, c->keys[k], &c->items[k]);
				fputs("</td></tr>\n", f);
			}
		if (bt && bt->type == JV_OBJ) {
			fputs("<tr><th>blocking thread</th><td>", f);
			xml_text(f, jv_str(bt, "comm", "?"));
			fprintf(f, " [%d] %s us</td></tr>\n", (int)jv_num_or(bt, "pid", 0),
				svg_num(jv_num_or(bt, "duration_ns", 0) / 1000, 1, a, sizeof(a)));
		}
		for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
			fprintf(f, "<tr><th>%s</th><td>", lists[l]);
			interferences(f, jv_arr(c, lists[l]));
			fputs("</td></tr>\n", f);
		}
		fputs("<tr><th>stack</th><td>", f);
		for (size_t k = 0; stack && k < stack->len; k++) {
			fputs(k ? " &lt; " : "", f);
			xml_text(f, jv_str(&stack->items[k], "function", "?"));
		}
		fputs("</td></tr>\n</table>\n", f);
	}
}

static void view_timerlat(FILE *f, const struct jv *rec, struct findings *fd)
{
	measurement_findings(fd, rec);
	findings_end(fd);
	plot_record(f, rec, 0);
	table(f, "Per CPU", jv_arr(rec, "cpus"), NULL, MAX_ROWS);
	timerlat_analysis(f, rec);
	timerlat_causes(f, rec);
}

static void view_hwlat(FILE *f, const struct jv *rec, struct findings *fd)
{
	measurement_findings(fd, rec);
	findings_end(fd);
	plot_record(f, rec, 0);
	pairs(f, "Summary", jv_get(rec, "summary"));
	table(f, "Per CPU: the gaps the hardware left", jv_arr(rec, "cpus"), NULL, MAX_ROWS);
}

static void view_dhry(FILE *f, const struct jv *rec, struct findings *fd)
{
	const struct jv *slow = jv_arr(rec, "slow_cpus"), *failed = jv_arr(rec, "failed_cpus");
	char a[32];

	for (size_t i = 0; slow && i < slow->len; i++)
		finding(fd, "CPU %s is a slow core", svg_num(slow->items[i].num, 0, a, sizeof(a)));
	for (size_t i = 0; failed && i < failed->len; i++)
		finding(fd, "CPU %s failed its run", svg_num(failed->items[i].num, 0, a, sizeof(a)));
	findings_end(fd);
	plot_record(f, rec, 0);
	table(f, "Per CPU", jv_arr(rec, "cpus"), rank_dhry, MAX_ROWS);
}

static void view_compare(FILE *f, const struct jv *rec, struct findings *fd)
{
	char a[32], b[32];

	finding(fd, "%s regression(s) of %s figures compared (BASE %s, NEW %s)",
		svg_num(jv_num_or(rec, "regressions", 0), 0, a, sizeof(a)),
		svg_num(jv_num_or(rec, "compared", 0), 0, b, sizeof(b)), jv_str(rec, "base", "?"),
		jv_str(rec, "new", "?"));
	findings_end(fd);
	plot_record(f, rec, 0);
	table(f, "The figures compared, regressions first", jv_arr(rec, "comparisons"), rank_compare,
	      MAX_ROWS);
}

static void view_features(FILE *f, const struct jv *rec, struct findings *fd)
{
	const struct jv *feats = jv_arr(rec, "features");

	for (size_t i = 0; feats && i < feats->len; i++)
		if (!rank_feature(&feats->items[i]))
			finding(fd, "missing: %s (%s), needed by %s",
				jv_str(&feats->items[i], "feature", "?"), jv_str(&feats->items[i], "group", "?"),
				jv_str(&feats->items[i], "needed_by", "-"));
	findings_end(fd);
	table(f, "What the kernel offers, the missing first", feats, rank_feature, MAX_ROWS);
}

/* capdump and mdwe: the processes, those that hold something first */
static void view_processes(FILE *f, const struct jv *rec, struct findings *fd)
{
	bool cap = !strcmp(plot_schema(rec), "rtla-capdump");
	const struct jv *procs = jv_arr(rec, "processes");
	rank_fn rank = cap ? rank_capdump : rank_mdwe;
	int hits = 0;

	for (size_t i = 0; procs && i < procs->len; i++)
		hits += !rank(&procs->items[i]);
	finding(fd, cap ? "%d of %zu processes hold effective or ambient capabilities"
			: "%d of %zu processes map memory writable and executable",
		hits, procs ? procs->len : 0);
	findings_end(fd);
	table(f, cap ? "Processes, those holding capabilities first" : "Processes, those mapping W+X first",
	      procs, rank, MAX_ROWS);
	table(f, "Files", jv_arr(rec, "files"), NULL, MAX_ROWS);
}

/* a record without a view of its own: its tables as they are */
static void view_any(FILE *f, const struct jv *rec, struct findings *fd)
{
	findings_end(fd);
	for (size_t i = 0; i < rec->len; i++)
		if (rec->items[i].type == JV_ARR)
			table(f, rec->keys[i], &rec->items[i], NULL, MAX_ROWS);
}

/* Each record's view, by the start of its schema name (rtla-timerlat-top, -hist) */
static const struct {
	const char *schema;
	void (*view)(FILE *f, const struct jv *rec, struct findings *fd);
} views[] = {
	{ "rtla-osnoise", view_noise },
	{ "rtla-hwnoise", view_noise },
	{ "rtla-timerlat", view_timerlat },
	{ "rtla-hwlat", view_hwlat },
	{ "rtla-dhry", view_dhry },
	{ "rtla-compare", view_compare },
	{ "rtla-features", view_features },
	{ "rtla-capdump", view_processes },
	{ "rtla-mdwe", view_processes },
};

void report_section(FILE *f, const struct jv *rec, const char *path)
{
	const char *schema = plot_schema(rec);
	struct findings fd = { f, 0 };
	size_t i;

	header(f, rec, path);
	for (i = 0; i < ARRAY_SIZE(views); i++)
		if (!strncmp(schema, views[i].schema, strlen(views[i].schema)))
			break;
	(i < ARRAY_SIZE(views) ? views[i].view : view_any)(f, rec, &fd);
	/* what every measurement has: the CPUs' real-time configuration, misconfigurations first */
	table(f, "Real-time configuration of the measured CPUs, misconfigurations first",
	      jv_arr(jv_get(rec, "rt_config"), "items"), rank_config, MAX_ROWS);
	table(f, "SMIs per CPU", jv_arr(jv_get(rec, "smi"), "cpus"), NULL, MAX_ROWS);
}

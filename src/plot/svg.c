// SPDX-License-Identifier: GPL-2.0-only
/*
 * svg - SVG plots without a library (svg.h): the few shapes a latency plot
 * needs are a dozen lines each, and a library for them (libplot, cairo)
 * would add a dependency to the static board bundle for no gain.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output.h"
#include "plot/svg.h"

#define LEGEND_ROW	18
#define LEGEND_ENTRY	120	/* px a legend entry takes across */
#define MAX_TICKS	64	/* of an axis (a bound for any record's numbers) */

/* Okabe & Ito (2008), without black: the axes are black */
/* vermillion, the mark colour, stays out: a series never looks like the worst one */
static const char *const palette[SVG_COLOURS] = {
	"#0072B2", "#009E73", "#CC79A7", "#56B4E9", "#E69F00", "#F0E442",
};

const char *svg_colour(int i)
{
	return palette[(i < 0 ? -i : i) % SVG_COLOURS];
}

const char *svg_num(double v, int decimals, char *buf, size_t size)
{
	char digits[64], out[96], *dot, *o = out;
	int len, lead;

	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (fabs(v) >= 1e15) {
		/* beyond what a measurement holds: as it is, exponent and all */
		snprintf(buf, size, "%.6g", v);
		return buf;
	}
	snprintf(digits, sizeof(digits), "%.*f", decimals < 0 ? 0 : decimals > 20 ? 20 : decimals,
		 fabs(v));
	dot = strchr(digits, '.');
	if (dot) {
		/* 2.50 -> 2.5, 3.00 -> 3 */
		char *end = dot + strlen(dot) - 1;

		while (end > dot && *end == '0')
			*end-- = '\0';
		if (end == dot)
			*dot = '\0';
	}
	len = dot && *dot ? (int)(dot - digits) : (int)strlen(digits);
	if (v < 0 && strcmp(digits, "0"))
		*o++ = '-';
	lead = len % 3 ? len % 3 : 3;
	for (int i = 0; i < len; i++) {
		if (i && (i - lead) % 3 == 0)
			*o++ = ',';
		*o++ = digits[i];
	}
	strcpy(o, digits + len);
	snprintf(buf, size, "%s", out);
	return buf;
}

static double frac(const struct svg_axis *a, double v)
{
	if (a->log) {
		v = v < a->min ? a->min : v;
		return (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	}
	return a->max > a->min ? (v - a->min) / (a->max - a->min) : 0;
}

static double clamp(double v, double lo, double hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

double svg_px(const struct svg *s, double v)
{
	return clamp(s->left + frac(&s->x, v) * (s->right - s->left), s->left, s->right);
}

static double py(const struct svg *s, double v)
{
	return clamp(s->bottom - frac(&s->y, v) * (s->bottom - s->top), s->top, s->bottom);
}

void svg_begin(struct svg *s, FILE *f, int width, int height, const char *title,
	       const char *desc, const struct svg_axis *x, const struct svg_axis *y,
	       int legend)
{
	int rows;

	memset(s, 0, sizeof(*s));
	s->f = f;
	s->width = width;
	s->x = *x;
	s->y = *y;
	s->left = 78;
	s->right = width - 24;
	s->top = 50;
	s->legend_per_row = (width - s->left) / LEGEND_ENTRY;
	if (s->legend_per_row < 1)
		s->legend_per_row = 1;
	rows = (legend + s->legend_per_row - 1) / s->legend_per_row;
	s->height = height + rows * LEGEND_ROW;
	s->bottom = height - 48;
	s->legend_top = height - 6;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, s->height, width, s->height);
	fputs("<title>", f);
	xml_text(f, title);
	fputs("</title>\n", f);
	if (desc) {
		fputs("<desc>", f);
		xml_text(f, desc);
		fputs("</desc>\n", f);
	}
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, s->height);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"14\" font-weight=\"bold\">", s->left);
	xml_text(f, title);
	fputs("</text>\n", f);
}

/* A step of 1, 2 or 5 times a power of ten giving about N ticks over RANGE. */
static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A tick at V labelled with the decimals its STEP needs */
static void tick(struct svg *s, bool xaxis, double v, double step)
{
	char num[64];
	double at = xaxis ? svg_px(s, v) : py(s, v);
	int decimals = step < 1 ? (int)ceil(-log10(step) - 1e-9) : 0;

	svg_num(v, decimals, num, sizeof(num));
	if (xaxis)
		fprintf(s->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			at, s->top, at, s->bottom, at, s->bottom + 16, num);
	else
		fprintf(s->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			s->left, at, s->right, at, s->left - 6, at + 4, num);
}

static void ticks(struct svg *s, bool xaxis)
{
	const struct svg_axis *a = xaxis ? &s->x : &s->y;

	double step;
	int n = 0;

	/* a record's numbers are not trusted: no tick loop on an axis that has no end */
	if (a->ticks == SVG_TICKS_NONE || !isfinite(a->min) || !isfinite(a->max) ||
	    a->max <= a->min || (a->log && a->min <= 0))
		return;
	if (a->log) {
		for (double d = pow(10, ceil(log10(a->min))); d <= a->max * 1.0001 && n++ < MAX_TICKS; d *= 10)
			tick(s, xaxis, d, d);
		return;
	}
	step = nice_step(a->max - a->min, xaxis ? 8 : 5);
	if (a->ticks == SVG_TICKS_WHOLE && step < 1)
		step = 1;

	for (double v = ceil(a->min / step) * step; v <= a->max + step * 1e-6 && n++ < MAX_TICKS; v += step)
		tick(s, xaxis, fabs(v) < step * 1e-9 ? 0 : v, step);
}

void svg_axes(struct svg *s)
{
	ticks(s, true);
	ticks(s, false);
	fprintf(s->f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
		"stroke=\"#000000\"/>\n", s->left, s->top, s->right - s->left, s->bottom - s->top);
	fprintf(s->f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(s->left + s->right) / 2, s->bottom + 34);
	xml_text(s->f, s->x.label);
	fprintf(s->f, "</text>\n<text transform=\"translate(16 %d) rotate(-90)\" "
		"text-anchor=\"middle\">", (s->top + s->bottom) / 2);
	xml_text(s->f, s->y.label);
	fputs("</text>\n", s->f);
}

void svg_line(struct svg *s, const double *xs, const double *ys, int n, const char *colour,
	      double width, const char *name)
{
	if (n <= 0)
		return;
	fprintf(s->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" "
		"stroke-linejoin=\"round\" points=\"", colour, width);
	for (int i = 0; i < n; i++) {
		fprintf(s->f, "%s%.1f,%.1f", i ? " " : "", svg_px(s, xs[i]), py(s, ys[i]));
	}
	fputs("\">", s->f);
	if (name) {
		fputs("<title>", s->f);
		xml_text(s->f, name);
		fputs("</title>", s->f);
	}
	fputs("</polyline>\n", s->f);
}

void svg_bar(struct svg *s, double x, double w, double y, const char *colour, bool hollow,
	     const char *name)
{
	double x0 = svg_px(s, x - w / 2), x1 = svg_px(s, x + w / 2), top = py(s, y);

	fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" ",
		x0, top, x1 - x0, s->bottom - top);
	if (hollow)
		fprintf(s->f, "fill=\"none\" stroke=\"%s\" stroke-width=\"2\">", colour);
	else
		fprintf(s->f, "fill=\"%s\">", colour);
	if (name) {
		fputs("<title>", s->f);
		xml_text(s->f, name);
		fputs("</title>", s->f);
	}
	fputs("</rect>\n", s->f);
}

void svg_mark(struct svg *s, double v, bool vertical, const char *colour, const char *label)
{
	if (vertical) {
		double x = svg_px(s, v);
		/* labels one under the other, on the side with room */
		int y = s->top + 14 + 14 * s->marks++;
		bool left = x > s->left + 0.7 * (s->right - s->left);

		fprintf(s->f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
			"stroke-dasharray=\"4 3\"/><text x=\"%.1f\" y=\"%d\" fill=\"%s\" "
			"text-anchor=\"%s\">", x, s->top, x, s->bottom, colour, left ? x - 4 : x + 4, y,
			colour, left ? "end" : "start");
	} else {
		double y = py(s, v);

		fprintf(s->f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-dasharray=\"4 3\"/><text x=\"%d\" y=\"%.1f\" fill=\"%s\" "
			"text-anchor=\"end\">", s->left, y, s->right, y, colour, s->right - 4, y - 4,
			colour);
	}
	xml_text(s->f, label);
	fputs("</text>\n", s->f);
}

void svg_category(struct svg *s, double x, const char *label, const char *colour)
{
	fprintf(s->f, "<text transform=\"translate(%.1f %d) rotate(-45)\" text-anchor=\"end\" "
		"font-size=\"10\" fill=\"%s\">", svg_px(s, x), s->bottom + 12, colour);
	xml_text(s->f, label);
	fputs("</text>\n", s->f);
}

void svg_note(struct svg *s, const char *text)
{
	fprintf(s->f, "<text x=\"%d\" y=\"40\" font-size=\"11\">", s->left);
	xml_text(s->f, text);
	fputs("</text>\n", s->f);
}

void svg_legend(struct svg *s, const char *const *names, const char *const *colours, int n)
{
	for (int i = 0; i < n; i++) {
		int x = s->left + (i % s->legend_per_row) * LEGEND_ENTRY;
		int y = s->legend_top + (i / s->legend_per_row) * LEGEND_ROW;

		fprintf(s->f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\">", x, y - 10, colours[i], x + 16, y);
		xml_text(s->f, names[i]);
		fputs("</text>\n", s->f);
	}
}

void svg_end(struct svg *s)
{
	fputs("</svg>\n", s->f);
}

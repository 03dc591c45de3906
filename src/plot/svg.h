/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * svg - the plots of rtla report and of hist --plot, written as SVG 1.1
 * text: a frame with a <title> for screen readers, linear or log axes with
 * labels, units and readable ticks (1, 2, 5 steps; thousands separated),
 * lines, steps, bars, marks and a legend, in the Okabe-Ito palette, which
 * stays apart for the common colour-vision deficiencies.
 *
 * Nothing is fetched: no font, no script, no link; the same input gives
 * the same bytes (numbers are printed with fixed decimals).
 */
#ifndef RTLA_PLOT_SVG_H
#define RTLA_PLOT_SVG_H

#include <stdbool.h>
#include <stdio.h>

#define SVG_COLOURS 6	/* the palette without black (the axes) and vermillion (the mark) */

enum svg_ticks { SVG_TICKS_AUTO, SVG_TICKS_WHOLE, SVG_TICKS_NONE };

struct svg_axis {
	double min, max;
	bool log;		/* base 10; min > 0 */
	const char *label;	/* with its unit: "latency (us)" */
	enum svg_ticks ticks;	/* WHOLE: on whole numbers only (CPUs); NONE: the caller labels */
};

struct svg {
	FILE *f;
	int width, height;
	int left, right, top, bottom;	/* the plot area's edges */
	struct svg_axis x, y;
	int legend_top, legend_per_row;
	int marks;			/* vertical marks drawn: their labels stack */
};

/* The x coordinate of V */
double svg_px(const struct svg *s, double v);

/* The colour of series I (cycling through the palette); the mark colour is vermillion. */
const char *svg_colour(int i);
#define SVG_MARK "#D55E00"

/*
 * Start a plot of WIDTH x HEIGHT px titled TITLE (shown, and the <title> a
 * screen reader reads) with DESC (the <desc>, or NULL), axes X and Y, and
 * room under it for a legend of LEGEND entries (svg_legend()).
 */
void svg_begin(struct svg *s, FILE *f, int width, int height, const char *title,
	       const char *desc, const struct svg_axis *x, const struct svg_axis *y,
	       int legend);
/* Grid, ticks, tick labels and the axis labels. */
void svg_axes(struct svg *s);
/* A polyline of N points (XS, YS), clipped to the axes, WIDTH px; NAME becomes its <title>. */
void svg_line(struct svg *s, const double *xs, const double *ys, int n, const char *colour,
	      double width, const char *name);
/* A bar from the x axis up to Y, centred on X, W units of x wide. */
void svg_bar(struct svg *s, double x, double w, double y, const char *colour, bool hollow,
	     const char *name);
/* A dashed vertical (VERTICAL) or horizontal mark at V with LABEL beside it (inside the axes). */
void svg_mark(struct svg *s, double v, bool vertical, const char *colour, const char *label);
/* LABEL under the x axis at X, slanted: an axis of categories (SVG_TICKS_NONE) */
void svg_category(struct svg *s, double x, const char *label, const char *colour);
/* A line of small text under the title: what the axes leave out */
void svg_note(struct svg *s, const char *text);
/* The legend: N entries, a colour swatch and a name each, in rows under the plot. */
void svg_legend(struct svg *s, const char *const *names, const char *const *colours, int n);
void svg_end(struct svg *s);

/*
 * V for a person: thousands separated, DECIMALS after the point, a
 * trailing ".0" dropped ("12,345", "0.25"); from 1e15 on as %g. Into
 * BUF, returned.
 */
const char *svg_num(double v, int decimals, char *buf, size_t size);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * plots - the plots of a record (rtla report, hist --plot), from the
 * record itself as jsonread reads it, so that a board's record drawn at
 * home and the plot a run draws beside its table are the same picture.
 *
 *   histogram  the OSADL latency plot: latency (us) on a linear x axis, the
 *              sample count on a log y axis, one curve per CPU; the worst
 *              CPU drawn thick in the mark colour with its p99, p99.9 and
 *              maximum marked, and the --fail-if limits that applied
 *   series     each CPU over time: noise's max single and availability,
 *              timerlat's maximum latency per context
 *   dhry       DMIPS per CPU with the slow-core threshold
 *   compare    BASE and NEW per CPU and figure, regressions marked
 */
#ifndef RTLA_PLOT_PLOTS_H
#define RTLA_PLOT_PLOTS_H

#include <stdio.h>

#include "jsonread.h"

/*
 * Every plot of REC, each one <svg> element followed by a newline, into F;
 * the number of plots written (0: the record has nothing to draw), or
 * -ENOMEM. FIRST stops after the record's first plot (--svg, --plot).
 */
int plot_record(FILE *f, const struct jv *rec, int first);

/*
 * The first plot of REC alone, as an SVG file at PATH ("-": stdout),
 * replaced whole: 0, -ENODATA when the record has nothing to draw (PATH
 * is left as it was), or -errno.
 */
int plot_svg_file(const char *path, const struct jv *rec);

/* The record's schema name ("rtla-osnoise-hist"), or "" */
const char *plot_schema(const struct jv *rec);

#endif

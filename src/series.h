/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * series - a measurement over time, per row (a CPU), in a bounded number of
 * points: what the records carry for rtla report's plots over time.
 *
 * Point i of every row covers [i * width, (i + 1) * width) of the run. A
 * value lands in the point of its time; a field either adds up (a count, a
 * noise total) or keeps its largest value (a maximum). When a time falls
 * past the last of SERIES_POINTS points, the width doubles and adjacent
 * points merge in pairs by those same rules, in every row at once. So a run
 * of any length keeps at most SERIES_POINTS points (more than half of them
 * once it has merged), each exact for its interval, and the memory is
 * fixed: SERIES_POINTS * fields * 8 bytes a row.
 */
#ifndef RTLA_SERIES_H
#define RTLA_SERIES_H

#include <stdint.h>

#include "json.h"

#define SERIES_POINTS 256
#define SERIES_FIELDS_MAX 32

enum series_merge { SERIES_SUM, SERIES_MAX };

struct series_field {
	const char *name;		/* its key in the record */
	enum series_merge merge;
};

struct series {
	const struct series_field *fields;
	int nr_fields;
	int nr_rows;
	uint64_t width_us;		/* of one point */
	int len;			/* points in use: the latest time's, plus one */
	uint64_t *vals;			/* [row][SERIES_POINTS][field] */
};

/* 0, -EINVAL (no field, or more than SERIES_FIELDS_MAX), or -ENOMEM. WIDTH_US is the first width. */
int series_init(struct series *s, const struct series_field *fields, int nr_fields,
		int nr_rows, uint64_t width_us);
void series_free(struct series *s);

/* Fold VALUES (one per field) of ROW at T_US since the start into its point. */
void series_add(struct series *s, int row, uint64_t t_us, const uint64_t *values);

/*
 * The record's "series": {points_max, width_s, merge, fields, rows: [{ROW_KEY:
 * row, points: [[v, ...], ...]}]}, the rows for which INCLUDE (when not NULL)
 * says true. A point's values are in the order of fields.
 */
void series_json(struct json *j, const struct series *s, const char *row_key,
		 int (*include)(int row, const void *arg), const void *arg);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * series - a bounded measurement over time (series.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "series.h"
#include "util.h"

int series_init(struct series *s, const struct series_field *fields, int nr_fields,
		int nr_rows, uint64_t width_us)
{
	size_t bytes;

	memset(s, 0, sizeof(*s));
	if (nr_fields < 1 || nr_fields > SERIES_FIELDS_MAX)
		return -EINVAL;
	bytes = (size_t)nr_rows * SERIES_POINTS * nr_fields * sizeof(*s->vals);
	/*
	 * Resident now: a long run's RSS is then flat from its first minute
	 * instead of growing by the series until its points are all in use
	 * (~110 kB over the first 4 minutes of hwnoise -c 1-7).
	 */
	s->vals = alloc_resident(bytes, sizeof(*s->vals));
	if (!s->vals)
		return -ENOMEM;
	s->fields = fields;
	s->nr_fields = nr_fields;
	s->nr_rows = nr_rows;
	s->width_us = width_us ? width_us : 1;
	return 0;
}

void series_free(struct series *s)
{
	free(s->vals);
	s->vals = NULL;
}

static uint64_t *point(const struct series *s, int row, int i)
{
	return s->vals + ((size_t)row * SERIES_POINTS + i) * s->nr_fields;
}

static void fold(const struct series *s, uint64_t *into, const uint64_t *v)
{
	for (int f = 0; f < s->nr_fields; f++) {
		if (s->fields[f].merge == SERIES_SUM)
			into[f] += v[f];
		else if (v[f] > into[f])
			into[f] = v[f];
	}
}

/* Double the width: points 2i and 2i+1 become point i, in every row. */
static void halve(struct series *s)
{
	for (int row = 0; row < s->nr_rows; row++) {
		for (int i = 0; i < SERIES_POINTS / 2; i++) {
			uint64_t *to = point(s, row, i);

			/* point 0 onto itself: memmove */
			memmove(to, point(s, row, 2 * i), s->nr_fields * sizeof(*to));
			fold(s, to, point(s, row, 2 * i + 1));
		}
		memset(point(s, row, SERIES_POINTS / 2), 0,
		       (size_t)SERIES_POINTS / 2 * s->nr_fields * sizeof(uint64_t));
	}
	s->width_us *= 2;
	s->len = (s->len + 1) / 2;
}

void series_add(struct series *s, int row, uint64_t t_us, const uint64_t *values)
{
	uint64_t i;

	if (!s->vals || row < 0 || row >= s->nr_rows)
		return;
	while ((i = t_us / s->width_us) >= SERIES_POINTS)
		halve(s);
	fold(s, point(s, row, (int)i), values);
	if ((int)i >= s->len)
		s->len = (int)i + 1;
}

void series_json(struct json *j, const struct series *s, const char *row_key,
		 int (*include)(int row, const void *arg), const void *arg)
{
	if (!s || !s->vals) {
		json_null(j, "series");
		return;
	}
	json_object_begin(j, "series");
	json_i64(j, "points_max", SERIES_POINTS);
	json_double(j, "width_s", s->width_us / 1e6, 6);
	json_str(j, "merge", "width doubled, adjacent points merged in pairs: sum of sums, max of maxima");
	json_array_begin(j, "fields");
	for (int f = 0; f < s->nr_fields; f++) {
		json_object_begin(j, NULL);
		json_str(j, "name", s->fields[f].name);
		json_str(j, "merge", s->fields[f].merge == SERIES_SUM ? "sum" : "max");
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "rows");
	for (int row = 0; row < s->nr_rows; row++) {
		if (include && !include(row, arg))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, row_key, row);
		json_array_begin(j, "points");
		for (int i = 0; i < s->len; i++) {
			const uint64_t *p = point(s, row, i);
			char text[SERIES_FIELDS_MAX * 21 + 2];
			int n = 0;

			/* a point a line: the record of a long run on many CPUs stays readable */
			for (int f = 0; f < s->nr_fields; f++)
				n += snprintf(text + n, sizeof(text) - n, "%s%" PRIu64, f ? "," : "[", p[f]);
			snprintf(text + n, sizeof(text) - n, "]");
			json_raw(j, NULL, text);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

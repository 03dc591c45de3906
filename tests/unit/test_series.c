// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the bounded series (src/series.c): a value lands in the
 * point of its time, sums add and maxima keep the largest, a time past the
 * last point doubles the width and merges pairs in every row by those
 * rules, so a day of 1 s periods fits SERIES_POINTS with its totals and
 * its maximum kept; its memory resident from the start, so a long run's
 * RSS does not grow with it; and the record's form of it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "series.h"
#include "tap.h"

static const struct series_field fields[] = {
	{ "count", SERIES_SUM }, { "max", SERIES_MAX },
};

static uint64_t at(const struct series *s, int row, int i, int f)
{
	return s->vals[((size_t)row * SERIES_POINTS + i) * s->nr_fields + f];
}

static void test_points(void)
{
	struct series s;
	uint64_t a[] = { 1, 5 }, b[] = { 2, 3 }, c[] = { 1, 9 };

	is_int(series_init(&s, fields, 2, 2, 1000000), 0, "series_init: two rows");
	series_add(&s, 0, 0, a);
	series_add(&s, 0, 999999, b);
	series_add(&s, 1, 2500000, c);
	is_int(s.len, 3, "the points up to the latest time");
	is_int((long long)at(&s, 0, 0, 0), 3, "a sum field adds in its point");
	is_int((long long)at(&s, 0, 0, 1), 5, "a max field keeps the largest");
	is_int((long long)at(&s, 1, 2, 1), 9, "another row, its own point");
	is_int((long long)at(&s, 1, 0, 0), 0, "a point without values stays 0");
	series_add(&s, 5, 0, a);
	series_add(&s, -1, 0, a);
	is_int((long long)at(&s, 0, 0, 0), 3, "a row out of range is ignored");
	series_free(&s);
}

static void test_merge(void)
{
	struct series s;
	uint64_t total = 0, sum = 0, max = 0;
	bool bounded = true;

	series_init(&s, fields, 2, 2, 1000000);
	/* a day of 1 s periods on row 0, one spike in the 1000th; row 1 once, early */
	for (uint64_t t = 0; t < 86400; t++) {
		uint64_t v[] = { 1, t == 999 ? 5000 : t % 7 };

		series_add(&s, 0, t * 1000000, v);
		total++;
		if (s.len > SERIES_POINTS)
			bounded = false;
		if (t == 3) {
			uint64_t w[] = { 4, 1 };

			series_add(&s, 1, t * 1000000, w);
		}
	}
	ok(bounded, "never more than SERIES_POINTS points");
	ok(s.len > SERIES_POINTS / 2, "more than half of them in use once merged (%d)", s.len);
	is_int((long long)s.width_us, 512000000, "the width doubled to 512 s for a day in 256 points");
	for (int i = 0; i < s.len; i++) {
		sum += at(&s, 0, i, 0);
		if (at(&s, 0, i, 1) > max)
			max = at(&s, 0, i, 1);
	}
	is_int((long long)sum, (long long)total, "the sums are kept whole through the merges");
	is_int((long long)max, 5000, "the largest maximum is kept");
	is_int((long long)at(&s, 0, 1, 1), 5000, "in the point of its time (999 s / 512 s)");
	is_int((long long)at(&s, 1, 0, 0), 4, "every row merges with the same width");
	series_free(&s);
}

static void test_json(void)
{
	struct series s;
	struct json j;
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	uint64_t v[] = { 2, 7 };

	series_init(&s, fields, 2, 1, 2000000);
	series_add(&s, 0, 3000000, v);
	json_init(&j, f);
	json_object_begin(&j, NULL);
	series_json(&j, &s, "cpu", NULL, NULL);
	json_object_end(&j);
	fclose(f);
	ok(strstr(text, "\"width_s\": 2.000000") != NULL, "width_s in seconds");
	ok(strstr(text, "\"points_max\": 256") != NULL, "points_max");
	ok(strstr(text, "{\n        \"name\": \"max\",\n        \"merge\": \"max\"") != NULL,
	   "each field with its merge rule");
	ok(strstr(text, "\"cpu\": 0") != NULL, "each row named by its key");
	ok(strstr(text, "[0,0],\n") != NULL && strstr(text, "[2,7]\n") != NULL,
	   "a point a line, empty ones as zeros");
	free(text);
	series_free(&s);
}

/* 64 rows (256 KiB, beyond malloc's mmap threshold): every page resident once initialised */
static void test_resident(void)
{
	long page = sysconf(_SC_PAGESIZE);
	struct series s;
	uintptr_t from, to;
	unsigned char *vec;
	size_t pages, in = 0;

	is_int(series_init(&s, fields, 2, 64, 1000000), 0, "series_init: 64 rows");
	from = (uintptr_t)s.vals & ~(uintptr_t)(page - 1);
	to = ((uintptr_t)(s.vals + (size_t)64 * SERIES_POINTS * 2) + page - 1) & ~(uintptr_t)(page - 1);
	pages = (to - from) / page;
	vec = calloc(pages, 1);
	ok(vec && !mincore((void *)from, to - from, vec), "mincore of the series' pages");
	for (size_t i = 0; vec && i < pages; i++)
		in += vec[i] & 1;
	is_int((long long)in, (long long)pages, "every page of the series is resident at its start");
	free(vec);
	series_free(&s);
}

int main(void)
{
	test_points();
	test_resident();
	test_merge();
	test_json();
	return tap_done();
}

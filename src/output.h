/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * output - tables described once, printed as text, raw or JSON.
 *
 * A command lists its columns (name, JSON key and type, width hint, help) in
 * one array; the user picks columns with -o and a format with -J/-r/-n, as
 * util-linux tools do. Values are set by column index in that array, so a
 * column the user did not select costs nothing to fill.
 */
#ifndef RTLA_OUTPUT_H
#define RTLA_OUTPUT_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

enum out_type {
	OUT_STR,
	OUT_NUM,	/* JSON number */
	OUT_BOOL,	/* JSON true/false */
};

#define OUT_RIGHT	(1 << 0)	/* right-aligned (numbers) */
#define OUT_TRUNC	(1 << 1)	/* may be truncated to fit the terminal */
#define OUT_WRAP	(1 << 2)	/* may wrap (long lists such as capability names) */

struct out_column {
	const char *name;	/* header in text mode, e.g. "CAPEFF" */
	const char *key;	/* JSON key, e.g. "cap_eff" */
	enum out_type type;
	double width;		/* libsmartcols width hint: < 1 is a fraction of the terminal */
	unsigned flags;
	const char *help;
};

struct out_opts {
	bool json;
	bool raw;
	bool noheadings;
	const char *columns;	/* -o list; "+A,B" appends to the defaults */
};

/* getopt glue shared by every table command: -J -r -n -o. */
#define OUT_SHORT_OPTS "Jrno:"
#define OUT_LONG_OPTS \
	{ "json",	no_argument,		NULL, 'J' }, \
	{ "raw",	no_argument,		NULL, 'r' }, \
	{ "noheadings",	no_argument,		NULL, 'n' }, \
	{ "output",	required_argument,	NULL, 'o' }
/* Returns true if c was one of the output options. */
bool out_parse_opt(int c, const char *arg, struct out_opts *o);
void out_usage(FILE *f, const struct out_column *cols, size_t ncols);

struct out_table;
struct out_row;

/* NAME is the JSON array's key. -EINVAL with a message in err for a bad -o. */
int out_table_new(struct out_table **tp, const char *name, const struct out_column *cols,
		  size_t ncols, const char *default_columns, const struct out_opts *o, char *err);
void out_table_free(struct out_table *t);
bool out_column_shown(const struct out_table *t, int col);

struct out_row *out_row_add(struct out_table *t);
void out_set_str(struct out_row *r, int col, const char *val);
void out_set_fmt(struct out_row *r, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void out_set_u64(struct out_row *r, int col, uint64_t val);
void out_set_bool(struct out_row *r, int col, bool val);

/* Print to stdout; -errno (EPIPE, ENOSPC...) when the output could not be written. */
int out_table_print(struct out_table *t);

/* Flush stdout and report a write error: 0, or -errno. */
int out_flush_stdout(void);

#endif

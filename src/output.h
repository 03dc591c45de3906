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

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

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
	bool json;		/* -J: the record on stdout instead of the table */
	bool raw;
	bool noheadings;
	const char *columns;	/* -o list; "+A,B" appends to the defaults */
	const char *json_file;	/* --json-file: the record there, the table on stdout */
	int schema_version;	/* of the record (json.h); 0 is 1 */
};

/*
 * The options every table command shares, for its cli_option list (cli.h).
 * --raw has no short letter: -r is upstream rtla's --runtime in the noise
 * commands, and a letter means one thing across the suite.
 */
#define OUT_ID_JSON_FILE	(CLI_LONG + 100)
#define OUT_ID_RAW		(CLI_LONG + 101)
#define OUT_CLI_OPTIONS \
	CLI_FLAG('J', "json", "print the result as JSON instead of the table"), \
	CLI_VALUE(OUT_ID_JSON_FILE, "json-file", "FILE", \
		  "also write the JSON record to FILE (- for stdout)", \
		  .flags = CLI_FILE, .complete = CLI_COMP_FILE), \
	CLI_FLAG(OUT_ID_RAW, "raw", "use raw output format"), \
	CLI_FLAG('n', "noheadings", "don't print headings"), \
	CLI_VALUE('o', "output", "LIST", "the columns to print (+LIST adds to the defaults)")
/* Returns true if id was one of the output options. */
bool out_parse_opt(int id, const char *arg, struct out_opts *o);
/* The "Available output columns" part of a command's help. */
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
/* Nothing to show: "-" in the table (a blank would shift raw output), null in JSON. */
void out_set_none(struct out_row *r, int col);

/*
 * Print the table to stdout, or with -J the record (json.h's envelope and
 * the rows under the table's NAME); with --json-file also the record there.
 * An empty table still prints its header. -errno when the record could not
 * be written to --json-file (reported here); a failed stdout is not this
 * function's to report: main() does, once, and ends quietly on a closed pipe.
 */
int out_table_print(struct out_table *t);

/*
 * The rows as a JSON array under the table's NAME, into a record the caller
 * has begun (a command whose record holds several tables). 0 or -ENOMEM.
 */
struct json;
int out_table_json(struct out_table *t, struct json *j);

/* Flush stdout: 0, or -errno of the first write error it ever had. */
int out_flush_stdout(void);

#endif

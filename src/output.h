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
 * -J and --json-file: the two rows of every command's option list that has
 * a record (cli.h), declared here once. A command parses them with
 * out_parse_opt() into its struct out_opts, or itself by these ids.
 */
#define OUT_ID_JSON_FILE	(CLI_LONG + 100)
#define OUT_ID_RAW		(CLI_LONG + 101)
#define OUT_RECORD_OPTIONS \
	CLI_FLAG('J', "json", "print the JSON record on stdout instead of the text output"), \
	CLI_VALUE(OUT_ID_JSON_FILE, "json-file", "FILE", \
		  "also write the JSON record to FILE (- for stdout)", \
		  .flags = CLI_FILE, .complete = CLI_COMP_FILE)
/*
 * The options every table command shares: the record's, then the table's.
 * --raw has no short letter: -r is upstream rtla's --runtime in the noise
 * commands, and a letter means one thing across the suite.
 */
#define OUT_CLI_OPTIONS(column_names) \
	OUT_RECORD_OPTIONS, \
	CLI_FLAG(OUT_ID_RAW, "raw", "use raw output format"), \
	CLI_FLAG('n', "noheadings", "don't print headings"), \
	CLI_VALUE('o', "output", "LIST", "the columns to print (+LIST adds to the defaults)", \
		  .flags = CLI_LIST, .complete = CLI_COMP_CALL, .candidates = (column_names))
/* Returns true if id was one of the output options. */
bool out_parse_opt(int id, const char *arg, struct out_opts *o);
/* The "Available output columns" part of a command's help. */
void out_usage(FILE *f, const struct out_column *cols, size_t ncols);
/* The column names, one a line: what -o completes (a command's column_names of OUT_CLI_OPTIONS). */
void out_column_names(FILE *out, const struct out_column *cols, size_t ncols);

/*
 * The record a command writes: its envelope (json.h) and the command's body,
 * on stdout with -J and into --json-file's FILE ("-" is stdout), once each.
 *
 *	struct out_record rec;
 *
 *	if (out_record_open(&rec, o->json, o->json_file))	// before any work
 *		return EXIT_ERROR;				// reported
 *	... the work, the table unless -J ...
 *	if (out_record_write(&rec, SCHEMA_VERSION, body, &state))
 *		status = EXIT_ERROR;				// reported
 *
 * The FILE is opened at once, so that a long run never fails on its output
 * path at the end, but written only at the end: an existing file keeps its
 * contents until then, and one made for a run that ends without its record
 * (out_record_abandon) is removed again. The record is made whole in memory
 * first; a regular FILE is then replaced by a new one renamed over it
 * (fs_write_replace), so that no reader sees half a record.
 */
struct json;
struct out_record {
	bool to_stdout;		/* -J */
	FILE *stdout_stream;	/* -J's stream, when not stdout (the noise commands') */
	const char *path;	/* --json-file, NULL for none */
	FILE *file;		/* its stream while open */
	bool created;		/* made by out_record_open(): removed if abandoned */
};

/* The command's part of the record, after the envelope: 0 or -errno. */
typedef int (*out_record_body)(struct json *j, const void *arg);

/*
 * Note -J and open --json-file's FILE. 0, or -errno reported as one line
 * "--json-file: FILE: ERROR"; nothing is left open then.
 */
int out_record_open(struct out_record *r, bool to_stdout, const char *json_file);
/*
 * Write the record (json_record_begin(), BODY, the closing brace) to stdout
 * with -J, then to the FILE, which is closed: 0, or -errno of the FILE,
 * reported. A failed stdout is not reported here: main() does, once, and
 * ends quietly on a closed pipe.
 */
int out_record_write(struct out_record *r, int schema_version, out_record_body body,
		     const void *arg);
/* No record after all (the command failed first): close the FILE, remove it if made. */
void out_record_abandon(struct out_record *r);
/* The record as text in memory (*TEXT to free): 0, or -errno; for its plots (hist --plot) */
int out_record_text(int schema_version, out_record_body body, const void *arg, char **text,
		    size_t *len);

struct out_table;
struct out_row;

/*
 * NAME is the JSON array's key. -EINVAL with a message in err for a bad -o;
 * with --json-file in O, the record's FILE is opened here (out_record_open),
 * and a failure to is reported here, with err empty. Any other failure is in
 * err as well.
 */
int out_table_new(struct out_table **tp, const char *name, const struct out_column *cols,
		  size_t ncols, const char *default_columns, const struct out_opts *o, char *err);
void out_table_free(struct out_table *t);
bool out_column_shown(const struct out_table *t, int col);

/*
 * The caller adds rows in their final order: the table (not a record: -J
 * and --json-file hold every row to the end) is printed in batches as they
 * come, and the memory stays that of one batch.
 */
void out_table_stream(struct out_table *t);
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
int out_table_json(struct out_table *t, struct json *j);

/* Flush stdout: 0, or -errno of the first write error it ever had. */
int out_flush_stdout(void);

/* TEXT escaped for XML and HTML (JUnit files, rtla report's pages and plots); NULL: nothing */
void xml_text(FILE *f, const char *text);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * output - a thin layer over libsmartcols.
 *
 * libsmartcols derives JSON keys from column headers, so in JSON mode the
 * headers are the JSON keys and in text mode the human names; the command
 * describes both once and never formats output itself.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols.h>

#include "output.h"
#include "parse.h"

#define OUT_MAX_COLUMNS 64

struct out_table {
	struct libscols_table *tb;
	const struct out_column *cols;
	size_t ncols;
	bool json;
	/* scols column for each described column, NULL when not selected */
	struct libscols_column *shown[OUT_MAX_COLUMNS];
};


bool out_parse_opt(int c, const char *arg, struct out_opts *o)
{
	switch (c) {
	case 'J': o->json = true; return true;
	case 'r': o->raw = true; return true;
	case 'n': o->noheadings = true; return true;
	case 'o': o->columns = arg; return true;
	default: return false;
	}
}

void out_usage(FILE *f, const struct out_column *cols, size_t ncols)
{
	fputs("\nOutput:\n"
	      "  -J, --json            use JSON output format\n"
	      "  -r, --raw             use raw output format\n"
	      "  -n, --noheadings      don't print headings\n"
	      "  -o, --output LIST     the columns to print (+LIST adds to the defaults)\n"
	      "\nAvailable output columns:\n", f);
	for (size_t i = 0; i < ncols; i++)
		fprintf(f, " %12s  %s\n", cols[i].name, cols[i].help);
}

static int find_column(const struct out_column *cols, size_t ncols, const char *name, size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len && !strncasecmp(cols[i].name, name, len))
			return i;
	return -1;
}

/* Add the columns named in a comma list to order[], returning the new count. */
static int select_columns(const struct out_column *cols, size_t ncols, const char *list,
			  int *order, int n, char *err)
{
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		int id = find_column(cols, ncols, p, len);

		if (id < 0) {
			snprintf(err, PARSE_ERR_MAX, "unknown column: %.*s", (int)len, p);
			return -EINVAL;
		}
		if (n >= OUT_MAX_COLUMNS) {
			snprintf(err, PARSE_ERR_MAX, "too many columns");
			return -EINVAL;
		}
		order[n++] = id;
		p += len;
		if (*p == ',')
			p++;
	}
	return n;
}

int out_table_new(struct out_table **tp, const char *name, const struct out_column *cols,
		  size_t ncols, const char *default_columns, const struct out_opts *o, char *err)
{
	int order[OUT_MAX_COLUMNS], n = 0;
	const char *list = o->columns;
	struct out_table *t;

	if (ncols > OUT_MAX_COLUMNS)
		return -E2BIG;
	if (!list || *list == '+') {
		n = select_columns(cols, ncols, default_columns, order, 0, err);
		if (list)
			list++;
	}
	if (n >= 0 && list)
		n = select_columns(cols, ncols, list, order, n, err);
	if (n < 0)
		return n;
	if (n == 0) {
		snprintf(err, PARSE_ERR_MAX, "no columns selected");
		return -EINVAL;
	}

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->cols = cols;
	t->ncols = ncols;
	t->json = o->json;
	t->tb = scols_new_table();
	if (!t->tb) {
		free(t);
		return -ENOMEM;
	}
	scols_table_set_stream(t->tb, stdout);
	scols_table_enable_json(t->tb, o->json);
	scols_table_enable_raw(t->tb, o->raw);
	scols_table_enable_noheadings(t->tb, o->noheadings);
	if (o->json)
		scols_table_set_name(t->tb, name);

	for (int i = 0; i < n; i++) {
		const struct out_column *c = &cols[order[i]];
		unsigned fl = 0;
		struct libscols_column *cl;

		if (t->shown[order[i]])
			continue;	/* named twice: print once */
		if (c->flags & OUT_RIGHT)
			fl |= SCOLS_FL_RIGHT;
		if (c->flags & OUT_TRUNC)
			fl |= SCOLS_FL_TRUNC;
		if (c->flags & OUT_WRAP)
			fl |= SCOLS_FL_WRAP;
		cl = scols_table_new_column(t->tb, o->json ? c->key : c->name, c->width, fl);
		if (!cl) {
			out_table_free(t);
			return -ENOMEM;
		}
		if (c->type == OUT_NUM)
			scols_column_set_json_type(cl, SCOLS_JSON_NUMBER);
		else if (c->type == OUT_BOOL)
			scols_column_set_json_type(cl, SCOLS_JSON_BOOLEAN);
		t->shown[order[i]] = cl;
	}
	*tp = t;
	return 0;
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	scols_unref_table(t->tb);
	free(t);
}

bool out_column_shown(const struct out_table *t, int col)
{
	return col >= 0 && (size_t)col < t->ncols && t->shown[col];
}

/*
 * A row is the libsmartcols line itself; the line's user data points back at
 * the table, which knows where each described column went.
 */
struct out_row *out_row_add(struct out_table *t)
{
	struct libscols_line *ln = scols_table_new_line(t->tb, NULL);

	if (ln)
		scols_line_set_userdata(ln, t);
	return (struct out_row *)ln;
}

static struct libscols_column *row_column(struct out_row *r, int col)
{
	struct out_table *t;

	if (!r)
		return NULL;
	t = scols_line_get_userdata((struct libscols_line *)r);
	return out_column_shown(t, col) ? t->shown[col] : NULL;
}

void out_set_str(struct out_row *r, int col, const char *val)
{
	struct libscols_column *cl = row_column(r, col);

	if (cl && val)
		scols_line_set_column_data((struct libscols_line *)r, cl, val);
}

void out_set_fmt(struct out_row *r, int col, const char *fmt, ...)
{
	struct libscols_column *cl = row_column(r, col);
	char *s;
	va_list ap;
	int ret;

	if (!cl)
		return;
	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		return;
	scols_line_refer_column_data((struct libscols_line *)r, cl, s);
}

void out_set_u64(struct out_row *r, int col, uint64_t val)
{
	out_set_fmt(r, col, "%llu", (unsigned long long)val);
}

void out_set_bool(struct out_row *r, int col, bool val)
{
	struct out_table *t = r ? scols_line_get_userdata((struct libscols_line *)r) : NULL;

	/* libsmartcols reads a JSON boolean as false only from "0", "N" or "" */
	if (t && t->json)
		out_set_str(r, col, val ? "1" : "0");
	else
		out_set_str(r, col, val ? "yes" : "no");
}

int out_flush_stdout(void)
{
	if (fflush(stdout) || ferror(stdout))
		return errno ? -errno : -EIO;
	return 0;
}

int out_table_print(struct out_table *t)
{
	int ret;

	errno = 0;
	ret = scols_print_table(t->tb);
	if (ret)
		return errno ? -errno : -EIO;
	return out_flush_stdout();
}

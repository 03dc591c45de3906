// SPDX-License-Identifier: GPL-2.0-only
/*
 * output - a thin layer over libsmartcols.
 *
 * libsmartcols lays out the text table; the JSON record is written from the
 * same cells by json.c, so that it carries the envelope every record has and
 * the typed values the column descriptions ask for. The command describes
 * both once and never formats output itself.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libsmartcols.h>

#include "fsutil.h"
#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"

#define OUT_MAX_COLUMNS 64

struct out_table {
	struct libscols_table *tb;
	const char *name;
	const struct out_column *cols;
	size_t ncols;
	struct out_opts opts;
	struct out_record rec;	/* the table's own record (out_table_print) */
	/* scols column for each described column, NULL when not selected */
	struct libscols_column *shown[OUT_MAX_COLUMNS];
	int order[OUT_MAX_COLUMNS];	/* described column of each shown one */
	int nshown;
	bool stream;		/* out_table_stream(): print in batches */
	size_t printed;		/* rows a streaming table has printed */
};

/* Rows a streaming table holds before it prints them. */
#define OUT_STREAM_BATCH	4096

/* The mark of a cell set by out_set_none(). */
static char none_mark;

bool out_parse_opt(int id, const char *arg, struct out_opts *o)
{
	switch (id) {
	case 'J': o->json = true; return true;
	case OUT_ID_RAW: o->raw = true; return true;
	case 'n': o->noheadings = true; return true;
	case 'o': o->columns = arg; return true;
	case OUT_ID_JSON_FILE: o->json_file = arg; return true;
	default: return false;
	}
}

void out_usage(FILE *f, const struct out_column *cols, size_t ncols)
{
	fputs("\nAvailable output columns:\n", f);
	for (size_t i = 0; i < ncols; i++)
		fprintf(f, " %12s  %s\n", cols[i].name, cols[i].help);
}

void out_column_names(FILE *out, const struct out_column *cols, size_t ncols)
{
	for (size_t i = 0; i < ncols; i++)
		fprintf(out, "%s\n", cols[i].name);
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

		if (!len) {
			snprintf(err, PARSE_ERR_MAX, "empty column name in '%s'", list);
			return -EINVAL;
		}
		if (id < 0) {
			snprintf(err, PARSE_ERR_MAX, "unknown column: '%.*s'", (int)len, p);
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

	err[0] = '\0';
	if (ncols > OUT_MAX_COLUMNS) {
		snprintf(err, PARSE_ERR_MAX, "%s", strerror(E2BIG));
		return -E2BIG;
	}
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
	if (!t) {
		snprintf(err, PARSE_ERR_MAX, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	t->name = name;
	t->cols = cols;
	t->ncols = ncols;
	t->opts = *o;
	t->tb = scols_new_table();
	if (!t->tb) {
		free(t);
		snprintf(err, PARSE_ERR_MAX, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	scols_table_set_stream(t->tb, stdout);
	scols_table_enable_raw(t->tb, o->raw);
	scols_table_enable_noheadings(t->tb, o->noheadings);

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
		cl = scols_table_new_column(t->tb, c->name, c->width, fl);
		if (!cl) {
			out_table_free(t);
			snprintf(err, PARSE_ERR_MAX, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		t->shown[order[i]] = cl;
		t->order[t->nshown++] = order[i];
	}
	/* last: a bad -o is the first thing to say; the record's FILE before the work */
	n = out_record_open(&t->rec, o->json, o->json_file);
	if (n) {
		out_table_free(t);
		return n;
	}
	*tp = t;
	return 0;
}

void out_table_free(struct out_table *t)
{
	if (!t)
		return;
	out_record_abandon(&t->rec);
	scols_unref_table(t->tb);
	free(t);
}

bool out_column_shown(const struct out_table *t, int col)
{
	return col >= 0 && (size_t)col < t->ncols && t->shown[col];
}

void out_table_stream(struct out_table *t)
{
	t->stream = !t->opts.json && !t->rec.file;
}

/*
 * Print the rows held and let them go. libsmartcols keeps each column's
 * width as the floor of the next print's (2.38, as tests/host/capdump.bats
 * checks), so the columns stay aligned unless a later cell is wider than
 * every earlier one.
 */
static void print_batch(struct out_table *t)
{
	scols_print_table(t->tb);
	t->printed += scols_table_get_nlines(t->tb);
	scols_table_remove_lines(t->tb);
	scols_table_enable_noheadings(t->tb, 1);
}

/*
 * A row is the libsmartcols line itself; the line's user data points back at
 * the table, which knows where each described column went.
 */
struct out_row *out_row_add(struct out_table *t)
{
	struct libscols_line *ln;

	if (t->stream && scols_table_get_nlines(t->tb) >= OUT_STREAM_BATCH)
		print_batch(t);
	ln = scols_table_new_line(t->tb, NULL);

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
	out_set_str(r, col, val ? "yes" : "no");
}

void out_set_none(struct out_row *r, int col)
{
	struct libscols_column *cl = row_column(r, col);

	if (!cl)
		return;
	scols_line_set_column_data((struct libscols_line *)r, cl, "-");
	scols_cell_set_userdata(scols_line_get_column_cell((struct libscols_line *)r, cl),
				&none_mark);
}

int out_flush_stdout(void)
{
	static int first_error;

	if ((fflush(stdout) || ferror(stdout)) && !first_error)
		first_error = errno ? -errno : -EIO;
	return first_error;
}

/* One cell as its column's JSON type: a number, true/false, a string or null. */
static void json_cell(struct json *j, const struct out_column *c, struct libscols_cell *cell)
{
	const char *data = cell ? scols_cell_get_data(cell) : NULL;
	char *end;

	if (!data || !*data || scols_cell_get_userdata(cell) == &none_mark) {
		json_null(j, c->key);
		return;
	}
	if (c->type == OUT_BOOL) {
		json_bool(j, c->key, !strcmp(data, "yes"));
		return;
	}
	if (c->type == OUT_NUM) {
		errno = 0;
		strtod(data, &end);
		if (!*end && !errno && strspn(data, "-0123456789.") == strlen(data)) {
			json_raw(j, c->key, data);
			return;
		}
	}
	json_str(j, c->key, data);
}

int out_table_json(struct out_table *t, struct json *j)
{
	struct libscols_iter *it = scols_new_iter(SCOLS_ITER_FORWARD);
	struct libscols_line *ln;

	if (!it)
		return -ENOMEM;
	json_array_begin(j, t->name);
	while (scols_table_next_line(t->tb, it, &ln) == 0) {
		json_object_begin(j, NULL);
		for (int i = 0; i < t->nshown; i++)
			json_cell(j, &t->cols[t->order[i]],
				  scols_line_get_column_cell(ln, t->shown[t->order[i]]));
		json_object_end(j);
	}
	json_array_end(j);
	scols_free_iter(it);
	return 0;
}

/*
 * The record's destinations. One message for a FILE that could not be
 * opened or written, whichever command it is.
 */
static int record_error(const struct out_record *r, int err)
{
	err_msg("--json-file: %s: %s", r->path, strerror(-err));
	return err;
}

int out_record_open(struct out_record *r, bool to_stdout, const char *json_file)
{
	int fd;

	*r = (struct out_record){ .to_stdout = to_stdout, .path = json_file };
	if (!json_file)
		return 0;
	if (!strcmp(json_file, "-")) {
		r->file = stdout;
		return 0;
	}
	/* not truncated yet: an existing file keeps its contents until the record is written */
	fd = open(json_file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd >= 0)
		r->created = true;
	else if (errno == EEXIST)
		fd = open(json_file, O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && !(r->file = fdopen(fd, "w"))) {
		int err = -errno;

		close(fd);
		fd = -1;
		errno = -err;
	}
	if (fd < 0) {
		int err = -errno;

		if (r->created)
			unlink(json_file);
		r->created = false;
		return record_error(r, err);
	}
	return 0;
}

static int write_one(FILE *f, int schema_version, out_record_body body, const void *arg)
{
	struct json j;
	int ret;

	json_init(&j, f);
	json_record_begin(&j, schema_version);
	ret = body ? body(&j, arg) : 0;
	json_object_end(&j);
	return ret;
}

int out_record_text(int schema_version, out_record_body body, const void *arg, char **text,
		    size_t *len)
{
	FILE *mem = open_memstream(text, len);
	int ret;

	if (!mem)
		return -errno;
	ret = write_one(mem, schema_version, body, arg);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	return ret;
}

int out_record_write(struct out_record *r, int schema_version, out_record_body body,
		     const void *arg)
{
	size_t len = 0;
	char *buf = NULL;
	struct stat st;
	FILE *f;
	int ret;

	if (!r->to_stdout && !r->file)
		return 0;	/* nobody asked for it: not made (for a big table, most of the time) */
	/* made whole first: a body that fails leaves every destination as it was */
	ret = out_record_text(schema_version, body, arg, &buf, &len);
	if (!ret && r->to_stdout)
		fwrite(buf, 1, len, r->stdout_stream ? r->stdout_stream : stdout);
	f = r->file;
	if (ret || !f) {
		out_record_abandon(r);
		free(buf);
		return ret;
	}
	r->file = NULL;
	r->created = false;
	if (f != stdout && !fstat(fileno(f), &st) && S_ISREG(st.st_mode)) {
		/* replaced whole, as the gate's files: a reader sees the old record or the new */
		fclose(f);
		ret = fs_write_text(r->path, buf, len);
	} else {
		fwrite(buf, 1, len, f);	/* stdout, a FIFO, a terminal */
		ret = json_close_file(f);
	}
	free(buf);
	return ret ? record_error(r, ret) : 0;
}

void out_record_abandon(struct out_record *r)
{
	if (r->file && r->file != stdout) {
		fclose(r->file);
		if (r->created)
			unlink(r->path);
	}
	r->file = NULL;
	r->created = false;
}

static int table_body(struct json *j, const void *arg)
{
	return out_table_json((struct out_table *)arg, j);
}

/* libsmartcols prints nothing for a table without lines: print the header alone. */
static void print_header_only(struct out_table *t)
{
	for (int i = 0; i < t->nshown; i++)
		printf("%s%s", i ? " " : "", t->cols[t->order[i]].name);
	putchar('\n');
}

int out_table_print(struct out_table *t)
{
	int ret;

	/* the record on stdout (-J) comes from out_record_write(), the table otherwise */
	if (t->opts.json)
		;
	else if (scols_table_get_nlines(t->tb))
		scols_print_table(t->tb);
	else if (!t->opts.noheadings && !t->printed)
		print_header_only(t);
	ret = out_record_write(&t->rec, t->opts.schema_version ? t->opts.schema_version : 1,
			       table_body, t);
	/* a failed stdout is main()'s to report, once, and quietly for a closed pipe */
	out_flush_stdout();
	return ret;
}

void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\t': case '\n': case '\r': fputc(*s, f); break;
		/* no other control character is allowed in XML: U+FFFD stands in */
		default: (unsigned char)*s < 0x20 ? fputs("\xEF\xBF\xBD", f) : fputc(*s, f);
		}
	}
}

// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the output layer: text, raw, JSON, -o selection, -n, bad columns. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "output.h"
#include "parse.h"
#include "tap.h"

enum { COL_PID, COL_NAME, COL_CAPS, COL_ROOT };

static const struct out_column cols[] = {
	[COL_PID]  = { "PID", "pid", OUT_NUM, 5, OUT_RIGHT, "process ID" },
	[COL_NAME] = { "COMMAND", "command", OUT_STR, 0.2, 0, "command name" },
	[COL_CAPS] = { "CAPEFF", "cap_eff", OUT_STR, 16, 0, "effective set" },
	[COL_ROOT] = { "ROOT", "is_root", OUT_BOOL, 4, 0, "runs as root" },
};

/* Print a table of ROWS rows (0 or 2) with the given options into a string. */
static char *render_rows(const struct out_opts *o, int rows, int *ret)
{
	static char buf[4096];
	char err[PARSE_ERR_MAX];
	struct out_table *t;
	struct out_row *r;
	FILE *f;
	int saved;
	size_t n;

	*ret = out_table_new(&t, "processes", cols, 4, "PID,COMMAND,CAPEFF", o, err);
	if (*ret)
		return err[0] ? strcpy(buf, err) : NULL;
	if (rows) {
		r = out_row_add(t);
		out_set_u64(r, COL_PID, 1);
		out_set_str(r, COL_NAME, "init");
		out_set_fmt(r, COL_CAPS, "%016llx", 0x1ffffffffffULL);
		out_set_bool(r, COL_ROOT, true);
		r = out_row_add(t);
		out_set_u64(r, COL_PID, 42);
		out_set_str(r, COL_NAME, "say \"hi\"");
		out_set_str(r, COL_CAPS, "0000000000000000");
		out_set_bool(r, COL_ROOT, false);
	}

	f = tmpfile();
	saved = dup(1);
	fflush(stdout);
	dup2(fileno(f), 1);
	*ret = out_table_print(t);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	out_table_free(t);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *render(const struct out_opts *o, int *ret)
{
	return render_rows(o, 2, ret);
}

/* A table without rows. */
static char *render_empty(const struct out_opts *o, int *ret)
{
	return render_rows(o, 0, ret);
}

static int body_answer(struct json *j, const void *arg)
{
	json_i64(j, "answer", *(const int *)arg);
	return 0;
}

/* The file's contents into buf ("" when it is not there). */
static const char *slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, size - 1, f) : 0;

	if (f)
		fclose(f);
	buf[n] = '\0';
	return buf;
}

/* out_record: opened before the work, written whole at the end, or not left behind. */
static void test_record(void)
{
	char path[] = "/tmp/rtla-test-record-XXXXXX", buf[4096];
	struct out_record r;
	int fd = mkstemp(path), answer = 42;

	close(fd);
	unlink(path);
	is_int(out_record_open(&r, false, path), 0, "record: a new FILE opens");
	ok(access(path, F_OK) == 0, "record: the FILE is there before the work");
	out_record_abandon(&r);
	ok(access(path, F_OK) != 0, "record: abandoned, the FILE it made is removed");

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	is_int((int)write(fd, "keep me, a long old file\n", 25), 25, "record: an old FILE");
	close(fd);
	is_int(out_record_open(&r, false, path), 0, "record: an existing FILE opens");
	is_str(slurp(path, buf, sizeof(buf)), "keep me, a long old file\n",
	       "record: an existing FILE keeps its contents until written");
	out_record_abandon(&r);
	is_str(slurp(path, buf, sizeof(buf)), "keep me, a long old file\n",
	       "record: abandoned, an existing FILE is as it was");

	is_int(out_record_open(&r, false, path), 0, "record: opens again");
	is_int(out_record_write(&r, 3, body_answer, &answer), 0, "record: written");
	slurp(path, buf, sizeof(buf));
	ok(!strncmp(buf, "{\n  \"schema\": {\n    \"name\": \"rtla-test\",\n    \"version\": 3\n  },\n",
		    58), "record: the envelope first, with the schema version");
	ok(strstr(buf, "\n  \"answer\": 42\n}\n") && !strstr(buf, "keep me"),
	   "record: the body last, the old contents gone");
	unlink(path);

	is_int(out_record_open(&r, false, "/nonexistent-dir/r.json"), -ENOENT,
	       "record: a FILE that cannot be made fails at once");
	ok(!r.file, "record: nothing left open");
}

static void nested_document(struct json *j)
{
	json_str(j, "backend", "sampler");
	json_array_begin(j, "cpus");
	json_object_begin(j, NULL);
	json_u64(j, "cpu", 1);
	json_double(j, "avail", 99.5, 3);
	json_object_end(j);
	json_array_end(j);
	json_array_begin(j, "empty");
	json_array_end(j);
	json_str(j, "tab", "a\tb");
	json_null(j, "stopped_cpu");
}

/* each character JSON must escape, at the start, inside, side by side and at the end */
static void escapes(struct json *j)
{
	json_str(j, "s", "\"a\\b\nc\rd\te\x01\x1f\x7f\xc3\xa9 z\"\"");
	json_str(j, "plain", "no escapes at all");
	json_str(j, "", "");
}

/* The document BODY writes into one object, against WANT. */
static void is_json(void (*body)(struct json *j), const char *want, const char *name)
{
	char *doc;
	size_t len;
	FILE *f = open_memstream(&doc, &len);
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	body(&j);
	json_object_end(&j);
	fclose(f);
	is_str(doc, want, "%s", name);
	free(doc);
}

int main(void)
{
	struct out_opts o = { 0 };

	json_set_command("test");
	char *s;
	int ret;

	setenv("COLUMNS", "80", 1);
	s = render(&o, &ret);
	is_int(ret, 0, "text: prints");
	is_str(s, "PID COMMAND  CAPEFF\n  1 init     000001ffffffffff\n 42 say \"hi\" 0000000000000000\n",
	       "text: default columns, right-aligned numbers");

	o.raw = true;
	s = render(&o, &ret);
	is_str(s, "PID COMMAND CAPEFF\n1 init 000001ffffffffff\n42 say\\x20\"hi\" 0000000000000000\n",
	       "raw: space separated, blanks escaped");

	o.raw = false;
	o.noheadings = true;
	o.columns = "pid,root";
	s = render(&o, &ret);
	is_str(s, "  1 yes\n 42 no\n", "-n and -o: selected columns without header");

	o.noheadings = false;
	o.columns = "+ROOT";
	s = render(&o, &ret);
	ok(strstr(s, "CAPEFF           ROOT\n") != NULL, "-o +ROOT appends to the defaults");

	o.columns = NULL;
	o.json = true;
	s = render(&o, &ret);
	ok(!strncmp(s, "{\n  \"schema\": {\n    \"name\": \"rtla-test\",\n    \"version\": 1\n  },\n"
		       "  \"tool\": \"rtla\",\n", 67), "json: the record starts with the envelope");
	ok(strstr(s, "\n  \"command\": \"test\",\n") && strstr(s, "\n  \"started\": \"") &&
	   strstr(s, "\n  \"host\": \"") && strstr(s, "\n  \"kernel\": \""),
	   "json: command, started, host and kernel in the envelope");
	ok(strstr(s, "  \"processes\": [\n    {\n      \"pid\": 1,\n      \"command\": \"init\",\n"
		     "      \"cap_eff\": \"000001ffffffffff\"\n    },\n    {\n      \"pid\": 42,\n"
		     "      \"command\": \"say \\\"hi\\\"\",\n      \"cap_eff\": \"0000000000000000\"\n"
		     "    }\n  ]\n}\n") != NULL, "json: keys, numbers as numbers, strings escaped");

	o.columns = "pid,root";
	s = render(&o, &ret);
	ok(strstr(s, "\"is_root\": true") && strstr(s, "\"is_root\": false"), "json: booleans");

	o.json = false;
	o.columns = "PID,BOGUS";
	s = render(&o, &ret);
	is_int(ret, -EINVAL, "-o with an unknown column fails");
	is_str(s, "unknown column: 'BOGUS'", "-o names the unknown column");
	o.columns = ",,,";
	s = render(&o, &ret);
	is_int(ret, -EINVAL, "-o with empty names fails");
	is_str(s, "empty column name in ',,,'", "-o says the name is empty");

	o.columns = NULL;
	s = render_empty(&o, &ret);
	is_str(s, "PID COMMAND CAPEFF\n", "an empty table prints its header");
	o.noheadings = true;
	s = render_empty(&o, &ret);
	is_str(s, "", "an empty table with -n prints nothing");
	o.noheadings = false;
	o.json = true;
	s = render_empty(&o, &ret);
	ok(strstr(s, "  \"processes\": []\n}\n") != NULL, "an empty table in JSON: []");
	o.json = false;

	{
		char path[] = "/tmp/rtla-test-output-XXXXXX", doc[4096];
		int fd = mkstemp(path);
		ssize_t n;

		o.json_file = path;
		s = render(&o, &ret);
		ok(ret == 0 && !strncmp(s, "PID COMMAND", 11), "--json-file: the table still prints");
		close(fd);
		/* by its name: the record is a new file renamed over the one made here */
		fd = open(path, O_RDONLY);
		n = fd >= 0 ? pread(fd, doc, sizeof(doc) - 1, 0) : -1;
		doc[n > 0 ? n : 0] = '\0';
		ok(strstr(doc, "\"schema\"") && strstr(doc, "\"pid\": 42"), "--json-file: the record");
		close(fd);
		unlink(path);
		o.json_file = "/nonexistent-dir/r.json";
		s = render(&o, &ret);
		is_int(ret, -ENOENT, "--json-file in a missing directory fails");
		o.json_file = NULL;
	}

	is_json(nested_document, "{\n  \"backend\": \"sampler\",\n  \"cpus\": [\n    {\n"
		"      \"cpu\": 1,\n      \"avail\": 99.500\n    }\n  ],\n  \"empty\": [],\n"
		"  \"tab\": \"a\\tb\",\n  \"stopped_cpu\": null\n}\n", "json writer: nested document");
	is_json(escapes, "{\n  \"s\": \"\\\"a\\\\b\\nc\\rd\\te\\u0001\\u001f\x7f\xc3\xa9 z\\\"\\\"\",\n"
		"  \"plain\": \"no escapes at all\",\n  \"\": \"\"\n}\n",
		"json strings: quotes, backslashes and control characters escaped, the rest as it is");
	test_record();
	return tap_done();
}

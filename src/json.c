// SPDX-License-Identifier: GPL-2.0-only
/*
 * json - streaming writer with two-space indentation, keys in the order
 * written, strings escaped per RFC 8259.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "json.h"

static char record_command[64] = "rtla";
static time_t record_started;

void json_set_command(const char *command)
{
	snprintf(record_command, sizeof(record_command), "%s", command);
	if (!record_started)
		record_started = time(NULL);
}

void json_record_begin(struct json *j, int schema_version)
{
	char schema[80], started[32];
	struct utsname uts;
	time_t t = record_started ? record_started : time(NULL);
	struct tm tm;

	snprintf(schema, sizeof(schema), "rtla-%s", record_command);
	for (char *sp = schema; (sp = strchr(sp, ' ')); )
		*sp = '-';
	gmtime_r(&t, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (uname(&uts))
		memset(&uts, 0, sizeof(uts));

	json_object_begin(j, NULL);
	json_object_begin(j, "schema");
	json_str(j, "name", schema);
	json_i64(j, "version", schema_version);
	json_object_end(j);
	json_str(j, "tool", "rtla");
	json_str(j, "version", RTLA_VERSION);
	json_str(j, "command", record_command);
	json_str(j, "host", uts.nodename);
	json_str(j, "kernel", uts.release);
	json_str(j, "started", started);
}

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

static void json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	while (*s) {
		size_t run = 0;

		/*
		 * the bytes that need no escape go out in one call: a fputc a
		 * byte was a third of a 2,000-process capdump -a -J
		 */
		while ((unsigned char)s[run] >= 0x20 && s[run] != '"' && s[run] != '\\')
			run++;
		fwrite(s, 1, run, f);
		s += run;
		if (!*s)
			break;
		switch (*s) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\t': fputs("\\t", f); break;
		case '\r': fputs("\\r", f); break;
		default: fprintf(f, "\\u%04x", (unsigned char)*s);
		}
		s++;
	}
	fputc('"', f);
}

static void json_key(struct json *j, const char *key)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	if (j->depth)
		fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
	j->need_comma[j->depth] = true;
	if (key) {
		json_escape(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char bracket)
{
	json_key(j, key);
	fputc(bracket, j->f);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void json_close(struct json *j, char bracket)
{
	bool empty = !j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty) {
		fputc('\n', j->f);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->f);
	}
	fputc(bracket, j->f);
	if (j->depth == 0)
		fputc('\n', j->f);
}

void json_object_begin(struct json *j, const char *key)
{
	if (j->depth == 0 && !key && !j->need_comma[0]) {
		fputc('{', j->f);	/* the document itself */
		j->need_comma[0] = true;
		j->depth = 1;
		j->need_comma[1] = false;
		return;
	}
	json_open(j, key, '{');
}

void json_object_end(struct json *j)
{
	json_close(j, '}');
}

void json_array_begin(struct json *j, const char *key)
{
	json_open(j, key, '[');
}

void json_array_end(struct json *j)
{
	json_close(j, ']');
}

void json_str(struct json *j, const char *key, const char *val)
{
	json_key(j, key);
	if (val)
		json_escape(j->f, val);
	else
		fputs("null", j->f);
}

void json_u64(struct json *j, const char *key, uint64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%llu", (unsigned long long)val);
}

void json_i64(struct json *j, const char *key, int64_t val)
{
	json_key(j, key);
	fprintf(j->f, "%lld", (long long)val);
}

void json_double(struct json *j, const char *key, double val, int decimals)
{
	json_key(j, key);
	if (isfinite(val))
		fprintf(j->f, "%.*f", decimals, val);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, const char *key, bool val)
{
	json_key(j, key);
	fputs(val ? "true" : "false", j->f);
}

void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

void json_raw(struct json *j, const char *key, const char *text)
{
	json_key(j, key);
	fputs(text, j->f);
}

int json_close_file(FILE *f)
{
	int ret = 0;

	if (fflush(f) || ferror(f))
		ret = errno ? -errno : -EIO;
	if (f != stdout && fclose(f) && !ret)
		ret = -errno;
	return ret;
}

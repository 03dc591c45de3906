/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json - a small streaming JSON writer for the --json FILE records.
 *
 * Tables go through output.h; this is for the nested run records (options,
 * per-CPU rows, verdict) that CI jobs keep. KEY is NULL inside arrays.
 */
#ifndef RTLA_JSON_H
#define RTLA_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_str(struct json *j, const char *key, const char *val);	/* NULL: null */
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
void json_double(struct json *j, const char *key, double val, int decimals);
void json_bool(struct json *j, const char *key, bool val);
void json_null(struct json *j, const char *key);
/* A value already in JSON syntax (a number as text), written as is. */
void json_raw(struct json *j, const char *key, const char *text);

/*
 * The envelope every record starts with (rtla(1), JSON RECORDS). main()
 * names the command when it starts it, which is also the "started" time;
 * a command with verbs may name itself more precisely ("osnoise top").
 */
void json_set_command(const char *command);
/*
 * Begin a record: "{" and schema {name: "rtla-COMMAND", version}, tool,
 * version, command, host, kernel, started. SCHEMA_VERSION changes whenever
 * a field of the command's record changes meaning. The command goes on with
 * duration_s and verdict where it has them, then its own fields.
 */
void json_record_begin(struct json *j, int schema_version);

/*
 * Flush F and close it unless it is stdout: 0, or -errno of its first write
 * error. The --json-file destination itself is output.h's (out_record).
 */
int json_close_file(FILE *f);

#endif

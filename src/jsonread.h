/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * jsonread - read a JSON document into a tree: how rtla compare reads the
 * records the other commands wrote. Strict RFC 8259 syntax; numbers as
 * doubles (the records hold no integer beyond 2^53 that is compared).
 */
#ifndef RTLA_JSONREAD_H
#define RTLA_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

enum jv_type { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_type type;
	bool b;
	double num;
	char *str;		/* JV_STR */
	struct jv *items;	/* JV_ARR, JV_OBJ: len of them */
	char **keys;		/* JV_OBJ: the key of each item */
	size_t len;
};

#define JV_ERR_MAX 160

/* Parse TEXT; NULL with a reason ("line 3: expected ':'") in err. */
struct jv *jv_parse(const char *text, char *err);
/* Read and parse a whole file; NULL with a reason in err. */
struct jv *jv_parse_file(const char *path, char *err);
void jv_free(struct jv *v);
/* An object's member KEY, or NULL (also when V is not an object). */
const struct jv *jv_get(const struct jv *v, const char *key);
/* A member's string or number, or the fallback when absent or of another type. */
const char *jv_str(const struct jv *v, const char *key, const char *fallback);
bool jv_num(const struct jv *v, const char *key, double *out);
/* A member's number, or FALLBACK; a member that is an array, or NULL */
double jv_num_or(const struct jv *v, const char *key, double fallback);
const struct jv *jv_arr(const struct jv *v, const char *key);

#endif

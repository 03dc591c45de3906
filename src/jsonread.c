// SPDX-License-Identifier: GPL-2.0-only
/*
 * jsonread - a recursive-descent JSON reader into struct jv trees.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonread.h"

#define MAX_DEPTH 64

struct reader {
	const char *s, *start;
	char *err;
	int depth;
};

static bool fail(struct reader *r, const char *fmt, ...)
{
	int line = 1;
	va_list ap;
	size_t n;

	for (const char *p = r->start; p < r->s; p++)
		line += *p == '\n';
	n = snprintf(r->err, JV_ERR_MAX, "line %d: ", line);
	va_start(ap, fmt);
	vsnprintf(r->err + n, JV_ERR_MAX - n, fmt, ap);
	va_end(ap);
	return false;
}

static void skip_ws(struct reader *r)
{
	while (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r')
		r->s++;
}

static bool parse_value(struct reader *r, struct jv *v);

/* \uXXXX as UTF-8 (a surrogate pair is two escapes) */
static size_t put_utf8(char *out, uint32_t c)
{
	if (c < 0x80) {
		out[0] = c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = 0xc0 | c >> 6;
		out[1] = 0x80 | (c & 0x3f);
		return 2;
	}
	if (c < 0x10000) {
		out[0] = 0xe0 | c >> 12;
		out[1] = 0x80 | ((c >> 6) & 0x3f);
		out[2] = 0x80 | (c & 0x3f);
		return 3;
	}
	out[0] = 0xf0 | c >> 18;
	out[1] = 0x80 | ((c >> 12) & 0x3f);
	out[2] = 0x80 | ((c >> 6) & 0x3f);
	out[3] = 0x80 | (c & 0x3f);
	return 4;
}

static bool read_hex4(struct reader *r, uint32_t *c)
{
	*c = 0;
	for (int i = 0; i < 4; i++) {
		char h = *r->s++;

		if (!isxdigit((unsigned char)h))
			return fail(r, "bad \\u escape");
		*c = *c << 4 | (isdigit((unsigned char)h) ? h - '0' : (tolower(h) - 'a' + 10));
	}
	return true;
}

static bool parse_string(struct reader *r, char **out)
{
	const char *p = ++r->s;
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return fail(r, "out of memory");
	(void)p;
	for (;;) {
		unsigned char ch = *r->s;
		uint32_t c;

		if (n + 5 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return fail(r, "out of memory");
			}
			buf = nb;
		}
		if (!ch || ch < 0x20) {
			free(buf);
			return fail(r, ch ? "control character in a string" : "unterminated string");
		}
		r->s++;
		if (ch == '"')
			break;
		if (ch != '\\') {
			buf[n++] = ch;
			continue;
		}
		ch = *r->s++;
		switch (ch) {
		case '"': case '\\': case '/': buf[n++] = ch; break;
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (!read_hex4(r, &c)) {
				free(buf);
				return false;
			}
			if (c >= 0xd800 && c < 0xdc00 && r->s[0] == '\\' && r->s[1] == 'u') {
				uint32_t lo;

				r->s += 2;
				if (!read_hex4(r, &lo)) {
					free(buf);
					return false;
				}
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
			}
			n += put_utf8(buf + n, c);
			break;
		default:
			free(buf);
			return fail(r, "bad escape '\\%c'", ch);
		}
	}
	buf[n] = '\0';
	*out = buf;
	return true;
}

static bool parse_number(struct reader *r, struct jv *v)
{
	const char *p = r->s;
	char *end;

	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p) || (p[0] == '0' && isdigit((unsigned char)p[1])))
		return fail(r, "bad number");
	errno = 0;
	v->type = JV_NUM;
	v->num = strtod(r->s, &end);
	if (errno == ERANGE)
		return fail(r, "number out of range");
	r->s = end;
	return true;
}

/* members of an array ("]") or object ("}") */
static bool parse_members(struct reader *r, struct jv *v, bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';

	v->type = object ? JV_OBJ : JV_ARR;
	if (++r->depth > MAX_DEPTH)
		return fail(r, "nested too deep");
	r->s++;
	skip_ws(r);
	if (*r->s == close) {
		r->s++;
		r->depth--;
		return true;
	}
	for (;;) {
		char *key = NULL;

		if (v->len == cap) {
			struct jv *items = realloc(v->items, (cap = cap ? 2 * cap : 8) * sizeof(*items));
			char **keys = object ? realloc(v->keys, cap * sizeof(*keys)) : NULL;

			if (items)
				v->items = items;
			if (keys)
				v->keys = keys;
			if (!items || (object && !keys))
				return fail(r, "out of memory");
		}
		skip_ws(r);
		if (object) {
			if (*r->s != '"')
				return fail(r, "expected a key");
			if (!parse_string(r, &key))
				return false;
			v->keys[v->len] = key;
			skip_ws(r);
			if (*r->s != ':') {
				v->items[v->len++] = (struct jv){ 0 };
				return fail(r, "expected ':'");
			}
			r->s++;
		}
		memset(&v->items[v->len], 0, sizeof(v->items[0]));
		v->len++;
		if (!parse_value(r, &v->items[v->len - 1]))
			return false;
		skip_ws(r);
		if (*r->s == ',') {
			r->s++;
			continue;
		}
		if (*r->s != close)
			return fail(r, "expected ',' or '%c'", close);
		r->s++;
		r->depth--;
		return true;
	}
}

static bool parse_value(struct reader *r, struct jv *v)
{
	skip_ws(r);
	switch (*r->s) {
	case '{':
		return parse_members(r, v, true);
	case '[':
		return parse_members(r, v, false);
	case '"':
		v->type = JV_STR;
		return parse_string(r, &v->str);
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(r->s, "true", 4) || !strncmp(r->s, "null", 4)) {
			v->type = *r->s == 't' ? JV_BOOL : JV_NULL;
			v->b = *r->s == 't';
			r->s += 4;
			return true;
		}
		if (!strncmp(r->s, "false", 5)) {
			v->type = JV_BOOL;
			r->s += 5;
			return true;
		}
		return fail(r, "unexpected word");
	default:
		if (*r->s == '-' || isdigit((unsigned char)*r->s))
			return parse_number(r, v);
		return fail(r, *r->s ? "unexpected '%c'" : "unexpected end", *r->s);
	}
}

static void jv_clear(struct jv *v)
{
	for (size_t i = 0; i < v->len; i++) {
		jv_clear(&v->items[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	free(v->str);
}

void jv_free(struct jv *v)
{
	if (!v)
		return;
	jv_clear(v);
	free(v);
}

struct jv *jv_parse(const char *text, char *err)
{
	struct reader r = { .s = text, .start = text, .err = err };
	struct jv *v = calloc(1, sizeof(*v));

	if (!v) {
		snprintf(err, JV_ERR_MAX, "out of memory");
		return NULL;
	}
	if (parse_value(&r, v)) {
		skip_ws(&r);
		if (!*r.s)
			return v;
		fail(&r, "text after the document");
	}
	jv_free(v);
	return NULL;
}

struct jv *jv_parse_file(const char *path, char *err)
{
	FILE *f = fopen(path, "r");
	size_t cap = 1 << 16, n = 0, got;
	char *buf;
	struct jv *v;

	if (!f) {
		snprintf(err, JV_ERR_MAX, "%s", strerror(errno));
		return NULL;
	}
	buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	if (!buf || ferror(f)) {
		snprintf(err, JV_ERR_MAX, "%s", buf ? strerror(errno) : "out of memory");
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	if (strlen(buf) != n) {
		snprintf(err, JV_ERR_MAX, "not a JSON text (a NUL byte)");
		free(buf);
		return NULL;
	}
	v = jv_parse(buf, err);
	free(buf);
	return v;
}

const struct jv *jv_get(const struct jv *v, const char *key)
{
	if (!v || v->type != JV_OBJ)
		return NULL;
	for (size_t i = 0; i < v->len; i++)
		if (!strcmp(v->keys[i], key))
			return &v->items[i];
	return NULL;
}

const char *jv_str(const struct jv *v, const char *key, const char *fallback)
{
	const struct jv *m = jv_get(v, key);

	return m && m->type == JV_STR ? m->str : fallback;
}

bool jv_num(const struct jv *v, const char *key, double *out)
{
	const struct jv *m = jv_get(v, key);

	if (!m || m->type != JV_NUM)
		return false;
	*out = m->num;
	return true;
}

double jv_num_or(const struct jv *v, const char *key, double fallback)
{
	double d;

	return jv_num(v, key, &d) ? d : fallback;
}

const struct jv *jv_arr(const struct jv *v, const char *key)
{
	const struct jv *a = jv_get(v, key);

	return a && a->type == JV_ARR ? a : NULL;
}

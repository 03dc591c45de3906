// SPDX-License-Identifier: GPL-2.0-only
/*
 * filter - the words of a DAMOS filter, and the kernel's filter types.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damos/filter.h"
#include "sysroot.h"
#include "util.h"

/* mm/damon/sysfs-schemes.c's type names; "since" from the kernels that added them */
static const struct filter_type types[] = {
	{ "anon", FILTER_OPS, 6003, ARG_NONE },
	{ "memcg", FILTER_OPS, 6003, ARG_MEMCG },
	{ "addr", FILTER_CORE, 6006, ARG_RANGE },
	{ "target", FILTER_CORE, 6006, ARG_INDEX },
	{ "young", FILTER_OPS, 6010, ARG_NONE },
	{ "hugepage_size", FILTER_OPS, 6015, ARG_SIZES },
	{ "unmapped", FILTER_OPS, 6015, ARG_NONE },
	{ "active", FILTER_OPS, 6015, ARG_NONE },
};

#define NTYPES ARRAY_SIZE(types)

const struct filter_type *filter_type_find(const char *name)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}

const char *filter_type_names(void)
{
	static char names[128];
	size_t len = 0;

	for (size_t i = 0; i < NTYPES; i++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s", i ? " " : "", types[i].name);
	return names;
}

int damos_kernel_version(void)
{
	int major, minor;

	if (sysroot_scanf("/proc/sys/kernel/osrelease", "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

bool damos_type_known(const char *type, int version)
{
	const struct filter_type *t = filter_type_find(type);

	return t && (!version || version >= t->since);
}

bool damos_type_allowed_in(const char *type, const char *dir)
{
	const struct filter_type *t = filter_type_find(type);

	if (!t)
		return false;
	if (!strcmp(dir, "core_filters"))
		return t->layer == FILTER_CORE;
	if (!strcmp(dir, "ops_filters"))
		return t->layer == FILTER_OPS;
	return true;
}

bool filter_dir_name(const char *name)
{
	return !strcmp(name, "filters") || !strcmp(name, "core_filters") ||
	       !strcmp(name, "ops_filters");
}

const char *filter_dir_for(const struct dnode *scheme, const struct filter_type *type)
{
	if (dtree_get(scheme, "core_filters") && dtree_get(scheme, "ops_filters"))
		return type->layer == FILTER_CORE ? "core_filters" : "ops_filters";
	return "filters";
}

/* An address or size: decimal or 0x hex, with K, M or G (binary) for sizes. */
static int parse_u64(const char *s, bool suffix, uint64_t *val)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	if (suffix && *end) {
		switch (toupper((unsigned char)*end)) {
		case 'K': shift = 10; break;
		case 'M': shift = 20; break;
		case 'G': shift = 30; break;
		default: return -EINVAL;
		}
		end++;
		if (*end == 'i' || *end == 'B')
			end += *end == 'i' ? (end[1] == 'B' ? 2 : 1) : 1;
		if (shift && v > (UINT64_MAX >> shift))
			return -ERANGE;
	}
	if (*end)
		return -EINVAL;
	*val = (uint64_t)v << shift;
	return 0;
}

/* "A-B" or the two words "A" "B"; returns the number of words used or -EINVAL. */
static int parse_pair(int argc, char **argv, bool suffix, uint64_t *a, uint64_t *b)
{
	char first[64];
	const char *dash;

	if (argc >= 1 && (dash = strchr(argv[0], '-')) && dash != argv[0]) {
		if ((size_t)(dash - argv[0]) >= sizeof(first))
			return -EINVAL;
		memcpy(first, argv[0], dash - argv[0]);
		first[dash - argv[0]] = '\0';
		if (parse_u64(first, suffix, a) || parse_u64(dash + 1, suffix, b))
			return -EINVAL;
		return 1;
	}
	if (argc >= 2 && !parse_u64(argv[0], suffix, a) && !parse_u64(argv[1], suffix, b))
		return 2;
	return -EINVAL;
}

int filter_spec_parse(int argc, char **argv, struct filter_spec *s, char *err)
{
	int i = 0, used = 0;

	memset(s, 0, sizeof(*s));
	s->matching = true;
	if (i < argc && (!strcmp(argv[i], "allow") || !strcmp(argv[i], "reject"))) {
		s->allow = argv[i][0] == 'a';
		s->allow_given = true;
		i++;
	}
	if (i < argc && !strcmp(argv[i], "none")) {
		s->matching = false;
		i++;
	}
	if (i >= argc) {
		snprintf(err, PARSE_ERR_MAX, "no filter type (types: %s)", filter_type_names());
		return -EINVAL;
	}
	s->type = filter_type_find(argv[i]);
	if (!s->type) {
		snprintf(err, PARSE_ERR_MAX, "unknown filter type: %s (types: %s)", argv[i],
			 filter_type_names());
		return -EINVAL;
	}
	i++;
	switch (s->type->arg) {
	case ARG_NONE:
		used = 0;
		break;
	case ARG_MEMCG:
		if (i >= argc || argv[i][0] != '/' || strlen(argv[i]) >= sizeof(s->memcg_path) ||
		    strchr(argv[i], '\n')) {
			snprintf(err, PARSE_ERR_MAX,
				 "memcg needs a cgroup path from the cgroup2 root, e.g. /system.slice%s%s",
				 i < argc ? ": " : "", i < argc ? argv[i] : "");
			return -EINVAL;
		}
		strcpy(s->memcg_path, argv[i]);
		used = 1;
		break;
	case ARG_RANGE:
	case ARG_SIZES:
		used = parse_pair(argc - i, argv + i, s->type->arg == ARG_SIZES, &s->start, &s->end);
		if (used < 0) {
			snprintf(err, PARSE_ERR_MAX, "%s needs %s%s%s", s->type->name,
				 s->type->arg == ARG_RANGE ? "START-END (addresses)" : "MIN-MAX (sizes)",
				 i < argc ? ": " : "", i < argc ? argv[i] : "");
			return -EINVAL;
		}
		if (s->type->arg == ARG_RANGE && s->start >= s->end) {
			snprintf(err, PARSE_ERR_MAX, "addr range is empty or reversed: 0x%" PRIx64
				 "-0x%" PRIx64 " (START must be below END)", s->start, s->end);
			return -EINVAL;
		}
		if (s->type->arg == ARG_SIZES && s->start > s->end) {
			snprintf(err, PARSE_ERR_MAX, "hugepage_size MIN is above MAX: %" PRIu64 "-%" PRIu64,
				 s->start, s->end);
			return -EINVAL;
		}
		break;
	case ARG_INDEX:
		if (i >= argc || parse_u64(argv[i], false, &s->index) || s->index > INT32_MAX) {
			snprintf(err, PARSE_ERR_MAX, "target needs a target index%s%s",
				 i < argc ? ": " : "", i < argc ? argv[i] : "");
			return -EINVAL;
		}
		used = 1;
		break;
	}
	i += used;
	if (i < argc) {
		snprintf(err, PARSE_ERR_MAX, "unexpected word after the filter: %s", argv[i]);
		return -EINVAL;
	}
	return 0;
}

int filter_spec_parse_str(const char *words, struct filter_spec *s, char *err)
{
	char copy[FILTER_SPEC_MAX], *argv[16], *save = NULL;
	int argc = 0;

	if (strlen(words) >= sizeof(copy)) {
		snprintf(err, PARSE_ERR_MAX, "filter too long");
		return -EINVAL;
	}
	strcpy(copy, words);
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (argc == 16) {
			snprintf(err, PARSE_ERR_MAX, "too many words in filter: %s", words);
			return -EINVAL;
		}
		argv[argc++] = w;
	}
	return filter_spec_parse(argc, argv, s, err);
}

static bool yes(const char *v)
{
	return v && (!strcmp(v, "Y") || !strcmp(v, "y") || !strcmp(v, "1"));
}

char *filter_spec_of(const struct dnode *f, char *buf, size_t len)
{
	const char *type = dtree_val(f, "type"), *allow = dtree_val(f, "allow");
	const struct filter_type *t = type ? filter_type_find(type) : NULL;
	uint64_t a = 0, b = 0;
	size_t n;

	n = snprintf(buf, len, "%s %s%s", yes(allow) ? "allow" : "reject",
		     yes(dtree_val(f, "matching")) ? "" : "none ", type ? type : "?");
	if (!t || n >= len)
		return buf;
	switch (t->arg) {
	case ARG_NONE:
		break;
	case ARG_MEMCG:
		type = dtree_val(f, "memcg_path");
		snprintf(buf + n, len - n, " %s", type && *type ? type : "''");
		break;
	case ARG_RANGE:
		dtree_u64(f, "addr_start", &a);
		dtree_u64(f, "addr_end", &b);
		snprintf(buf + n, len - n, " 0x%" PRIx64 "-0x%" PRIx64, a, b);
		break;
	case ARG_INDEX:
		snprintf(buf + n, len - n, " %s", dtree_val(f, "damon_target_idx") ?: "?");
		break;
	case ARG_SIZES:
		dtree_u64(f, "min", &a);
		dtree_u64(f, "max", &b);
		snprintf(buf + n, len - n, " %" PRIu64 "-%" PRIu64, a, b);
		break;
	}
	return buf;
}

int filter_spec_store(const struct filter_spec *s, struct dnode *f, const struct dnode *model,
		      int version, char *err)
{
	static const char *const base[] = { "type", "matching", "memcg_path", "addr_start",
					    "addr_end", "damon_target_idx", NULL };
	char num[32];
	bool has_allow = model ? dtree_get(model, "allow") != NULL : version >= 6014;
	bool has_sizes = model ? dtree_get(model, "min") != NULL : version >= 6015;

	if (s->allow && !has_allow) {
		snprintf(err, PARSE_ERR_MAX,
			 "this kernel has no allow filters (Linux 6.14 added them): every filter rejects");
		return -EOPNOTSUPP;
	}
	/* every file a filter has, so that a stale value of a resized entry stays out */
	for (const char *const *name = base; *name; name++)
		if (!dnode_set(f, *name, "", true))
			return -ENOMEM;
	if (!dnode_set(f, "type", s->type->name, true) ||
	    !dnode_set(f, "matching", s->matching ? "Y" : "N", true) ||
	    !dnode_set(f, "memcg_path", s->memcg_path, true))
		return -ENOMEM;
	snprintf(num, sizeof(num), "%" PRIu64, s->type->arg == ARG_RANGE ? s->start : 0);
	if (!dnode_set(f, "addr_start", num, true))
		return -ENOMEM;
	snprintf(num, sizeof(num), "%" PRIu64, s->type->arg == ARG_RANGE ? s->end : 0);
	if (!dnode_set(f, "addr_end", num, true))
		return -ENOMEM;
	snprintf(num, sizeof(num), "%" PRIu64, s->type->arg == ARG_INDEX ? s->index : 0);
	if (!dnode_set(f, "damon_target_idx", num, true))
		return -ENOMEM;
	if (has_allow && !dnode_set(f, "allow", s->allow ? "Y" : "N", true))
		return -ENOMEM;
	if (has_sizes) {
		snprintf(num, sizeof(num), "%" PRIu64, s->type->arg == ARG_SIZES ? s->start : 0);
		if (!dnode_set(f, "min", num, true))
			return -ENOMEM;
		snprintf(num, sizeof(num), "%" PRIu64, s->type->arg == ARG_SIZES ? s->end : 0);
		if (!dnode_set(f, "max", num, true))
			return -ENOMEM;
	}
	return 0;
}

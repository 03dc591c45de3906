/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * filter - DAMOS filters: the words that describe one, the kernel's types.
 *
 * A filter is written as `[allow|reject] [none] TYPE [ARG]` (damo's words):
 * reject is the default, "none" inverts the match (the kernel's matching N),
 * and the argument depends on the type: memcg PATH, addr START-END,
 * target INDEX, hugepage_size MIN-MAX. `rtla damos` prints filters the same
 * way, so a line of its output can be given back to `filter add`.
 */
#ifndef RTLA_DAMOS_FILTER_H
#define RTLA_DAMOS_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "damos/damos.h"
#include "parse.h"

#define FILTER_SPEC_MAX	4400

enum filter_layer { FILTER_CORE, FILTER_OPS };

struct filter_type {
	const char *name;
	enum filter_layer layer;
	int since;		/* first kernel release: major * 1000 + minor */
	enum { ARG_NONE, ARG_MEMCG, ARG_RANGE, ARG_INDEX, ARG_SIZES } arg;
};

struct filter_spec {
	const struct filter_type *type;
	bool allow;
	bool allow_given;	/* "allow" or "reject" was written */
	bool matching;
	char memcg_path[4096];
	uint64_t start, end;	/* addr: [start, end); hugepage_size: min, max */
	uint64_t index;
};

const struct filter_type *filter_type_find(const char *name);
/* The type names, space-separated, for messages and completion. */
const char *filter_type_names(void);

/* Parse the words of one filter. 0, or -EINVAL with the reason in err. */
int filter_spec_parse(int argc, char **argv, struct filter_spec *s, char *err);
/* The same from one string of words ("reject none addr 0x1000-0x2000"). */
int filter_spec_parse_str(const char *words, struct filter_spec *s, char *err);

/* The words of the filter directory F, as filter_spec_parse reads them. */
char *filter_spec_of(const struct dnode *f, char *buf, size_t len);

/* Is NAME one of a scheme's filter directories? */
bool filter_dir_name(const char *name);
/* The directory a new filter of TYPE goes to in SCHEME ("filters" on kernels
 * without core_filters/ops_filters). */
const char *filter_dir_for(const struct dnode *scheme, const struct filter_type *type);

/*
 * Fill the filter directory F (its files as in MODEL, a filter directory of
 * this kernel, or the kernel's version's set when MODEL is NULL) from S.
 * -ENOMEM, or -EOPNOTSUPP with the reason in err when the kernel cannot hold
 * S (allow before 6.14).
 */
int filter_spec_store(const struct filter_spec *s, struct dnode *f, const struct dnode *model,
		      int version, char *err);

#endif

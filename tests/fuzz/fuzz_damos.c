// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_damos - the words of a DAMOS filter (damos/filter.h).
 *
 * Besides memory errors: a rejection leaves one reason in err; a filter
 * that parses is stored in a filter directory and printed back, and the
 * printed words must parse to the same filter (rtla damos shows filters in
 * the words filter add takes). Accepted ranges are never empty or reversed.
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz.h"
#include "damos/damos.h"
#include "damos/filter.h"

static bool same(const struct filter_spec *a, const struct filter_spec *b)
{
	if (a->type != b->type || a->allow != b->allow || a->matching != b->matching)
		return false;
	switch (a->type->arg) {
	case ARG_MEMCG: return !strcmp(a->memcg_path, b->memcg_path);
	case ARG_RANGE: case ARG_SIZES: return a->start == b->start && a->end == b->end;
	case ARG_INDEX: return a->index == b->index;
	case ARG_NONE: break;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), *err = fuzz_err_new(), *back;
	struct filter_spec *spec = malloc(sizeof(*spec)), *again = malloc(sizeof(*again));
	struct dnode holder = { .dir = true }, *f;

	if (!spec || !again)
		abort();
	if (filter_spec_parse_str(s, spec, err)) {
		fuzz_err_check(err);
		goto out;
	}
	FUZZ_CHECK(spec->type != NULL);
	if (spec->type->arg == ARG_RANGE)
		FUZZ_CHECK(spec->start < spec->end);
	if (spec->type->arg == ARG_SIZES)
		FUZZ_CHECK(spec->start <= spec->end);
	f = dnode_add_dir(&holder, "0");
	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(!filter_spec_store(spec, f, NULL, 6018, err));
	back = malloc(FILTER_SPEC_MAX);
	if (!back)
		abort();
	filter_spec_of(f, back, FILTER_SPEC_MAX);
	FUZZ_CHECK(!filter_spec_parse_str(back, again, err));
	FUZZ_CHECK(same(spec, again));
	free(back);
	dtree_free(f);
	free(holder.kids);
out:
	free(again);
	free(spec);
	free(err);
	free(s);
	return 0;
}

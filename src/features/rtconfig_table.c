// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtconfig_table - `rtla features -c CPUS`: the real-time configuration of
 * those CPUs (src/rtconfig.h) as a table and a record, a row per item.
 */
#include <stdio.h>

#include "commands.h"
#include "features/features.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "rtconfig.h"
#include "util.h"

enum { COL_ITEM, COL_REQUIRE, COL_VERDICT, COL_VALUE };

static const struct out_column rtconfig_cols[] = {
	[COL_ITEM]	= { "ITEM", "item", OUT_STR, 15, 0, "what was read (-c)" },
	[COL_REQUIRE]	= { "REQUIRE", "require", OUT_STR, 18, 0,
			    "the word of --require that asks for it (-c)" },
	[COL_VERDICT]	= { "VERDICT", "verdict", OUT_STR, 7, 0,
			    "ok, partial, bad or unknown for the CPUs of -c (-c)" },
	[COL_VALUE]	= { "VALUE", "value", OUT_STR, 0.5, OUT_WRAP, "what the kernel shows (-c)" },
};
const struct out_column *const features_rtconfig_cols = rtconfig_cols;
const size_t features_rtconfig_ncols = ARRAY_SIZE(rtconfig_cols);

int features_rtconfig(const cpu_set_t *cpus, int nr_cpus, const struct out_opts *out)
{
	struct rtconfig c;
	struct out_table *t;
	char err[PARSE_ERR_MAX];
	int ret;

	ret = out_table_new(&t, "rt_config", features_rtconfig_cols, features_rtconfig_ncols,
			    "ITEM,REQUIRE,VERDICT,VALUE", out, err);
	if (ret) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	rtconfig_read(&c, cpus, nr_cpus);
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		struct out_row *r = out_row_add(t);

		out_set_str(r, COL_ITEM, rtconfig_items[i].name);
		out_set_str(r, COL_REQUIRE, rtconfig_items[i].word);
		out_set_str(r, COL_VERDICT, rtconfig_verdict_name(c.items[i].verdict));
		out_set_str(r, COL_VALUE, c.items[i].value);
	}
	ret = out_table_print(t);
	out_table_free(t);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * verbs - the options of `rtla damos` and its write verbs (verbs.c).
 */
#ifndef RTLA_DAMOS_VERBS_H
#define RTLA_DAMOS_VERBS_H

#include <stdbool.h>

#include "cli.h"
#include "damos/damos.h"
#include "damos/filter.h"

enum {
	OPT_REFRESH = CLI_LONG,
	OPT_PADDR,
	OPT_SZ,
	OPT_NR_ACCESSES,
	OPT_AGE,
	OPT_QUOTA_MS,
	OPT_QUOTA_BYTES,
	OPT_QUOTA_RESET,
	OPT_SAMPLE_US,
	OPT_AGGR_US,
	OPT_DIR,
	OPT_NO_COMMIT,
	OPT_SCHEME,	/* -s, -p, -a are upstream rtla's --stop, --period, --auto */
	OPT_PID,
	OPT_ACTION,
};

#define DAMOS_MAX_FILTERS 16

struct damos_range {
	bool set;
	long long min, max;	/* max -1: the largest the kernel takes */
};

struct damos_opts {
	struct damos_show show;
	int kdamond;		/* -k, -1 if not given */
	char kdamond_word[16];	/* the option as typed ("-k", "--kdamond"), for messages */
	int scheme;
	bool refresh;
	/* start */
	long long pid;		/* -1: none */
	bool paddr;
	const char *action;
	struct damos_range sz, nr_accesses, age;
	long long quota_ms, quota_bytes, quota_reset_ms, sample_us, aggr_us;	/* -1: not given */
	struct filter_spec filters[DAMOS_MAX_FILTERS];
	int nfilters;
	/* filter */
	const char *dir;
	bool no_commit;
	char **args;
	int nargs;
};

int damos_read_all(struct dnode **out);
int damos_pick(const struct dnode *all, const struct damos_opts *o, bool want_running);
int running_state(const struct dnode *k);

int damos_start(struct damos_opts *o);
int damos_stop(struct damos_opts *o);
/* the filter verbs: O->args are the words after the verb */
int damos_filter_add(struct damos_opts *o);
int damos_filter_rm(struct damos_opts *o);
int damos_filter_set(struct damos_opts *o);
int damos_commit(struct damos_opts *o);

#endif

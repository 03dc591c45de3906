// SPDX-License-Identifier: GPL-2.0-only
/*
 * damos - the command: `rtla damos [show]`, start, stop, filter add|rm|set,
 * commit: the options, help and rows of the verbs, and which kdamond a write
 * may touch.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "damos/apply.h"
#include "damos/damos.h"
#include "damos/filter.h"
#include "damos/verbs.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"

static void kdamond_numbers(FILE *out, const struct cli_completion *c);

#define KDAMOND_OPT \
	CLI_VALUE('k', "kdamond", "N", "the kdamond (default: the one rtla started)", \
		  .complete = CLI_COMP_CALL, .candidates = kdamond_numbers)
#define SCHEME_OPT \
	CLI_VALUE(OPT_SCHEME, "scheme", "N", "the scheme of the kdamond's context (default 0)")

static void show_usage(FILE *f);
static void start_usage(FILE *f);
static void stop_usage(FILE *f);
static void filter_usage(FILE *f);
static void commit_usage(FILE *f);

static const struct cli_option show_options[] = {
	CLI_VALUE('k', "kdamond", "N", "only this kdamond", .complete = CLI_COMP_CALL,
		  .candidates = kdamond_numbers),
	CLI_FLAG(OPT_REFRESH, "refresh", "have the kernel update the stats first (writes the\n"
		 "kdamond's state file: only kdamonds rtla may write)"),
	OUT_RECORD_OPTIONS,
	CLI_OPT_END
};

static const struct cli_option start_options[] = {
	CLI_VALUE(OPT_PID, "pid", "PID", "monitor this process's virtual memory (vaddr)",
		  .complete = CLI_COMP_PIDS),
	CLI_FLAG(OPT_PADDR, "paddr", "monitor the physical memory instead"),
	CLI_VALUE(OPT_ACTION, "action", "ACTION", "the scheme's action (default stat)", .complete = CLI_COMP_WORDS,
		  .words = "stat pageout cold willneed hugepage nohugepage lru_prio lru_deprio "
			   "migrate_hot migrate_cold"),
	CLI_VALUE(OPT_SZ, "sz", "MIN-MAX", "region size in bytes (default 0-max)"),
	CLI_VALUE(OPT_NR_ACCESSES, "nr-accesses", "MIN-MAX", "accesses per aggregation (default 0-max)"),
	CLI_VALUE(OPT_AGE, "age", "MIN-MAX", "age in aggregation intervals (default 0-max)"),
	CLI_VALUE(OPT_QUOTA_MS, "quota-ms", "MS", "time quota per reset interval (default 0: none)"),
	CLI_VALUE(OPT_QUOTA_BYTES, "quota-bytes", "BYTES", "size quota per reset interval (default 0: none)"),
	CLI_VALUE(OPT_QUOTA_RESET, "quota-reset-ms", "MS", "the quotas' reset interval"),
	CLI_VALUE(OPT_SAMPLE_US, "sample-us", "US", "sampling interval (default: the kernel's, 5000)"),
	CLI_VALUE(OPT_AGGR_US, "aggr-us", "US", "aggregation interval (default: the kernel's, 100000)"),
	CLI_VALUE('f', "filter", "FILTER", "a DAMOS filter: '[allow|reject] [none] TYPE [ARG]'\n"
		  "(repeat for more, in order)"),
	CLI_VALUE('k', "kdamond", "N", "reuse this stopped kdamond instead of adding one"),
	CLI_OPT_END
};

static const struct cli_option stop_options[] = {
	KDAMOND_OPT,
	CLI_OPT_END
};

static const struct cli_option filter_options[] = {
	KDAMOND_OPT,
	SCHEME_OPT,
	CLI_VALUE(OPT_DIR, "dir", "DIR", "filters, core_filters or ops_filters (add; default:\n"
		  "core_filters/ops_filters by type where the kernel has them)",
		  .complete = CLI_COMP_WORDS, .words = "filters core_filters ops_filters"),
	CLI_FLAG(OPT_NO_COMMIT, "no-commit", "write the files only; `rtla damos commit` applies them"),
	CLI_OPT_END
};

static const struct cli_option commit_options[] = {
	KDAMOND_OPT,
	CLI_OPT_END
};

const struct cli_spec damos_show_cli = {
	.command = "damos show", .options = show_options, .usage = show_usage,
};
const struct cli_spec damos_start_cli = {
	.command = "damos start", .options = start_options, .usage = start_usage,
};
const struct cli_spec damos_stop_cli = {
	.command = "damos stop", .options = stop_options, .usage = stop_usage,
};
const struct cli_spec damos_commit_cli = {
	.command = "damos commit", .options = commit_options, .usage = commit_usage,
};

static void filter_add_usage(FILE *f);
static void filter_rm_usage(FILE *f);
static void filter_set_usage(FILE *f);

static void filter_words(FILE *out, const struct cli_completion *c);

static const struct cli_spec damos_filter_add_cli = {
	.command = "damos filter add", .options = filter_options, .usage = filter_add_usage,
	.positional = CLI_COMP_CALL, .candidates = filter_words,
};
static const struct cli_spec damos_filter_rm_cli = {
	.command = "damos filter rm", .options = filter_options, .usage = filter_rm_usage,
};
static const struct cli_spec damos_filter_set_cli = {
	.command = "damos filter set", .options = filter_options, .usage = filter_set_usage,
	.positional = CLI_COMP_CALL, .candidates = filter_words,
};

static int show_main(int argc, char **argv);
static int start_main(int argc, char **argv);
static int stop_main(int argc, char **argv);
static int commit_main(int argc, char **argv);
static int filter_add_main(int argc, char **argv);
static int filter_rm_main(int argc, char **argv);
static int filter_set_main(int argc, char **argv);

/* the verbs that write DAMON are CLI_VERB_LIVE: --sysroot is refused for them */
static const struct cli_verb filter_verbs[] = {
	CLI_VERB("add", filter_add_main, &damos_filter_add_cli, "add a filter after the others",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB("rm", filter_rm_main, &damos_filter_rm_cli, "remove a filter",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB("set", filter_set_main, &damos_filter_set_cli, "replace a filter in its place",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB_END
};

const struct cli_spec damos_filter_cli = {
	.command = "damos filter", .options = filter_options, .usage = filter_usage,
	.verbs = filter_verbs,
};

static const struct cli_verb damos_verbs[] = {
	CLI_VERB("show", show_main, &damos_show_cli, "the kdamonds as a tree or JSON (the default)",
		 .flags = CLI_VERB_DEFAULT),
	CLI_VERB("start", start_main, &damos_start_cli, "start a kdamond of rtla's",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB("stop", stop_main, &damos_stop_cli, "stop a kdamond rtla started",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB("filter", NULL, &damos_filter_cli, "add, remove or change a scheme's filters"),
	CLI_VERB("commit", commit_main, &damos_commit_cli, "validate and commit edited files",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB_END
};

static void damos_usage(FILE *f);

/* -k: the kdamonds of the machine (or of the --sysroot tree) */
static void kdamond_numbers(FILE *out, const struct cli_completion *c)
{
	DIR *d = sysroot_opendir(DAMON_KDAMONDS);
	struct dirent *de;

	while (d && (de = readdir(d)))
		if (de->d_name[0] >= '0' && de->d_name[0] <= '9')
			fprintf(out, "%s\n", de->d_name);
	if (d)
		closedir(d);
}

/* FILTER's words: '[allow|reject] [none] TYPE [ARG]' (set: after the filter's ID) */
static void filter_words(FILE *out, const struct cli_completion *c)
{
	if (c->nth == 0 && !strcmp(c->words[0], "set"))
		return;
	fputs("allow\nreject\nnone\n", out);
	for (const char *t = filter_type_names(); *t; t++)
		fputc(*t == ' ' ? '\n' : *t, out);
	fputc('\n', out);
}

const struct cli_spec damos_cli = {
	.command = "damos",
	.options = show_options,
	.usage = damos_usage,
	.verbs = damos_verbs,
};

static void damos_usage(FILE *f)
{
	fputs("Usage: rtla damos [show] [OPTIONS]\n"
	      "       rtla damos start (--pid PID | --paddr) [OPTIONS]\n"
	      "       rtla damos stop [--kdamond N]\n"
	      "       rtla damos filter add|rm|set [OPTIONS] ...\n"
	      "       rtla damos commit [--kdamond N]\n\n"
	      "DAMON's kdamonds, contexts, targets, schemes and DAMOS filters, read from\n"
	      "/sys/kernel/mm/damon (or a tree captured with --sysroot), as a tree or as\n"
	      "JSON; and a kdamond of rtla's own to try filters on, whose filters can be\n"
	      "added, removed and changed while it runs. Writes touch only kdamonds rtla\n"
	      "started, or one named with --kdamond, never one started with the machine;\n"
	      "each is validated first, checked after the commit, and rolled back on failure.\n\n"
	      "Options of show:\n", f);
	cli_print_options(&damos_show_cli, f);
	fputs("\nRun 'rtla damos VERB --help' for a verb's options; see rtla-damos(1).\n", f);
}

static void show_usage(FILE *f)
{
	fputs("Usage: rtla damos [show] [OPTIONS]\n\n"
	      "Every kdamond, context, target, scheme and filter, with the stats as the\n"
	      "kernel last updated them.\n\nOptions:\n", f);
	cli_print_options(&damos_show_cli, f);
}

static void start_usage(FILE *f)
{
	fputs("Usage: rtla damos start (--pid PID | --paddr) [OPTIONS]\n\n"
	      "Start a kdamond of rtla's: one context, one target, one scheme with the given\n"
	      "action, access pattern, quotas and filters. FILTER is\n"
	      "'[allow|reject] [none] TYPE [ARG]' with TYPE one of:\n"
	      "  anon, young, unmapped, active   (no argument)\n"
	      "  memcg PATH                      (a cgroup2 path, e.g. /system.slice)\n"
	      "  addr START-END                  (addresses, e.g. 0x7f0000000000-0x7f0000400000)\n"
	      "  target INDEX                    (a target of the context)\n"
	      "  hugepage_size MIN-MAX           (sizes, e.g. 2M-2M)\n\n"
	      "Options:\n", f);
	cli_print_options(&damos_start_cli, f);
}

static void stop_usage(FILE *f)
{
	fputs("Usage: rtla damos stop [--kdamond N]\n\n"
	      "Stop a kdamond rtla started (or the one named), and remove it when it is the\n"
	      "last one and no other runs.\n\nOptions:\n", f);
	cli_print_options(&damos_stop_cli, f);
}

static void filter_usage(FILE *f)
{
	fputs("Usage: rtla damos filter add [OPTIONS] FILTER...\n"
	      "       rtla damos filter rm [OPTIONS] ID\n"
	      "       rtla damos filter set [OPTIONS] ID FILTER...\n\n"
	      "Edit the filters of a scheme of a running kdamond and commit. FILTER is\n"
	      "'[allow|reject] [none] TYPE [ARG]' (see rtla damos start --help), as words;\n"
	      "ID is a filter as rtla damos shows it: DIR/N (filters/0, ops_filters/1), or N\n"
	      "on kernels that have only filters/.\n\nVerbs:\n", f);
	cli_print_verbs(&damos_filter_cli, f);
	fputs("\nOptions:\n", f);
	cli_print_options(&damos_filter_cli, f);
}

static void filter_verb_usage(FILE *f, const struct cli_spec *spec, const char *synopsis,
			      const char *text)
{
	fprintf(f, "Usage: rtla %s [OPTIONS] %s\n\n%s\n\nOptions:\n", spec->command, synopsis,
		text);
	cli_print_options(spec, f);
}

static void filter_add_usage(FILE *f)
{
	filter_verb_usage(f, &damos_filter_add_cli, "FILTER...",
			  "Add FILTER ('[allow|reject] [none] TYPE [ARG]' as words, see rtla damos\n"
			  "start --help) after the scheme's other filters, and commit.");
}

static void filter_rm_usage(FILE *f)
{
	filter_verb_usage(f, &damos_filter_rm_cli, "ID",
			  "Remove the filter ID (DIR/N as rtla damos shows it: filters/0,\n"
			  "ops_filters/1; or N on kernels that have only filters/), and commit.");
}

static void filter_set_usage(FILE *f)
{
	filter_verb_usage(f, &damos_filter_set_cli, "ID FILTER...",
			  "Replace the filter ID with FILTER, in its place, and commit.");
}

static void commit_usage(FILE *f)
{
	fputs("Usage: rtla damos commit [--kdamond N]\n\n"
	      "Validate the files of a running kdamond (after filter ... --no-commit, or\n"
	      "edits by hand) and commit them, with the check and the rollback of every\n"
	      "write.\n\nOptions:\n", f);
	cli_print_options(&damos_commit_cli, f);
}

/* ---- options ---- */

static int parse_index(const struct cli_parser *p, int *val)
{
	char err[PARSE_ERR_MAX];
	long long v;

	if (parse_llong(p->arg, 0, INT_MAX, &v, err)) {
		err_msg("%s: not an index: '%s'", p->word, p->arg);
		return CLI_ERROR;
	}
	*val = v;
	return 0;
}

static int parse_range(const struct cli_parser *p, struct damos_range *r)
{
	char err[PARSE_ERR_MAX], first[32];
	const char *dash = strchr(p->arg, '-');
	long long a, b;

	if (!dash || dash == p->arg || (size_t)(dash - p->arg) >= sizeof(first))
		goto bad;
	memcpy(first, p->arg, dash - p->arg);
	first[dash - p->arg] = '\0';
	if (parse_llong(first, 0, LLONG_MAX, &a, err))
		goto bad;
	if (!strcmp(dash + 1, "max"))
		b = -1;
	else if (parse_llong(dash + 1, 0, LLONG_MAX, &b, err) || b < a)
		goto bad;
	r->set = true;
	r->min = a;
	r->max = b;
	return 0;
bad:
	err_msg("%s: not MIN-MAX (MIN up to MAX, or MIN-max): '%s'", p->word, p->arg);
	return CLI_ERROR;
}

static int parse_verb_args(const struct cli_spec *spec, int argc, char **argv, struct damos_opts *o)
{
	struct cli_parser p;
	char err[PARSE_ERR_MAX];
	long long v;
	int id, ret = 0;

	memset(o, 0, sizeof(*o));
	o->kdamond = -1;
	o->pid = -1;
	o->quota_ms = o->quota_bytes = o->quota_reset_ms = o->sample_us = o->aggr_us = -1;
	cli_begin(&p, spec, argc, argv);
	while (!ret && (id = cli_next(&p)) > 0) {
		switch (id) {
		case 'k':
			ret = parse_index(&p, &o->kdamond);
			snprintf(o->kdamond_word, sizeof(o->kdamond_word), "%s", p.word);
			break;
		case OPT_SCHEME: ret = parse_index(&p, &o->scheme); break;
		case 'J': o->show.out.json = true; break;
		case OUT_ID_JSON_FILE: o->show.out.json_file = p.arg; break;
		case OPT_REFRESH: o->refresh = true; break;
		case OPT_PID:
			if (parse_llong(p.arg, 1, INT_MAX, &v, err)) {
				err_msg("%s: not a PID: '%s'", p.word, p.arg);
				return CLI_ERROR;
			}
			o->pid = v;
			break;
		case OPT_PADDR: o->paddr = true; break;
		case OPT_ACTION: o->action = p.arg; break;
		case OPT_SZ: ret = parse_range(&p, &o->sz); break;
		case OPT_NR_ACCESSES: ret = parse_range(&p, &o->nr_accesses); break;
		case OPT_AGE: ret = parse_range(&p, &o->age); break;
		case OPT_QUOTA_MS: case OPT_QUOTA_BYTES: case OPT_QUOTA_RESET:
		case OPT_SAMPLE_US: case OPT_AGGR_US:
			if (parse_llong(p.arg, 0, LLONG_MAX, &v, err)) {
				err_msg("%s: not a number: '%s'", p.word, p.arg);
				return CLI_ERROR;
			}
			*(id == OPT_QUOTA_MS ? &o->quota_ms : id == OPT_QUOTA_BYTES ? &o->quota_bytes :
			  id == OPT_QUOTA_RESET ? &o->quota_reset_ms :
			  id == OPT_SAMPLE_US ? &o->sample_us : &o->aggr_us) = v;
			break;
		case 'f':
			if (o->nfilters == DAMOS_MAX_FILTERS)
				return cli_error(&p, "too many --filter", p.arg);
			if (!p.arg[0])
				return cli_error(&p, "--filter: empty filter", p.arg);
			if (filter_spec_parse_str(p.arg, &o->filters[o->nfilters], err)) {
				err_msg("--filter: %s", err);
				return CLI_ERROR;
			}
			o->nfilters++;
			break;
		case OPT_DIR:
			if (!filter_dir_name(p.arg))
				return cli_error(&p, "--dir: not a filter directory (filters, core_filters, "
						 "ops_filters)", p.arg);
			o->dir = p.arg;
			break;
		case OPT_NO_COMMIT: o->no_commit = true; break;
		}
	}
	if (ret)
		return ret;
	if (id < 0)
		return id;
	o->args = argv + p.optind;
	o->nargs = argc - p.optind;
	return 0;
}

/* ---- the kdamonds ---- */

/* Read the whole kdamonds tree; a message and -errno when there is none. */
int damos_read_all(struct dnode **out)
{
	int ret;

	if (!sysroot_exists(DAMON_ADMIN)) {
		if (sysroot_is_live())
			err_msg("no DAMON sysfs interface: %s is missing (this kernel was built "
				"without CONFIG_DAMON_SYSFS)", DAMON_ADMIN);
		else
			err_msg("no DAMON sysfs interface in %s: %s is missing", sysroot_dir(), DAMON_ADMIN);
		return -ENOENT;
	}
	ret = dtree_read(DAMON_KDAMONDS, out);
	if (ret == -EACCES || ret == -EPERM)
		err_msg("reading %s needs root", DAMON_KDAMONDS);
	else if (ret)
		err_msg("reading %s: %s", DAMON_KDAMONDS, strerror(-ret));
	return ret;
}

/*
 * The kdamond a write goes to: -k N, or the only one of rtla's. The kdamond
 * started with the machine never; someone else's only when named.
 */
int damos_pick(const struct dnode *all, const struct damos_opts *o, bool want_running)
{
	size_t n = dnode_count(all);
	int found = -1, ours = 0;

	if (o->kdamond >= 0) {
		const struct dnode *k = dnode_index(all, o->kdamond);
		int64_t pid = -1;

		if (!k) {
			err_msg("%s %d: no such kdamond (nr_kdamonds %zu)", o->kdamond_word,
				o->kdamond, n);
			return -ENOENT;
		}
		dtree_s64(k, "pid", &pid);
		if (damos_owner(k, o->kdamond, NULL) == DAMOS_MACHINE) {
			err_msg("kdamond %d (pid %lld) was started with the machine: rtla damos never "
				"writes to it", o->kdamond, (long long)pid);
			return -EPERM;
		}
		if (want_running && running_state(k) != 1) {
			err_msg("kdamond %d is not running", o->kdamond);
			return -ESRCH;
		}
		return o->kdamond;
	}
	for (size_t i = 0; i < n; i++) {
		if (damos_owner(dnode_index(all, i), i, NULL) != DAMOS_OURS)
			continue;
		found = i;
		ours++;
	}
	if (ours == 1)
		return found;
	if (ours > 1) {
		err_msg("%d kdamonds are rtla's: name one with --kdamond N", ours);
		return -EINVAL;
	}
	if (!n)
		err_msg("no kdamond at all: start one with 'rtla damos start'");
	else
		err_msg("no kdamond of rtla's is running (%zu kdamond%s, none started by rtla): "
			"start one with 'rtla damos start', or name one with --kdamond N", n,
			n == 1 ? "" : "s");
	return -ENOENT;
}

int running_state(const struct dnode *k)
{
	const char *state = dtree_val(k, "state");

	return state && !strcmp(state, "on");
}

/* ---- verbs ---- */

static int refresh_stats(struct damos_opts *o, struct dnode *all)
{
	int ret;

	if (sysroot_require_live("--refresh (a write to the kdamond)"))
		return -EROFS;
	ret = damos_lock();
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < dnode_count(all); i++) {
		const struct dnode *k = dnode_index(all, i);
		enum damos_owner owner = damos_owner(k, i, NULL);

		if (o->kdamond >= 0 ? (size_t)o->kdamond != i : owner != DAMOS_OURS)
			continue;
		if (owner == DAMOS_MACHINE) {
			err_msg("--refresh: kdamond %zu was started with the machine: rtla damos never "
				"writes to it", i);
			return -EPERM;
		}
		if (!running_state(k))
			continue;
		ret = damos_state_write(i, "update_schemes_stats");
		if (!ret)
			ret = damos_state_write(i, "update_schemes_tried_bytes");
		if (ret) {
			err_msg("--refresh: kdamond %zu: %s", i, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int cmd_show(struct damos_opts *o)
{
	struct dnode *all = NULL;
	int ret = damos_read_all(&all);

	if (ret)
		return EXIT_ERROR;
	if (o->kdamond >= 0 && !dnode_index(all, o->kdamond)) {
		err_msg("%s %d: no such kdamond (nr_kdamonds %zu)", o->kdamond_word, o->kdamond,
			dnode_count(all));
		dtree_free(all);
		return EXIT_ERROR;
	}
	if (o->refresh) {
		ret = refresh_stats(o, all);
		dtree_free(all);
		all = NULL;
		if (ret || damos_read_all(&all))
			return EXIT_ERROR;
	}
	o->show.kdamond = o->kdamond;
	ret = damos_show(&o->show, all);
	dtree_free(all);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

/* A verb's options, then FN with them (the rows refuse --sysroot for those that write). */
static int run(const struct cli_spec *spec, int (*fn)(struct damos_opts *o), int argc,
	       char **argv)
{
	struct damos_opts o;
	int ret;

	ret = parse_verb_args(spec, argc, argv, &o);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (fn == cmd_show && o.nargs) {
		cli_usage_error(spec, "unexpected argument", o.args[0]);
		return EXIT_ERROR;
	}
	return fn(&o);
}

static int show_main(int argc, char **argv)
{
	return run(&damos_show_cli, cmd_show, argc, argv);
}

static int start_main(int argc, char **argv)
{
	return run(&damos_start_cli, damos_start, argc, argv);
}

static int stop_main(int argc, char **argv)
{
	return run(&damos_stop_cli, damos_stop, argc, argv);
}

static int commit_main(int argc, char **argv)
{
	return run(&damos_commit_cli, damos_commit, argc, argv);
}

static int filter_add_main(int argc, char **argv)
{
	return run(&damos_filter_add_cli, damos_filter_add, argc, argv);
}

static int filter_rm_main(int argc, char **argv)
{
	return run(&damos_filter_rm_cli, damos_filter_rm, argc, argv);
}

static int filter_set_main(int argc, char **argv)
{
	return run(&damos_filter_set_cli, damos_filter_set, argc, argv);
}

int cmd_damos(int argc, char **argv)
{
	return cli_run_verbs(&damos_cli, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * features - the command: options, the groups of rows, the table.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cli.h"
#include "commands.h"
#include "cpuspec.h"
#include "features/features.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "sysroot.h"
#include "util.h"

enum { OPT_GROUP = CLI_LONG };

static const struct {
	const char *name;
	const struct feat_def *rows;
} groups[] = {
	{ "tracing", feat_tracing },
	{ "realtime", feat_realtime },
	{ "mdwe", feat_mdwe },
	{ "caps", feat_caps },
	{ "damon", feat_damon },
	{ "parport", feat_parport },
	{ "fuse", feat_fuse },
	{ "memfd", feat_memfd },
	{ "bench", feat_bench },
};
#define NR_GROUPS ARRAY_SIZE(groups)

enum { COL_GROUP, COL_FEATURE, COL_STATE, COL_SINCE, COL_NEEDED_BY, COL_EVIDENCE };

static const struct out_column cols[] = {
	[COL_GROUP]	= { "GROUP", "group", OUT_STR, 8, 0, "the group of the row (see --group)" },
	[COL_FEATURE]	= { "FEATURE", "feature", OUT_STR, 22, 0, "the kernel interface" },
	[COL_STATE]	= { "STATE", "state", OUT_STR, 7, 0, "yes, no, partial or unknown" },
	[COL_SINCE]	= { "SINCE", "since", OUT_STR, 8, 0,
			    "the kernel version that introduced it" },
	[COL_NEEDED_BY]	= { "NEEDED_BY", "needed_by", OUT_STR, 10, 0,
			    "the rtla command that needs it (- for none)" },
	[COL_EVIDENCE]	= { "EVIDENCE", "evidence", OUT_STR, 0.4, OUT_WRAP,
			    "the file read or the call made, and what it gave" },
};
#define NCOLS ARRAY_SIZE(cols)

static void usage(FILE *f);

static void group_names(FILE *out, const struct cli_completion *c)
{
	for (size_t i = 0; i < NR_GROUPS; i++)
		fprintf(out, "%s\n", groups[i].name);
}

static void column_names(FILE *out, const struct cli_completion *c)
{
	out_column_names(out, cols, NCOLS);
	out_column_names(out, features_rtconfig_cols, features_rtconfig_ncols);
}

static const struct cli_option options[] = {
	CLI_VALUE('g', "group", "LIST", "only these groups of rows (comma-separated):\n"
		  "tracing,realtime,mdwe,caps,damon,parport,fuse,memfd,bench",
		  .flags = CLI_LIST, .complete = CLI_COMP_CALL, .candidates = group_names),
	CLI_VALUE('c', "cpus", "LIST", "instead of the rows: the real-time configuration of\n"
		  "these CPUs (a list, or online, isolated, nohz_full, housekeeping)",
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec features_cli = {
	.command = "features",
	.options = options,
	.usage = usage,
};

static void usage(FILE *f)
{
	fputs("Usage: rtla features [OPTIONS]\n\n"
	      "Which of the kernel interfaces the rtla commands depend on the kernel\n"
	      "offers: a row per feature with its state (yes, no, partial, unknown), the\n"
	      "evidence (the file read or the call made, and what it returned), the\n"
	      "kernel version that introduced it and the command that needs it.\n\n"
	      "With --sysroot DIR every row that a captured tree can answer is read\n"
	      "from it; rows that need a syscall (MDWE, FUSE INIT, perf, file\n"
	      "capabilities v3) say \"live only\".\n\n"
	      "With -c CPUS it shows the real-time configuration of those CPUs\n"
	      "instead: an item per row (PREEMPT_RT, isolcpus, nohz_full, rcu_nocbs,\n"
	      "device interrupts, the workqueue cpumask, bound kernel threads, RT\n"
	      "throttling, cpufreq, cpuidle, the clocksource, timer migration) with\n"
	      "what the kernel shows and a verdict, ok, partial, bad or unknown, and\n"
	      "the word that asks for it in the noise tools' requirements.\n\n"
	      "Options:\n", f);
	cli_print_options(&features_cli, f);
	out_usage(f, cols, NCOLS);
	out_usage(f, features_rtconfig_cols, features_rtconfig_ncols);
	fputs("\nSee rtla-features(1).\n", f);
}

void feat_set(struct feat_result *r, enum feat_state state, const char *fmt, ...)
{
	va_list ap;

	r->state = state;
	va_start(ap, fmt);
	vsnprintf(r->evidence, sizeof(r->evidence), fmt, ap);
	va_end(ap);
}

void feat_add(struct feat_result *r, const char *fmt, ...)
{
	size_t len = strlen(r->evidence);
	va_list ap;

	if (len && len + 2 < sizeof(r->evidence)) {
		strcpy(r->evidence + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(r->evidence + len, sizeof(r->evidence) - len, fmt, ap);
	va_end(ap);
}

bool feat_live_only(const struct feat_ctx *ctx, struct feat_result *r, const char *what)
{
	if (ctx->live)
		return false;
	feat_set(r, FEAT_UNKNOWN, "live only: %s", what);
	return true;
}

bool feat_has_word(const char *list, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += len)
		if ((p == list || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[') &&
		    (!p[len] || p[len] == ' ' || p[len] == '\n' || p[len] == ']'))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int feat_list_dir(const char *dir, const char *prefix, const char *sep, char *buf, size_t len)
{
	char *names[256];
	struct dirent *de;
	size_t off = 0;
	int n = 0;
	DIR *d = sysroot_opendir(dir);

	buf[0] = '\0';
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < 256) {
		if (de->d_name[0] == '.' || strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (int i = 0; i < n; i++) {
		if (off < len)
			off += snprintf(buf + off, len - off, "%s%s", i ? sep : "", names[i]);
		free(names[i]);
	}
	return n;
}

/* The whole config text of a (gzip'd or plain) file, or NULL. */
static char *read_config(const char *path)
{
	char host[4096], *buf = NULL, *p;
	size_t len = 0, cap = 0;
	gzFile gz = gzopen(sysroot_path(path, host, sizeof(host)), "rb");
	int n = 0;

	if (!gz)
		return NULL;
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 262144;
			if (cap > (64u << 20) || !(p = realloc(buf, cap + 1)))
				break;
			buf = p;
		}
		n = gzread(gz, buf + len, cap - len);
		if (n > 0)
			len += n;
	} while (n > 0);
	gzclose(gz);
	if (!buf || !len || n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

const char *feat_kconfig(struct feat_ctx *ctx, const char *name, char *buf, size_t len)
{
	char want[96], rel[128], path[300];
	const char *p;

	if (!ctx->kconfig_done) {
		ctx->kconfig_done = true;
		snprintf(path, sizeof(path), "/proc/config.gz");
		ctx->kconfig = read_config(path);
		if (!ctx->kconfig && sysroot_read("/proc/sys/kernel/osrelease", rel, sizeof(rel)) > 0) {
			snprintf(path, sizeof(path), "/boot/config-%s", rel);
			ctx->kconfig = read_config(path);
		}
	}
	if (!ctx->kconfig)
		return NULL;
	snprintf(want, sizeof(want), "\n%s=", name);
	p = strstr(ctx->kconfig, want);
	if (!p && !strncmp(ctx->kconfig, want + 1, strlen(want + 1)))
		p = ctx->kconfig - 1;	/* the first line */
	if (!p)
		return "n";
	p += strlen(want);
	snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	return buf;
}

/* "CONFIG_X=y" or "CONFIG_X is not set", where the config is known. */
static void add_kconfig(struct feat_ctx *ctx, struct feat_result *r, const char *name)
{
	char val[64];
	const char *v = feat_kconfig(ctx, name, val, sizeof(val));

	if (!v || strstr(r->evidence, name))
		return;
	if (!strcmp(v, "n"))
		feat_add(r, "%s is not set", name);
	else
		feat_add(r, "%s=%s", name, v);
}

static const char *state_name(enum feat_state s)
{
	static const char *const names[] = {
		[FEAT_UNKNOWN] = "unknown", [FEAT_NO] = "no",
		[FEAT_PARTIAL] = "partial", [FEAT_YES] = "yes",
	};
	return names[s];
}

/* The --group list as a mask of groups[]; -EINVAL names the bad word. */
static int parse_groups(const char *list, unsigned *mask, const struct cli_parser *p)
{
	const char *s = list;

	*mask = 0;
	while (*s) {
		size_t len = strcspn(s, ",");
		size_t g;

		for (g = 0; g < NR_GROUPS; g++)
			if (strlen(groups[g].name) == len && !strncmp(groups[g].name, s, len))
				break;
		if (g == NR_GROUPS || !len) {
			char word[64];

			snprintf(word, sizeof(word), "%.*s", (int)len, s);
			cli_error(p, "unknown group", word);
			return -EINVAL;
		}
		*mask |= 1u << g;
		s += len + (s[len] == ',');
	}
	if (!*mask) {
		cli_error(p, "empty group list", list);
		return -EINVAL;
	}
	return 0;
}

int cmd_features(int argc, char **argv)
{
	struct feat_ctx ctx = { .live = sysroot_is_live() };
	struct out_opts out = { 0 };
	struct out_table *t;
	struct cli_parser p;
	unsigned mask = ~0u;
	bool group_given = false;
	const char *cpus_arg = NULL;
	cpu_set_t cpus;
	char err[PARSE_ERR_MAX];
	int id, ret;

	cli_begin(&p, &features_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &out))
			continue;
		if (id == 'g' && parse_groups(p.arg, &mask, &p))
			return EXIT_ERROR;
		group_given |= id == 'g';
		if (id == 'c') {
			if (cpuspec_parse(p.arg, sysroot_nr_cpus(), &cpus, err)) {
				cli_error(&p, "Invalid -c cpu list", err);
				return EXIT_ERROR;
			}
			cpus_arg = p.arg;
		}
	}
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (p.optind < argc) {
		cli_usage_error(&features_cli, "unexpected argument", argv[p.optind]);
		return EXIT_ERROR;
	}
	if (cpus_arg && group_given) {
		cli_usage_error(&features_cli, "-c shows the configuration of CPUs, not groups of "
				"rows: drop -g", cpus_arg);
		return EXIT_ERROR;
	}
	if (cpus_arg)
		return features_rtconfig(&cpus, sysroot_nr_cpus(), &out);
	ret = out_table_new(&t, "features", cols, NCOLS, "GROUP,FEATURE,STATE,SINCE,NEEDED_BY,EVIDENCE",
			    &out, err);
	if (ret) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	for (size_t g = 0; g < NR_GROUPS; g++) {
		if (!(mask & (1u << g)))
			continue;
		for (const struct feat_def *d = groups[g].rows; d->name; d++) {
			struct feat_result res = { FEAT_UNKNOWN, "" };
			struct out_row *r;

			d->probe(&ctx, &res);
			if (d->kconfig)
				add_kconfig(&ctx, &res, d->kconfig);
			/* a file's value may span lines: one line a row */
			for (char *nl = res.evidence; (nl = strpbrk(nl, "\n\t")); )
				*nl = ' ';
			r = out_row_add(t);
			out_set_str(r, COL_GROUP, groups[g].name);
			out_set_str(r, COL_FEATURE, d->name);
			out_set_str(r, COL_STATE, state_name(res.state));
			out_set_str(r, COL_SINCE, d->since);
			out_set_str(r, COL_NEEDED_BY, d->needed_by);
			if (res.evidence[0])
				out_set_str(r, COL_EVIDENCE, res.evidence);
			else
				out_set_none(r, COL_EVIDENCE);
		}
	}
	ret = out_table_print(t);
	out_table_free(t);
	free(ctx.kconfig);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * capdump - the command: options, help, and the shared pieces of a run.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <sys/capability.h>

#include "capdump/capdump.h"
#include "commands.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"

enum {
	OPT_NAMES = 0x100,
	OPT_DIFF,
	OPT_FILES,
};

static void usage(FILE *f)
{
	fputs("Usage: rtla capdump [OPTIONS] [PID...]\n"
	      "       rtla capdump --files [-R] [OPTIONS] PATH...\n\n"
	      "The five capability sets of processes (inheritable, permitted, effective,\n"
	      "bounding, ambient) as u64 values, with no_new_privs and the seccomp mode;\n"
	      "with --files, the capabilities stored in files.\n\n"
	      "Without PIDs only the processes worth a look are shown: every process\n"
	      "except those with no capabilities and a UID other than 0, and root\n"
	      "processes that hold their whole bounding set and nothing inheritable or\n"
	      "ambient. Named PIDs are always shown.\n\n"
	      "Options:\n"
	      "  -a, --all             every process (with --files: every regular file)\n"
	      "      --names           capability names instead of hex values\n"
	      "      --diff            what each effective set holds beyond its parent's;\n"
	      "                        without -a only processes that gained something\n"
	      "      --files           PATHs are files and directories to audit\n"
	      "  -R, --recursive       with --files: descend into directories\n"
	      "  -h, --help            show this help\n", f);
	out_usage(f, capdump_proc_cols, capdump_proc_ncols);
	fputs("\nAvailable output columns with --files:\n", f);
	for (size_t i = 0; i < capdump_file_ncols; i++)
		fprintf(f, " %12s  %s\n", capdump_file_cols[i].name, capdump_file_cols[i].help);
	fputs("\nGlobal option --sysroot DIR reads /proc of a captured tree (not --files).\n"
	      "See rtla-capdump(1).\n", f);
}

int capdump_parse_args(int argc, char **argv, struct capdump_opts *o, char *err)
{
	static const struct option long_opts[] = {
		{ "all",	no_argument,	NULL, 'a' },
		{ "names",	no_argument,	NULL, OPT_NAMES },
		{ "diff",	no_argument,	NULL, OPT_DIFF },
		{ "files",	no_argument,	NULL, OPT_FILES },
		{ "recursive",	no_argument,	NULL, 'R' },
		{ "help",	no_argument,	NULL, 'h' },
		OUT_LONG_OPTS,
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	optind = 0;	/* GNU: start afresh, whoever parsed before */
	while ((c = getopt_long(argc, argv, ":aRh" OUT_SHORT_OPTS, long_opts, NULL)) != -1) {
		if (out_parse_opt(c, optarg, &o->out))
			continue;
		switch (c) {
		case 'a': o->all = true; break;
		case OPT_NAMES: o->names = true; break;
		case OPT_DIFF: o->diff = true; break;
		case OPT_FILES: o->files = true; break;
		case 'R': o->recursive = true; break;
		case 'h': o->help = true; return 0;
		case ':':
			snprintf(err, PARSE_ERR_MAX, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		default:
			if (optopt)
				snprintf(err, PARSE_ERR_MAX, "unknown option '-%c'", optopt);
			else
				snprintf(err, PARSE_ERR_MAX, "unknown option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
	}
	o->nargs = argc - optind;
	o->args = argv + optind;

	if (o->recursive && !o->files)
		return snprintf(err, PARSE_ERR_MAX, "-R applies to --files"), -EINVAL;
	if (o->diff && o->files)
		return snprintf(err, PARSE_ERR_MAX, "--diff applies to processes, not --files"),
		       -EINVAL;
	if (o->files && !o->nargs)
		return snprintf(err, PARSE_ERR_MAX, "--files needs at least one PATH"), -EINVAL;
	if (o->files)
		return 0;
	for (int i = 0; i < o->nargs; i++) {
		long long pid;

		if (parse_llong(o->args[i], 1, INT_MAX, &pid, err)) {
			snprintf(err, PARSE_ERR_MAX, "'%s' is not a PID", o->args[i]);
			return -EINVAL;
		}
	}
	return 0;
}

void capdump_set_names_cell(struct capdump_ctx *ctx, struct out_row *r, int col, uint64_t set)
{
	char buf[CAPDUMP_NAMES_MAX];

	/* "-" in a table, where a blank cell would shift raw output; null in JSON */
	if (!set) {
		if (!ctx->opt->out.json)
			out_set_str(r, col, "-");
		return;
	}
	out_set_str(r, col, capdump_set_names(&ctx->names, set, buf, sizeof(buf)));
}

/* The highest capability the kernel under the root knows. */
static int last_cap(void)
{
	long long v;

	if (!sysroot_read_ll("/proc/sys/kernel/cap_last_cap", &v) && v >= 0 && v <= 63)
		return v;
	if (sysroot_is_live())
		return cap_max_bits() - 1;
	warn_msg("no /proc/sys/kernel/cap_last_cap under %s: assuming %d", sysroot_dir(),
		 CAP_LAST_CAP);
	return CAP_LAST_CAP;
}

int cmd_capdump(int argc, char **argv)
{
	struct capdump_opts o;
	struct capdump_ctx ctx = { .opt = &o };
	char err[PARSE_ERR_MAX];
	int ret, lc;

	msg_set_prefix("capdump: ");
	if (capdump_parse_args(argc, argv, &o, err)) {
		err_msg("%s; see 'rtla capdump --help'", err);
		return EXIT_ERROR;
	}
	if (o.help) {
		usage(stdout);
		return EXIT_PASSED;
	}
	ctx.live = sysroot_is_live();
	lc = last_cap();
	ctx.known = capdump_known_mask(lc);
	if (capdump_names_init(&ctx.names, lc)) {
		err_msg("out of memory");
		return EXIT_ERROR;
	}
	ret = o.files ? capdump_files(&ctx) : capdump_procs(&ctx);
	capdump_names_free(&ctx.names);
	return ret;
}

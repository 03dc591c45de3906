// SPDX-License-Identifier: GPL-2.0-only
/*
 * capdump - the command: options, help, and the shared pieces of a run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <sys/capability.h>

#include "capdump/capdump.h"
#include "cli.h"
#include "commands.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"

enum {
	OPT_ALL = CLI_LONG,
	OPT_NAMES,
	OPT_DIFF,
	OPT_FILES,
	OPT_METHOD,
};

static void usage(FILE *f);

/* -o: the columns of the table asked for */
static void column_names(FILE *out, const struct cli_completion *c)
{
	if (cli_words_have(c, "files"))
		out_column_names(out, capdump_file_cols, capdump_file_ncols);
	else
		out_column_names(out, capdump_proc_cols, capdump_proc_ncols);
}

/* PIDs, or with --files the shell's file names */
static void positional(FILE *out, const struct cli_completion *c)
{
	cli_complete_kind(out, cli_words_have(c, "files") ? CLI_COMP_FILE : CLI_COMP_PIDS);
}

static const struct cli_option options[] = {
	CLI_FLAG(OPT_ALL, "all", "every process (with --files: every regular file)"),
	/* -a is upstream rtla's --auto in the noise commands; kept for old scripts */
	CLI_FLAG('a', NULL, "same as --all", .flags = CLI_HIDDEN),
	CLI_FLAG(OPT_NAMES, "names", "capability names instead of hex values"),
	CLI_FLAG(OPT_DIFF, "diff", "what each effective set holds beyond its parent's;\n"
		 "without -a only processes that gained something"),
	CLI_FLAG(OPT_FILES, "files", "PATHs are files and directories to audit"),
	CLI_FLAG('R', "recursive", "with --files: descend into directories"),
	CLI_VALUE(OPT_METHOD, "method", "bpf|proc",
		  "how to read the processes: one BPF task iterator pass\n"
		  "(root; the default for a scan of every process where\n"
		  "it loads) or each /proc/PID/status",
		  .complete = CLI_COMP_WORDS, .words = "bpf proc"),
	CLI_FLAG('D', "debug", "print debug messages (the BPF reader's costs)"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec capdump_cli = {
	.command = "capdump",
	.options = options,
	.usage = usage,
	.positional = CLI_COMP_CALL,
	.candidates = positional,
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
	      "Options:\n", f);
	cli_print_options(&capdump_cli, f);
	out_usage(f, capdump_proc_cols, capdump_proc_ncols);
	fputs("\nAvailable output columns with --files:\n", f);
	for (size_t i = 0; i < capdump_file_ncols; i++)
		fprintf(f, " %12s  %s\n", capdump_file_cols[i].name, capdump_file_cols[i].help);
	fputs("\nGlobal option --sysroot DIR reads a captured tree (rtla capture), --files too.\n"
	      "See rtla-capdump(1).\n", f);
}

/* 0, CLI_EXIT (help or version printed) or CLI_ERROR (a usage error printed). */
int capdump_parse_args(int argc, char **argv, struct capdump_opts *o)
{
	struct cli_parser p;
	int id;

	memset(o, 0, sizeof(*o));
	cli_begin(&p, &capdump_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &o->out))
			continue;
		switch (id) {
		case OPT_ALL: case 'a': o->all = true; break;
		case OPT_NAMES: o->names = true; break;
		case OPT_DIFF: o->diff = true; break;
		case OPT_FILES: o->files = true; break;
		case 'R': o->recursive = true; break;
		case 'D': msg_set_debug(true); break;
		case OPT_METHOD:
			if (!strcmp(p.arg, "bpf"))
				o->method = CAPDUMP_BPF;
			else if (!strcmp(p.arg, "proc"))
				o->method = CAPDUMP_PROC;
			else
				return cli_error(&p, "--method: not bpf or proc", p.arg);
			break;
		}
	}
	if (id < 0)
		return id;
	o->nargs = argc - p.optind;
	o->args = argv + p.optind;

	if (o->recursive && !o->files)
		return cli_usage_error(&capdump_cli, "-R applies to --files", NULL);
	if (o->diff && o->files)
		return cli_usage_error(&capdump_cli, "--diff applies to processes, not --files", NULL);
	if (o->files && !o->nargs)
		return cli_usage_error(&capdump_cli, "--files needs at least one PATH", NULL);
	if (o->method && o->files)
		return cli_usage_error(&capdump_cli, "--method applies to processes, not --files",
				       NULL);
	if (o->method == CAPDUMP_BPF && sysroot_require_live("--method bpf"))
		return CLI_ERROR;
	if (o->files)
		return 0;
	for (int i = 0; i < o->nargs; i++) {
		long long pid;
		char err[PARSE_ERR_MAX];

		if (parse_llong(o->args[i], 1, INT_MAX, &pid, err))
			return cli_usage_error(&capdump_cli, "not a PID", o->args[i]);
	}
	return 0;
}

void capdump_set_names_cell(struct capdump_ctx *ctx, struct out_row *r, int col, uint64_t set)
{
	char buf[CAPDUMP_NAMES_MAX];

	if (!set) {
		out_set_none(r, col);
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
	int ret, lc;

	ret = capdump_parse_args(argc, argv, &o);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
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

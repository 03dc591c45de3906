// SPDX-License-Identifier: GPL-2.0-only
/*
 * main - the command table and the dispatch every command goes through.
 *
 * Adding a command: write cmd_foo() and its option description (a struct
 * cli_spec, see cli.h) in src/foo/, declare both in commands.h, add its row
 * here (name, function, one-line summary, spec, flags), and its tests and
 * Documentation/rtla-foo.rst. --help, the completion and the cli tier's
 * convention tests come from the rows, so a new command is covered at once.
 * A command with verbs ("foo show|add") lists them the same way, as rows of
 * struct cli_verb in its spec (cli.h), and its cmd_foo() hands its argv to
 * cli_run_verbs().
 */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "sysroot.h"

const struct rtla_command rtla_commands[] = {
	{ "osnoise", cmd_osnoise, "per-CPU operating system noise (osnoise top, osnoise hist)",
	  &osnoise_cli, CMD_LIVE_ONLY },
	{ "hwnoise", cmd_hwnoise, "per-CPU hardware-related noise, interrupts disabled (top, hist)",
	  &hwnoise_cli, CMD_LIVE_ONLY },
	{ "timerlat", cmd_timerlat, "per-CPU timer wake-up latency (timerlat top, timerlat hist)",
	  &timerlat_cli, CMD_LIVE_ONLY },
	{ "hwlat", cmd_hwlat, "per-CPU hardware latency from the kernel hwlat tracer (top, hist)",
	  &hwlat_cli, CMD_LIVE_ONLY },
	{ "dhry", cmd_dhry, "Dhrystone 2.1 on every chosen CPU: DMIPS, DMIPS/MHz, slow cores",
	  &dhry_cli, CMD_LIVE_ONLY },
	{ "capdump", cmd_capdump, "capability sets of processes and files, as u64 values",
	  &capdump_cli, 0 },
	{ "mdwe", cmd_mdwe, "memory-deny-write-execute: who runs under it, who maps W+X",
	  &mdwe_cli, 0 },
	{ "parport", cmd_parport, "parallel ports, pata_parport protocols, devices, disks; add, delete",
	  &parport_cli, 0 },
	{ "damos", cmd_damos, "DAMON kdamonds, schemes and DAMOS filters: show, start, edit safely",
	  &damos_cli, 0 },
	{ "features", cmd_features, "which kernel interfaces the rtla commands need are there",
	  &features_cli, 0 },
	{ "capture", cmd_capture, "copy what the read-only commands read, for --sysroot elsewhere",
	  &capture_cli, CMD_LIVE_ONLY },
	{ "compare", cmd_compare, "judge a noise run's JSON record against a baseline's, per CPU",
	  &compare_cli, 0 },
	{ "report", cmd_report, "draw records as one HTML page that opens offline: plots and tables",
	  &report_cli, 0 },
	{ "help", cmd_help, "show the help of a command", &help_cli, 0 },
	{ 0 },
};

const struct rtla_command *rtla_command_find(const char *name)
{
	for (const struct rtla_command *c = rtla_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "rtla: real-time analysis and board bring-up diagnostics (version %s)\n\n"
		   "Usage: rtla [--sysroot DIR] COMMAND [OPTIONS]\n"
		   "       rtla help COMMAND [VERB...]\n"
		   "       rtla --version\n\n"
		   "Commands:\n", RTLA_VERSION);
	for (const struct rtla_command *c = rtla_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nGlobal options:\n"
	      "  --sysroot DIR   read /proc, /sys and tracefs under DIR (a tree captured\n"
	      "                  from another machine); live-only commands refuse it\n"
	      "  -h, --help      show this help\n"
	      "  -V, --version   show the version\n\n"
	      "Run 'rtla COMMAND --help' or 'rtla help COMMAND VERB' for the options of a\n"
	      "command or of one of its verbs; see rtla(1).\n", f);
}

/* "osnoise hwnoise ...": the commands, SEP between, for messages and completion. */
static const char *command_names(const char *sep)
{
	static char names[256];
	size_t len = 0;

	for (const struct rtla_command *c = rtla_commands; c->name && len < sizeof(names); c++)
		len += snprintf(names + len, sizeof(names) - len, "%s%s", len ? sep : "", c->name);
	return names;
}

/* Every message of a command starts "rtla COMMAND: " (rtla(1), CONVENTIONS). */
static void set_command_prefix(const struct rtla_command *c)
{
	static char prefix[64];

	snprintf(prefix, sizeof(prefix), "rtla %s: ", c->name);
	msg_set_prefix(prefix);
}

/* Levenshtein distance, for "did you mean" on a mistyped command. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], prev, tmp;

	if (lb >= 64)
		lb = 63;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t best = prev + (a[i - 1] != b[j - 1]);

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			prev = tmp;
		}
	}
	return row[lb];
}

/* Is A B with two neighbouring letters swapped ("hlep", "dhyr")? */
static bool swapped_letters(const char *a, const char *b)
{
	size_t len = strlen(a), i = 0;

	if (len != strlen(b) || len < 2)
		return false;
	while (i < len && a[i] == b[i])
		i++;
	return i + 1 < len && a[i] == b[i + 1] && a[i + 1] == b[i] &&
	       !strcmp(a + i + 2, b + i + 2);
}

/*
 * A command NAME is plausibly a typo of: one or two edits away (one for
 * short names), two letters swapped, or a prefix of at least two letters.
 * An unrelated word ("version", "frobnicate") gets no suggestion.
 */
static const char *likely_command(const char *name)
{
	size_t len = strlen(name), limit = len <= 4 ? 1 : 2;

	for (const struct rtla_command *c = rtla_commands; c->name; c++)
		if (len >= 2 && !strncmp(c->name, name, len))
			return c->name;
	for (const struct rtla_command *c = rtla_commands; c->name; c++)
		if (len && (edit_distance(name, c->name) <= limit || swapped_letters(name, c->name)))
			return c->name;
	return NULL;
}

static void unknown_command(const char *name)
{
	const char *guess = likely_command(name);

	if (guess)
		err_msg("rtla: unknown command: '%s' (did you mean '%s'?)", name, guess);
	else
		err_msg("rtla: unknown command: '%s' (commands: %s)", name, command_names(", "));
}

const struct cli_spec help_cli = {
	.command = "help",
	.options = (const struct cli_option[]){ CLI_OPT_END },
	.usage = usage,
	.positional = CLI_COMP_COMMANDS,
};

int cmd_help(int argc, char **argv)
{
	const struct rtla_command *c;
	const struct cli_spec *spec;
	struct cli_parser p;
	char help[] = "--help";
	char *args[3];
	int id;

	cli_begin(&p, &help_cli, argc, argv);
	while ((id = cli_next(&p)) > 0)
		;
	if (id < 0)
		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	if (p.optind >= argc || !strcmp(argv[p.optind], "help")) {
		usage(stdout);
		return EXIT_PASSED;
	}
	c = rtla_command_find(argv[p.optind]);
	if (!c) {
		msg_set_prefix(NULL);
		unknown_command(argv[p.optind]);
		return EXIT_ERROR;
	}
	/* rtla help damos filter add: the verbs' rows, as the command would read them */
	spec = c->spec;
	for (int i = p.optind + 1; i < argc; i++) {
		const struct cli_verb *v;

		if (!spec->verbs) {
			cli_usage_error(&help_cli, "unexpected argument", argv[i]);
			return EXIT_ERROR;
		}
		v = cli_verb_find(spec, argv[i]);
		if (!v) {
			cli_set_prefix(spec);
			cli_unknown_verb(spec, argv[i]);
			return EXIT_ERROR;
		}
		spec = v->spec;
	}
	if (spec != c->spec) {
		spec->usage(stdout);
		return EXIT_PASSED;
	}
	set_command_prefix(c);
	args[0] = argv[p.optind];
	args[1] = help;
	args[2] = NULL;
	return c->fn(2, args);
}

/*
 * Take --sysroot out of argv wherever it stands before "--", so that both
 * "rtla --sysroot DIR capdump" and "rtla capdump --sysroot DIR" work and no
 * command parser has to know about it. Returns the new argc, or -1.
 */
static int take_sysroot(int argc, char **argv)
{
	int out = 1;

	for (int i = 1; i < argc; i++) {
		const char *dir = NULL;
		int ret;

		if (!strcmp(argv[i], "--")) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--sysroot")) {
			if (i + 1 >= argc) {
				err_msg("rtla: option needs an argument: --sysroot");
				return -1;
			}
			dir = argv[++i];
		} else if (!strncmp(argv[i], "--sysroot=", 10)) {
			dir = argv[i] + 10;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		if (!*dir) {
			err_msg("rtla: --sysroot: empty directory name (use / for this machine)");
			return -1;
		}
		ret = sysroot_set(dir);
		if (ret) {
			err_msg("rtla: --sysroot: %s: %s", dir, strerror(-ret));
			return -1;
		}
	}
	argv[out] = NULL;
	return out;
}

/*
 * Whatever a command printed must have reached stdout: a full disk is an
 * error, reported here once, in the shape of the command's other errors
 * ("rtla capdump: write error: ..."; "rtla: write error: ..." when no command
 * ran, as for "rtla --help"). A reader that closed the pipe early is normal
 * use ("rtla capdump -a | head -1"): end quietly, with the command's status.
 */
static int finish(const struct rtla_command *c, int ret)
{
	int err = out_flush_stdout();

	if (err && err != -EPIPE) {
		if (!c)
			msg_set_prefix("rtla: ");
		/* else the prefix the command set, its verb's where it has one */
		err_msg("write error: %s", strerror(-err));
		return EXIT_ERROR;
	}
	return ret;
}

static int run_command(const struct rtla_command *c, int argc, char **argv)
{
	set_command_prefix(c);
	json_set_command(c->name);
	if ((c->flags & CMD_LIVE_ONLY) && sysroot_require_live("this command"))
		return EXIT_ERROR;
	return finish(c, c->fn(argc, argv));
}

/*
 * rtla __complete CWORD WORD...: what the shell may put at word CWORD of the
 * command line WORD... (WORD 0 is "rtla", or "hwnoise" when called so).
 */
static int complete(int argc, char **argv)
{
	const struct rtla_command *c;
	long long cword;
	char **words = argv + 2;
	int nwords = argc - 2, first;
	const char *cur;

	if (argc < 3 || parse_llong(argv[1], 0, nwords, &cword, (char[PARSE_ERR_MAX]){ 0 }))
		return EXIT_ERROR;
	c = rtla_command_find(basename(words[0]));
	if (c && c->fn != cmd_help)
		return cli_complete(c->spec, cword, nwords, words, command_names(" "), stdout);
	/* global options may stand before the command */
	for (first = 1; first < nwords; first++) {
		if (!strcmp(words[first], "--sysroot") && first + 1 < nwords) {
			if (cword == first + 1) {
				puts("@dir");
				return EXIT_PASSED;
			}
			/* the CPUs, kdamonds and columns of the tree named */
			sysroot_set(words[++first]);
		} else if (words[first][0] != '-' || first == cword) {
			break;
		}
	}
	cur = cword < nwords ? words[cword] : "";
	if (cword <= first) {
		if (cur[0] == '-')
			fputs("--sysroot\n--help\n--version\n-h\n-V\n", stdout);
		else
			for (c = rtla_commands; c->name; c++)
				puts(c->name);
		return EXIT_PASSED;
	}
	c = rtla_command_find(words[first]);
	if (!c)
		return EXIT_PASSED;
	return cli_complete(c->spec, cword - first, nwords - first, words + first,
			    command_names(" "), stdout);
}

/* rtla __spec COMMAND [VERB...]: cli_describe() of that command or verb, for the tests */
static int describe(int argc, char **argv)
{
	const struct rtla_command *c = rtla_command_find(argv[0]);
	const struct cli_spec *spec = c ? c->spec : NULL;

	for (int i = 1; spec && i < argc; i++) {
		const struct cli_verb *v = spec->verbs ? cli_verb_find(spec, argv[i]) : NULL;

		spec = v ? v->spec : NULL;
	}
	if (!spec) {
		err_msg("rtla __spec: no such command or verb: '%s'", argv[argc - 1]);
		return EXIT_ERROR;
	}
	cli_describe(spec, stdout);
	return EXIT_PASSED;
}

int main(int argc, char **argv)
{
	const struct rtla_command *c;
	const char *self = basename(argv[0]);

	/* a closed pipe shows as EPIPE on the next write, which ends rtla quietly */
	signal(SIGPIPE, SIG_IGN);

	if (argc >= 2 && !strcmp(argv[1], "__complete"))
		return finish(NULL, complete(argc - 1, argv + 1));
	if (argc >= 3 && !strcmp(argv[1], "__spec"))
		return finish(NULL, describe(argc - 2, argv + 2));
	argc = take_sysroot(argc, argv);
	if (argc < 0)
		return EXIT_ERROR;

	/* installed as "osnoise", "hwnoise" or "timerlat": behave as that command */
	c = rtla_command_find(self);
	if (c && c->fn != cmd_help)
		return run_command(c, argc, argv);

	if (argc < 2) {
		err_msg("rtla: no command given (commands: %s); see 'rtla --help'",
			command_names(", "));
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return finish(NULL, EXIT_PASSED);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		cli_print_version(stdout);
		return finish(NULL, EXIT_PASSED);
	}
	if (argv[1][0] == '-' && argv[1][1]) {
		err_msg("rtla: unknown option: %s (give it after the command)", argv[1]);
		return EXIT_ERROR;
	}
	c = rtla_command_find(argv[1]);
	if (!c) {
		unknown_command(argv[1]);
		return EXIT_ERROR;
	}
	return run_command(c, argc - 1, argv + 1);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * main - the command table and the dispatch every command goes through.
 *
 * Adding a command: write cmd_foo() in src/foo/, declare it in commands.h,
 * add its row here (name, function, one-line summary, flags), and its tests
 * and Documentation/rtla-foo.rst. --help and the README table come from the
 * rows, so the summaries never drift.
 */
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "msg.h"
#include "output.h"
#include "sysroot.h"

const struct rtla_command rtla_commands[] = {
	{ "osnoise", cmd_osnoise, "per-CPU operating system noise (osnoise top)", CMD_LIVE_ONLY },
	{ "hwnoise", cmd_hwnoise, "per-CPU hardware-related noise, with interrupts disabled", CMD_LIVE_ONLY },
	{ "dhry", cmd_dhry, "Dhrystone 2.1 on every chosen CPU: DMIPS, DMIPS/MHz, slow cores",
	  CMD_LIVE_ONLY },
	{ "capdump", cmd_capdump, "capability sets of processes and files, as u64 values", 0 },
	{ "help", cmd_help, "show the help of a command", 0 },
	{ NULL },
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
		   "       rtla help COMMAND\n"
		   "       rtla --version\n\n"
		   "Commands:\n", RTLA_VERSION);
	for (const struct rtla_command *c = rtla_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fputs("\nGlobal options:\n"
	      "  --sysroot DIR   read /proc, /sys and tracefs under DIR (a tree captured\n"
	      "                  from another machine); live-only commands refuse it\n"
	      "  -h, --help      show this help\n"
	      "  -V, --version   show the version\n\n"
	      "Run 'rtla COMMAND --help' for the options of a command.\n", f);
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

static const char *closest_command(const char *name)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (const struct rtla_command *c = rtla_commands; c->name; c++) {
		size_t d = edit_distance(name, c->name);

		/* a prefix ("os" for "osnoise") is the likeliest intent */
		if (!strncmp(c->name, name, strlen(name)))
			d = 0;
		if (d < best_d) {
			best_d = d;
			best = c->name;
		}
	}
	return best;
}

int cmd_help(int argc, char **argv)
{
	const struct rtla_command *c;
	char help[] = "--help";
	char *args[3];

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_PASSED;
	}
	c = rtla_command_find(argv[1]);
	if (!c || c->fn == cmd_help) {
		if (!c)
			err_msg("rtla: unknown command '%s' (the closest is '%s')", argv[1],
				closest_command(argv[1]));
		else
			usage(stdout);
		return c ? EXIT_PASSED : EXIT_ERROR;
	}
	args[0] = argv[1];
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
				err_msg("rtla: --sysroot needs a directory");
				return -1;
			}
			dir = argv[++i];
		} else if (!strncmp(argv[i], "--sysroot=", 10)) {
			dir = argv[i] + 10;
		} else {
			argv[out++] = argv[i];
			continue;
		}
		ret = sysroot_set(dir);
		if (ret) {
			err_msg("rtla: --sysroot %s: %s", dir, strerror(-ret));
			return -1;
		}
	}
	argv[out] = NULL;
	return out;
}

/* Whatever a command printed must have reached stdout: a full disk is an error. */
static int finish(int ret)
{
	int err = out_flush_stdout();

	if (err) {
		msg_set_prefix(NULL);	/* the command's own prefix would double "rtla:" */
		err_msg("rtla: write error: %s", strerror(-err));
		return EXIT_ERROR;
	}
	return ret;
}

static int run_command(const struct rtla_command *c, int argc, char **argv)
{
	if ((c->flags & CMD_LIVE_ONLY) && sysroot_require_live(c->name))
		return EXIT_ERROR;
	return finish(c->fn(argc, argv));
}

int main(int argc, char **argv)
{
	const struct rtla_command *c;
	const char *self = basename(argv[0]);

	/* a closed pipe must be an error we report, not a silent death */
	signal(SIGPIPE, SIG_IGN);

	argc = take_sysroot(argc, argv);
	if (argc < 0)
		return EXIT_ERROR;

	/* installed as "osnoise" or "hwnoise": behave as that command */
	c = rtla_command_find(self);
	if (c && c->fn != cmd_help)
		return run_command(c, argc, argv);

	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return finish(EXIT_PASSED);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("rtla %s\n", RTLA_VERSION);
		return finish(EXIT_PASSED);
	}
	c = rtla_command_find(argv[1]);
	if (!c) {
		err_msg("rtla: unknown command '%s' (the closest is '%s'); see 'rtla --help'",
			argv[1], closest_command(argv[1]));
		return EXIT_ERROR;
	}
	return run_command(c, argc - 1, argv + 1);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * commands - the command table's row type and every cmd_*() entry point.
 *
 * A command is a function taking its own argv (argv[0] is the command name)
 * and returning the exit status: 0 passed, 1 error, 2 stop condition hit.
 */
#ifndef RTLA_COMMANDS_H
#define RTLA_COMMANDS_H

enum rtla_exit {
	EXIT_PASSED = 0,
	EXIT_ERROR = 1,
	EXIT_STOPPED = 2,
};

#define CMD_LIVE_ONLY	(1 << 0)	/* acts on the running kernel: refuses --sysroot */

struct cli_spec;

struct rtla_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const struct cli_spec *spec;	/* its options: parsing, help, completion */
	unsigned flags;
};

/* The table itself, NULL-name terminated (main.c). */
extern const struct rtla_command rtla_commands[];
const struct rtla_command *rtla_command_find(const char *name);

/* Each command's option description (cli.h), for completion. */
extern const struct cli_spec help_cli, capdump_cli, dhry_cli, osnoise_cli, hwnoise_cli;
extern const struct cli_spec timerlat_cli;
extern const struct cli_spec hwlat_cli;
extern const struct cli_spec parport_cli;
extern const struct cli_spec features_cli, capture_cli;
extern const struct cli_spec damos_cli;
extern const struct cli_spec mdwe_cli;
extern const struct cli_spec compare_cli;
extern const struct cli_spec report_cli;

int cmd_help(int argc, char **argv);
int cmd_capdump(int argc, char **argv);
int cmd_dhry(int argc, char **argv);
int cmd_osnoise(int argc, char **argv);
int cmd_hwnoise(int argc, char **argv);
int cmd_timerlat(int argc, char **argv);
int cmd_hwlat(int argc, char **argv);
int cmd_parport(int argc, char **argv);
int cmd_features(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_damos(int argc, char **argv);
int cmd_mdwe(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif

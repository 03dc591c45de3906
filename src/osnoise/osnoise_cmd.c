// SPDX-License-Identifier: GPL-2.0-only
/*
 * osnoise_cmd - `rtla osnoise [top|hist]`: the command's usage, its two
 * verbs and the choice of the tool; driver.c runs it.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "msg.h"
#include "osnoise.h"

static void osnoise_usage(FILE *f)
{
	/* upstream's lines, word for word */
	fprintf(f, "\nosnoise version %s\n\n"
		   "  usage: [rtla] osnoise [MODE] ...\n\n"
		   "  modes:\n"
		   "     top   - prints the summary from osnoise tracer\n"
		   "     hist  - prints a histogram of osnoise samples\n\n"
		   "if no MODE is given, the top mode is called, passing the arguments\n",
		RTLA_VERSION);
}

static const struct cli_spec *const osnoise_verbs[] = {
	&osnoise_top_cli, &osnoise_hist_cli, NULL
};

const struct cli_spec osnoise_cli = {
	.command = "osnoise",
	.options = noise_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = osnoise_usage,
	.verbs = osnoise_verbs,
};

int cmd_osnoise(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		osnoise_usage(stdout);
		return EXIT_PASSED;
	}
	if (argc < 2 || argv[1][0] == '-')
		return noise_cmd_run(argc, argv, &osnoise_top_tool);
	if (!strcmp(argv[1], "top"))
		return noise_cmd_run(argc - 1, argv + 1, &osnoise_top_tool);
	if (!strcmp(argv[1], "hist"))
		return noise_cmd_run(argc - 1, argv + 1, &osnoise_hist_tool);
	err_msg("unknown mode: '%s' (modes: top, hist)", argv[1]);
	return EXIT_ERROR;
}

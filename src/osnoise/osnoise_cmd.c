// SPDX-License-Identifier: GPL-2.0-only
/*
 * osnoise_cmd - `rtla osnoise [top|hist]`: the command's usage and its two
 * verbs' rows; cli_run_verbs() picks the row, driver.c runs it.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
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

static int osnoise_top_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &osnoise_top_tool);
}

static int osnoise_hist_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &osnoise_hist_tool);
}

/* upstream: no mode, or an option first, is top */
static const struct cli_verb osnoise_verbs[] = {
	CLI_VERB("top", osnoise_top_main, &osnoise_top_cli, "prints the summary from osnoise tracer",
		 .flags = CLI_VERB_DEFAULT | CLI_VERB_NAMED),
	CLI_VERB("hist", osnoise_hist_main, &osnoise_hist_cli,
		 "prints a histogram of osnoise samples"),
	CLI_VERB_END
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
	return cli_run_verbs(&osnoise_cli, argc, argv);
}

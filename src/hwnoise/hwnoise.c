// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwnoise - `rtla hwnoise [hist]`: osnoise top, or hist, with interrupts
 * disabled. All of hwnoise's own definition is here: its two option specs
 * with their usage, and its two tool rows.
 *
 * Everything else lives in src/osnoise/ (osnoise.h): the same option lists,
 * backends, driver and printers, with a 750 ms runtime per 1 s period by
 * default and only the HW and NMI columns. Upstream has no hwnoise hist;
 * ours is osnoise hist with hwnoise's defaults.
 */
#include <stdio.h>

#include "cli.h"
#include "commands.h"
#include "osnoise/osnoise.h"

#define HW_RUNTIME_US	750000LL	/* 75 % of the period, so that the CPU makes progress */

/*
 * upstream prints the empty mode of hwnoise too: two spaces before "[-h]";
 * its usage knows no hist, ours says so after upstream's lines
 */
static void hwnoise_usage(FILE *f)
{
	noise_usage(f, &hwnoise_cli, "hwnoise ", "a summary of hardware-related noise",
		    noise_top_synopsis);
	fputs("\n  rtla hwnoise hist [-h] ...: the same noise as a per-cpu histogram "
	      "(not in upstream rtla)\n", f);
}

static void hwnoise_hist_usage(FILE *f);

static const struct cli_spec hwnoise_hist_cli = {
	.command = "hwnoise hist",
	.options = noise_hist_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hwnoise_hist_usage,
};

static void hwnoise_hist_usage(FILE *f)
{
	noise_usage(f, &hwnoise_hist_cli, "hwnoise hist",
		    "a per-cpu histogram of the hardware-related noise",
		    noise_hist_synopsis_ours);
}

static int hwnoise_top_main(int argc, char **argv);
static int hwnoise_hist_main(int argc, char **argv);

/* `rtla hwnoise` alone, or with an option first, is top: upstream has no word for it */
static const struct cli_verb hwnoise_verbs[] = {
	CLI_VERB(NULL, hwnoise_top_main, &hwnoise_cli, "a summary of hardware-related noise",
		 .flags = CLI_VERB_DEFAULT),
	CLI_VERB("hist", hwnoise_hist_main, &hwnoise_hist_cli,
		 "a per-cpu histogram of the hardware-related noise"),
	CLI_VERB_END
};

const struct cli_spec hwnoise_cli = {
	.command = "hwnoise",
	.options = noise_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hwnoise_usage,
	.verbs = hwnoise_verbs,
};

const struct noise_tool hwnoise_tool = {
	.name = "hwnoise",
	.title = "Hardware-related Noise",
	.cli = &hwnoise_cli,
	.gate_tool = GATE_HWNOISE_TOP,
	.irq_disabled = true,
	.runtime_us = HW_RUNTIME_US,
	.period_us = NOISE_PERIOD_US,
	NOISE_TOP_SINK_AND_PRINTERS,
};

/* not upstream's: hist with hwnoise's defaults */
const struct noise_tool hwnoise_hist_tool = {
	.name = "hwnoise hist",
	.title = "RTLA hwnoise histogram",
	.cli = &hwnoise_hist_cli,
	.gate_tool = GATE_HWNOISE_HIST,
	.irq_disabled = true,
	.runtime_us = HW_RUNTIME_US,
	.period_us = NOISE_PERIOD_US,
	NOISE_HIST_SINK_AND_PRINTERS,
};

static int hwnoise_top_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &hwnoise_tool);
}

static int hwnoise_hist_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &hwnoise_hist_tool);
}

int cmd_hwnoise(int argc, char **argv)
{
	return cli_run_verbs(&hwnoise_cli, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * tools - the rows of the noise tools.
 *
 * Adding a tool (timerlat next) is a row here: its name and options, its
 * defaults, a sink and its printers. The backends do not change.
 */
#include "commands.h"
#include "osnoise/hist.h"
#include "osnoise/osnoise.h"
#include "osnoise/table.h"

#define PERIOD_US	1000000LL	/* upstream's default period, written explicitly */
#define HW_RUNTIME_US	750000LL	/* hwnoise: 75 % of it, so that the CPU makes progress */

/* What top and hist do with what they are given, whichever IRQ mode they run in. */
#define TOP_SINK_AND_PRINTERS \
	.sink_new = noise_top_sink_new, \
	.add_period = noise_top_add_period, \
	.sink_free = noise_top_sink_free, \
	.print_live = noise_table_print, \
	.print_final = noise_top_print_final, \
	.json_part = noise_top_json

#define HIST_SINK_AND_PRINTERS \
	.sink_new = noise_hist_sink_new, \
	.add_period = noise_hist_add_period, \
	.add_sample = noise_hist_add_sample, \
	.add_samples = noise_hist_add_samples, \
	.sink_free = noise_hist_sink_free, \
	.print_final = noise_hist_print, \
	.json_part = noise_hist_json

const struct noise_tool osnoise_top_tool = {
	.name = "osnoise top",
	.title = "Operating System Noise",
	.cli = &osnoise_top_cli,
	.os_columns = true,
	.period_us = PERIOD_US,
	TOP_SINK_AND_PRINTERS,
};

const struct noise_tool hwnoise_tool = {
	.name = "hwnoise",
	.title = "Hardware-related Noise",
	.cli = &hwnoise_cli,
	.irq_disabled = true,
	.runtime_us = HW_RUNTIME_US,
	.period_us = PERIOD_US,
	TOP_SINK_AND_PRINTERS,
};

const struct noise_tool osnoise_hist_tool = {
	.name = "osnoise hist",
	.title = "RTLA osnoise histogram",
	.cli = &osnoise_hist_cli,
	.os_columns = true,
	.period_us = PERIOD_US,
	HIST_SINK_AND_PRINTERS,
};

/* not upstream's: hist with hwnoise's defaults */
const struct noise_tool hwnoise_hist_tool = {
	.name = "hwnoise hist",
	.title = "RTLA hwnoise histogram",
	.cli = &hwnoise_hist_cli,
	.irq_disabled = true,
	.runtime_us = HW_RUNTIME_US,
	.period_us = PERIOD_US,
	HIST_SINK_AND_PRINTERS,
};

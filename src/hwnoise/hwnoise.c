// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwnoise - `rtla hwnoise [hist]`: osnoise top, or hist, with interrupts
 * disabled.
 *
 * Everything but the tool rows' defaults lives in src/osnoise/: the same
 * options, backends and printers, with a 750 ms runtime per 1 s period by
 * default and only the HW and NMI columns. Upstream has no hwnoise hist;
 * ours is osnoise hist with hwnoise's defaults.
 */
#include <string.h>

#include "commands.h"
#include "osnoise/osnoise.h"

int cmd_hwnoise(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "hist"))
		return noise_cmd_run(argc - 1, argv + 1, &hwnoise_hist_tool);
	return noise_cmd_run(argc, argv, &hwnoise_tool);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwnoise - `rtla hwnoise`: osnoise top with interrupts disabled.
 *
 * Everything but the mode lives in src/osnoise/: the same options, backends
 * and table, with a 750 ms runtime per 1 s period by default and only the
 * HW and NMI columns.
 */
#include "commands.h"
#include "osnoise/osnoise.h"

int cmd_hwnoise(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, MODE_HWNOISE);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tui - the live view of the noise table on a terminal (ncurses).
 */
#ifndef RTLA_OSNOISE_TUI_H
#define RTLA_OSNOISE_TUI_H

#include <stdbool.h>

#include "osnoise.h"

struct tui;

struct tui *tui_start(void);		/* NULL if the terminal cannot do it */
void tui_show(struct tui *tui, const struct noise_run *run);
/* Wait up to ms for a key; false when the user asked to quit ('q'). */
bool tui_wait(struct tui *tui, int ms);
void tui_stop(struct tui *tui);		/* NULL is fine */

#endif

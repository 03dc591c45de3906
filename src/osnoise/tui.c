// SPDX-License-Identifier: GPL-2.0-only
/*
 * tui - redraws the same table the pipe output shows, once a second; 'q'
 * ends the run exactly like SIGINT.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "top.h"
#include "tui.h"

struct tui {
	SCREEN *screen;
};

struct tui *tui_start(void)
{
	struct tui *tui = calloc(1, sizeof(*tui));

	if (!tui)
		return NULL;
	tui->screen = newterm(NULL, stdout, stdin);
	if (!tui->screen) {
		free(tui);
		return NULL;
	}
	cbreak();
	noecho();
	curs_set(0);
	return tui;
}

void tui_show(struct tui *tui, const struct noise_run *run)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int y = 0;

	if (!f)
		return;
	noise_table_print(f, run, time(NULL));
	fclose(f);
	erase();
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (y < 2)
			attron(A_REVERSE);
		mvaddnstr(y, 0, line, COLS);
		if (y < 2)
			attroff(A_REVERSE);
		y++;
	}
	mvaddstr(y + 1, 0, "press q to quit");
	refresh();
	free(text);
}

bool tui_wait(struct tui *tui, int ms)
{
	int c;

	timeout(ms);
	c = getch();
	return c != 'q' && c != 'Q';
}

void tui_stop(struct tui *tui)
{
	if (!tui)
		return;
	endwin();
	delscreen(tui->screen);
	free(tui);
}

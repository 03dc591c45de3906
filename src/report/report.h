/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report - rtla report: the records of the other commands as one HTML page
 * (report.c: the command and the page; sections.c: what each record shows).
 */
#ifndef RTLA_REPORT_H
#define RTLA_REPORT_H

#include <stdio.h>

#include "jsonread.h"

/* One record's section of the page: header, findings, plots, tables. */
void report_section(FILE *f, const struct jv *rec, const char *path);

/* The page's style sheet (inline: nothing is fetched) */
extern const char report_css[];

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table - upstream rtla's osnoise/hwnoise table, byte for byte, and top's
 * sink.
 */
#ifndef RTLA_OSNOISE_TABLE_H
#define RTLA_OSNOISE_TABLE_H

#include <stdio.h>

#include "osnoise.h"

struct json;

/* top's sink (osnoise top, hwnoise): run->cpu */
int noise_top_sink_new(struct noise_run *run);
void noise_top_add_period(struct noise_run *run, const struct noise_period *p);
void noise_top_sink_free(struct noise_run *run);
/* Fold one period into a CPU's totals. */
void noise_cpu_fold(struct noise_cpu *c, const struct noise_period *p);

/* The header, one row per measured CPU with runtime, the missed-events line. */
void noise_table_print(FILE *f, const struct noise_run *run, time_t now);
/* The backend's note, if any, then the table. */
void noise_top_print_final(FILE *f, const struct noise_run *run, time_t now);
/* top's part of the record: "cpus", one object per measured CPU */
void noise_top_json(struct json *j, const struct noise_run *run);

/* Shared by the printers: upstream's missed-events line; "  0 01:02:03". */
void noise_print_missed(FILE *f, const struct noise_run *run);
void noise_format_duration(time_t secs, char *buf, size_t len);
/* "% CPU Aval" in hundred-thousandths of a percent, without overflow. */
unsigned long long noise_cpu_avail(const struct noise_cpu *c);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * table - upstream rtla's osnoise/hwnoise table, byte for byte, and the
 * --json run record.
 */
#ifndef RTLA_OSNOISE_TABLE_H
#define RTLA_OSNOISE_TABLE_H

#include <stdio.h>

#include "osnoise.h"

/* The header, one row per measured CPU with runtime, the missed-events line. */
void noise_table_print(FILE *f, const struct noise_run *run, time_t now);
/* "% CPU Aval" in hundred-thousandths of a percent, without overflow. */
unsigned long long noise_cpu_avail(const struct noise_cpu *c);
/* Version of the run record; it changes when a field changes meaning. */
#define NOISE_SCHEMA_VERSION	1
/* The record a CI gate keeps: the envelope, options, per-CPU results, verdict. */
void noise_json_write(const struct noise_run *run, FILE *f, double elapsed_s);

#endif

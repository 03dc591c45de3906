/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * top - the helpers of the top table (top.c) that others use too: the
 * period folding, hist's missed-events and duration lines, the gate's
 * "% CPU Aval". The row's sink and printers are declared in osnoise.h.
 */
#ifndef RTLA_OSNOISE_TOP_H
#define RTLA_OSNOISE_TOP_H

#include <stdio.h>

#include "osnoise.h"

/* Fold one period into a CPU's totals: top's sink, and the driver's totals for a gate on hist. */
void noise_cpu_fold(struct noise_cpu *c, const struct noise_period *p);

/* Shared by the printers: upstream's missed-events line; "  0 01:02:03". */
void noise_print_missed(FILE *f, const struct noise_run *run);
void noise_format_duration(time_t secs, char *buf, size_t len);
/* "% CPU Aval" in hundred-thousandths of a percent, without overflow. */
unsigned long long noise_cpu_avail(const struct noise_cpu *c);

#endif

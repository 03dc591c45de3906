/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record - the JSON run record of every noise tool (record.c).
 */
#ifndef RTLA_OSNOISE_RECORD_H
#define RTLA_OSNOISE_RECORD_H

#include <stdio.h>

#include "osnoise.h"

/* Version of the run record; it changes when a field changes meaning. */
#define NOISE_SCHEMA_VERSION	1
/*
 * The record a CI gate keeps: the envelope, options, the tool's part (its
 * per-CPU results), events, verdict.
 */
void noise_json_write(const struct noise_run *run, FILE *f, double elapsed_s);

#endif

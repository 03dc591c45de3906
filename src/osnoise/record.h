/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record - the JSON run record of every noise tool (record.c).
 */
#ifndef RTLA_OSNOISE_RECORD_H
#define RTLA_OSNOISE_RECORD_H

#include <stdio.h>

#include "osnoise.h"

/* Version of the run record; it changes when a field changes meaning (2: the series). */
#define NOISE_SCHEMA_VERSION	2
/*
 * The record a CI gate keeps: after the envelope (output.h's out_record),
 * duration, verdict, options, the tool's part (its per-CPU results), events.
 * ARG is a struct noise_record; returns 0.
 */
struct noise_record {
	const struct noise_run *run;
	double elapsed_s;
};
struct json;
int noise_json_body(struct json *j, const void *arg);

#endif

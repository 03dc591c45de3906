/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * misconfig - the real-time configuration of the measured CPUs in a noise
 * or latency run (src/rtconfig.h): read before the run starts, carried in
 * its record, and judged by --require WORDS. A requirement that does not
 * hold refuses the run (exit 2, nothing borrowed, no record), or with
 * --on-misconfig record lets it run and makes its verdict "misconfigured"
 * (exit 2 as well: a misconfigured machine is not a pass).
 */
#ifndef RTLA_OSNOISE_MISCONFIG_H
#define RTLA_OSNOISE_MISCONFIG_H

#include <stdbool.h>
#include <stdio.h>

struct json;
struct noise_run;

/*
 * Read the configuration of the run's CPUs into run->rtconfig and judge
 * the --require words: 0 to go on (every requirement holds, or they are to
 * be recorded: each one that does not is then warned of), -EPERM when the
 * run is refused (each requirement that does not hold said on stderr),
 * -ENOMEM.
 */
int misconfig_check(struct noise_run *run);
void misconfig_free(struct noise_run *run);
/* Did a requirement not hold (the verdict "misconfigured")? */
bool misconfig_found(const struct noise_run *run);
/* The record's "rt_config" block: CPUs, items, requirements and the unmet ones. */
void misconfig_json(struct json *j, const struct noise_run *run);
/* Is ITEM (enum rtconfig_item) one of the --require words? Does it hold? */
bool misconfig_required(const struct noise_run *run, int item);
bool misconfig_holds(const struct noise_run *run, int item);

#endif

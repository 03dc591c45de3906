/* SPDX-License-Identifier: GPL-2.0-only */
/* placeholder until the analysis lands: the API kernel.c calls */
#ifndef RTLA_TIMERLAT_AA_H
#define RTLA_TIMERLAT_AA_H
#include <stdbool.h>
#include <stdio.h>
#include "osnoise/osnoise.h"
struct tep_handle;
struct tracefs_instance;
struct json;
struct timerlat_aa;
struct timerlat_aa *timerlat_aa_new(int nr_cpus, bool dump_tasks);
void timerlat_aa_free(struct timerlat_aa *aa);
void timerlat_aa_reset(struct timerlat_aa *aa);
int timerlat_aa_enable(struct tracefs_instance *inst, bool dump_tasks);
struct tep_handle *timerlat_aa_events(int nr_cpus, bool dump_tasks);
int timerlat_aa_collect(struct timerlat_aa *aa, struct tep_handle *tep, struct tracefs_instance *inst);
void timerlat_aa_print(const struct timerlat_aa *aa, FILE *f, long long irq_us, long long thread_us,
		       enum timerlat_stack_format fmt);
void timerlat_aa_json(const struct timerlat_aa *aa, struct json *j, long long irq_us, long long thread_us);
#endif

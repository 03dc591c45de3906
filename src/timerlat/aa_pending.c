// SPDX-License-Identifier: GPL-2.0-only
/* placeholder until the analysis lands */
#include <stdlib.h>
#include "json.h"
#include "timerlat/aa.h"
struct timerlat_aa { int x; };
struct timerlat_aa *timerlat_aa_new(int nr_cpus, bool dump_tasks) { return calloc(1, sizeof(struct timerlat_aa)); }
void timerlat_aa_free(struct timerlat_aa *aa) { free(aa); }
void timerlat_aa_reset(struct timerlat_aa *aa) {}
int timerlat_aa_enable(struct tracefs_instance *inst, bool dump_tasks) { return 0; }
struct tep_handle *timerlat_aa_events(int nr_cpus, bool dump_tasks) { return NULL; }
int timerlat_aa_collect(struct timerlat_aa *aa, struct tep_handle *tep, struct tracefs_instance *inst) { return 0; }
void timerlat_aa_print(const struct timerlat_aa *aa, FILE *f, long long irq_us, long long thread_us,
		       enum timerlat_stack_format fmt) {}
void timerlat_aa_json(const struct timerlat_aa *aa, struct json *j, long long irq_us, long long thread_us) { json_null(j, "analysis"); }

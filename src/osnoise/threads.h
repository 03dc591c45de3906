/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * threads - -P and -C for the kernel's osnoise/N workload threads.
 */
#ifndef RTLA_OSNOISE_THREADS_H
#define RTLA_OSNOISE_THREADS_H

#include "osnoise.h"

/* sched_setattr every task whose comm starts with PREFIX. */
int threads_set_priority(const char *prefix, const struct sched_prio *prio);
/* Move them into a cgroup v2 (NULL: rtla's own cgroup). */
int threads_set_cgroup(const char *prefix, const char *cgroup);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tasks - apply a parsed -P priority to a task, and find tasks by name.
 */
#ifndef RTLA_TASKS_H
#define RTLA_TASKS_H

#include <sys/types.h>

#include "parse.h"

/* sched_setattr(2) on TID (0: the calling thread). 0 or -errno. */
int task_set_prio(pid_t tid, const struct sched_prio *prio);

/* "SCHED_FIFO:95"-style description, for messages and JSON. */
const char *task_prio_describe(const struct sched_prio *prio, char *buf, size_t len);

/*
 * Call fn for every task (thread) whose comm starts with PREFIX, scanning
 * /proc through the sysroot. Stops at the first non-zero return of fn.
 * Returns the number of tasks visited, or the first error.
 */
int tasks_for_each_comm(const char *prefix, int (*fn)(pid_t tid, void *ctx), void *ctx);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_recorder - a private tracefs instance that records chosen events on
 * chosen CPUs: what the user-space backends (the noise sampler, timerlat's
 * sampler) read beside their own measurements to explain them.
 *
 * One lifecycle for both: tracefs mounted, the instances of killed runs
 * swept, the formats of the systems it reads parsed (and no others:
 * trace_events.h), a guardian started that keeps off the measured CPUs and
 * removes the instance within a second if rtla dies, the instance PREFIX<pid>
 * created (trace_instance.h); then its buffers, tracing_cpumask and events;
 * its buffers read; the instance removed. Nothing outside it is written.
 * The caller picks the trace clock (tracefs_instance_file_write() on
 * r->ti.tfs between open and setup) and decodes the events.
 */
#ifndef RTLA_TRACE_RECORDER_H
#define RTLA_TRACE_RECORDER_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "trace_instance.h"

struct guardian;
struct tep_event;
struct tep_handle;
struct tep_record;

struct trace_recorder {
	struct tep_handle *tep;		/* the formats of the systems asked for */
	struct trace_instance ti;
	struct guardian *guard;
	cpu_set_t cpus;			/* the CPUs recorded */
};

/* An event to enable: EVENT is an anchored POSIX BRE, as tracefs_event_enable() takes. */
struct trace_recorder_event {
	const char *system, *event;
	bool needed;			/* a run without it warns */
};

/*
 * Open R for CPUS: the steps above up to the instance (tracing off in it).
 * SYSTEMS: the event systems to parse, NULL-terminated (a kernel may lack
 * some). 0, or -errno with *WHY a phrase saying what failed.
 */
int trace_recorder_open(struct trace_recorder *r, const char *prefix, const cpu_set_t *cpus,
			int nr_cpus, const char *const *systems, const char **why);
/*
 * BUFFER_KB per recorded CPU (4 KiB on the others: they record nothing),
 * tracing_cpumask, and EVENTS (N of them). A needed event the kernel lacks
 * gets one warning, "WHO: no SYSTEM:EVENT events: LOST". The number of
 * entries enabled, or -errno.
 */
int trace_recorder_setup(struct trace_recorder *r, int nr_cpus, long long buffer_kb,
			 const struct trace_recorder_event *events, size_t n, const char *who,
			 const char *lost);
/* Read what the buffers hold, event by event, into CB; missed events into r->ti.missed. 0 or -EIO. */
int trace_recorder_drain(struct trace_recorder *r,
			 int (*cb)(struct tep_event *, struct tep_record *, int, void *), void *ctx);
/* Remove the instance and stand the guardian down; R may be half open. */
void trace_recorder_close(struct trace_recorder *r);

#endif

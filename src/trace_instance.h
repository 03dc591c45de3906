/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_instance - the tracefs instances rtla creates, with one lifecycle
 * for every user (the osnoise tracer, the sampler, and timerlat next).
 *
 * An instance is named PREFIX<pid>. It is handed to a guardian (guardian.h)
 * before it exists, so that if rtla dies the guardian removes it within a
 * second, and it gets an ownership mark (owned.h) once it does. One policy
 * for an instance rtla finds:
 *
 *   - marked, and its run (or that run's guardian) alive: another rtla run's,
 *     refused with that run's pid (trace_instance_owner());
 *   - marked, and both gone: reclaimed, with one line saying so
 *     (trace_instance_sweep(), called by every run before it creates one);
 *   - not marked: not rtla's, whatever its name; never touched.
 */
#ifndef RTLA_TRACE_INSTANCE_H
#define RTLA_TRACE_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct guardian;
struct tracefs_instance;

struct trace_instance {
	struct tracefs_instance *tfs;	/* NULL until created */
	char name[64];
	struct guardian *guard;
	int gid;			/* the guardian's id of the instance */
	int on_fd;			/* tracing_on, open: set_on() is async-signal-safe */
	uint64_t missed;		/* events the buffers dropped; UINT64_MAX: some, count unknown */
};

/* The host path of FILE in the top tracefs folder (the sysroot's, or the mount). 0 or -errno. */
int trace_path(const char *file, char *buf, size_t len);

/* Remove the instances killed rtla runs left (their marks say so), one line each. */
void trace_instance_sweep(void);
/* The live rtla process whose instance NAME is; 0 when none is. */
pid_t trace_instance_owner(const char *name);
/* Is NAME an instance of a killed rtla run (marked, its run and guardian gone)? */
bool trace_instance_is_stale(const char *name);
/* Does the instance NAME (NULL: the top level) run TRACER? */
bool trace_instance_runs(const char *name, const char *tracer);

/*
 * Create PREFIX<pid>, handed to G first (NULL: no guardian). Tracing is
 * off in it. -EEXIST when an instance by that name exists (not ours: the
 * sweep removed ours); -errno otherwise. Prints nothing.
 */
int trace_instance_create(struct trace_instance *ti, struct guardian *g, const char *prefix);
/* Count the events its buffers drop into ti->missed while they are read. */
void trace_instance_count_missed(struct trace_instance *ti);
/* tracing_on, by a write to the open file: safe in a signal handler. */
void trace_instance_set_on(const struct trace_instance *ti, bool on);
/*
 * Stop its tracer and remove it (waiting a little while the kernel still
 * holds a reader). One line when it cannot: it stays marked, and a later
 * run reclaims it.
 */
void trace_instance_destroy(struct trace_instance *ti);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_recorder - the private event instance of the user-space backends.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "guardian.h"
#include "msg.h"
#include "owned.h"
#include "trace_events.h"
#include "trace_recorder.h"

int trace_recorder_open(struct trace_recorder *r, const char *prefix, const cpu_set_t *cpus,
			int nr_cpus, const char *const *systems, const char **why)
{
	const char *dir;
	int ret;

	memset(r, 0, sizeof(*r));
	r->ti.on_fd = -1;
	r->cpus = *cpus;
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !tracefs_tracing_dir()) {
		*why = geteuid() ? "reading trace events needs root"
				 : "tracefs is not mounted and cannot be mounted";
		return -ENOENT;
	}
	trace_instance_sweep();
	r->tep = trace_events_new(nr_cpus);
	for (int i = 0; r->tep && systems[i]; i++)
		trace_events_add_system(r->tep, systems[i]);
	if (!r->tep) {
		*why = geteuid() ? "reading trace events needs root" : "cannot read the event formats";
		return -EIO;
	}
	ret = guardian_start(&r->guard, &(struct guardian_opts){ .keep_fd = -1,
								.mark_dir = RTLA_OWNED_DIR });
	if (ret) {
		*why = "cannot start the guardian that removes the instance if rtla dies";
		return ret;
	}
	/* the guardian's one thread must not become noise on what is measured */
	guardian_keep_off(r->guard, &r->cpus);
	ret = trace_instance_create(&r->ti, r->guard, prefix);
	if (ret)
		*why = ret == -EEXIST ? "a tracefs instance by our name exists and is not ours"
				      : "cannot create a tracefs instance";
	return ret;
}

int trace_recorder_setup(struct trace_recorder *r, int nr_cpus, long long buffer_kb,
			 const struct trace_recorder_event *events, size_t n, const char *who,
			 const char *lost)
{
	int enabled = 0;

	/* full buffers only where we record; the others cost memory for nothing */
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (tracefs_instance_set_buffer_size(r->ti.tfs, CPU_ISSET(cpu, &r->cpus) ?
						     buffer_kb : 4, cpu) < 0)
			debug_msg("%s: buffer size of cpu %d not set: %s", who, cpu,
				  strerror(errno));
	if (tracefs_instance_set_affinity_set(r->ti.tfs, &r->cpus, sizeof(r->cpus)) < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		if (tracefs_event_enable(r->ti.tfs, events[i].system, events[i].event) >= 0) {
			enabled++;
			continue;
		}
		if (events[i].needed)
			warn_msg("%s: no %s:%s events: %s", who, events[i].system, events[i].event,
				 lost);
	}
	trace_instance_count_missed(&r->ti);
	return enabled;
}

int trace_recorder_drain(struct trace_recorder *r,
			 int (*cb)(struct tep_event *, struct tep_record *, int, void *), void *ctx)
{
	int ret = tracefs_iterate_raw_events(r->tep, r->ti.tfs, &r->cpus, sizeof(r->cpus), cb, ctx);

	return ret < 0 ? -EIO : 0;
}

void trace_recorder_close(struct trace_recorder *r)
{
	trace_instance_destroy(&r->ti);
	guardian_stand_down(r->guard);
	r->guard = NULL;
	tep_free(r->tep);
	r->tep = NULL;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler_events - the private tracefs instance of timerlat's sampler
 * backend: the events why.c replays, on the measured CPUs only, with the
 * "mono" trace clock (CLOCK_MONOTONIC, the clock the sleepers sleep on and
 * read, and the one hrtimer_start's expiry is in).
 *
 * The instance is one of rtla's (trace_instance.h): a guardian removes it
 * within a second if rtla is killed. Nothing outside it is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "guardian.h"
#include "msg.h"
#include "owned.h"
#include "timerlat/sampler.h"
#include "trace_events.h"
#include "trace_instance.h"
#include "util.h"

#define INSTANCE_PREFIX	"rtla_timerlat_sampler_"

struct evtype {
	int16_t kind;		/* enum tlw_kind; -1: not ours */
	struct tep_format_field *arg, *arg2, *ptr, *val, *name;
};

struct tlw_trace {
	struct tep_handle *tep;
	struct trace_instance ti;
	struct guardian *guard;
	cpu_set_t cpus;
	struct evtype *types;	/* by event id */
	int max_id;
	struct tlw *w;
	struct noise_run *run;
};

/* What is enabled: system, event (an anchored regex), and whether a run without it says so. */
static const struct {
	const char *system, *event;
	bool needed;
} wanted[] = {
	{ "timer", "hrtimer_\\(start\\|expire_entry\\)", true },
	{ "sched", "sched_\\(switch\\|wakeup\\)", true },
	{ "irq", "irq_handler_\\(entry\\|exit\\)", true },
	{ "irq", "softirq_\\(entry\\|exit\\)", true },
	{ "irq_vectors", ".*_\\(entry\\|exit\\)", false },	/* x86: the timer, IPIs */
	{ "ipi", "ipi_\\(entry\\|exit\\)", false },		/* arm, arm64 */
	{ "nmi", "nmi_handler", false },
	{ "power", "cpu_idle", false },
};

static const char *const systems[] = { "timer", "sched", "irq", "irq_vectors", "ipi", "nmi",
				       "power", NULL };

static int event_kind(const struct tep_event *e)
{
	static const struct {
		const char *system, *name;
		int kind;
	} exact[] = {
		{ "irq", "irq_handler_entry", TLW_IRQ },
		{ "irq", "irq_handler_exit", TLW_IRQ_EXIT },
		{ "irq", "softirq_entry", TLW_SOFTIRQ },
		{ "irq", "softirq_exit", TLW_SOFTIRQ_EXIT },
		{ "nmi", "nmi_handler", TLW_NMI },
		{ "sched", "sched_switch", TLW_SWITCH },
		{ "sched", "sched_wakeup", TLW_WAKEUP },
		{ "power", "cpu_idle", TLW_IDLE },
		{ "timer", "hrtimer_start", TLW_TIMER_START },
		{ "timer", "hrtimer_expire_entry", TLW_TIMER_EXPIRE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(e->system, exact[i].system) && !strcmp(e->name, exact[i].name))
			return exact[i].kind;
	if (!strcmp(e->system, "irq_vectors") ||
	    (!strcmp(e->system, "ipi") && !strncmp(e->name, "ipi_", 4))) {
		if (str_ends_with(e->name, "_entry"))
			return TLW_VEC;
		if (str_ends_with(e->name, "_exit"))
			return TLW_VEC_EXIT;
	}
	return -1;
}

static int build_types(struct tlw_trace *t)
{
	struct tep_event **all = tep_list_events(t->tep, TEP_EVENT_SORT_ID);

	if (!all)
		return -ENOMEM;
	for (int i = 0; all[i]; i++)
		if (all[i]->id > t->max_id)
			t->max_id = all[i]->id;
	t->types = calloc(t->max_id + 1, sizeof(*t->types));
	if (!t->types)
		return -ENOMEM;
	for (int i = 0; i <= t->max_id; i++)
		t->types[i].kind = -1;
	for (int i = 0; all[i]; i++) {
		struct tep_event *e = all[i];
		struct evtype *ty = &t->types[e->id];

		ty->kind = event_kind(e);
		switch (ty->kind) {
		case TLW_IRQ:
			ty->arg = tep_find_field(e, "irq");
			ty->name = tep_find_field(e, "name");
			break;
		case TLW_SOFTIRQ:
			ty->arg = tep_find_field(e, "vec");
			break;
		case TLW_VEC:
			ty->arg = tep_find_field(e, "vector");
			break;
		case TLW_NMI:
			ty->val = tep_find_field(e, "delta_ns");
			break;
		case TLW_SWITCH:
			ty->arg = tep_find_field(e, "next_pid");
			ty->arg2 = tep_find_field(e, "prev_pid");
			ty->name = tep_find_field(e, "next_comm");
			break;
		case TLW_WAKEUP:
			ty->arg = tep_find_field(e, "pid");
			break;
		case TLW_IDLE:
			ty->arg = tep_find_field(e, "state");
			break;
		case TLW_TIMER_START:
			ty->ptr = tep_find_field(e, "hrtimer");
			ty->val = tep_find_field(e, "softexpires");	/* the time asked for */
			ty->arg2 = tep_find_any_field(e, "common_pid");
			break;
		case TLW_TIMER_EXPIRE:
			ty->ptr = tep_find_field(e, "hrtimer");
			ty->val = tep_find_field(e, "now");
			break;
		}
	}
	return 0;
}

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct tlw_trace *t = ctx;
	struct tlw_event ev = { 0 };
	const struct evtype *ty;

	if (e->id < 0 || e->id > t->max_id || t->types[e->id].kind < 0)
		return 0;
	ty = &t->types[e->id];
	t->run->processed_events++;
	ev.ts = r->ts;
	ev.kind = ty->kind;
	ev.arg = trace_events_read_num(ty->arg, r->data, -1);
	ev.arg2 = trace_events_read_num(ty->arg2, r->data, -1);
	ev.ptr = trace_events_read_num(ty->ptr, r->data, 0);
	ev.val = trace_events_read_num(ty->val, r->data, 0);
	if (ty->kind == TLW_VEC)	/* local_timer_entry: the name is the event's */
		snprintf(ev.name, sizeof(ev.name), "%.*s", (int)(strlen(e->name) - 6), e->name);
	else
		trace_events_read_str(ty->name, r, ev.name, sizeof(ev.name));
	tlw_push(t->w, cpu, &ev);
	return 0;
}

int tlw_trace_drain(struct tlw_trace *t, struct tlw *w, struct noise_run *run)
{
	int ret;

	t->w = w;
	t->run = run;
	ret = tracefs_iterate_raw_events(t->tep, t->ti.tfs, &t->cpus, sizeof(t->cpus), on_event, t);
	run->missed_events = t->ti.missed;
	return ret < 0 ? -EIO : 0;
}

static int configure(struct tlw_trace *t, int nr_cpus, long long buffer_kb)
{
	if (tracefs_instance_file_write(t->ti.tfs, "trace_clock", "mono") <= 0)
		return -ENOTSUP;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (tracefs_instance_set_buffer_size(t->ti.tfs, CPU_ISSET(cpu, &t->cpus) ?
						     buffer_kb : 4, cpu) < 0)
			debug_msg("timerlat sampler: buffer size of cpu %d not set: %s", cpu,
				  strerror(errno));
	if (tracefs_instance_set_affinity_set(t->ti.tfs, &t->cpus, sizeof(t->cpus)) < 0)
		return -errno;
	for (size_t i = 0; i < ARRAY_SIZE(wanted); i++) {
		if (tracefs_event_enable(t->ti.tfs, wanted[i].system, wanted[i].event) >= 0)
			continue;
		if (wanted[i].needed)
			warn_msg("timerlat sampler: no %s:%s events: what they would explain "
				 "counts as unaccounted", wanted[i].system, wanted[i].event);
	}
	return 0;
}

struct tlw_trace *tlw_trace_create(const cpu_set_t *cpus, int nr_cpus, long long buffer_kb,
				   const char **why)
{
	struct tlw_trace *t = calloc(1, sizeof(*t));
	const char *dir;
	int ret;

	*why = "out of memory";
	if (!t)
		return NULL;
	t->ti.on_fd = -1;
	t->cpus = *cpus;
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !tracefs_tracing_dir()) {
		*why = geteuid() ? "reading trace events needs root"
				 : "tracefs is not mounted and cannot be mounted";
		goto out_fail;
	}
	trace_instance_sweep();
	t->tep = trace_events_new(nr_cpus);
	for (int i = 0; t->tep && systems[i]; i++)
		trace_events_add_system(t->tep, systems[i]);	/* a kernel may lack one */
	if (!t->tep || build_types(t)) {
		*why = geteuid() ? "reading trace events needs root" : "cannot read the event formats";
		goto out_fail;
	}
	ret = guardian_start(&t->guard, &(struct guardian_opts){ .keep_fd = -1,
								.mark_dir = RTLA_OWNED_DIR });
	if (ret) {
		*why = "cannot start the guardian that removes the instance if rtla dies";
		goto out_fail;
	}
	guardian_keep_off(t->guard, &t->cpus);
	ret = trace_instance_create(&t->ti, t->guard, INSTANCE_PREFIX);
	if (ret) {
		*why = ret == -EEXIST ? "a tracefs instance by our name exists and is not ours"
				      : "cannot create a tracefs instance";
		goto out_fail;
	}
	ret = configure(t, nr_cpus, buffer_kb > 0 ? buffer_kb : 4096);
	if (ret) {
		*why = ret == -ENOTSUP ? "the kernel has no mono trace clock"
				       : "cannot configure the tracefs instance";
		goto out_fail;
	}
	trace_instance_count_missed(&t->ti);
	debug_msg("timerlat sampler: instance %s", t->ti.name);
	return t;

out_fail:
	tlw_trace_destroy(t);
	return NULL;
}

int tlw_trace_on(struct tlw_trace *t, bool on)
{
	trace_instance_set_on(&t->ti, on);
	return 0;
}

int tlw_trace_on_fd(const struct tlw_trace *t)
{
	return t ? t->ti.on_fd : -1;
}

void tlw_trace_destroy(struct tlw_trace *t)
{
	if (!t)
		return;
	trace_instance_destroy(&t->ti);
	guardian_stand_down(t->guard);
	tep_free(t->tep);
	free(t->types);
	free(t);
}

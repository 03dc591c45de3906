// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler_trace - the sampler's private tracefs instance.
 *
 * It records, on the measured CPUs only, the events that can explain a gap
 * (irq, irq_vectors, softirq, nmi, ipi, sched_switch) with a trace clock in
 * the spinner's time domain: x86-tsc for a TSC spinner, mono_raw for a
 * CLOCK_MONOTONIC_RAW one. The default "local" clock is sched_clock based
 * and drifts by milliseconds against both, so it is never used.
 *
 * The instance is one of rtla's (trace_instance.h): named after our pid,
 * removed by a guardian within a second if rtla is killed, reclaimed by a
 * later run if both were; one that merely has our kind of name is never
 * touched.
 *
 * Nothing outside the instance is written: its trace clock, buffer sizes,
 * tracing_cpumask, events and tracing_on are all the instance's own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "guardian.h"
#include "msg.h"
#include "osnoise/sampler.h"
#include "trace_events.h"
#include "trace_instance.h"
#include "util.h"

#define INSTANCE_PREFIX	"rtla_sampler_"

struct evtype {
	uint16_t kind;
	struct tep_format_field *arg, *arg2, *name, *dur;
};

struct sampler_trace {
	struct tep_handle *tep;
	struct trace_instance ti;
	struct guardian *guard;
	cpu_set_t cpus;
	const struct sampler_clock *clock;
	bool same_domain;		/* event ts are already spinner ticks */
	const char *clock_name;
	struct evtype *types;		/* indexed by event id; kind 0xffff: not ours */
	const char **names;		/* by event id, for the saved trace */
	int max_id;
	struct sampler_attr *attr;		/* the drain in progress */
	struct noise_run *run;
};

/* What we enable: system, event name pattern (anchored POSIX BRE). */
static const struct {
	const char *system, *event;
	bool needed;
} wanted[] = {
	{ "irq", "irq_handler_\\(entry\\|exit\\)", true },
	{ "irq", "softirq_\\(entry\\|exit\\)", true },
	{ "irq_vectors", ".*_\\(entry\\|exit\\)", false },	/* x86: ticks and IPIs */
	{ "ipi", "ipi_\\(entry\\|exit\\)", false },		/* arm, arm64 */
	{ "nmi", "nmi_handler", false },
	{ "sched", "sched_switch", true },
};

static const char *const systems[] = { "irq", "irq_vectors", "ipi", "nmi", "sched", NULL };

/* Which of our kinds an event is; -1 when it is none of them. */
static int event_kind(const struct tep_event *e)
{
	if (!strcmp(e->system, "irq")) {
		if (!strcmp(e->name, "irq_handler_entry"))
			return SAMPLER_EV_IRQ;
		if (!strcmp(e->name, "irq_handler_exit"))
			return SAMPLER_EV_IRQ_EXIT;
		if (!strcmp(e->name, "softirq_entry"))
			return SAMPLER_EV_SOFTIRQ;
		if (!strcmp(e->name, "softirq_exit"))
			return SAMPLER_EV_SOFTIRQ_EXIT;
	} else if (!strcmp(e->system, "irq_vectors") || !strcmp(e->system, "ipi")) {
		if (!strcmp(e->system, "ipi") && strncmp(e->name, "ipi_", 4))
			return -1;
		if (str_ends_with(e->name, "_entry"))
			return SAMPLER_EV_VEC;
		if (str_ends_with(e->name, "_exit"))
			return SAMPLER_EV_VEC_EXIT;
	} else if (!strcmp(e->system, "nmi") && !strcmp(e->name, "nmi_handler")) {
		return SAMPLER_EV_NMI;
	} else if (!strcmp(e->system, "sched") && !strcmp(e->name, "sched_switch")) {
		return SAMPLER_EV_SWITCH;
	}
	return -1;
}

/* The systems' formats alone: no kallsyms and friends (trace_events.h). */
static struct tep_handle *load_events(int nr_cpus)
{
	struct tep_handle *tep = trace_events_new(nr_cpus);

	if (!tep)
		return NULL;
	for (int i = 0; systems[i]; i++)
		trace_events_add_system(tep, systems[i]);	/* a kernel may lack one */
	return tep;
}

static int build_types(struct sampler_trace *t)
{
	struct tep_event **all = tep_list_events(t->tep, TEP_EVENT_SORT_ID);
	int n = 0;

	if (!all)
		return -ENOMEM;
	for (int i = 0; all[i]; i++)
		if (all[i]->id > t->max_id)
			t->max_id = all[i]->id;
	t->types = calloc(t->max_id + 1, sizeof(*t->types));
	t->names = calloc(t->max_id + 1, sizeof(*t->names));
	if (!t->types || !t->names)
		return -ENOMEM;
	for (int i = 0; i <= t->max_id; i++)
		t->types[i].kind = 0xffff;
	for (int i = 0; all[i]; i++) {
		struct tep_event *e = all[i];
		struct evtype *ty = &t->types[e->id];
		int kind = event_kind(e);

		t->names[e->id] = e->name;
		if (kind < 0)
			continue;
		ty->kind = kind;
		switch (kind) {
		case SAMPLER_EV_IRQ:
			ty->arg = tep_find_field(e, "irq");
			ty->name = tep_find_field(e, "name");
			break;
		case SAMPLER_EV_SOFTIRQ:
			ty->arg = tep_find_field(e, "vec");
			break;
		case SAMPLER_EV_VEC:
			ty->arg = tep_find_field(e, "vector");
			break;
		case SAMPLER_EV_NMI:
			ty->dur = tep_find_field(e, "delta_ns");
			break;
		case SAMPLER_EV_SWITCH:
			ty->arg = tep_find_field(e, "next_pid");
			ty->arg2 = tep_find_field(e, "prev_pid");
			ty->name = tep_find_field(e, "next_comm");
			if (!ty->arg || !ty->arg2)
				ty->kind = 0xffff;
			break;
		}
		n++;
	}
	return n ? 0 : -ENOENT;
}

/* Trace clock to spinner ticks: the identity, or the calibrated line. */
static uint64_t to_ticks(const struct sampler_trace *t, uint64_t ts)
{
	const struct sampler_clock *ck = t->clock;
	double d;

	if (t->same_domain)
		return ts;
	d = ((double)ts - (double)ck->ref_ns) * ck->mhz / 1000.0;
	return (uint64_t)((double)ck->ref_ticks + d);
}

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct sampler_trace *t = ctx;
	struct sampler_event ev = { 0 };
	const struct evtype *ty;

	if (e->id < 0 || e->id > t->max_id || t->types[e->id].kind == 0xffff)
		return 0;
	ty = &t->types[e->id];
	t->run->processed_events++;
	ev.ts = to_ticks(t, r->ts);
	ev.kind = ty->kind;
	ev.type = e->id;
	ev.arg = trace_events_read_num(ty->arg, r->data, -1);
	ev.arg2 = trace_events_read_num(ty->arg2, r->data, -1);
	ev.dur = trace_events_read_num(ty->dur, r->data, 0);
	trace_events_read_str(ty->name, r, ev.name, sizeof(ev.name));
	sampler_attr_push(t->attr, cpu, &ev);
	return 0;
}

int sampler_trace_drain(struct sampler_trace *t, struct sampler_attr *a, struct noise_run *run)
{
	int ret;

	t->attr = a;
	t->run = run;
	t->attr->type_names = t->names;
	t->attr->nr_types = t->max_id + 1;
	ret = tracefs_iterate_raw_events(t->tep, t->ti.tfs, &t->cpus, sizeof(t->cpus),
					 on_event, t);
	run->missed_events = t->ti.missed;
	return ret < 0 ? -EIO : 0;
}

/* The trace clock that maps onto the spinner's ticks. */
static int set_clock(struct sampler_trace *t)
{
	if (t->clock->tsc && tracefs_instance_file_write(t->ti.tfs, "trace_clock", "x86-tsc") > 0) {
		t->clock_name = "x86-tsc";
		t->same_domain = true;
		return 0;
	}
	if (tracefs_instance_file_write(t->ti.tfs, "trace_clock", "mono_raw") > 0) {
		t->clock_name = "mono_raw";
		t->same_domain = !t->clock->tsc;
		return 0;
	}
	return -ENOTSUP;
}

static int configure(struct sampler_trace *t, int nr_cpus, long long buffer_kb)
{
	int enabled = 0, ret;

	if ((ret = set_clock(t)))
		return ret;
	/* full buffers only where we trace; the rest cost memory for nothing */
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (tracefs_instance_set_buffer_size(t->ti.tfs, CPU_ISSET(cpu, &t->cpus) ?
						     buffer_kb : 4, cpu) < 0)
			debug_msg("sampler: buffer size of cpu %d not set: %s", cpu,
				  strerror(errno));
	if (tracefs_instance_set_affinity_set(t->ti.tfs, &t->cpus, sizeof(t->cpus)) < 0)
		return -errno;
	for (size_t i = 0; i < ARRAY_SIZE(wanted); i++) {
		if (tracefs_event_enable(t->ti.tfs, wanted[i].system, wanted[i].event) < 0) {
			if (wanted[i].needed)
				warn_msg("sampler: %s:%s events not available: noise they cause "
					 "counts as HW", wanted[i].system, wanted[i].event);
			continue;
		}
		enabled++;
	}
	return enabled ? 0 : -ENOENT;
}

struct sampler_trace *sampler_trace_create(const cpu_set_t *cpus, int nr_cpus,
				   const struct sampler_clock *ck, long long buffer_kb)
{
	struct sampler_trace *t = calloc(1, sizeof(*t));
	const char *why = NULL, *dir;
	int ret;

	if (!t)
		return NULL;
	t->ti.on_fd = -1;
	t->cpus = *cpus;
	t->clock = ck;
	if (tracefs_tracing_dir_is_mounted(true, &dir) < 0 || !tracefs_tracing_dir()) {
		why = "tracefs is not mounted and cannot be mounted";
		goto out_fail;
	}
	trace_instance_sweep();
	t->tep = load_events(nr_cpus);
	if (!t->tep || build_types(t)) {
		why = "cannot read the event formats";
		goto out_fail;
	}
	ret = guardian_start(&t->guard, &(struct guardian_opts){ .keep_fd = -1,
								.mark_dir = RTLA_OWNED_DIR });
	if (ret) {
		why = "cannot start the guardian that removes the instance if rtla dies";
		goto out_fail;
	}
	guardian_keep_off(t->guard, &t->cpus);
	ret = trace_instance_create(&t->ti, t->guard, INSTANCE_PREFIX);
	if (ret) {
		why = ret == -EEXIST ? "a tracefs instance by our name exists and is not ours"
				     : strerror(-ret);
		goto out_fail;
	}
	ret = configure(t, nr_cpus, buffer_kb > 0 ? buffer_kb : 2048);
	if (ret) {
		why = ret == -ENOTSUP ? "no trace clock comparable to the spinner's" :
		      strerror(-ret);
		goto out_fail;
	}
	trace_instance_count_missed(&t->ti);
	debug_msg("sampler: instance %s, trace clock %s", t->ti.name, t->clock_name);
	return t;

out_fail:
	debug_msg("sampler: no attribution (%s%s)", why,
		 geteuid() ? "; it needs root" : "");
	sampler_trace_destroy(t);
	return NULL;
}

int sampler_trace_on(struct sampler_trace *t)
{
	trace_instance_set_on(&t->ti, true);
	return 0;
}

void sampler_trace_off(struct sampler_trace *t)
{
	trace_instance_set_on(&t->ti, false);
}

void sampler_trace_destroy(struct sampler_trace *t)
{
	if (!t)
		return;
	trace_instance_destroy(&t->ti);
	guardian_stand_down(t->guard);
	tep_free(t->tep);
	free(t->types);
	free(t->names);
	free(t);
}

const char *sampler_trace_clock(const struct sampler_trace *t)
{
	return t ? t->clock_name : "none";
}

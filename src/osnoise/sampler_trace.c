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
 * The instance is a trace_recorder (trace_recorder.h): named after our
 * pid, removed by a guardian within a second if rtla is killed, reclaimed
 * by a later run if both were; nothing outside it is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "msg.h"
#include "osnoise/sampler.h"
#include "trace_events.h"
#include "trace_recorder.h"
#include "util.h"

#define INSTANCE_PREFIX	"rtla_sampler_"

/* the number fields of struct sampler_event, in struct trace_event_rule's order */
enum { F_ARG, F_ARG2, F_DUR };

struct sampler_trace {
	struct trace_recorder rec;
	const struct sampler_clock *clock;
	bool same_domain;		/* event ts are already spinner ticks */
	const char *clock_name;
	struct trace_event_types types;	/* by event id */
	const char **names;		/* by event id, for the saved trace */
	struct sampler_attr *attr;		/* the drain in progress */
	struct noise_run *run;
};

/* What we enable: system, event name pattern (anchored POSIX BRE). */
static const struct trace_recorder_event wanted[] = {
	{ "irq", "irq_handler_\\(entry\\|exit\\)", true },
	{ "irq", "softirq_\\(entry\\|exit\\)", true },
	{ "irq_vectors", ".*_\\(entry\\|exit\\)", false },	/* x86: ticks and IPIs */
	{ "ipi", "ipi_\\(entry\\|exit\\)", false },		/* arm, arm64 */
	{ "nmi", "nmi_handler", false },
	{ "sched", "sched_switch", true },
};

static const char *const systems[] = { "irq", "irq_vectors", "ipi", "nmi", "sched", NULL };

/* How each event we enable is read: the first matching rule wins. */
static const struct trace_event_rule rules[] = {
	TRACE_EVENT_RULE("irq", "irq_handler_entry", SAMPLER_EV_IRQ,
		 .field = { [F_ARG] = "irq" }, .str = "name"),
	TRACE_EVENT_RULE("irq", "irq_handler_exit", SAMPLER_EV_IRQ_EXIT),
	TRACE_EVENT_RULE("irq", "softirq_entry", SAMPLER_EV_SOFTIRQ, .field = { [F_ARG] = "vec" }),
	TRACE_EVENT_RULE("irq", "softirq_exit", SAMPLER_EV_SOFTIRQ_EXIT),
	TRACE_EVENT_RULE("irq_vectors", "*_entry", SAMPLER_EV_VEC, .field = { [F_ARG] = "vector" }),
	TRACE_EVENT_RULE("irq_vectors", "*_exit", SAMPLER_EV_VEC_EXIT),
	TRACE_EVENT_RULE("ipi", "ipi_*entry", SAMPLER_EV_VEC),
	TRACE_EVENT_RULE("ipi", "ipi_*exit", SAMPLER_EV_VEC_EXIT),
	TRACE_EVENT_RULE("nmi", "nmi_handler", SAMPLER_EV_NMI, .field = { [F_DUR] = "delta_ns" }),
	TRACE_EVENT_RULE("sched", "sched_switch", SAMPLER_EV_SWITCH,
		 .field = { [F_ARG] = "next_pid", [F_ARG2] = "prev_pid" }, .str = "next_comm",
		 .all_fields = true),
};

static int build_types(struct sampler_trace *t)
{
	int ret = trace_event_types_build(&t->types, t->rec.tep, rules, ARRAY_SIZE(rules));

	if (ret)
		return ret;
	t->names = calloc(t->types.nr, sizeof(*t->names));
	if (!t->names)
		return -ENOMEM;
	for (int id = 0; id < t->types.nr; id++)
		t->names[id] = t->types.by_id[id].name;
	return 0;
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
	char name[SAMPLER_NAME_LEN] = "";
	const struct trace_event_type *ty = trace_event_type_of(&t->types, e);

	if (!ty)
		return 0;
	t->run->processed_events++;
	ev.ts = to_ticks(t, r->ts);
	ev.kind = ty->kind;
	ev.type = e->id;
	ev.arg = trace_events_read_num(ty->field[F_ARG], r->data, -1);
	ev.arg2 = trace_events_read_num(ty->field[F_ARG2], r->data, -1);
	ev.dur = trace_events_read_num(ty->field[F_DUR], r->data, 0);
	if (t->attr->keep)
		trace_events_read_str(ty->str, r, name, sizeof(name));
	sampler_attr_push(t->attr, cpu, &ev, name);
	return 0;
}

int sampler_trace_drain(struct sampler_trace *t, struct sampler_attr *a, struct noise_run *run)
{
	int ret;

	t->attr = a;
	t->run = run;
	t->attr->type_names = t->names;
	t->attr->nr_types = t->types.nr;
	ret = trace_recorder_drain(&t->rec, on_event, t);
	run->missed_events = t->rec.ti.missed;
	return ret;
}

/* The trace clock that maps onto the spinner's ticks. */
static int set_clock(struct sampler_trace *t)
{
	if (t->clock->tsc && tracefs_instance_file_write(t->rec.ti.tfs, "trace_clock", "x86-tsc") > 0) {
		t->clock_name = "x86-tsc";
		t->same_domain = true;
		return 0;
	}
	if (tracefs_instance_file_write(t->rec.ti.tfs, "trace_clock", "mono_raw") > 0) {
		t->clock_name = "mono_raw";
		t->same_domain = !t->clock->tsc;
		return 0;
	}
	return -ENOTSUP;
}

struct sampler_trace *sampler_trace_create(const cpu_set_t *cpus, int nr_cpus,
				   const struct sampler_clock *ck, long long buffer_kb)
{
	struct sampler_trace *t = calloc(1, sizeof(*t));
	const char *why = "out of memory";
	int ret;

	if (!t)
		return NULL;
	t->clock = ck;
	if (trace_recorder_open(&t->rec, INSTANCE_PREFIX, cpus, nr_cpus, systems, &why))
		goto out_fail;
	if (build_types(t)) {
		why = "cannot read the event formats";
		goto out_fail;
	}
	if ((ret = set_clock(t))) {
		why = "no trace clock comparable to the spinner's";
		goto out_fail;
	}
	ret = trace_recorder_setup(&t->rec, nr_cpus, buffer_kb > 0 ? buffer_kb : 2048, wanted,
				   ARRAY_SIZE(wanted), "sampler", "noise they cause counts as HW");
	if (ret <= 0) {
		why = ret ? strerror(-ret) : "no event to record";
		goto out_fail;
	}
	debug_msg("sampler: instance %s, trace clock %s", t->rec.ti.name, t->clock_name);
	return t;

out_fail:
	debug_msg("sampler: no attribution (%s%s)", why,
		 geteuid() ? "; it needs root" : "");
	sampler_trace_destroy(t);
	return NULL;
}

int sampler_trace_on(struct sampler_trace *t)
{
	trace_instance_set_on(&t->rec.ti, true);
	return 0;
}

void sampler_trace_off(struct sampler_trace *t)
{
	trace_instance_set_on(&t->rec.ti, false);
}

void sampler_trace_destroy(struct sampler_trace *t)
{
	if (!t)
		return;
	trace_recorder_close(&t->rec);
	trace_event_types_free(&t->types);
	free(t->names);
	free(t);
}

const char *sampler_trace_clock(const struct sampler_trace *t)
{
	return t ? t->clock_name : "none";
}

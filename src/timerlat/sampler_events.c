// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler_events - the private tracefs instance of timerlat's sampler
 * backend: the events why.c replays, on the measured CPUs only, with the
 * "mono" trace clock (CLOCK_MONOTONIC, the clock the sleepers sleep on and
 * read, and the one hrtimer_start's expiry is in).
 *
 * The instance is a trace_recorder (trace_recorder.h): a guardian removes
 * it within a second if rtla is killed. Nothing outside it is written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "msg.h"
#include "timerlat/sampler.h"
#include "trace_events.h"
#include "trace_recorder.h"
#include "util.h"

#define INSTANCE_PREFIX	"rtla_timerlat_sampler_"

/* the number fields of struct tlw_event, in struct trace_event_rule's order */
enum { F_ARG, F_ARG2, F_PTR, F_VAL };

struct tlw_trace {
	struct trace_recorder rec;
	struct trace_event_types types;	/* by event id */
	struct tlw *w;
	struct noise_run *run;
};

/* What is enabled: system, event (an anchored regex), and whether a run without it says so. */
static const struct trace_recorder_event wanted[] = {
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

/* How each event we enable is read: the first matching rule wins. */
static const struct trace_event_rule rules[] = {
	TRACE_EVENT_RULE("irq", "irq_handler_entry", TLW_IRQ,
		 .field = { [F_ARG] = "irq" }, .str = "name"),
	TRACE_EVENT_RULE("irq", "irq_handler_exit", TLW_IRQ_EXIT),
	TRACE_EVENT_RULE("irq", "softirq_entry", TLW_SOFTIRQ, .field = { [F_ARG] = "vec" }),
	TRACE_EVENT_RULE("irq", "softirq_exit", TLW_SOFTIRQ_EXIT),
	TRACE_EVENT_RULE("nmi", "nmi_handler", TLW_NMI, .field = { [F_VAL] = "delta_ns" }),
	TRACE_EVENT_RULE("sched", "sched_switch", TLW_SWITCH,
		 .field = { [F_ARG] = "next_pid", [F_ARG2] = "prev_pid" }, .str = "next_comm"),
	TRACE_EVENT_RULE("sched", "sched_wakeup", TLW_WAKEUP, .field = { [F_ARG] = "pid" }),
	TRACE_EVENT_RULE("power", "cpu_idle", TLW_IDLE, .field = { [F_ARG] = "state" }),
	/* softexpires: the time asked for; common_pid: whose timer */
	TRACE_EVENT_RULE("timer", "hrtimer_start", TLW_TIMER_START,
		 .field = { [F_PTR] = "hrtimer", [F_VAL] = "softexpires", [F_ARG2] = "common_pid" }),
	TRACE_EVENT_RULE("timer", "hrtimer_expire_entry", TLW_TIMER_EXPIRE,
		 .field = { [F_PTR] = "hrtimer", [F_VAL] = "now" }),
	TRACE_EVENT_RULE("irq_vectors", "*_entry", TLW_VEC, .field = { [F_ARG] = "vector" }),
	TRACE_EVENT_RULE("irq_vectors", "*_exit", TLW_VEC_EXIT),
	TRACE_EVENT_RULE("ipi", "ipi_*entry", TLW_VEC, .field = { [F_ARG] = "vector" }),
	TRACE_EVENT_RULE("ipi", "ipi_*exit", TLW_VEC_EXIT),
};

static int on_event(struct tep_event *e, struct tep_record *r, int cpu, void *ctx)
{
	struct tlw_trace *t = ctx;
	struct tlw_event ev = { 0 };
	const struct trace_event_type *ty = trace_event_type_of(&t->types, e);

	if (!ty)
		return 0;
	t->run->processed_events++;
	ev.ts = r->ts;
	ev.kind = ty->kind;
	ev.arg = trace_events_read_num(ty->field[F_ARG], r->data, -1);
	ev.arg2 = trace_events_read_num(ty->field[F_ARG2], r->data, -1);
	ev.ptr = trace_events_read_num(ty->field[F_PTR], r->data, 0);
	ev.val = trace_events_read_num(ty->field[F_VAL], r->data, 0);
	if (ty->kind == TLW_VEC)	/* local_timer_entry: the name is the event's */
		snprintf(ev.name, sizeof(ev.name), "%.*s", (int)(strlen(e->name) - 6), e->name);
	else
		trace_events_read_str(ty->str, r, ev.name, sizeof(ev.name));
	tlw_push(t->w, cpu, &ev);
	return 0;
}

int tlw_trace_drain(struct tlw_trace *t, struct tlw *w, struct noise_run *run)
{
	int ret;

	t->w = w;
	t->run = run;
	ret = trace_recorder_drain(&t->rec, on_event, t);
	run->missed_events = t->rec.ti.missed;
	return ret;
}

struct tlw_trace *tlw_trace_create(const cpu_set_t *cpus, int nr_cpus, long long buffer_kb,
				   const char **why)
{
	struct tlw_trace *t = calloc(1, sizeof(*t));
	int ret;

	*why = "out of memory";
	if (!t)
		return NULL;
	if (trace_recorder_open(&t->rec, INSTANCE_PREFIX, cpus, nr_cpus, systems, why))
		goto out_fail;
	if (trace_event_types_build(&t->types, t->rec.tep, rules, ARRAY_SIZE(rules))) {
		*why = geteuid() ? "reading trace events needs root" : "cannot read the event formats";
		goto out_fail;
	}
	if (tracefs_instance_file_write(t->rec.ti.tfs, "trace_clock", "mono") <= 0) {
		*why = "the kernel has no mono trace clock";
		goto out_fail;
	}
	ret = trace_recorder_setup(&t->rec, nr_cpus, buffer_kb > 0 ? buffer_kb : 4096, wanted,
				   ARRAY_SIZE(wanted), "timerlat sampler",
				   "what they would explain counts as unaccounted");
	if (ret < 0) {
		*why = "cannot configure the tracefs instance";
		goto out_fail;
	}
	debug_msg("timerlat sampler: instance %s", t->rec.ti.name);
	return t;

out_fail:
	tlw_trace_destroy(t);
	return NULL;
}

int tlw_trace_on(struct tlw_trace *t, bool on)
{
	trace_instance_set_on(&t->rec.ti, on);
	return 0;
}

int tlw_trace_on_fd(const struct tlw_trace *t)
{
	return t ? t->rec.ti.on_fd : -1;
}

void tlw_trace_destroy(struct tlw_trace *t)
{
	if (!t)
		return;
	trace_recorder_close(&t->rec);
	trace_event_types_free(&t->types);
	free(t);
}

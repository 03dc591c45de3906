/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timerlat's sampler backend: wake-up latency on kernels without the
 * timerlat tracer, measured as cyclictest measures it, and explained.
 *
 * One pinned thread per measured CPU (named timerlatu/N, SCHED_FIFO 95
 * unless -P) sleeps with clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)
 * to its next period boundary and records when it asked to wake and when
 * it read the clock again (sleeper.c). A private tracefs instance with the
 * "mono" trace clock (CLOCK_MONOTONIC, the sleepers' own) records on the
 * measured CPUs the timer, IRQ, softirq, NMI, scheduler and idle events
 * (sampler_events.c). why.c replays those events beside the wake-ups: it
 * pairs each thread's hrtimer_start with its hrtimer_expire_entry (the IRQ
 * latency) and splits every late wake-up into its parts and causes.
 * sampler.c ties it to the noise_backend ops.
 *
 * What the columns measure (and the man page says): Thread is the clock
 * read after clock_nanosleep() returned minus the time asked for, as
 * cyclictest reports (more than the tracer's Thread, which is taken in the
 * kernel before the return to user space, less than its Ret user); IRQ is
 * hrtimer_expire_entry's "now" minus the timer's expiry, taken before the
 * timer's callback runs (the tracer's IRQ is taken inside its own callback,
 * but the events recorded on the interrupt's way cost the sampler too).
 */
#ifndef RTLA_TIMERLAT_SAMPLER_H
#define RTLA_TIMERLAT_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "osnoise/osnoise.h"

struct json;

/* ---- the events why.c reads (sampler_events.c decodes them) ---- */

enum tlw_kind {
	TLW_IRQ,		/* irq:irq_handler_entry: arg irq, name */
	TLW_IRQ_EXIT,
	TLW_VEC,		/* irq_vectors:*_entry, ipi:ipi_entry: arg vector, name */
	TLW_VEC_EXIT,
	TLW_SOFTIRQ,		/* irq:softirq_entry: arg vec */
	TLW_SOFTIRQ_EXIT,
	TLW_NMI,		/* nmi:nmi_handler, at its end: val its ns */
	TLW_SWITCH,		/* sched:sched_switch: arg next_pid, arg2 prev_pid, name next_comm */
	TLW_WAKEUP,		/* sched:sched_wakeup(_new): arg pid */
	TLW_IDLE,		/* power:cpu_idle: arg the state, -1 on the way out */
	TLW_TIMER_START,	/* timer:hrtimer_start: ptr, val softexpires, arg2 common_pid */
	TLW_TIMER_EXPIRE,	/* timer:hrtimer_expire_entry: ptr, val now */
};

struct tlw_event {
	uint64_t ts;		/* ns, CLOCK_MONOTONIC */
	uint64_t ptr;		/* the hrtimer */
	uint64_t val;
	int32_t arg, arg2;
	uint16_t kind;
	char name[16];
};

/* ---- why.c: the replay and the explanations ---- */

/* What took a late wake-up's time, one kind per line of the analysis. */
enum tlw_cause {
	WHY_IDLE_EXIT,		/* the CPU was idle when the timer expired */
	WHY_IRQS_OFF,		/* a task ran on, the timer IRQ not taken: interrupts off in it */
	WHY_NMI,
	WHY_IRQ,		/* a device interrupt's handler: id the irq */
	WHY_VECTOR,		/* another vector or IPI: name */
	WHY_SOFTIRQ,		/* id the softirq */
	WHY_THREAD,		/* another thread ran first: id its pid, irq its IRQ for irq/N-x */
	WHY_OWN_IRQ,		/* the timer's own IRQ: the expected cost */
	WHY_OWN_PATH,		/* waking and switching to the thread and back to user space */
	WHY_UNACCOUNTED,	/* no event: interrupts or preemption off, SMI or hypervisor */
	WHY_KINDS,
};

#define TLW_CAUSES	10	/* causes kept per wake-up, the largest */
#define TLW_WORST	3	/* wake-ups kept per CPU, explained or not: the worst */
#define TLW_TOTALS	24	/* causes summed over the run per CPU (the rest: the last) */
#define TLW_UNKNOWN	UINT64_MAX

struct tlw_cause_ns {
	uint16_t kind;		/* enum tlw_cause */
	int32_t id;		/* irq, softirq vec or pid; -1 */
	int32_t irq;		/* WHY_THREAD: the IRQ an irq/N-name thread serves; -1 */
	char name[16];
	uint64_t ns;
};

/* One wake-up, its parts (TLW_UNKNOWN where an event was missing) and causes. */
struct tlw_why {
	int cpu;
	uint64_t seq;
	uint64_t target, latency;	/* ns: when it asked to wake, and how late it read the clock */
	uint64_t irq_latency;		/* hrtimer_expire_entry's now - expiry */
	uint64_t irq_to_wakeup;		/* to sched_wakeup of the thread */
	uint64_t wakeup_to_run;		/* to sched_switch to it */
	uint64_t run_to_user;		/* to its clock read */
	int ncauses;
	struct tlw_cause_ns cause[TLW_CAUSES];	/* largest first */
};

struct tlw_frame {		/* an interrupt context in progress */
	uint16_t kind;		/* TLW_IRQ, TLW_VEC or TLW_SOFTIRQ */
	int32_t id;
	char name[16];
	bool own;		/* our timer expired inside it */
	uint64_t acc;		/* ns of the open window spent in it */
};

#define TLW_DEPTH	6

struct tlw_cpu {
	int cpu;
	pid_t tid;		/* the CPU's sleeper */
	/* the events queued, time order */
	struct tlw_event *ev;
	size_t nev, cap, pos;
	uint64_t dropped;
	/* the CPU as replayed up to last_ts */
	uint64_t last_ts;
	bool known;		/* a sched_switch seen: cur_pid is true */
	int32_t cur_pid;
	char cur_comm[16];
	bool in_idle;		/* between cpu_idle(state) and cpu_idle(-1) */
	int depth;
	struct tlw_frame frame[TLW_DEPTH];
	/* the sleeper's timer, and the IRQ latencies of the expiries seen */
	uint64_t timer_ptr, timer_expires;
	uint64_t irq_expires, irq_now, irq_ts;	/* the last expiry of our timer */
	/* the window being explained */
	bool open;
	bool idle_at_start;	/* the CPU was in an idle state when the window opened */
	uint64_t win_start, win_end;
	uint64_t wake_ts, switch_ts;
	struct tlw_why cur;
	uint64_t acc[WHY_KINDS];	/* fixed kinds, and the named ones below */
	int nnamed;
	struct tlw_cause_ns named[16];
	/* kept: the worst wake-ups of the run, and totals */
	struct tlw_why worst[TLW_WORST];
	int nworst;
	uint64_t explained, explained_ns, unaccounted_ns;	/* over the thresholds */
	uint64_t wakeups, latency_ns, latency_unaccounted_ns;	/* every wake-up */
	/* every wake-up's causes summed, by cause (ns: the total, id: the kind's id) */
	struct tlw_cause_ns total[TLW_TOTALS];
	uint64_t total_count[TLW_TOTALS];	/* wake-ups each cause was part of */
	int ntotal;
};

struct tlw {
	int nr_cpus;
	struct tlw_cpu *cpu;		/* by CPU number; tid 0: not measured */
	uint64_t explain_ns;		/* log wake-ups at least this late (-T); 0: off */
	uint64_t explain_irq_ns;	/* and those with an IRQ latency at least this (-i) */
	/* the latest explained wake-ups of every CPU, for the saved trace */
	struct tlw_why *log;
	size_t nlog, log_cap;
};

int tlw_init(struct tlw *w, int nr_cpus);
void tlw_free(struct tlw *w);
/* Queue one event of CPU (time order per CPU); -ENOSPC when the queue is full. */
int tlw_push(struct tlw *w, int cpu, const struct tlw_event *ev);
/*
 * One wake-up of CPU's sleeper: it asked for TARGET and read WOKE (ns).
 * Replays the CPU's events up to WOKE; fills *IRQ_NS with the IRQ latency
 * of this expiry (TLW_UNKNOWN when no event paired) and, when the wake-up
 * is explained, *WHY (returns true).
 */
bool tlw_wake(struct tlw *w, int cpu, uint64_t seq, uint64_t target, uint64_t woke,
	      uint64_t *irq_ns, struct tlw_why *why);
/* Drop the events replayed (between drains). */
void tlw_compact(struct tlw *w);
/* Forget the explanations (warm-up). */
void tlw_reset(struct tlw *w);

const char *tlw_cause_name(int kind);
/* "stress-ng:1234", "irq 24 (eth0)", "softirq TIMER", ... */
void tlw_cause_label(const struct tlw_cause_ns *c, char *buf, size_t len);
/* The analysis of one wake-up, in the shape of the tracer's auto-analysis (after its title). */
void tlw_why_print(FILE *f, const struct tlw_why *y, bool nano);
void tlw_why_json(struct json *j, const struct tlw_why *y);
/* One cause as an object of the record (WAKEUPS: how many it delayed; 0 leaves it out). */
void tlw_cause_json(struct json *j, const struct tlw_cause_ns *c, uint64_t wakeups);

/* ---- sampler_events.c: the private instance ---- */

struct tlw_trace;

/* NULL with the one-line reason in *WHY when there is no tracefs to read. */
struct tlw_trace *tlw_trace_create(const cpu_set_t *cpus, int nr_cpus, long long buffer_kb,
				   const char **why);
int tlw_trace_on(struct tlw_trace *t, bool on);
/* tracing_on's fd, for the sleepers' stop (a write of "0" is signal-safe) */
int tlw_trace_on_fd(const struct tlw_trace *t);
/* Queue every recorded event into W; counts into RUN. */
int tlw_trace_drain(struct tlw_trace *t, struct tlw *w, struct noise_run *run);
void tlw_trace_destroy(struct tlw_trace *t);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sampler - the user-space noise backend, for kernels without the osnoise
 * tracer.
 *
 * One pinned spinner thread per measured CPU reads a clock in a tight loop
 * and records every gap of at least the threshold in a ring that only it
 * writes (sampler_spin.c). A private tracefs instance records irq,
 * irq_vectors, softirq, nmi and sched_switch events on the measured CPUs with
 * a trace clock of the spinner's own time domain (sampler_trace.c). Every
 * second the main thread drains both and attributes each gap to the events
 * inside it; a gap that no event explains is hardware noise
 * (sampler_attr.c). sampler.c ties this to the noise_backend ops.
 *
 * Time inside the sampler is in "ticks": TSC cycles, or CLOCK_MONOTONIC_RAW
 * nanoseconds where the TSC cannot be trusted. Only the edges (the table, the
 * saved trace) convert to us/ns.
 *
 * Limits of the method: the resolution is one loop iteration (~10 ns with
 * the TSC, ~25 ns through the vDSO), and every gap includes one. A gap with
 * any event inside is charged whole to the OS, hypervisor time in it
 * included; an unexplained gap is hardware or hypervisor noise, or kernel
 * work without a tracepoint (exception entry, page faults, the entry code
 * before the first tracepoint). A VM shows no SMIs or steal time, so HW
 * cannot be split further from inside it. Each traced event costs ~0.25 us.
 */
#ifndef RTLA_SAMPLER_H
#define RTLA_SAMPLER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "osnoise/osnoise.h"

#define SMP_CACHELINE	64
#define SMP_GAP_RING	(1u << 15)	/* gaps per CPU between two drains (1 s): one per 30 us */
#define SMP_TRACE_KEEP	16384		/* gaps kept for save_trace */
#define SMP_TREC_EV	4		/* explaining events kept per gap */
#define SMP_EVQ_MAX	(1u << 20)	/* events queued per CPU before dropping */

/* ---- clock: ticks and their conversion ---------------------------------- */

struct smp_clock {
	bool tsc;		/* ticks are TSC cycles; else CLOCK_MONOTONIC_RAW ns */
	double mhz;		/* TSC frequency (tsc only) */
	uint64_t mult;		/* ns = ticks * mult >> 32 */
	uint64_t base_ticks;	/* the first calibration pair */
	uint64_t base_ns;
	uint64_t ref_ticks;	/* the latest pair, for absolute times */
	uint64_t ref_ns;
};

uint64_t smp_clock_now(const struct smp_clock *ck);
int smp_clock_init(struct smp_clock *ck, bool want_tsc);
void smp_clock_refine(struct smp_clock *ck);
bool smp_tsc_usable(void);

static inline uint64_t smp_ticks_to_ns(const struct smp_clock *ck, uint64_t t)
{
	return ck->tsc ? (uint64_t)(((unsigned __int128)t * ck->mult) >> 32) : t;
}

/* Rounded up: a threshold in ticks never admits a gap shorter than asked. */
static inline uint64_t smp_ns_to_ticks(const struct smp_clock *ck, uint64_t ns)
{
	double t = (double)ns * ck->mhz / 1000.0;
	uint64_t ticks = (uint64_t)t;

	if (!ck->tsc)
		return ns;
	return ticks + ((double)ticks < t);
}

/* CLOCK_MONOTONIC_RAW ns of an absolute tick value (for the saved trace). */
uint64_t smp_ticks_to_raw_ns(const struct smp_clock *ck, uint64_t t);

/* ---- spinner side ---------------------------------------------------------- */

/* One gap: the spinner saw no time pass between start and start + len. */
struct smp_gap {
	uint64_t start;
	uint64_t len;
};

/* One completed period, as the spinner saw it (all in ticks). */
struct smp_prec {
	uint64_t start, end;
	uint64_t sum, max, gaps;		/* every gap >= threshold */
	uint64_t lost, lost_sum, lost_max;	/* gaps the full ring could not hold */
	uint64_t gap_end;			/* gap ring head when the period ended */
	uint64_t iters;				/* loop iterations, for ns/iteration */
};

enum smp_cmd {
	SMP_WAIT,	/* threads created, not measuring yet; also after a pause */
	SMP_RUN,
	SMP_EXIT,
};

/* What every spinner obeys; cmd is the only thing halt() touches. */
struct smp_ctl {
	_Atomic int cmd;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC: sleeps between periods */
	uint64_t thr;			/* gap threshold, ticks */
	uint64_t runtime;		/* ticks */
	uint64_t period_ns, runtime_ns;
	uint64_t chunk;			/* how often the loop looks at cmd, ticks */
	const struct smp_clock *clock;
	const struct sched_prio *prio;	/* -P, or NULL */
};

struct smp_spinner {
	int cpu;
	struct smp_ctl *ctl;
	pthread_t thread;
	bool created;
	_Atomic pid_t tid;		/* 0 until the thread is up; <0: -errno */
	_Atomic int waiting;		/* parked in SMP_WAIT */

	struct smp_gap *gap;		/* SMP_GAP_RING entries */
	struct smp_prec *prec;
	uint64_t prec_mask;

	/* written by the spinner, read by the collector */
	_Alignas(SMP_CACHELINE) _Atomic uint64_t gap_head;
	_Atomic uint64_t prec_head;
	_Atomic uint64_t prec_lost;	/* periods the full period ring dropped */
	_Atomic uint64_t backwards;	/* clock went backwards (should stay 0) */

	/* written by the collector, read by the spinner when its ring looks full */
	_Alignas(SMP_CACHELINE) _Atomic uint64_t gap_tail;
	_Atomic uint64_t prec_tail;

	/* the spinner's own, touched only on a gap or at a period's end */
	_Alignas(SMP_CACHELINE) struct smp_prec cur;
	uint64_t tail_seen;
};

int smp_spinner_start(struct smp_spinner *sp);
void smp_spinner_join(struct smp_spinner *sp);
/* One period of the spinner loop on the caller's thread, for bench/ */
int smp_spin_for(const struct smp_clock *ck, uint64_t ticks, uint64_t thr,
		 struct smp_prec *out);

/* ---- events and attribution ----------------------------------------------- */

enum smp_ev_kind {
	SMP_EV_IRQ,		/* irq:irq_handler_entry */
	SMP_EV_IRQ_EXIT,
	SMP_EV_VEC,		/* irq_vectors:*_entry, ipi:ipi_entry */
	SMP_EV_VEC_EXIT,
	SMP_EV_SOFTIRQ,
	SMP_EV_SOFTIRQ_EXIT,
	SMP_EV_NMI,		/* nmi:nmi_handler, at the end, with its length */
	SMP_EV_SWITCH,		/* sched:sched_switch */
};

enum smp_class {
	SMP_HW,
	SMP_NMI,
	SMP_IRQ,
	SMP_SOFTIRQ,
	SMP_THREAD,
	SMP_NR_CLASSES,
};

struct smp_event {
	uint64_t ts;		/* ticks */
	uint16_t kind;		/* enum smp_ev_kind */
	uint16_t type;		/* index into the tracefs side's name table */
	int32_t arg;		/* irq, vector, softirq vec, next pid, nmi: unused */
	int32_t arg2;		/* sched_switch: prev pid */
	uint32_t dur;		/* nmi: handler ns */
	char name[16];		/* next comm, irq name */
};

/* A gap with what explains it, kept for save_trace. */
struct smp_trec {
	uint64_t start, len;	/* ticks */
	int cpu;
	uint8_t class;
	uint8_t nev;		/* events inside (all of them, capped at 255) */
	struct smp_event ev[SMP_TREC_EV];
};

/* Per CPU totals over the whole run, for the summary line. */
struct smp_stats {
	uint64_t gaps, explained, lost;
	uint64_t time, explained_time, covered_time;	/* ticks */
	uint64_t iters, spin;	/* loop iterations and spinning ticks */
	uint64_t noise;		/* ticks of all gaps, stored or lost */
};

struct smp_acc {		/* the period the spinner is in */
	uint64_t hw, hw_sum, hw_max;	/* unexplained gaps */
	uint64_t nmi_sum, nmi_max;	/* gaps explained by NMIs alone */
};

struct smp_attr_cpu {
	int cpu;
	bool active;		/* a measured CPU */
	pid_t spinner;		/* the spinner's tid: switches to it end thread noise */
	struct smp_event *ev;	/* queued events, ts order */
	size_t nev, cap;
	size_t cursor;		/* first event a later gap may contain */
	size_t pdone;		/* first event of the period in progress */
	uint64_t dropped;	/* events the full queue refused */
	struct smp_acc acc;
	struct smp_stats st;
};

struct smp_cfg {
	bool irq_disabled;	/* hwnoise: only gaps no OS event explains are noise */
	bool attribution;	/* events are recorded at all */
	bool rt_kernel;		/* PREEMPT_RT: softirqs run in threads, count none */
	uint64_t stop_ticks;	/* -s: a gap longer than this stops; 0: off */
	long long stop_us;
	long long stop_total_us;	/* -S */
};

struct smp_stop {
	bool hit;
	int cpu;
	long long value_us;
	const char *reason;
	uint64_t at;		/* ticks: nothing after this counts */
};

struct smp_attr {
	struct smp_cfg cfg;
	const struct smp_clock *clock;
	struct smp_attr_cpu *cpu;	/* indexed by CPU number */
	int nr_cpus;
	struct smp_trec *keep;		/* ring of SMP_TRACE_KEEP */
	uint64_t nkeep;
	struct smp_stop stop;
	const char **type_names;	/* struct smp_event.type -> "local_timer_entry" */
	int nr_types;
};

int smp_attr_init(struct smp_attr *a, int nr_cpus, const cpu_set_t *cpus,
		  const struct smp_clock *ck, const struct smp_cfg *cfg);
void smp_attr_free(struct smp_attr *a);
int smp_attr_push(struct smp_attr *a, int cpu, const struct smp_event *ev);
/* Classify one gap; returns its ns when it counts as noise of this run, else 0. */
uint64_t smp_attr_gap(struct smp_attr *a, struct smp_attr_cpu *c, const struct smp_gap *g);
bool smp_attr_period(struct smp_attr *a, struct smp_attr_cpu *c,
		     const struct smp_prec *r, struct noise_period *out);
void smp_attr_compact(struct smp_attr_cpu *c);
void smp_attr_reset(struct smp_attr *a);
int smp_attr_save(const struct smp_attr *a, FILE *f);
void smp_attr_summary(const struct smp_attr *a, FILE *f, const char *prefix);
const char *smp_class_name(int class);

/* ---- the private tracefs instance ------------------------------------------ */

struct smp_trace;

/*
 * Create and configure the instance; NULL with a one-line warning when the
 * sampler has to measure without attribution (no root, no tracefs...).
 */
struct smp_trace *smp_trace_create(const cpu_set_t *cpus, int nr_cpus,
				   const struct smp_clock *ck, long long buffer_kb);
int smp_trace_on(struct smp_trace *t);
void smp_trace_off(struct smp_trace *t);
/* Move every recorded event into a's per-CPU queues; counts into run. */
int smp_trace_drain(struct smp_trace *t, struct smp_attr *a, struct noise_run *run);
void smp_trace_destroy(struct smp_trace *t);
const char *smp_trace_clock(const struct smp_trace *t);

#endif

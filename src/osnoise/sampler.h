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
#include "util.h"

#define SAMPLER_CACHELINE	64
/*
 * Gaps per CPU between two drains: 32 KiB per measured CPU. The collector
 * looks at the rings again after a slice in which the last drain's busiest
 * CPU made SAMPLER_SLICE_GAPS gaps (1 s on a quiet machine, down to 10 ms),
 * and drains a ring found half full at once: a ring holds what a slice and a
 * burst produce, not what a second of heavy noise does. A burst far above
 * the last drain's rate would fill the ring within a slice: a spinner whose
 * ring is half full wakes the collector (ctl.kick_fd), which then has 1,024
 * gaps' time to come: 80 ms at 13,000 gaps a second, what a 2-CPU CI runner
 * showed (half that ring lost gaps there). A gap the full ring cannot hold is
 * still counted, summed and maxed; only its attribution is lost, and a gate
 * fails on it.
 */
#define SAMPLER_GAP_RING	(1u << 11)
#define SAMPLER_SLICE_GAPS	(SAMPLER_GAP_RING / 16)
#define SAMPLER_SLICE_MIN_MS	10
#define SAMPLER_SLICE_MAX_MS	1000
#define SAMPLER_TRACE_KEEP	16384		/* gaps kept for save_trace: 3 MiB */
#define SAMPLER_TRACE_REC_EV	4		/* explaining events kept per gap */
#define SAMPLER_EVQ_FIRST	256u		/* a CPU's first queue of events */
#define SAMPLER_EVQ_MAX	(1u << 20)	/* events queued per CPU before dropping */

/* ---- clock: ticks and their conversion ---------------------------------- */

struct sampler_clock {
	bool tsc;		/* ticks are TSC cycles; else CLOCK_MONOTONIC_RAW ns */
	double mhz;		/* TSC frequency (tsc only) */
	uint64_t mult;		/* ns = ticks * mult >> 32 */
	uint64_t base_ticks;	/* the first calibration pair */
	uint64_t base_ns;
	uint64_t ref_ticks;	/* the latest pair, for absolute times */
	uint64_t ref_ns;
};

uint64_t sampler_clock_now(const struct sampler_clock *ck);
int sampler_clock_init(struct sampler_clock *ck, bool want_tsc);
void sampler_clock_refine(struct sampler_clock *ck);
bool sampler_tsc_usable(void);

static inline uint64_t sampler_ticks_to_ns(const struct sampler_clock *ck, uint64_t t)
{
	return ck->tsc ? mul_div_u64(t, ck->mult, 1ull << 32) : t;
}

/* Rounded up: a threshold in ticks never admits a gap shorter than asked. */
static inline uint64_t sampler_ns_to_ticks(const struct sampler_clock *ck, uint64_t ns)
{
	double t = (double)ns * ck->mhz / 1000.0;
	uint64_t ticks = (uint64_t)t;

	if (!ck->tsc)
		return ns;
	return ticks + ((double)ticks < t);
}

/* CLOCK_MONOTONIC_RAW ns of an absolute tick value (for the saved trace). */
uint64_t sampler_ticks_to_raw_ns(const struct sampler_clock *ck, uint64_t t);

/* ---- spinner side ---------------------------------------------------------- */

/* One gap: the spinner saw no time pass between start and start + len. */
struct sampler_gap {
	uint64_t start;
	uint64_t len;
};

/* One completed period, as the spinner saw it (all in ticks). */
struct sampler_period_rec {
	uint64_t start, end;
	uint64_t sum, max, gaps;		/* every gap >= threshold */
	uint64_t lost, lost_sum, lost_max;	/* gaps the full ring could not hold */
	uint64_t gap_end;			/* gap ring head when the period ended */
	uint64_t iters;				/* loop iterations, for ns/iteration */
};

enum sampler_cmd {
	SAMPLER_WAIT,	/* threads created, not measuring yet; also after a pause */
	SAMPLER_RUN,
	SAMPLER_EXIT,
};

/* What every spinner obeys; cmd is the only thing halt() touches. */
struct sampler_ctl {
	_Atomic int cmd;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* CLOCK_MONOTONIC: sleeps between periods */
	uint64_t thr;			/* gap threshold, ticks */
	uint64_t runtime;		/* ticks */
	uint64_t period_ns, runtime_ns;
	uint64_t chunk;			/* how often the loop looks at cmd, ticks */
	const struct sampler_clock *clock;
	const struct sched_prio *prio;	/* -P, or NULL */
	int kick_fd;			/* eventfd a spinner wakes the collector with; -1: none */
};

struct sampler_spinner {
	int cpu;
	struct sampler_ctl *ctl;
	pthread_t thread;
	bool created;
	_Atomic pid_t tid;		/* 0 until the thread is up; <0: -errno */
	_Atomic int waiting;		/* parked in SAMPLER_WAIT */

	struct sampler_gap *gap;		/* SAMPLER_GAP_RING entries */
	struct sampler_period_rec *period_ring;
	uint64_t period_mask;

	/* written by the spinner, read by the collector */
	_Alignas(SAMPLER_CACHELINE) _Atomic uint64_t gap_head;
	_Atomic uint64_t period_head;
	_Atomic uint64_t periods_lost;	/* periods the full period ring dropped */
	_Atomic uint64_t backwards;	/* clock went backwards (should stay 0) */

	/* written by the collector, read by the spinner when its ring looks full */
	_Alignas(SAMPLER_CACHELINE) _Atomic uint64_t gap_tail;
	_Atomic uint64_t period_tail;

	/* the spinner's own, touched only on a gap or at a period's end */
	_Alignas(SAMPLER_CACHELINE) struct sampler_period_rec cur;
	uint64_t tail_seen;
};

int sampler_spinner_start(struct sampler_spinner *sp);
void sampler_spinner_join(struct sampler_spinner *sp);
/* A gap of the spinner SP (PREV to NOW): counted, ringed, maybe a wake-up */
bool sampler_record_gap(struct sampler_spinner *sp, uint64_t prev, uint64_t now);
/* One period of the spinner loop on the caller's thread, for bench/ */
int sampler_spin_for(const struct sampler_clock *ck, uint64_t ticks, uint64_t thr,
		 struct sampler_period_rec *out);

/* ---- events and attribution ----------------------------------------------- */

enum sampler_ev_kind {
	SAMPLER_EV_IRQ,		/* irq:irq_handler_entry */
	SAMPLER_EV_IRQ_EXIT,
	SAMPLER_EV_VEC,		/* irq_vectors:*_entry, ipi:ipi_entry */
	SAMPLER_EV_VEC_EXIT,
	SAMPLER_EV_SOFTIRQ,
	SAMPLER_EV_SOFTIRQ_EXIT,
	SAMPLER_EV_NMI,		/* nmi:nmi_handler, at the end, with its length */
	SAMPLER_EV_SWITCH,		/* sched:sched_switch */
};

enum sampler_class {
	SAMPLER_HW,
	SAMPLER_NMI,
	SAMPLER_IRQ,
	SAMPLER_SOFTIRQ,
	SAMPLER_THREAD,
	SAMPLER_NR_CLASSES,
};

struct sampler_event {
	uint64_t ts;		/* ticks */
	uint16_t kind;		/* enum sampler_ev_kind */
	uint16_t type;		/* index into the tracefs side's name table */
	int32_t arg;		/* irq, vector, softirq vec, next pid, nmi: unused */
	int32_t arg2;		/* sched_switch: prev pid */
	uint32_t dur;		/* nmi: handler ns */
};

/* next comm, irq name: queued beside the events only when gaps are kept */
#define SAMPLER_NAME_LEN 16

/* A gap with what explains it, kept for save_trace. */
struct sampler_trace_rec {
	uint64_t start, len;	/* ticks */
	int cpu;
	uint8_t class;
	uint8_t nev;		/* events inside (all of them, capped at 255) */
	struct sampler_event ev[SAMPLER_TRACE_REC_EV];
	char name[SAMPLER_TRACE_REC_EV][SAMPLER_NAME_LEN];
};

/* Per CPU totals over the whole run, for the summary line. */
struct sampler_stats {
	uint64_t gaps, explained, lost;
	uint64_t time, explained_time, covered_time;	/* ticks */
	uint64_t iters, spin;	/* loop iterations and spinning ticks */
	uint64_t noise;		/* ticks of all gaps, stored or lost */
};

struct sampler_acc {		/* the period the spinner is in */
	uint64_t hw, hw_sum, hw_max;	/* unexplained gaps */
	uint64_t nmi_sum, nmi_max;	/* gaps explained by NMIs alone */
	uint64_t irq, softirq, nmi, thread;	/* events counted and let go (compact) */
};

struct sampler_attr_cpu {
	int cpu;
	bool active;		/* a measured CPU */
	pid_t spinner;		/* the spinner's tid: switches to it end thread noise */
	struct sampler_event *ev;	/* queued events, ts order */
	size_t nev, cap;
	char (*name)[SAMPLER_NAME_LEN];	/* their names, when gaps are kept */
	size_t name_cap;
	size_t cursor;		/* first event a later gap may contain */
	size_t pdone;		/* first event of the period in progress */
	uint64_t last_end;	/* the last closed period's end, ticks; 0: none yet */
	uint64_t dropped;	/* events the full queue refused */
	struct sampler_acc acc;
	struct sampler_stats st;
};

struct sampler_cfg {
	bool irq_disabled;	/* hwnoise: only gaps no OS event explains are noise */
	bool attribution;	/* events are recorded at all */
	bool rt_kernel;		/* PREEMPT_RT: softirqs run in threads, count none */
	bool keep_trace;	/* a trace action may ask for save_trace: keep the gaps */
	bool back_to_back;	/* runtime == period: a period starts where the last ended */
	uint64_t stop_ticks;	/* -s: a gap longer than this stops; 0: off */
	long long stop_us;
	long long stop_total_us;	/* -S */
};

struct sampler_stop {
	bool hit;
	int cpu;
	long long value_us;
	const char *reason;
	uint64_t at;		/* ticks: nothing after this counts */
};

struct sampler_attr {
	struct sampler_cfg cfg;
	const struct sampler_clock *clock;
	struct sampler_attr_cpu *cpu;	/* indexed by CPU number */
	int nr_cpus;
	struct sampler_trace_rec *keep;		/* ring of SAMPLER_TRACE_KEEP; NULL: none asked */
	uint64_t nkeep;
	struct sampler_stop stop;
	const char **type_names;	/* struct sampler_event.type -> "local_timer_entry" */
	int nr_types;
};

int sampler_attr_init(struct sampler_attr *a, int nr_cpus, const cpu_set_t *cpus,
		  const struct sampler_clock *ck, const struct sampler_cfg *cfg);
void sampler_attr_free(struct sampler_attr *a);
int sampler_attr_push(struct sampler_attr *a, int cpu, const struct sampler_event *ev,
		      const char *name);
/* Classify one gap; returns its ns when it counts as noise of this run, else 0. */
uint64_t sampler_attr_gap(struct sampler_attr *a, struct sampler_attr_cpu *c,
			  const struct sampler_gap *g);
bool sampler_attr_period(struct sampler_attr *a, struct sampler_attr_cpu *c,
		     const struct sampler_period_rec *r, struct noise_period *out);
void sampler_attr_compact(const struct sampler_attr *a, struct sampler_attr_cpu *c);
void sampler_attr_reset(struct sampler_attr *a);
int sampler_attr_save(const struct sampler_attr *a, FILE *f);
void sampler_attr_summary(const struct sampler_attr *a, FILE *f, const char *prefix);
const char *sampler_class_name(int class);

/* ---- the private tracefs instance ------------------------------------------ */

struct sampler_trace;

/*
 * Create and configure the instance; NULL with a one-line warning when the
 * sampler has to measure without attribution (no root, no tracefs...).
 */
struct sampler_trace *sampler_trace_create(const cpu_set_t *cpus, int nr_cpus,
				   const struct sampler_clock *ck, long long buffer_kb);
int sampler_trace_on(struct sampler_trace *t);
void sampler_trace_off(struct sampler_trace *t);
/* Move every recorded event into a's per-CPU queues; counts into run. */
int sampler_trace_drain(struct sampler_trace *t, struct sampler_attr *a, struct noise_run *run);
void sampler_trace_destroy(struct sampler_trace *t);
const char *sampler_trace_clock(const struct sampler_trace *t);

#endif

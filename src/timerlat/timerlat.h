/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * timerlat - `rtla timerlat [top]` and `rtla timerlat hist`: how late a
 * thread runs after its timer fired, as the kernel's timerlat tracer
 * measures it, a tool pair of the noise family (src/osnoise/osnoise.h).
 *
 * The family gives it its run (driver.c), options parser, record, gate
 * and actions; the tracer backend (tracer.c) runs the timerlat tracer in
 * its instance and hands each of the tracer's ftrace:timerlat records to
 * the tool's sink as a latency of a context (IRQ, thread, user return).
 * What only timerlat needs is here:
 *   timerlat.c  the command, its options and the two tool rows;
 *   top.c       the sink both tools share, top's table and its record;
 *   hist.c      hist's histogram and its record;
 *   kernel.c    what the backend does for timerlat: the user-space
 *               workers (timerlatu/N), --dma-latency, --deepest-idle-state,
 *               the stop condition and the analysis of a stop;
 *   aa.c        the analysis itself, fed event by event (aa_events.c
 *               reads the events from an instance).
 */
#ifndef RTLA_TIMERLAT_H
#define RTLA_TIMERLAT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "osnoise/osnoise.h"
#include "trace_instance.h"

struct ledger;
struct tep_handle;

#define TIMERLAT_PERIOD_US	1000LL		/* the kernel's default */
#define TIMERLAT_PERIOD_MAX_US	1000000LL	/* upstream: "Period longer than 1 s" */

/* One context's latencies on one CPU: ns (hist: in the display unit, as upstream sums them). */
struct timerlat_stats {
	uint64_t count, cur, min, max, sum;
	/* the tracer's activation numbers of the first and last latency (the record's seq_first/last) */
	uint64_t seq_first, seq_last;
};

struct timerlat_cpu {
	struct timerlat_stats ctx[TL_CONTEXTS];
	/* hist: entries + 1 buckets in the display unit, the last one "over" */
	uint64_t *bucket[TL_CONTEXTS];
};

/* The sink of both tools (run->latency). */
struct timerlat_data {
	struct timerlat_cpu *cpu;	/* params->nr_cpus entries */
	/*
	 * hist: every latency counted by whole us, for the exact percentiles:
	 * osnoise hist's map, 16 bytes a distinct value (latencies cluster)
	 */
	struct noise_hist *per_us[TL_CONTEXTS];
	bool hist;
	uint64_t divisor;		/* 1000 (us), or 1 with -n */
	bool sampled;			/* the sampler backend's: not the tracer's quantities */
	bool no_irq;			/* the sampler without trace events: no IRQ latencies */
};

/* "irq", "thread", "user": the contexts in the record, the stop reasons, the metrics */
extern const char *const timerlat_context_names[TL_CONTEXTS];

/* top.c: the sink, top's table, the record's per-CPU part, the gate's figures */
int timerlat_sink_new(struct noise_run *run);
void timerlat_add_latency(struct noise_run *run, int cpu, enum timerlat_context context,
			  uint64_t seq, uint64_t ns);
void timerlat_sink_free(struct noise_run *run);
/* The sampler backend measures: its header, and the IRQ column only with IRQ_KNOWN. */
void timerlat_sink_sampled(struct noise_run *run, bool irq_known);
void timerlat_top_print(FILE *f, const struct noise_run *run, time_t now);
void timerlat_top_print_final(FILE *f, const struct noise_run *run, time_t now);
void timerlat_top_json(struct json *j, const struct noise_run *run);
void timerlat_gate_figures(const struct noise_run *run, int cpu, struct gate_figures *f);
/* Does the table show CPU: measured, with an IRQ or a thread latency (upstream's rule)? */
bool timerlat_cpu_shown(const struct noise_run *run, int cpu);
/* The shown CPUs' latencies together, per context: the ALL rows of top and hist. */
void timerlat_sum_cpus(const struct noise_run *run, struct timerlat_stats all[TL_CONTEXTS]);
/* The latency by whole us at rank PER_10000 / 10000 (nearest rank) of CPU's CONTEXT. */
uint64_t timerlat_percentile_us(const struct timerlat_data *d, int cpu,
				enum timerlat_context context, unsigned per_10000);
/* hist.c */
void timerlat_hist_print(FILE *f, const struct noise_run *run, time_t now);
void timerlat_hist_json(struct json *j, const struct noise_run *run);

/* ---- kernel.c: what the tracer backend does for timerlat ---- */

struct timerlat_aa;

struct timerlat_kernel {
	/* --deepest-idle-state: cpuidle/stateN/disable of the measured CPUs, borrowed */
	char **idle_paths;
	int *idle_ids;
	int nr_idle;
	/* -u: rtla's timerlatu/N processes */
	pid_t *workers;
	int nr_workers;
	int dma_fd;			/* --dma-latency: the open request, or -1 */
	/* the analysis: its instance (or the main one with --aa-only) and what it found */
	struct trace_instance aa_instance;
	struct trace_instance *aa_source;
	struct tep_handle *aa_tep;
	struct timerlat_aa *aa;
	/* the last latency over a stop condition, as the records show it */
	int stop_cpu;
	enum timerlat_context stop_context;
	uint64_t stop_ns;
};

/* Before anything else: nothing to give back yet. */
void timerlat_kernel_prepare(struct timerlat_kernel *k);
/* The kernel can run what P asks (timerlat_fd for -u and -U); resolves the default workload. */
int timerlat_check_kernel(struct noise_params *p);
/* Which cpuidle states --deepest-idle-state turns off, for the ledger to borrow. */
int timerlat_kernel_init(struct timerlat_kernel *k, const struct noise_params *p);
/* Turn them off through the ledger. */
int timerlat_idle_disable(struct timerlat_kernel *k, struct ledger *l);
/* The workers, -P and -C on the threads, then the DMA latency request (tracing on). */
int timerlat_kernel_start(struct timerlat_kernel *k, const struct noise_params *p);
/* Does P ask for the analysis of a stop (-i, -T, -a or --aa-only, and no --no-aa)? */
bool timerlat_wants_analysis(const struct noise_params *p);
/* Enable in INST what the analysis reads. */
int timerlat_analysis_prepare(struct timerlat_kernel *k, const struct noise_params *p,
			      struct trace_instance *inst);
/* A latency of CPU in CONTEXT: is it one the kernel stops at? */
void timerlat_note_stop(struct timerlat_kernel *k, const struct noise_params *p, int cpu,
			uint64_t context, uint64_t ns);
/* The kernel stopped: which condition, where, and the analysis of it. */
void timerlat_stopped(struct timerlat_kernel *k, struct noise_run *run, struct tep_handle *tep);
int timerlat_rearm(struct timerlat_kernel *k, const struct noise_params *p);
/* The workers ended and reaped, the DMA request dropped. */
void timerlat_kernel_stop(struct timerlat_kernel *k);
void timerlat_kernel_free(struct timerlat_kernel *k);

/* --dma-latency: the PM QoS request, held while the returned fd is open (or -errno, said) */
int timerlat_dma_latency_open(long long us);

/* ---- sampler.c: the backend for kernels without the tracer (sampler.h) ---- */

/* Did the sampler backend measure RUN? */
bool timerlat_sampler_run(const struct noise_run *run);
/* Why the wake-up that stopped the run was late (the tracer's auto-analysis' place). */
void timerlat_sampler_print_analysis(FILE *f, const struct noise_run *run);
/* "explained", "analysis" and per CPU the worst wake-ups with their causes. */
void timerlat_sampler_json(struct json *j, const struct noise_run *run);

/* The analysis' report (run->analysis), for the tool rows. */
void timerlat_print_analysis(FILE *f, const struct noise_run *run);
void timerlat_analysis_json(struct json *j, const struct noise_run *run);

#endif

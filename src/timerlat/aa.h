/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aa - timerlat's auto-analysis: why the activation that stopped the
 * tracer was late, from the last events of the CPU that hit the stop.
 *
 * The analysis is a per-CPU state machine fed one event at a time: the
 * tracer's own ftrace:timerlat samples, the osnoise:*_noise events (net
 * durations of NMIs, IRQs, softirqs and threads), ftrace:kernel_stack
 * (print_stack), and with --dump-tasks sched_switch and
 * workqueue_execute_start. Only the last activation of each CPU is kept,
 * so the memory does not grow with the length of the run. The report is
 * upstream rtla's, byte for byte (6.12; --stack-format is 7.1's).
 *
 * aa.c holds the analysis and knows nothing of tracefs, so that the unit
 * tests replay recorded streams; aa_events.c feeds it from an instance.
 */
#ifndef RTLA_TIMERLAT_AA_H
#define RTLA_TIMERLAT_AA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "osnoise/osnoise.h"	/* enum timerlat_stack_format, --stack-format's */

struct json;
struct timerlat_aa;
struct tep_handle;
struct tracefs_instance;


/* Frames kept of a kernel_stack event (7.1 reads at most 64). */
#define TIMERLAT_AA_MAX_FRAMES 64

/*
 * An analysis of NR_CPUS CPUs (upstream sizes it by every configured CPU,
 * monitored or not: the "Printing CPU tasks" list shows them all).
 * NULL with errno set.
 */
struct timerlat_aa *timerlat_aa_new(int nr_cpus, bool dump_tasks);
void timerlat_aa_free(struct timerlat_aa *aa);

/*
 * The events, in the order of the CPU's buffer. TS is the record's
 * timestamp and START an event's own start, both in ns of the trace clock;
 * DURATION in ns. Events of a CPU outside 0..nr_cpus-1 are ignored.
 */

/* ftrace:timerlat. PID: common_pid (the task the timer IRQ interrupted); CONTEXT 0 is the IRQ. */
void timerlat_aa_timerlat(struct timerlat_aa *aa, int cpu, uint64_t ts, int pid,
			  uint64_t seqnum, int context, uint64_t latency_ns);
/* osnoise:nmi_noise */
void timerlat_aa_nmi(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration);
/* osnoise:irq_noise; DESC NULL prints "(null)", as glibc prints upstream's */
void timerlat_aa_irq(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
		     const char *desc, int vector);
/* osnoise:softirq_noise */
void timerlat_aa_softirq(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
			 int vector);
/* osnoise:thread_noise. PID: common_pid; COMM NULL reads as "<...>" */
void timerlat_aa_thread(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
			const char *comm, int pid);
/*
 * ftrace:kernel_stack: N return addresses (at most TIMERLAT_AA_MAX_FRAMES
 * are kept) and their function names, NAMES[i] NULL where no symbol covers
 * ADDRS[i]. NAMES NULL: not looked up yet (timerlat_aa_resolve()).
 */
void timerlat_aa_stack(struct timerlat_aa *aa, int cpu, const uint64_t *addrs,
		       const char *const *names, int n);
/* sched:sched_switch (kept only with dump_tasks) */
void timerlat_aa_switch(struct timerlat_aa *aa, int cpu, int next_pid, const char *next_comm);
/*
 * workqueue:workqueue_execute_start (kept only with dump_tasks): the work
 * item and its function, addresses and names as for stacks.
 */
void timerlat_aa_work(struct timerlat_aa *aa, int cpu, uint64_t work, uint64_t function,
		      const char *work_name, const char *function_name);

/*
 * Name the addresses that were fed without names: LOOKUP is called once
 * per such address still kept (and not at all when there is none), and
 * returns NULL for an address no symbol covers.
 */
typedef const char *(*timerlat_aa_lookup_fn)(void *ctx, uint64_t addr);
void timerlat_aa_resolve(struct timerlat_aa *aa, timerlat_aa_lookup_fn lookup, void *ctx);

/*
 * Upstream's report, for every CPU whose last IRQ latency is >= IRQ_US
 * or whose last thread latency is >= THREAD_US (0: that condition off),
 * then the largest IRQ latency from idle and, with dump_tasks, the task
 * each CPU ran last.
 */
void timerlat_aa_print(const struct timerlat_aa *aa, FILE *f, long long irq_us,
		       long long thread_us, enum timerlat_stack_format fmt);
/*
 * The same as data, in the record's current object: "analysis" (an array,
 * one object per CPU reported, figures in ns), "max_irq_latency_from_idle"
 * (an object, or null) and, with dump_tasks, "cpu_tasks".
 */
void timerlat_aa_json(const struct timerlat_aa *aa, struct json *j, long long irq_us,
		      long long thread_us);

/* The figures of one CPU, for the callers that decide on them (and the tests). */
struct timerlat_aa_cpu_summary {
	bool irq_case;			/* the IRQ sample is newer than the thread's */
	uint64_t irq_latency_ns, thread_latency_ns;
	uint64_t max_exit_idle_ns;	/* largest IRQ latency from idle so far */
};
/* 0, or -EINVAL for a CPU out of range. */
int timerlat_aa_cpu(const struct timerlat_aa *aa, int cpu, struct timerlat_aa_cpu_summary *s);

/* aa_events.c: the analysis fed from a tracefs instance. */

/* Enable in INST the events the analysis reads (the tracer's own come with it); 0 or -errno. */
int timerlat_aa_enable_events(struct tracefs_instance *inst, bool dump_tasks);
/* Parse their formats into TEP (ftrace:timerlat is needed; the rest if present); 0 or -errno. */
int timerlat_aa_load_events(struct tep_handle *tep, bool dump_tasks);

struct tep_event;
struct tep_record;
struct timerlat_aa_reader;
/* The events and fields of TEP the analysis reads; NULL (errno ENOENT) without ftrace:timerlat. */
struct timerlat_aa_reader *timerlat_aa_reader_new(struct tep_handle *tep);
void timerlat_aa_reader_free(struct timerlat_aa_reader *r);
/* Feed one record to AA: 1 when it is an event the analysis reads, else 0. */
int timerlat_aa_reader_feed(struct timerlat_aa_reader *r, struct timerlat_aa *aa,
			    struct tep_event *event, struct tep_record *record);
/*
 * Name what AA holds from the kernel symbols, read into TEP from
 * /proc/kallsyms on the first address to name (several MB: only a run
 * that shows a stack or a kworker pays for it). 0 or -errno.
 */
int timerlat_aa_reader_resolve(struct timerlat_aa_reader *r, struct timerlat_aa *aa);

/*
 * Drain INST's buffers (after the stop) into AA and name its addresses:
 * the number of records read, or -errno.
 */
int timerlat_aa_collect(struct timerlat_aa *aa, struct tep_handle *tep,
			struct tracefs_instance *inst);

#endif

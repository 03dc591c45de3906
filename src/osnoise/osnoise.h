/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * osnoise - shared types of the noise family: `rtla osnoise top`, `rtla
 * osnoise hist`, `rtla hwnoise`, `rtla hwnoise hist`, and `rtla timerlat
 * top|hist` (src/timerlat/: the timerlat tracer's latencies, through the
 * add_latency sink, on the same tracer backend, driver, gate and record).
 *
 * The family is tool x backend. A tool (struct noise_tool, one row each) is
 * a name, its options, its defaults, a sink for what is measured and its
 * printers. A backend (struct noise_backend: the kernel osnoise tracer, or
 * the user-space sampler for kernels without it) measures and knows nothing
 * of tools. One run is: parse the options into noise_params, pick a
 * backend, and let noise_run_tool() drive it through its ops while the
 * backend hands periods (and samples, when the tool wants them) to the
 * tool's sink; at the end the tool prints what its sink holds.
 *
 * Where each part is: osnoise_cmd.c the osnoise command and its verbs;
 * driver.c the run (noise_cmd_run(), the loop, signals, the hand-over);
 * options.c the option lists and their parser; top.c and hist.c a tool
 * each (sink, printers, usage, row); src/hwnoise/ hwnoise's specs and
 * rows; src/timerlat/ timerlat's; options.h the option rows the tools
 * share; record.c the JSON record; gate.c and gate_out.c --fail-if with
 * its JUnit and Prometheus files; actions.c the actions; tracer.c and
 * tracer_hist.c (with knobs.c, threads.c) and sampler*.c the backends;
 * tui.c the live view.
 */
#ifndef RTLA_OSNOISE_H
#define RTLA_OSNOISE_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "cli.h"
#include "parse.h"
#include "series.h"
#include "osnoise/gate.h"
#include "smi.h"

/* The kernel tracer a tool drives (and names in its messages). */
enum noise_tracer {
	TRACER_OSNOISE,
	TRACER_TIMERLAT,
	TRACER_HWLAT,		/* src/hwlat/: its own backend, the kernel tracer alone */
};

/* "osnoise", "timerlat", "hwlat": the tracer's name in messages */
const char *noise_tracer_name(enum noise_tracer tracer);

/* timerlat: where a latency was taken (the tracer's context field). */
enum timerlat_context {
	TL_IRQ,		/* the timer's hard IRQ */
	TL_THREAD,	/* the woken thread, in the kernel */
	TL_USER,	/* back in user space, at the next read of timerlat_fd */
	TL_CONTEXTS,
};

/* timerlat: which threads wait for the timer. */
enum timerlat_workload {
	TL_WORKLOAD_AUTO,	/* rtla's user threads where the kernel has timerlat_fd */
	TL_WORKLOAD_KERNEL,	/* -k: the kernel's timerlat/N threads */
	TL_WORKLOAD_USER,	/* -u: rtla's timerlatu/N processes */
	TL_WORKLOAD_USER_LOAD,	/* -U: someone else's, reading timerlat_fd */
};

/* timerlat's --stack-format: what the analysis does with an address no symbol names */
enum timerlat_stack_format {
	STACK_TRUNCATE,		/* stop the stack there (upstream's default) */
	STACK_SKIP,		/* leave it out, go on */
	STACK_FULL,		/* print it as an address */
};
/* their names, as --stack-format and the record say them (src/timerlat/timerlat.c) */
extern const char *const timerlat_stack_formats[3];

enum noise_backend_kind {
	BACKEND_AUTO,
	BACKEND_TRACER,
	BACKEND_SAMPLER,
};

/* -e sys[:event] with its --filter/--trigger, for the trace instance. */
struct noise_event {
	char *system;
	char *event;		/* NULL: the whole system */
	char *filter;
	char *trigger;
	struct noise_event *next;
};

enum action_type {
	ACTION_TRACE,		/* save the trace to file */
	ACTION_SIGNAL,		/* kill(pid, signal) */
	ACTION_SHELL,		/* system(command) */
	ACTION_CONTINUE,	/* re-arm and keep measuring (threshold only) */
};

struct action {
	enum action_type type;
	char *file;		/* ACTION_TRACE */
	int signal;		/* ACTION_SIGNAL */
	int pid;		/* ACTION_SIGNAL; -1: the parent of rtla */
	char *command;		/* ACTION_SHELL */
};

struct action_list {
	struct action *items;
	int len;
	bool has_continue;
	bool has_trace;
	const char *default_file;	/* "trace" without file=; NULL: ACTION_DEFAULT_TRACE_FILE */
};

struct noise_params {
	bool irq_disabled;		/* the tool's: IRQs off, only hardware and NMI noise */
	enum noise_backend_kind backend;
	int nr_cpus;			/* configured CPUs (get_nprocs_conf) */

	long long runtime_us;		/* 0: default (both 1 s; hwnoise 750 ms of 1 s) */
	long long period_us;
	long long stop_us;		/* -s: single sample */
	long long stop_total_us;	/* -S: total noise of one period */
	long long threshold_us;		/* -T: 0 lets the kernel choose (1 us) */

	const char *cpus_str;		/* -c as given, written to osnoise/cpus */
	char *cpus_kw;			/* -c WORD (cpuspec.h): its list, for osnoise/cpus */
	cpu_set_t cpus;			/* measured CPUs (all when -c absent) */
	cpu_set_t allowed;		/* where rtla may run (cpus_allowed()), for the record */
	bool hk_given;			/* -H */
	cpu_set_t hk;
	bool cgroup;			/* -C */
	const char *cgroup_name;	/* NULL: rtla's own cgroup */
	bool prio_given;		/* -P */
	struct sched_prio prio;

	long long duration_s;		/* -d; 0: until a signal */
	long long warmup_s;		/* --warm-up */
	long long buffer_kb;		/* --trace-buffer-size; 0: kernel default */
	bool quiet;			/* -q */
	bool debug;			/* -D */
	struct noise_event *events;	/* -e, in the order given */
	const char *trace_file;		/* -t, -a: a "trace" action first */
	struct action_list threshold_actions;	/* --on-threshold, -t, -a */
	struct action_list end_actions;		/* --on-end */
	bool unattributed;		/* --unattributed: a sampler without trace events */
	bool smi;			/* --smi: the SMIs of each CPU below the table */
	bool json_stdout;		/* -J: the record on stdout, no tables */
	const char *json_file;		/* --json-file FILE, "-" for stdout */
	struct gate_criteria criteria;	/* --fail-if, checked at the end */
	const char *junit_file;		/* --junit FILE */
	const char *prometheus_file;	/* --prometheus FILE */
	const char *plot_file;		/* hist --plot FILE: the histogram as SVG */
	unsigned require;		/* --require: items of rtconfig.h, as bits */
	bool misconfig_record;		/* --on-misconfig record: run, verdict misconfigured */

	/* hist only */
	long long bucket_us;		/* -b: bucket width */
	long long entries;		/* -E: buckets before the "over" row */
	bool no_header, no_summary, no_index, with_zeros;

	/* timerlat only; its -i and -T are stop_us and stop_total_us, the same kernel files */
	long long print_stack_us;	/* -s: the IRQ's stack for thread latencies >= this; 0 off */
	bool stack_option;		/* -s itself was given (not only -a) */
	bool nano;			/* -n: ns instead of us */
	enum timerlat_workload workload;	/* -k, -u, -U; AUTO until the tracer's setup */
	long long dma_latency_us;	/* --dma-latency; -1: no request */
	long long deepest_idle;		/* --deepest-idle-state; -2: untouched, -1: all off */
	bool no_aa, aa_only, dump_tasks;	/* the analysis at a stop */
	enum timerlat_stack_format stack_format;
	bool no_irq, no_thread;		/* hist: columns left out */

	/* hwlat only: --mode as src/hwlat/'s enum hwlat_mode + 1; 0: not given */
	int hwlat_mode;
};

/*
 * The CPUs of a workload in user space (the samplers', timerlat's -u/-U):
 * where -c is absent and this process may run on fewer CPUs than the
 * machine has (a container's cpuset, taskset), those; a -c CPU outside them
 * is refused with one line. 0 or -EINVAL (options.c).
 */
int noise_user_cpus(struct noise_params *p);

/* timerlat: the first option given that only the tracer backend runs, or NULL (timerlat.c) */
const char *timerlat_tracer_only_option(const struct noise_params *p);

/* a stop condition is set: -s or -S (timerlat's -i or -T), the kernel's stop_tracing files */
static inline bool noise_stop_set(const struct noise_params *p)
{
	return p->stop_us || p->stop_total_us;
}

/* timerlat: the user column is shown (rtla's own threads, or -U's) */
static inline bool timerlat_user_data(const struct noise_params *p)
{
	return p->workload == TL_WORKLOAD_USER || p->workload == TL_WORKLOAD_USER_LOAD;
}

/* What the table shows for one CPU: sums over every period seen. */
struct noise_cpu {
	uint64_t periods;
	uint64_t sum_runtime;	/* us */
	uint64_t sum_noise;	/* us */
	uint64_t max_noise;	/* us, the noisiest period */
	uint64_t max_sample;	/* us, the longest single noise */
	uint64_t hw, nmi, irq, softirq, thread;
};

/*
 * A per-period summary, as the tracer's ftrace:osnoise event carries it.
 * A single noise (a sample: the tracer's osnoise:sample_threshold, the
 * sampler's gap) goes to noise_run_add_sample() as its CPU and ns.
 */
struct noise_period {
	int cpu;
	uint64_t runtime, noise, max_sample;	/* us */
	uint64_t hw, nmi, irq, softirq, thread;
};

struct noise_run;

/* How one chain of actions went (actions.c). */
struct action_outcome {
	int done;		/* actions that ran and succeeded */
	int failed;		/* index of the one that failed, -1: none */
	int err;		/* its -errno */
	bool continued;		/* a "continue" was reached */
};

/* One stop condition hit, kept for the record even when "continue" resumed. */
struct noise_hit {
	double at_s;			/* since the measurement started */
	int cpu;			/* -1 when unknown */
	long long value_us;		/* -1 when unknown */
	const char *condition;		/* "single" (-s) or "total" (-S) */
	struct action_outcome actions;	/* the --on-threshold chain */
};
struct noise_hist;
struct timerlat_data;
struct hwlat_data;
struct json;

/*
 * A tool: one row per command, all of it constant. Its sink folds what the
 * backend delivers; its printers show what the sink holds. top and hwnoise
 * fold periods into run->cpu (top.c), hist and hwnoise hist fold samples
 * into run->hist (hist.c). Each row is defined beside its printers: osnoise
 * top's in top.c, osnoise hist's in hist.c, hwnoise's two in
 * src/hwnoise/hwnoise.c.
 */
struct noise_tool {
	const char *name;		/* "osnoise hist": help, JSON command and schema */
	const char *title;		/* the table's or histogram's title */
	const struct cli_spec *cli;
	enum noise_tracer tracer;
	unsigned gate_tool;		/* its bit among the --fail-if metrics' tools (gate.h) */
	bool irq_disabled;		/* OSNOISE_IRQ_DISABLE: only HW and NMI noise */
	bool os_columns;		/* the IRQ, Softirq and Thread columns */
	long long runtime_us;		/* default runtime; 0: the whole period */
	long long period_us;		/* default period */

	/*
	 * The sink. With add_sample set the backends deliver every single
	 * noise: one by one (add_sample, exact ns), or counted by the kernel
	 * per whole us (add_samples: COUNT samples of US, summing to SUM_NS).
	 */
	int (*sink_new)(struct noise_run *run);
	void (*add_period)(struct noise_run *run, const struct noise_period *p);
	void (*add_sample)(struct noise_run *run, int cpu, uint64_t ns);
	void (*add_samples)(struct noise_run *run, int cpu, uint64_t us, uint64_t count,
			    uint64_t sum_ns);
	/* timerlat: one latency of NS, taken in CONTEXT of the CPU's activation SEQ */
	void (*add_latency)(struct noise_run *run, int cpu, enum timerlat_context context,
			    uint64_t seq, uint64_t ns);
	void (*sink_free)(struct noise_run *run);

	/*
	 * The tool's own options and their checks (timerlat's), ahead of the
	 * family's: 1 when ID is not the tool's, else 0 or -EINVAL with *what
	 * and err set as in the family's parser (options.c).
	 */
	int (*parse_option)(int id, const char *arg, struct noise_params *p, const char **what,
			    char *err);
	int (*check_params)(struct noise_params *p, const char **what, char *err);
	/* after the stop line: what explains the stop (timerlat's analysis); NULL: nothing */
	void (*print_analysis)(FILE *f, const struct noise_run *run);
	/* the figures --fail-if reads, where they are not the noise tools' (gate.c) */
	void (*gate_figures)(const struct noise_run *run, int cpu, struct gate_figures *f);

	/* refreshed once a second unless -q; NULL: nothing before the end (hist) */
	void (*print_live)(FILE *f, const struct noise_run *run, time_t now);
	/* what stays on stdout at the end (not with -J) */
	void (*print_final)(FILE *f, const struct noise_run *run, time_t now);
	/* the tool's results in the JSON record, after the common fields */
	void (*json_part)(struct json *j, const struct noise_run *run);
	/* its options in the record's "options", where they are not the noise tools' */
	void (*json_options)(struct json *j, const struct noise_params *p);
	/* the tool's only backend (hwlat's tracer); NULL: the family's tracer or sampler */
	const struct noise_backend *backend;
};

extern const struct noise_tool osnoise_top_tool, osnoise_hist_tool;
extern const struct noise_tool hwnoise_tool, hwnoise_hist_tool;
extern const struct noise_tool timerlat_top_tool, timerlat_hist_tool;
extern const struct noise_tool hwlat_top_tool, hwlat_hist_tool;

/*
 * What the rows are made of, hwnoise's too: upstream's default period,
 * written explicitly, and the sink and printers of top (top.c: periods
 * into run->cpu) and of hist (hist.c: samples into run->hist), whichever
 * IRQ mode they run in.
 */
#define NOISE_PERIOD_US		1000000LL

int noise_top_sink_new(struct noise_run *run);
void noise_top_add_period(struct noise_run *run, const struct noise_period *p);
void noise_top_sink_free(struct noise_run *run);
/* The header, one row per measured CPU with runtime, the missed-events line. */
void noise_table_print(FILE *f, const struct noise_run *run, time_t now);
/* The final table (the backend's note follows on stderr: driver.c). */
void noise_top_print_final(FILE *f, const struct noise_run *run, time_t now);
/* top's part of the record: "cpus", one object per measured CPU */
void noise_top_json(struct json *j, const struct noise_run *run);

#define NOISE_TOP_SINK_AND_PRINTERS \
	.sink_new = noise_top_sink_new, \
	.add_period = noise_top_add_period, \
	.sink_free = noise_top_sink_free, \
	.print_live = noise_table_print, \
	.print_final = noise_top_print_final, \
	.json_part = noise_top_json

int noise_hist_sink_new(struct noise_run *run);
void noise_hist_add_period(struct noise_run *run, const struct noise_period *p);
void noise_hist_add_sample(struct noise_run *run, int cpu, uint64_t ns);
void noise_hist_add_samples(struct noise_run *run, int cpu, uint64_t us, uint64_t count,
			    uint64_t sum_ns);
void noise_hist_sink_free(struct noise_run *run);
/* Upstream's histogram text, byte for byte. */
void noise_hist_print(FILE *f, const struct noise_run *run, time_t now);
/* "histogram" and "cpus" with the exact figures. */
void noise_hist_json(struct json *j, const struct noise_run *run);

#define NOISE_HIST_SINK_AND_PRINTERS \
	.sink_new = noise_hist_sink_new, \
	.add_period = noise_hist_add_period, \
	.add_sample = noise_hist_add_sample, \
	.add_samples = noise_hist_add_samples, \
	.sink_free = noise_hist_sink_free, \
	.print_final = noise_hist_print, \
	.json_part = noise_hist_json

/*
 * A backend measures; noise_run_tool() does everything else. Every op
 * returns 0 or -errno and has already told the user what went wrong.
 */
struct noise_backend {
	const char *name;		/* "tracer" or "sampler", as in --backend and JSON */
	unsigned max_wait_s;		/* the longest its buffers hold between two collect() */
	/* borrow kernel state and prepare; on failure, leave nothing behind */
	int (*setup)(struct noise_run *run);
	/* start measuring: warm-up, then stop conditions armed */
	int (*enable)(struct noise_run *run);
	/*
	 * hand what was measured since the last call to noise_run_add_period()
	 * and, when run->want_samples, every single noise to
	 * noise_run_add_sample() (or, counted, to noise_run_add_samples());
	 * after a second signal (run->stop_requested >= 2) it skips whatever
	 * could take long (draining trace buffers) but still delivers what is
	 * at hand, so the final table is never empty for no reason
	 */
	int (*collect)(struct noise_run *run);
	/*
	 * optional: sleep up to TIMEOUT_MS or until WAKE_FD is readable, and
	 * hand over data as it lands where reading it later would disturb the
	 * measured CPUs; 1 when it handed something over (it returns then), 2
	 * when a stop condition was hit (the driver collects at once)
	 */
	int (*wait)(struct noise_run *run, int wake_fd, int timeout_ms);
	/* did the measurement stop by itself (a -s/-S condition)? */
	bool (*stopped)(struct noise_run *run);
	/* stop measuring now; async-signal-safe, called from signal handlers */
	void (*halt)(struct noise_run *run);
	/* start measuring again after a stop, for the "continue" action */
	int (*rearm)(struct noise_run *run);
	/* the "trace" action: save what explains the stop to a file */
	int (*save_trace)(struct noise_run *run, const char *path);
	/* give back every borrowed setting; safe after a failed setup */
	void (*teardown)(struct noise_run *run);
};

struct noise_run {
	const struct noise_tool *tool;
	struct noise_params *params;
	const struct noise_backend *backend;
	void *priv;			/* the backend's own state */
	bool want_samples;		/* the tool's sink takes single samples */

	/* the tool's sink: one of them */
	struct noise_cpu *cpu;		/* top: params->nr_cpus entries */
	struct noise_hist *hist;	/* hist */
	struct timerlat_data *latency;	/* timerlat top and hist */
	struct hwlat_data *hwlat;	/* hwlat top and hist (src/hwlat/) */
	void *analysis;			/* timerlat: the backend's analysis of a stop, or NULL */
	char *max_latency;		/* timerlat --aa-only: tracing_max_latency as the kernel wrote it */
	/* hist with a gate or its outputs: the period totals top would show */
	struct noise_cpu *totals;

	unsigned *periods;		/* completed periods by CPU (params->nr_cpus) */
	/* over time, by CPU (series.h): the periods, or timerlat's latencies */
	struct series series;
	uint64_t *series_seq0;		/* timerlat: each CPU's first wake-up, its time 0 */
	uint64_t processed_events;
	uint64_t missed_events;		/* UINT64_MAX: some lost, count unknown */
	uint64_t lost_samples;		/* the sampler's gaps and periods its rings dropped */

	time_t start_time;		/* wall clock, for the duration line */
	bool stop_hit;			/* a stop condition was hit */
	bool interrupted;		/* ended by a signal before -d */
	struct noise_hit *hits;		/* every stop condition hit, in order */
	int nr_hits;
	bool end_actions_ran;
	struct action_outcome end_actions;	/* the --on-end chain */
	int stop_cpu;			/* -1 when unknown */
	long long stop_value_us;	/* -1 when unknown */
	const char *stop_reason;	/* "single" (-s) or "total" (-S) */

	volatile sig_atomic_t stop_requested;	/* signals received */
	const char *note;		/* a line the backend prints before the table */
	const char *degraded;		/* why the figures mean less than they say, or NULL */
	struct gate_verdict *gate;	/* the --fail-if verdict, once evaluated */
	struct smi_counts smi;		/* the SMIs of the measured CPUs, read at start and end */
	struct rtconfig *rtconfig;	/* the measured CPUs' configuration at the start (misconfig.h) */
};

/*
 * What the backends call: hand one period, one sample of NS, or COUNT
 * samples of whole-us duration US that sum to SUM_NS, to the tool's sink.
 */
void noise_run_add_period(struct noise_run *run, const struct noise_period *p);
void noise_run_add_sample(struct noise_run *run, int cpu, uint64_t ns);
void noise_run_add_samples(struct noise_run *run, int cpu, uint64_t us, uint64_t count,
			   uint64_t sum_ns);
void noise_run_add_latency(struct noise_run *run, int cpu, enum timerlat_context context,
			   uint64_t seq, uint64_t ns);

/*
 * A backend's enable() with the measurement running: sleep through -w
 * (ending early on a stop request). True when the warm-up ran to its end:
 * the backend then drops what it measured so far.
 */
bool noise_run_warm_up(struct noise_run *run);

extern const struct noise_backend noise_tracer_backend;
extern const struct noise_backend noise_sampler_backend;
/* timerlat's user-space backend (src/timerlat/sampler.c): sleepers instead of spinners */
extern const struct noise_backend timerlat_sampler_backend;

/* Does the running kernel have TRACER ("osnoise", "timerlat")? (for --backend auto) */
bool noise_tracer_available(const char *tracer);

/* options.c: the option lists of top and hist (cli.h), shared by both modes */
extern const struct cli_option noise_options[], noise_hist_options[];
/* each tool's spec, beside its row (top.c, hist.c) */
extern const struct cli_spec osnoise_top_cli, osnoise_hist_cli;
/*
 * options.c: upstream's common_usage(): "rtla TOOL MODE: DESCRIPTION
 * (version)", the synopsis after "usage: [rtla] USAGE_NAME [-h] ", then the
 * option lines; top's and hist's synopses (top.c, hist.c) serve hwnoise too
 */
void noise_usage(FILE *f, const struct cli_spec *spec, const char *usage_name,
		 const char *description, const char *synopsis);
extern const char noise_top_synopsis[], noise_hist_synopsis[], noise_hist_synopsis_ours[];

/* 0, or CLI_EXIT / CLI_ERROR (cli.h) with the help or the error printed. */
int noise_parse_args(int argc, char **argv, const struct noise_tool *tool,
		     struct noise_params *p);
void noise_params_free(struct noise_params *p);

/* driver.c: the CPUs a run measures: those of -c (or all) that are online */
void noise_measured_cpus(const struct noise_params *p, cpu_set_t *set);

/* driver.c: the whole run of TOOL; returns the exit status */
int noise_run_tool(const struct noise_tool *tool, struct noise_params *p);

/* driver.c: parse argv for TOOL and run it; returns the exit status */
int noise_cmd_run(int argc, char **argv, const struct noise_tool *tool);

#endif

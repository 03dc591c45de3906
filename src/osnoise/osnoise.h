/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * osnoise - shared types of `rtla osnoise top` and `rtla hwnoise`.
 *
 * One run of either command is: parse the options into noise_params, pick a
 * backend (the kernel osnoise tracer, or the user-space sampler for kernels
 * without it), and let noise_run_top() drive the backend through its ops
 * while it folds per-period results into one noise_cpu per CPU and prints
 * upstream rtla's table.
 */
#ifndef RTLA_OSNOISE_H
#define RTLA_OSNOISE_H

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cli.h"
#include "parse.h"

enum noise_mode {
	MODE_OSNOISE,	/* osnoise top: everything with IRQs on */
	MODE_HWNOISE,	/* hwnoise: IRQs off, only hardware and NMI noise */
};

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
};

struct noise_params {
	enum noise_mode mode;
	enum noise_backend_kind backend;
	int nr_cpus;			/* configured CPUs (get_nprocs_conf) */

	long long runtime_us;		/* 0: default (both 1 s; hwnoise 750 ms of 1 s) */
	long long period_us;
	long long stop_us;		/* -s: single sample */
	long long stop_total_us;	/* -S: total noise of one period */
	long long threshold_us;		/* -T: 0 lets the kernel choose (1 us) */

	const char *cpus_str;		/* -c as given, written to osnoise/cpus */
	cpu_set_t cpus;			/* measured CPUs (all when -c absent) */
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
	struct action_list threshold_actions;	/* --on-threshold, -t, -a */
	struct action_list end_actions;		/* --on-end */
	bool json_stdout;		/* -J: the record on stdout, no tables */
	const char *json_file;		/* --json-file FILE, "-" for stdout */
};

/* What the table shows for one CPU: sums over every period seen. */
struct noise_cpu {
	uint64_t periods;
	uint64_t sum_runtime;	/* us */
	uint64_t sum_noise;	/* us */
	uint64_t max_noise;	/* us, the noisiest period */
	uint64_t max_sample;	/* us, the longest single noise */
	uint64_t hw, nmi, irq, softirq, thread;
};

/* A per-period summary, as the tracer's ftrace:osnoise event carries it. */
struct noise_period {
	int cpu;
	uint64_t runtime, noise, max_sample;	/* us */
	uint64_t hw, nmi, irq, softirq, thread;
};

struct noise_run;

/*
 * A backend measures; noise_run_top() does everything else. Every op
 * returns 0 or -errno and has already told the user what went wrong.
 */
struct noise_backend {
	const char *name;		/* "tracer" or "sampler", as in --backend and JSON */
	/* borrow kernel state and prepare; on failure, leave nothing behind */
	int (*setup)(struct noise_run *run);
	/* start measuring: warm-up, then stop conditions armed */
	int (*enable)(struct noise_run *run);
	/* fold what was measured since the last call with noise_run_add_period() */
	int (*collect)(struct noise_run *run);
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
	struct noise_params *params;
	const struct noise_backend *backend;
	void *priv;			/* the backend's own state */

	struct noise_cpu *cpu;		/* params->nr_cpus entries */
	uint64_t processed_events;
	uint64_t missed_events;		/* UINT64_MAX: some lost, count unknown */

	time_t start_time;		/* wall clock, for the duration line */
	bool stop_hit;			/* a stop condition was hit */
	int stop_cpu;			/* -1 when unknown */
	long long stop_value_us;	/* -1 when unknown */
	const char *stop_reason;	/* "single" (-s) or "total" (-S) */

	volatile sig_atomic_t stop_requested;	/* signals received */
	const char *note;		/* a line the backend prints before the table */
};

/* Fold one per-period summary into the CPU's totals (both backends). */
void noise_run_add_period(struct noise_run *run, const struct noise_period *p);

extern const struct noise_backend noise_tracer_backend;
extern const struct noise_backend noise_sampler_backend;

/* Does the running kernel have the osnoise tracer? (for --backend auto) */
bool noise_tracer_available(void);

/* cli.c */
/* The options of osnoise top and hwnoise (options.c), and top's spec (cli.h). */
extern const struct cli_option noise_options[];
extern const struct cli_spec osnoise_top_cli;

/* 0, or CLI_EXIT / CLI_ERROR (cli.h) with the help or the error printed. */
int noise_parse_args(int argc, char **argv, enum noise_mode mode, struct noise_params *p);
void noise_params_free(struct noise_params *p);

/* top.c: the whole run; returns the exit status */
int noise_run_top(struct noise_params *p);

/* osnoise_cmd.c: parse argv for MODE and run; returns the exit status */
int noise_cmd_run(int argc, char **argv, enum noise_mode mode);

#endif

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options - the option rows the noise family's tools share, as macros a
 * tool's list is made of (options.c: osnoise top and hist, hwnoise's two;
 * src/timerlat/timerlat.c: timerlat top and hist), and the ids of the
 * long-only options, one enum for the whole family so that no two collide.
 * The family's parser (noise_parse_args()) reads every row here; a tool's
 * own rows go through its row's parse_option first.
 */
#ifndef RTLA_OSNOISE_OPTIONS_H
#define RTLA_OSNOISE_OPTIONS_H

#include <stdio.h>

#include "actions.h"
#include "cli.h"
#include "output.h"

enum noise_option_id {
	OPT_TRIGGER = CLI_LONG, OPT_FILTER, OPT_WARMUP, OPT_BUFFER, OPT_ON_THRESHOLD, OPT_ON_END,
	OPT_BACKEND, OPT_UNATTRIBUTED, OPT_NO_HEADER, OPT_NO_SUMMARY, OPT_NO_INDEX, OPT_WITH_ZEROS,
	OPT_FAIL_IF, OPT_JUNIT, OPT_PROMETHEUS, OPT_SMI, OPT_PLOT,
	/* timerlat's */
	OPT_AA_ONLY, OPT_NO_AA, OPT_DUMP_TASKS, OPT_DUMP_TASK, OPT_DMA_LATENCY, OPT_DEEPEST_IDLE,
	OPT_STACK_FORMAT, OPT_NO_IRQ, OPT_NO_THREAD,
	/* the real-time configuration of the measured CPUs (misconfig.h) */
	OPT_REQUIRE, OPT_ON_MISCONFIG,
	/* hwlat's */
	OPT_HWLAT_MODE,
};

/* Completion of -e (the kernel's events), --fail-if (the tool's metrics), --require. */
void noise_event_names(FILE *out, const struct cli_completion *c);
void noise_metric_names(FILE *out, const struct cli_completion *c);
void noise_require_words(FILE *out, const struct cli_completion *c);

/*
 * Upstream's rows from -c to --trigger (7.1 help lines, in its order); CPUS
 * says what -c places, TRACER names the default -t file.
 */
#define NOISE_OPTS_PLACE(cpus, tracer) \
	CLI_VALUE('c', "cpus", "cpu-list", cpus, \
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS), \
	CLI_VALUE('H', "house-keeping", "cpus", "run rtla control threads only on the given cpus", \
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS), \
	CLI_OPTIONAL('C', "cgroup", "[cgroup_name]", \
		     "set cgroup, if no cgroup_name is passed, the rtla's cgroup will be inherited"), \
	CLI_VALUE('d', "duration", "time[s|m|h|d]", "duration of the session"), \
	CLI_FLAG('D', "debug", "print debug info"), \
	CLI_OPTIONAL('t', "trace", "[file]", "save the stopped trace to [file|" tracer "_trace.txt]", \
		     .flags = CLI_FILE | CLI_NOT_STDOUT, .complete = CLI_COMP_FILE), \
	CLI_VALUE('e', "event", "<sys:event>", \
		  "enable the <sys:event> in the trace instance, multiple -e are allowed", \
		  .complete = CLI_COMP_CALL, .candidates = noise_event_names), \
	CLI_VALUE(OPT_FILTER, "filter", "<filter>", \
		  "enable a trace event filter to the previous -e event"), \
	CLI_VALUE(OPT_TRIGGER, "trigger", "<trigger>", \
		  "enable a trace event trigger to the previous -e event")

/* The histogram's rows, after --trigger. */
#define NOISE_OPTS_HIST \
	CLI_VALUE('b', "bucket-size", "N", "set the histogram bucket size (default 1)"), \
	CLI_VALUE('E', "entries", "N", "set the number of entries of the histogram (default 256)"), \
	CLI_FLAG(OPT_NO_HEADER, "no-header", "do not print header"), \
	CLI_FLAG(OPT_NO_SUMMARY, "no-summary", "do not print summary"), \
	CLI_FLAG(OPT_NO_INDEX, "no-index", "do not print index"), \
	CLI_FLAG(OPT_WITH_ZEROS, "with-zeros", "print zero only entries")

/* Ours, hist only: the histogram drawn beside the table, as rtla report draws it. */
#define NOISE_OPT_PLOT \
	CLI_VALUE(OPT_PLOT, "plot", "FILE", \
		  "also draw the histogram as an SVG plot into FILE (rtla report's plot)", \
		  .complete = CLI_COMP_FILE, .flags = CLI_FILE | CLI_NOT_STDOUT)

/* Upstream's -P. */
#define NOISE_OPT_PRIORITY \
	CLI_VALUE('P', "priority", "o:prio|r:prio|f:prio|d:runtime:period", \
		  "set scheduling parameters\n" \
		  "\t\to:prio - use SCHED_OTHER with prio (the nice value, -20..19)\n" \
		  "\t\tr:prio - use SCHED_RR with prio\n" \
		  "\t\tf:prio - use SCHED_FIFO with prio\n" \
		  "\t\td:runtime[us|ms|s]:period[us|ms|s] - use SCHED_DEADLINE with runtime and period\n" \
		  "\t\t\t\t\t\t       (in nanoseconds when no unit is given)", \
		  .complete = CLI_COMP_WORDS, .words = "o: r: f: d:")

/* Upstream's rows from --warm-up to --on-end; THRESHOLD names what stops it. */
#define NOISE_OPTS_TUNING(threshold) \
	CLI_VALUE(OPT_WARMUP, "warm-up", "s", \
		  "let the workload run for s seconds before collecting data"), \
	CLI_VALUE(OPT_BUFFER, "trace-buffer-size", "kB", "set the per-cpu trace buffer size in kB"), \
	CLI_VALUE(OPT_ON_THRESHOLD, "on-threshold", "<action>", \
		  "define action to be executed when a stop threshold (" threshold ") is hit, " \
		  "multiple are allowed", .complete = CLI_COMP_WORDS, .words = ACTION_WORDS), \
	CLI_VALUE(OPT_ON_END, "on-end", "<action>", \
		  "define action to be executed at measurement end, multiple are allowed", \
		  .complete = CLI_COMP_WORDS, .words = ACTION_WORDS)

/*
 * Ours, after upstream's: the backend, TRACER the kernel tracer it names,
 * SAMPLER what the user-space one is, UNATTRIBUTED what it loses without
 * trace events.
 */
#define NOISE_OPTS_BACKEND(tracer, sampler, unattributed) \
	CLI_VALUE(OPT_BACKEND, "backend", "auto|tracer|sampler", \
		  "measure with the kernel " tracer " tracer or the user-space\n" \
		  "\t\t" sampler "; auto takes the tracer when the kernel has it", \
		  .complete = CLI_COMP_WORDS, .words = "auto tracer sampler"), \
	CLI_FLAG(OPT_UNATTRIBUTED, "unattributed", unattributed)

/*
 * Ours: the real-time configuration the measured CPUs must have
 * (rtconfig.h's words), and what a run does when they do not.
 */
#define NOISE_OPTS_REQUIRE \
	CLI_VALUE(OPT_REQUIRE, "require", "WORDS", \
		  "refuse to start (exit 2) unless the measured CPUs are set up as the\n" \
		  "\t\tcomma-separated WORDS ask: rt, isolated, nohz_full, rcu_nocbs,\n" \
		  "\t\tno-irqs, no-workqueue, no-kthreads, no-throttling, performance,\n" \
		  "\t\tno-deep-idle, stable-clock, no-timer-migration (rtla features -c)", \
		  .flags = CLI_LIST, .complete = CLI_COMP_CALL, .candidates = noise_require_words), \
	CLI_VALUE(OPT_ON_MISCONFIG, "on-misconfig", "refuse|record", \
		  "when --require does not hold: refuse to start (the default), or run and\n" \
		  "\t\trecord the verdict misconfigured (exit 2)", \
		  .complete = CLI_COMP_WORDS, .words = "refuse record")

/* Ours, after upstream's: the SMIs, the gate and the record. */
#define NOISE_OPTS_GATE(example) \
	CLI_FLAG(OPT_SMI, "smi", \
		 "show the SMIs of each cpu during the run (MSR_SMI_COUNT, x86, the msr\n" \
		 "\t\tdriver loaded) below the table"), \
	OUT_RECORD_OPTIONS, \
	CLI_VALUE(OPT_FAIL_IF, "fail-if", "EXPR", \
		  "fail the run (exit 2) on every CPU where EXPR holds, checked at the end:\n" \
		  "\t\tMETRIC OP VALUE, e.g. " example "; multiple are allowed", \
		  .complete = CLI_COMP_CALL, .candidates = noise_metric_names), \
	CLI_VALUE(OPT_JUNIT, "junit", "FILE", \
		  "write the gate as JUnit XML to FILE: a testcase per cpu and criterion", \
		  .flags = CLI_FILE | CLI_NOT_STDOUT, .complete = CLI_COMP_FILE), \
	CLI_VALUE(OPT_PROMETHEUS, "prometheus", "FILE", \
		  "write the per-cpu figures as Prometheus text to FILE (node_exporter's\n" \
		  "\t\ttextfile collector), replaced whole", \
		  .flags = CLI_FILE | CLI_NOT_STDOUT, .complete = CLI_COMP_FILE), \
	NOISE_OPTS_REQUIRE, \
	CLI_OPT_VERSION("print the version")

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * timerlat - `rtla timerlat [top|hist]`: the command, its verbs, the two
 * tools' option lists and usage, their own options' parser and checks,
 * and their rows. The family's parser (src/osnoise/options.c) reads the
 * shared rows (-c, -H, -C, -d, -D, -t, -e, -P, --warm-up, actions, the
 * gate and the record); driver.c runs the row.
 *
 * Upstream's options from 6.12 to 7.1 (the getopt era), with its meanings,
 * defaults, checks and texts; its -i and -T are the same kernel files as
 * osnoise's -s and -S (stop_tracing_us, stop_tracing_total_us).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "msg.h"
#include "osnoise/options.h"
#include "parse.h"
#include "timerlat/timerlat.h"

#define DMA_LATENCY_MAX_US	10000LL	/* upstream accepts 10000 (its text says < 10000) */

/* Upstream's rows from -a to -s (the auto-analysis' --aa-only is top's alone). */
#define TIMERLAT_OPTS_MEASURE(aa_only) \
	CLI_VALUE('a', "auto", "us", \
		  "set automatic trace mode, stopping the session if argument in us latency is hit"), \
	aa_only \
	CLI_VALUE('p', "period", "us", "timerlat period in us"), \
	CLI_VALUE('i', "irq", "us", "stop trace if the irq latency is higher than the argument in us"), \
	CLI_VALUE('T', "thread", "us", \
		  "stop trace if the thread latency is higher than the argument in us"), \
	CLI_VALUE('s', "stack", "us", \
		  "save the stack trace at the IRQ if a thread latency is higher than the argument in us")

#define TIMERLAT_OPT_AA_ONLY \
	CLI_VALUE(OPT_AA_ONLY, "aa-only", "us", \
		  "stop if <us> latency is hit, only printing the auto analysis (reduces CPU usage)"),

/* From --dump-tasks to --dma-latency; hist also takes the getopt era's --dump-task. */
#define TIMERLAT_OPTS_ANALYSIS(dump_task) \
	CLI_FLAG(OPT_DUMP_TASKS, "dump-tasks", \
		 "prints the task running on all CPUs if stop conditions are met (depends on !--no-aa)"), \
	dump_task \
	CLI_FLAG('n', "nano", "display data in nanoseconds"), \
	CLI_FLAG(OPT_NO_AA, "no-aa", "disable auto-analysis, reducing rtla timerlat cpu usage"), \
	CLI_VALUE(OPT_DMA_LATENCY, "dma-latency", "us", \
		  "set /dev/cpu_dma_latency latency <us> to reduce exit from idle latency")

#define TIMERLAT_OPT_DUMP_TASK \
	CLI_FLAG(OPT_DUMP_TASK, "dump-task", "the same as --dump-tasks", .flags = CLI_HIDDEN),

/* From -u to --stack-format. */
#define TIMERLAT_OPTS_WORKLOAD \
	CLI_FLAG('u', "user-threads", \
		 "use rtla user-space threads instead of kernel-space timerlat threads"), \
	CLI_FLAG('k', "kernel-threads", \
		 "use timerlat kernel-space threads instead of rtla user-space threads"), \
	CLI_FLAG('U', "user-load", "enable timerlat for user-defined user-space workload"), \
	CLI_VALUE(OPT_DEEPEST_IDLE, "deepest-idle-state", "N", \
		  "only go down to idle state n on cpus used by timerlat to reduce exit from idle\n" \
		  "\t\tlatency (-1: none at all)"), \
	CLI_VALUE(OPT_STACK_FORMAT, "stack-format", "truncate|skip|full", \
		  "set the stack format of the analysis (default truncate)", \
		  .complete = CLI_COMP_WORDS, .words = "truncate skip full")

#define TIMERLAT_OPTS_BACKEND \
	NOISE_OPTS_BACKEND("timerlat", "sampler (kernels without it: sleeping threads, as cyclictest)", \
			   "let the sampler measure without trace events: no IRQ column and no\n" \
			   "\t\texplanation of late wake-ups, and no line saying so")

#define TIMERLAT_GATE_EXAMPLE	"thread_max_us>50, irq_avg_us>5,\n" \
				"\t\tp99_thread_us>20 (hist), user_sample_count<1000"

static const struct cli_option timerlat_top_options[] = {
	CLI_OPT_HELP("print this menu"),
	TIMERLAT_OPTS_MEASURE(TIMERLAT_OPT_AA_ONLY),
	NOISE_OPTS_PLACE("run the tracer only on the given cpus", "timerlat"),
	TIMERLAT_OPTS_ANALYSIS(),
	CLI_FLAG('q', "quiet", "print only a summary at the end"),
	NOISE_OPT_PRIORITY,
	TIMERLAT_OPTS_WORKLOAD,
	NOISE_OPTS_TUNING("-i or -T"),
	TIMERLAT_OPTS_BACKEND,
	NOISE_OPTS_GATE(TIMERLAT_GATE_EXAMPLE),
	CLI_OPT_END
};

static const struct cli_option timerlat_hist_options[] = {
	CLI_OPT_HELP("print this menu"),
	TIMERLAT_OPTS_MEASURE(),
	NOISE_OPTS_PLACE("run the tracer only on the given cpus", "timerlat"),
	TIMERLAT_OPTS_ANALYSIS(TIMERLAT_OPT_DUMP_TASK),
	NOISE_OPTS_HIST,
	CLI_FLAG(OPT_NO_IRQ, "no-irq", "ignore IRQ latencies"),
	CLI_FLAG(OPT_NO_THREAD, "no-thread", "ignore thread latencies"),
	NOISE_OPT_PRIORITY,
	TIMERLAT_OPTS_WORKLOAD,
	NOISE_OPTS_TUNING("-i or -T"),
	TIMERLAT_OPTS_BACKEND,
	NOISE_OPTS_GATE(TIMERLAT_GATE_EXAMPLE),
	NOISE_OPT_PLOT,
	CLI_OPT_END
};

const char *const timerlat_stack_formats[3] = { "truncate", "skip", "full" };

static int parse_stack_format(const char *s, enum timerlat_stack_format *f, char *err)
{
	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(s, timerlat_stack_formats[i])) {
			*f = i;
			return 0;
		}
	}
	snprintf(err, PARSE_ERR_MAX, "'%s': use truncate, skip or full", s);
	return -EINVAL;
}

/* -a and --aa-only: both stop conditions and the stack at US */
static int parse_auto(const char *arg, struct noise_params *p, char *err)
{
	long long us;

	if (parse_us(arg, LLONG_MAX / 1000, &us, err))
		return -EINVAL;
	p->stop_us = p->stop_total_us = p->print_stack_us = us;
	return 0;
}

/* timerlat's own rows (noise_tool.parse_option): 1 when ID is the family's */
static int timerlat_parse_option(int id, const char *arg, struct noise_params *p,
				 const char **what, char *err)
{
	long long v;

	switch (id) {
	case 'a':
		*what = "Invalid -a value";
		if (parse_auto(arg, p, err))
			return -EINVAL;
		if (!p->trace_file)
			p->trace_file = p->threshold_actions.default_file;
		return 0;
	case OPT_AA_ONLY:
		*what = "Invalid --aa-only value";
		p->aa_only = true;
		return parse_auto(arg, p, err);
	case 'p':
		*what = "Invalid -p period";
		if (parse_us(arg, LLONG_MAX, &v, err))
			return -EINVAL;
		if (v > TIMERLAT_PERIOD_MAX_US) {
			*what = "Period longer than 1 s";
			snprintf(err, PARSE_ERR_MAX, "%lld us", v);
			return -EINVAL;
		}
		if (v < 100) {
			/* the kernel refuses it ("Failed to set timerlat period") */
			*what = "Period shorter than 100 us";
			snprintf(err, PARSE_ERR_MAX, "%lld us", v);
			return -EINVAL;
		}
		p->period_us = v;
		return 0;
	case 'i':
		*what = "Invalid -i value";
		return parse_us(arg, LLONG_MAX / 1000, &p->stop_us, err);
	case 'T':
		*what = "Invalid -T value";
		return parse_us(arg, LLONG_MAX / 1000, &p->stop_total_us, err);
	case 's':
		*what = "Invalid -s value";
		p->stack_option = true;
		return parse_us(arg, LLONG_MAX / 1000, &p->print_stack_us, err);
	case 'n':
		p->nano = true;
		return 0;
	case 'k':
	case 'u':
	case 'U':
		if (p->workload != TL_WORKLOAD_AUTO && p->workload != TL_WORKLOAD_KERNEL &&
		    id == 'k') {
			*what = "--kernel-threads and --user-threads are mutually exclusive!";
			return -EINVAL;
		}
		if (p->workload == TL_WORKLOAD_KERNEL && id != 'k') {
			*what = "--kernel-threads and --user-threads are mutually exclusive!";
			return -EINVAL;
		}
		/* -u and -U together: -U's foreign workload was asked for */
		if (id == 'U' || p->workload != TL_WORKLOAD_USER_LOAD)
			p->workload = id == 'k' ? TL_WORKLOAD_KERNEL :
				      id == 'u' ? TL_WORKLOAD_USER : TL_WORKLOAD_USER_LOAD;
		return 0;
	case OPT_DMA_LATENCY:
		*what = "--dma-latency needs to be >= 0 and < 10000";
		return parse_llong(arg, 0, DMA_LATENCY_MAX_US, &p->dma_latency_us, err);
	case OPT_DEEPEST_IDLE:
		*what = "Invalid --deepest-idle-state";
		return parse_llong(arg, -1, INT_MAX, &p->deepest_idle, err);
	case OPT_NO_AA:
		p->no_aa = true;
		return 0;
	case OPT_DUMP_TASKS:
	case OPT_DUMP_TASK:
		p->dump_tasks = true;
		return 0;
	case OPT_STACK_FORMAT:
		*what = "Invalid --stack-format option";
		return parse_stack_format(arg, &p->stack_format, err);
	case OPT_NO_IRQ:
		p->no_irq = true;
		return 0;
	case OPT_NO_THREAD:
		p->no_thread = true;
		return 0;
	default:
		return 1;
	}
}

const char *timerlat_tracer_only_option(const struct noise_params *p)
{
	static const char *const workload[] = {
		[TL_WORKLOAD_KERNEL] = "-k", [TL_WORKLOAD_USER] = "-u", [TL_WORKLOAD_USER_LOAD] = "-U",
	};

	if (p->workload != TL_WORKLOAD_AUTO)
		return workload[p->workload];
	if (p->stack_option && p->print_stack_us)
		return "-s";
	if (p->aa_only)
		return "--aa-only";
	if (p->dump_tasks)
		return "--dump-tasks";
	if (p->deepest_idle >= -1)
		return "--deepest-idle-state";
	return NULL;
}

/* timerlat's cross-option checks (noise_tool.check_params) */
static int timerlat_check_params(struct noise_params *p, const char **what, char *err)
{
	if (!p->period_us)
		p->period_us = TIMERLAT_PERIOD_US;
	if (p->no_irq && p->no_thread) {
		*what = "no-irq and no-thread set, there is nothing to do here";
		return -EINVAL;
	}
	if (p->no_aa && p->aa_only) {
		*what = "--no-aa and --aa-only are mutually exclusive!";
		return -EINVAL;
	}
	if (p->aa_only && (p->json_stdout || p->json_file || p->criteria.len || p->junit_file ||
			   p->prometheus_file)) {
		*what = "--aa-only keeps no figures";
		snprintf(err, PARSE_ERR_MAX, "%s needs the table's latencies",
			 p->json_stdout ? "-J" : p->json_file ? "--json-file" :
			 p->criteria.len ? "--fail-if" : p->junit_file ? "--junit" : "--prometheus");
		return -EINVAL;
	}
	/* -U's workload is someone else's: rtla has no thread to place */
	if (p->workload == TL_WORKLOAD_USER_LOAD && (p->prio_given || p->cgroup)) {
		*what = p->prio_given ? "-P has nothing to set with -U" : "-C has nothing to move with -U";
		snprintf(err, PARSE_ERR_MAX, "the workload reading timerlat_fd is not rtla's");
		return -EINVAL;
	}
	for (int i = 0; p->workload == TL_WORKLOAD_KERNEL && i < p->criteria.len; i++) {
		int m = p->criteria.items[i].metric;

		if (m >= GATE_TL_MAX && (m - GATE_TL_MAX) % TL_CONTEXTS == TL_USER) {
			*what = "Invalid --fail-if";
			snprintf(err, PARSE_ERR_MAX, "'%s': -k runs no user-space thread: there is no "
				 "user latency", p->criteria.items[i].text);
			return -EINVAL;
		}
	}
	if (p->threshold_actions.has_continue && !p->stop_us && !p->stop_total_us)
		warn_msg("--on-threshold continue has no effect without -i or -T");
	/* no table, live or final: nothing to refresh, no screen to clear */
	if (p->aa_only)
		p->quiet = true;
	(void)err;
	return 0;
}

/* ---- usage, verbs, rows ---------------------------------------------------------- */

static const char timerlat_top_synopsis[] =
	"[-q] [-a us] [-d s] [-D] [-n] [-p us] [-i us] [-T us] [-s us] \\\n"
	"	  [[-t [file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>] [-c cpu-list] "
	"[-H cpu-list]\\\n"
	"	  [-P priority] [--dma-latency us] [--aa-only us] [-C [cgroup_name]] [-u|-k] [--warm-up s] "
	"[--deepest-idle-state n]";

static const char timerlat_hist_synopsis[] =
	"[-d s] [-D] [-n] [-a us] [-p us] [-i us] [-T us] [-s us] \\\n"
	"         [-t [file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>] [-c cpu-list] "
	"[-H cpu-list]\\\n"
	"	  [-P priority] [-E N] [-b N] [--no-irq] [--no-thread] [--no-header] [--no-summary] \\\n"
	"	  [--no-index] [--with-zeros] [--dma-latency us] [-C [cgroup_name]] [--no-aa] "
	"[--dump-task] [-u|-k]\n"
	"	  [--warm-up s] [--deepest-idle-state n]";

static const struct cli_spec timerlat_top_cli, timerlat_hist_cli;

static void timerlat_top_usage(FILE *f)
{
	noise_usage(f, &timerlat_top_cli, "timerlat [top]", "a per-cpu summary of the timer latency",
		    timerlat_top_synopsis);
}

static void timerlat_hist_usage(FILE *f)
{
	noise_usage(f, &timerlat_hist_cli, "timerlat hist",
		    "a per-cpu histogram of the timer latency", timerlat_hist_synopsis);
}

static const struct cli_spec timerlat_top_cli = {
	.command = "timerlat top",
	.options = timerlat_top_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = timerlat_top_usage,
};

static const struct cli_spec timerlat_hist_cli = {
	.command = "timerlat hist",
	.options = timerlat_hist_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = timerlat_hist_usage,
};

#define TIMERLAT_SINK \
	.tracer = TRACER_TIMERLAT, \
	.period_us = TIMERLAT_PERIOD_US, \
	.sink_new = timerlat_sink_new, \
	.add_latency = timerlat_add_latency, \
	.sink_free = timerlat_sink_free, \
	.parse_option = timerlat_parse_option, \
	.check_params = timerlat_check_params, \
	.print_analysis = timerlat_print_analysis, \
	.gate_figures = timerlat_gate_figures

const struct noise_tool timerlat_top_tool = {
	.name = "timerlat top",
	.title = "Timer Latency",
	.cli = &timerlat_top_cli,
	.gate_tool = GATE_TIMERLAT_TOP,
	TIMERLAT_SINK,
	.print_live = timerlat_top_print,
	.print_final = timerlat_top_print_final,
	.json_part = timerlat_top_json,
};

const struct noise_tool timerlat_hist_tool = {
	.name = "timerlat hist",
	.title = "RTLA timerlat histogram",
	.cli = &timerlat_hist_cli,
	.gate_tool = GATE_TIMERLAT_HIST,
	TIMERLAT_SINK,
	.print_final = timerlat_hist_print,
	.json_part = timerlat_hist_json,
};

static void timerlat_usage(FILE *f)
{
	/* upstream's lines, word for word */
	fprintf(f, "\ntimerlat version %s\n\n"
		   "  usage: [rtla] timerlat [MODE] ...\n\n"
		   "  modes:\n"
		   "     top   - prints the summary from timerlat tracer\n"
		   "     hist  - prints a histogram of timer latencies\n\n"
		   "if no MODE is given, the top mode is called, passing the arguments\n",
		RTLA_VERSION);
}

static int timerlat_top_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &timerlat_top_tool);
}

static int timerlat_hist_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &timerlat_hist_tool);
}

/* upstream: no mode, or an option first, is top */
static const struct cli_verb timerlat_verbs[] = {
	CLI_VERB("top", timerlat_top_main, &timerlat_top_cli,
		 "prints the summary from timerlat tracer",
		 .flags = CLI_VERB_DEFAULT | CLI_VERB_NAMED),
	CLI_VERB("hist", timerlat_hist_main, &timerlat_hist_cli,
		 "prints a histogram of timer latencies"),
	CLI_VERB_END
};

const struct cli_spec timerlat_cli = {
	.command = "timerlat",
	.options = timerlat_top_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = timerlat_usage,
	.verbs = timerlat_verbs,
};

int cmd_timerlat(int argc, char **argv)
{
	return cli_run_verbs(&timerlat_cli, argc, argv);
}

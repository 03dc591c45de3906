// SPDX-License-Identifier: GPL-2.0-only
/*
 * options - the options of the noise tools: `rtla osnoise top`, `rtla
 * osnoise hist`, `rtla hwnoise` and `rtla hwnoise hist`.
 *
 * Upstream rtla's option sets (getopt era, Linux 6.12-7.1) with the same
 * meanings and defaults, parsed strictly: a value upstream would silently
 * misread is refused with a one-line reason. --backend, -J and --json-file
 * are ours. top's list is also hwnoise's, hist's also hwnoise hist's; the
 * rows they share are written once, below. Each tool's spec (its name,
 * list and usage) is beside its row: top.c, hist.c, src/hwnoise/hwnoise.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <tracefs.h>
#include <unistd.h>

#include "actions.h"
#include "cli.h"
#include "cpuspec.h"
#include "gate.h"
#include "msg.h"
#include "osnoise.h"
#include "output.h"
#include "parse.h"
#include "rtconfig.h"
#include "util.h"
#include "options.h"

#define PERIOD_MAX_US	10000000LL	/* upstream: "Period longer than 10 s" */
#define RUNTIME_MIN_US	100LL		/* upstream: "Runtime shorter than 100 us" */
#define BUCKET_MAX_US	999999LL	/* upstream refuses >= 1000000 (its text says <=) */
#define ENTRIES_MIN	10LL		/* upstream accepts 10 (its text says > 10) */
#define ENTRIES_MAX	9999999LL


/* -e: the kernel's trace events, where tracefs is mounted already (none is mounted for this) */
void noise_event_names(FILE *out, const struct cli_completion *c)
{
	const char *dir = NULL;
	char path[PATH_MAX], line[512];
	FILE *f;

	if (tracefs_tracing_dir_is_mounted(false, &dir) <= 0 || !dir)
		return;
	snprintf(path, sizeof(path), "%s/available_events", dir);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, out);
	if (f)
		fclose(f);
}

/* Every tool row of the family, for the completion of --fail-if. */
static const struct noise_tool *const noise_tools[] = {
	&osnoise_top_tool, &osnoise_hist_tool, &hwnoise_tool, &hwnoise_hist_tool,
	&timerlat_top_tool, &timerlat_hist_tool, &hwlat_top_tool, &hwlat_hist_tool,
};

/*
 * --fail-if: the metrics the tool has (gate_check_tool), each with the
 * operator of a limit ("max_single_us>", "cpu_available_pct<"): the user
 * goes on with the value. The spec is the tool's, or its command's
 * ("osnoise", "timerlat": the default verb, top).
 */
void noise_metric_names(FILE *out, const struct cli_completion *c)
{
	const char *cmd = c->spec->command;
	unsigned tool = 0;

	for (size_t i = 0; i < ARRAY_SIZE(noise_tools); i++) {
		const char *name = noise_tools[i]->name;
		size_t n = strlen(cmd);

		if (noise_tools[i]->cli == c->spec || !strcmp(name, cmd) ||
		    (!strncmp(name, cmd, n) && !strcmp(name + n, " top")))
			tool = noise_tools[i]->gate_tool;
	}
	for (int m = 0; m < GATE_NR_METRICS; m++)
		if (gate_metric_measured(&gate_metrics[m], tool))
			fprintf(out, "%s%c\n", gate_metrics[m].name,
				gate_metrics[m].unit == GATE_UNIT_PCT ? '<' : '>');
}

/* --require: the words of rtconfig.h, one a line */
void noise_require_words(FILE *out, const struct cli_completion *c)
{
	for (int i = 0; i < RTC_NR_ITEMS; i++)
		fprintf(out, "%s\n", rtconfig_items[i].word);
}

/* osnoise's own rows from -a to -T (7.1 help lines, in its order) */
#define NOISE_OPTS_MEASURE \
	CLI_VALUE('a', "auto", "us", \
		  "set automatic trace mode, stopping the session if argument in us sample is hit"), \
	CLI_VALUE('p', "period", "us", "osnoise period in us"), \
	CLI_VALUE('r', "runtime", "us", "osnoise runtime in us"), \
	CLI_VALUE('s', "stop", "us", \
		  "stop trace if a single sample is higher than the argument in us"), \
	CLI_VALUE('S', "stop-total", "us", \
		  "stop trace if the total sample is higher than the argument in us"), \
	CLI_VALUE('T', "threshold", "us", "the minimum delta to be considered a noise")

/* Ours: the backends, then the gate and the record. */
#define NOISE_OPTS_OURS \
	NOISE_OPTS_BACKEND("osnoise", "sampler (kernels without the tracer)", \
			   "let the sampler measure without trace events (no root): every gap then\n" \
			   "\t\tcounts as HW noise, and the record says so"), \
	NOISE_OPTS_GATE("max_single_us>20, cpu_available_pct<99.99,\n" \
			"\t\tp99_us>5 (hist), hw_count>0")

/* osnoise top and hwnoise */
const struct cli_option noise_options[] = {
	CLI_OPT_HELP("print this menu"),
	NOISE_OPTS_MEASURE,
	NOISE_OPTS_PLACE("list of cpus to run osnoise threads", "osnoise"),
	CLI_FLAG('q', "quiet", "print only a summary at the end"),
	NOISE_OPT_PRIORITY,
	NOISE_OPTS_TUNING("-s or -S"),
	NOISE_OPTS_OURS,
	CLI_OPT_END
};

/* osnoise hist and hwnoise hist: no -q, the histogram's own after --trigger */
const struct cli_option noise_hist_options[] = {
	CLI_OPT_HELP("print this menu"),
	NOISE_OPTS_MEASURE,
	NOISE_OPTS_PLACE("list of cpus to run osnoise threads", "osnoise"),
	NOISE_OPTS_HIST,
	NOISE_OPT_PRIORITY,
	NOISE_OPTS_TUNING("-s or -S"),
	NOISE_OPTS_OURS,
	NOISE_OPT_PLOT,
	CLI_OPT_END
};

/*
 * upstream's common_usage(): "rtla TOOL MODE: DESCRIPTION (version)", the
 * synopsis after "usage: [rtla] TOOL MODE [-h] ", then the option lines
 */
void noise_usage(FILE *f, const struct cli_spec *spec, const char *usage_name,
		 const char *description, const char *synopsis)
{
	fprintf(f, "rtla %s: %s (version %s)\n\n", spec->command, description, RTLA_VERSION);
	fprintf(f, "  usage: [rtla] %s [-h] %s\n\n", usage_name, synopsis);
	cli_print_options(spec, f);
}

static int add_event(struct noise_params *p, const char *spec, char *err)
{
	struct noise_event *ev, **tail;
	const char *colon = strchr(spec, ':');

	if (!*spec || colon == spec || (colon && !colon[1])) {
		snprintf(err, PARSE_ERR_MAX, "'%s': expected sys[:event]", spec);
		return -EINVAL;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->system = colon ? strndup(spec, colon - spec) : strdup(spec);
	ev->event = colon ? strdup(colon + 1) : NULL;
	for (tail = &p->events; *tail; tail = &(*tail)->next)
		;
	*tail = ev;
	return 0;
}

static struct noise_event *last_event(struct noise_params *p)
{
	struct noise_event *ev = p->events;

	while (ev && ev->next)
		ev = ev->next;
	return ev;
}

static int parse_backend(const char *s, enum noise_backend_kind *kind, char *err)
{
	static const char *const names[] = { "auto", "tracer", "sampler" };

	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(s, names[i])) {
			*kind = i;
			return 0;
		}
	}
	snprintf(err, PARSE_ERR_MAX, "'%s': use auto, tracer or sampler", s);
	return -EINVAL;
}

/* Apply one option; returns 0, or -EINVAL with *what/err set. */
static int apply_option(int c, const char *optarg, struct noise_params *p,
			const char **what, char *err)
{
	struct noise_event *ev;
	long long v;

	switch (c) {
	case 'a':
		*what = "Invalid -a value";
		if (parse_us(optarg, LLONG_MAX / 1000, &p->stop_us, err))
			return -EINVAL;
		p->threshold_us = 1;
		if (!p->trace_file)
			p->trace_file = p->threshold_actions.default_file;
		return 0;
	case 'c':
		*what = "Invalid -c cpu list";
		if (cpuspec_parse(optarg, p->nr_cpus, &p->cpus, err))
			return -EINVAL;
		p->cpus_str = optarg;
		if (cpuspec_is_keyword(optarg)) {
			/* the kernel's osnoise/cpus takes a list, not our words */
			char list[1024];

			free(p->cpus_kw);
			p->cpus_kw = strdup(cpu_list_format(&p->cpus, p->nr_cpus, list, sizeof(list)));
			if (!p->cpus_kw)
				return -ENOMEM;
			p->cpus_str = p->cpus_kw;
		}
		return 0;
	case 'C':
		p->cgroup = true;
		p->cgroup_name = optarg;
		return 0;
	case 'D':
		p->debug = true;
		msg_set_debug(true);
		return 0;
	case 'd':
		*what = "Invalid -d duration";
		return parse_duration(optarg, &p->duration_s, err);
	case 'e':
		*what = "Invalid -e event";
		return add_event(p, optarg, err);
	case 'H':
		*what = "Invalid -H house keeping cpu list";
		p->hk_given = true;
		return cpuspec_parse(optarg, p->nr_cpus, &p->hk, err) ? -EINVAL : 0;
	case 'p':
		*what = "Invalid -p period";
		if (parse_us(optarg, LLONG_MAX, &v, err))
			return -EINVAL;
		if (v > PERIOD_MAX_US) {
			*what = "Period longer than 10 s";
			snprintf(err, PARSE_ERR_MAX, "%lld us", v);
			return -EINVAL;
		}
		if (v == 0) {
			snprintf(err, PARSE_ERR_MAX, "the period must be greater than 0");
			return -EINVAL;
		}
		p->period_us = v;
		return 0;
	case 'P':
		*what = "Invalid -P priority";
		p->prio_given = true;
		return parse_sched_prio(optarg, &p->prio, err);
	case 'q':
		p->quiet = true;
		return 0;
	case 'r':
		*what = "Invalid -r runtime";
		if (parse_us(optarg, LLONG_MAX, &v, err))
			return -EINVAL;
		if (v < RUNTIME_MIN_US) {
			*what = "Runtime shorter than 100 us";
			snprintf(err, PARSE_ERR_MAX, "%lld us", v);
			return -EINVAL;
		}
		p->runtime_us = v;
		return 0;
	case 's':
		*what = "Invalid -s value";
		return parse_us(optarg, LLONG_MAX / 1000, &p->stop_us, err);
	case 'S':
		*what = "Invalid -S value";
		return parse_us(optarg, LLONG_MAX / 1000, &p->stop_total_us, err);
	case 'T':
		*what = "Invalid -T threshold";
		return parse_us(optarg, LLONG_MAX / 1000, &p->threshold_us, err);
	case 't':
		p->trace_file = optarg;
		if (!p->trace_file)
			p->trace_file = p->threshold_actions.default_file;
		return 0;
	case OPT_TRIGGER:
	case OPT_FILTER:
		ev = last_event(p);
		if (!ev) {
			*what = c == OPT_FILTER ? "--filter requires a previous -e"
						: "--trigger requires a previous -e";
			snprintf(err, PARSE_ERR_MAX, "'%s'", optarg);
			return -EINVAL;
		}
		if (c == OPT_FILTER)
			ev->filter = strdup(optarg);
		else
			ev->trigger = strdup(optarg);
		return 0;
	case OPT_WARMUP:
		*what = "Invalid --warm-up seconds";
		return parse_llong(optarg, 0, 86400 * 365, &p->warmup_s, err);
	case OPT_BUFFER:
		*what = "Invalid --trace-buffer-size";
		return parse_kb(optarg, LLONG_MAX / 1024, &p->buffer_kb, err);
	case OPT_ON_THRESHOLD:
		*what = "Invalid action";
		return actions_parse(&p->threshold_actions, optarg, err);
	case OPT_ON_END:
		*what = "Invalid action";
		return actions_parse(&p->end_actions, optarg, err);
	case OPT_BACKEND:
		*what = "Invalid --backend";
		return parse_backend(optarg, &p->backend, err);
	case OPT_UNATTRIBUTED:
		p->unattributed = true;
		return 0;
	case OPT_SMI:
		p->smi = true;
		return 0;
	case 'J':
		p->json_stdout = true;
		return 0;
	case 'b':
		/* upstream's own words for a value out of range, nothing after them */
		*what = "Invalid -b bucket size";
		if (parse_llong(optarg, LLONG_MIN, LLONG_MAX, &v, err))
			return -EINVAL;
		if (v < 1 || v > BUCKET_MAX_US) {
			*what = "Bucket size needs to be > 0 and <= 1000000";
			err[0] = '\0';
			return -EINVAL;
		}
		p->bucket_us = v;
		return 0;
	case 'E':
		*what = "Invalid -E entries";
		if (parse_llong(optarg, LLONG_MIN, LLONG_MAX, &v, err))
			return -EINVAL;
		if (v < ENTRIES_MIN || v > ENTRIES_MAX) {
			*what = "Entries must be > 10 and < 9999999";
			err[0] = '\0';
			return -EINVAL;
		}
		p->entries = v;
		return 0;
	case OPT_NO_HEADER:
		p->no_header = true;
		return 0;
	case OPT_NO_SUMMARY:
		p->no_summary = true;
		return 0;
	case OPT_NO_INDEX:
		p->no_index = true;
		return 0;
	case OPT_WITH_ZEROS:
		p->with_zeros = true;
		return 0;
	case OUT_ID_JSON_FILE:
		p->json_file = optarg;
		return 0;
	case OPT_FAIL_IF:
		*what = "Invalid --fail-if";
		return gate_parse(&p->criteria, optarg, err);
	case OPT_REQUIRE: {
		unsigned mask;

		*what = "Invalid --require";
		if (rtconfig_parse_require(optarg, &mask, err))
			return -EINVAL;
		p->require |= mask;
		return 0;
	}
	case OPT_ON_MISCONFIG:
		*what = "Invalid --on-misconfig";
		if (strcmp(optarg, "refuse") && strcmp(optarg, "record")) {
			snprintf(err, PARSE_ERR_MAX, "'%s': use refuse or record", optarg);
			return -EINVAL;
		}
		p->misconfig_record = !strcmp(optarg, "record");
		return 0;
	case OPT_PLOT:
		p->plot_file = optarg;
		return 0;
	case OPT_JUNIT:
	case OPT_PROMETHEUS:
		/* written at the end of the run: cli_next() refused one that cannot be (CLI_FILE) */
		*(c == OPT_JUNIT ? &p->junit_file : &p->prometheus_file) = optarg;
		return 0;
	default:
		return 0;
	}
}

/* Cross-option checks upstream leaves to the kernel's "Failed to set..." */
static int check_params(const struct noise_tool *tool, struct noise_params *p,
			const char **what, char *err)
{
	long long runtime = p->runtime_us, period = p->period_us;

	if (gate_check_tool(&p->criteria, tool->gate_tool, err)) {
		*what = "Invalid --fail-if";
		return -EINVAL;
	}
	if (p->no_index && !p->with_zeros) {
		*what = "no-index set and with-zeros not set - it does not make sense";
		return -EINVAL;
	}
	if (p->end_actions.has_continue)
		warn_msg("--on-end continue has no effect: the measurement has ended");
	if (tool->check_params)
		return tool->check_params(p, what, err);
	if (!runtime)
		runtime = tool->runtime_us ? tool->runtime_us : (period ? period : tool->period_us);
	if (!period)
		period = tool->period_us;
	if (runtime > period) {
		*what = "Runtime longer than the period";
		snprintf(err, PARSE_ERR_MAX, "runtime %lld us > period %lld us%s", runtime, period,
			 !p->runtime_us ? " (the default runtime; set -r)" : "");
		return -EINVAL;
	}
	p->runtime_us = runtime;
	p->period_us = period;
	/* no noise is longer than the runtime it interrupts: every figure would be 0 */
	if (p->threshold_us >= runtime) {
		snprintf(err, PARSE_ERR_MAX, "threshold %lld us >= runtime %lld us: no noise can "
			 "reach it, every figure would be 0", p->threshold_us, runtime);
		if (p->criteria.len) {
			*what = "Invalid -T for --fail-if";
			return -EINVAL;
		}
		warn_msg("-T: %s", err);
		err[0] = '\0';
	}
	if (p->threshold_actions.has_continue && !p->stop_us && !p->stop_total_us)
		warn_msg("--on-threshold continue has no effect without -s or -S");
	return 0;
}

/* 0, or CLI_EXIT (help or version printed) or CLI_ERROR (a usage error printed). */
int noise_parse_args(int argc, char **argv, const struct noise_tool *tool,
		     struct noise_params *p)
{
	const char *what = NULL;
	char err[PARSE_ERR_MAX] = "";
	struct cli_parser cp;
	int id, ret = 0;

	memset(p, 0, sizeof(*p));
	p->irq_disabled = tool->irq_disabled;
	p->bucket_us = 1;
	p->entries = 256;
	p->dma_latency_us = -1;
	p->deepest_idle = -2;
	p->threshold_actions.default_file = p->end_actions.default_file =
		tool->tracer == TRACER_TIMERLAT ? "timerlat_trace.txt" :
		tool->tracer == TRACER_HWLAT ? "hwlat_trace.txt" : ACTION_DEFAULT_TRACE_FILE;
	p->nr_cpus = get_nprocs_conf();
	if (p->nr_cpus > CPU_SETSIZE)
		p->nr_cpus = CPU_SETSIZE;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		CPU_SET(cpu, &p->cpus);

	cli_begin(&cp, tool->cli, argc, argv);
	while ((id = cli_next(&cp)) > 0) {
		ret = tool->parse_option ? tool->parse_option(id, cp.arg, p, &what, err) : 1;
		if (ret == 1)
			ret = apply_option(id, cp.arg, p, &what, err);
		if (ret)
			break;
	}
	if (id < 0) {
		noise_params_free(p);
		return id;
	}
	if (!ret && cp.optind < argc) {
		what = "unexpected argument";
		snprintf(err, PARSE_ERR_MAX, "%s", argv[cp.optind]);
		ret = -EINVAL;
	}
	if (!ret)
		ret = check_params(tool, p, &what, err);
	if (!ret && p->trace_file)
		ret = actions_add_trace(&p->threshold_actions, p->trace_file);
	if (ret < 0) {
		/* upstream's own words first ("Invalid -c cpu list"): scripts grep for them */
		if (err[0])
			err_msg("%s: %s", what ? what : "Invalid option", err);
		else
			err_msg("%s", what ? what : strerror(-ret));
		noise_params_free(p);
		return CLI_ERROR;
	}
	return 0;
}

void noise_params_free(struct noise_params *p)
{
	struct noise_event *ev = p->events, *next;

	for (; ev; ev = next) {
		next = ev->next;
		free(ev->system);
		free(ev->event);
		free(ev->filter);
		free(ev->trigger);
		free(ev);
	}
	p->events = NULL;
	actions_free(&p->threshold_actions);
	actions_free(&p->end_actions);
	gate_criteria_free(&p->criteria);
	free(p->cpus_kw);
	p->cpus_kw = NULL;
}

int noise_user_cpus(struct noise_params *p)
{
	char list[1024], all[1024];
	cpu_set_t every;

	CPU_ZERO(&every);
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		CPU_SET(cpu, &every);
	if (!p->cpus_str) {
		/* a plain run on a machine it may use whole stays upstream's: osnoise/cpus "all" */
		if (CPU_EQUAL(&p->allowed, &every))
			return 0;
		CPU_AND(&p->cpus, &every, &p->allowed);
		free(p->cpus_kw);
		p->cpus_kw = strdup(cpu_list_format(&p->cpus, p->nr_cpus, list, sizeof(list)));
		if (!p->cpus_kw)
			return -ENOMEM;
		p->cpus_str = p->cpus_kw;
		debug_msg("measuring the CPUs this process may run on: %s", p->cpus_str);
		return 0;
	}
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (CPU_ISSET(cpu, &p->cpus) && !CPU_ISSET(cpu, &p->allowed)) {
			err_msg("Invalid -c cpu list: '%s': CPU %d is outside the CPUs this process may "
				"run on (%s)", p->cpus_str, cpu,
				cpu_list_format(&p->allowed, CPU_SETSIZE, all, sizeof(all)));
			return -EINVAL;
		}
	}
	return 0;
}

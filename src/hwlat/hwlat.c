// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwlat - `rtla hwlat [top|hist]`: the command, its options and checks,
 * the sink both tools share, top's table with hwlatdetect's summary,
 * hist's histogram, the record's part, the --fail-if figures, the rows.
 *
 * The options are hwlatdetect's (rt-tests) on the family's letters: the
 * window is -p (the period of one sample), the width -r (the runtime of
 * one sample: the thread spins with interrupts off that long), -T the
 * threshold, -c the CPUs, -d the duration; -s stops the run at a gap
 * longer than its value (hwlatdetect's --hardlimit fails the run at the
 * end: that is --fail-if max_latency_us>N here).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "msg.h"
#include "osnoise/hist.h"
#include "osnoise/options.h"
#include "osnoise/top.h"
#include "parse.h"
#include "hwlat/hwlat.h"

#define HWLAT_WINDOW_MAX_US	(3600LL * 1000000)	/* an hour: longer says nothing sooner */

const char *const hwlat_mode_names[3] = { "none", "round-robin", "per-cpu" };

/* ---- options --------------------------------------------------------------------- */

#define HWLAT_OPTS_MEASURE \
	CLI_VALUE('p', "window", "us", \
		  "the window: one sample every us, per cpu in per-cpu mode (default 1000000)"), \
	CLI_VALUE('r', "width", "us", \
		  "the width: how long of each window the thread spins with interrupts off\n" \
		  "\t\t(default 500000, at most the window)"), \
	CLI_VALUE('T', "threshold", "us", \
		  "the minimum gap to be considered a hardware latency (default 10)"), \
	CLI_VALUE('s', "stop", "us", "stop the run if a gap is longer than the argument in us"), \
	CLI_VALUE(OPT_HWLAT_MODE, "mode", "none|round-robin|per-cpu", \
		  "how the kernel's thread visits the cpus: one thread moving from cpu to cpu\n" \
		  "\t\t(round-robin, the default), one per cpu (per-cpu), or one the scheduler\n" \
		  "\t\tplaces (none)", .complete = CLI_COMP_WORDS, .words = "none round-robin per-cpu"), \
	CLI_VALUE('c', "cpus", "cpu-list", "sample only the given cpus (the instance's tracing_cpumask)", \
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS), \
	CLI_VALUE('H', "house-keeping", "cpus", "run rtla control threads only on the given cpus", \
		  .flags = CLI_LIST, .complete = CLI_COMP_CPUS), \
	CLI_VALUE('d', "duration", "time[s|m|h|d]", "duration of the session"), \
	CLI_FLAG('D', "debug", "print debug info"), \
	CLI_OPTIONAL('t', "trace", "[file]", \
		     "save the last samples to [file|hwlat_trace.txt] at a stop", \
		     .flags = CLI_FILE | CLI_NOT_STDOUT, .complete = CLI_COMP_FILE)

#define HWLAT_OPTS_OURS \
	NOISE_OPTS_TUNING("-s"), \
	CLI_VALUE(OPT_BACKEND, "backend", "auto|tracer", \
		  "hwlat has the kernel hwlat tracer only (sampler is refused)", \
		  .complete = CLI_COMP_WORDS, .words = "auto tracer"), \
	NOISE_OPTS_GATE("max_latency_us>20, exceeding_count>0,\n" \
			"\t\tsample_count>0, nmi_count>0")

static const struct cli_option hwlat_top_options[] = {
	CLI_OPT_HELP("print this menu"),
	HWLAT_OPTS_MEASURE,
	CLI_FLAG('q', "quiet", "print only a summary at the end"),
	HWLAT_OPTS_OURS,
	CLI_OPT_END
};

static const struct cli_option hwlat_hist_options[] = {
	CLI_OPT_HELP("print this menu"),
	HWLAT_OPTS_MEASURE,
	NOISE_OPTS_HIST,
	HWLAT_OPTS_OURS,
	NOISE_OPT_PLOT,
	CLI_OPT_END
};

static int parse_mode(const char *s, enum hwlat_mode *mode, char *err)
{
	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, hwlat_mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	snprintf(err, PARSE_ERR_MAX, "'%s': use none, round-robin or per-cpu", s);
	return -EINVAL;
}

/* --mode, or round-robin: the kernel's default, written explicitly */
static enum hwlat_mode params_mode(const struct noise_params *p)
{
	return p->hwlat_mode ? (enum hwlat_mode)(p->hwlat_mode - 1) : HWLAT_MODE_ROUND_ROBIN;
}

static int hwlat_parse_option(int id, const char *arg, struct noise_params *p, const char **what,
			      char *err)
{
	enum hwlat_mode mode;
	long long v;

	switch (id) {
	case 'p':
	case 'r':
		*what = id == 'p' ? "Invalid -p/--window" : "Invalid -r/--width";
		if (parse_us(arg, HWLAT_WINDOW_MAX_US, &v, err))
			return -EINVAL;
		if (!v) {
			snprintf(err, PARSE_ERR_MAX, "it must be greater than 0");
			return -EINVAL;
		}
		*(id == 'p' ? &p->period_us : &p->runtime_us) = v;
		return 0;
	case 'T':
		*what = "Invalid -T threshold";
		if (parse_us(arg, LLONG_MAX / 1000, &v, err))
			return -EINVAL;
		if (!v) {
			/* the kernel reads 0 as "the threshold of the last hwlat run" */
			snprintf(err, PARSE_ERR_MAX, "0 would leave the threshold to the kernel's last "
				 "hwlat run; give 1 or more");
			return -EINVAL;
		}
		p->threshold_us = v;
		return 0;
	case OPT_HWLAT_MODE:
		*what = "Invalid --mode";
		if (parse_mode(arg, &mode, err))
			return -EINVAL;
		p->hwlat_mode = mode + 1;
		return 0;
	default:
		return 1;
	}
}

static int hwlat_check_params(struct noise_params *p, const char **what, char *err)
{
	if (p->backend == BACKEND_SAMPLER) {
		*what = "--backend sampler";
		snprintf(err, PARSE_ERR_MAX, "hwlat has only the tracer (the kernel's hwlat tracer): "
			 "for hardware noise without it use rtla hwnoise --backend sampler");
		return -EINVAL;
	}
	/* hwlatdetect's rules: a short window halves the width, a wide width doubles the window */
	if (!p->period_us)
		p->period_us = p->runtime_us > HWLAT_WINDOW_US ? 2 * p->runtime_us : HWLAT_WINDOW_US;
	if (!p->runtime_us)
		p->runtime_us = p->period_us < HWLAT_WIDTH_US ? p->period_us / 2 : HWLAT_WIDTH_US;
	if (!p->runtime_us) {
		*what = "Invalid -p/--window";
		snprintf(err, PARSE_ERR_MAX, "a window of %lld us leaves no width", p->period_us);
		return -EINVAL;
	}
	if (p->runtime_us > p->period_us) {
		*what = "Width longer than the window";
		snprintf(err, PARSE_ERR_MAX, "width %lld us > window %lld us", p->runtime_us,
			 p->period_us);
		return -EINVAL;
	}
	if (!p->threshold_us)
		p->threshold_us = HWLAT_THRESHOLD_US;
	if (p->threshold_us >= p->runtime_us)
		warn_msg("-T: threshold %lld us >= width %lld us: no gap can reach it",
			 p->threshold_us, p->runtime_us);
	if (p->threshold_actions.has_continue && !p->stop_us)
		warn_msg("--on-threshold continue has no effect without -s");
	(void)err;
	return 0;
}

/* ---- the sink -------------------------------------------------------------------- */

static int hwlat_sink_new(struct noise_run *run)
{
	const struct noise_params *p = run->params;
	struct hwlat_data *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	run->hwlat = d;
	d->hist = run->tool->print_live == NULL;
	d->threshold_us = p->threshold_us;
	d->mode = params_mode(p);
	d->cpu = calloc(p->nr_cpus, sizeof(*d->cpu));
	if (!d->cpu)
		return -ENOMEM;
	for (int cpu = 0; d->hist && cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		for (int i = 0; i < 2; i++) {
			d->cpu[cpu].bucket[i] = noise_buckets_new(p);
			if (!d->cpu[cpu].bucket[i])
				return -ENOMEM;
		}
	}
	return 0;
}

static void hwlat_sink_free(struct noise_run *run)
{
	struct hwlat_data *d = run->hwlat;

	for (int cpu = 0; d && d->cpu && cpu < run->params->nr_cpus; cpu++) {
		free(d->cpu[cpu].bucket[0]);
		free(d->cpu[cpu].bucket[1]);
	}
	if (d)
		free(d->cpu);
	free(d);
	run->hwlat = NULL;
}

void hwlat_add_sample(struct noise_run *run, const struct hwlat_sample *s)
{
	struct hwlat_data *d = run->hwlat;
	struct hwlat_cpu *c;

	if (s->cpu < 0 || s->cpu >= run->params->nr_cpus || !d)
		return;
	c = &d->cpu[s->cpu];
	c->samples++;
	/* kernels before the count field: the sample is the one loop hwlatdetect counts */
	c->exceeding += s->count ? s->count : 1;
	if (s->inner_us > c->inner_max)
		c->inner_max = s->inner_us;
	if (s->outer_us > c->outer_max)
		c->outer_max = s->outer_us;
	c->inner_over += s->inner_us > (uint64_t)d->threshold_us;
	c->outer_over += s->outer_us > (uint64_t)d->threshold_us;
	c->inner_sum += s->inner_us;
	c->outer_sum += s->outer_us;
	c->nmi_count += s->nmi_count;
	c->nmi_total_us += s->nmi_total_us;
	if (s->seqnum > d->max_seqnum)
		d->max_seqnum = s->seqnum;
	if (c->bucket[0]) {
		noise_buckets_count(run->params, c->bucket[0], s->inner_us);
		noise_buckets_count(run->params, c->bucket[1], s->outer_us);
	}
}

static uint64_t cpu_max_latency(const struct hwlat_cpu *c)
{
	return c->inner_max > c->outer_max ? c->inner_max : c->outer_max;
}

long long hwlat_cpu_windows(const struct noise_run *run, int cpu)
{
	const struct noise_params *p = run->params;
	const struct hwlat_data *d = run->hwlat;
	long long n = CPU_COUNT(&p->cpus), idx = 0;

	if (d->mode == HWLAT_MODE_PER_CPU)
		return d->windows;
	if (d->mode == HWLAT_MODE_NONE || !n)
		return -1;
	for (int c = 0; c < cpu; c++)
		idx += CPU_ISSET(c, &p->cpus);
	/* the thread starts on the first CPU and moves on before its first sample */
	idx = (idx - 1 + n) % n;
	return d->windows / n + (idx < (long long)(d->windows % n));
}

/* A CPU the thread sampled, or one it left a sample on. */
static bool cpu_sampled(const struct noise_run *run, int cpu)
{
	return run->hwlat->cpu[cpu].samples || hwlat_cpu_windows(run, cpu) > 0;
}

static void hwlat_totals(const struct noise_run *run, struct hwlat_cpu *all)
{
	const struct noise_params *p = run->params;

	memset(all, 0, sizeof(*all));
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct hwlat_cpu *c = &run->hwlat->cpu[cpu];

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		all->samples += c->samples;
		all->exceeding += c->exceeding;
		if (c->inner_max > all->inner_max)
			all->inner_max = c->inner_max;
		if (c->outer_max > all->outer_max)
			all->outer_max = c->outer_max;
		all->nmi_count += c->nmi_count;
		all->nmi_total_us += c->nmi_total_us;
	}
}

/* ---- printers -------------------------------------------------------------------- */

static void print_settings(FILE *f, const struct noise_run *run, time_t now)
{
	const struct hwlat_data *d = run->hwlat;
	char duration[32];

	noise_format_duration(now - run->start_time, duration, sizeof(duration));
	fprintf(f, "duration: %9s | time is in us | threshold %lld, window %lld, width %lld, "
		"mode %s\n", duration, d->threshold_us, run->params->period_us,
		run->params->runtime_us, d->mode == HWLAT_MODE_KERNEL ? "(the kernel's)" :
		hwlat_mode_names[d->mode]);
}

static void hwlat_top_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;

	fprintf(f, "%42s%s\n", "", run->tool->title);
	print_settings(f, run, now);
	fprintf(f, "CPU    Samples    Exceeding   Max Inner   Max Outer     Inner>T     Outer>T"
		   "        NMIs    NMI time\n");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct hwlat_cpu *c = &run->hwlat->cpu[cpu];

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		fprintf(f, "%3d %10llu %12llu %11llu %11llu %11llu %11llu %11llu %11llu\n", cpu,
			(unsigned long long)c->samples, (unsigned long long)c->exceeding,
			(unsigned long long)c->inner_max, (unsigned long long)c->outer_max,
			(unsigned long long)c->inner_over, (unsigned long long)c->outer_over,
			(unsigned long long)c->nmi_count, (unsigned long long)c->nmi_total_us);
	}
	noise_print_missed(f, run);
}

/* hwlatdetect's closing lines, for the same run */
static void print_summary(FILE *f, const struct noise_run *run)
{
	struct hwlat_cpu all;
	uint64_t max;

	hwlat_totals(run, &all);
	max = cpu_max_latency(&all);
	if (max)
		fprintf(f, "Max Latency: %lluus\n", (unsigned long long)max);
	else
		fputs("Max Latency: Below threshold\n", f);
	fprintf(f, "Samples recorded: %llu\n", (unsigned long long)all.samples);
	fprintf(f, "Samples exceeding threshold: %llu\n", (unsigned long long)all.exceeding);
}

static void hwlat_top_print_final(FILE *f, const struct noise_run *run, time_t now)
{
	hwlat_top_print(f, run, now);
	print_summary(f, run);
}

static void hwlat_hist_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;
	static const char *const names[2] = { "Inner", "Outer" };

	if (!p->no_header) {
		fprintf(f, "# %s\n# Time unit is microseconds (us)\n", run->tool->title);
		fputs("# ", f);
		print_settings(f, run, now);
		if (!p->no_index)
			fputs("Index", f);
		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; CPU_ISSET(cpu, &p->cpus) && i < 2; i++)
				fprintf(f, " %5s-%03d", names[i], cpu);
		fputc('\n', f);
	}
	for (long long b = 0; b <= p->entries; b++) {
		uint64_t total = 0;

		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; CPU_ISSET(cpu, &p->cpus) && i < 2; i++)
				total += run->hwlat->cpu[cpu].bucket[i][b];
		if (b < p->entries && !total && !p->with_zeros)
			continue;
		if (!p->no_index) {
			if (b < p->entries)
				fprintf(f, "%-6lld", b * p->bucket_us);
			else
				fputs("over: ", f);
		}
		for (int cpu = 0; cpu < p->nr_cpus; cpu++)
			for (int i = 0; CPU_ISSET(cpu, &p->cpus) && i < 2; i++)
				fprintf(f, "%9llu ",
					(unsigned long long)run->hwlat->cpu[cpu].bucket[i][b]);
		fputc('\n', f);
	}
	if (!p->no_summary) {
		static const char *const rows[] = { "count:", "avg:  ", "max:  " };

		for (int r = 0; r < 3; r++) {
			if (!p->no_index)
				fputs(rows[r], f);
			for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
				const struct hwlat_cpu *c = &run->hwlat->cpu[cpu];
				uint64_t v[2][3] = {
					{ c->samples, c->samples ? c->inner_sum / c->samples : 0, c->inner_max },
					{ c->samples, c->samples ? c->outer_sum / c->samples : 0, c->outer_max },
				};

				for (int i = 0; CPU_ISSET(cpu, &p->cpus) && i < 2; i++) {
					if (r && !c->samples)
						fprintf(f, "%9c ", '-');
					else
						fprintf(f, "%9llu ", (unsigned long long)v[i][r]);
				}
			}
			fputc('\n', f);
		}
		print_summary(f, run);
	}
	noise_print_missed(f, run);
}

/* ---- the record and the gate ----------------------------------------------------- */

static void hwlat_json_options(struct json *j, const struct noise_params *p)
{
	enum hwlat_mode mode = params_mode(p);

	json_i64(j, "window_us", p->period_us);
	json_i64(j, "width_us", p->runtime_us);
	json_str(j, "mode", mode == HWLAT_MODE_KERNEL ? NULL : hwlat_mode_names[mode]);
}

static void hwlat_top_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	const struct hwlat_data *d = run->hwlat;
	struct hwlat_cpu all;

	hwlat_totals(run, &all);
	/* hwlatdetect's summary, as numbers */
	json_object_begin(j, "summary");
	json_i64(j, "threshold_us", d->threshold_us);
	json_str(j, "mode", d->mode == HWLAT_MODE_KERNEL ? NULL : hwlat_mode_names[d->mode]);
	json_u64(j, "windows", d->windows);
	json_u64(j, "max_latency_us", cpu_max_latency(&all));
	json_u64(j, "samples_recorded", all.samples);
	json_u64(j, "samples_exceeding", all.exceeding);
	json_object_end(j);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct hwlat_cpu *c = &d->cpu[cpu];
		long long windows = hwlat_cpu_windows(run, cpu);

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		if (windows >= 0)
			json_i64(j, "windows", windows);
		else
			json_null(j, "windows");
		json_u64(j, "sample_count", c->samples);
		json_u64(j, "exceeding_count", c->exceeding);
		json_u64(j, "max_latency_us", cpu_max_latency(c));
		json_u64(j, "inner_max_us", c->inner_max);
		json_u64(j, "outer_max_us", c->outer_max);
		json_u64(j, "inner_over_count", c->inner_over);
		json_u64(j, "outer_over_count", c->outer_over);
		json_u64(j, "nmi_count", c->nmi_count);
		json_u64(j, "nmi_total_us", c->nmi_total_us);
		json_object_end(j);
	}
	json_array_end(j);
}

static void hwlat_hist_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	static const char *const names[2] = { "inner", "outer" };

	json_object_begin(j, "histogram");
	json_str(j, "unit", "us");
	json_i64(j, "bucket_size", p->bucket_us);
	json_i64(j, "entries", p->entries);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		for (int i = 0; i < 2; i++)
			noise_buckets_json(j, names[i], p, run->hwlat->cpu[cpu].bucket[i]);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
	hwlat_top_json(j, run);
}

static void hwlat_gate_figures(const struct noise_run *run, int cpu, struct gate_figures *f)
{
	const struct hwlat_cpu *c = &run->hwlat->cpu[cpu];
	const struct { enum gate_metric m; uint64_t v; } figures[] = {
		{ GATE_HWLAT_MAX, cpu_max_latency(c) }, { GATE_HWLAT_INNER, c->inner_max },
		{ GATE_HWLAT_OUTER, c->outer_max }, { GATE_SAMPLES, c->samples },
		{ GATE_HWLAT_EXCEEDING, c->exceeding }, { GATE_NMI, c->nmi_count },
		{ GATE_HWLAT_NMI_TIME, c->nmi_total_us },
	};

	/* a CPU the thread never visited has no figures: a gate must not pass on it */
	if (!cpu_sampled(run, cpu))
		return;
	f->measured = true;
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		f->have[figures[i].m] = true;
		f->v[figures[i].m] = figures[i].v;
	}
}

/* ---- usage, verbs, rows ---------------------------------------------------------- */

static const char hwlat_synopsis[] =
	"[-q] [-D] [-d s] [-p us] [-r us] [-T us] [-s us] [--mode mode] \\\n"
	"	  [-c cpu-list] [-H cpu-list] [-t [file]] [--warm-up s] [-J] [--json-file file] \\\n"
	"	  [--fail-if expr] [--junit file] [--prometheus file]";

static const struct cli_spec hwlat_top_cli, hwlat_hist_cli;

static void hwlat_top_usage(FILE *f)
{
	noise_usage(f, &hwlat_top_cli, "hwlat [top]",
		    "per-cpu hardware latency from the kernel's hwlat tracer", hwlat_synopsis);
}

static void hwlat_hist_usage(FILE *f)
{
	noise_usage(f, &hwlat_hist_cli, "hwlat hist",
		    "a per-cpu histogram of the hwlat tracer's gaps", hwlat_synopsis);
}

static const struct cli_spec hwlat_top_cli = {
	.command = "hwlat top",
	.options = hwlat_top_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hwlat_top_usage,
};

static const struct cli_spec hwlat_hist_cli = {
	.command = "hwlat hist",
	.options = hwlat_hist_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hwlat_hist_usage,
};

#define HWLAT_ROW \
	.tracer = TRACER_HWLAT, \
	.period_us = HWLAT_WINDOW_US, \
	.runtime_us = HWLAT_WIDTH_US, \
	.sink_new = hwlat_sink_new, \
	.sink_free = hwlat_sink_free, \
	.parse_option = hwlat_parse_option, \
	.check_params = hwlat_check_params, \
	.gate_figures = hwlat_gate_figures, \
	.json_options = hwlat_json_options, \
	.backend = &hwlat_tracer_backend

const struct noise_tool hwlat_top_tool = {
	.name = "hwlat top",
	.title = "Hardware Latency (hwlat)",
	.cli = &hwlat_top_cli,
	.gate_tool = GATE_HWLAT_TOP,
	HWLAT_ROW,
	.print_live = hwlat_top_print,
	.print_final = hwlat_top_print_final,
	.json_part = hwlat_top_json,
};

const struct noise_tool hwlat_hist_tool = {
	.name = "hwlat hist",
	.title = "RTLA hwlat histogram",
	.cli = &hwlat_hist_cli,
	.gate_tool = GATE_HWLAT_HIST,
	HWLAT_ROW,
	.print_final = hwlat_hist_print,
	.json_part = hwlat_hist_json,
};

static int hwlat_top_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &hwlat_top_tool);
}

static int hwlat_hist_main(int argc, char **argv)
{
	return noise_cmd_run(argc, argv, &hwlat_hist_tool);
}

static void hwlat_usage(FILE *f)
{
	fprintf(f, "\nhwlat version %s\n\n"
		   "  usage: [rtla] hwlat [MODE] ...\n\n"
		   "  modes:\n", RTLA_VERSION);
	cli_print_verbs(&hwlat_cli, f);
	fputs("\nif no MODE is given, the top mode is called, passing the arguments\n", f);
}

static const struct cli_verb hwlat_verbs[] = {
	CLI_VERB("top", hwlat_top_main, &hwlat_top_cli,
		 "per-cpu hardware latency and hwlatdetect's summary",
		 .flags = CLI_VERB_DEFAULT | CLI_VERB_NAMED),
	CLI_VERB("hist", hwlat_hist_main, &hwlat_hist_cli,
		 "a per-cpu histogram of the inner and outer gaps"),
	CLI_VERB_END
};

const struct cli_spec hwlat_cli = {
	.command = "hwlat",
	.options = hwlat_top_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = hwlat_usage,
	.verbs = hwlat_verbs,
};

int cmd_hwlat(int argc, char **argv)
{
	return cli_run_verbs(&hwlat_cli, argc, argv);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * top - `rtla osnoise top`: the sink and printers of osnoise top and
 * hwnoise, that is the noise table as upstream rtla prints it (scripts parse
 * it, so every space matters) and top's per-CPU part of the JSON record
 * (record.c writes the rest), then osnoise top's usage and its tool row.
 * driver.c runs it; hwnoise's row (src/hwnoise/) shares the sink and printers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "osnoise.h"
#include "top.h"
#include "util.h"

/* top's sink: every period folded into its CPU's totals */
int noise_top_sink_new(struct noise_run *run)
{
	run->cpu = calloc(run->params->nr_cpus, sizeof(*run->cpu));
	return run->cpu ? 0 : -ENOMEM;
}

void noise_top_sink_free(struct noise_run *run)
{
	free(run->cpu);
	run->cpu = NULL;
}

void noise_top_add_period(struct noise_run *run, const struct noise_period *p)
{
	noise_cpu_fold(&run->cpu[p->cpu], p);
}

void noise_cpu_fold(struct noise_cpu *c, const struct noise_period *p)
{
	c->periods++;
	c->sum_runtime += p->runtime;
	c->sum_noise += p->noise;
	if (p->noise > c->max_noise)
		c->max_noise = p->noise;
	if (p->max_sample > c->max_sample)
		c->max_sample = p->max_sample;
	c->hw += p->hw;
	c->nmi += p->nmi;
	c->irq += p->irq;
	c->softirq += p->softirq;
	c->thread += p->thread;
}

/*
 * Upstream multiplies (runtime - noise) by 10^7 in 64 bits, which wraps
 * after ~1.8e12 us (~20 days) of summed runtime; the full product does not,
 * and gives the same digits before that.
 */
unsigned long long noise_cpu_avail(const struct noise_cpu *c)
{
	if (!c->sum_runtime || c->sum_noise > c->sum_runtime)
		return 0;
	return mul_div_u64(c->sum_runtime - c->sum_noise, 10000000, c->sum_runtime);
}

void noise_format_duration(time_t secs, char *buf, size_t len)
{
	snprintf(buf, len, "%3lld %02lld:%02lld:%02lld", (long long)(secs / 86400),
		 (long long)(secs / 3600 % 24), (long long)(secs / 60 % 60), (long long)(secs % 60));
}

void noise_table_print(FILE *f, const struct noise_run *run, time_t now)
{
	const struct noise_params *p = run->params;
	bool os = run->tool->os_columns;
	char duration[32];

	noise_format_duration(now - run->start_time, duration, sizeof(duration));
	fprintf(f, "%42s%s%s%35s\n", "", run->tool->title,
		os ? "                                       " : "", "");
	fprintf(f, "duration: %9s | time is in us\n", duration);
	fprintf(f, "CPU Period       Runtime        Noise  %% CPU Aval   Max Noise   Max Single "
		   "         HW          NMI%s\n", os ? "          IRQ      Softirq       Thread" : "");

	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct noise_cpu *c = &run->cpu[cpu];
		unsigned long long avail;

		if (!CPU_ISSET(cpu, &p->cpus) || !c->sum_runtime)
			continue;
		avail = noise_cpu_avail(c);
		fprintf(f, "%3d #%-6llu %12llu %12llu   %3llu.%05llu%12llu %12llu%12llu %12llu ",
			cpu, (unsigned long long)c->periods, (unsigned long long)c->sum_runtime,
			(unsigned long long)c->sum_noise, avail / 100000, avail % 100000,
			(unsigned long long)c->max_noise, (unsigned long long)c->max_sample,
			(unsigned long long)c->hw, (unsigned long long)c->nmi);
		if (!os)
			fputc('\n', f);
		else
			fprintf(f, "%12llu %12llu %12llu\n", (unsigned long long)c->irq,
				(unsigned long long)c->softirq, (unsigned long long)c->thread);
	}
	noise_print_missed(f, run);
}

/* What stays on the screen: the last table. */
void noise_top_print_final(FILE *f, const struct noise_run *run, time_t now)
{
	noise_table_print(f, run, now);
}

void noise_print_missed(FILE *f, const struct noise_run *run)
{
	if (run->missed_events == UINT64_MAX) {
		fprintf(f, "unknown number of events missed, results might not be accurate\n");
	} else if (run->missed_events) {
		unsigned long long total = run->processed_events + run->missed_events;

		fprintf(f, "%llu (%.2f%%) events missed, results might not be accurate\n",
			(unsigned long long)run->missed_events,
			(double)run->missed_events / total * 100.0);
	}
}

/* top's part of the record: one object per measured CPU */
void noise_top_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;

	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		const struct noise_cpu *c = &run->cpu[cpu];

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		json_u64(j, "periods", c->periods);
		/* no figure without a period: a gate must not read 0 % available */
		if (!c->periods) {
			/* the keys written below, in their order: every tool's, then os_columns' */
			static const char *const keys[] = {
				"runtime_us", "noise_us", "cpu_available_pct", "max_noise_us",
				"max_single_us", "hw_count", "nmi_count",
			};
			static const char *const os_keys[] = {
				"irq_count", "softirq_count", "thread_count",
			};

			json_str(j, "reason", "no period completed on this CPU");
			for (size_t k = 0; k < ARRAY_SIZE(keys); k++)
				json_null(j, keys[k]);
			for (size_t k = 0; run->tool->os_columns && k < ARRAY_SIZE(os_keys); k++)
				json_null(j, os_keys[k]);
			json_object_end(j);
			continue;
		}
		json_null(j, "reason");
		json_u64(j, "runtime_us", c->sum_runtime);
		json_u64(j, "noise_us", c->sum_noise);
		json_double(j, "cpu_available_pct", noise_cpu_avail(c) / 100000.0, 5);
		json_u64(j, "max_noise_us", c->max_noise);
		json_u64(j, "max_single_us", c->max_sample);
		json_u64(j, "hw_count", c->hw);
		json_u64(j, "nmi_count", c->nmi);
		if (run->tool->os_columns) {
			json_u64(j, "irq_count", c->irq);
			json_u64(j, "softirq_count", c->softirq);
			json_u64(j, "thread_count", c->thread);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

/* ---- the tool: osnoise top's options, usage and row ------------------------------ */

const char noise_top_synopsis[] =
	"[-q] [-D] [-d s] [-a us] [-p us] [-r us] [-s us] [-S us] \\\n"
	"	  [-T us] [-t [file]] [-e sys[:event]] [--filter <filter>] [--trigger <trigger>] \\\n"
	"	  [-c cpu-list] [-H cpu-list] [-P priority] [-C [cgroup_name]] [--warm-up s]";

static void top_usage(FILE *f)
{
	noise_usage(f, &osnoise_top_cli, "osnoise [top]", "a per-cpu summary of the OS noise",
		    noise_top_synopsis);
}

const struct cli_spec osnoise_top_cli = {
	.command = "osnoise top",
	.options = noise_options,
	.style = CLI_STYLE_UPSTREAM,
	.usage = top_usage,
};

const struct noise_tool osnoise_top_tool = {
	.name = "osnoise top",
	.title = "Operating System Noise",
	.cli = &osnoise_top_cli,
	.gate_tool = GATE_OSNOISE_TOP,
	.os_columns = true,
	.period_us = NOISE_PERIOD_US,
	NOISE_TOP_SINK_AND_PRINTERS,
};

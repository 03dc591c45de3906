// SPDX-License-Identifier: GPL-2.0-only
/*
 * table - the sink and printers of osnoise top and hwnoise: the noise table
 * as upstream rtla prints it (scripts parse it, so every space matters), and
 * the JSON record of a run, whose per-CPU part each tool writes itself.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "actions.h"
#include "json.h"
#include "msg.h"
#include "osnoise.h"
#include "parse.h"
#include "tasks.h"
#include "table.h"

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
 * after ~1.8e12 us (~20 days) of summed runtime; 128 bits do not, and give
 * the same digits before that.
 */
unsigned long long noise_cpu_avail(const struct noise_cpu *c)
{
	unsigned __int128 free_time;

	if (!c->sum_runtime || c->sum_noise > c->sum_runtime)
		return 0;
	free_time = c->sum_runtime - c->sum_noise;
	return (unsigned long long)(free_time * 10000000 / c->sum_runtime);
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

/* What stays on the screen: the backend's note, then the last table. */
void noise_top_print_final(FILE *f, const struct noise_run *run, time_t now)
{
	if (run->note)
		fprintf(f, "%s\n", run->note);
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

static void json_options(struct json *j, const struct noise_params *p)
{
	char buf[1024];

	json_object_begin(j, "options");
	json_str(j, "cpus", cpu_list_format(&p->cpus, p->nr_cpus, buf, sizeof(buf)));
	json_i64(j, "runtime_us", p->runtime_us);
	json_i64(j, "period_us", p->period_us);
	json_i64(j, "threshold_us", p->threshold_us);
	json_i64(j, "stop_us", p->stop_us);
	json_i64(j, "stop_total_us", p->stop_total_us);
	json_i64(j, "duration_s", p->duration_s);
	json_i64(j, "warmup_s", p->warmup_s);
	json_i64(j, "trace_buffer_kb", p->buffer_kb);
	json_str(j, "house_keeping", p->hk_given ? cpu_list_format(&p->hk, p->nr_cpus, buf, sizeof(buf)) : NULL);
	json_str(j, "priority", p->prio_given ? task_prio_describe(&p->prio, buf, sizeof(buf)) : NULL);
	if (p->cgroup)
		json_str(j, "cgroup", p->cgroup_name ? p->cgroup_name : "(rtla's own)");
	else
		json_null(j, "cgroup");
	json_array_begin(j, "events");
	for (const struct noise_event *ev = p->events; ev; ev = ev->next) {
		snprintf(buf, sizeof(buf), "%s%s%s", ev->system, ev->event ? ":" : "",
			 ev->event ? ev->event : "");
		json_str(j, NULL, buf);
	}
	json_array_end(j);
	json_bool(j, "quiet", p->quiet);
	json_object_end(j);
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
			static const char *const keys[] = {
				"runtime_us", "noise_us", "cpu_available_pct", "max_noise_us",
				"max_single_us", "hw_count", "nmi_count", "irq_count",
				"softirq_count", "thread_count",
			};

			json_str(j, "reason", "no period completed on this CPU");
			for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				if (k < 7 || run->tool->os_columns)
					json_null(j, keys[k]);
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

/* How a chain of actions went: how many succeeded, which one failed and why. */
static void json_outcome(struct json *j, const char *key, const struct action_outcome *o,
			 const struct action_list *list)
{
	json_object_begin(j, key);
	json_i64(j, "done_count", o->done);
	if (o->failed >= 0) {
		json_object_begin(j, "failed");
		json_i64(j, "index", o->failed + 1);
		json_str(j, "action", action_name(&list->items[o->failed]));
		json_str(j, "error", o->err == -ECHILD ? "the command did not exit with 0"
						      : strerror(-o->err));
		json_object_end(j);
	} else {
		json_null(j, "failed");
	}
	json_bool(j, "continued", o->continued);
	json_object_end(j);
}

static void json_hit(struct json *j, const struct noise_hit *h, const struct action_list *list)
{
	json_object_begin(j, NULL);
	json_double(j, "at_s", h->at_s, 3);
	json_str(j, "condition", h->condition);
	if (h->cpu >= 0)
		json_i64(j, "cpu", h->cpu);
	else
		json_null(j, "cpu");
	if (h->value_us >= 0)
		json_i64(j, "value_us", h->value_us);
	else
		json_null(j, "value_us");
	json_outcome(j, "actions", &h->actions, list);
	json_object_end(j);
}

static void json_limit(struct json *j, const char *key, enum gate_metric m, bool have, double v)
{
	char buf[32];

	gate_value_str(m, have, v, buf, sizeof(buf));
	if (have)
		json_raw(j, key, buf);
	else
		json_null(j, key);
}

/* --fail-if: the criteria, and every CPU and criterion that failed, with the values */
static void json_gate(struct json *j, const struct noise_run *run)
{
	const struct gate_criteria *c = &run->params->criteria;
	const struct gate_verdict *v = run->gate;

	if (!c->len || !v) {
		json_null(j, "gate");
		return;
	}
	json_object_begin(j, "gate");
	json_array_begin(j, "criteria");
	for (int i = 0; i < c->len; i++)
		json_str(j, NULL, c->items[i].text);
	json_array_end(j);
	json_i64(j, "cpus_passed", v->nr_cpus - v->nr_cpus_failed);
	json_i64(j, "cpus_failed", v->nr_cpus_failed);
	json_array_begin(j, "failures");
	for (int i = 0; i < v->nr_results; i++) {
		const struct gate_result *r = &v->results[i];
		const struct gate_criterion *cr = &c->items[r->criterion];

		if (!r->failed)
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", r->cpu);
		json_str(j, "metric", gate_metrics[cr->metric].name);
		json_str(j, "op", gate_op_str(cr->op));
		json_limit(j, "value", cr->metric, r->have, r->value);
		json_limit(j, "limit", cr->metric, true, cr->limit);
		json_str(j, "criterion", cr->text);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

void noise_json_write(const struct noise_run *run, FILE *f, double elapsed_s)
{
	const struct noise_params *p = run->params;
	struct json j;

	json_init(&j, f);
	json_record_begin(&j, NOISE_SCHEMA_VERSION);
	json_double(&j, "duration_s", elapsed_s, 3);
	json_str(&j, "verdict", run->gate && run->gate->first_failed >= 0 ? "failed" :
				run->stop_hit ? "stopped" :
				run->interrupted ? "interrupted" : "passed");
	if (p->duration_s)
		json_i64(&j, "requested_duration_s", p->duration_s);
	else
		json_null(&j, "requested_duration_s");
	json_str(&j, "backend", run->backend->name);
	json_str(&j, "degraded", run->degraded);
	json_options(&j, p);
	run->tool->json_part(&j, run);
	json_u64(&j, "processed_events", run->processed_events);
	if (run->missed_events == UINT64_MAX)
		json_null(&j, "missed_events");
	else
		json_u64(&j, "missed_events", run->missed_events);
	if (run->stop_hit) {
		json_object_begin(&j, "stop");
		json_str(&j, "condition", run->stop_reason);
		if (run->stop_cpu >= 0)
			json_i64(&j, "cpu", run->stop_cpu);
		else
			json_null(&j, "cpu");
		if (run->stop_value_us >= 0)
			json_i64(&j, "value_us", run->stop_value_us);
		else
			json_null(&j, "value_us");
		json_object_end(&j);
	} else {
		json_null(&j, "stop");
	}
	json_array_begin(&j, "hits");
	for (int i = 0; i < run->nr_hits; i++)
		json_hit(&j, &run->hits[i], &p->threshold_actions);
	json_array_end(&j);
	if (run->end_actions_ran && p->end_actions.len)
		json_outcome(&j, "end_actions", &run->end_actions, &p->end_actions);
	else
		json_null(&j, "end_actions");
	json_gate(&j, run);
	json_object_end(&j);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * record - the JSON run record of every noise tool: the envelope, the
 * verdict, the options, the tool's own part (its row's json_part: top's
 * per-CPU totals, hist's histogram), the stop condition and every hit
 * with its actions, the SMIs of each measured CPU, and the --fail-if gate.
 * A CI gate and rtla compare read it; its fields keep their meaning
 * (NOISE_SCHEMA_VERSION).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "actions.h"
#include "json.h"
#include "misconfig.h"
#include "osnoise.h"
#include "parse.h"
#include "record.h"
#include "sysroot.h"
#include "tasks.h"

/* timerlat's own options: what it measured with and what it did at a stop */
static void json_timerlat_options(struct json *j, const struct noise_params *p)
{
	json_i64(j, "print_stack_us", p->print_stack_us);
	json_bool(j, "nano", p->nano);
	if (p->dma_latency_us >= 0)
		json_i64(j, "dma_latency_us", p->dma_latency_us);
	else
		json_null(j, "dma_latency_us");
	if (p->deepest_idle >= -1)
		json_i64(j, "deepest_idle_state", p->deepest_idle);
	else
		json_null(j, "deepest_idle_state");
	json_bool(j, "auto_analysis", noise_stop_set(p) && !p->no_aa);
	json_bool(j, "aa_only", p->aa_only);
	json_bool(j, "dump_tasks", p->dump_tasks);
	json_str(j, "stack_format", timerlat_stack_formats[p->stack_format]);
}

/*
 * Which CPUs were measured (the asked ones that are online) and where rtla
 * could run (in a container, fewer than the machine has): the samplers and
 * timerlat's user threads measure only there.
 */
static void json_cpu_sets(struct json *j, const struct noise_params *p)
{
	cpu_set_t measured;
	char buf[1024];

	noise_measured_cpus(p, &measured);
	json_str(j, "measured_cpus", cpu_list_format(&measured, p->nr_cpus, buf, sizeof(buf)));
	json_str(j, "allowed_cpus", CPU_COUNT(&p->allowed) ?
		 cpu_list_format(&p->allowed, CPU_SETSIZE, buf, sizeof(buf)) : NULL);
}

static void json_options(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	bool timerlat = run->tool->tracer == TRACER_TIMERLAT;
	char buf[1024];

	json_object_begin(j, "options");
	json_str(j, "cpus", cpu_list_format(&p->cpus, p->nr_cpus, buf, sizeof(buf)));
	json_cpu_sets(j, p);
	if (!timerlat)
		json_i64(j, "runtime_us", p->runtime_us);
	json_i64(j, "period_us", p->period_us);
	if (!timerlat)
		json_i64(j, "threshold_us", p->threshold_us);
	/* timerlat's -i and -T: the same kernel files */
	json_i64(j, "stop_us", p->stop_us);
	json_i64(j, "stop_total_us", p->stop_total_us);
	if (timerlat)
		json_timerlat_options(j, p);
	if (run->tool->json_options)
		run->tool->json_options(j, p);
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

/* What "stop" and each of "hits" say of a stop condition: which, on which CPU, how much. */
static void json_condition(struct json *j, const char *condition, int cpu, long long value_us)
{
	json_str(j, "condition", condition);
	if (cpu >= 0)
		json_i64(j, "cpu", cpu);
	else
		json_null(j, "cpu");
	if (value_us >= 0)
		json_i64(j, "value_us", value_us);
	else
		json_null(j, "value_us");
}

static void json_hit(struct json *j, const struct noise_hit *h, const struct action_list *list)
{
	json_object_begin(j, NULL);
	json_double(j, "at_s", h->at_s, 3);
	json_condition(j, h->condition, h->cpu, h->value_us);
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
	/* the same, parsed: the limit in the metric's unit (rtla report draws it) */
	json_array_begin(j, "limits");
	for (int i = 0; i < c->len; i++) {
		const struct gate_criterion *cr = &c->items[i];

		json_object_begin(j, NULL);
		json_str(j, "metric", gate_metrics[cr->metric].name);
		json_str(j, "op", gate_op_str(cr->op));
		json_limit(j, "limit", cr->metric, true, cr->limit);
		json_str(j, "criterion", cr->text);
		json_object_end(j);
	}
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

/*
 * The SMIs of each measured CPU during the run (src/smi.h), numbers; or,
 * where they could not be read, null for each and one reason for the run.
 */
static void json_smi(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	uint64_t smis;

	json_object_begin(j, "smi");
	json_bool(j, "available", run->smi.available);
	json_str(j, "why", run->smi.available ? NULL : run->smi.why);
	json_array_begin(j, "cpus");
	for (int cpu = 0; cpu < p->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &run->smi.cpus))
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		if (smi_counts_delta(&run->smi, cpu, &smis))
			json_u64(j, "count", smis);
		else
			json_null(j, "count");
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

/* the series' rows of the measured CPUs */
static int measured(int cpu, const void *arg)
{
	const struct noise_run *run = arg;
	cpu_set_t set;

	noise_measured_cpus(run->params, &set);
	return CPU_ISSET(cpu, &set);
}

int noise_json_body(struct json *j, const void *arg)
{
	const struct noise_record *rec = arg;
	const struct noise_run *run = rec->run;
	const struct noise_params *p = run->params;

	json_double(j, "duration_s", rec->elapsed_s, 3);
	/* figures measured on a machine not set up as --require asked say less than a failure */
	json_str(j, "verdict", misconfig_found(run) ? "misconfigured" :
				run->gate && run->gate->failed ? "failed" :
				run->stop_hit ? "stopped" :
				run->interrupted ? "interrupted" :
				gate_lost(run) ? "incomplete" : "passed");
	if (p->duration_s)
		json_i64(j, "requested_duration_s", p->duration_s);
	else
		json_null(j, "requested_duration_s");
	json_str(j, "backend", run->backend->name);
	json_str(j, "degraded", run->degraded);
	json_options(j, run);
	run->tool->json_part(j, run);
	if (run->series.vals)
		series_json(j, &run->series, "cpu", measured, run);
	else
		json_null(j, "series");
	json_u64(j, "processed_events", run->processed_events);
	if (run->missed_events == UINT64_MAX)
		json_null(j, "missed_events");
	else
		json_u64(j, "missed_events", run->missed_events);
	json_u64(j, "lost_samples", run->lost_samples);
	json_smi(j, run);
	if (run->stop_hit) {
		json_object_begin(j, "stop");
		json_condition(j, run->stop_reason, run->stop_cpu, run->stop_value_us);
		json_object_end(j);
	} else {
		json_null(j, "stop");
	}
	json_array_begin(j, "hits");
	for (int i = 0; i < run->nr_hits; i++)
		json_hit(j, &run->hits[i], &p->threshold_actions);
	json_array_end(j);
	if (run->end_actions_ran && p->end_actions.len)
		json_outcome(j, "end_actions", &run->end_actions, &p->end_actions);
	else
		json_null(j, "end_actions");
	json_gate(j, run);
	misconfig_json(j, run);
	return 0;
}

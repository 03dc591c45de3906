// SPDX-License-Identifier: GPL-2.0-only
/*
 * misconfig - --require and --on-misconfig of the noise family, and the
 * "rt_config" block of every record (misconfig.h).
 *
 * The configuration is read once, before the backend borrows anything:
 * the run's own threads (the tracer's osnoise/N, the sampler's spinners)
 * are then not yet bound to the measured CPUs, and a refused run leaves
 * the kernel as it found it.
 */
#include <errno.h>
#include <stdlib.h>

#include "json.h"
#include "msg.h"
#include "osnoise/misconfig.h"
#include "osnoise/osnoise.h"
#include "parse.h"
#include "rtconfig.h"
#include "sysroot.h"

bool misconfig_required(const struct noise_run *run, int item)
{
	return run->params->require & (1u << item);
}

bool misconfig_holds(const struct noise_run *run, int item)
{
	return run->rtconfig && run->rtconfig->items[item].verdict == RTC_OK;
}

bool misconfig_found(const struct noise_run *run)
{
	for (int i = 0; i < RTC_NR_ITEMS; i++)
		if (misconfig_required(run, i) && !misconfig_holds(run, i))
			return true;
	return false;
}

int misconfig_check(struct noise_run *run)
{
	const struct noise_params *p = run->params;
	char list[1024];
	bool refuse = !p->misconfig_record;
	cpu_set_t measured, online;

	run->rtconfig = malloc(sizeof(*run->rtconfig));
	if (!run->rtconfig)
		return -ENOMEM;
	/* the CPUs measured: those asked for that are online (the record's measured_cpus) */
	measured = p->cpus;
	if (sysroot_online_cpus(&online) > 0)
		CPU_AND(&measured, &measured, &online);
	rtconfig_read(run->rtconfig, &measured, p->nr_cpus);
	if (!misconfig_found(run))
		return 0;
	cpu_list_format(&measured, p->nr_cpus, list, sizeof(list));
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		const struct rtconfig_result *r = &run->rtconfig->items[i];

		if (!misconfig_required(run, i) || r->verdict == RTC_OK)
			continue;
		(refuse ? err_msg : warn_msg)("--require %s does not hold on CPUs %s (%s): %s",
					      rtconfig_items[i].word, list,
					      rtconfig_verdict_name(r->verdict), r->value);
	}
	if (!refuse)
		return 0;
	err_msg("not started: the CPUs are not set up as --require asks "
		"(--on-misconfig record runs and records the verdict misconfigured)");
	return -EPERM;
}

void misconfig_free(struct noise_run *run)
{
	free(run->rtconfig);
	run->rtconfig = NULL;
}

void misconfig_json(struct json *j, const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	const struct rtconfig *c = run->rtconfig;
	char list[1024];

	if (!c) {
		json_null(j, "rt_config");
		return;
	}
	json_object_begin(j, "rt_config");
	json_str(j, "cpus", cpu_list_format(&c->cpus, c->nr_cpus, list, sizeof(list)));
	json_array_begin(j, "items");
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		json_object_begin(j, NULL);
		json_str(j, "item", rtconfig_items[i].name);
		json_str(j, "require", rtconfig_items[i].word);
		json_str(j, "verdict", rtconfig_verdict_name(c->items[i].verdict));
		json_str(j, "value", c->items[i].value);
		json_object_end(j);
	}
	json_array_end(j);
	json_array_begin(j, "required");
	for (int i = 0; i < RTC_NR_ITEMS; i++)
		if (misconfig_required(run, i))
			json_str(j, NULL, rtconfig_items[i].word);
	json_array_end(j);
	/* each requirement that did not hold, and why: what the kernel showed */
	json_array_begin(j, "unmet");
	for (int i = 0; i < RTC_NR_ITEMS; i++) {
		if (!misconfig_required(run, i) || misconfig_holds(run, i))
			continue;
		json_object_begin(j, NULL);
		json_str(j, "require", rtconfig_items[i].word);
		json_str(j, "verdict", rtconfig_verdict_name(c->items[i].verdict));
		json_str(j, "reason", c->items[i].value);
		json_object_end(j);
	}
	json_array_end(j);
	json_str(j, "on_misconfig", p->misconfig_record ? "record" : "refuse");
	json_object_end(j);
}

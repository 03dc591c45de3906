// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracer_hist - the samples of the tracer backend, counted by the kernel.
 *
 * A hist tool wants every single noise. The kernel emits one
 * osnoise:sample_threshold event per noise at least as long as the
 * threshold; draining them from the trace buffer costs a context switch
 * per page and a callback per event, and the buffer overflows when the
 * noise is dense: in a TCG guest at the default 1 us threshold the kernel
 * emits ~370000 samples a second per CPU, and draining them kept 2 % of them.
 * As upstream does, a hist trigger counts them in the kernel instead, keyed
 * by CPU and duration in 1 us buckets (upstream's are -b us wide; ours stay
 * 1 us so that percentiles are exact and -b is applied when printing), with
 * the exact sum of the durations in ns. Its table is read once, at the end.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "osnoise/tracer_hist.h"

#define HIST_SIZE_PER_CPU	2048	/* keys per measured CPU: distinct us durations */
#define HIST_SIZE_MIN		2048	/* the kernel's default */
#define HIST_SIZE_MAX		131072	/* the kernel's largest (2^17) */

static unsigned int hist_size(const struct noise_params *p)
{
	unsigned long want = (unsigned long)CPU_COUNT(&p->cpus) * HIST_SIZE_PER_CPU;
	unsigned int size = HIST_SIZE_MIN;

	while (size < want && size < HIST_SIZE_MAX)
		size <<= 1;
	return size;
}

int tracer_hist_start(struct tracer_hist *th, struct tracefs_instance *inst,
		      const struct noise_params *p)
{
	snprintf(th->trigger, sizeof(th->trigger),
		 "hist:keys=cpu,duration.buckets=1000:vals=hitcount,duration:size=%u",
		 hist_size(p));
	if (tracefs_event_file_write(inst, "osnoise", "sample_threshold", "trigger",
				     th->trigger) < 0) {
		int ret = errno ? -errno : -EIO;

		err_msg("cannot count the osnoise samples in the kernel (%s: %s); "
			"hist needs CONFIG_HIST_TRIGGERS", th->trigger, strerror(-ret));
		return ret;
	}
	th->armed = true;
	debug_msg("counting samples with %s", th->trigger);
	return 0;
}

/* Append to the trigger file: a plain write would truncate it, removing every trigger. */
static int trigger_append(struct tracefs_instance *inst, const char *text)
{
	return tracefs_event_file_append(inst, "osnoise", "sample_threshold", "trigger", text) < 0
		? -errno : 0;
}

int tracer_hist_clear(struct tracer_hist *th, struct tracefs_instance *inst)
{
	char clear[sizeof(th->trigger) + 8];

	if (!th->armed)
		return 0;
	snprintf(clear, sizeof(clear), "%s:clear", th->trigger);
	if (trigger_append(inst, clear)) {
		err_msg("cannot clear the kernel's sample histogram: %s", strerror(errno));
		return -EIO;
	}
	return 0;
}

/* The number after WHAT in LINE, or -1. */
static long long number_after(const char *line, const char *what)
{
	const char *at = strstr(line, what);

	return at ? strtoll(at + strlen(what), NULL, 10) : -1;
}

/*
 * One line of the table:
 * "{ cpu:          0, duration: ~ 7000-7999 } hitcount:          2  duration:      15189"
 */
static bool parse_line(const char *line, int *cpu, uint64_t *us, uint64_t *count, uint64_t *sum)
{
	const char *hits = strstr(line, "hitcount:");
	long long c = number_after(line, "cpu:"), lo = number_after(line, "duration: ~");
	long long k = hits ? number_after(hits, "hitcount:") : -1;
	long long ns = hits ? number_after(hits, "duration:") : -1;

	if (line[0] != '{' || c < 0 || lo < 0 || k < 0 || ns < 0)
		return false;
	*cpu = (int)c;
	*us = (uint64_t)lo / 1000;
	*count = (uint64_t)k;
	*sum = (uint64_t)ns;
	return true;
}

int tracer_hist_deliver(struct tracer_hist *th, struct tracefs_instance *inst,
			struct noise_run *run)
{
	char *text, *line, *save = NULL, remove[sizeof(th->trigger) + 2];
	long long dropped = 0;
	int size = 0, bad = 0;

	if (!th->armed || th->delivered)
		return 0;
	th->delivered = true;
	text = tracefs_event_file_read(inst, "osnoise", "sample_threshold", "hist", &size);
	if (!text) {
		err_msg("cannot read the kernel's sample histogram: %s", strerror(errno));
		return -EIO;
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		uint64_t us, count, sum;
		int cpu;

		if (parse_line(line, &cpu, &us, &count, &sum))
			noise_run_add_samples(run, cpu, us, count, sum);
		else if (strstr(line, "Dropped:"))
			dropped = number_after(line, "Dropped:");
		else if (line[0] == '{')
			bad++;
	}
	free(text);
	if (bad)
		warn_msg("%d lines of the kernel's sample histogram were not understood", bad);
	if (dropped > 0)
		warn_msg("%lld samples did not fit in the kernel's histogram (%s)", dropped,
			 th->trigger);
	snprintf(remove, sizeof(remove), "!%s", th->trigger);
	if (trigger_append(inst, remove))
		debug_msg("removing the sample histogram: %s", strerror(errno));
	th->armed = false;
	return 0;
}

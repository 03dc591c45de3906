// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracer - the noise backend on the kernel's osnoise tracer.
 *
 * The protocol is upstream rtla's: save every global osnoise setting, write
 * all of them (defaults included), run the tracer in a private instance,
 * read its per-period ftrace:osnoise summaries, and put everything back.
 * A second instance records the trace that the -t/trace actions save.
 *
 * With IRQs disabled (hwnoise) a measured CPU answers nothing for most of
 * each period, and reading its buffer then makes the reader spin until the
 * window ends (measured in the 6.12 VM: 40-180 ms of CPU per read at a
 * random moment, against ~2 ms right after a period). So for those tools
 * each CPU's buffer is read as its period summary lands, which is when the
 * window has just closed: tracer_wait() sleeps in poll() on the per-CPU
 * buffers (the instance's buffer_percent 0 wakes it on any data).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "actions.h"
#include "guardian.h"
#include "knobs.h"
#include "msg.h"
#include "trace_events.h"
#include "osnoise.h"
#include "threads.h"
#include "trace_instance.h"
#include "tracefs_lock.h"
#include "tracer_hist.h"
#include "timerlat/timerlat.h"

struct tracer_priv {
	struct osnoise_state state;
	struct trace_instance main;	/* the tracer and its summaries */
	struct trace_instance rec;	/* the trace the actions save (when one is wanted) */
	struct tep_handle *tep;
	volatile sig_atomic_t halted;	/* we turned tracing off */
	/* the last noise above -s (a single sample) and above -S (a period total) */
	int over_single_cpu, over_total_cpu;
	uint64_t over_single_us, over_total_us;

	struct tep_event *ev_period;	/* ftrace:osnoise */
	struct tep_event *ev_sample;	/* osnoise:sample_threshold (only with -s) */
	struct tep_format_field *f[8];	/* fields of ev_period, in period_fields order */
	struct tep_format_field *f_duration;
	struct tracer_hist hist;	/* the samples, when the tool wants them */

	/* timerlat */
	struct tep_event *ev_latency;	/* ftrace:timerlat */
	struct tep_format_field *f_context, *f_latency, *f_seqnum;
	struct timerlat_kernel tl;	/* its workers, idle states, DMA latency and analysis */
	/* IRQ-disabled tools: each measured CPU's trace_pipe_raw, polled; else NULL */
	struct pollfd *pipes;
	int *pipe_cpu;
	int nr_pipes;
};

static const char *const period_fields[] = {
	"runtime", "noise", "max_sample", "hw_count", "nmi_count", "irq_count",
	"softirq_count", "thread_count",
};

static const char *tracer_name(const struct noise_run *run)
{
	return run->tool->tracer == TRACER_TIMERLAT ? "timerlat" : "osnoise";
}

bool noise_tracer_available(const char *tracer)
{
	const char *dir;

	if (tracefs_tracing_dir_is_mounted(geteuid() == 0, &dir) <= 0)
		return false;
	return tracefs_tracer_available(NULL, tracer);
}

/* Refuse to share the global osnoise configuration with anyone alive. */
static int check_tracer_free(void)
{
	char **names = tracefs_instances(NULL);
	pid_t owner;
	int ret = 0;

	/* first: a run refused for a foreign tracer touches nothing, not even a stale lock */
	if (trace_instance_runs(NULL, "timerlat") || trace_instance_runs(NULL, "osnoise")) {
		err_msg("the %s tracer is running at the top level of tracefs; osnoise cannot share it "
			"(set current_tracer to nop if nothing uses it)",
			trace_instance_runs(NULL, "timerlat") ? "timerlat" : "osnoise");
		tracefs_list_free(names);
		return -EBUSY;
	}
	/* a run in another container (another /run) is known by its lock in tracefs */
	if (tracefs_lock_check(OSNOISE_LOCK, "the osnoise tracer")) {
		tracefs_list_free(names);
		return -EBUSY;
	}
	for (int i = 0; !ret && names && names[i]; i++) {
		bool timerlat = trace_instance_runs(names[i], "timerlat");

		if (!timerlat && !trace_instance_runs(names[i], "osnoise"))
			continue;
		if (trace_instance_is_stale(names[i]))
			continue;	/* ours, from a killed run: reclaimed below */
		owner = trace_instance_owner(names[i]);
		if (owner > 0)
			err_msg("another rtla run (pid %d) is using the osnoise tracer; its settings "
				"are global, so two runs cannot share them", owner);
		else if (timerlat)
			err_msg("timerlat is running in instance %s; osnoise and timerlat cannot run "
				"at the same time", names[i]);
		else
			err_msg("the osnoise tracer is in use by instance %s (another rtla?); remove "
				"the instance if nothing uses it", names[i]);
		ret = -EBUSY;
	}
	tracefs_list_free(names);
	return ret;
}

static int check_kernel(struct noise_run *run)
{
	const char *dir;
	int mounted = tracefs_tracing_dir_is_mounted(true, &dir), ret;

	if (mounted <= 0) {
		err_msg("tracefs is not mounted at /sys/kernel/tracing and could not be mounted");
		return -ENOENT;
	}
	if (run->tool->tracer == TRACER_TIMERLAT) {
		if (!tracefs_tracer_available(NULL, "timerlat")) {
			err_msg("the kernel has no timerlat tracer (CONFIG_TIMERLAT_TRACER is not set); "
				"use --backend sampler");
			return -ENODEV;
		}
		if ((ret = timerlat_check_kernel(run->params)))
			return ret;
		/* rtla's timerlatu/N (or -U's) run where this process may */
		return timerlat_user_data(run->params) ? noise_user_cpus(run->params) : 0;
	}
	if (!tracefs_tracer_available(NULL, "osnoise")) {
		err_msg("the kernel has no osnoise tracer (CONFIG_OSNOISE_TRACER is not set); "
			"use --backend sampler");
		return -ENODEV;
	}
	if (run->params->irq_disabled && !tracefs_file_exists(NULL, "osnoise/options")) {
		err_msg("hwnoise needs the osnoise tracer's options file (Linux >= 6.2), which "
			"this kernel does not have");
		return -ENOTSUP;
	}
	return 0;
}

/*
 * timerlat's settings: all of them written, as upstream does since 6.15,
 * so that a value left by someone else cannot change the run; the stop
 * conditions are armed by tracer_enable().
 */
static int apply_timerlat_config(struct noise_run *run, struct tracer_priv *t)
{
	struct noise_params *p = run->params;
	struct osnoise_state *st = &t->state;
	int ret;

	if ((ret = osnoise_knob_write(st, KNOB_TIMERLAT_PERIOD, p->period_us))) {
		err_msg("Failed to set timerlat period: %s", strerror(-ret));
		return ret;
	}
	ret = osnoise_knob_write(st, KNOB_PRINT_STACK, p->print_stack_us);
	if (ret && (ret != -ENOTSUP || p->print_stack_us)) {
		err_msg(ret == -ENOTSUP ? "-s: the kernel has no osnoise/print_stack "
			"(CONFIG_STACKTRACE is not set)" : "Failed to set print stack: %s",
			strerror(-ret));
		return ret;
	}
	if ((ret = osnoise_knob_write_str(st, KNOB_CPUS, p->cpus_str ? p->cpus_str : "all")) ||
	    (ret = osnoise_knob_write(st, KNOB_STOP, 0)) ||
	    (ret = osnoise_knob_write(st, KNOB_STOP_TOTAL, 0))) {
		err_msg("Could not apply config: %s", strerror(-ret));
		return ret;
	}
	/* the kernel's threads, or none: user space reads timerlat_fd */
	ret = osnoise_option_write(st, OPT_WORKLOAD, p->workload == TL_WORKLOAD_KERNEL);
	if (ret && (ret != -ENOTSUP || p->workload != TL_WORKLOAD_KERNEL)) {
		err_msg("Failed to set OSNOISE_WORKLOAD option");
		return ret;
	}
	if ((ret = osnoise_option_write(st, OPT_PANIC_ON_STOP, false)) && ret != -ENOTSUP) {
		err_msg("Failed to clear PANIC_ON_STOP option");
		return ret;
	}
	return timerlat_idle_disable(&t->tl, &t->state.ledger);
}

static int apply_config(struct noise_run *run, struct tracer_priv *t)
{
	struct noise_params *p = run->params;
	struct osnoise_state *st = &t->state;
	int ret;

	if (run->tool->tracer == TRACER_TIMERLAT)
		return apply_timerlat_config(run, t);
	ret = osnoise_set_runtime_period(st, p->runtime_us, p->period_us);
	if (ret) {
		err_msg("Failed to set runtime and/or period");
		return ret;
	}
	if ((ret = osnoise_knob_write(st, KNOB_THRESH, p->threshold_us)) ||
	    (ret = osnoise_knob_write_str(st, KNOB_CPUS, p->cpus_str ? p->cpus_str : "all")) ||
	    (ret = osnoise_knob_write(st, KNOB_STOP, 0)) ||
	    (ret = osnoise_knob_write(st, KNOB_STOP_TOTAL, 0))) {
		err_msg("Could not apply config: %s", strerror(-ret));
		return ret;
	}
	/* kernels before 6.2 have no options: the workload is always on there */
	ret = osnoise_option_write(st, OPT_WORKLOAD, true);
	if (ret && ret != -ENOTSUP) {
		err_msg("Failed to set OSNOISE_WORKLOAD option");
		return ret;
	}
	ret = osnoise_option_write(st, OPT_IRQ_DISABLE, p->irq_disabled);
	if (ret && (ret != -ENOTSUP || p->irq_disabled)) {
		err_msg("Failed to set OSNOISE_IRQ_DISABLE option");
		return ret;
	}
	/*
	 * Upstream leaves these as it finds them; a PANIC_ON_STOP left on by
	 * someone else would turn a -s stop into a kernel panic.
	 */
	if ((ret = osnoise_option_write(st, OPT_PREEMPT_DISABLE, false)) && ret != -ENOTSUP) {
		err_msg("Failed to clear OSNOISE_PREEMPT_DISABLE option");
		return ret;
	}
	if ((ret = osnoise_option_write(st, OPT_PANIC_ON_STOP, false)) && ret != -ENOTSUP) {
		err_msg("Failed to clear PANIC_ON_STOP option");
		return ret;
	}
	return 0;
}

/*
 * Our instance PREFIX<pid>, with the tool's tracer in it (trace_instance.h
 * says how it is owned and reclaimed). One that exists already is never
 * adopted (nor later deleted): it is not ours.
 */
static int create_instance(struct noise_run *run, struct tracer_priv *t,
			   struct trace_instance *ti, const char *prefix)
{
	int ret = trace_instance_create(ti, ledger_guardian(&t->state.ledger), prefix);
	const char *tracer = tracer_name(run);

	if (ret) {
		err_msg(ret == -EEXIST ? "tracefs instance %s already exists and is not rtla's" :
			"cannot create tracefs instance %s: %s", ti->name, strerror(-ret));
		return ret;
	}
	if (tracefs_instance_file_write(ti->tfs, "current_tracer", tracer) < 0) {
		ret = -errno;
		if (ret == -ENODEV || ret == -EINVAL)
			err_msg("Tracer %s not found!", tracer);
		else
			err_msg("cannot start the %s tracer in %s: %s", tracer, ti->name, strerror(-ret));
		trace_instance_destroy(ti);
	}
	return ret;
}

static int lookup_events(struct tracer_priv *t)
{
	t->ev_period = tep_find_event_by_name(t->tep, "ftrace", "osnoise");
	t->ev_sample = tep_find_event_by_name(t->tep, "osnoise", "sample_threshold");
	if (!t->ev_period) {
		err_msg("the kernel has no ftrace:osnoise event format");
		return -ENOENT;
	}
	for (size_t i = 0; i < 8; i++) {
		t->f[i] = tep_find_field(t->ev_period, period_fields[i]);
		if (!t->f[i]) {
			err_msg("ftrace:osnoise has no field %s", period_fields[i]);
			return -ENOENT;
		}
	}
	if (t->ev_sample)
		t->f_duration = tep_find_field(t->ev_sample, "duration");
	return 0;
}

/* timerlat's main instance holds the tracer's own ftrace:timerlat records alone. */
static int load_timerlat_events(struct tracer_priv *t)
{
	if (trace_events_add(t->tep, "ftrace", "timerlat")) {
		err_msg("cannot read the format of ftrace:timerlat: %s", strerror(errno));
		return -EIO;
	}
	t->ev_latency = tep_find_event_by_name(t->tep, "ftrace", "timerlat");
	t->f_context = t->ev_latency ? tep_find_field(t->ev_latency, "context") : NULL;
	t->f_latency = t->ev_latency ? tep_find_field(t->ev_latency, "timer_latency") : NULL;
	t->f_seqnum = t->ev_latency ? tep_find_field(t->ev_latency, "seqnum") : NULL;
	if (!t->f_context || !t->f_latency || !t->f_seqnum) {
		err_msg("ftrace:timerlat has no context, timer_latency or seqnum field");
		return -ENOENT;
	}
	return 0;
}

/*
 * The main instance only ever holds ftrace:osnoise and, with -s,
 * osnoise:sample_threshold (timerlat's: ftrace:timerlat): parse those
 * formats and nothing else (trace_events.h says what libtracefs' loaders
 * would cost).
 */
static int load_events(struct noise_run *run, struct tracer_priv *t)
{
	t->tep = trace_events_new(run->params->nr_cpus);
	if (t->tep && run->tool->tracer == TRACER_TIMERLAT)
		return load_timerlat_events(t);
	if (!t->tep || trace_events_add(t->tep, "ftrace", "osnoise")) {
		err_msg("cannot read the trace event formats: %s", strerror(errno));
		return -EIO;
	}
	if (run->params->stop_us)
		trace_events_add(t->tep, "osnoise", "sample_threshold");
	return lookup_events(t);
}

/* Enable sys:event (or the whole system) by name, without libtracefs' regex scan. */
static int enable_event(struct tracefs_instance *inst, const char *system, const char *event)
{
	char file[512];

	snprintf(file, sizeof(file), "events/%s%s%s/enable", system, event ? "/" : "",
		 event ? event : "");
	return tracefs_instance_file_write(inst, file, "1") < 0 ? -ENOENT : 0;
}

static int enable_user_event(struct tracefs_instance *rec, const struct noise_event *ev)
{
	if (enable_event(rec, ev->system, ev->event)) {
		err_msg("Error enabling event %s%s%s", ev->system, ev->event ? ":" : "",
			ev->event ? ev->event : "");
		return -ENOENT;
	}
	if (ev->filter && tracefs_event_file_write(rec, ev->system, ev->event ? ev->event : NULL,
						   "filter", ev->filter) < 0) {
		err_msg("Error setting filter '%s' on %s: %s", ev->filter, ev->system, strerror(errno));
		return -EINVAL;
	}
	if (ev->trigger) {
		if (!ev->event) {
			err_msg("--trigger needs a single event (-e %s:event)", ev->system);
			return -EINVAL;
		}
		if (tracefs_event_file_write(rec, ev->system, ev->event, "trigger", ev->trigger) < 0) {
			err_msg("Error setting trigger '%s' on %s:%s: %s", ev->trigger, ev->system,
				ev->event, strerror(errno));
			return -EINVAL;
		}
	}
	return 0;
}

/* The record instance: all osnoise events, the -e events, --trace-buffer-size. */
static int create_record(struct noise_run *run, struct tracer_priv *t)
{
	struct noise_params *p = run->params;
	int ret;

	if ((ret = create_instance(run, t, &t->rec, run->tool->tracer == TRACER_TIMERLAT ?
				   "rtla_timerlat_trace_" : "rtla_osnoise_trace_")))
		return ret;
	if (p->buffer_kb && tracefs_instance_set_buffer_size(t->rec.tfs, p->buffer_kb, -1) < 0) {
		err_msg("cannot set the trace buffer size to %lld kB: %s", p->buffer_kb, strerror(errno));
		return -errno;
	}
	if (enable_event(t->rec.tfs, "osnoise", NULL)) {
		err_msg("cannot enable the osnoise events");
		return -ENOENT;
	}
	for (struct noise_event *ev = p->events; ev; ev = ev->next)
		if ((ret = enable_user_event(t->rec.tfs, ev)))
			return ret;
	return 0;
}

static void close_pipes(struct tracer_priv *t)
{
	for (int i = 0; i < t->nr_pipes; i++)
		close(t->pipes[i].fd);
	free(t->pipes);
	free(t->pipe_cpu);
	t->pipes = NULL;
	t->pipe_cpu = NULL;
	t->nr_pipes = 0;
}

/* Open the measured CPUs' buffers to poll them, for a tool that disables IRQs. */
static void open_pipes(struct noise_run *run, struct tracer_priv *t)
{
	const struct noise_params *p = run->params;
	int n = CPU_COUNT(&p->cpus);

	if (!run->tool->irq_disabled ||
	    tracefs_instance_file_write(t->main.tfs, "buffer_percent", "0") < 0)
		return;
	t->pipes = calloc(n + 1, sizeof(*t->pipes));
	t->pipe_cpu = calloc(n, sizeof(*t->pipe_cpu));
	for (int cpu = 0; t->pipes && t->pipe_cpu && cpu < p->nr_cpus; cpu++) {
		char file[64], *path;
		int fd;

		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		path = tracefs_instance_get_file(t->main.tfs, file);
		fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
		tracefs_put_tracing_file(path);
		if (fd < 0)
			break;
		t->pipe_cpu[t->nr_pipes] = cpu;
		t->pipes[t->nr_pipes++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	}
	if (t->nr_pipes == n)
		return;
	debug_msg("cannot poll the per-CPU buffers: read at the tick");
	close_pipes(t);
}

static int tracer_setup(struct noise_run *run)
{
	struct noise_params *p = run->params;
	struct tracer_priv *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	t->main.on_fd = t->rec.on_fd = -1;
	t->over_single_cpu = t->over_total_cpu = -1;
	timerlat_kernel_prepare(&t->tl);
	run->priv = t;	/* only now: a signal handler may look at it */

	/*
	 * Nothing is written before the tracer is known to be free: replaying a
	 * killed run's record under someone else's live tracer would change it.
	 */
	if ((ret = check_kernel(run)) || (ret = check_tracer_free()))
		return ret;
	if (run->tool->tracer == TRACER_TIMERLAT && (ret = timerlat_kernel_init(&t->tl, p)))
		return ret;
	if ((ret = osnoise_state_lock(&t->state)) ||
	    (ret = osnoise_state_save(&t->state, t->tl.idle_paths, t->tl.nr_idle, t->tl.idle_ids)))
		return ret;
	guardian_keep_off(ledger_guardian(&t->state.ledger), &p->cpus);
	if ((ret = apply_config(run, t)))
		return ret;

	if ((ret = create_instance(run, t, &t->main, run->tool->tracer == TRACER_TIMERLAT ?
				   "rtla_timerlat_" : "rtla_osnoise_top_")) ||
	    (ret = load_events(run, t)))
		return ret;
	trace_instance_count_missed(&t->main);
	open_pipes(run, t);
	if (p->stop_us && t->ev_sample) {
		/* only the samples that can stop the run: the rest would crowd the buffer */
		char filter[64];

		snprintf(filter, sizeof(filter), "duration > %lld", p->stop_us * 1000);
		if (tracefs_event_file_write(t->main.tfs, "osnoise", "sample_threshold", "filter",
					     filter) < 0 ||
		    enable_event(t->main.tfs, "osnoise", "sample_threshold"))
			debug_msg("osnoise:sample_threshold not enabled: the -s verdict has no value");
	}
	if (run->want_samples && (ret = tracer_hist_start(&t->hist, t->main.tfs, p)))
		return ret;
	/* timerlat's analysis reads the last events before a stop from an instance of its own */
	if (timerlat_wants_analysis(p) && !p->aa_only &&
	    (ret = create_instance(run, t, &t->tl.aa_instance, "rtla_timerlat_aa_")))
		return ret;
	if (timerlat_wants_analysis(p) &&
	    (ret = timerlat_analysis_prepare(&t->tl, p, p->aa_only ? &t->main : &t->tl.aa_instance)))
		return ret;
	if (p->threshold_actions.has_trace || p->end_actions.has_trace || p->events)
		if ((ret = create_record(run, t)))
			return ret;

	if (run->tool->tracer == TRACER_TIMERLAT)
		return 0;	/* its threads start with tracing on (tracer_enable()) */
	if (p->prio_given && (ret = threads_set_priority("osnoise/", &p->prio)))
		return ret;
	if (p->cgroup && (ret = threads_set_cgroup("osnoise/", p->cgroup_name)))
		return ret;
	return 0;
}

static int tracer_enable(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;
	struct noise_params *p = run->params;
	int ret;

	trace_instance_set_on(&t->rec, true);
	trace_instance_set_on(&t->tl.aa_instance, true);
	trace_instance_set_on(&t->main, true);
	/*
	 * timerlat's workers only now: an activation of theirs that began
	 * before tracing was on would show a thread latency without its IRQ
	 */
	if (run->tool->tracer == TRACER_TIMERLAT &&
	    (ret = timerlat_kernel_start(&t->tl, p)))
		return ret;
	if (p->warmup_s) {
		noise_run_warm_up(run);	/* cut short by a stop: nothing of it is kept either */
		tracefs_instance_file_clear(t->main.tfs, "trace");
		if (t->rec.tfs)
			tracefs_instance_file_clear(t->rec.tfs, "trace");
		if (t->tl.aa_instance.tfs)
			tracefs_instance_file_clear(t->tl.aa_instance.tfs, "trace");
		if ((ret = tracer_hist_clear(&t->hist, t->main.tfs)))
			return ret;
	}
	/* armed only now, so that setting up the instances cannot trip them */
	if ((ret = osnoise_knob_write(&t->state, KNOB_STOP, p->stop_us)) ||
	    (ret = osnoise_knob_write(&t->state, KNOB_STOP_TOTAL, p->stop_total_us))) {
		err_msg("Could not set the stop conditions: %s", strerror(-ret));
		return ret;
	}
	return 0;
}

static int on_record(struct tep_event *event, struct tep_record *r, int cpu, void *ctx)
{
	struct noise_run *run = ctx;
	struct tracer_priv *t = run->priv;
	unsigned long long v[8];

	run->processed_events++;
	if (r->cpu < 0 || r->cpu >= run->params->nr_cpus)
		return 0;
	if (event == t->ev_latency) {
		tep_read_number_field(t->f_context, r->data, &v[0]);
		tep_read_number_field(t->f_latency, r->data, &v[1]);
		tep_read_number_field(t->f_seqnum, r->data, &v[2]);
		timerlat_note_stop(&t->tl, run->params, r->cpu, v[0], v[1]);
		noise_run_add_latency(run, r->cpu, v[0], v[2], v[1]);
	} else if (event == t->ev_period) {
		struct noise_period p = { .cpu = r->cpu };

		for (int i = 0; i < 8; i++)
			tep_read_number_field(t->f[i], r->data, &v[i]);
		p.runtime = v[0];
		p.noise = v[1];
		p.max_sample = v[2];
		p.hw = v[3];
		p.nmi = v[4];
		p.irq = v[5];
		p.softirq = v[6];
		p.thread = v[7];
		/* the kernel stops after this summary when it is above -S */
		if (run->params->stop_total_us && p.noise > (uint64_t)run->params->stop_total_us) {
			t->over_total_cpu = r->cpu;
			t->over_total_us = p.noise;
		}
		noise_run_add_period(run, &p);
	} else if (event == t->ev_sample && t->f_duration) {
		/* the kernel compares in ns: noise > stop_us * 1000 */
		tep_read_number_field(t->f_duration, r->data, &v[0]);
		if (v[0] > (uint64_t)run->params->stop_us * 1000) {
			t->over_single_cpu = r->cpu;
			t->over_single_us = v[0] / 1000;
		}
	}
	return 0;
}

/* Hand over what the buffers of CPUS hold. */
static void read_cpus(struct noise_run *run, const cpu_set_t *cpus)
{
	struct tracer_priv *t = run->priv;

	if (run->stop_requested < 2 &&
	    tracefs_iterate_raw_events(t->tep, t->main.tfs, (cpu_set_t *)cpus, sizeof(*cpus),
				       on_record, run) < 0 &&
	    run->stop_requested < 2)
		debug_msg("reading the trace buffers failed: %s", strerror(errno));
	run->missed_events = t->main.missed;
}

/* The polled CPUs with data now (waiting up to TIMEOUT_MS); -1: the wake fd too. */
static int ready_cpus(struct tracer_priv *t, int wake_fd, int timeout_ms, cpu_set_t *ready)
{
	int n;

	t->pipes[t->nr_pipes] = (struct pollfd){ .fd = wake_fd, .events = POLLIN };
	n = poll(t->pipes, t->nr_pipes + (wake_fd >= 0), timeout_ms);
	CPU_ZERO(ready);
	if (n <= 0)
		return 0;
	for (int i = 0; i < t->nr_pipes; i++)
		if (t->pipes[i].revents & POLLIN)
			CPU_SET(t->pipe_cpu[i], ready);
	return wake_fd >= 0 && t->pipes[t->nr_pipes].revents ? -1 : CPU_COUNT(ready);
}

static int tracer_collect(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;
	cpu_set_t ready;

	/* before the halt, a polled CPU is read only right after its summary */
	if (t->pipes && !t->halted) {
		if (ready_cpus(t, -1, 0, &ready) > 0)
			read_cpus(run, &ready);
		return 0;
	}
	/* --aa-only prints no table: the buffers are read by the analysis alone */
	if (run->params->aa_only) {
		if (t->halted && !run->max_latency)
			run->max_latency = tracefs_instance_file_read(t->main.tfs,
								      "tracing_max_latency", NULL);
		return 0;
	}
	/* only the measured CPUs have anything to read */
	read_cpus(run, &run->params->cpus);
	/* the kernel counted the samples: its table is final once we stopped */
	if (t->halted)
		tracer_hist_deliver(&t->hist, t->main.tfs, run);
	return 0;
}

/*
 * How often a run with a stop condition looks whether the kernel stopped
 * (it turns tracing off, which wakes no poll): a tenth of a second, so that
 * a stop is acted on then, as the user-space backends act on theirs, not
 * at the next one-second tick. A look is one read of tracing_on.
 */
#define STOP_LOOK_MS	100

/*
 * Sleep up to TIMEOUT_MS or until WAKE_FD is readable; polled CPUs are
 * read as their data lands. 2 when the kernel stopped on a stop
 * condition, 1 when something was read, else 0.
 */
static int tracer_wait(struct noise_run *run, int wake_fd, int timeout_ms)
{
	struct tracer_priv *t = run->priv;
	struct pollfd wake = { .fd = wake_fd, .events = POLLIN };
	bool armed = t && !t->halted && noise_stop_set(run->params);
	cpu_set_t ready;
	int n = 0;

	if (armed && timeout_ms > STOP_LOOK_MS)
		timeout_ms = STOP_LOOK_MS;
	if (!t || !t->pipes || t->halted)
		poll(&wake, 1, timeout_ms);
	else if ((n = ready_cpus(t, wake_fd, timeout_ms, &ready)) > 0)
		read_cpus(run, &ready);
	if (armed && !t->halted && tracefs_trace_is_on(t->main.tfs) == 0)
		return 2;
	return n > 0;
}

static bool tracer_stopped(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;

	if (t->halted)
		return false;
	if (tracefs_trace_is_on(t->main.tfs) == 1 &&
	    (!t->rec.tfs || tracefs_trace_is_on(t->rec.tfs) == 1) &&
	    (!t->tl.aa_instance.tfs || tracefs_trace_is_on(t->tl.aa_instance.tfs) == 1))
		return false;
	/* a signal between the first check and the read turned tracing off itself */
	if (t->halted)
		return false;
	/* drain what the kernel wrote before it stopped: the verdict is in there */
	tracer_collect(run);
	run->stop_hit = true;
	if (run->tool->tracer == TRACER_TIMERLAT) {
		timerlat_stopped(&t->tl, run, t->tep);
		return true;
	}
	if (t->over_single_cpu >= 0) {
		run->stop_reason = "single";
		run->stop_cpu = t->over_single_cpu;
		run->stop_value_us = t->over_single_us;
	} else if (t->over_total_cpu >= 0) {
		run->stop_reason = "total";
		run->stop_cpu = t->over_total_cpu;
		run->stop_value_us = t->over_total_us;
	} else {
		run->stop_reason = run->params->stop_us ? "single" : "total";
	}
	return true;
}

static void tracer_halt(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;

	if (!t)
		return;
	if (t->halted)
		tracefs_iterate_stop(t->main.tfs);	/* a second signal: abandon the drain */
	t->halted = 1;
	trace_instance_set_on(&t->main, false);
	trace_instance_set_on(&t->rec, false);
	trace_instance_set_on(&t->tl.aa_instance, false);
}

static int tracer_rearm(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;

	t->over_single_cpu = t->over_total_cpu = -1;
	timerlat_rearm(&t->tl, run->params);
	run->analysis = NULL;
	run->stop_hit = false;
	run->stop_cpu = -1;
	run->stop_value_us = -1;
	trace_instance_set_on(&t->rec, true);
	trace_instance_set_on(&t->tl.aa_instance, true);
	trace_instance_set_on(&t->main, true);
	return 0;
}

static int copy_to_file(const char *text, size_t len, const char *path)
{
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int tracer_save_trace(struct noise_run *run, const char *path)
{
	struct tracer_priv *t = run->priv;
	char *text;
	int size = 0, ret;

	if (!t->rec.tfs)
		return -ENOENT;
	printf("  Saving trace to %s\n", path);
	text = tracefs_instance_file_read(t->rec.tfs, "trace", &size);
	if (!text) {
		err_msg("cannot read the trace: %s", strerror(errno));
		return -EIO;
	}
	ret = copy_to_file(text, size, path);
	free(text);
	if (ret)
		err_msg("cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}

/* hist: triggers keep their histogram in the event's hist file: save it before it goes. */
static void save_hists(struct noise_run *run, struct tracer_priv *t)
{
	for (struct noise_event *ev = run->params->events; ev && t->rec.tfs; ev = ev->next) {
		char path[256], *text;
		int size = 0;

		if (!ev->trigger || !ev->event || strncmp(ev->trigger, "hist:", 5))
			continue;
		snprintf(path, sizeof(path), "%s_%s_hist.txt", ev->system, ev->event);
		printf("  Saving event %s:%s hist to %s\n", ev->system, ev->event, path);
		text = tracefs_event_file_read(t->rec.tfs, ev->system, ev->event, "hist", &size);
		if (!text || copy_to_file(text, size, path))
			err_msg("cannot save the hist of %s:%s", ev->system, ev->event);
		free(text);
	}
}

static void tracer_teardown(struct noise_run *run)
{
	struct tracer_priv *t = run->priv;

	if (!t)
		return;
	save_hists(run, t);
	close_pipes(t);		/* an open reader would keep the instance */
	/* the workers first: an open timerlat_fd keeps the tracer busy */
	timerlat_kernel_stop(&t->tl);
	trace_instance_destroy(&t->rec);
	trace_instance_destroy(&t->tl.aa_instance);
	trace_instance_destroy(&t->main);
	osnoise_state_release(&t->state);
	timerlat_kernel_free(&t->tl);
	free(run->max_latency);
	run->max_latency = NULL;
	tep_free(t->tep);
	free(t);
	run->priv = NULL;
}

const struct noise_backend noise_tracer_backend = {
	.name = "tracer",
	/* the main instance only holds the per-period summaries: a few kB a second */
	.max_wait_s = 10,
	.setup = tracer_setup,
	.enable = tracer_enable,
	.collect = tracer_collect,
	.wait = tracer_wait,
	.stopped = tracer_stopped,
	.halt = tracer_halt,
	.rearm = tracer_rearm,
	.save_trace = tracer_save_trace,
	.teardown = tracer_teardown,
};

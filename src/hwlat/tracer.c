// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracer - hwlat's backend: the kernel's hwlat tracer in a tracefs
 * instance of rtla's, its samples (ftrace:hwlat) read from there.
 *
 * The tracer runs in one trace array at a time (the kernel answers EBUSY
 * to a second), and an instance is one (trace_hwlat.c allows instances,
 * on 6.1 and 6.12 alike): so the top level's current_tracer, buffer and
 * tracing_cpumask stay the user's, and the CPUs are the instance's own
 * tracing_cpumask. What is global is borrowed through the ledger:
 * tracing_thresh, hwlat_detector/width, window and mode, under the lock
 * the osnoise tracer's runs take too (both tools use tracing_thresh).
 *
 * The order of the writes is the kernel's. tracing_thresh is written
 * before the tracer starts: the tracer saves the value it finds and puts
 * it back when it stops, so it must find ours, and the instance (whose
 * removal stops the tracer) is undone before tracing_thresh, by the
 * teardown and by the guardian alike. The tracer also keeps the last
 * threshold it ran with for a later run that finds tracing_thresh at 0;
 * no file shows that value, so it stays ours, as it stays hwlatdetect's.
 * width is bounded by window and the other way round: the one that keeps
 * width <= window goes first.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "guardian.h"
#include "ledger.h"
#include "msg.h"
#include "osnoise/knobs.h"
#include "parse.h"
#include "trace_events.h"
#include "trace_instance.h"
#include "hwlat/hwlat.h"

/* the last samples, for the "trace" action (the kernel's buffer is read as it fills) */
#define KEPT_SAMPLES	1024

enum hwlat_value { V_THRESH, V_WIDTH, V_WINDOW, V_MODE, V_NR };

static const char *const value_files[V_NR] = {
	"tracing_thresh", "hwlat_detector/width", "hwlat_detector/window", "hwlat_detector/mode",
};

struct hwlat_priv {
	struct ledger ledger;
	bool locked;
	int id[V_NR];			/* ledger ids; -1: the kernel has no such file (mode) */
	struct trace_instance inst;
	struct tep_handle *tep;
	struct tep_event *ev;
	struct tep_format_field *f_inner, *f_outer, *f_nmi_ts, *f_nmi_count, *f_seqnum;
	struct tep_format_field *f_count, *f_sec, *f_nsec;	/* NULL on kernels without them */
	volatile sig_atomic_t halted;
	struct timespec started;	/* tracing on (after the warm-up) */
	bool over_stop;			/* a gap over -s came in */
	int stop_cpu;
	uint64_t stop_us;
	struct hwlat_sample kept[KEPT_SAMPLES];
	uint64_t nr_kept;
};

/* Refuse a tracer someone else runs: the kernel would answer EBUSY without saying whose. */
static int check_hwlat_free(void)
{
	char **names = tracefs_instances(NULL);
	int ret = 0;

	if (trace_instance_runs(NULL, "hwlat")) {
		err_msg("the hwlat tracer is running at the top level of tracefs (hwlatdetect?); it "
			"runs in one place at a time (set current_tracer to nop if nothing uses it)");
		ret = -EBUSY;
	}
	for (int i = 0; !ret && names && names[i]; i++) {
		pid_t owner;

		if (!trace_instance_runs(names[i], "hwlat") || trace_instance_is_stale(names[i]))
			continue;	/* a killed run's is reclaimed once the lock is ours */
		owner = trace_instance_owner(names[i]);
		if (owner > 0)
			err_msg("another rtla run (pid %d) is using the hwlat tracer; its settings are "
				"global, so two runs cannot share them", owner);
		else
			err_msg("the hwlat tracer is in use by instance %s; it runs in one place at a "
				"time (remove the instance if nothing uses it)", names[i]);
		ret = -EBUSY;
	}
	tracefs_list_free(names);
	return ret;
}

static int check_kernel(void)
{
	const char *dir;

	if (tracefs_tracing_dir_is_mounted(true, &dir) <= 0) {
		err_msg("tracefs is not mounted at /sys/kernel/tracing and could not be mounted");
		return -ENOENT;
	}
	if (!tracefs_tracer_available(NULL, "hwlat")) {
		err_msg("the kernel has no hwlat tracer (CONFIG_HWLAT_TRACER is not set)");
		return -ENODEV;
	}
	return 0;
}

/* "none [round-robin] per-cpu": the word in brackets is what restores it */
static int borrow_mode(struct hwlat_priv *t, const char *path)
{
	char text[128], *open, *close;
	int ret = ledger_read(path, text, sizeof(text));

	if (ret < 0)
		return ret;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close) {
		err_msg("cannot read the hwlat mode from '%s'", text);
		return -EIO;
	}
	*close = '\0';
	return ledger_borrow_as(&t->ledger, path, open + 1);
}

/* Borrow the global settings (the lock first: it refuses a second run). */
static int borrow(struct noise_run *run, struct hwlat_priv *t)
{
	char path[PATH_MAX];
	int ret;

	/* the osnoise tools' lock: tracing_thresh is both tracers', and one run at a time */
	if ((ret = ledger_open_global(&t->ledger, OSNOISE_STATE_FILE, "the hwlat tracer",
				      OSNOISE_LOCK, RTLA_OWNED_DIR)))
		return ret;
	t->locked = true;
	trace_instance_sweep();
	for (int i = 0; i < V_NR; i++) {
		t->id[i] = -1;
		if ((ret = trace_path(value_files[i], path, sizeof(path))))
			return ret;
		if (i == V_MODE && access(path, F_OK)) {
			if (run->params->hwlat_mode) {
				err_msg("--mode: this kernel's hwlat tracer has no mode (Linux >= 5.14)");
				return -ENOTSUP;
			}
			run->hwlat->mode = HWLAT_MODE_KERNEL;
			continue;
		}
		ret = i == V_MODE ? borrow_mode(t, path) : ledger_borrow(&t->ledger, path);
		if (ret < 0) {
			err_msg("cannot read %s: %s", value_files[i], strerror(-ret));
			return ret;
		}
		t->id[i] = ret;
	}
	return ledger_seal(&t->ledger, RTLA_OWNED_DIR);
}

static int write_value(struct hwlat_priv *t, enum hwlat_value v, long long val)
{
	char buf[32];
	int ret;

	snprintf(buf, sizeof(buf), "%lld", val);
	ret = ledger_write(&t->ledger, t->id[v], buf);
	if (ret)
		err_msg("cannot set %s to %s: %s", value_files[v], buf, strerror(-ret));
	return ret;
}

/* width and window, each written when the other already allows it */
static int set_width_window(struct hwlat_priv *t, const struct noise_params *p)
{
	char path[PATH_MAX], cur[32];
	int ret;

	if ((ret = trace_path(value_files[V_WINDOW], path, sizeof(path))) ||
	    (ret = ledger_read(path, cur, sizeof(cur))) < 0)
		return ret;
	if (p->runtime_us > atoll(cur))
		return write_value(t, V_WINDOW, p->period_us) ?: write_value(t, V_WIDTH, p->runtime_us);
	return write_value(t, V_WIDTH, p->runtime_us) ?: write_value(t, V_WINDOW, p->period_us);
}

static int load_events(struct noise_run *run, struct hwlat_priv *t)
{
	t->tep = trace_events_new(run->params->nr_cpus);
	if (!t->tep || trace_events_add(t->tep, "ftrace", "hwlat")) {
		err_msg("cannot read the format of ftrace:hwlat: %s", strerror(errno));
		return -EIO;
	}
	t->ev = tep_find_event_by_name(t->tep, "ftrace", "hwlat");
	if (t->ev) {
		t->f_inner = tep_find_field(t->ev, "duration");
		t->f_outer = tep_find_field(t->ev, "outer_duration");
		t->f_seqnum = tep_find_field(t->ev, "seqnum");
		t->f_nmi_ts = tep_find_field(t->ev, "nmi_total_ts");
		t->f_nmi_count = tep_find_field(t->ev, "nmi_count");
		t->f_count = tep_find_field(t->ev, "count");
		t->f_sec = tep_find_field(t->ev, "tv_sec");
		t->f_nsec = tep_find_field(t->ev, "tv_nsec");
	}
	if (!t->f_inner || !t->f_outer || !t->f_seqnum) {
		err_msg("ftrace:hwlat has no duration, outer_duration or seqnum field");
		return -ENOENT;
	}
	return 0;
}

/* The instance, its CPUs and buffer, and the tracer in it (tracing still off). */
static int start_instance(struct noise_run *run, struct hwlat_priv *t)
{
	const struct noise_params *p = run->params;
	char cpus[1024];
	int ret = trace_instance_create(&t->inst, ledger_guardian(&t->ledger), "rtla_hwlat_");

	if (ret) {
		err_msg(ret == -EEXIST ? "tracefs instance %s already exists and is not rtla's" :
			"cannot create tracefs instance %s: %s", t->inst.name, strerror(-ret));
		return ret;
	}
	cpu_list_format(&p->cpus, p->nr_cpus, cpus, sizeof(cpus));
	if (tracefs_instance_set_affinity(t->inst.tfs, cpus) < 0) {
		err_msg("cannot set the tracing_cpumask of %s to %s: %s", t->inst.name, cpus,
			strerror(errno));
		return -EINVAL;
	}
	if (p->buffer_kb && tracefs_instance_set_buffer_size(t->inst.tfs, p->buffer_kb, -1) < 0) {
		err_msg("cannot set the trace buffer size to %lld kB: %s", p->buffer_kb, strerror(errno));
		return -EINVAL;
	}
	if (tracefs_instance_file_write(t->inst.tfs, "current_tracer", "hwlat") < 0) {
		ret = -errno;
		err_msg(ret == -EBUSY ? "the hwlat tracer is busy: it runs in one place at a time, "
			"and another one has it" : "cannot start the hwlat tracer in %s: %s",
			t->inst.name, strerror(-ret));
		return ret;
	}
	return 0;
}

static int hwlat_setup(struct noise_run *run)
{
	struct noise_params *p = run->params;
	struct hwlat_priv *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	t->inst.on_fd = -1;
	t->stop_cpu = -1;
	run->priv = t;	/* only now: a signal handler may look at it */

	/* nothing is borrowed before the tracer is known to be free */
	if ((ret = check_kernel()) || (ret = check_hwlat_free()) || (ret = borrow(run, t)))
		return ret;
	guardian_keep_off(ledger_guardian(&t->ledger), &p->cpus);
	if ((ret = write_value(t, V_THRESH, p->threshold_us)) ||
	    (ret = set_width_window(t, p)))
		return ret;
	if (t->id[V_MODE] >= 0 &&
	    (ret = ledger_write(&t->ledger, t->id[V_MODE], hwlat_mode_names[run->hwlat->mode]))) {
		err_msg("cannot set the hwlat mode to %s: %s", hwlat_mode_names[run->hwlat->mode],
			strerror(-ret));
		return ret;
	}
	if ((ret = start_instance(run, t)) || (ret = load_events(run, t)))
		return ret;
	trace_instance_count_missed(&t->inst);
	return 0;
}

static int hwlat_enable(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;
	const struct noise_params *p = run->params;

	/* the tracer's thread starts with tracing on */
	trace_instance_set_on(&t->inst, true);
	if (p->warmup_s) {
		noise_run_warm_up(run);	/* cut short by a stop: nothing of it is kept either */
		tracefs_instance_file_clear(t->inst.tfs, "trace");
	}
	clock_gettime(CLOCK_MONOTONIC, &t->started);
	return 0;
}

static uint64_t field(const struct tep_format_field *f, const struct tep_record *r)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field((struct tep_format_field *)f, r->data, &v);
	return v;
}

static int on_record(struct tep_event *event, struct tep_record *r, int cpu, void *ctx)
{
	struct noise_run *run = ctx;
	struct hwlat_priv *t = run->priv;
	struct hwlat_sample s = { .cpu = r->cpu };
	uint64_t worst;

	run->processed_events++;
	if (event != t->ev)
		return 0;
	s.inner_us = field(t->f_inner, r);
	s.outer_us = field(t->f_outer, r);
	s.seqnum = field(t->f_seqnum, r);
	s.nmi_total_us = field(t->f_nmi_ts, r);
	s.nmi_count = field(t->f_nmi_count, r);
	s.count = field(t->f_count, r);
	s.ts_sec = (int64_t)field(t->f_sec, r);
	s.ts_nsec = (int64_t)field(t->f_nsec, r);
	t->kept[t->nr_kept++ % KEPT_SAMPLES] = s;
	hwlat_add_sample(run, &s);
	worst = s.inner_us > s.outer_us ? s.inner_us : s.outer_us;
	if (run->params->stop_us && worst > (uint64_t)run->params->stop_us && !t->over_stop) {
		t->over_stop = true;
		t->stop_cpu = s.cpu;
		t->stop_us = worst;
	}
	(void)cpu;
	return 0;
}

static int hwlat_collect(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;

	if (run->stop_requested < 2 &&
	    tracefs_iterate_raw_events(t->tep, t->inst.tfs, &run->params->cpus,
				       sizeof(run->params->cpus), on_record, run) < 0 &&
	    run->stop_requested < 2)
		debug_msg("reading the trace buffers failed: %s", strerror(errno));
	run->missed_events = t->inst.missed;
	return 0;
}

/* The whole windows since tracing went on: the first one ends a width after it. */
static void count_windows(struct noise_run *run, struct hwlat_priv *t)
{
	struct timespec now;
	double us;

	clock_gettime(CLOCK_MONOTONIC, &now);
	us = (now.tv_sec - t->started.tv_sec) * 1e6 + (now.tv_nsec - t->started.tv_nsec) / 1e3;
	if (t->started.tv_sec && us > 0)
		run->hwlat->windows = (uint64_t)(us / run->params->period_us);
}

/* The kernel never stops by itself: -s is ours, read from the samples. */
static bool hwlat_stopped(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;

	if (!t->over_stop || t->halted)
		return false;
	trace_instance_set_on(&t->inst, false);
	hwlat_collect(run);
	run->stop_hit = true;
	run->stop_reason = "single";
	run->stop_cpu = t->stop_cpu;
	run->stop_value_us = t->stop_us;
	return true;
}

static void hwlat_halt(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;

	if (!t)
		return;
	if (t->halted) {
		tracefs_iterate_stop(t->inst.tfs);	/* a second signal: abandon the drain */
		return;
	}
	t->halted = 1;
	trace_instance_set_on(&t->inst, false);
	if (run->hwlat)
		count_windows(run, t);
}

static int hwlat_rearm(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;

	t->over_stop = false;
	t->stop_cpu = -1;
	run->stop_hit = false;
	run->stop_cpu = -1;
	run->stop_value_us = -1;
	trace_instance_set_on(&t->inst, true);
	return 0;
}

/* The last samples, one a line, as hwlatdetect's --report writes them. */
static int hwlat_save_trace(struct noise_run *run, const char *path)
{
	struct hwlat_priv *t = run->priv;
	uint64_t first = t->nr_kept > KEPT_SAMPLES ? t->nr_kept - KEPT_SAMPLES : 0;
	FILE *f;
	int ret = 0;

	printf("  Saving trace to %s\n", path);
	f = fopen(path, "w");
	if (!f) {
		err_msg("cannot save the trace to %s: %s", path, strerror(errno));
		return -errno;
	}
	for (uint64_t i = first; i < t->nr_kept; i++) {
		const struct hwlat_sample *s = &t->kept[i % KEPT_SAMPLES];

		fprintf(f, "ts: %lld.%09lld, inner:%llu, outer:%llu, cpu:%d, count:%llu, seqnum:%llu, "
			"nmi-count:%llu, nmi-total:%llu\n", (long long)s->ts_sec, (long long)s->ts_nsec,
			(unsigned long long)s->inner_us, (unsigned long long)s->outer_us, s->cpu,
			(unsigned long long)s->count, (unsigned long long)s->seqnum,
			(unsigned long long)s->nmi_count, (unsigned long long)s->nmi_total_us);
	}
	if (fclose(f))
		ret = -errno;
	if (ret)
		err_msg("cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}

static void hwlat_teardown(struct noise_run *run)
{
	struct hwlat_priv *t = run->priv;

	if (!t)
		return;
	/* the instance first: removing it stops the tracer, which puts tracing_thresh back */
	trace_instance_destroy(&t->inst);
	if (t->locked)
		ledger_close(&t->ledger);
	tep_free(t->tep);
	free(t);
	run->priv = NULL;
}

const struct noise_backend hwlat_tracer_backend = {
	.name = "tracer",
	/* one sample a window at most, per CPU in per-cpu mode */
	.max_wait_s = 10,
	.setup = hwlat_setup,
	.enable = hwlat_enable,
	.collect = hwlat_collect,
	.stopped = hwlat_stopped,
	.halt = hwlat_halt,
	.rearm = hwlat_rearm,
	.save_trace = hwlat_save_trace,
	.teardown = hwlat_teardown,
};

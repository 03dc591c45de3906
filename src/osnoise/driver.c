// SPDX-License-Identifier: GPL-2.0-only
/*
 * driver - the run every noise tool shares (osnoise top or hist, hwnoise
 * top or hist) on a noise backend: noise_cmd_run() parses a tool's options
 * (options.c) and noise_run_tool() drives the backend, whose periods and
 * samples come back through noise_run_add_*() to the tool's sink; the
 * tool's printers (beside its row) and the JSON record (record.c) end it.
 *
 * The loop wakes every second (less often when nothing is shown or
 * watched), lets the backend hand what it measured to the tool's sink and,
 * for a tool with a live view (top), prints its table. Whatever ends the
 * run (the duration, a stop condition, any catchable terminating signal,
 * 'q' in the live view, a reader that closed stdout, or an error) goes
 * through the same teardown, which gives back every setting the backend
 * borrowed; a crash or SIGKILL leaves that to the guardian (guardian.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "actions.h"
#include "cpuspec.h"
#include "commands.h"
#include "json.h"
#include "jsonread.h"
#include "output.h"
#include "misconfig.h"
#include "msg.h"
#include "osnoise.h"
#include "plot/plots.h"
#include "record.h"
#include "sysroot.h"
#include "top.h"
#include "tui.h"
#include "util.h"

/*
 * The series of the record (series.h): a noise tool's periods, each at the
 * time it started (the periods before it, -p each); a point covers 1 s to
 * start with, or -p when that is longer.
 */
static const struct series_field noise_series_fields[] = {
	{ "periods", SERIES_SUM }, { "runtime_us", SERIES_SUM }, { "noise_us", SERIES_SUM },
	{ "max_single_us", SERIES_MAX }, { "hw_count", SERIES_SUM }, { "nmi_count", SERIES_SUM },
	{ "irq_count", SERIES_SUM }, { "softirq_count", SERIES_SUM }, { "thread_count", SERIES_SUM },
};

/* timerlat's: the wake-ups of each context and their largest latency, in ns */
static const struct series_field timerlat_series_fields[] = {
	{ "irq_count", SERIES_SUM }, { "irq_max_ns", SERIES_MAX },
	{ "thread_count", SERIES_SUM }, { "thread_max_ns", SERIES_MAX },
	{ "user_count", SERIES_SUM }, { "user_max_ns", SERIES_MAX },
};

static int series_new(struct noise_run *run)
{
	const struct noise_params *p = run->params;
	uint64_t width = p->period_us > 1000000 ? p->period_us : 1000000;

	if (run->tool->add_latency) {
		run->series_seq0 = calloc(p->nr_cpus, sizeof(*run->series_seq0));
		if (!run->series_seq0)
			return -ENOMEM;
		return series_init(&run->series, timerlat_series_fields,
				   ARRAY_SIZE(timerlat_series_fields), p->nr_cpus, width);
	}
	if (!run->tool->add_period)
		return 0;	/* hwlat: its samples are its record */
	return series_init(&run->series, noise_series_fields, ARRAY_SIZE(noise_series_fields),
			   p->nr_cpus, width);
}

/*
 * The hand-over: what the backends call with each period and each single
 * noise. A period also counts for the deadline (finish_periods()), in the
 * series and, on hist with a gate, for the period totals top would show.
 */
void noise_run_add_period(struct noise_run *run, const struct noise_period *p)
{
	if (p->cpu < 0 || p->cpu >= run->params->nr_cpus)
		return;
	if (run->periods) {
		uint64_t v[] = { 1, p->runtime, p->noise, p->max_sample, p->hw, p->nmi,
				 p->irq, p->softirq, p->thread };

		series_add(&run->series, p->cpu, (uint64_t)run->periods[p->cpu] * run->params->period_us, v);
		run->periods[p->cpu]++;
	}
	if (run->tool->add_period)
		run->tool->add_period(run, p);
	if (run->totals)
		noise_cpu_fold(&run->totals[p->cpu], p);
}

bool noise_run_warm_up(struct noise_run *run)
{
	const struct timespec nap = { 0, 100 * 1000 * 1000 };
	long long warm_ms = run->params->warmup_s * 1000;

	if (!warm_ms)
		return false;
	debug_msg("warming up for %lld s", run->params->warmup_s);
	for (long long t = 0; t < warm_ms && !run->stop_requested; t += 100)
		nanosleep(&nap, NULL);
	return !run->stop_requested;
}

void noise_run_add_sample(struct noise_run *run, int cpu, uint64_t ns)
{
	if (cpu >= 0 && cpu < run->params->nr_cpus && run->tool->add_sample)
		run->tool->add_sample(run, cpu, ns);
}

void noise_run_add_samples(struct noise_run *run, int cpu, uint64_t us, uint64_t count,
			   uint64_t sum_ns)
{
	if (cpu >= 0 && cpu < run->params->nr_cpus && count && run->tool->add_samples)
		run->tool->add_samples(run, cpu, us, count, sum_ns);
}

void noise_run_add_latency(struct noise_run *run, int cpu, enum timerlat_context context,
			   uint64_t seq, uint64_t ns)
{
	uint64_t v[2 * TL_CONTEXTS] = { 0 };

	if (cpu < 0 || cpu >= run->params->nr_cpus || context >= TL_CONTEXTS || !run->tool->add_latency)
		return;
	run->tool->add_latency(run, cpu, context, seq, ns);
	if (run->series_seq0) {
		/* seq + 1: 0 says none yet */
		if (!run->series_seq0[cpu])
			run->series_seq0[cpu] = seq + 1;
		v[2 * context] = 1;
		v[2 * context + 1] = ns;
		series_add(&run->series, cpu, seq + 1 > run->series_seq0[cpu] ?
			   (seq + 1 - run->series_seq0[cpu]) * run->params->period_us : 0, v);
	}
}

/*
 * Signal handlers cannot take arguments: the one run of this process, or
 * NULL once the teardown started (it must finish, whatever arrives).
 */
static struct noise_run *volatile signal_run;
/*
 * The handler also writes a byte here, which wakes wait_tick() at once: a
 * signal that lands between its check of stop_requested and its sleep
 * would otherwise be seen only a whole tick (up to 10 s) later.
 */
static int wake_fds[2] = { -1, -1 };

static void on_signal(int sig)
{
	struct noise_run *run = signal_run;
	int saved_errno = errno;

	if (!run)
		return;
	run->stop_requested++;
	if (run->backend)
		run->backend->halt(run);
	if (wake_fds[1] >= 0) {
		/* a full pipe has a wake-up pending anyway */
		ssize_t ignored = write(wake_fds[1], "", 1);

		(void)ignored;
	}
	errno = saved_errno;
}

/*
 * Every signal whose default action would end rtla ends the run through
 * the teardown instead (the real-time signals too). Not the crash signals
 * (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS): a process
 * that crashed must run no more of its code, so they keep their default,
 * and the backend's guardian process (guardian.h) restores what the run
 * borrowed. SIGPIPE stays ignored (main.c): a closed stdout ends the run
 * through EPIPE.
 */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
	SIGXCPU, SIGXFSZ, SIGIO,
#ifdef SIGPWR
	SIGPWR,
#endif
#ifdef SIGSTKFLT
	SIGSTKFLT,
#endif
};

static void install_signals(struct noise_run *run)
{
	struct sigaction sa = { .sa_handler = on_signal };

	signal_run = run;
	if (wake_fds[0] < 0 && pipe2(wake_fds, O_CLOEXEC | O_NONBLOCK))
		wake_fds[0] = wake_fds[1] = -1;	/* then a tick it is */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
}

const char *noise_tracer_name(enum noise_tracer tracer)
{
	return tracer == TRACER_TIMERLAT ? "timerlat" : tracer == TRACER_HWLAT ? "hwlat" : "osnoise";
}

static const struct noise_backend *choose_backend(const struct noise_tool *tool,
						 struct noise_params *p)
{
	bool timerlat = tool->tracer == TRACER_TIMERLAT;
	const struct noise_backend *sampler = timerlat ? &timerlat_sampler_backend
						       : &noise_sampler_backend;

	if (tool->backend)
		return tool->backend;	/* its parser refused any other */
	switch (p->backend) {
	case BACKEND_TRACER:
		return &noise_tracer_backend;
	case BACKEND_SAMPLER:
		return sampler;
	case BACKEND_AUTO:
		break;
	}
	if (noise_tracer_available(timerlat ? "timerlat" : "osnoise"))
		return &noise_tracer_backend;
	/*
	 * Without root tracefs cannot say whether the kernel has the tracer: do
	 * not claim it has none; the sampler says what it lacks without root.
	 */
	if (geteuid())
		return sampler;
	info_msg("the kernel has no %s tracer: measuring with the sampler backend",
		 timerlat ? "timerlat" : "osnoise");
	return sampler;
}

/* Options that only mean something to the kernel tracer. */
static int check_backend_options(const struct noise_tool *tool, const struct noise_params *p,
				 const struct noise_backend *b)
{
	const char *opt = NULL;

	if (b == &noise_tracer_backend || b == tool->backend) {
		if (geteuid()) {
			err_msg("%s needs root permission", noise_tracer_name(tool->tracer));
			return -EPERM;
		}
		return 0;
	}
	if (p->events)
		opt = p->events->filter ? "--filter" : p->events->trigger ? "--trigger" : "-e";
	else if (p->cgroup)
		opt = "-C";
	else if (tool->tracer == TRACER_TIMERLAT)
		opt = timerlat_tracer_only_option(p);
	if (opt) {
		err_msg("%s needs the tracer backend (the kernel %s tracer)", opt,
			tool->tracer == TRACER_TIMERLAT ? "timerlat" : "osnoise");
		return -EINVAL;
	}
	return 0;
}

void noise_measured_cpus(const struct noise_params *p, cpu_set_t *set)
{
	cpu_set_t online;

	*set = p->cpus;
	if (sysroot_online_cpus(&online) > 0)
		CPU_AND(set, set, &online);
}

/* -H, or automatically: keep rtla itself off the measured CPUs. */
static void set_house_keeping(const struct noise_params *p)
{
	cpu_set_t hk;

	if (p->hk_given) {
		if (sched_setaffinity(0, sizeof(p->hk), &p->hk))
			warn_msg("could not move rtla to the -H CPUs: %s", strerror(errno));
		return;
	}
	if (!p->cpus_str || sched_getaffinity(0, sizeof(hk), &hk))
		return;
	for (int cpu = 0; cpu < p->nr_cpus; cpu++)
		if (CPU_ISSET(cpu, &p->cpus))
			CPU_CLR(cpu, &hk);
	if (CPU_COUNT(&hk) && sched_setaffinity(0, sizeof(hk), &hk))
		debug_msg("automatic house keeping failed: %s", strerror(errno));
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * How long the loop may sleep: a second while a live view is shown or a
 * stop condition watched (upstream's pace; a backend's wait() returns
 * sooner at a stop); otherwise each wake-up only
 * drains the backend, which is the tool's own noise on the measured
 * machine, so as seldom as the backend's buffers allow, and at least
 * every 1000 periods.
 */
static double tick_s(const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	double tick = run->backend->max_wait_s, periods = p->period_us * 1000 / 1e6;

	if ((run->tool->print_live && !p->quiet) || noise_stop_set(p))
		return 1.0;
	if (periods < tick)
		tick = periods;
	return tick > 1.0 ? tick : 1.0;
}

/*
 * Sleep WAIT_MS, or less when WAKE_FD (a signal's byte, or a key) is
 * readable; a backend with a wait() of its own may hand data over
 * meanwhile (and return early).
 */
static int backend_wait(struct noise_run *run, int wake_fd, int wait_ms)
{
	struct pollfd wake = { .fd = wake_fd, .events = POLLIN };

	if (run->backend->wait)
		return run->backend->wait(run, wake_fd, wait_ms);
	poll(&wake, 1, wait_ms);
	return 0;
}

/* Sleep up to one tick, or until the deadline; false when the run must end. */
static bool wait_tick(struct noise_run *run, struct tui *tui, const struct timespec *t0)
{
	double tick = tick_s(run), now = seconds_since(t0);
	double until = run->params->duration_s ? run->params->duration_s : now + tick;

	if (until <= now)
		return false;
	if (until > now + tick)
		until = now + tick;
	/*
	 * A signal ends it at once; in the live view a key wakes it too (the
	 * terminal is stdin), and q ends the run as Ctrl-C does.
	 */
	while (!run->stop_requested && (now = seconds_since(t0)) < until) {
		if (backend_wait(run, tui ? STDIN_FILENO : wake_fds[0],
				 (int)((until - now) * 1000) + 1) == 2)
			break;	/* a stop: collect it now, not at the tick's end */
		if (tui && !tui_wait(tui, 0) && !run->stop_requested)
			run->stop_requested = 1;
	}
	return !run->stop_requested;
}

static void print_refresh(struct noise_run *run, struct tui *tui)
{
	if (tui) {
		tui_show(tui, run);
		return;
	}
	/* upstream clears the screen between tables, even into a pipe, unless -D */
	if (!run->params->debug)
		fputs("\033c", stdout);
	run->tool->print_live(stdout, run, time(NULL));
	/* the reader is gone ("| head"): end the run as a Ctrl-C would, quietly */
	if (out_flush_stdout() == -EPIPE && !run->stop_requested)
		run->stop_requested = 1;
}

static void print_final(struct noise_run *run)
{
	if (run->params->json_stdout)
		return;
	/* the live tables go, the last one stays */
	if (run->tool->print_live && !run->params->quiet && !run->params->debug)
		fputs("\033c", stdout);
	run->tool->print_final(stdout, run, time(NULL));
	/*
	 * The backend's note on stderr, since stdout is upstream's text alone;
	 * after the table, and not when stdout failed: a reader that left or a
	 * full disk gets no line but the error's.
	 */
	if (run->note && !fflush(stdout) && !ferror(stdout))
		info_msg("%s", run->note);
}

/*
 * The SMIs: with --smi a line per measured CPU below the table (which
 * stays upstream's byte for byte without it), or one line saying why there
 * are none; asked or not, one line on stderr when firmware took a measured
 * CPU during the run, since nothing else of the run would show it.
 */
static void print_smi(const struct noise_run *run)
{
	const struct noise_params *p = run->params;
	uint64_t smis, total;
	int busy;

	if (p->smi && !run->smi.available)
		warn_msg("--smi: no SMI counts: %s", run->smi.why);
	for (int cpu = 0; p->smi && !p->json_stdout && cpu < p->nr_cpus; cpu++)
		if (smi_counts_delta(&run->smi, cpu, &smis))
			printf("SMIs on CPU %d during the run: %llu\n", cpu, (unsigned long long)smis);
	busy = smi_counts_busy(&run->smi, &total);
	if (busy)
		warn_msg("%llu SMI%s on %d of the measured CPUs during the run: firmware took "
			 "that time, and no trace event shows it%s", (unsigned long long)total,
			 total == 1 ? "" : "s", busy, p->smi ? "" : " (--smi: per CPU)");
}

/*
 * -J: the record alone on stdout, even when a "trace" action or a shell
 * command prints: the record keeps the real stdout, everything else of the
 * run goes to stderr.
 */
static FILE *take_stdout_for_record(void)
{
	FILE *f;
	int fd;

	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	dup2(STDERR_FILENO, STDOUT_FILENO);
	return f;
}

/* hist --plot FILE: the record's histogram, drawn from the record as rtla report draws it */
static int write_plot(struct noise_run *run, double elapsed_s)
{
	struct noise_record body = { run, elapsed_s };
	char *text = NULL, err[JV_ERR_MAX];
	struct jv *rec = NULL;
	size_t len = 0;
	int ret;

	ret = out_record_text(NOISE_SCHEMA_VERSION, noise_json_body, &body, &text, &len);
	if (!ret && !(rec = jv_parse(text, err))) {
		/* rtla's own record that its reader refuses: a bug, named */
		err_msg("--plot: %s: the record does not read back: %s", run->params->plot_file, err);
		free(text);
		return -EINVAL;
	}
	if (!ret)
		ret = plot_svg_file(run->params->plot_file, rec);
	if (ret)
		err_msg("--plot: %s: %s", run->params->plot_file,
			ret == -ENODATA ? "the record has no histogram" : strerror(-ret));
	jv_free(rec);
	free(text);
	return ret;
}

/*
 * The record on stdout (-J) and in the --json-file, and hist's --plot; false
 * if one could not be written.
 */
static bool write_records(struct noise_run *run, struct out_record *rec, double elapsed_s)
{
	struct noise_record body = { run, elapsed_s };
	FILE *record = rec->stdout_stream;
	int ret = out_record_write(rec, NOISE_SCHEMA_VERSION, noise_json_body, &body);

	if (record) {
		int close_ret = json_close_file(record);

		/* a reader that closed the pipe is normal use; anything else is not */
		if (close_ret && close_ret != -EPIPE) {
			err_msg("write error: %s", strerror(-close_ret));
			return false;
		}
	}
	return !ret && (!run->params->plot_file || !write_plot(run, elapsed_s));
}

/* Keep a stop condition hit for the record; NULL when out of memory. */
static struct noise_hit *record_hit(struct noise_run *run, const struct timespec *t0)
{
	struct noise_hit *hits = realloc(run->hits, (run->nr_hits + 1) * sizeof(*hits)), *h;

	if (!hits)
		return NULL;
	run->hits = hits;
	h = &hits[run->nr_hits++];
	*h = (struct noise_hit){
		.at_s = seconds_since(t0),
		.cpu = run->stop_cpu,
		.value_us = run->stop_value_us,
		.condition = run->stop_reason,
		.actions = { .failed = -1 },
	};
	return h;
}

/*
 * For top, -d is a number of periods as well: the periods that fit in it.
 * The last of them ends a little after -d (each period runs late by the
 * time its thread takes to wake), so at the deadline the run waits for
 * every measured CPU to complete them, for at most one more period.
 */
static void finish_periods(struct noise_run *run, const struct timespec *t0)
{
	const struct noise_params *p = run->params;
	double period_s = p->period_us / 1e6, limit = p->duration_s + (period_s < 1 ? period_s : 1);
	unsigned due = period_s > 0 ? (unsigned)(p->duration_s / period_s) : 0;

	/* hist shows samples, not periods: its -d is a time, as upstream's; timerlat's too */
	if (!p->duration_s || !run->periods || run->want_samples || !run->tool->add_period)
		return;
	while (!run->stop_requested && seconds_since(t0) < limit) {
		bool missing = false;

		for (int cpu = 0; cpu < p->nr_cpus && !missing; cpu++)
			missing = CPU_ISSET(cpu, &p->cpus) && run->periods[cpu] < due;
		if (!missing)
			return;
		backend_wait(run, wake_fds[0], 100);	/* each collect costs a drain: not too often */
		run->backend->collect(run);
	}
}

/* The measurement loop; returns with the backend halted. */
static void main_loop(struct noise_run *run, struct tui *tui, const struct timespec *t0)
{
	const struct noise_backend *b = run->backend;
	struct action_outcome lost;	/* when the hit could not be kept */

	while (wait_tick(run, tui, t0)) {
		struct noise_hit *hit;

		b->collect(run);
		if (!run->params->quiet && run->tool->print_live)
			print_refresh(run, tui);
		if (!b->stopped(run))
			continue;
		hit = record_hit(run, t0);
		/* a failing action ends the chain before its "continue", as upstream */
		actions_run(&run->params->threshold_actions, run, hit ? &hit->actions : &lost);
		if (!hit)
			actions_report(&run->params->threshold_actions, &lost, "--on-threshold");
		if (!hit || !hit->actions.continued)
			break;
		debug_msg("stop condition hit: continuing as asked");
		b->rearm(run);
	}
	if (!run->stop_hit)
		finish_periods(run, t0);
	b->halt(run);
	b->collect(run);
}

/* --fail-if, --junit, --prometheus: the verdict, its summary line and the files. */
static int finish_gate(struct noise_run *run, struct gate_verdict *v, double elapsed)
{
	const struct noise_params *p = run->params;
	char line[256];
	int ret;

	if (gate_evaluate(run, &p->criteria, v)) {
		err_msg("out of memory");
		return -ENOMEM;
	}
	run->gate = v;
	if (p->criteria.len) {
		gate_summary(&p->criteria, v, line, sizeof(line));
		err_msg("%s", line);
	}
	if (p->junit_file &&
	    (ret = gate_write_junit(run, &p->criteria, v, elapsed, p->junit_file))) {
		err_msg("--junit: %s: %s", p->junit_file, strerror(-ret));
		return ret;
	}
	if (p->prometheus_file &&
	    (ret = gate_write_prometheus(run, &p->criteria, v, p->prometheus_file))) {
		err_msg("--prometheus: %s: %s", p->prometheus_file, strerror(-ret));
		return ret;
	}
	return 0;
}

int noise_run_tool(const struct noise_tool *tool, struct noise_params *p)
{
	struct gate_verdict verdict = { .first_failed = -1 };
	bool gate = p->criteria.len || p->junit_file || p->prometheus_file;
	struct noise_run run = { .tool = tool, .params = p, .stop_cpu = -1, .stop_value_us = -1,
				 .want_samples = tool->add_sample != NULL };
	struct tui *tui = NULL;
	struct out_record rec;
	struct timespec t0;
	cpu_set_t measured;
	double elapsed;
	int ret, status = EXIT_ERROR;

	run.backend = choose_backend(tool, p);
	if (check_backend_options(tool, p, run.backend))
		return EXIT_ERROR;
	/* the samplers' threads are rtla's; the tracer's are the kernel's (timerlat -u: tracer.c) */
	if (cpus_allowed(&p->allowed))
		CPU_ZERO(&p->allowed);
	if (run.backend != &noise_tracer_backend && noise_user_cpus(p))
		return EXIT_ERROR;
	/* a record that cannot be written must not cost a whole run to find out */
	if (out_record_open(&rec, p->json_stdout, p->json_file))
		return EXIT_ERROR;
	if (p->json_stdout) {
		p->quiet = true;	/* -J: the record alone on stdout */
		rec.stdout_stream = take_stdout_for_record();
		if (!rec.stdout_stream) {
			err_msg("-J: %s", strerror(errno));
			goto out_json;
		}
	}
	run.periods = calloc(p->nr_cpus, sizeof(*run.periods));
	/* hist keeps samples; a gate on it also wants the period totals */
	if (gate && tool->add_sample)
		run.totals = calloc(p->nr_cpus, sizeof(*run.totals));
	if (!run.periods || (gate && tool->add_sample && !run.totals) || series_new(&run) ||
	    tool->sink_new(&run)) {
		err_msg("out of memory");
		goto out_json;
	}
	/* --require: before anything is borrowed; refused, the gate did not pass */
	ret = misconfig_check(&run);
	if (ret) {
		if (ret == -ENOMEM)
			err_msg("out of memory");
		status = ret == -EPERM ? EXIT_STOPPED : EXIT_ERROR;
		goto out_sink;
	}
	/*
	 * read before the backend borrows anything, and not during the
	 * measurement: each read is an IPI to the CPU (smi.c); an offline CPU
	 * has no device file, and no measurement
	 */
	noise_measured_cpus(p, &measured);
	if (smi_counts_start(&run.smi, SMI_ROOT_LIVE, &measured, p->nr_cpus)) {
		err_msg("out of memory");
		goto out_sink;
	}
	/* a gate on SMIs that cannot be read must not cost a run to fail, nor pass */
	if (!run.smi.available && gate_asks(&p->criteria, GATE_SMI)) {
		err_msg("--fail-if smi_count cannot be judged: %s", run.smi.why);
		goto out_sink;
	}

	install_signals(&run);
	ret = run.backend->setup(&run);
	if (ret || run.stop_requested)
		goto out_teardown;
	set_house_keeping(p);
	ret = run.backend->enable(&run);
	if (ret)
		goto out_teardown;

	run.start_time = time(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* keys come from stdin: without a terminal there, the plain redraw */
	if (!p->quiet && tool->print_live && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))
		tui = tui_start();
	main_loop(&run, tui, &t0);
	smi_counts_stop(&run.smi);
	tui_stop(tui);

	print_final(&run);
	print_smi(&run);
	if (run.nr_hits)
		actions_report(&p->threshold_actions, &run.hits[run.nr_hits - 1].actions,
			       "--on-threshold");
	actions_run(&p->end_actions, &run, &run.end_actions);
	actions_report(&p->end_actions, &run.end_actions, "--on-end");
	run.end_actions_ran = true;
	if (run.stop_hit)
		printf("%s hit stop tracing\n", noise_tracer_name(tool->tracer));
	if (run.stop_hit && tool->print_analysis && !p->json_stdout)
		tool->print_analysis(stdout, &run);
	status = run.stop_hit ? EXIT_STOPPED : EXIT_PASSED;
	elapsed = seconds_since(&t0);
	/* a signal (or a reader gone) before -d: a gate must not read it as a pass */
	run.interrupted = !run.stop_hit && run.stop_requested && p->duration_s &&
			  elapsed < p->duration_s;
	if (gate && finish_gate(&run, &verdict, elapsed))
		status = EXIT_ERROR;
	else if (verdict.failed)
		status = EXIT_STOPPED;
	if (status == EXIT_PASSED && misconfig_found(&run))
		status = EXIT_STOPPED;	/* --on-misconfig record: not a pass */
	if (!write_records(&run, &rec, elapsed))
		status = EXIT_ERROR;
	rec.stdout_stream = NULL;

out_teardown:
	/* from here on a signal is ignored: restoring the kernel state comes first */
	signal_run = NULL;
	run.backend->teardown(&run);
out_sink:
	tool->sink_free(&run);
	smi_counts_free(&run.smi);
	misconfig_free(&run);
	free(run.hits);
	gate_verdict_free(&verdict);
out_json:
	free(run.periods);
	free(run.totals);
	series_free(&run.series);
	free(run.series_seq0);
	out_record_abandon(&rec);
	if (rec.stdout_stream)
		fclose(rec.stdout_stream);
	return status;
}

int noise_cmd_run(int argc, char **argv, const struct noise_tool *tool)
{
	struct noise_params p;
	int ret;

	ret = noise_parse_args(argc, argv, tool, &p);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	ret = noise_run_tool(tool, &p);
	noise_params_free(&p);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * runner - one pinned worker process per CPU running Dhrystone.
 *
 * Processes, not threads: the benchmark's global variables are then plain
 * globals, private to each worker, and the code that runs is the code the
 * specification describes (see dhry.h). A worker that crashes -- a CPU
 * brought up wrong can do that -- takes only itself down and is reported.
 *
 * A group of workers (all CPUs in parallel, or one CPU in sequential mode)
 * shares one anonymous mapping: the results, the progress, and two meeting
 * points. The workers meet once every one is pinned, so that calibration runs
 * under the load of the measurement, and again before the measured runs, so
 * that those start together. The parent only waits, samples cpufreq, reaps
 * workers and draws the progress line; it wakes a few times a second.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dhry.h"
#include "runner.h"
#include "sysroot.h"

#define NSEC_PER_SEC		1000000000ull
#define CALIBRATE_NS		(20 * 1000000ull)	/* long enough to time, short enough to pay */
#define CALIBRATE_FIRST		1000
#define TICK_NS			(200 * 1000000ull)	/* parent: progress, cpufreq, reaping */
#define MARGIN			1.02	/* aim a little past the target: one batch is enough */

enum phase { PHASE_WAITING, PHASE_CALIBRATING, PHASE_MEASURING, PHASE_DONE };

/* A meeting point whose size is known only once every worker was started. */
struct gate {
	int arrived;
	int expected;		/* -1 until the parent knows */
};

/* Shared by the parent and the workers of a group. */
struct group {
	pthread_mutex_t lock;	/* process-shared, robust */
	pthread_cond_t cond;	/* gates and "a worker is done" */
	struct gate ready, go;
	int done;
};

/* One per CPU, in the shared mapping: what the worker reports. */
struct worker {
	struct dhry_result res;
	int gates;			/* meeting points passed: a dead worker's count for it */
	long long own_khz;		/* cpufreq read by the worker after calibrating */
	_Atomic int phase;
	_Atomic uint64_t start_ns;	/* when the measured runs began */
	/* the parent's own */
	pid_t pid;
	double khz_sum;			/* cpufreq samples taken by the parent */
	int khz_samples;
	/* the worker's own */
	struct group *group;
	const struct dhry_opts *opts;
	int perf_fd;
};

struct perf_count {
	uint64_t value, enabled, running;
};

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static uint64_t now_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

const char *dhry_clock_name(enum dhry_clock clock)
{
	switch (clock) {
	case DHRY_CLOCK_PERF: return "perf";
	case DHRY_CLOCK_CPUFREQ: return "cpufreq";
	default: return "none";
	}
}

static bool gate_open(const struct gate *g)
{
	return g->expected >= 0 && g->arrived >= g->expected;
}

/* A worker that died holding the lock leaves it to the next one: take it over. */
static void group_lock(struct group *gr)
{
	if (pthread_mutex_lock(&gr->lock) == EOWNERDEAD)
		pthread_mutex_consistent(&gr->lock);
}

static void group_unlock(struct group *gr)
{
	pthread_mutex_unlock(&gr->lock);
}

static void gate_wait(struct worker *w, struct gate *g)
{
	struct group *gr = w->group;

	group_lock(gr);
	g->arrived++;
	w->gates++;
	if (gate_open(g))
		pthread_cond_broadcast(&gr->cond);
	while (!gate_open(g))
		if (pthread_cond_wait(&gr->cond, &gr->lock) == EOWNERDEAD)
			pthread_mutex_consistent(&gr->lock);
	group_unlock(gr);
}

/* Cycles of this process; the kernel part too when allowed, else user only. */
static int perf_open_cycles(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_HARDWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.exclude_hv = 1,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0 && errno == EACCES) {
		a.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

static bool perf_read(int fd, struct perf_count *c)
{
	return fd >= 0 && read(fd, c, sizeof(*c)) == sizeof(*c);
}

/* Cycles between two reads, scaled up if the PMU was shared; 0 if unknown. */
static double perf_cycles(const struct perf_count *a, const struct perf_count *b)
{
	uint64_t enabled = b->enabled - a->enabled, running = b->running - a->running;

	if (!running || b->value <= a->value)
		return 0;
	return (double)(b->value - a->value) * enabled / running;
}

static long long cpufreq_khz(int cpu)
{
	long long khz;

	return sysroot_readf_ll(&khz, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
				cpu) ? 0 : khz;
}

/* One checked run of the benchmark. 0, or -1 with the result marked. */
static int run_batch(struct worker *w, int runs, uint64_t *ns)
{
	struct dhry_final fin;
	int ret = dhry_run(runs, &fin, ns);

	if (ret) {
		w->res.error = ret;
		snprintf(w->res.why, sizeof(w->res.why), "%s", strerror(-ret));
		return -1;
	}
	if (w->opts->fault && w->opts->fault_cpu == w->res.cpu && !w->opts->fault_signal)
		fin.int_glob++;
	if (dhry_check(&fin, runs, w->res.why, sizeof(w->res.why))) {
		w->res.failed = true;
		return -1;
	}
	return 0;
}

/* Grow the count tenfold until a run is long enough to time; runs per second. */
static int calibrate(struct worker *w, double *rate)
{
	int runs = CALIBRATE_FIRST;
	uint64_t ns;

	for (;;) {
		if (run_batch(w, runs, &ns))
			return -1;
		if (ns >= CALIBRATE_NS || runs > DHRY_RUNS_MAX / 10)
			break;
		runs *= 10;
	}
	*rate = (double)runs * NSEC_PER_SEC / (ns ? ns : 1);
	return 0;
}

/*
 * The measured runs: exactly opts->iterations, or batches sized from the
 * calibrated rate until opts->seconds have passed. Each batch is a complete
 * run of the benchmark with its own check; the score is their sum.
 */
static void measure(struct worker *w, double rate)
{
	const struct dhry_opts *o = w->opts;
	struct dhry_result *res = &w->res;
	uint64_t target = o->seconds * NSEC_PER_SEC, begin, cpu_begin, ns;
	struct perf_count c0, c1;
	bool counted = perf_read(w->perf_fd, &c0);

	cpu_begin = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	begin = now_ns();
	res->start_ns = begin;
	atomic_store(&w->start_ns, begin);
	atomic_store(&w->phase, PHASE_MEASURING);
	if (o->iterations) {
		if (run_batch(w, o->iterations, &ns))
			goto failed;
		res->iterations = o->iterations;
		res->ns = ns;
	}
	while (!o->iterations && res->ns < target) {
		double want = rate * (target - res->ns) / NSEC_PER_SEC * MARGIN + 1;
		int runs = want > DHRY_RUNS_MAX ? DHRY_RUNS_MAX : (int)want;

		if (run_batch(w, runs, &ns))
			goto failed;
		res->iterations += runs;
		res->ns += ns;
		if (ns)
			rate = (double)runs * NSEC_PER_SEC / ns;
	}
	res->end_ns = now_ns();
	res->wall_ns = res->end_ns - begin;
	res->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu_begin;

	/* the counter follows the process: divide by the time it ran */
	if (counted && perf_read(w->perf_fd, &c1) && res->cpu_ns) {
		double cycles = perf_cycles(&c0, &c1);

		if (cycles > 0) {
			res->mhz = cycles * 1000.0 / res->cpu_ns;
			res->clock = DHRY_CLOCK_PERF;
		}
	}
	return;

failed:
	/* no score, but the runs took this CPU's share of the time all the same */
	res->end_ns = now_ns();
}

/* The life of a worker process; its exit status means nothing, the mapping speaks. */
static void worker_main(struct worker *w, pid_t parent)
{
	struct group *gr = w->group;
	double rate = 0;
	int err = 0;
	cpu_set_t one;

	/* a worker must not outlive rtla, even one killed with SIGKILL */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	CPU_ZERO(&one);
	CPU_SET(w->res.cpu, &one);
	/* pinned before it touches the benchmark's memory: the pages are the CPU's own */
	if (sched_setaffinity(0, sizeof(one), &one) || sched_getcpu() != w->res.cpu) {
		err = -EINVAL;
		w->res.error = err;
		snprintf(w->res.why, sizeof(w->res.why), "could not run on CPU %d", w->res.cpu);
	}
	w->perf_fd = err ? -1 : perf_open_cycles();
	gate_wait(w, &gr->ready);
	if (w->opts->fault && w->opts->fault_cpu == w->res.cpu && w->opts->fault_signal)
		raise(w->opts->fault_signal);

	if (!err && !w->opts->iterations) {
		atomic_store(&w->phase, PHASE_CALIBRATING);
		err = calibrate(w, &rate);
		/* the CPU is busy now: a governor has ramped it up */
		w->own_khz = cpufreq_khz(w->res.cpu);
	}
	gate_wait(w, &gr->go);
	if (!err)
		measure(w, rate);
	if (w->perf_fd >= 0)
		close(w->perf_fd);

	group_lock(gr);
	atomic_store(&w->phase, PHASE_DONE);
	gr->done++;
	pthread_cond_broadcast(&gr->cond);
	group_unlock(gr);
}

static void progress(struct worker *ws, int n, int index, int total, const struct dhry_opts *o)
{
	uint64_t start = 0, now = now_ns();
	char what[64], when[64];

	for (int i = 0; i < n; i++) {
		uint64_t s = atomic_load(&ws[i].start_ns);

		if (atomic_load(&ws[i].phase) == PHASE_MEASURING && (!start || s < start))
			start = s;
	}
	if (o->sequential)
		snprintf(what, sizeof(what), "CPU %d (%d of %d)", ws[0].res.cpu, index + 1, total);
	else
		snprintf(what, sizeof(what), "%d CPU%s in parallel", n, n > 1 ? "s" : "");
	if (!start)
		snprintf(when, sizeof(when), "calibrating");
	else if (o->iterations)
		snprintf(when, sizeof(when), "%.1f s", (now - start) / 1e9);
	else
		snprintf(when, sizeof(when), "%.1f s of %lld s", (now - start) / 1e9, o->seconds);
	fprintf(stderr, "\rdhry: %s: %s\033[K", what, when);
	fflush(stderr);
}

/*
 * A worker that ended without saying it was done died: record why, and
 * stand in for it at the meeting points it never reached.
 */
static void reap(struct group *gr, struct worker *w, bool block)
{
	int status;

	if (!w->pid || waitpid(w->pid, &status, block ? 0 : WNOHANG) <= 0)
		return;
	w->pid = 0;
	group_lock(gr);
	if (atomic_load(&w->phase) != PHASE_DONE) {
		w->res.error = -ECHILD;
		if (WIFSIGNALED(status))
			snprintf(w->res.why, sizeof(w->res.why), "the worker on CPU %d died: %s",
				 w->res.cpu, strsignal(WTERMSIG(status)));
		else
			snprintf(w->res.why, sizeof(w->res.why), "the worker on CPU %d exited early",
				 w->res.cpu);
		gr->ready.arrived += w->gates < 1;
		gr->go.arrived += w->gates < 2;
		atomic_store(&w->phase, PHASE_DONE);
		gr->done++;
		pthread_cond_broadcast(&gr->cond);
	}
	group_unlock(gr);
}

/* Wait for a started group, sampling cpufreq, reaping and drawing progress meanwhile. */
static void monitor(struct group *gr, struct worker *ws, int n, int index, int total)
{
	const struct dhry_opts *o = ws[0].opts;

	group_lock(gr);
	while (gr->done < n) {
		uint64_t t = now_ns() + TICK_NS;
		struct timespec ts = { .tv_sec = t / NSEC_PER_SEC, .tv_nsec = t % NSEC_PER_SEC };

		if (pthread_cond_timedwait(&gr->cond, &gr->lock, &ts) == EOWNERDEAD)
			pthread_mutex_consistent(&gr->lock);
		if (gr->done == n)
			break;
		group_unlock(gr);
		for (int i = 0; i < n; i++) {
			long long khz;

			reap(gr, &ws[i], false);
			if (atomic_load(&ws[i].phase) != PHASE_MEASURING)
				continue;
			khz = cpufreq_khz(ws[i].res.cpu);
			if (khz > 0) {
				ws[i].khz_sum += khz;
				ws[i].khz_samples++;
			}
		}
		if (o->progress)
			progress(ws, n, index, total, o);
		group_lock(gr);
	}
	group_unlock(gr);
	if (o->progress) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

/*
 * The lock and condition the group's processes share: 0, or -errno. The
 * lock is robust, so that a worker that dies holding it does not stop the
 * others; where the kernel cannot keep robust lists (set_robust_list
 * fails: qemu-user), glibc refuses a robust lock (ENOTSUP) and the group
 * takes a plain shared one, whose only loss is that case. Left as zeroes,
 * it would be a lock of one process, which the others never wake.
 */
static int group_init(struct group *gr)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int ret;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_ROBUST);
	ret = pthread_mutex_init(&gr->lock, &ma);
	if (ret == ENOTSUP) {
		pthread_mutexattr_setrobust(&ma, PTHREAD_MUTEX_STALLED);
		ret = pthread_mutex_init(&gr->lock, &ma);
	}
	pthread_mutexattr_destroy(&ma);
	if (ret)
		return -ret;
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, PTHREAD_PROCESS_SHARED);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	ret = pthread_cond_init(&gr->cond, &ca);
	pthread_condattr_destroy(&ca);
	if (ret) {
		pthread_mutex_destroy(&gr->lock);
		return -ret;
	}
	gr->ready.expected = gr->go.expected = -1;
	return 0;
}

/* Run one group: every worker of ws[] at once. A worker that cannot start is its CPU's error. */
static void run_group(struct group *gr, struct worker *ws, int n, int index, int total)
{
	pid_t parent = getpid();
	int started = 0, ret = group_init(gr);

	if (ret) {
		for (int i = 0; i < n; i++) {
			ws[i].res.error = ret;
			snprintf(ws[i].res.why, sizeof(ws[i].res.why),
				 "cannot share a lock with the workers: %s", strerror(-ret));
		}
		return;
	}
	/* a child must not flush what the parent has buffered */
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < n; i++) {
		struct worker *w = &ws[i];
		pid_t pid;

		w->group = gr;
		pid = fork();
		if (pid == 0) {
			worker_main(w, parent);
			_exit(0);
		}
		if (pid < 0) {
			w->res.error = -errno;
			snprintf(w->res.why, sizeof(w->res.why), "cannot start a worker for CPU %d: %s",
				 w->res.cpu, strerror(errno));
			atomic_store(&w->phase, PHASE_DONE);
			continue;
		}
		w->pid = pid;
		started++;
	}

	group_lock(gr);
	gr->ready.expected = gr->go.expected = started;
	gr->done += n - started;
	pthread_cond_broadcast(&gr->cond);
	group_unlock(gr);

	monitor(gr, ws, n, index, total);
	for (int i = 0; i < n; i++)
		reap(gr, &ws[i], true);
	pthread_cond_destroy(&gr->cond);
	pthread_mutex_destroy(&gr->lock);
}

/* perf's count is the clock that ran; else cpufreq's average, else its one reading. */
static void pick_clock(struct worker *w)
{
	struct dhry_result *res = &w->res;

	if (res->clock == DHRY_CLOCK_PERF || res->error || res->failed)
		return;
	if (w->khz_samples) {
		res->mhz = w->khz_sum / w->khz_samples / 1000.0;
		res->clock = DHRY_CLOCK_CPUFREQ;
	} else if (w->own_khz > 0 || (w->own_khz = cpufreq_khz(res->cpu)) > 0) {
		res->mhz = w->own_khz / 1000.0;
		res->clock = DHRY_CLOCK_CPUFREQ;
	}
}

int dhry_measure(const struct dhry_opts *o, struct dhry_result *res, int n)
{
	struct group *groups;
	struct worker *ws;
	uint64_t begin = now_ns();
	size_t size;
	int count = 0;

	for (int cpu = 0; cpu < CPU_SETSIZE && count < n; cpu++)
		if (CPU_ISSET(cpu, &o->cpus))
			count++;
	if (!count)
		return -EINVAL;
	/* a group per CPU in sequential mode: a mutex is not reused across processes */
	size = count * (sizeof(*groups) + sizeof(*ws));
	groups = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (groups == MAP_FAILED)
		return -ENOMEM;
	ws = (struct worker *)(groups + count);
	for (int cpu = 0, i = 0; cpu < CPU_SETSIZE && i < count; cpu++) {
		if (!CPU_ISSET(cpu, &o->cpus))
			continue;
		ws[i].res.cpu = cpu;
		ws[i].opts = o;
		ws[i].perf_fd = -1;
		i++;
	}

	if (o->sequential) {
		for (int i = 0; i < count; i++)
			run_group(&groups[i], &ws[i], 1, i, count);
	} else {
		run_group(&groups[0], ws, count, 0, count);
	}
	for (int i = 0; i < count; i++) {
		pick_clock(&ws[i]);
		res[i] = ws[i].res;
		if (res[i].end_ns) {
			res[i].start_ns -= begin;
			res[i].end_ns -= begin;
		}
	}
	munmap(groups, size);
	return count;
}

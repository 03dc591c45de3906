// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler - timerlat's noise_backend for kernels without the timerlat
 * tracer (sampler.h says what it measures and how).
 *
 * setup() opens the trace instance, locks memory, starts one sleeper per
 * measured CPU (parked) and holds --dma-latency; enable() lets them sleep
 * and wake. Each sleeper publishes its wake-ups in a ring only it writes.
 * collect() runs about once a second on the main thread: it takes the
 * rings' heads, drains the trace instance, and hands each wake-up to
 * why.c (which returns its IRQ latency and explanation) and to the tool's
 * sink. A -T stop is seen by the sleeper itself, which turns the trace off
 * at once, as the tracer does; an -i stop (the IRQ latency comes from the
 * events) is seen in collect().
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "msg.h"
#include "sysroot.h"
#include "tasks.h"
#include "timerlat/sampler.h"
#include "timerlat/timerlat.h"
#include "util.h"

#define SLEEPER_STACK	(256 * 1024)	/* locked with the rest: not glibc's 8 MiB */

enum sleeper_cmd { SLEEP_WAIT, SLEEP_RUN, SLEEP_EXIT };

struct wake {
	uint64_t target, woke, seq;
};

struct sleeper {
	int cpu;
	struct tl_sampler *s;
	pthread_t thread;
	bool created;
	_Atomic pid_t tid;		/* 0 until up; < 0: -errno */
	_Atomic int prio_err;		/* -errno of the priority, 0: set */
	_Atomic int parked;
	uint64_t phase;			/* ns after each period boundary */
	struct wake *ring;
	uint64_t mask;
	_Alignas(64) _Atomic uint64_t head;	/* the sleeper's */
	_Atomic uint64_t lost;
	_Alignas(64) _Atomic uint64_t tail;	/* the collector's */
};

struct tl_sampler {
	_Atomic int cmd;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool ctl_ready;
	uint64_t period_ns;
	uint64_t stop_thread_ns;	/* -T */
	struct sched_prio prio;
	int on_fd;			/* the instance's tracing_on, or -1 */
	int hit_fd;			/* an eventfd a sleeper's -T stop wakes the collector with */
	_Atomic int quirks;		/* a sleeper's stop writes that failed (debug output) */
	_Atomic int stop_flag;		/* a sleeper hit -T */
	_Atomic int stop_cpu;
	_Atomic uint64_t stop_seq, stop_ns;

	int nr_cpus;
	struct sleeper **sl;		/* by CPU; NULL: not measured */
	struct tlw w;
	bool w_ready;
	struct tlw_trace *trace;	/* NULL: no attribution */
	int dma_fd;
	bool locked;			/* mlockall() held */
	_Atomic int halted;
	/* the stop, once collect() has seen it */
	bool stop_seen;
	int stop_cpu_seen;
	enum timerlat_context stop_context;
	uint64_t stop_value_ns;
	bool have_stop_why;
	struct tlw_why stop_why;
	/* steal time of the measured CPUs, at the start (-1: unknown) */
	long long *steal0;
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* ---- the sleepers ---- */

static bool park(struct sleeper *sl)
{
	struct tl_sampler *s = sl->s;
	int cmd;

	pthread_mutex_lock(&s->lock);
	while ((cmd = atomic_load(&s->cmd)) == SLEEP_WAIT) {
		atomic_store(&sl->parked, 1);
		pthread_cond_wait(&s->cond, &s->lock);
	}
	atomic_store(&sl->parked, 0);
	pthread_mutex_unlock(&s->lock);
	return cmd == SLEEP_RUN;
}

static void publish(struct sleeper *sl, uint64_t target, uint64_t woke, uint64_t seq)
{
	uint64_t h = atomic_load_explicit(&sl->head, memory_order_relaxed);

	if (h - atomic_load_explicit(&sl->tail, memory_order_acquire) > sl->mask) {
		atomic_fetch_add(&sl->lost, 1);
		return;
	}
	sl->ring[h & sl->mask] = (struct wake){ target, woke, seq };
	atomic_store_explicit(&sl->head, h + 1, memory_order_release);
}

/* -T: the first sleeper over it turns the trace off at once, as the tracer would */
static void hit_stop(struct sleeper *sl, uint64_t seq, uint64_t ns)
{
	struct tl_sampler *s = sl->s;

	if (atomic_exchange(&s->stop_flag, 1))
		return;
	atomic_store(&s->stop_cpu, sl->cpu);
	atomic_store(&s->stop_seq, seq);
	atomic_store(&s->stop_ns, ns);
	/* a failed write only lets the drain read a little more, and the next tick finds the stop */
	if (s->on_fd >= 0 && pwrite(s->on_fd, "0", 1, 0) != 1)
		atomic_fetch_add(&s->quirks, 1);
	atomic_store(&s->cmd, SLEEP_WAIT);
	if (eventfd_write(s->hit_fd, 1))
		atomic_fetch_add(&s->quirks, 1);
}

static void measure(struct sleeper *sl, uint64_t *seq)
{
	struct tl_sampler *s = sl->s;
	uint64_t period = s->period_ns, now = mono_ns();
	/* the next boundary at least a period away, then this CPU's phase */
	uint64_t next = (now / period + 2) * period + sl->phase;

	while (atomic_load_explicit(&s->cmd, memory_order_relaxed) == SLEEP_RUN) {
		struct timespec ts = { next / 1000000000ull, next % 1000000000ull };
		uint64_t lat;

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			continue;
		now = mono_ns();
		lat = now > next ? now - next : 0;
		publish(sl, next, now, ++*seq);
		if (s->stop_thread_ns && lat >= s->stop_thread_ns) {
			hit_stop(sl, *seq, lat);
			return;
		}
		next += period;
		if (next <= now)	/* overran whole periods: wake at the next one, as cyclictest */
			next += ((now - next) / period + 1) * period;
	}
}

static void *sleeper_main(void *arg)
{
	struct sleeper *sl = arg;
	struct tl_sampler *s = sl->s;
	pid_t tid = gettid();
	uint64_t seq = 0;
	sigset_t all;
	char name[16];
	int err = 0;

	/* signals are the main thread's: a sleeper woken early would measure nothing */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	/* upstream's name for its user-space workload, which scripts look for */
	snprintf(name, sizeof(name), "timerlatu/%d", sl->cpu);
	pthread_setname_np(pthread_self(), name);
	/* no slack: the expiry hrtimer_start shows is the time asked for, at any priority */
	prctl(PR_SET_TIMERSLACK, 1UL);
	if (sched_getcpu() != sl->cpu)
		err = -EINVAL;
	else
		atomic_store(&sl->prio_err, task_set_prio(tid, &s->prio));

	pthread_mutex_lock(&s->lock);
	atomic_store(&sl->tid, err ? err : tid);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (err)
		return NULL;
	while (park(sl))
		measure(sl, &seq);
	return NULL;
}

static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int new_sleeper(struct tl_sampler *s, int cpu, uint64_t phase)
{
	/* four seconds of wake-ups: the collector drains every second */
	uint64_t n = pow2_at_least(4000000000ull / s->period_ns + 16);
	struct sleeper *sl = calloc(1, sizeof(*sl));
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	if (!sl || posix_memalign((void **)&sl->ring, 4096, n * sizeof(*sl->ring))) {
		free(sl);
		return -ENOMEM;
	}
	memset(sl->ring, 0, n * sizeof(*sl->ring));	/* no page fault while measuring */
	sl->mask = n - 1;
	sl->cpu = cpu;
	sl->s = s;
	sl->phase = phase;
	s->sl[cpu] = sl;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	pthread_attr_setstacksize(&attr, SLEEPER_STACK);
	ret = pthread_create(&sl->thread, &attr, sleeper_main, sl);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	sl->created = true;
	return 0;
}

static void set_cmd(struct tl_sampler *s, int cmd)
{
	pthread_mutex_lock(&s->lock);
	atomic_store(&s->cmd, cmd);
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

/* Every sleeper up (its tid published) or failed; 0 or the first -errno. */
static int wait_started(struct tl_sampler *s)
{
	pthread_mutex_lock(&s->lock);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		while (s->sl[cpu] && !atomic_load(&s->sl[cpu]->tid))
			pthread_cond_wait(&s->cond, &s->lock);
	}
	pthread_mutex_unlock(&s->lock);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (s->sl[cpu] && atomic_load(&s->sl[cpu]->tid) < 0) {
			err_msg("cannot run the measuring thread of CPU %d: the CPU is offline or "
				"outside rtla's CPU set", cpu);
			return atomic_load(&s->sl[cpu]->tid);
		}
	}
	return 0;
}

/* Parked, each at its next wake-up (a period at most); false after TIMEOUT_MS. */
static bool wait_parked(struct tl_sampler *s, int timeout_ms)
{
	struct timespec nap = { 0, 1000000 };

	for (int t = 0; t < timeout_ms; t++) {
		bool all = true;

		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->sl[cpu] && !atomic_load(&s->sl[cpu]->parked))
				all = false;
		if (all)
			return true;
		nanosleep(&nap, NULL);
	}
	return false;
}

/* ---- steal time: what no event shows (the SMIs are the driver's: run->smi) ---- */

/* The steal field of /proc/stat's cpuN line, in USER_HZ ticks; -1: not there. */
static void read_steal(int nr_cpus, long long *out)
{
	FILE *f = sysroot_fopen("/proc/stat", "r");
	char line[512];

	for (int i = 0; i < nr_cpus; i++)
		out[i] = -1;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8];
		int cpu;

		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 9 && cpu >= 0 && cpu < nr_cpus)
			out[cpu] = v[7];
	}
	fclose(f);
}

/* ---- the backend ---- */

static void tl_teardown(struct noise_run *run);

static int tl_setup(struct noise_run *run)
{
	struct noise_params *p = run->params;
	struct tl_sampler *s = calloc(1, sizeof(*s));
	int nmeasured = CPU_COUNT(&p->cpus), k = 0, ret;
	pthread_condattr_t ca;
	const char *why = NULL;

	if (!s)
		return -ENOMEM;
	run->priv = s;
	s->nr_cpus = p->nr_cpus;
	s->dma_fd = -1;
	s->on_fd = -1;
	s->hit_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->hit_fd < 0)
		goto out_nomem;
	s->period_ns = p->period_us * 1000;
	s->stop_thread_ns = p->stop_total_us * 1000;
	/* upstream's user-space threads run at SCHED_FIFO 95 unless -P says otherwise */
	s->prio = p->prio_given ? p->prio
				: (struct sched_prio){ .kind = SCHED_KIND_FIFO, .rt_prio = 95 };
	atomic_store(&s->stop_cpu, -1);
	s->sl = calloc(s->nr_cpus, sizeof(*s->sl));
	s->steal0 = calloc(s->nr_cpus, sizeof(*s->steal0));
	if (!s->sl || !s->steal0 || tlw_init(&s->w, s->nr_cpus))
		goto out_nomem;
	s->w_ready = true;
	s->w.explain_ns = p->stop_total_us * 1000;
	s->w.explain_irq_ns = p->stop_us * 1000;
	pthread_mutex_init(&s->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	s->ctl_ready = true;

	if (!p->unattributed) {
		s->trace = tlw_trace_create(&p->cpus, p->nr_cpus, p->buffer_kb, &why);
		if (!s->trace)
			warn_msg("timerlat sampler: %s: no IRQ column and no explanation of late "
				 "wake-ups (--unattributed measures without them, silently)", why);
	}
	s->on_fd = tlw_trace_on_fd(s->trace);
	run->note = s->trace
		? "sampler backend: wake-up latency measured from user space (Thread: the clock "
		  "read after the wake-up, as cyclictest; IRQ: at hrtimer_expire_entry), late "
		  "wake-ups explained from trace events"
		: "sampler backend: wake-up latency measured from user space (Thread: the clock "
		  "read after the wake-up, as cyclictest), without trace events";
	timerlat_sink_sampled(run, s->trace != NULL);

	/* the sleepers of different CPUs wake apart: period / measured CPUs between them */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		s->w.cpu[cpu].tid = -1;	/* measured; its tid follows */
		ret = new_sleeper(s, cpu, s->period_ns / nmeasured * k++);
		if (ret == -ENOMEM)
			goto out_nomem;
		if (ret) {
			err_msg("cannot start the measuring thread of CPU %d: %s", cpu, strerror(-ret));
			goto out_fail;
		}
	}
	if ((ret = wait_started(s)))
		goto out_fail;
	/*
	 * A page fault in a sleeper would be its own latency: what exists now
	 * (their stacks and rings) is locked; later allocations of the main
	 * thread need not be, and an RLIMIT_MEMLOCK must not fail them.
	 */
	s->locked = !mlockall(MCL_CURRENT);
	if (!s->locked)
		warn_msg("timerlat sampler: cannot lock memory (%s): a page fault would show as "
			 "latency", strerror(errno));
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		int err;

		if (!s->sl[cpu])
			continue;
		s->w.cpu[cpu].tid = atomic_load(&s->sl[cpu]->tid);
		err = atomic_load(&s->sl[cpu]->prio_err);
		if (!err)
			continue;
		if (p->prio_given) {
			err_msg("-P: cannot set the priority of timerlatu/%d: %s", cpu, strerror(-err));
			ret = err;
			goto out_fail;
		}
		if (!run->degraded) {
			warn_msg("timerlat sampler: cannot run timerlatu/N at SCHED_FIFO 95 (%s: it "
				 "needs CAP_SYS_NICE or an RLIMIT_RTPRIO of 95): the latencies include "
				 "waiting behind every other task", strerror(-err));
			run->degraded = "the measuring threads ran without real-time priority";
		}
	}
	if (p->dma_latency_us >= 0 && (s->dma_fd = timerlat_dma_latency_open(p->dma_latency_us)) < 0) {
		ret = s->dma_fd;
		goto out_fail;
	}
	return 0;

out_nomem:
	err_msg("timerlat sampler: out of memory");
	ret = -ENOMEM;
out_fail:
	tl_teardown(run);
	return ret;
}

/* Drop what was measured so far (the warm-up). */
static void discard(struct tl_sampler *s, struct noise_run *run)
{
	if (s->trace)
		tlw_trace_drain(s->trace, &s->w, run);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sleeper *sl = s->sl[cpu];
		struct tlw_cpu *c = &s->w.cpu[cpu];

		if (!sl)
			continue;
		atomic_store(&sl->tail, atomic_load(&sl->head));
		c->pos = c->nev;
		c->last_ts = 0;
	}
	tlw_compact(&s->w);
	tlw_reset(&s->w);
}

static int tl_enable(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;

	if (s->trace)
		tlw_trace_on(s->trace, true);
	read_steal(s->nr_cpus, s->steal0);
	set_cmd(s, SLEEP_RUN);
	if (!noise_run_warm_up(run))
		return 0;
	set_cmd(s, SLEEP_WAIT);
	wait_parked(s, 2000);
	discard(s, run);
	set_cmd(s, SLEEP_RUN);
	return 0;
}

static void take_stop(struct tl_sampler *s, int cpu, enum timerlat_context ctx, uint64_t ns,
		      const struct tlw_why *why)
{
	s->stop_seen = true;
	s->stop_cpu_seen = cpu;
	s->stop_context = ctx;
	s->stop_value_ns = ns;
	if (why) {
		s->stop_why = *why;
		s->have_stop_why = true;
	}
}

static void collect_cpu(struct noise_run *run, struct tl_sampler *s, struct sleeper *sl,
			uint64_t head)
{
	const struct noise_params *p = run->params;
	uint64_t t = atomic_load(&sl->tail);
	int cpu = sl->cpu;

	for (; t < head; t++) {
		const struct wake *wk = &sl->ring[t & sl->mask];
		uint64_t lat = wk->woke > wk->target ? wk->woke - wk->target : 0;
		uint64_t irq = TLW_UNKNOWN;
		struct tlw_why why;

		if (s->trace) {
			tlw_wake(&s->w, cpu, wk->seq, wk->target, wk->woke, &irq, &why);
			if (irq != TLW_UNKNOWN)
				noise_run_add_latency(run, cpu, TL_IRQ, wk->seq, irq);
		}
		noise_run_add_latency(run, cpu, TL_THREAD, wk->seq, lat);
		if (s->stop_seen)
			continue;
		if (p->stop_us && irq != TLW_UNKNOWN && irq >= (uint64_t)p->stop_us * 1000)
			take_stop(s, cpu, TL_IRQ, irq, s->trace ? &why : NULL);
		else if (atomic_load(&s->stop_flag) && atomic_load(&s->stop_cpu) == cpu &&
			 atomic_load(&s->stop_seq) == wk->seq)
			take_stop(s, cpu, TL_THREAD, lat, s->trace ? &why : NULL);
	}
	atomic_store_explicit(&sl->tail, t, memory_order_release);
}

static int tl_collect(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;
	uint64_t head[CPU_SETSIZE];

	if (!s)
		return -EINVAL;
	/* the wake-ups first: every event that explains one was written before it was read */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->sl[cpu])
			head[cpu] = atomic_load_explicit(&s->sl[cpu]->head, memory_order_acquire);
	if (s->trace && run->stop_requested < 2 && tlw_trace_drain(s->trace, &s->w, run))
		debug_msg("timerlat sampler: reading the trace buffers failed");
	run->lost_samples = 0;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!s->sl[cpu])
			continue;
		collect_cpu(run, s, s->sl[cpu], head[cpu]);
		run->lost_samples += atomic_load(&s->sl[cpu]->lost) + s->w.cpu[cpu].dropped;
	}
	tlw_compact(&s->w);
	if (atomic_exchange(&s->quirks, 0))
		debug_msg("timerlat sampler: a stop could not turn the trace off or wake rtla");
	if (s->stop_seen && !atomic_load(&s->halted)) {
		set_cmd(s, SLEEP_WAIT);
		if (s->trace)
			tlw_trace_on(s->trace, false);
	}
	return 0;
}

static bool tl_stopped(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;

	if (!s || atomic_load(&s->halted) || !s->stop_seen)
		return false;
	run->stop_hit = true;
	run->stop_cpu = s->stop_cpu_seen;
	run->stop_value_us = s->stop_value_ns / 1000;
	run->stop_reason = timerlat_context_names[s->stop_context];
	return true;
}

/* Sleep up to TIMEOUT_MS, until WAKE_FD is readable, or until a sleeper hits -T (2). */
static int tl_wait(struct noise_run *run, int wake_fd, int timeout_ms)
{
	struct tl_sampler *s = run->priv;
	struct pollfd fds[2] = { { .fd = wake_fd, .events = POLLIN },
				 { .fd = s ? s->hit_fd : -1, .events = POLLIN } };
	eventfd_t v;

	if (poll(fds, 2, timeout_ms) > 0 && (fds[1].revents & POLLIN) &&
	    !eventfd_read(s->hit_fd, &v))
		return 2;
	return 0;
}

/* From a signal handler: atomic stores only. */
static void tl_halt(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;

	if (!s)
		return;
	atomic_store(&s->halted, 1);
	atomic_store(&s->cmd, SLEEP_WAIT);
}

static int tl_rearm(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;

	if (!s || atomic_load(&s->halted))
		return 0;
	wait_parked(s, 2000);
	run->stop_hit = false;
	s->stop_seen = false;
	s->have_stop_why = false;
	atomic_store(&s->stop_flag, 0);
	if (s->trace)
		tlw_trace_on(s->trace, true);
	set_cmd(s, SLEEP_RUN);
	return 0;
}

static void save_why(FILE *f, const struct tlw_why *y, const char *which)
{
	fprintf(f, "## CPU %d wake-up %llu, expected at %llu ns: %s ##\n", y->cpu,
		(unsigned long long)y->seq, (unsigned long long)y->target, which);
	tlw_why_print(f, y, true);
}

static int tl_save_trace(struct noise_run *run, const char *path)
{
	struct tl_sampler *s = run->priv;
	const struct noise_params *p = run->params;
	FILE *f;
	int ret = 0;

	printf("  Saving trace to %s\n", path);
	f = fopen(path, "w");
	if (!f) {
		err_msg("cannot save the trace to %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "# rtla timerlat sampler trace: the latest wake-ups of at least %lld us "
		"(thread) or %lld us (IRQ), explained; times in CLOCK_MONOTONIC ns\n",
		p->stop_total_us, p->stop_us);
	if (!s->trace)
		fputs("# no trace events: nothing to explain them with\n", f);
	for (size_t i = 0; i < s->w.nlog; i++)
		save_why(f, &s->w.log[i], "over the threshold");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		for (int i = 0; s->sl[cpu] && i < s->w.cpu[cpu].nworst; i++)
			save_why(f, &s->w.cpu[cpu].worst[i], "one of the CPU's worst");
	if (fclose(f))
		ret = -errno;
	if (ret)
		err_msg("cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}

static void tl_teardown(struct noise_run *run)
{
	struct tl_sampler *s = run->priv;

	if (!s)
		return;
	if (s->ctl_ready) {
		set_cmd(s, SLEEP_EXIT);
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->sl && s->sl[cpu] && s->sl[cpu]->created)
				pthread_join(s->sl[cpu]->thread, NULL);
	}
	if (s->dma_fd >= 0)
		close(s->dma_fd);
	if (s->hit_fd >= 0)
		close(s->hit_fd);
	tlw_trace_destroy(s->trace);
	s->trace = NULL;
	if (s->locked)
		munlockall();
	for (int cpu = 0; s->sl && cpu < s->nr_cpus; cpu++) {
		if (s->sl[cpu])
			free(s->sl[cpu]->ring);
		free(s->sl[cpu]);
	}
	if (s->w_ready)
		tlw_free(&s->w);
	if (s->ctl_ready) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
	}
	free(s->sl);
	free(s->steal0);
	free(s);
	run->priv = NULL;
}

const struct noise_backend timerlat_sampler_backend = {
	.name = "sampler",
	.max_wait_s = 1,
	.setup = tl_setup,
	.enable = tl_enable,
	.collect = tl_collect,
	.wait = tl_wait,
	.stopped = tl_stopped,
	.halt = tl_halt,
	.rearm = tl_rearm,
	.save_trace = tl_save_trace,
	.teardown = tl_teardown,
};

/* ---- what the tool prints of it ---- */

static void print_hidden(FILE *f, const struct noise_run *run, const struct tl_sampler *s, int cpu)
{
	long long steal[CPU_SETSIZE];
	uint64_t smis;

	read_steal(s->nr_cpus, steal);
	if (smi_counts_delta(&run->smi, cpu, &smis))
		fprintf(f, "  SMIs on CPU %d during the run: %llu\n", cpu, (unsigned long long)smis);
	if (steal[cpu] >= 0 && s->steal0[cpu] >= 0 && steal[cpu] > s->steal0[cpu])
		fprintf(f, "  Steal time of CPU %d during the run: %lld ms (the hypervisor ran "
			"something else)\n", cpu,
			(steal[cpu] - s->steal0[cpu]) * 1000 / sysconf(_SC_CLK_TCK));
}

bool timerlat_sampler_run(const struct noise_run *run)
{
	return run->backend == &timerlat_sampler_backend;
}

void timerlat_sampler_print_analysis(FILE *f, const struct noise_run *run)
{
	const struct tl_sampler *s = run->priv;

	if (!s || !s->stop_seen || run->params->no_aa)
		return;
	if (!s->have_stop_why) {
		fprintf(f, "  (no trace events: the stop cannot be explained)\n");
		return;
	}
	fprintf(f, "## CPU %d hit stop tracing, analyzing it ##\n", s->stop_why.cpu);
	tlw_why_print(f, &s->stop_why, run->params->nano);
	print_hidden(f, run, s, s->stop_cpu_seen);
}

/* Every wake-up's causes summed over the run, the most time first. */
static void causes_total_json(struct json *j, const struct tlw_cpu *c)
{
	int order[TLW_TOTALS], n = c->ntotal;

	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++)	/* a few dozen: insertion sort */
		for (int k = i; k > 0 && c->total[order[k]].ns > c->total[order[k - 1]].ns; k--) {
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	json_array_begin(j, "causes_total");
	for (int i = 0; i < n; i++)
		tlw_cause_json(j, &c->total[order[i]], c->total_count[order[i]]);
	json_array_end(j);
}

static int by_latency_desc(const void *a, const void *b)
{
	const struct tlw_why *x = a, *y = b;

	return x->latency < y->latency ? 1 : x->latency > y->latency ? -1 : 0;
}

void timerlat_sampler_json(struct json *j, const struct noise_run *run)
{
	const struct tl_sampler *s = run->priv;

	if (!s)
		return;
	json_bool(j, "explained", s->trace != NULL);
	if (s->have_stop_why && !run->params->no_aa) {
		json_array_begin(j, "analysis");
		tlw_why_json(j, &s->stop_why);
		json_array_end(j);
	} else {
		json_null(j, "analysis");
	}
	json_array_begin(j, "worst_wakeups");
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		const struct tlw_cpu *c = &s->w.cpu[cpu];

		if (!s->sl[cpu])
			continue;
		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		json_u64(j, "explained_over_threshold", c->explained);
		json_u64(j, "unaccounted_ns_over_threshold", c->unaccounted_ns);
		/* of every wake-up explained: what share of the latency no event accounts for */
		json_u64(j, "wakeups_explained", c->wakeups);
		json_u64(j, "latency_ns_total", c->latency_ns);
		json_u64(j, "unaccounted_ns_total", c->latency_unaccounted_ns);
		causes_total_json(j, c);
		struct tlw_why worst[TLW_WORST];

		memcpy(worst, c->worst, c->nworst * sizeof(*worst));
		qsort(worst, c->nworst, sizeof(*worst), by_latency_desc);
		json_array_begin(j, "worst");
		for (int i = 0; i < c->nworst; i++)
			tlw_why_json(j, &worst[i]);
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler - the noise_backend that needs no osnoise tracer.
 *
 * setup() calibrates the clock, creates the private trace instance and the
 * pinned spinner threads, which wait; enable() lets them spin. collect()
 * runs on the main thread about once a second: it drains the trace
 * instance, attributes the gaps of every period completed since the last
 * call and folds those periods into the run. A stop condition (-s/-S) is
 * found there, after attribution, because in hwnoise mode only the gaps that
 * no interrupt explains may stop the run; the spinners are then parked, as
 * the kernel turns tracing off.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "sysroot.h"
#include "osnoise/sampler.h"
#include "util.h"

#define CHUNK_NS	1000000ull	/* how often a spinner looks at its command */
#define PERIOD_REC_MAX	4096		/* period records per CPU between drains */

struct sampler {
	struct sampler_clock clock;
	struct sampler_ctl ctl;
	bool ctl_ready;
	int nr_cpus;
	struct sampler_spinner **sp;	/* by CPU number; NULL when not measured */
	struct sampler_attr attr;
	bool attr_ready;
	struct sampler_trace *trace;	/* NULL: measuring without attribution */
	_Atomic int halted;		/* halt() was called */
	bool stop_seen;
	int slice_ms;			/* how long wait() sleeps before it looks at the rings */
	struct timespec drained_at;	/* the last collect() */
};

static void *alloc_ring(size_t bytes)
{
	/* every page now: a page fault in the loop would be our own noise */
	void *p = alloc_resident(bytes, 4096);

	if (!p)
		return NULL;
	if (mlock(p, bytes))
		debug_msg("sampler: mlock of %zu bytes failed: %s", bytes, strerror(errno));
	return p;
}

static void free_spinner(struct sampler_spinner *sp)
{
	if (!sp)
		return;
	if (sp->gap)
		munlock(sp->gap, SAMPLER_GAP_RING * sizeof(*sp->gap));
	if (sp->period_ring)
		munlock(sp->period_ring, (sp->period_mask + 1) * sizeof(*sp->period_ring));
	free(sp->gap);
	free(sp->period_ring);
	free(sp);
}

static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int new_spinner(struct sampler *s, int cpu, uint64_t period_us)
{
	/* two seconds of periods: a drain comes within a slice of the ring half full */
	uint64_t nr_period_recs = pow2_at_least(2000000 / (period_us ? period_us : 1));
	struct sampler_spinner *sp;

	if (nr_period_recs < 16)
		nr_period_recs = 16;
	if (nr_period_recs > PERIOD_REC_MAX)
		nr_period_recs = PERIOD_REC_MAX;
	if (posix_memalign((void **)&sp, SAMPLER_CACHELINE, sizeof(*sp)))
		return -ENOMEM;
	memset(sp, 0, sizeof(*sp));
	s->sp[cpu] = sp;
	sp->cpu = cpu;
	sp->ctl = &s->ctl;
	sp->period_mask = nr_period_recs - 1;
	sp->gap = alloc_ring(SAMPLER_GAP_RING * sizeof(*sp->gap));
	sp->period_ring = alloc_ring(nr_period_recs * sizeof(*sp->period_ring));
	if (!sp->gap || !sp->period_ring)
		return -ENOMEM;
	return 0;
}

static int init_ctl(struct sampler *s, const struct noise_params *p)
{
	struct sampler_ctl *ctl = &s->ctl;
	pthread_condattr_t ca;
	long long thr_us = p->threshold_us ? p->threshold_us : 1;

	atomic_store(&ctl->cmd, SAMPLER_WAIT);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ctl->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&ctl->lock, NULL);
	s->ctl_ready = true;

	ctl->clock = &s->clock;
	ctl->thr = sampler_ns_to_ticks(&s->clock, thr_us * 1000ull);
	ctl->runtime_ns = p->runtime_us * 1000ull;
	ctl->period_ns = p->period_us * 1000ull;
	ctl->runtime = sampler_ns_to_ticks(&s->clock, ctl->runtime_ns);
	ctl->chunk = sampler_ns_to_ticks(&s->clock, CHUNK_NS);
	ctl->prio = p->prio_given ? &p->prio : NULL;
	ctl->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ctl->kick_fd < 0)
		debug_msg("sampler: no eventfd (%s): a burst waits for the slice's end",
			  strerror(errno));
	if (ctl->prio && (p->prio.kind == SCHED_KIND_FIFO || p->prio.kind == SCHED_KIND_RR) &&
	    p->runtime_us >= p->period_us)
		warn_msg("-P %s:%d with runtime == period: the spinners never sleep and starve "
			 "everything else on their CPUs (set -r below -p)",
			 p->prio.kind == SCHED_KIND_FIFO ? "f" : "r", p->prio.rt_prio);
	return 0;
}

/* Wait for every spinner to report its tid, or why it could not start. */
static int wait_started(struct sampler *s)
{
	struct sampler_ctl *ctl = &s->ctl;
	struct timespec until;
	int ret = 0;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 5;
	pthread_mutex_lock(&ctl->lock);
	for (int cpu = 0; cpu < s->nr_cpus && !ret; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];
		pid_t tid;

		while (sp && !(tid = atomic_load(&sp->tid)))
			if (pthread_cond_timedwait(&ctl->cond, &ctl->lock, &until) == ETIMEDOUT) {
				err_msg("the spinner of CPU %d did not start", cpu);
				ret = -ETIMEDOUT;
				break;
			}
		if (!sp || ret)
			continue;
		if (tid < 0) {
			ret = tid;
			if (ret == -EINVAL)
				err_msg("cannot run a spinner on CPU %d: it is offline or outside "
					"rtla's CPU set", cpu);
			else
				err_msg("cannot set -P on the spinner of CPU %d: %s%s", cpu,
					strerror(-ret), ctl->prio && ctl->prio->kind ==
					SCHED_KIND_DEADLINE ? " (SCHED_DEADLINE refuses pinned "
					"threads)" : "");
		}
		s->attr.cpu[cpu].spinner = tid;
	}
	pthread_mutex_unlock(&ctl->lock);
	return ret;
}

static void set_cmd(struct sampler *s, int cmd)
{
	pthread_mutex_lock(&s->ctl.lock);
	atomic_store(&s->ctl.cmd, cmd);
	pthread_cond_broadcast(&s->ctl.cond);
	pthread_mutex_unlock(&s->ctl.lock);
}

/* Wait (bounded) until no spinner can publish anything more. */
static void wait_parked(struct sampler *s, long timeout_ms)
{
	struct sampler_ctl *ctl = &s->ctl;
	struct timespec until;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += timeout_ms / 1000;
	until.tv_nsec += (timeout_ms % 1000) * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&ctl->lock);
	pthread_cond_broadcast(&ctl->cond);	/* wake the ones sleeping between periods */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];

		while (sp && sp->created && atomic_load(&sp->tid) > 0 && !atomic_load(&sp->waiting))
			if (pthread_cond_timedwait(&ctl->cond, &ctl->lock, &until) == ETIMEDOUT) {
				debug_msg("sampler: the spinner of CPU %d is slow to stop", cpu);
				pthread_mutex_unlock(&ctl->lock);
				return;
			}
	}
	pthread_mutex_unlock(&ctl->lock);
}

/* Drop everything measured so far: after the warm-up, and for "continue". */
static void flush(struct sampler *s, struct noise_run *run)
{
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];

		if (!sp)
			continue;
		atomic_store(&sp->gap_tail, atomic_load(&sp->gap_head));
		atomic_store(&sp->period_tail, atomic_load(&sp->period_head));
	}
	if (s->trace)
		sampler_trace_drain(s->trace, &s->attr, run);
	sampler_attr_reset(&s->attr);
	s->stop_seen = false;
}

static void sampler_teardown(struct noise_run *run);

/*
 * What CLOCK_MONOTONIC_RAW counts with, for the trace's header: on arm64
 * the generic timer's virtual counter (CNTVCT_EL0, read by the vDSO), whose
 * tick is the clock's real resolution, whatever clock_getres() says.
 */
static const char *raw_clock_source(void)
{
	static char text[96];
#if defined(__aarch64__)
	uint64_t hz;

	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	if (hz)
		snprintf(text, sizeof(text), " (CNTVCT_EL0 at %.3f MHz: a tick is %.1f ns)",
			 hz / 1e6, 1e9 / hz);
#else
	struct timespec res;

	if (!clock_getres(CLOCK_MONOTONIC_RAW, &res))
		snprintf(text, sizeof(text), " (resolution %ld ns)", res.tv_nsec);
#endif
	return text;
}

/*
 * Without the TSC the spinner reads CLOCK_MONOTONIC_RAW, which the vDSO
 * serves only from clocksources user space can read; with any other each
 * read is a system call, and the loop's resolution suffers.
 */
static void check_raw_clock(void)
{
	static const char *const vdso[] = {
		"tsc", "kvm-clock", "hyperv_clocksource_tsc_page", "arch_sys_counter",
		"riscv_clocksource", "timebase", "arm,sp804",
	};
	char cs[64];

	if (sysroot_read("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			 cs, sizeof(cs)) < 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(vdso); i++)
		if (!strcmp(cs, vdso[i]))
			return;
	warn_msg("sampler: clocksource %s has no vDSO read: every clock read of the spinners "
		 "is a system call, and gaps shorter than one are invisible", cs);
}

static int sampler_setup(struct noise_run *run)
{
	struct noise_params *p = run->params;
	struct sampler_cfg cfg = { .irq_disabled = p->irq_disabled, .stop_us = p->stop_us,
			       .stop_total_us = p->stop_total_us,
			       .keep_trace = p->threshold_actions.has_trace ||
					     p->end_actions.has_trace,
			       .back_to_back = p->runtime_us >= p->period_us };
	struct sampler *s;
	char rt[8];
	int ret;

	if (!CPU_COUNT(&p->cpus)) {
		err_msg("no CPU to measure");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	run->priv = s;
	s->nr_cpus = p->nr_cpus;
	s->sp = calloc(s->nr_cpus, sizeof(*s->sp));
	if (!s->sp) {
		ret = -ENOMEM;
		goto out_fail;
	}
	if ((ret = sampler_clock_init(&s->clock, true))) {
		err_msg("cannot calibrate the TSC");
		goto out_fail;
	}
	if (!s->clock.tsc)
		check_raw_clock();
	init_ctl(s, p);

	s->trace = sampler_trace_create(&p->cpus, s->nr_cpus, &s->clock, p->buffer_kb);
	cfg.attribution = s->trace != NULL;
	/* figures that would say "all HW noise" without knowing: refuse, unless asked */
	if (!cfg.attribution && !p->unattributed) {
		err_msg("sampler: no trace events to attribute noise with (%s; -D says why): "
			"every gap would count as HW noise; give --unattributed to measure anyway",
			geteuid() ? "it needs root" : "tracefs");
		ret = -EPERM;
		goto out_fail;
	}
	if (!cfg.attribution)
		run->degraded = "sampler without trace events: every gap counted as HW noise";
	run->note = cfg.attribution
		? "sampler backend: measured from user space, noise attributed from trace events"
		: "sampler backend: measured from user space, without attribution (no tracefs access)";
	cfg.rt_kernel = sysroot_read("/sys/kernel/realtime", rt, sizeof(rt)) > 0 && rt[0] == '1';
	if ((ret = sampler_attr_init(&s->attr, s->nr_cpus, &p->cpus, &s->clock, &cfg)))
		goto out_nomem;
	s->attr_ready = true;

	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!CPU_ISSET(cpu, &p->cpus))
			continue;
		if ((ret = new_spinner(s, cpu, p->period_us)))
			goto out_nomem;
		if ((ret = sampler_spinner_start(s->sp[cpu]))) {
			err_msg("cannot start the spinner of CPU %d: %s", cpu,
				ret == -EINVAL ? "the CPU is offline or outside rtla's CPU set" :
				strerror(-ret));
			goto out_fail;
		}
	}
	if ((ret = wait_started(s)))
		goto out_fail;
	debug_msg("sampler: clock %s%.3f MHz, threshold %llu ticks, trace clock %s",
		  s->clock.tsc ? "tsc " : "CLOCK_MONOTONIC_RAW, ",
		  s->clock.tsc ? s->clock.mhz : 1000.0, (unsigned long long)s->ctl.thr,
		  sampler_trace_clock(s->trace));
	return 0;

out_nomem:
	if (ret == -ENOMEM)
		err_msg("sampler: out of memory for the gap buffers");
out_fail:
	sampler_teardown(run);
	return ret;
}

static int sampler_enable(struct noise_run *run)
{
	struct sampler *s = run->priv;

	if (s->trace && sampler_trace_on(s->trace))
		warn_msg("sampler: cannot start the trace instance: %s", strerror(errno));
	sampler_clock_refine(&s->clock);
	set_cmd(s, SAMPLER_RUN);
	if (!noise_run_warm_up(run))
		return 0;
	set_cmd(s, SAMPLER_WAIT);
	wait_parked(s, 2000);
	flush(s, run);
	set_cmd(s, SAMPLER_RUN);
	return 0;
}

/* Each gap that is noise of this run is a sample, for a tool that wants them. */
static void take_gap(struct noise_run *run, struct sampler *s, struct sampler_attr_cpu *c,
		     const struct sampler_gap *g)
{
	uint64_t ns = sampler_attr_gap(&s->attr, c, g);

	if (ns && run->want_samples)
		noise_run_add_sample(run, c->cpu, ns);
}

/* Attribute and fold everything CPU's spinner has published up to the snapshot. */
static void collect_cpu(struct noise_run *run, struct sampler *s, struct sampler_spinner *sp,
			uint64_t phead, uint64_t ghead)
{
	struct sampler_attr_cpu *c = &s->attr.cpu[sp->cpu];
	uint64_t pt = atomic_load(&sp->period_tail), gt = atomic_load(&sp->gap_tail);
	struct noise_period np;

	for (; pt < phead; pt++) {
		const struct sampler_period_rec *r = &sp->period_ring[pt & sp->period_mask];

		for (; gt < r->gap_end; gt++)
			take_gap(run, s, c, &sp->gap[gt & (SAMPLER_GAP_RING - 1)]);
		if (sampler_attr_period(&s->attr, c, r, &np))
			noise_run_add_period(run, &np);
	}
	for (; gt < ghead; gt++)
		take_gap(run, s, c, &sp->gap[gt & (SAMPLER_GAP_RING - 1)]);
	atomic_store_explicit(&sp->gap_tail, gt, memory_order_release);
	atomic_store_explicit(&sp->period_tail, pt, memory_order_release);
	sampler_attr_compact(&s->attr, c);
}

/*
 * The next slice: long enough for the busiest CPU since the last drain to
 * fill a sixteenth of its gap ring or of its period ring, no longer. Noise
 * comes in bursts, and the half of the ring left when a slice ends must
 * hold one: slices of a quarter ring lost gaps on a CPU whose 2,700 gaps a
 * second came in bursts, slices of a sixteenth lose none there.
 */
static void next_slice(struct sampler *s, const uint64_t *phead, const uint64_t *ghead)
{
	struct timespec now;
	double secs, rate = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	secs = now.tv_sec - s->drained_at.tv_sec + (now.tv_nsec - s->drained_at.tv_nsec) / 1e9;
	/* the first drain has nothing to go by: the shortest slice until the next */
	if (!s->drained_at.tv_sec || secs <= 0) {
		s->drained_at = now;
		s->slice_ms = SAMPLER_SLICE_MIN_MS;
		return;
	}
	s->drained_at = now;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];
		double g, p;

		if (!sp)
			continue;
		g = (ghead[cpu] - atomic_load(&sp->gap_tail)) / (double)SAMPLER_SLICE_GAPS;
		p = (phead[cpu] - atomic_load(&sp->period_tail)) / ((sp->period_mask + 1) / 16.0);
		if (g > rate)
			rate = g;
		if (p > rate)
			rate = p;
	}
	/* rate: slices' worth per drain interval */
	rate /= secs;
	s->slice_ms = rate > 0 ? (int)(1000 / rate) : SAMPLER_SLICE_MAX_MS;
	if (s->slice_ms < SAMPLER_SLICE_MIN_MS)
		s->slice_ms = SAMPLER_SLICE_MIN_MS;
	if (s->slice_ms > SAMPLER_SLICE_MAX_MS)
		s->slice_ms = SAMPLER_SLICE_MAX_MS;
}

static int sampler_collect(struct noise_run *run)
{
	struct sampler *s = run->priv;
	uint64_t phead[CPU_SETSIZE], ghead[CPU_SETSIZE];

	if (!s)
		return -EINVAL;
	if (atomic_load(&s->halted)) {
		wait_parked(s, 50);
		/* a stop asked for by the user wins over a -s/-S found in the last drain */
		if (!s->stop_seen)
			s->attr.cfg.stop_us = s->attr.cfg.stop_total_us = 0;
	}
	sampler_clock_refine(&s->clock);
	/*
	 * Periods before gaps: a period published before this snapshot ends
	 * at a gap index the gap snapshot then covers. Events after both: all
	 * that explain a published gap happened before it was published.
	 */
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->sp[cpu])
			phead[cpu] = atomic_load_explicit(&s->sp[cpu]->period_head,
							  memory_order_acquire);
	for (int cpu = 0; cpu < s->nr_cpus; cpu++)
		if (s->sp[cpu])
			ghead[cpu] = atomic_load_explicit(&s->sp[cpu]->gap_head,
							  memory_order_acquire);
	next_slice(s, phead, ghead);
	if (s->trace && run->stop_requested < 2 && sampler_trace_drain(s->trace, &s->attr, run) &&
	    run->stop_requested < 2)
		debug_msg("sampler: reading the trace buffers failed");
	run->lost_samples = 0;
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		if (!s->sp[cpu])
			continue;
		collect_cpu(run, s, s->sp[cpu], phead[cpu], ghead[cpu]);
		/* what the figures lack: a gate must not pass on it */
		run->lost_samples += s->attr.cpu[cpu].st.lost +
				     atomic_load(&s->sp[cpu]->periods_lost);
	}

	if (s->attr.stop.hit && !s->stop_seen && !atomic_load(&s->halted)) {
		s->stop_seen = true;
		set_cmd(s, SAMPLER_WAIT);
		if (s->trace)
			sampler_trace_off(s->trace);
	}
	return 0;
}

/* Does a spinner's ring need a drain before the tick's? */
static bool rings_half_full(const struct sampler *s)
{
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];

		if (!sp)
			continue;
		if (atomic_load(&sp->gap_head) - atomic_load(&sp->gap_tail) >= SAMPLER_GAP_RING / 2 ||
		    atomic_load(&sp->period_head) - atomic_load(&sp->period_tail) > sp->period_mask / 2)
			return true;
	}
	return false;
}

/*
 * Sleep in slices and drain early when a ring is half full: the rings then
 * need to hold what a slice produces, not what a second of heavy noise does
 * (see SAMPLER_GAP_RING), and on a quiet machine the slice is the tick. A
 * spinner whose ring is half full within a slice wakes us (kick_fd).
 */
static int sampler_wait(struct noise_run *run, int wake_fd, int timeout_ms)
{
	struct sampler *s = run->priv;
	struct pollfd fds[2] = {
		{ .fd = wake_fd, .events = POLLIN },
		{ .fd = s ? s->ctl.kick_fd : -1, .events = POLLIN },
	};
	uint64_t kicks;

	while (timeout_ms > 0) {
		/* before the first drain, the shortest slice */
		int slice = !s ? timeout_ms : s->slice_ms ? s->slice_ms : SAMPLER_SLICE_MIN_MS;
		bool kicked;

		if (slice > timeout_ms)
			slice = timeout_ms;
		fds[1].revents = 0;
		if (poll(fds, 2, slice) && !(fds[1].revents & POLLIN))
			return 0;	/* woken (or a signal): the driver looks why */
		kicked = fds[1].revents & POLLIN;
		if (kicked && read(fds[1].fd, &kicks, sizeof(kicks)) < 0)
			debug_msg("sampler: reading the spinners' wake-up: %s", strerror(errno));
		if (!kicked)
			timeout_ms -= slice;
		if (!s || atomic_load(&s->halted) || (!kicked && !rings_half_full(s)))
			continue;
		debug_msg("sampler: a ring is half full: drained before the tick (%s)",
			  kicked ? "its spinner woke us" : "seen after the slice");
		sampler_collect(run);
		return s->stop_seen ? 2 : 1;
	}
	return 0;
}

static bool sampler_stopped(struct noise_run *run)
{
	struct sampler *s = run->priv;

	if (!s || atomic_load(&s->halted) || !s->stop_seen)
		return false;
	run->stop_hit = true;
	run->stop_cpu = s->attr.stop.cpu;
	run->stop_value_us = s->attr.stop.value_us;
	run->stop_reason = s->attr.stop.reason;
	return true;
}

/* From a signal handler: lock-free atomic stores only. */
static void sampler_halt(struct noise_run *run)
{
	struct sampler *s = run->priv;

	if (!s)
		return;
	atomic_store(&s->halted, 1);
	atomic_store(&s->ctl.cmd, SAMPLER_WAIT);
}

static int sampler_rearm(struct noise_run *run)
{
	struct sampler *s = run->priv;

	if (!s || atomic_load(&s->halted))
		return 0;
	wait_parked(s, 2000);
	flush(s, run);
	run->stop_hit = false;
	if (s->trace && sampler_trace_on(s->trace))
		warn_msg("sampler: cannot restart the trace instance");
	set_cmd(s, SAMPLER_RUN);
	return 0;
}

static int sampler_save_trace(struct noise_run *run, const char *path)
{
	struct sampler *s = run->priv;
	const struct sampler_stop *st = &s->attr.stop;
	FILE *f;
	int ret;

	printf("  Saving trace to %s\n", path);
	f = fopen(path, "w");
	if (!f) {
		err_msg("cannot save the trace to %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "# rtla %s sampler trace: the last %d gaps of at least %lld us\n",
		run->params->irq_disabled ? "hwnoise" : "osnoise",
		SAMPLER_TRACE_KEEP, run->params->threshold_us ? run->params->threshold_us : 1);
	if (s->clock.tsc)
		fprintf(f, "# spinner clock: TSC at %.3f MHz; ", s->clock.mhz);
	else
		fprintf(f, "# spinner clock: CLOCK_MONOTONIC_RAW%s; ", raw_clock_source());
	fprintf(f, "trace clock: %s; TIME is CLOCK_MONOTONIC_RAW\n", sampler_trace_clock(s->trace));
	if (st->hit)
		fprintf(f, "# stop: %s noise of %lld us on cpu %d\n", st->reason, st->value_us,
			st->cpu);
	sampler_attr_summary(&s->attr, f, "# ");
	ret = sampler_attr_save(&s->attr, f);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret)
		err_msg("cannot save the trace to %s: %s", path, strerror(-ret));
	return ret;
}

/* Say once, at the end, what the figures could not hold. */
static void report_losses(struct sampler *s)
{
	for (int cpu = 0; cpu < s->nr_cpus; cpu++) {
		struct sampler_spinner *sp = s->sp[cpu];
		struct sampler_attr_cpu *c = &s->attr.cpu[cpu];

		if (!sp)
			continue;
		if (c->st.lost)
			warn_msg("sampler: %llu gaps on CPU %d did not fit in its buffer; they "
				 "count as HW noise", (unsigned long long)c->st.lost, cpu);
		if (atomic_load(&sp->periods_lost))
			warn_msg("sampler: %llu periods of CPU %d were dropped (rtla itself "
				 "was starved)", (unsigned long long)atomic_load(&sp->periods_lost),
				 cpu);
		if (c->dropped)
			warn_msg("sampler: %llu events of CPU %d were dropped; the gaps they "
				 "explain count as HW", (unsigned long long)c->dropped, cpu);
	}
}

static void sampler_teardown(struct noise_run *run)
{
	struct sampler *s = run->priv;

	if (!s)
		return;
	if (s->ctl_ready) {
		set_cmd(s, SAMPLER_EXIT);
		for (int cpu = 0; cpu < s->nr_cpus; cpu++)
			if (s->sp && s->sp[cpu])
				sampler_spinner_join(s->sp[cpu]);
	}
	sampler_trace_destroy(s->trace);
	s->trace = NULL;
	if (s->attr_ready) {
		report_losses(s);
		if (msg_debug_enabled())
			sampler_attr_summary(&s->attr, stderr, "debug: sampler: ");
		sampler_attr_free(&s->attr);
	}
	for (int cpu = 0; s->sp && cpu < s->nr_cpus; cpu++)
		free_spinner(s->sp[cpu]);
	free(s->sp);
	if (s->ctl_ready) {
		pthread_cond_destroy(&s->ctl.cond);
		pthread_mutex_destroy(&s->ctl.lock);
		if (s->ctl.kick_fd >= 0)
			close(s->ctl.kick_fd);
	}
	run->priv = NULL;
	free(s);
}

const struct noise_backend noise_sampler_backend = {
	.name = "sampler",
	/* the gap rings and the event instance fill within seconds */
	.max_wait_s = 1,
	.setup = sampler_setup,
	.enable = sampler_enable,
	.collect = sampler_collect,
	.wait = sampler_wait,
	.stopped = sampler_stopped,
	.halt = sampler_halt,
	.rearm = sampler_rearm,
	.save_trace = sampler_save_trace,
	.teardown = sampler_teardown,
};

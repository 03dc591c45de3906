// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler_spin - the clock, its calibration, and the spinner threads.
 *
 * The spinner loop is the measuring instrument: anything it does per
 * iteration is resolution lost, so it reads the clock, compares, and only
 * on a gap (or every chunk of ~1 ms) leaves the loop's registers. It never
 * allocates or locks while spinning, and enters the kernel only to wake the
 * collector when its gap ring is half full (kick_collector); between periods
 * it sleeps on a condition variable so that halt, pause and exit reach it.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "msg.h"
#include "sysroot.h"
#include "tasks.h"
#include "osnoise/sampler.h"

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

static inline uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static inline uint64_t read_tsc(void)
{
#if defined(__x86_64__)
	return __rdtsc();
#else
	return 0;
#endif
}

uint64_t sampler_clock_now(const struct sampler_clock *ck)
{
	return ck->tsc ? read_tsc() : raw_ns();
}

/*
 * The TSC is a usable clock only if its rate never changes (constant_tsc,
 * nonstop_tsc) and the kernel itself trusts it as its clocksource: then
 * TSC values are comparable across CPUs and with the x86-tsc trace clock.
 */
bool sampler_tsc_usable(void)
{
#if defined(__x86_64__)
	char line[4096], cs[64];
	bool constant = false, nonstop = false;
	FILE *f;

	if (sysroot_read("/sys/devices/system/clocksource/clocksource0/current_clocksource",
			 cs, sizeof(cs)) < 0 || strcmp(cs, "tsc"))
		return false;
	f = sysroot_fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
#else
	return false;
#endif
}

/*
 * One (TSC, raw ns) pair: the TSC read between two raw reads, keeping the
 * tightest of many tries, so that the pair is good to about +-15 ns.
 */
static void tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 64; i++) {
		uint64_t r0 = raw_ns(), t = read_tsc(), r1 = raw_ns();

		if (r1 - r0 < best) {
			best = r1 - r0;
			*tsc = t;
			*ns = r0 + (r1 - r0) / 2;
		}
	}
}

static void clock_set_rate(struct sampler_clock *ck, uint64_t dt, uint64_t dns)
{
	ck->mhz = (double)dt * 1000.0 / (double)dns;
	ck->mult = (uint64_t)((1000.0 / ck->mhz) * 4294967296.0 + 0.5);
}

/* Two pairs 20 ms apart give the rate to ~1.5 ppm; sampler_clock_refine() improves it. */
int sampler_clock_init(struct sampler_clock *ck, bool want_tsc)
{
	struct timespec nap = { 0, 20 * 1000 * 1000 };
	uint64_t t1, n1;

	memset(ck, 0, sizeof(*ck));
	ck->tsc = want_tsc && sampler_tsc_usable();
	if (!ck->tsc) {
		ck->mult = 1ull << 32;
		return 0;
	}
	tsc_pair(&ck->base_ticks, &ck->base_ns);
	nanosleep(&nap, NULL);
	tsc_pair(&t1, &n1);
	if (t1 <= ck->base_ticks || n1 <= ck->base_ns)
		return -EINVAL;
	clock_set_rate(ck, t1 - ck->base_ticks, n1 - ck->base_ns);
	ck->ref_ticks = t1;
	ck->ref_ns = n1;
	return 0;
}

/* A longer baseline, same method: called as the run goes on. */
void sampler_clock_refine(struct sampler_clock *ck)
{
	uint64_t t, n;

	if (!ck->tsc)
		return;
	tsc_pair(&t, &n);
	if (t <= ck->base_ticks || n <= ck->base_ns)
		return;
	clock_set_rate(ck, t - ck->base_ticks, n - ck->base_ns);
	ck->ref_ticks = t;
	ck->ref_ns = n;
}

uint64_t sampler_ticks_to_raw_ns(const struct sampler_clock *ck, uint64_t t)
{
	if (!ck->tsc)
		return t;
	if (t >= ck->ref_ticks)
		return ck->ref_ns + sampler_ticks_to_ns(ck, t - ck->ref_ticks);
	return ck->ref_ns - sampler_ticks_to_ns(ck, ck->ref_ticks - t);
}

/* ---- the loop ------------------------------------------------------------ */

/*
 * A burst far above the rate the collector's slice was sized by fills the
 * ring before the slice ends: wake it when the ring is half full. Once a
 * half ring, so at most one system call per SAMPLER_GAP_RING / 2 gaps,
 * made only under heavy noise.
 */
static void __attribute__((noinline, cold)) kick_collector(const struct sampler_ctl *ctl)
{
	uint64_t one = 1;

	if (ctl->kick_fd >= 0 && write(ctl->kick_fd, &one, sizeof(one)) < 0)
		return;	/* EAGAIN: the counter is full, the collector is awake */
}

/*
 * Off the hot path: account a gap and put it in the ring if there is room.
 * True when the collector was woken: the system call's own time is rtla's,
 * and the caller reads the clock again rather than count it.
 */
bool __attribute__((noinline, cold))
sampler_record_gap(struct sampler_spinner *sp, uint64_t prev, uint64_t now)
{
	struct sampler_period_rec *cur = &sp->cur;
	uint64_t d = now - prev, head;
	bool fresh;

	if ((int64_t)d < 0) {
		atomic_fetch_add_explicit(&sp->backwards, 1, memory_order_relaxed);
		return false;
	}
	cur->sum += d;
	cur->gaps++;
	if (d > cur->max)
		cur->max = d;

	/*
	 * The collector's tail is read again when the cached one says the ring
	 * is full, or half full. Either reading may find it half full or more:
	 * the collector is woken then. (Waking it only when the count crossed
	 * the half exactly missed the rings the first reading found over half
	 * full: with a build beside the run, 77 of them in 90 s waited for the
	 * collector's slice to end, and some filled up and lost gaps first.)
	 */
	head = atomic_load_explicit(&sp->gap_head, memory_order_relaxed);
	fresh = head - sp->tail_seen >= SAMPLER_GAP_RING;
	if (fresh) {
		sp->tail_seen = atomic_load_explicit(&sp->gap_tail, memory_order_acquire);
		if (head - sp->tail_seen >= SAMPLER_GAP_RING) {
			cur->lost++;
			cur->lost_sum += d;
			if (d > cur->lost_max)
				cur->lost_max = d;
			return false;
		}
	}
	sp->gap[head & (SAMPLER_GAP_RING - 1)] = (struct sampler_gap){ .start = prev, .len = d };
	atomic_store_explicit(&sp->gap_head, head + 1, memory_order_release);
	if (!fresh) {
		if (head + 1 - sp->tail_seen != SAMPLER_GAP_RING / 2)
			return false;
		sp->tail_seen = atomic_load_explicit(&sp->gap_tail, memory_order_acquire);
	}
	if (head + 1 - sp->tail_seen < SAMPLER_GAP_RING / 2)
		return false;
	kick_collector(sp->ctl);
	return true;
}

/*
 * Spin for one runtime. Returns false when told to stop before the end:
 * the partial period is dropped, as the kernel drops the sample of a
 * period it stopped in. FROM, when not 0, is where the previous period
 * ended: back-to-back periods then leave no unmeasured moment between them.
 */
static inline __attribute__((always_inline)) bool
spin_period(struct sampler_spinner *sp, bool tsc, uint64_t from)
{
	const struct sampler_ctl *ctl = sp->ctl;
	const uint64_t thr = ctl->thr, chunk = ctl->chunk;
	uint64_t start, prev, now, deadline, check, iters = 0;

	memset(&sp->cur, 0, sizeof(sp->cur));
	start = prev = from ? from : tsc ? read_tsc() : raw_ns();
	deadline = start + ctl->runtime;
	check = start + chunk < deadline ? start + chunk : deadline;
	for (;;) {
		now = tsc ? read_tsc() : raw_ns();
		iters++;
		if (unlikely(now - prev >= thr) && sampler_record_gap(sp, prev, now))
			now = tsc ? read_tsc() : raw_ns();
		prev = now;
		if (unlikely(now >= check)) {
			if (now >= deadline)
				break;
			if (atomic_load_explicit(&ctl->cmd, memory_order_relaxed) != SAMPLER_RUN)
				return false;
			check = now + chunk < deadline ? now + chunk : deadline;
		}
	}
	sp->cur.start = start;
	sp->cur.end = now;
	sp->cur.iters = iters;
	sp->cur.gap_end = atomic_load_explicit(&sp->gap_head, memory_order_relaxed);
	return true;
}

static bool __attribute__((noinline)) spin_period_tsc(struct sampler_spinner *sp, uint64_t from)
{
	return spin_period(sp, true, from);
}

static bool __attribute__((noinline)) spin_period_raw(struct sampler_spinner *sp, uint64_t from)
{
	return spin_period(sp, false, from);
}

static void publish_period(struct sampler_spinner *sp)
{
	uint64_t head = atomic_load_explicit(&sp->period_head, memory_order_relaxed);
	uint64_t tail = atomic_load_explicit(&sp->period_tail, memory_order_acquire);

	if (head - tail > sp->period_mask) {
		atomic_fetch_add_explicit(&sp->periods_lost, 1, memory_order_relaxed);
		return;
	}
	sp->period_ring[head & sp->period_mask] = sp->cur;
	atomic_store_explicit(&sp->period_head, head + 1, memory_order_release);
}

static void timespec_add_ns(struct timespec *ts, uint64_t ns)
{
	ns += ts->tv_nsec;
	ts->tv_sec += ns / 1000000000ull;
	ts->tv_nsec = ns % 1000000000ull;
}

/* Periods back to back while the command is RUN; sleep period - runtime between. */
static void run_periods(struct sampler_spinner *sp)
{
	struct sampler_ctl *ctl = sp->ctl;
	bool sleeps = ctl->period_ns > ctl->runtime_ns;
	struct timespec next;
	uint64_t from = 0;

	while (atomic_load_explicit(&ctl->cmd, memory_order_relaxed) == SAMPLER_RUN) {
		clock_gettime(CLOCK_MONOTONIC, &next);
		if (!(ctl->clock->tsc ? spin_period_tsc(sp, from) : spin_period_raw(sp, from)))
			return;
		publish_period(sp);
		if (!sleeps) {
			from = sp->cur.end;
			continue;
		}
		timespec_add_ns(&next, ctl->period_ns);
		pthread_mutex_lock(&ctl->lock);
		while (atomic_load(&ctl->cmd) == SAMPLER_RUN &&
		       pthread_cond_timedwait(&ctl->cond, &ctl->lock, &next) != ETIMEDOUT)
			;
		pthread_mutex_unlock(&ctl->lock);
	}
}

/*
 * Park until told to run or exit. "waiting" is set and cleared under the
 * lock, so a controller that reads it under the lock knows whether the
 * spinner can still publish anything.
 */
static bool park(struct sampler_spinner *sp)
{
	struct sampler_ctl *ctl = sp->ctl;
	int cmd;

	pthread_mutex_lock(&ctl->lock);
	while ((cmd = atomic_load(&ctl->cmd)) == SAMPLER_WAIT) {
		atomic_store(&sp->waiting, 1);
		pthread_cond_broadcast(&ctl->cond);	/* the controller may wait for this */
		pthread_cond_wait(&ctl->cond, &ctl->lock);
	}
	atomic_store(&sp->waiting, 0);
	pthread_mutex_unlock(&ctl->lock);
	return cmd == SAMPLER_RUN;
}

static void *spinner_main(void *arg)
{
	struct sampler_spinner *sp = arg;
	struct sampler_ctl *ctl = sp->ctl;
	pid_t tid = gettid();
	char name[16];
	int err = 0;

	snprintf(name, sizeof(name), "rtla_spin/%d", sp->cpu);
	pthread_setname_np(pthread_self(), name);
	if (sched_getcpu() != sp->cpu)
		err = -EINVAL;
	else if (ctl->prio)
		err = task_set_prio(tid, ctl->prio);

	pthread_mutex_lock(&ctl->lock);
	atomic_store(&sp->tid, err ? err : tid);
	pthread_cond_broadcast(&ctl->cond);
	pthread_mutex_unlock(&ctl->lock);
	if (err)
		return NULL;

	while (park(sp))
		run_periods(sp);
	return NULL;
}

/* Start the thread pinned to its CPU; it reports its tid (or -errno) in sp->tid. */
int sampler_spinner_start(struct sampler_spinner *sp)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(sp->cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(&sp->thread, &attr, spinner_main, sp);
	pthread_attr_destroy(&attr);
	if (ret)
		return -ret;
	sp->created = true;
	return 0;
}

void sampler_spinner_join(struct sampler_spinner *sp)
{
	if (sp->created)
		pthread_join(sp->thread, NULL);
	sp->created = false;
}

/*
 * The very loop of the spinners, on the caller's thread, for bench/: spin
 * TICKS and report what the period record would hold. 0 or -errno.
 */
int sampler_spin_for(const struct sampler_clock *ck, uint64_t ticks, uint64_t thr,
		 struct sampler_period_rec *out)
{
	struct sampler_ctl ctl = {
		.cmd = SAMPLER_RUN, .thr = thr, .runtime = ticks,
		.chunk = ticks, .clock = ck, .kick_fd = -1,
	};
	struct sampler_spinner *sp;
	bool done;

	if (posix_memalign((void **)&sp, SAMPLER_CACHELINE, sizeof(*sp)))
		return -ENOMEM;
	memset(sp, 0, sizeof(*sp));
	sp->ctl = &ctl;
	sp->gap = calloc(SAMPLER_GAP_RING, sizeof(*sp->gap));
	if (!sp->gap) {
		free(sp);
		return -ENOMEM;
	}
	done = ck->tsc ? spin_period_tsc(sp, 0) : spin_period_raw(sp, 0);
	*out = sp->cur;
	free(sp->gap);
	free(sp);
	return done ? 0 : -EINTR;
}

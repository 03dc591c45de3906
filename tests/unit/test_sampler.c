// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the sampler backend's bookkeeping: tick conversions, gap
 * attribution, per-period counts in osnoise and hwnoise modes, stop
 * conditions, ring losses and the saved trace. Made-up gaps and events on
 * a nanosecond clock, so every expected figure can be worked out by hand.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "osnoise/sampler.h"
#include "tap.h"

#define SPIN	100	/* the spinner's tid on CPU 1 */

static const char *names[] = { "irq_handler_entry", "local_timer_entry", "softirq_entry",
			       "sched_switch", "nmi_handler", "local_timer_exit" };

static struct sampler_clock raw_clock = { .tsc = false, .mult = 1ull << 32 };

/* an event as the tracefs side hands it over: the event and its name */
struct named_event {
	struct sampler_event e;
	const char *name;
};

static struct named_event ev(uint64_t ts, int kind, int arg, int arg2, const char *name)
{
	struct sampler_event e = { .ts = ts, .kind = kind, .arg = arg, .arg2 = arg2 };

	e.type = kind == SAMPLER_EV_VEC || kind == SAMPLER_EV_VEC_EXIT ? 1 : kind == SAMPLER_EV_SWITCH ? 3 : 0;
	return (struct named_event){ e, name };
}

static int push(struct sampler_attr *a, int cpu, const struct named_event *n)
{
	return sampler_attr_push(a, cpu, &n->e, n->name);
}

/* the two ways the sampler counts: every gap, or with IRQs "disabled" */
#define OSNOISE	false
#define HWNOISE	true

/* CPU 1 measured, its spinner SPIN; gaps kept for a saved trace when KEEP */
static void init_attr_keep(struct sampler_attr *a, bool irq_disabled, long long stop_us,
			   long long stop_total_us, bool keep)
{
	struct sampler_cfg cfg = { .irq_disabled = irq_disabled, .attribution = true, .stop_us = stop_us,
			       .stop_total_us = stop_total_us, .keep_trace = keep };
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(1, &cpus);
	if (sampler_attr_init(a, 2, &cpus, &raw_clock, &cfg))
		abort();
	a->cpu[1].spinner = SPIN;
	a->type_names = names;
	a->nr_types = 6;
}

static void init_attr(struct sampler_attr *a, bool irq_disabled, long long stop_us,
		      long long stop_total_us)
{
	init_attr_keep(a, irq_disabled, stop_us, stop_total_us, true);
}

/*
 * One period of 100 us on CPU 1 with three gaps:
 *   [10, 22) us  a local timer tick and an RCU softirq     -> irq
 *   [40, 45) us  nothing                                    -> hw
 *   [60, 90) us  the tick, then "busy" runs for 28 us       -> thread
 * plus an IRQ before the period (not counted) and one after it (kept).
 */
static void feed(struct sampler_attr *a)
{
	static const struct sampler_gap gaps[] = {
		{ 10000, 12000 }, { 40000, 5000 }, { 60000, 30000 },
	};
	struct named_event evs[] = {
		ev(500, SAMPLER_EV_IRQ, 11, 0, "virtio0"),
		ev(10100, SAMPLER_EV_VEC, 236, 0, NULL),
		ev(14000, SAMPLER_EV_VEC_EXIT, 236, 0, NULL),
		ev(14100, SAMPLER_EV_SOFTIRQ, 9, 0, NULL),
		ev(15000, SAMPLER_EV_SOFTIRQ_EXIT, 9, 0, NULL),
		ev(60100, SAMPLER_EV_VEC, 236, 0, NULL),
		ev(61000, SAMPLER_EV_VEC_EXIT, 236, 0, NULL),
		ev(61500, SAMPLER_EV_SWITCH, 200, SPIN, "busy"),
		ev(89500, SAMPLER_EV_SWITCH, SPIN, 200, "rtla_spin/1"),
		ev(150000, SAMPLER_EV_IRQ, 11, 0, "virtio0"),
	};

	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		push(a, 1, &evs[i]);
	for (size_t i = 0; i < sizeof(gaps) / sizeof(gaps[0]); i++)
		sampler_attr_gap(a, &a->cpu[1], &gaps[i]);
}

static const struct sampler_period_rec period = {
	.start = 1000, .end = 101000, .sum = 47000, .max = 30000, .gaps = 3, .gap_end = 3,
	.iters = 1000,
};

static void test_clock(void)
{
	struct sampler_clock ck = { .tsc = true, .mhz = 2000.0, .mult = 1ull << 31 };

	is_int(sampler_ns_to_ticks(&ck, 1000), 2000, "clock: 1 us is 2000 ticks at 2 GHz");
	is_int(sampler_ticks_to_ns(&ck, 2000), 1000, "clock: 2000 ticks are 1 us at 2 GHz");
	ck.mhz = 2445.426;
	is_int(sampler_ns_to_ticks(&ck, 1000), 2446, "clock: a threshold in ticks rounds up");
	is_int(sampler_ns_to_ticks(&raw_clock, 1234), 1234, "clock: raw ticks are ns");
	ck.ref_ticks = 1000000;
	ck.ref_ns = 5000;
	ck.mhz = 2000.0;
	is_int(sampler_ticks_to_raw_ns(&ck, 1002000), 6000, "clock: absolute ticks after the reference");
	is_int(sampler_ticks_to_raw_ns(&ck, 998000), 4000, "clock: absolute ticks before the reference");
}

/*
 * Periods back to back: the events behind the last gap are counted and let
 * go at each drain, once a period has ended; the counts are those of the
 * queue that kept them all.
 */
static void test_back_to_back(void)
{
	static const struct sampler_period_rec second = {
		.start = 101000, .end = 201000, .sum = 2000, .max = 2000, .gaps = 1, .gap_end = 4,
		.iters = 1000,
	};
	static const struct sampler_gap gap = { 169900, 2000 };
	struct named_event late[] = {
		ev(170000, SAMPLER_EV_IRQ, 11, 0, "virtio0"),
		ev(171500, SAMPLER_EV_IRQ_EXIT, 11, 0, NULL),
	};
	struct named_event last = ev(190000, SAMPLER_EV_IRQ, 11, 0, "virtio0");
	struct sampler_attr a;
	struct noise_period p;

	init_attr(&a, OSNOISE, 0, 0);
	a.cfg.back_to_back = true;
	feed(&a);
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 10, "back to back: before a period ended nothing is let go");
	sampler_attr_period(&a, &a.cpu[1], &period, &p);
	is_int(p.irq, 2, "back to back: the first period's IRQs (the early one not counted)");
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 1, "back to back: the IRQ after the period waits");

	for (size_t i = 0; i < sizeof(late) / sizeof(late[0]); i++)
		push(&a, 1, &late[i]);
	sampler_attr_gap(&a, &a.cpu[1], &gap);
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 0, "back to back: events behind the last gap are counted and let go");
	push(&a, 1, &last);
	ok(sampler_attr_period(&a, &a.cpu[1], &second, &p), "back to back: the second period counts");
	is_int(p.irq, 3, "back to back: its IRQs, let go or queued, all counted");
	is_int(p.hw, 0, "back to back: the gap is explained by its IRQ");
	sampler_attr_free(&a);
}

static void test_osnoise_period(void)
{
	struct sampler_attr a;
	struct noise_period p;

	init_attr(&a, OSNOISE, 0, 0);
	feed(&a);
	ok(sampler_attr_period(&a, &a.cpu[1], &period, &p), "osnoise: the period counts");
	is_int(p.cpu, 1, "osnoise: cpu");
	is_int(p.runtime, 100, "osnoise: runtime 100 us");
	is_int(p.noise, 47, "osnoise: noise is every gap (47 us)");
	is_int(p.max_sample, 30, "osnoise: max single 30 us");
	is_int(p.hw, 1, "osnoise: one gap nothing explains");
	is_int(p.irq, 2, "osnoise: two ticks inside the runtime (the early IRQ is not)");
	is_int(p.softirq, 1, "osnoise: one softirq");
	is_int(p.thread, 1, "osnoise: one other task ran");
	is_int(p.nmi, 0, "osnoise: no NMI");
	is_int(a.cpu[1].st.explained, 2, "stats: two gaps explained");
	is_int(a.cpu[1].st.explained_time, 42000, "stats: 42 us of 47 explained");
	is_int(a.cpu[1].st.covered_time, 3900 + 900 + 900 + 28000, "stats: time inside handlers and tasks");

	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 1, "compact: the IRQ after the period waits for the next one");
	is_int(a.cpu[1].ev[0].ts, 150000, "compact: and it is that IRQ");
	sampler_attr_free(&a);

	init_attr(&a, OSNOISE, 0, 0);
	a.cfg.rt_kernel = true;
	feed(&a);
	sampler_attr_period(&a, &a.cpu[1], &period, &p);
	is_int(p.softirq, 0, "PREEMPT_RT: softirqs are not counted, as the kernel does not");
	is_int(p.thread, 1, "PREEMPT_RT: thread noise still counted");
	sampler_attr_free(&a);
}

static void test_hwnoise_period(void)
{
	struct named_event nmi = ev(40500, SAMPLER_EV_NMI, 0, 0, NULL);
	struct sampler_attr a;
	struct noise_period p;

	init_attr(&a, HWNOISE, 0, 0);
	feed(&a);
	ok(sampler_attr_period(&a, &a.cpu[1], &period, &p), "hwnoise: the period counts");
	is_int(p.noise, 5, "hwnoise: only the unexplained gap is noise");
	is_int(p.max_sample, 5, "hwnoise: max single from that gap");
	is_int(p.hw, 1, "hwnoise: HW count");
	is_int(p.irq + p.softirq + p.thread, 0, "hwnoise: IRQ, softirq and thread stay 0");
	sampler_attr_free(&a);

	/* an NMI inside the quiet gap: NMI noise, still noise in hwnoise */
	init_attr(&a, HWNOISE, 0, 0);
	nmi.e.dur = 3000;
	push(&a, 1, &nmi);
	sampler_attr_gap(&a, &a.cpu[1], &(struct sampler_gap){ 40000, 5000 });
	ok(sampler_attr_period(&a, &a.cpu[1], &(struct sampler_period_rec){ .start = 0, .end = 100000,
		.sum = 5000, .max = 5000, .gaps = 1, .gap_end = 1 }, &p), "nmi: period counts");
	is_int(p.noise, 5, "nmi: an NMI gap is hwnoise noise");
	is_int(p.nmi, 1, "nmi: counted");
	is_int(p.hw, 0, "nmi: not HW");
	sampler_attr_free(&a);
}

/* What a hist tool gets as samples: every gap, or with IRQs "disabled" the unexplained ones. */
static void test_gap_samples(void)
{
	static const struct sampler_gap gaps[] = { { 10000, 12000 }, { 40000, 5000 }, { 60000, 30000 } };
	static const uint64_t os[] = { 12000, 5000, 30000 }, hw[] = { 0, 5000, 0 };
	struct sampler_attr a;

	for (int mode = 0; mode < 2; mode++) {
		init_attr(&a, mode ? HWNOISE : OSNOISE, 0, 0);
		feed(&a);	/* queues the events, and classifies the gaps once */
		a.cpu[1].cursor = 0;
		for (int i = 0; i < 3; i++)
			is_int(sampler_attr_gap(&a, &a.cpu[1], &gaps[i]), mode ? hw[i] : os[i],
			       "%s: gap %d is a sample of %llu ns", mode ? "hwnoise" : "osnoise", i,
			       (unsigned long long)(mode ? hw[i] : os[i]));
		sampler_attr_free(&a);
	}
	init_attr(&a, OSNOISE, 25, 0);
	feed(&a);
	is_int(sampler_attr_gap(&a, &a.cpu[1], &(struct sampler_gap){ 95000, 2000 }), 0,
	       "a gap after the stop is no sample");
	sampler_attr_free(&a);
}

static void test_stops(void)
{
	struct sampler_attr a;
	struct noise_period p;

	init_attr(&a, OSNOISE, 25, 0);
	feed(&a);
	ok(a.stop.hit, "-s 25: the 30 us gap stops the run");
	is_str(a.stop.reason, "single", "-s: reason");
	is_int(a.stop.value_us, 30, "-s: value");
	is_int(a.stop.cpu, 1, "-s: cpu");
	ok(!sampler_attr_period(&a, &a.cpu[1], &period, &p),
	   "-s: the period the stop fell in is dropped, as the kernel drops it");
	sampler_attr_free(&a);

	init_attr(&a, OSNOISE, 30, 0);
	feed(&a);
	ok(!a.stop.hit, "-s 30: a 30 us gap is not longer than 30 us");
	sampler_attr_free(&a);

	init_attr(&a, HWNOISE, 25, 0);
	feed(&a);
	ok(!a.stop.hit, "hwnoise -s 25: thread noise does not stop hwnoise");
	sampler_attr_free(&a);

	init_attr(&a, HWNOISE, 4, 0);
	feed(&a);
	ok(a.stop.hit && a.stop.value_us == 5, "hwnoise -s 4: the 5 us HW gap stops it");
	sampler_attr_free(&a);

	init_attr(&a, OSNOISE, 0, 46);
	feed(&a);
	ok(sampler_attr_period(&a, &a.cpu[1], &period, &p), "-S 46: the period is reported");
	ok(a.stop.hit, "-S 46: 47 us of noise stops the run");
	is_str(a.stop.reason, "total", "-S: reason");
	is_int(a.stop.value_us, 47, "-S: value is the period's noise");
	sampler_attr_reset(&a);
	ok(!a.stop.hit && !a.cpu[1].nev, "reset: no stop, no queued events");
	sampler_attr_free(&a);
}

static void test_losses(void)
{
	struct sampler_period_rec r = period;
	struct sampler_attr a;
	struct noise_period p;

	init_attr(&a, HWNOISE, 0, 0);
	feed(&a);
	r.lost = 2;
	r.lost_sum = 8000;
	r.lost_max = 6000;
	sampler_attr_period(&a, &a.cpu[1], &r, &p);
	is_int(p.hw, 3, "lost gaps count as HW");
	is_int(p.noise, 13, "lost gaps count as hwnoise noise");
	is_int(p.max_sample, 6, "a lost gap can be the longest");
	sampler_attr_free(&a);

	init_attr(&a, OSNOISE, 0, 0);
	for (int i = 0; i < 3; i++)
		sampler_attr_push(&a, 0, &(struct sampler_event){ .ts = 1 }, NULL);
	is_int(a.cpu[0].nev, 0, "events of CPUs not measured are ignored");
	sampler_attr_free(&a);
}

static void test_save(void)
{
	struct sampler_attr a;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	init_attr(&a, OSNOISE, 0, 0);
	feed(&a);
	f = open_memstream(&buf, &len);
	is_int(sampler_attr_save(&a, f), 0, "save: writes");
	fclose(f);
	ok(buf && strstr(buf, "irq      local_timer_entry(236) softirq:RCU"),
	   "save: the tick gap lists its events");
	ok(buf && strstr(buf, "thread   local_timer_entry(236) switch:busy[200]"),
	   "save: the thread gap names the task");
	ok(buf && strstr(buf, "        5000 hw"), "save: the quiet gap is hw");
	free(buf);
	sampler_attr_free(&a);

	/* nobody keeps gaps: the queue holds the events without their names */
	init_attr_keep(&a, OSNOISE, 0, 0, false);
	feed(&a);
	is_int(a.cpu[1].nev, 10, "save off: every event queued");
	ok(!a.cpu[1].name, "save off: no name queued");
	sampler_attr_free(&a);
}

/*
 * A kept gap names its events by what was queued with each: through the
 * compaction that lets the period's events go, and past the queue's first
 * growth (256 events).
 */
static void test_names_follow(void)
{
	static const struct sampler_period_rec first = { .start = 0, .end = 1000, .gaps = 1,
							 .gap_end = 1 };
	struct named_event early = ev(100, SAMPLER_EV_IRQ, 11, 0, "early");
	struct sampler_attr a;
	char *buf = NULL, name[16];
	struct noise_period p;
	size_t len = 0;
	FILE *f;

	init_attr(&a, OSNOISE, 0, 0);
	push(&a, 1, &early);
	for (int i = 0; i < 300; i++) {
		snprintf(name, sizeof(name), "irq%d", i);
		push(&a, 1, &(struct named_event){ ev(5000 + 10 * i, SAMPLER_EV_IRQ, 11, 0, name).e, name });
	}
	sampler_attr_gap(&a, &a.cpu[1], &(struct sampler_gap){ 50, 100 });
	sampler_attr_period(&a, &a.cpu[1], &first, &p);
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 300, "names: the finished period's event let go");
	/* the 1st and the 300th of those queued after it, each alone in a gap */
	sampler_attr_gap(&a, &a.cpu[1], &(struct sampler_gap){ 4995, 10 });
	sampler_attr_gap(&a, &a.cpu[1], &(struct sampler_gap){ 5000 + 10 * 299 - 5, 10 });
	f = open_memstream(&buf, &len);
	sampler_attr_save(&a, f);
	fclose(f);
	ok(buf && strstr(buf, " irq:11(irq0)\n"), "names: the first event after the compaction keeps its name");
	ok(buf && strstr(buf, " irq:11(irq299)\n"), "names: the 300th, past the growth, too");
	ok(buf && strstr(buf, "100 irq      irq:11(early)\n"), "names: the gap before the compaction, its own");
	free(buf);
	sampler_attr_free(&a);
}

/* kicks FD: the wake-ups the eventfd counted since the last call */
static uint64_t kicks(int fd)
{
	uint64_t n = 0;

	if (read(fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

/* push N events of CPU 1, one every 10 ns from FIRST_TS, named */
static void push_many(struct sampler_attr *a, int n, uint64_t first_ts)
{
	for (int i = 0; i < n; i++) {
		struct named_event e = ev(first_ts + i * 10, SAMPLER_EV_IRQ, 11, 0, "virtio0");

		push(a, 1, &e);
	}
}

/*
 * A burst grows a CPU's queue; once drains find it a quarter full at most
 * since the last, each halves it, down to its first size: a long run holds
 * its steady state, not the most it ever queued. A steady rate, all let go
 * at each drain, keeps its size (no halving and growing again each drain).
 */
static void test_queue_shrinks(void)
{
	struct sampler_attr a;
	struct noise_period p;
	size_t lowest = SIZE_MAX, highest = 0;

	init_attr(&a, OSNOISE, 0, 0);
	push_many(&a, 5000, 2000);
	is_int(a.cpu[1].cap, 8192, "queue: a burst of 5,000 events grows it to 8,192");
	sampler_attr_period(&a, &a.cpu[1], &period, &p);
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].nev, 0, "queue: the period's events let go");
	is_int(a.cpu[1].cap, 8192, "queue: the drain of the burst keeps its size");
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].cap, 4096, "queue: the next drain, with nothing queued, halves it");
	is_int(a.cpu[1].name_cap, 4096, "queue: and the names beside it");
	for (int i = 0; i < 10; i++)
		sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].cap, SAMPLER_EVQ_FIRST, "queue: quiet drains bring it back to its first size");
	is_int(a.cpu[1].name_cap, SAMPLER_EVQ_FIRST, "queue: the names too");

	for (int round = 0; round < 8; round++) {
		push_many(&a, 300, 2000);
		sampler_attr_period(&a, &a.cpu[1], &period, &p);
		sampler_attr_compact(&a, &a.cpu[1]);
		lowest = a.cpu[1].cap < lowest ? a.cpu[1].cap : lowest;
		highest = a.cpu[1].cap > highest ? a.cpu[1].cap : highest;
	}
	is_int(lowest, 512, "queue: 300 events a drain, all let go: it stays at 512");
	is_int(highest, 512, "queue: and never grows past it");

	/* events of no finished period stay, and count as held */
	push_many(&a, 1000, 200000);
	is_int(a.cpu[1].cap, 1024, "queue: 1,000 waiting events grow it to 1,024");
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].cap, 1024, "queue: a drain that lets none go keeps it");
	a.cpu[1].nev = 200;	/* as if 800 had been let go at the last drain */
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].cap, 512, "queue: 200 held of 1,024 halves it");
	sampler_attr_compact(&a, &a.cpu[1]);
	is_int(a.cpu[1].cap, 512, "queue: never below twice what it holds");
	is_int(a.cpu[1].nev, 200, "queue: the events it holds stay");
	ok(a.cpu[1].ev[199].ts == 200000 + 199 * 10, "queue: in order, the last one last");
	ok(!strcmp(a.cpu[1].name[199], "virtio0"), "queue: with its name");
	sampler_attr_free(&a);
}

/*
 * The spinner's wake-up of the collector: at half full, also when the
 * spinner reads the collector's tail only because its cached copy said full
 */
static void test_gap_ring(void)
{
	struct sampler_ctl ctl = { .kick_fd = eventfd(0, EFD_NONBLOCK) };
	struct sampler_spinner sp = { .ctl = &ctl };
	uint64_t i, woken = 0;

	sp.gap = calloc(SAMPLER_GAP_RING, sizeof(*sp.gap));
	for (i = 0; i < SAMPLER_GAP_RING / 2; i++)
		woken += sampler_record_gap(&sp, 1000 * i, 1000 * i + 50);
	is_int(woken, 1, "gap ring: one wake-up on the way to half full");
	is_int(kicks(ctl.kick_fd), 1, "gap ring: the collector's eventfd got it");
	is_int(sp.cur.gaps, SAMPLER_GAP_RING / 2, "gap ring: every gap counted");

	/* the collector emptied the ring but the cached tail is old: no wake-up */
	atomic_store(&sp.gap_tail, SAMPLER_GAP_RING / 2 + 100);
	sp.tail_seen = 0;
	atomic_store(&sp.gap_head, SAMPLER_GAP_RING);
	ok(!sampler_record_gap(&sp, 0, 50), "gap ring: stale tail, ring half empty: no wake-up");
	is_int(kicks(ctl.kick_fd), 0, "gap ring: nothing on the eventfd");

	/* the cached tail says full, the real one three quarters: a wake-up */
	sp.tail_seen = 0;
	atomic_store(&sp.gap_head, 2 * SAMPLER_GAP_RING);
	atomic_store(&sp.gap_tail, SAMPLER_GAP_RING + SAMPLER_GAP_RING / 4);
	ok(sampler_record_gap(&sp, 0, 50),
	   "gap ring: cached tail full, real ring 3/4 full: the collector is woken");
	is_int(kicks(ctl.kick_fd), 1, "gap ring: the eventfd counted it");
	is_int(atomic_load(&sp.gap_head), 2 * SAMPLER_GAP_RING + 1, "gap ring: the gap was ringed");

	/* really full: the gap is lost, counted, and nothing is written */
	atomic_store(&sp.gap_tail, sp.tail_seen = atomic_load(&sp.gap_head) - SAMPLER_GAP_RING);
	ok(!sampler_record_gap(&sp, 0, 70), "gap ring: a full ring loses the gap");
	is_int(sp.cur.lost, 1, "gap ring: one gap lost");
	is_int(sp.cur.lost_max, 70, "gap ring: its length kept");
	close(ctl.kick_fd);
	free(sp.gap);
}

static void test_spin(void)
{
	struct sampler_period_rec r;

	is_int(sampler_spin_for(&raw_clock, 2000000, 1000, &r), 0,
	       "spin: the spinner loop runs 2 ms on this thread");
	ok(r.iters > 0, "spin: it counted %llu iterations", (unsigned long long)r.iters);
	ok(r.end - r.start >= 2000000, "spin: for the whole runtime");
	ok(r.sum <= r.end - r.start && r.gaps <= r.iters, "spin: gaps fit in the period");
}

int main(void)
{
	test_clock();
	test_osnoise_period();
	test_back_to_back();
	test_hwnoise_period();
	test_gap_samples();
	test_stops();
	test_losses();
	test_save();
	test_names_follow();
	test_queue_shrinks();
	test_gap_ring();
	test_spin();
	return tap_done();
}

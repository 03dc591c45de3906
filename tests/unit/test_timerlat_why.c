// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the explanation of late wake-ups of timerlat's sampler
 * backend (src/timerlat/why.c): made-up event streams of one CPU, on a
 * nanosecond clock, replayed beside one wake-up of its sleeper, so that
 * every part and cause can be worked out by hand (the comment above each
 * scenario does). Each scenario's wake-up is also checked for
 * conservation: its causes sum to its latency, except where it has more
 * causes than the TLW_CAUSES its list keeps.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "tap.h"
#include "timerlat/sampler.h"

#define US	1000ull
#define T	1000000000ull		/* the target of the first wake-up: 1 s */
#define CPU	1
#define TID	1234			/* CPU 1's sleeper */
#define TIMER	0xffff888100200000ull	/* its hrtimer */
#define NONE	(-1LL)			/* cause_ns(): no such cause */

static struct tlw_event ev(uint64_t ts, int kind, int arg, int arg2, const char *name)
{
	struct tlw_event e = { .ts = ts, .kind = kind, .arg = arg, .arg2 = arg2 };

	if (name)
		snprintf(e.name, sizeof(e.name), "%s", name);
	return e;
}

/* the sleeper arms its timer for EXPIRES */
static struct tlw_event timer_start(uint64_t ts, uint64_t expires)
{
	struct tlw_event e = ev(ts, TLW_TIMER_START, -1, TID, NULL);

	e.ptr = TIMER;
	e.val = expires;
	return e;
}

/* its timer expires: hrtimer_expire_entry's now is the event's time */
static struct tlw_event timer_expire(uint64_t ts)
{
	struct tlw_event e = ev(ts, TLW_TIMER_EXPIRE, -1, -1, NULL);

	e.ptr = TIMER;
	e.val = ts;
	return e;
}

/* an NMI handler of NS that ended at TS */
static struct tlw_event nmi(uint64_t ts, uint64_t ns)
{
	struct tlw_event e = ev(ts, TLW_NMI, -1, -1, NULL);

	e.val = ns;
	return e;
}

#define SWITCH(ts, pid, comm)	ev(ts, TLW_SWITCH, pid, -1, comm)
#define WAKEUP(ts)		ev(ts, TLW_WAKEUP, TID, -1, NULL)
#define IDLE(ts, state)		ev(ts, TLW_IDLE, state, -1, NULL)
#define VEC(ts, vector, name)	ev(ts, TLW_VEC, vector, -1, name)
#define VEC_EXIT(ts)		ev(ts, TLW_VEC_EXIT, -1, -1, NULL)
#define IRQ(ts, irq, name)	ev(ts, TLW_IRQ, irq, -1, name)
#define IRQ_EXIT(ts)		ev(ts, TLW_IRQ_EXIT, -1, -1, NULL)
#define SOFTIRQ(ts, vec)	ev(ts, TLW_SOFTIRQ, vec, -1, NULL)
#define SOFTIRQ_EXIT(ts)	ev(ts, TLW_SOFTIRQ_EXIT, -1, -1, NULL)
#define ARRAY_LEN(a)		(sizeof(a) / sizeof((a)[0]))

static void setup(struct tlw *w)
{
	if (tlw_init(w, 2))
		abort();
	w->cpu[CPU].tid = TID;
}

static void push(struct tlw *w, const struct tlw_event *evs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tlw_push(w, CPU, &evs[i]))
			abort();
}

/* The ns of the cause KIND (and ID where it has one); NONE when absent. */
static long long cause_ns(const struct tlw_why *y, int kind, int id)
{
	for (int i = 0; i < y->ncauses; i++)
		if (y->cause[i].kind == kind && (id < 0 || y->cause[i].id == id))
			return (long long)y->cause[i].ns;
	return NONE;
}

static const struct tlw_cause_ns *cause(const struct tlw_why *y, int kind, int id)
{
	for (int i = 0; i < y->ncauses; i++)
		if (y->cause[i].kind == kind && (id < 0 || y->cause[i].id == id))
			return &y->cause[i];
	return NULL;
}

/* The causes sum to the latency, and come largest first. */
static void conserved(const struct tlw_why *y, const char *what)
{
	uint64_t sum = 0;
	bool sorted = true;

	for (int i = 0; i < y->ncauses; i++) {
		sum += y->cause[i].ns;
		if (i && y->cause[i].ns > y->cause[i - 1].ns)
			sorted = false;
	}
	if (!ok(sum == y->latency, "%s: the causes sum to the latency", what))
		printf("#   got %llu ns, expected %llu ns\n", (unsigned long long)sum,
		       (unsigned long long)y->latency);
	ok(sorted, "%s: the causes come largest first", what);
}

/*
 * An idle CPU: the sleeper arms its timer for T and leaves the CPU to the
 * idle task, which enters state 1. The local timer's vector comes at
 * T+30us, the expiry inside it at T+31us wakes the sleeper at T+32us, the
 * vector ends at T+34us, the CPU leaves idle at T+35us and switches to the
 * sleeper at T+38us, which reads the clock at T+40us.
 *   exit from idle   [T, T+30)                 30 us
 *   the timer's IRQ  [T+30, T+34)               4 us
 *   wake-up path     [T+34, T+40)               6 us
 */
static void replay_idle(struct tlw_why *y)
{
	const struct tlw_event idle_stream[] = {
		timer_start(T - 61 * US, T),
		SWITCH(T - 60 * US, 0, "swapper/1"),
		IDLE(T - 50 * US, 1),
		VEC(T + 30 * US, 236, "local_timer"),
		timer_expire(T + 31 * US),
		WAKEUP(T + 32 * US),
		VEC_EXIT(T + 34 * US),
		IDLE(T + 35 * US, -1),
		SWITCH(T + 38 * US, TID, "timerlatu/1"),
	};
	struct tlw w;
	uint64_t irq = 0;

	setup(&w);
	push(&w, idle_stream, ARRAY_LEN(idle_stream));
	ok(!tlw_wake(&w, CPU, 7, T, T + 40 * US, &irq, y),
	   "idle: not explained with -T and -i off");
	is_int(irq, 31 * US, "idle: *irq_ns is the IRQ latency");
	tlw_free(&w);
}

static void test_idle(void)
{
	struct tlw_why y;

	replay_idle(&y);
	is_int(y.cpu, CPU, "idle: cpu");
	is_int(y.seq, 7, "idle: seq");
	is_int(y.target, T, "idle: target");
	is_int(y.latency, 40 * US, "idle: latency is woke - target");
	is_int(y.irq_latency, 31 * US, "idle: irq_latency is now - expires");
	is_int(y.irq_to_wakeup, 1 * US, "idle: irq_to_wakeup");
	is_int(y.wakeup_to_run, 6 * US, "idle: wakeup_to_run");
	is_int(y.run_to_user, 2 * US, "idle: run_to_user");
	is_int(y.ncauses, 3, "idle: three causes");
	is_int(y.cause[0].kind, WHY_IDLE_EXIT, "idle: the largest is the exit from idle");
	is_int(y.cause[0].ns, 30 * US, "idle: exit from idle is the time before the vector");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 6 * US, "idle: the wake-up path");
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 4 * US, "idle: the timer's IRQ is the vector's time");
	is_int(cause_ns(&y, WHY_UNACCOUNTED, -1), NONE, "idle: nothing unaccounted");
	conserved(&y, "idle");
}

/*
 * A thread, hog (4321), runs on from before T and takes no IRQ until the
 * local timer's vector at T+100us (expiry T+101us, wake-up T+102us, end
 * T+103us). Then hog runs 2 us more, kworker/1:1 (77) 10 us, and the
 * sleeper from T+115us to its clock read at T+118us.
 *   interrupts off in hog  [T, T+100)          100 us
 *   the timer's IRQ        [T+100, T+103)        3 us
 *   thread hog             [T+103, T+105)        2 us
 *   thread kworker/1:1     [T+105, T+115)       10 us
 *   wake-up path           [T+115, T+118)        3 us
 */
static void test_hog(void)
{
	const struct tlw_event s[] = {
		timer_start(T - 11 * US, T),
		SWITCH(T - 10 * US, 4321, "hog"),
		VEC(T + 100 * US, 236, "local_timer"),
		timer_expire(T + 101 * US),
		WAKEUP(T + 102 * US),
		VEC_EXIT(T + 103 * US),
		SWITCH(T + 105 * US, 77, "kworker/1:1"),
		SWITCH(T + 115 * US, TID, "timerlatu/1"),
	};
	const struct tlw_cause_ns *c;
	struct tlw_why y;
	struct tlw w;
	uint64_t irq;

	setup(&w);
	push(&w, s, ARRAY_LEN(s));
	tlw_wake(&w, CPU, 1, T, T + 118 * US, &irq, &y);
	is_int(y.latency, 118 * US, "hog: latency");
	is_int(y.irq_latency, 101 * US, "hog: irq_latency");
	is_int(y.irq_to_wakeup, 1 * US, "hog: irq_to_wakeup");
	is_int(y.wakeup_to_run, 13 * US, "hog: wakeup_to_run");
	is_int(y.run_to_user, 3 * US, "hog: run_to_user");
	is_int(y.ncauses, 5, "hog: five causes");
	c = &y.cause[0];
	is_int(c->kind, WHY_IRQS_OFF, "hog: the largest is interrupts off");
	is_int(c->id, 4321, "hog: in pid 4321");
	is_str(c->name, "hog", "hog: named hog");
	is_int(c->ns, 100 * US, "hog: for 100 us");
	c = &y.cause[1];
	is_int(c->kind, WHY_THREAD, "hog: then another thread after the expiry");
	is_int(c->id, 77, "hog: pid 77");
	is_str(c->name, "kworker/1:1", "hog: named kworker/1:1");
	is_int(c->irq, -1, "hog: kworker serves no IRQ");
	is_int(c->ns, 10 * US, "hog: for 10 us");
	is_int(y.cause[2].kind, WHY_OWN_IRQ,
	       "hog: the timer's IRQ before the path of the same size");
	is_int(y.cause[2].ns, 3 * US, "hog: the timer's IRQ");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 3 * US, "hog: the wake-up path");
	is_int(cause_ns(&y, WHY_THREAD, 4321), 2 * US,
	       "hog: hog running on after the expiry is a thread that ran first");
	conserved(&y, "hog");
	tlw_free(&w);
}

/*
 * PREEMPT_RT: on an idle CPU eth0's hard IRQ (T+5us..T+7us) wakes its
 * thread irq/24-eth0 (130), which runs from T+9us; the timer's vector
 * interrupts it at T+20us (expiry T+21us, wake-up T+22us, end T+23us),
 * the thread runs on until T+40us, the sleeper reads the clock at T+42us.
 *   exit from idle        [T, T+5) [T+7, T+9)    7 us
 *   irq 24 (eth0)         [T+5, T+7)             2 us
 *   interrupts off in it  [T+9, T+20)           11 us
 *   the timer's IRQ       [T+20, T+23)           3 us
 *   thread irq/24-eth0    [T+23, T+40)          17 us
 *   wake-up path          [T+40, T+42)           2 us
 */
static void test_irq_thread(void)
{
	const struct tlw_event s[] = {
		timer_start(T - 61 * US, T),
		SWITCH(T - 60 * US, 0, "swapper/1"),
		IDLE(T - 50 * US, 1),
		IRQ(T + 5 * US, 24, "eth0"),
		IRQ_EXIT(T + 7 * US),
		IDLE(T + 8 * US, -1),
		SWITCH(T + 9 * US, 130, "irq/24-eth0"),
		VEC(T + 20 * US, 236, "local_timer"),
		timer_expire(T + 21 * US),
		WAKEUP(T + 22 * US),
		VEC_EXIT(T + 23 * US),
		SWITCH(T + 40 * US, TID, "timerlatu/1"),
	};
	const struct tlw_cause_ns *c;
	char label[96];
	struct tlw_why y;
	struct tlw w;
	uint64_t irq;

	setup(&w);
	push(&w, s, ARRAY_LEN(s));
	tlw_wake(&w, CPU, 1, T, T + 42 * US, &irq, &y);
	is_int(y.irq_latency, 21 * US, "irq thread: irq_latency");
	is_int(y.irq_to_wakeup, 1 * US, "irq thread: irq_to_wakeup");
	is_int(y.wakeup_to_run, 18 * US, "irq thread: wakeup_to_run");
	is_int(y.run_to_user, 2 * US, "irq thread: run_to_user");
	is_int(y.ncauses, 6, "irq thread: six causes");
	c = &y.cause[0];
	is_int(c->kind, WHY_THREAD, "irq thread: the largest is the thread");
	is_int(c->id, 130, "irq thread: pid 130");
	is_str(c->name, "irq/24-eth0", "irq thread: its name");
	is_int(c->irq, 24, "irq thread: it serves irq 24");
	is_int(c->ns, 17 * US, "irq thread: 17 us after the expiry");
	tlw_cause_label(c, label, sizeof(label));
	is_str(label, "thread irq/24-eth0:130 (irq 24)", "irq thread: its label names the IRQ");
	is_int(cause_ns(&y, WHY_IRQS_OFF, 130), 11 * US, "irq thread: interrupts off before it");
	is_int(cause_ns(&y, WHY_IDLE_EXIT, -1), 7 * US,
	       "irq thread: idle until the switch, out of the idle state or not");
	is_int(cause_ns(&y, WHY_IRQ, 24), 2 * US, "irq thread: the hard IRQ");
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 3 * US, "irq thread: the timer's IRQ");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 2 * US, "irq thread: the wake-up path");
	is_int(y.cause[4].kind, WHY_IRQ, "irq thread: of equal causes the lower kind first");
	conserved(&y, "irq thread");
	tlw_free(&w);
}

/*
 * Interrupt contexts on an idle CPU, nested: eth0's IRQ (T+10..T+14us),
 * the TIMER softirq after it (T+14..T+25us) which eth0 interrupts again
 * (T+16..T+19us) and a reschedule IPI interrupts in turn (T+17..T+18us).
 * Stray exits without their entries change nothing. Then the timer's
 * vector (T+30..T+34us, expiry T+31us, wake-up T+32us), the switch to the
 * sleeper at T+36us and its clock read at T+38us.
 *   exit from idle       [T, T+10) [T+25, T+30)           15 us
 *   irq 24 (eth0)        [T+10, T+14) [T+16, T+17) [T+18, T+19)  6 us
 *   vector reschedule    [T+17, T+18)                      1 us
 *   softirq TIMER        [T+14, T+16) [T+19, T+25)         8 us
 *   the timer's IRQ      [T+30, T+34)                      4 us
 *   wake-up path         [T+34, T+38)                      4 us
 */
static void test_interrupts(void)
{
	const struct tlw_event s[] = {
		timer_start(T - 61 * US, T),
		SWITCH(T - 60 * US, 0, "swapper/1"),
		IDLE(T - 50 * US, 1),
		SOFTIRQ_EXIT(T + 1 * US),
		IRQ_EXIT(T + 2 * US),
		IRQ(T + 10 * US, 24, "eth0"),
		IRQ_EXIT(T + 14 * US),
		SOFTIRQ(T + 14 * US, 1),
		IRQ(T + 16 * US, 24, "eth0"),
		VEC(T + 17 * US, 253, "reschedule"),
		VEC_EXIT(T + 18 * US),
		IRQ_EXIT(T + 19 * US),
		SOFTIRQ_EXIT(T + 25 * US),
		IDLE(T + 26 * US, -1),
		VEC(T + 30 * US, 236, "local_timer"),
		timer_expire(T + 31 * US),
		WAKEUP(T + 32 * US),
		VEC_EXIT(T + 34 * US),
		SWITCH(T + 36 * US, TID, "timerlatu/1"),
	};
	const struct tlw_cause_ns *c;
	struct tlw_why y;
	struct tlw w;
	uint64_t irq;

	setup(&w);
	push(&w, s, ARRAY_LEN(s));
	tlw_wake(&w, CPU, 1, T, T + 38 * US, &irq, &y);
	is_int(y.latency, 38 * US, "interrupts: latency");
	is_int(y.irq_latency, 31 * US, "interrupts: irq_latency");
	is_int(y.wakeup_to_run, 4 * US, "interrupts: wakeup_to_run");
	is_int(y.run_to_user, 2 * US, "interrupts: run_to_user");
	is_int(y.ncauses, 6, "interrupts: six causes");
	is_int(cause_ns(&y, WHY_IDLE_EXIT, -1), 15 * US, "interrupts: exit from idle");
	c = cause(&y, WHY_IRQ, -1);
	ok(c != NULL, "interrupts: a device IRQ");
	if (c) {
		is_int(c->id, 24, "interrupts: irq 24");
		is_str(c->name, "eth0", "interrupts: named eth0");
		is_int(c->ns, 6 * US, "interrupts: eth0 without the IPI inside it");
	}
	c = cause(&y, WHY_SOFTIRQ, -1);
	ok(c != NULL, "interrupts: a softirq");
	if (c) {
		is_int(c->id, 1, "interrupts: softirq 1");
		is_str(c->name, "TIMER", "interrupts: named TIMER");
		is_int(c->ns, 8 * US, "interrupts: TIMER without eth0 inside it");
	}
	c = cause(&y, WHY_VECTOR, -1);
	ok(c != NULL, "interrupts: a vector");
	if (c) {
		is_int(c->id, 253, "interrupts: vector 253");
		is_str(c->name, "reschedule", "interrupts: named reschedule");
		is_int(c->ns, 1 * US, "interrupts: the innermost frame");
	}
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 4 * US, "interrupts: the timer's IRQ");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 4 * US, "interrupts: the wake-up path");
	conserved(&y, "interrupts");
	tlw_free(&w);
}

/*
 * NMIs take their time back from what they interrupted: hog runs from
 * before T with an NMI of 10 us ending at T+5us (only its 5 us in the
 * window count) and one of 20 us ending at T+50us; eth0's IRQ
 * (T+60..T+70us) holds one of 3 us; the timer's vector (T+100..T+103us)
 * one of 500 ns. hog runs on to T+105us, the sleeper reads at T+106us.
 *   interrupts off in hog  60 + 30 - 5 - 20     65 us
 *   NMI                    5 + 20 + 3 + 0.5     28.5 us
 *   irq 24 (eth0)          10 - 3                7 us
 *   the timer's IRQ        3 - 0.5               2.5 us
 *   thread hog             [T+103, T+105)        2 us
 *   wake-up path           [T+105, T+106)        1 us
 */
static void test_nmi(void)
{
	const struct tlw_event s[] = {
		timer_start(T - 11 * US, T),
		SWITCH(T - 10 * US, 4321, "hog"),
		nmi(T + 5 * US, 10 * US),
		nmi(T + 50 * US, 20 * US),
		IRQ(T + 60 * US, 24, "eth0"),
		nmi(T + 68 * US, 3 * US),
		IRQ_EXIT(T + 70 * US),
		VEC(T + 100 * US, 236, "local_timer"),
		timer_expire(T + 101 * US),
		WAKEUP(T + 102 * US),
		nmi(T + 102 * US + 500, 500),
		VEC_EXIT(T + 103 * US),
		SWITCH(T + 105 * US, TID, "timerlatu/1"),
	};
	struct tlw_why y;
	struct tlw w;
	uint64_t irq;

	setup(&w);
	push(&w, s, ARRAY_LEN(s));
	tlw_wake(&w, CPU, 1, T, T + 106 * US, &irq, &y);
	is_int(y.latency, 106 * US, "nmi: latency");
	is_int(y.irq_latency, 101 * US, "nmi: irq_latency");
	is_int(cause_ns(&y, WHY_NMI, -1), 28500, "nmi: the NMIs' time inside the window");
	is_int(cause_ns(&y, WHY_IRQS_OFF, 4321), 65 * US, "nmi: taken back from hog");
	is_int(cause_ns(&y, WHY_IRQ, 24), 7 * US, "nmi: taken back from eth0's IRQ");
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 2500, "nmi: taken back from the timer's IRQ");
	is_int(cause_ns(&y, WHY_THREAD, 4321), 2 * US, "nmi: hog after the expiry");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 1 * US, "nmi: the wake-up path");
	is_int(y.ncauses, 6, "nmi: six causes");
	conserved(&y, "nmi");
	tlw_free(&w);
}

/* No events at all: nothing is known, the whole latency is unaccounted. */
static void test_no_events(void)
{
	struct tlw_event e = SWITCH(T, 0, "swapper/0");
	struct tlw_why y;
	struct tlw w;
	uint64_t irq = 0;

	setup(&w);
	is_int(tlw_push(&w, 0, &e), 0, "no events: a push to an unmeasured CPU succeeds");
	is_int(w.cpu[0].nev, 0, "no events: and queues nothing");
	is_int(tlw_push(&w, 2, &e), 0, "no events: a push to a CPU out of range is ignored");
	ok(!tlw_wake(&w, CPU, 3, T, T + 25 * US, &irq, &y), "no events: not explained");
	ok(irq == TLW_UNKNOWN, "no events: *irq_ns is TLW_UNKNOWN");
	ok(y.irq_latency == TLW_UNKNOWN, "no events: irq_latency is TLW_UNKNOWN");
	ok(y.irq_to_wakeup == TLW_UNKNOWN && y.wakeup_to_run == TLW_UNKNOWN &&
	   y.run_to_user == TLW_UNKNOWN, "no events: the other parts are unknown too");
	is_int(y.latency, 25 * US, "no events: latency");
	is_int(y.ncauses, 1, "no events: one cause");
	is_int(y.cause[0].kind, WHY_UNACCOUNTED, "no events: unaccounted");
	is_int(y.cause[0].ns, 25 * US, "no events: all of it");
	conserved(&y, "no events");
	/* a wake-up before its time (or on it): no latency, no cause */
	tlw_wake(&w, CPU, 4, T + 100 * US, T + 100 * US, &irq, &y);
	is_int(y.latency, 0, "no events: on time, latency 0");
	is_int(y.ncauses, 0, "no events: on time, no cause");
	tlw_free(&w);
}

/*
 * More causes than a wake-up keeps: hog runs, twelve device IRQs (irq K
 * for K us, back to back from T to T+78us), the timer's vector
 * (T+78..T+81us), hog 1 us more, the sleeper from T+82us to T+84us. Only
 * the TLW_CAUSES largest are kept (sampler.h): irqs 12 down to 3, 75 us;
 * the timer's IRQ (3 us, after irq 3 of the same size), irqs 2 and 1, the
 * path (2 us) and hog (1 us) are left out of the list, so the list sums
 * to 9 us less than the latency.
 */
static void test_many_causes(void)
{
	struct tlw_event s[2 + 2 * 12 + 5];
	uint64_t ts = T, sum = 0, irq;
	struct tlw_why y;
	struct tlw w;
	bool largest = true;
	int n = 0;

	s[n++] = timer_start(T - 11 * US, T);
	s[n++] = SWITCH(T - 10 * US, 4321, "hog");
	for (int k = 1; k <= 12; k++) {
		s[n++] = IRQ(ts, k, "dev");
		ts += k * US;
		s[n++] = IRQ_EXIT(ts);
	}
	s[n++] = VEC(T + 78 * US, 236, "local_timer");
	s[n++] = timer_expire(T + 79 * US);
	s[n++] = WAKEUP(T + 80 * US);
	s[n++] = VEC_EXIT(T + 81 * US);
	s[n++] = SWITCH(T + 82 * US, TID, "timerlatu/1");
	setup(&w);
	push(&w, s, n);
	tlw_wake(&w, CPU, 1, T, T + 84 * US, &irq, &y);
	is_int(y.latency, 84 * US, "many causes: latency");
	is_int(y.ncauses, TLW_CAUSES, "many causes: TLW_CAUSES kept");
	for (int i = 0; i < y.ncauses; i++) {
		largest &= y.cause[i].kind == WHY_IRQ && y.cause[i].id == 12 - i &&
			   y.cause[i].ns == (uint64_t)(12 - i) * US;
		sum += y.cause[i].ns;
	}
	ok(largest, "many causes: irqs 12 down to 3, largest first");
	is_int(sum, 75 * US, "many causes: the list leaves out the 9 us of the smallest");
	tlw_free(&w);
}

/* One wake-up of CPU at TARGET, late by LAT, with its IRQ IRQ_LAT late (0: no expiry event). */
static bool wake_one(struct tlw *w, uint64_t seq, uint64_t target, uint64_t lat, uint64_t irq_lat)
{
	uint64_t irq;

	if (irq_lat) {
		const struct tlw_event s[] = {
			timer_start(target - 10 * US, target),
			timer_expire(target + irq_lat),
		};

		push(w, s, ARRAY_LEN(s));
	}
	return tlw_wake(w, CPU, seq, target, target + lat, &irq, NULL);
}

static int by_latency_desc(const void *a, const void *b)
{
	const struct tlw_why *x = a, *y = b;

	return x->latency < y->latency ? 1 : x->latency > y->latency ? -1 : 0;
}

/* -T and -i: which wake-ups are explained, logged and kept. */
static void test_thresholds(void)
{
	struct tlw_cpu *c;
	struct tlw_why worst[TLW_WORST];
	struct tlw w;
	uint64_t t = T;
	bool late;

	setup(&w);
	c = &w.cpu[CPU];
	w.explain_ns = 50 * US;
	w.explain_irq_ns = 20 * US;
	ok(!wake_one(&w, 1, t, 50 * US - 1, 0), "thresholds: 1 ns under -T: not explained");
	is_int(w.nlog, 0, "thresholds: nothing logged");
	ok(wake_one(&w, 2, t += 1000 * US, 50 * US, 0), "thresholds: at -T: explained");
	is_int(w.nlog, 1, "thresholds: logged");
	is_int(w.nlog >= 1 ? w.log[0].seq : 0, 2, "thresholds: the log holds it");
	ok(wake_one(&w, 3, t += 1000 * US, 30 * US, 20 * US),
	   "thresholds: IRQ latency at -i: explained");
	is_int(w.nlog, 2, "thresholds: logged");
	is_int(w.nlog >= 2 ? w.log[1].irq_latency : 0, 20 * US, "thresholds: with its IRQ latency");
	ok(!wake_one(&w, 4, t += 1000 * US, 30 * US, 20 * US - 1),
	   "thresholds: IRQ latency 1 ns under -i: not explained");
	ok(wake_one(&w, 5, t += 1000 * US, 70 * US, 0), "thresholds: 70 us");
	ok(wake_one(&w, 6, t += 1000 * US, 60 * US, 0), "thresholds: 60 us");
	ok(wake_one(&w, 7, t += 1000 * US, 80 * US, 0), "thresholds: 80 us");
	is_int(w.nlog, 5, "thresholds: five logged");
	is_int(w.nlog >= 5 ? w.log[4].seq : 0, 7, "thresholds: in order");
	is_int(c->explained, 5, "thresholds: five explained");
	is_int(c->explained_ns, 290 * US, "thresholds: their latencies' sum");
	is_int(c->unaccounted_ns, 290 * US, "thresholds: all of it unaccounted (no switch seen)");
	is_int(c->nworst, TLW_WORST, "thresholds: TLW_WORST kept");
	memcpy(worst, c->worst, sizeof(worst));
	qsort(worst, TLW_WORST, sizeof(worst[0]), by_latency_desc);
	is_int(worst[0].latency, 80 * US, "thresholds: the worst, 80 us");
	is_int(worst[1].latency, 70 * US, "thresholds: then 70 us");
	is_int(worst[2].latency, 60 * US, "thresholds: then 60 us");
	is_int(worst[2].seq, 6, "thresholds: seq 6");
	ok(!wake_one(&w, 8, t += 1000 * US, 10 * US, 0), "thresholds: 10 us: not explained");
	is_int(c->nworst, TLW_WORST, "thresholds: still TLW_WORST kept");
	memcpy(worst, c->worst, sizeof(worst));
	qsort(worst, TLW_WORST, sizeof(worst[0]), by_latency_desc);
	is_int(worst[2].latency, 60 * US, "thresholds: a smaller one does not enter");

	/* thresholds off: nothing explained, however late */
	w.explain_ns = w.explain_irq_ns = 0;
	ok(!wake_one(&w, 9, t += 1000 * US, 900 * US, 800 * US), "thresholds: off: not explained");
	is_int(w.nlog, 5, "thresholds: off: nothing logged");
	is_int(c->worst[0].latency == 900 * US || c->worst[1].latency == 900 * US ||
	       c->worst[2].latency == 900 * US, 1, "thresholds: off: still among the worst");

	is_int(c->wakeups, 9, "thresholds: every wake-up counted");
	is_int(c->latency_ns, 1279999, "thresholds: every latency summed");
	is_int(c->latency_unaccounted_ns, 1279999, "thresholds: all of it unaccounted");

	tlw_reset(&w);
	is_int(w.nlog, 0, "reset: the log is empty");
	is_int(c->nworst, 0, "reset: no worst kept");
	is_int(c->explained + c->explained_ns + c->unaccounted_ns, 0, "reset: the totals are 0");
	is_int(c->wakeups + c->latency_ns + c->latency_unaccounted_ns, 0,
	       "reset: the totals of every wake-up are 0");

	/* the log keeps the latest: at 4096, the oldest half goes */
	w.explain_ns = 1;
	late = true;
	for (uint64_t i = 0; i < 4097; i++)
		late &= wake_one(&w, 100 + i, t += 1000 * US, 1 * US, 0);
	ok(late, "log: 4097 explained");
	is_int(w.nlog, 2049, "log: the oldest 2048 dropped when full");
	is_int(w.nlog ? w.log[0].seq : 0, 100 + 2048, "log: the first kept");
	is_int(w.nlog ? w.log[w.nlog - 1].seq : 0, 100 + 4096, "log: the latest last");
	is_int(c->explained, 4097, "log: every one counted");
	tlw_free(&w);
}

/*
 * Two drains: the first brings the events of wake-up 1 and the start of
 * wake-up 2 (its timer armed, the CPU idle again); compacting keeps those;
 * the second brings the rest of wake-up 2.
 *   1: exit from idle 5, the timer's IRQ 3, path 4 (of 12 us)
 *   2: exit from idle 10, the timer's IRQ 3, path 4 (of 17 us)
 */
static void test_compact(void)
{
	const uint64_t t2 = T + 1000 * US;
	const struct tlw_event drain1[] = {
		timer_start(T - 5 * US, T),
		SWITCH(T - 4 * US, 0, "swapper/1"),
		IDLE(T - 3 * US, 1),
		VEC(T + 5 * US, 236, "local_timer"),
		timer_expire(T + 6 * US),
		WAKEUP(T + 7 * US),
		VEC_EXIT(T + 8 * US),
		IDLE(T + 9 * US, -1),
		SWITCH(T + 10 * US, TID, "timerlatu/1"),
		/* after its clock read at T+12us: sleeps again */
		timer_start(T + 13 * US, t2),
		SWITCH(T + 14 * US, 0, "swapper/1"),
		IDLE(T + 15 * US, 1),
	};
	const struct tlw_event drain2[] = {
		VEC(t2 + 10 * US, 236, "local_timer"),
		timer_expire(t2 + 11 * US),
		WAKEUP(t2 + 12 * US),
		VEC_EXIT(t2 + 13 * US),
		IDLE(t2 + 14 * US, -1),
		SWITCH(t2 + 15 * US, TID, "timerlatu/1"),
		timer_start(t2 + 18 * US, t2 + 1000 * US),
	};
	struct tlw_cpu *c;
	struct tlw_why y;
	struct tlw w;
	uint64_t irq;

	setup(&w);
	c = &w.cpu[CPU];
	push(&w, drain1, ARRAY_LEN(drain1));
	tlw_compact(&w);
	is_int(c->nev, ARRAY_LEN(drain1), "compact: nothing replayed, nothing dropped");
	tlw_wake(&w, CPU, 1, T, T + 12 * US, &irq, &y);
	is_int(y.irq_latency, 6 * US, "compact: 1: irq_latency");
	is_int(cause_ns(&y, WHY_IDLE_EXIT, -1), 5 * US, "compact: 1: exit from idle");
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 3 * US, "compact: 1: the timer's IRQ");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 4 * US, "compact: 1: the wake-up path");
	conserved(&y, "compact: 1");
	is_int(c->pos, ARRAY_LEN(drain1) - 3, "compact: 1 replayed up to its clock read");
	tlw_compact(&w);
	is_int(c->nev, 3, "compact: the three events after it kept");
	is_int(c->pos, 0, "compact: none of them replayed");
	ok(c->ev[0].kind == TLW_TIMER_START && c->ev[0].val == t2, "compact: in order");
	push(&w, drain2, ARRAY_LEN(drain2));
	is_int(c->nev, 3 + ARRAY_LEN(drain2), "compact: the second drain after them");
	tlw_wake(&w, CPU, 2, t2, t2 + 17 * US, &irq, &y);
	is_int(irq, 11 * US, "compact: 2: the timer armed before the compaction pairs");
	is_int(y.latency, 17 * US, "compact: 2: latency");
	is_int(y.irq_to_wakeup, 1 * US, "compact: 2: irq_to_wakeup");
	is_int(y.wakeup_to_run, 3 * US, "compact: 2: wakeup_to_run");
	is_int(y.run_to_user, 2 * US, "compact: 2: run_to_user");
	is_int(cause_ns(&y, WHY_IDLE_EXIT, -1), 10 * US,
	       "compact: 2: idle, as the first drain's events left it");
	is_int(cause_ns(&y, WHY_OWN_IRQ, -1), 3 * US, "compact: 2: the timer's IRQ");
	is_int(cause_ns(&y, WHY_OWN_PATH, -1), 4 * US, "compact: 2: the wake-up path");
	is_int(y.ncauses, 3, "compact: 2: three causes");
	conserved(&y, "compact: 2");
	tlw_compact(&w);
	is_int(c->nev, 1, "compact: the next timer start kept");
	tlw_free(&w);
}

/* The queue's bound: an event past it is dropped and counted. */
static void test_queue_full(void)
{
	struct tlw_event e = IDLE(T, 1);
	struct tlw w;
	int err = 0;
	size_t n = 0;

	setup(&w);
	while (!(err = tlw_push(&w, CPU, &e)))
		if (++n > (1u << 21))
			break;
	is_int(err, -ENOSPC, "queue: full is -ENOSPC");
	is_int(n, 1u << 20, "queue: after 2^20 events");
	is_int(w.cpu[CPU].dropped, 1, "queue: the refused event counted");
	tlw_free(&w);
}

static void test_labels(void)
{
	static const struct {
		struct tlw_cause_ns c;
		const char *want;
	} t[] = {
		{ { WHY_IDLE_EXIT, -1, -1, "", 1 }, "exit from idle" },
		{ { WHY_IRQS_OFF, 4321, -1, "hog", 1 }, "interrupts off in hog:4321" },
		{ { WHY_NMI, -1, -1, "", 1 }, "NMI" },
		{ { WHY_IRQ, 24, -1, "eth0", 1 }, "irq 24 (eth0)" },
		{ { WHY_VECTOR, 253, -1, "reschedule", 1 }, "vector reschedule" },
		{ { WHY_SOFTIRQ, 1, -1, "TIMER", 1 }, "softirq TIMER" },
		{ { WHY_THREAD, 1234, -1, "stress-ng", 1 }, "thread stress-ng:1234" },
		{ { WHY_THREAD, 130, 24, "irq/24-eth0", 1 }, "thread irq/24-eth0:130 (irq 24)" },
		{ { WHY_OWN_IRQ, -1, -1, "", 1 }, "the timer's IRQ" },
		{ { WHY_OWN_PATH, -1, -1, "", 1 }, "wake-up and return to user" },
		{ { WHY_UNACCOUNTED, -1, -1, "", 1 },
		  "no event: interrupts or preemption off, SMI or hypervisor" },
	};
	char buf[96], small[8];

	for (size_t i = 0; i < ARRAY_LEN(t); i++) {
		tlw_cause_label(&t[i].c, buf, sizeof(buf));
		is_str(buf, t[i].want, "label of %s", tlw_cause_name(t[i].c.kind));
	}
	tlw_cause_label(&t[3].c, small, sizeof(small));
	is_str(small, "irq 24 ", "label: cut to the buffer");
	is_str(tlw_cause_name(-1), "?", "cause name: -1 is ?");
	is_str(tlw_cause_name(WHY_KINDS), "?", "cause name: WHY_KINDS is ?");
}

static char *capture_json(const struct tlw_why *y)
{
	struct json j;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	json_init(&j, f);
	tlw_why_json(&j, y);
	fclose(f);
	return text;
}

static char *capture_print(const struct tlw_why *y, bool nano)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		abort();
	tlw_why_print(f, y, nano);
	fclose(f);
	return text;
}

#define has(text, s, ...) do { \
	if (!ok(strstr(text, s) != NULL, __VA_ARGS__)) \
		printf("#   no '%s' in:\n%s\n", s, text); \
} while (0)

static void test_output(void)
{
	struct tlw_why y, none = { .cpu = 2, .seq = 9, .target = T, .latency = 25 * US,
				   .irq_latency = TLW_UNKNOWN, .irq_to_wakeup = TLW_UNKNOWN,
				   .wakeup_to_run = TLW_UNKNOWN, .run_to_user = TLW_UNKNOWN,
				   .ncauses = 1 };
	char *text;

	none.cause[0] = (struct tlw_cause_ns){ WHY_UNACCOUNTED, -1, -1, "", 25 * US };
	replay_idle(&y);
	y.cause[y.ncauses++] = (struct tlw_cause_ns){ WHY_THREAD, 130, 24, "irq/24-eth0", 0 };
	y.cause[y.ncauses++] = (struct tlw_cause_ns){ WHY_SOFTIRQ, 1, -1, "TIMER", 0 };

	text = capture_json(&y);
	has(text, "\"cpu\": 1", "json: cpu");
	has(text, "\"seq\": 7", "json: seq");
	has(text, "\"latency_ns\": 40000", "json: latency_ns");
	has(text, "\"irq_latency_ns\": 31000", "json: irq_latency_ns");
	has(text, "\"irq_to_wakeup_ns\": 1000", "json: irq_to_wakeup_ns");
	has(text, "\"wakeup_to_run_ns\": 6000", "json: wakeup_to_run_ns");
	has(text, "\"run_to_user_ns\": 2000", "json: run_to_user_ns");
	has(text, "\"kind\": \"idle_exit\"", "json: the idle exit");
	has(text, "\"ns\": 30000", "json: its ns");
	has(text, "\"kind\": \"own_path\"", "json: the path");
	has(text, "\"kind\": \"own_irq\"", "json: the timer's IRQ");
	has(text, "\"kind\": \"thread\"", "json: a thread");
	has(text, "\"pid\": 130", "json: its pid");
	has(text, "\"irq\": 24", "json: its IRQ");
	has(text, "\"name\": \"irq/24-eth0\"", "json: its name");
	has(text, "\"kind\": \"softirq\"", "json: a softirq");
	has(text, "\"id\": 1", "json: its id");
	ok(strstr(text, "\"id\": -1") == NULL, "json: no id for the fixed kinds");
	free(text);
	text = capture_json(&none);
	has(text, "\"irq_latency_ns\": null", "json: an unknown part is null");
	has(text, "\"run_to_user_ns\": null", "json: every unknown part");
	has(text, "\"kind\": \"unaccounted\"", "json: unaccounted");
	free(text);

	y.ncauses -= 2;
	text = capture_print(&y, false);
	has(text, "IRQ latency (timer expiry to its handler):", "print: the IRQ latency line");
	has(text, "31.00 us (77.50 %)", "print: the IRQ latency and its share");
	has(text, "1.00 us (2.50 %)", "print: IRQ to wake-up");
	has(text, "exit from idle", "print: the idle exit");
	has(text, "30.00 us (75.00 %)", "print: its share");
	has(text, "6.00 us (15.00 %)", "print: the path's share");
	has(text, "4.00 us (10.00 %)", "print: the timer's IRQ's share");
	has(text, "Thread latency:", "print: the total line");
	has(text, "40.00 us (100%)", "print: the latency");
	free(text);
	text = capture_print(&y, true);
	has(text, "31000 ns (77.50 %)", "print: nano: in ns");
	has(text, "40000 ns (100%)", "print: nano: the latency in ns");
	free(text);
	text = capture_print(&none, false);
	has(text, "(no event)", "print: an unknown part");
	has(text, "no event: interrupts or preemption off, SMI or hypervisor",
	    "print: the unaccounted cause");
	has(text, "25.00 us (100.00 %)", "print: all of it");
	free(text);
}

int main(void)
{
	test_idle();
	test_hog();
	test_irq_thread();
	test_interrupts();
	test_nmi();
	test_no_events();
	test_many_causes();
	test_thresholds();
	test_compact();
	test_queue_full();
	test_labels();
	test_output();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * sampler_attr - what explains each gap the spinners saw.
 *
 * Pure bookkeeping, no threads and no tracefs, so that the unit tests can
 * feed it made-up gaps and events. Per CPU the trace events wait in a queue
 * (ts order) until the period they fall in is complete. A gap is explained
 * by the events whose timestamps lie inside it; one without any is hardware
 * noise (SMI, hypervisor, SMT sibling, ...), or OS work that has no
 * tracepoint.
 *
 * The per-period counts follow the kernel tracer: IRQ, Softirq, Thread and
 * NMI count interference occurrences during the runtime (every irq or
 * vector entry, softirq entry, switch to another task, NMI), HW counts the
 * gaps that nothing explains. On PREEMPT_RT softirqs run inside threads and
 * the kernel counts them as thread noise only; so do we. In hwnoise mode only unexplained and
 * NMI-only gaps are noise, as if the spinner ran with interrupts disabled.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "osnoise/sampler.h"
#include "util.h"

#define CLASS_OS	((1u << SAMPLER_IRQ) | (1u << SAMPLER_SOFTIRQ) | (1u << SAMPLER_THREAD))

static const char *const class_names[SAMPLER_NR_CLASSES] = {
	[SAMPLER_HW] = "hw", [SAMPLER_NMI] = "nmi", [SAMPLER_IRQ] = "irq",
	[SAMPLER_SOFTIRQ] = "softirq", [SAMPLER_THREAD] = "thread",
};

const char *sampler_class_name(int class)
{
	return class >= 0 && class < SAMPLER_NR_CLASSES ? class_names[class] : "?";
}

int sampler_attr_init(struct sampler_attr *a, int nr_cpus, const cpu_set_t *cpus,
		  const struct sampler_clock *ck, const struct sampler_cfg *cfg)
{
	memset(a, 0, sizeof(*a));
	a->cfg = *cfg;
	a->clock = ck;
	a->nr_cpus = nr_cpus;
	a->cpu = calloc(nr_cpus, sizeof(*a->cpu));
	if (cfg->keep_trace)
		a->keep = calloc(SAMPLER_TRACE_KEEP, sizeof(*a->keep));
	if (!a->cpu || (cfg->keep_trace && !a->keep)) {
		sampler_attr_free(a);
		return -ENOMEM;
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		a->cpu[cpu].cpu = cpu;
		a->cpu[cpu].active = CPU_ISSET(cpu, cpus);
	}
	return 0;
}

void sampler_attr_free(struct sampler_attr *a)
{
	for (int cpu = 0; a->cpu && cpu < a->nr_cpus; cpu++) {
		free(a->cpu[cpu].ev);
		free(a->cpu[cpu].name);
	}
	free(a->cpu);
	free(a->keep);
	a->cpu = NULL;
	a->keep = NULL;
}

/*
 * Queue one event of CPU and its NAME (NULL: none); a full queue drops it
 * (counted, reported). The names are queued only when gaps are kept, for
 * the saved trace: the queue is most of the sampler's memory per CPU, and
 * a name would be 40 % of each event.
 */
int sampler_attr_push(struct sampler_attr *a, int cpu, const struct sampler_event *ev,
		      const char *name)
{
	struct sampler_attr_cpu *c;

	if (cpu < 0 || cpu >= a->nr_cpus || !a->cpu[cpu].active)
		return 0;
	c = &a->cpu[cpu];
	if (array_room(&c->ev, &c->cap, c->nev, sizeof(*c->ev), SAMPLER_EVQ_FIRST, SAMPLER_EVQ_MAX) ||
	    (a->keep && array_room(&c->name, &c->name_cap, c->nev, sizeof(*c->name),
				   SAMPLER_EVQ_FIRST, SAMPLER_EVQ_MAX))) {
		c->dropped++;
		return -ENOMEM;
	}
	if (a->keep)
		snprintf(c->name[c->nev], sizeof(*c->name), "%s", name ? name : "");
	c->ev[c->nev++] = *ev;
	return 0;
}

static bool is_entry(const struct sampler_event *e, pid_t spinner)
{
	switch (e->kind) {
	case SAMPLER_EV_IRQ:
	case SAMPLER_EV_VEC:
	case SAMPLER_EV_SOFTIRQ:
	case SAMPLER_EV_NMI:
		return true;
	case SAMPLER_EV_SWITCH:
		return e->arg != spinner;
	}
	return false;
}

/* Time covered by each class inside one gap, from entry/exit pairs. */
struct cover {
	unsigned mask;
	uint64_t time[SAMPLER_NR_CLASSES];
	uint64_t irq_at, vec_at, softirq_at, out_at;
};

static void cover_event(struct cover *cv, const struct sampler_event *e, pid_t spinner,
			const struct sampler_clock *ck)
{
	switch (e->kind) {
	case SAMPLER_EV_IRQ:
		cv->mask |= 1u << SAMPLER_IRQ;
		cv->irq_at = e->ts;
		break;
	case SAMPLER_EV_VEC:
		cv->mask |= 1u << SAMPLER_IRQ;
		cv->vec_at = e->ts;
		break;
	case SAMPLER_EV_IRQ_EXIT:
		if (cv->irq_at)
			cv->time[SAMPLER_IRQ] += e->ts - cv->irq_at;
		cv->irq_at = 0;
		break;
	case SAMPLER_EV_VEC_EXIT:
		if (cv->vec_at)
			cv->time[SAMPLER_IRQ] += e->ts - cv->vec_at;
		cv->vec_at = 0;
		break;
	case SAMPLER_EV_SOFTIRQ:
		cv->mask |= 1u << SAMPLER_SOFTIRQ;
		cv->softirq_at = e->ts;
		break;
	case SAMPLER_EV_SOFTIRQ_EXIT:
		if (cv->softirq_at)
			cv->time[SAMPLER_SOFTIRQ] += e->ts - cv->softirq_at;
		cv->softirq_at = 0;
		break;
	case SAMPLER_EV_NMI:
		cv->mask |= 1u << SAMPLER_NMI;
		cv->time[SAMPLER_NMI] += sampler_ns_to_ticks(ck, e->dur);
		break;
	case SAMPLER_EV_SWITCH:
		if (e->arg2 == spinner)
			cv->out_at = e->ts;
		cv->mask |= 1u << SAMPLER_THREAD;	/* someone else ran */
		if (e->arg == spinner && cv->out_at) {
			cv->time[SAMPLER_THREAD] += e->ts - cv->out_at;
			cv->out_at = 0;
		}
		break;
	}
}

/*
 * The class of a gap is the one that covered most of it: the first event
 * of a preemption is nearly always the tick that caused it, so "first
 * event" would call every thread noise IRQ noise.
 */
static int cover_class(const struct cover *cv)
{
	static const int order[] = { SAMPLER_THREAD, SAMPLER_SOFTIRQ, SAMPLER_IRQ, SAMPLER_NMI };
	int best = SAMPLER_HW;

	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		int k = order[i];

		if (!(cv->mask & (1u << k)))
			continue;
		if (best == SAMPLER_HW || cv->time[k] > cv->time[best])
			best = k;
	}
	return best;
}

static void keep_gap(struct sampler_attr *a, const struct sampler_attr_cpu *c,
		     const struct sampler_gap *g, int class, size_t first, size_t end)
{
	struct sampler_trace_rec *t;
	unsigned n = 0;

	if (!a->keep)
		return;
	t = &a->keep[a->nkeep++ % SAMPLER_TRACE_KEEP];
	t->start = g->start;
	t->len = g->len;
	t->cpu = c->cpu;
	t->class = class;
	for (size_t i = first; i < end; i++) {
		if (!is_entry(&c->ev[i], c->spinner))
			continue;
		if (n < SAMPLER_TRACE_REC_EV) {
			t->ev[n] = c->ev[i];
			memcpy(t->name[n], c->name[i], sizeof(t->name[n]));
		}
		n++;
	}
	t->nev = n > 255 ? 255 : n;
}

static bool counts_as_noise(const struct sampler_attr *a, unsigned mask)
{
	return !a->cfg.irq_disabled || !(mask & CLASS_OS);
}

static void stop_at(struct sampler_attr *a, int cpu, const char *reason, uint64_t ns, uint64_t at)
{
	a->stop.hit = true;
	a->stop.cpu = cpu;
	a->stop.reason = reason;
	a->stop.value_us = ns / 1000;
	a->stop.at = at;
}

/*
 * Classify one gap into the period in progress of CPU c. Returns the gap's
 * ns when it is noise of this run (every gap; with IRQs "disabled" only
 * those no OS event explains), 0 when it is not or comes after a stop.
 */
uint64_t sampler_attr_gap(struct sampler_attr *a, struct sampler_attr_cpu *c,
			  const struct sampler_gap *g)
{
	uint64_t end = g->start + g->len, ns;
	struct cover cv = { 0 };
	size_t i = c->cursor, first;
	int class;

	if (a->stop.hit && end > a->stop.at)
		return 0;
	while (i < c->nev && c->ev[i].ts < g->start)
		i++;
	for (first = i; i < c->nev && c->ev[i].ts <= end; i++)
		cover_event(&cv, &c->ev[i], c->spinner, a->clock);
	c->cursor = i;
	class = cover_class(&cv);

	c->st.gaps++;
	c->st.time += g->len;
	if (cv.mask) {
		uint64_t covered = 0;

		for (int k = 0; k < SAMPLER_NR_CLASSES; k++)
			covered += cv.time[k];
		c->st.explained++;
		c->st.explained_time += g->len;
		c->st.covered_time += covered < g->len ? covered : g->len;
	}
	if (!(cv.mask & CLASS_OS) && (cv.mask & (1u << SAMPLER_NMI))) {
		c->acc.nmi_sum += g->len;
		if (g->len > c->acc.nmi_max)
			c->acc.nmi_max = g->len;
	} else if (!cv.mask) {
		c->acc.hw++;
		c->acc.hw_sum += g->len;
		if (g->len > c->acc.hw_max)
			c->acc.hw_max = g->len;
	}
	keep_gap(a, c, g, class, first, i);

	ns = sampler_ticks_to_ns(a->clock, g->len);
	if (!counts_as_noise(a, cv.mask))
		return 0;
	if (a->cfg.stop_us && !a->stop.hit && ns > (uint64_t)a->cfg.stop_us * 1000)
		stop_at(a, c->cpu, "single", ns, end);
	return ns;
}

static uint64_t max3(uint64_t x, uint64_t y, uint64_t z)
{
	uint64_t m = x > y ? x : y;

	return m > z ? m : z;
}

/*
 * Close the period R of CPU c: its gaps have all gone through
 * sampler_attr_gap(). Fills OUT and returns true when the period counts
 * (false when a stop condition ended the measurement before it).
 */
/* An event's share of its period's counts, as the kernel counts interference. */
static void count_event(const struct sampler_attr *a, const struct sampler_attr_cpu *c,
			const struct sampler_event *e, struct sampler_acc *acc)
{
	switch (e->kind) {
	case SAMPLER_EV_IRQ:
	case SAMPLER_EV_VEC:
		acc->irq++;
		break;
	case SAMPLER_EV_SOFTIRQ:
		acc->softirq += !a->cfg.rt_kernel;
		break;
	case SAMPLER_EV_NMI:
		acc->nmi++;
		break;
	case SAMPLER_EV_SWITCH:
		acc->thread += e->arg != c->spinner;
		break;
	}
}

bool sampler_attr_period(struct sampler_attr *a, struct sampler_attr_cpu *c,
		     const struct sampler_period_rec *r, struct noise_period *out)
{
	const struct sampler_clock *ck = a->clock;
	struct sampler_acc acc = c->acc;
	size_t i;

	memset(&c->acc, 0, sizeof(c->acc));
	for (i = c->pdone; i < c->nev && c->ev[i].ts <= r->end; i++)
		if (c->ev[i].ts >= r->start)
			count_event(a, c, &c->ev[i], &acc);
	c->pdone = i;
	c->last_end = r->end;
	c->st.lost += r->lost;
	c->st.iters += r->iters;
	c->st.spin += r->end - r->start;
	c->st.noise += r->sum;
	if (a->stop.hit && r->end > a->stop.at)
		return false;

	memset(out, 0, sizeof(*out));
	out->cpu = c->cpu;
	out->runtime = sampler_ticks_to_ns(ck, r->end - r->start) / 1000;
	out->hw = acc.hw + r->lost;
	out->nmi = acc.nmi;
	if (!a->cfg.irq_disabled) {
		out->noise = sampler_ticks_to_ns(ck, r->sum) / 1000;
		out->max_sample = sampler_ticks_to_ns(ck, r->max) / 1000;
		out->irq = acc.irq;
		out->softirq = acc.softirq;
		out->thread = acc.thread;
	} else {
		out->noise = sampler_ticks_to_ns(ck, acc.hw_sum + acc.nmi_sum + r->lost_sum) / 1000;
		out->max_sample = sampler_ticks_to_ns(ck, max3(acc.hw_max, acc.nmi_max,
							   r->lost_max)) / 1000;
	}

	/* gaps the full ring lost are unexplained: they may still be the one -s waits for */
	if (a->cfg.stop_us && !a->stop.hit &&
	    sampler_ticks_to_ns(ck, r->lost_max) > (uint64_t)a->cfg.stop_us * 1000)
		stop_at(a, c->cpu, "single", sampler_ticks_to_ns(ck, r->lost_max), r->end);
	if (a->cfg.stop_total_us && !a->stop.hit && out->noise > (uint64_t)a->cfg.stop_total_us) {
		stop_at(a, c->cpu, "total", out->noise * 1000, r->end);
		a->stop.value_us = out->noise;
	}
	return true;
}

/*
 * Forget the events of finished periods. Of the period in progress, keep
 * the events a later gap may contain; when periods run back to back, those
 * behind every gap seen so far are the period's for sure (it began where
 * the last one ended; the first one's start is not known before its end):
 * counted now and let go, so the queue holds a drain's
 * events, not a period's (a second of them by default: 24 bytes an event,
 * tens of kB on a busy CPU). A queue a burst grew (rtla kept from running,
 * a storm of switches) gives its memory back once drains find it a quarter
 * full at most, a halving a drain, so that a long run's size is its steady
 * state's. Events are only queued between two drains: what the queue holds
 * now is the most it held since the last.
 */
void sampler_attr_compact(const struct sampler_attr *a, struct sampler_attr_cpu *c)
{
	size_t n = c->pdone, held = c->nev;

	if (a->cfg.back_to_back && c->last_end) {
		for (; n < c->cursor; n++)
			count_event(a, c, &c->ev[n], &c->acc);
	}
	if (n) {
		memmove(c->ev, c->ev + n, (c->nev - n) * sizeof(*c->ev));
		if (c->name)
			memmove(c->name, c->name + n, (c->nev - n) * sizeof(*c->name));
		c->nev -= n;
		c->cursor = c->cursor > n ? c->cursor - n : 0;
		c->pdone = 0;
	}
	array_shrink(&c->ev, &c->cap, held, sizeof(*c->ev), SAMPLER_EVQ_FIRST);
	if (c->name)
		array_shrink(&c->name, &c->name_cap, held, sizeof(*c->name), SAMPLER_EVQ_FIRST);
}

/* A new start (after the warm-up, or a stop and "continue"): nothing carries over. */
void sampler_attr_reset(struct sampler_attr *a)
{
	for (int cpu = 0; cpu < a->nr_cpus; cpu++) {
		struct sampler_attr_cpu *c = &a->cpu[cpu];

		c->nev = c->cursor = c->pdone = 0;
		c->last_end = 0;
		memset(&c->acc, 0, sizeof(c->acc));
	}
	memset(&a->stop, 0, sizeof(a->stop));
}

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

static const char *type_name(const struct sampler_attr *a, const struct sampler_event *e)
{
	return e->type < a->nr_types && a->type_names ? a->type_names[e->type] : "?";
}

static void print_event(const struct sampler_attr *a, FILE *f, const struct sampler_event *e,
			const char *name)
{
	switch (e->kind) {
	case SAMPLER_EV_IRQ:
		fprintf(f, " irq:%d(%.16s)", e->arg, name);
		break;
	case SAMPLER_EV_VEC:
		fprintf(f, " %s(%d)", type_name(a, e), e->arg);
		break;
	case SAMPLER_EV_SOFTIRQ:
		if (e->arg >= 0 && e->arg < (int)ARRAY_SIZE(softirq_names))
			fprintf(f, " softirq:%s", softirq_names[e->arg]);
		else
			fprintf(f, " softirq:%d", e->arg);
		break;
	case SAMPLER_EV_NMI:
		fprintf(f, " nmi(%u ns)", e->dur);
		break;
	case SAMPLER_EV_SWITCH:
		fprintf(f, " switch:%.16s[%d]", name, e->arg);
		break;
	}
}

static int by_start(const void *x, const void *y)
{
	const struct sampler_trace_rec *a = *(const struct sampler_trace_rec *const *)x;
	const struct sampler_trace_rec *b = *(const struct sampler_trace_rec *const *)y;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->cpu - b->cpu;
}

/*
 * The kept gaps in time order (they were kept CPU by CPU): time, cpu,
 * duration, class and the events that explain them.
 */
int sampler_attr_save(const struct sampler_attr *a, FILE *f)
{
	uint64_t n = !a->keep ? 0 : a->nkeep < SAMPLER_TRACE_KEEP ? a->nkeep : SAMPLER_TRACE_KEEP;
	const struct sampler_trace_rec **order = calloc(n ? n : 1, sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++)
		order[i] = &a->keep[(a->nkeep - n + i) % SAMPLER_TRACE_KEEP];
	qsort(order, n, sizeof(*order), by_start);
	fprintf(f, "#%19s %4s %12s %-8s %s\n", "TIME(s)", "CPU", "DURATION(ns)", "CLASS",
		"EVENTS INSIDE THE GAP");
	for (uint64_t i = 0; i < n; i++) {
		const struct sampler_trace_rec *t = order[i];
		uint64_t ns = sampler_ticks_to_raw_ns(a->clock, t->start);

		fprintf(f, "%10llu.%09llu %4d %12llu %-8s",
			(unsigned long long)(ns / 1000000000ull),
			(unsigned long long)(ns % 1000000000ull), t->cpu,
			(unsigned long long)sampler_ticks_to_ns(a->clock, t->len),
			sampler_class_name(t->class));
		for (unsigned k = 0; k < t->nev && k < SAMPLER_TRACE_REC_EV; k++)
			print_event(a, f, &t->ev[k], t->name[k]);
		if (t->nev > SAMPLER_TRACE_REC_EV)
			fprintf(f, " (+%d more)", t->nev - SAMPLER_TRACE_REC_EV);
		fputc('\n', f);
	}
	free(order);
	return ferror(f) ? -EIO : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

/*
 * One line per CPU: how much of the noise the OS events explain, and the
 * loop's resolution (the time spun without noise per iteration).
 */
void sampler_attr_summary(const struct sampler_attr *a, FILE *f, const char *prefix)
{
	for (int cpu = 0; cpu < a->nr_cpus; cpu++) {
		const struct sampler_attr_cpu *c = &a->cpu[cpu];
		const struct sampler_stats *s = &c->st;

		if (!c->active)
			continue;
		fprintf(f, "%scpu %d: %llu gaps, %.1f%% explained by OS events (%.1f%% of the noise "
			"time, %.1f%% inside handlers and other tasks), %llu lost, %.2f ns/iteration\n",
			prefix, cpu, (unsigned long long)s->gaps, pct(s->explained, s->gaps),
			pct(s->explained_time, s->time), pct(s->covered_time, s->time),
			(unsigned long long)s->lost,
			s->iters ?
			(double)sampler_ticks_to_ns(a->clock, s->spin - s->noise) / s->iters : 0.0);
	}
}

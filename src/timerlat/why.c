// SPDX-License-Identifier: GPL-2.0-only
/*
 * why - why a wake-up of timerlat's sampler backend was late.
 *
 * Each CPU's events are replayed in time order beside its sleeper's
 * wake-ups. Between the time a sleeper asked for (T) and the time it read
 * the clock (R) every nanosecond is charged to what the CPU was doing, as
 * the events say: an interrupt context (the innermost open one), an NMI
 * (its handler's length, taken back from what it interrupted), another
 * thread, the idle state, or the sleeper itself. Before the timer's own
 * hrtimer_expire_entry a thread that runs on kept the IRQ out (interrupts
 * off in it); after it, a thread that runs first delayed the wake-up. Time
 * no event accounts for is the remainder: interrupts or preemption off, an
 * SMI, or the hypervisor. The causes sum to the latency (a report keeps
 * the TLW_CAUSES largest).
 *
 * Nothing here reads tracefs: the unit tests replay made-up streams.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "timerlat/sampler.h"
#include "util.h"

#define EVQ_MAX		(1u << 20)	/* events queued per CPU between two drains */
#define LOG_MAX		4096		/* explained wake-ups kept for the saved trace */

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER",
	"RCU",
};

static const char *const cause_names[WHY_KINDS] = {
	[WHY_IDLE_EXIT] = "exit from idle",
	[WHY_IRQS_OFF] = "interrupts off in",
	[WHY_NMI] = "NMI",
	[WHY_IRQ] = "irq",
	[WHY_VECTOR] = "vector",
	[WHY_SOFTIRQ] = "softirq",
	[WHY_THREAD] = "thread",
	[WHY_OWN_IRQ] = "the timer's IRQ",
	[WHY_OWN_PATH] = "wake-up and return to user",
	[WHY_UNACCOUNTED] = "no event: interrupts or preemption off, SMI or hypervisor",
};

const char *tlw_cause_name(int kind)
{
	return kind >= 0 && kind < WHY_KINDS ? cause_names[kind] : "?";
}

int tlw_init(struct tlw *w, int nr_cpus)
{
	memset(w, 0, sizeof(*w));
	w->cpu = calloc(nr_cpus, sizeof(*w->cpu));
	if (!w->cpu)
		return -ENOMEM;
	w->nr_cpus = nr_cpus;
	for (int i = 0; i < nr_cpus; i++) {
		w->cpu[i].cpu = i;
		w->cpu[i].cur_pid = -1;
	}
	return 0;
}

void tlw_free(struct tlw *w)
{
	for (int i = 0; w->cpu && i < w->nr_cpus; i++)
		free(w->cpu[i].ev);
	free(w->cpu);
	free(w->log);
	memset(w, 0, sizeof(*w));
}

int tlw_push(struct tlw *w, int cpu, const struct tlw_event *ev)
{
	struct tlw_cpu *c;
	int ret;

	if (cpu < 0 || cpu >= w->nr_cpus || !w->cpu[cpu].tid)
		return 0;
	c = &w->cpu[cpu];
	ret = array_room(&c->ev, &c->cap, c->nev, sizeof(*c->ev), 4096, EVQ_MAX);
	if (ret) {
		c->dropped++;
		return ret;
	}
	c->ev[c->nev++] = *ev;
	return 0;
}

/* The counter of a named cause, added on first use (the last slot takes the rest). */
static uint64_t *named(struct tlw_cpu *c, int kind, int id, const char *name)
{
	struct tlw_cause_ns *n;

	for (int i = 0; i < c->nnamed; i++)
		if (c->named[i].kind == kind && c->named[i].id == id)
			return &c->named[i].ns;
	if (c->nnamed == (int)ARRAY_SIZE(c->named))
		return &c->named[c->nnamed - 1].ns;
	n = &c->named[c->nnamed++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->id = id;
	n->irq = -1;
	snprintf(n->name, sizeof(n->name), "%s", name);
	if (kind == WHY_THREAD && !strncmp(name, "irq/", 4))
		n->irq = atoi(name + 4);	/* PREEMPT_RT's irq/N-name threads */
	return &n->ns;
}

/* Where the time the CPU spends now goes, outside interrupt contexts. */
static uint64_t *task_counter(struct tlw_cpu *c, bool irq_seen, bool idle_at_start)
{
	if (!c->known)
		return &c->acc[WHY_UNACCOUNTED];
	if (c->cur_pid == c->tid)
		return &c->acc[WHY_OWN_PATH];
	if (c->cur_pid == 0) {
		if (irq_seen)
			return &c->acc[WHY_OWN_PATH];	/* the idle task switching to us */
		return c->in_idle || idle_at_start ? &c->acc[WHY_IDLE_EXIT]
						    : &c->acc[WHY_UNACCOUNTED];
	}
	return named(c, irq_seen ? WHY_THREAD : WHY_IRQS_OFF, c->cur_pid, c->cur_comm);
}

static uint64_t *counter(struct tlw_cpu *c)
{
	if (c->depth)
		return &c->frame[c->depth - 1].acc;
	return task_counter(c, c->cur.irq_latency != TLW_UNKNOWN, c->idle_at_start);
}

/* Charge [FROM, TO) to what the CPU does now, within the open window. */
static void account(struct tlw_cpu *c, uint64_t from, uint64_t to)
{
	if (!c->open)
		return;
	if (from < c->win_start)
		from = c->win_start;
	if (to > c->win_end)
		to = c->win_end;
	if (to > from)
		*counter(c) += to - from;
}

static void flush_frame(struct tlw_cpu *c, struct tlw_frame *f)
{
	static const int kind[] = { [TLW_IRQ] = WHY_IRQ, [TLW_VEC] = WHY_VECTOR,
				    [TLW_SOFTIRQ] = WHY_SOFTIRQ };

	if (!f->acc)
		return;
	if (f->own)
		c->acc[WHY_OWN_IRQ] += f->acc;
	else
		*named(c, kind[f->kind], f->id, f->name) += f->acc;
	f->acc = 0;
}

static void push_frame(struct tlw_cpu *c, const struct tlw_event *e, int kind)
{
	struct tlw_frame *f;

	if (c->depth == TLW_DEPTH)
		return;
	f = &c->frame[c->depth++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->id = e->arg;
	if (kind == TLW_SOFTIRQ)
		snprintf(f->name, sizeof(f->name), "%s", e->arg >= 0 &&
			 e->arg < (int)ARRAY_SIZE(softirq_names) ? softirq_names[e->arg] : "?");
	else
		snprintf(f->name, sizeof(f->name), "%s", e->name);
}

/* The innermost frame of KIND ends (an exit without its entry is ignored). */
static void pop_frame(struct tlw_cpu *c, int kind)
{
	for (int i = c->depth - 1; i >= 0; i--) {
		if (c->frame[i].kind != kind)
			continue;
		while (c->depth > i)
			flush_frame(c, &c->frame[--c->depth]);
		return;
	}
}

static void apply(struct tlw_cpu *c, const struct tlw_event *e)
{
	uint64_t *p, from, take;

	switch (e->kind) {
	case TLW_IRQ:
	case TLW_VEC:
	case TLW_SOFTIRQ:
		push_frame(c, e, e->kind);
		break;
	case TLW_IRQ_EXIT:
	case TLW_VEC_EXIT:
	case TLW_SOFTIRQ_EXIT:
		pop_frame(c, e->kind - 1);
		break;
	case TLW_NMI:
		/* it ran over [ts - its length, ts]: take that back from what it interrupted */
		if (!c->open)
			break;
		from = e->ts > e->val ? e->ts - e->val : 0;
		if (from < c->win_start)
			from = c->win_start;
		take = e->ts > from ? e->ts - from : 0;
		p = counter(c);
		if (take > *p)
			take = *p;
		*p -= take;
		c->acc[WHY_NMI] += take;
		break;
	case TLW_SWITCH:
		/* no interrupt context spans a switch (PREEMPT_RT's softirqs end in their thread) */
		while (c->depth)
			flush_frame(c, &c->frame[--c->depth]);
		c->known = true;
		c->cur_pid = e->arg;
		memcpy(c->cur_comm, e->name, sizeof(c->cur_comm));
		if (c->open && e->arg == c->tid && !c->switch_ts)
			c->switch_ts = e->ts;
		break;
	case TLW_WAKEUP:
		if (c->open && e->arg == c->tid && !c->wake_ts)
			c->wake_ts = e->ts;
		break;
	case TLW_IDLE:
		c->in_idle = e->arg != -1;
		break;
	case TLW_TIMER_START:
		if (e->arg2 == c->tid) {
			c->timer_ptr = e->ptr;
			c->timer_expires = e->val;
		}
		break;
	case TLW_TIMER_EXPIRE:
		if (!c->timer_ptr || e->ptr != c->timer_ptr)
			break;
		c->irq_expires = c->timer_expires;
		c->irq_now = e->val;
		c->irq_ts = e->ts;
		if (c->open && c->irq_expires == c->win_start) {
			c->cur.irq_latency = e->val > c->irq_expires ? e->val - c->irq_expires : 0;
			if (c->depth)
				c->frame[c->depth - 1].own = true;
		}
		break;
	}
}

/* Replay the CPU's events before UNTIL. */
static void advance(struct tlw_cpu *c, uint64_t until)
{
	while (c->pos < c->nev && c->ev[c->pos].ts < until) {
		const struct tlw_event *e = &c->ev[c->pos++];

		if (e->ts > c->last_ts) {
			account(c, c->last_ts, e->ts);
			c->last_ts = e->ts;
		}
		apply(c, e);
	}
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct tlw_cause_ns *x = a, *y = b;

	return x->ns < y->ns ? 1 : x->ns > y->ns ? -1 : x->kind - y->kind;
}

/* The window's counters into c->cur's cause list, largest first. */
static void finish(struct tlw_cpu *c)
{
	static const int fixed[] = { WHY_IDLE_EXIT, WHY_NMI, WHY_OWN_IRQ, WHY_OWN_PATH,
				     WHY_UNACCOUNTED };
	struct tlw_cause_ns all[ARRAY_SIZE(fixed) + ARRAY_SIZE(c->named)];
	int n = 0;

	for (int i = c->depth - 1; i >= 0; i--)
		flush_frame(c, &c->frame[i]);
	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++) {
		if (!c->acc[fixed[i]])
			continue;
		all[n] = (struct tlw_cause_ns){ .kind = fixed[i], .id = -1, .irq = -1,
						.ns = c->acc[fixed[i]] };
		n++;
	}
	for (int i = 0; i < c->nnamed; i++)
		if (c->named[i].ns)
			all[n++] = c->named[i];
	qsort(all, n, sizeof(all[0]), by_ns_desc);
	c->cur.ncauses = n < TLW_CAUSES ? n : TLW_CAUSES;
	memcpy(c->cur.cause, all, c->cur.ncauses * sizeof(all[0]));
}

/* The wake-up's causes into the run's sums, the same cause (kind and id) together. */
static void add_totals(struct tlw_cpu *c)
{
	for (int i = 0; i < c->cur.ncauses; i++) {
		const struct tlw_cause_ns *x = &c->cur.cause[i];
		int k;

		for (k = 0; k < c->ntotal; k++)
			if (c->total[k].kind == x->kind && c->total[k].id == x->id)
				break;
		if (k == c->ntotal && c->ntotal < TLW_TOTALS) {
			c->total[c->ntotal] = *x;
			c->total[c->ntotal++].ns = 0;
		} else if (k == c->ntotal) {
			k = TLW_TOTALS - 1;	/* full: the last takes the rest */
		}
		c->total[k].ns += x->ns;
		c->total_count[k]++;
	}
}

/* Keep Y among the CPU's worst wake-ups (the latest of equals). */
static void keep_worst(struct tlw_cpu *c, const struct tlw_why *y)
{
	int low = 0;

	if (c->nworst < TLW_WORST) {
		c->worst[c->nworst++] = *y;
		return;
	}
	for (int i = 1; i < c->nworst; i++)
		if (c->worst[i].latency < c->worst[low].latency)
			low = i;
	if (y->latency >= c->worst[low].latency)
		c->worst[low] = *y;
}

static void log_why(struct tlw *w, const struct tlw_why *y)
{
	if (w->nlog == w->log_cap) {
		size_t cap = w->log_cap ? w->log_cap * 2 : 64;
		struct tlw_why *l;

		if (cap > LOG_MAX) {
			/* the oldest half goes: the saved trace shows the latest */
			memmove(w->log, w->log + w->nlog / 2, (w->nlog - w->nlog / 2) * sizeof(*y));
			w->nlog -= w->nlog / 2;
		} else if ((l = realloc(w->log, cap * sizeof(*l)))) {
			w->log = l;
			w->log_cap = cap;
		} else {
			return;
		}
	}
	w->log[w->nlog++] = *y;
}

bool tlw_wake(struct tlw *w, int cpu, uint64_t seq, uint64_t target, uint64_t woke,
	      uint64_t *irq_ns, struct tlw_why *why)
{
	struct tlw_cpu *c = &w->cpu[cpu];
	bool late;

	advance(c, target);
	c->idle_at_start = c->known && c->cur_pid == 0 && c->in_idle;
	c->open = true;
	c->win_start = target;
	c->win_end = woke > target ? woke : target;
	c->wake_ts = c->switch_ts = 0;
	memset(c->acc, 0, sizeof(c->acc));
	c->nnamed = 0;
	c->cur = (struct tlw_why){
		.cpu = cpu,
		.seq = seq, .target = target, .latency = c->win_end - target,
		.irq_latency = TLW_UNKNOWN, .irq_to_wakeup = TLW_UNKNOWN,
		.wakeup_to_run = TLW_UNKNOWN, .run_to_user = TLW_UNKNOWN,
	};
	if (c->last_ts < target)
		c->last_ts = target;
	advance(c, c->win_end);
	account(c, c->last_ts, c->win_end);
	if (c->last_ts < c->win_end)
		c->last_ts = c->win_end;
	if (c->cur.irq_latency != TLW_UNKNOWN) {
		uint64_t e = c->irq_ts;

		if (c->wake_ts >= e)
			c->cur.irq_to_wakeup = c->wake_ts - e;
	}
	if (c->wake_ts && c->switch_ts >= c->wake_ts)
		c->cur.wakeup_to_run = c->switch_ts - c->wake_ts;
	if (c->switch_ts)
		c->cur.run_to_user = c->win_end - c->switch_ts;
	finish(c);
	c->open = false;

	*irq_ns = c->cur.irq_latency;
	keep_worst(c, &c->cur);
	late = (w->explain_ns && c->cur.latency >= w->explain_ns) ||
	       (w->explain_irq_ns && c->cur.irq_latency != TLW_UNKNOWN &&
		c->cur.irq_latency >= w->explain_irq_ns);
	if (late) {
		c->explained++;
		log_why(w, &c->cur);
	}
	c->wakeups++;
	c->latency_ns += c->cur.latency;
	add_totals(c);
	for (int i = 0; i < c->cur.ncauses; i++) {
		if (c->cur.cause[i].kind != WHY_UNACCOUNTED)
			continue;
		c->latency_unaccounted_ns += c->cur.cause[i].ns;
		if (late)
			c->unaccounted_ns += c->cur.cause[i].ns;
	}
	if (late)
		c->explained_ns += c->cur.latency;
	if (why)
		*why = c->cur;
	return late;
}

void tlw_compact(struct tlw *w)
{
	for (int i = 0; i < w->nr_cpus; i++) {
		struct tlw_cpu *c = &w->cpu[i];

		if (!c->pos)
			continue;
		memmove(c->ev, c->ev + c->pos, (c->nev - c->pos) * sizeof(*c->ev));
		c->nev -= c->pos;
		c->pos = 0;
	}
}

void tlw_reset(struct tlw *w)
{
	for (int i = 0; i < w->nr_cpus; i++) {
		struct tlw_cpu *c = &w->cpu[i];

		c->nworst = 0;
		c->explained = c->explained_ns = c->unaccounted_ns = 0;
		c->wakeups = c->latency_ns = c->latency_unaccounted_ns = 0;
		c->ntotal = 0;
		memset(c->total_count, 0, sizeof(c->total_count));
	}
	w->nlog = 0;
}

void tlw_cause_label(const struct tlw_cause_ns *c, char *buf, size_t len)
{
	switch (c->kind) {
	case WHY_IRQS_OFF:
		snprintf(buf, len, "interrupts off in %s:%d", c->name, c->id);
		break;
	case WHY_THREAD:
		if (c->irq >= 0)
			snprintf(buf, len, "thread %s:%d (irq %d)", c->name, c->id, c->irq);
		else
			snprintf(buf, len, "thread %s:%d", c->name, c->id);
		break;
	case WHY_IRQ:
		snprintf(buf, len, "irq %d (%s)", c->id, c->name);
		break;
	case WHY_VECTOR:
		snprintf(buf, len, "vector %s", c->name);
		break;
	case WHY_SOFTIRQ:
		snprintf(buf, len, "softirq %s", c->name);
		break;
	default:
		snprintf(buf, len, "%s", tlw_cause_name(c->kind));
	}
}

static void print_part(FILE *f, const char *what, uint64_t ns, uint64_t total, bool nano)
{
	if (ns == TLW_UNKNOWN) {
		fprintf(f, "  %-44s %12s\n", what, "(no event)");
		return;
	}
	if (nano)
		fprintf(f, "  %-44s %9llu ns (%.2f %%)\n", what, (unsigned long long)ns,
			total ? ns * 100.0 / total : 0);
	else
		fprintf(f, "  %-44s %9.2f us (%.2f %%)\n", what, ns / 1000.0,
			total ? ns * 100.0 / total : 0);
}

void tlw_why_print(FILE *f, const struct tlw_why *y, bool nano)
{
	char label[96];

	print_part(f, "IRQ latency (timer expiry to its handler):", y->irq_latency, y->latency,
		   nano);
	print_part(f, "IRQ to the thread's wake-up:", y->irq_to_wakeup, y->latency, nano);
	print_part(f, "Wake-up to running:", y->wakeup_to_run, y->latency, nano);
	print_part(f, "Running to the clock read in user space:", y->run_to_user, y->latency,
		   nano);
	fprintf(f, "  What the CPU did meanwhile:\n");
	for (int i = 0; i < y->ncauses; i++) {
		char what[110];

		tlw_cause_label(&y->cause[i], label, sizeof(label));
		snprintf(what, sizeof(what), "  %s", label);
		print_part(f, what, y->cause[i].ns, y->latency, nano);
	}
	fputs("------------------------------------------------------------------------\n", f);
	if (nano)
		fprintf(f, "  %-44s %9llu ns (100%%)\n", "Thread latency:",
			(unsigned long long)y->latency);
	else
		fprintf(f, "  %-44s %9.2f us (100%%)\n", "Thread latency:", y->latency / 1000.0);
}

static void json_ns(struct json *j, const char *key, uint64_t ns)
{
	if (ns == TLW_UNKNOWN)
		json_null(j, key);
	else
		json_u64(j, key, ns);
}

void tlw_why_json(struct json *j, const struct tlw_why *y)
{
	json_object_begin(j, NULL);
	json_i64(j, "cpu", y->cpu);
	json_u64(j, "seq", y->seq);
	json_u64(j, "latency_ns", y->latency);
	json_ns(j, "irq_latency_ns", y->irq_latency);
	json_ns(j, "irq_to_wakeup_ns", y->irq_to_wakeup);
	json_ns(j, "wakeup_to_run_ns", y->wakeup_to_run);
	json_ns(j, "run_to_user_ns", y->run_to_user);
	json_array_begin(j, "causes");
	for (int i = 0; i < y->ncauses; i++)
		tlw_cause_json(j, &y->cause[i], 0);
	json_array_end(j);
	json_object_end(j);
}

void tlw_cause_json(struct json *j, const struct tlw_cause_ns *c, uint64_t wakeups)
{
	static const char *const kinds[WHY_KINDS] = {
		"idle_exit", "irqs_off", "nmi", "irq", "vector", "softirq", "thread",
		"own_irq", "own_path", "unaccounted",
	};

	json_object_begin(j, NULL);
	json_str(j, "kind", kinds[c->kind]);
	if (c->kind == WHY_IRQ || c->kind == WHY_SOFTIRQ)
		json_i64(j, "id", c->id);
	if (c->kind == WHY_THREAD || c->kind == WHY_IRQS_OFF) {
		json_i64(j, "pid", c->id);
		if (c->irq >= 0)
			json_i64(j, "irq", c->irq);
	}
	if (c->name[0])
		json_str(j, "name", c->name);
	json_u64(j, "ns", c->ns);
	if (wakeups)
		json_u64(j, "wakeups", wakeups);
	json_object_end(j);
}

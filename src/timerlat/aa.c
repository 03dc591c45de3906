// SPDX-License-Identifier: GPL-2.0-only
/*
 * aa - the timerlat auto-analysis state machine and its report.
 *
 * Each CPU alternates between waiting for the timer IRQ (the thread's
 * sample came, the next period runs) and waiting for the thread (the IRQ's
 * sample came). Noise while waiting for the IRQ is the "previous IRQ" that
 * may have delayed the timer; the first irq_noise after the IRQ sample is
 * the timer IRQ itself, whose start gives the IRQ handler delay; every
 * later NMI, IRQ, softirq and thread is interference with the thread, and
 * the thread_noise of the task the IRQ interrupted is the blocking thread.
 *
 * The arithmetic is upstream's, including its integer types (the total is
 * an int, the timer's expected start an unsigned difference), so that the
 * same events print the same bytes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "timerlat/aa.h"
#include "util.h"

/* upstream's MAX_COMM: the kernel's comm fields are 16 bytes, 24 is the width printed */
#define AA_COMM 24
/* an IRQ name (irq_noise's desc) longer than this is cut */
#define AA_NAME 64
/* interference lines kept per kind and activation; the sums count every event */
#define AA_MAX_ITEMS 4096

enum aa_state {
	AA_INIT,		/* no sample of this CPU seen yet */
	AA_WAITING_IRQ,		/* the thread ran: what comes delays the next timer IRQ */
	AA_WAITING_THREAD,	/* the IRQ fired: what comes delays the thread */
};

/* One interference line: an IRQ (name:vector), softirq (name:vector), thread (comm:pid) or NMI. */
struct aa_item {
	char name[AA_NAME];
	uint64_t id;
	uint64_t duration;
};

struct aa_list {
	struct aa_item *v;
	size_t n, cap;
	uint64_t sum;
};

struct aa_cpu {
	enum aa_state state;

	uint64_t irq_seqnum, irq_latency, irq_ts;
	uint64_t thread_seqnum, thread_latency;

	/* the task the timer IRQ interrupted; its comm stays from the last time it was seen */
	uint64_t run_pid;
	char run_comm[AA_COMM + 1];
	uint64_t blocking_ns;
	uint64_t max_exit_idle_ns;

	/* the timer IRQ's own irq_noise */
	uint64_t timer_irq_start, timer_irq_delay, timer_irq_duration, exit_from_idle_ns;

	/* the last NMI or IRQ before the timer IRQ */
	uint64_t prev_irq_start, prev_irq_duration;

	struct aa_list nmi, irq, softirq, thread;

	/* the last kernel_stack event */
	bool has_stack, stack_unnamed;
	int nr_frames;
	uint64_t frame_addr[TIMERLAT_AA_MAX_FRAMES];
	char *frame_name[TIMERLAT_AA_MAX_FRAMES];

	/* --dump-tasks: the task switched in last, and the work a kworker started */
	char current_comm[AA_COMM + 1];
	uint64_t current_pid;
	uint64_t kworker, kworker_func;
	bool work_unnamed;
	char *work_name, *func_name;
};

struct timerlat_aa {
	int nr_cpus;
	bool dump_tasks;
	struct aa_cpu *cpu;
};

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
};

static double ns_to_us(uint64_t ns)
{
	return (double)ns / 1000;
}

/* PART's share of TOTAL, as upstream computes it (an integer product, then a division). */
static double percent(int total, uint64_t part)
{
	return (double)(part * 100) / (double)total;
}

static void copy_name(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

static char *dup_name(const char *name)
{
	return name ? strdup(name) : NULL;
}

struct timerlat_aa *timerlat_aa_new(int nr_cpus, bool dump_tasks)
{
	struct timerlat_aa *aa;

	if (nr_cpus <= 0) {
		errno = EINVAL;
		return NULL;
	}
	aa = calloc(1, sizeof(*aa));
	if (!aa)
		return NULL;
	aa->cpu = calloc(nr_cpus, sizeof(*aa->cpu));
	if (!aa->cpu) {
		free(aa);
		return NULL;
	}
	aa->nr_cpus = nr_cpus;
	aa->dump_tasks = dump_tasks;
	return aa;
}

static void clear_stack(struct aa_cpu *c)
{
	for (int i = 0; i < c->nr_frames; i++) {
		free(c->frame_name[i]);
		c->frame_name[i] = NULL;
	}
	c->nr_frames = 0;
}

static void clear_work(struct aa_cpu *c)
{
	free(c->work_name);
	free(c->func_name);
	c->work_name = c->func_name = NULL;
	c->kworker = c->kworker_func = 0;
	c->work_unnamed = false;
}

void timerlat_aa_free(struct timerlat_aa *aa)
{
	if (!aa)
		return;
	for (int i = 0; i < aa->nr_cpus; i++) {
		struct aa_cpu *c = &aa->cpu[i];

		clear_stack(c);
		clear_work(c);
		free(c->nmi.v);
		free(c->irq.v);
		free(c->softirq.v);
		free(c->thread.v);
	}
	free(aa->cpu);
	free(aa);
}

static struct aa_cpu *cpu_of(struct timerlat_aa *aa, int cpu)
{
	return aa && cpu >= 0 && cpu < aa->nr_cpus ? &aa->cpu[cpu] : NULL;
}

static void list_reset(struct aa_list *l)
{
	l->n = 0;
	l->sum = 0;
}

/* Count DURATION in L's sum and keep its line (while there is room). */
static void list_add(struct aa_list *l, const char *name, uint64_t id, uint64_t duration)
{
	l->sum += duration;
	if (array_room(&l->v, &l->cap, l->n, sizeof(*l->v), 8, AA_MAX_ITEMS))
		return;
	copy_name(l->v[l->n].name, AA_NAME, name);
	l->v[l->n].id = id;
	l->v[l->n].duration = duration;
	l->n++;
}

/* The IRQ's sample: a new activation starts, and the IRQ may have come out of idle. */
static void irq_sample(struct aa_cpu *c, uint64_t ts, int pid, uint64_t seqnum, uint64_t latency)
{
	c->state = AA_WAITING_THREAD;
	c->irq_ts = ts;
	c->irq_seqnum = seqnum;
	c->irq_latency = latency;
	c->run_pid = (uint32_t)pid;

	c->blocking_ns = 0;
	c->timer_irq_start = 0;
	c->timer_irq_duration = 0;
	c->exit_from_idle_ns = 0;
	list_reset(&c->nmi);
	list_reset(&c->irq);
	list_reset(&c->softirq);
	list_reset(&c->thread);

	/* from idle only: the idle task was interrupted, ... */
	if (c->run_pid)
		return;
	if (latency < c->max_exit_idle_ns)
		return;
	/* ... and no NMI or IRQ was still running when the timer was due */
	if (ts - latency < c->prev_irq_start + c->prev_irq_duration)
		return;
	c->max_exit_idle_ns = latency;
}

void timerlat_aa_timerlat(struct timerlat_aa *aa, int cpu, uint64_t ts, int pid,
			  uint64_t seqnum, int context, uint64_t latency_ns)
{
	struct aa_cpu *c = cpu_of(aa, cpu);

	if (!c)
		return;
	seqnum = (uint32_t)seqnum;	/* the field is an unsigned int */
	if (context == 0) {
		irq_sample(c, ts, pid, seqnum, latency_ns);
		return;
	}
	/* the thread's sample (and, for user threads, the return to user space) */
	c->state = AA_WAITING_IRQ;
	c->thread_seqnum = seqnum;
	c->thread_latency = latency_ns;
}

/* An NMI or IRQ before the timer IRQ: the one that may have delayed it. */
static void previous_irq(struct aa_cpu *c, uint64_t start, uint64_t duration)
{
	c->prev_irq_start = start;
	c->prev_irq_duration = duration;
}

void timerlat_aa_nmi(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration)
{
	struct aa_cpu *c = cpu_of(aa, cpu);

	if (!c)
		return;
	if (c->state == AA_WAITING_IRQ)
		previous_irq(c, start, duration);
	else
		list_add(&c->nmi, "nmi", 0, duration);
}

void timerlat_aa_irq(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
		     const char *desc, int vector)
{
	struct aa_cpu *c = cpu_of(aa, cpu);
	uint64_t expected;

	if (!c)
		return;
	if (c->state == AA_WAITING_IRQ) {
		previous_irq(c, start, duration);
		return;
	}
	if (c->timer_irq_start) {
		list_add(&c->irq, desc ? desc : "(null)", (uint32_t)vector, duration);
		return;
	}
	/* the first IRQ after the sample is the timer's own */
	expected = c->irq_ts - c->irq_latency;
	c->timer_irq_start = start;
	c->timer_irq_duration = duration;
	/*
	 * The sample's time and the event's timestamp are read at different
	 * moments: on a slow CPU the start can come out before the expected
	 * time. Upstream counts that as no delay.
	 */
	c->timer_irq_delay = expected < start ? start - expected : 0;
	if (c->run_pid)
		return;
	if (expected > c->prev_irq_start + c->prev_irq_duration)
		c->exit_from_idle_ns = c->timer_irq_delay;
}

void timerlat_aa_softirq(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
			 int vector)
{
	struct aa_cpu *c = cpu_of(aa, cpu);
	uint32_t v = vector;

	if (!c || c->state == AA_WAITING_IRQ)
		return;
	/* 6.12 indexes its table unchecked; 7.1 prints UNKNOWN */
	list_add(&c->softirq, v < sizeof(softirq_names) / sizeof(softirq_names[0]) ?
		 softirq_names[v] : "UNKNOWN", v, duration);
}

void timerlat_aa_thread(struct timerlat_aa *aa, int cpu, uint64_t start, uint64_t duration,
			const char *comm, int pid)
{
	struct aa_cpu *c = cpu_of(aa, cpu);
	uint64_t upid = (uint32_t)pid;

	if (!c || c->state == AA_WAITING_IRQ)
		return;
	if (upid == c->run_pid && !c->blocking_ns) {
		c->blocking_ns = duration;
		copy_name(c->run_comm, sizeof(c->run_comm), comm ? comm : "<...>");
		return;
	}
	list_add(&c->thread, comm ? comm : "(null)", upid, duration);
}

void timerlat_aa_stack(struct timerlat_aa *aa, int cpu, const uint64_t *addrs,
		       const char *const *names, int n)
{
	struct aa_cpu *c = cpu_of(aa, cpu);

	if (!c)
		return;
	clear_stack(c);
	c->has_stack = true;
	c->stack_unnamed = !names;
	if (n > TIMERLAT_AA_MAX_FRAMES)
		n = TIMERLAT_AA_MAX_FRAMES;
	for (int i = 0; i < n; i++) {
		c->frame_addr[i] = addrs[i];
		c->frame_name[i] = names ? dup_name(names[i]) : NULL;
	}
	c->nr_frames = n > 0 ? n : 0;
}

void timerlat_aa_switch(struct timerlat_aa *aa, int cpu, int next_pid, const char *next_comm)
{
	struct aa_cpu *c = cpu_of(aa, cpu);

	if (!c || !aa->dump_tasks)
		return;
	c->current_pid = (uint32_t)next_pid;
	copy_name(c->current_comm, sizeof(c->current_comm), next_comm);
	/* a new task: the work a kworker was doing is over */
	clear_work(c);
}

void timerlat_aa_work(struct timerlat_aa *aa, int cpu, uint64_t work, uint64_t function,
		      const char *work_name, const char *function_name)
{
	struct aa_cpu *c = cpu_of(aa, cpu);

	if (!c || !aa->dump_tasks)
		return;
	clear_work(c);
	c->kworker = work;
	c->kworker_func = function;
	c->work_name = dup_name(work_name);
	c->func_name = dup_name(function_name);
	c->work_unnamed = !work_name && !function_name;
}

void timerlat_aa_resolve(struct timerlat_aa *aa, timerlat_aa_lookup_fn lookup, void *ctx)
{
	for (int i = 0; aa && i < aa->nr_cpus; i++) {
		struct aa_cpu *c = &aa->cpu[i];

		if (c->stack_unnamed) {
			for (int f = 0; f < c->nr_frames; f++)
				c->frame_name[f] = dup_name(lookup(ctx, c->frame_addr[f]));
			c->stack_unnamed = false;
		}
		if (c->work_unnamed && c->kworker_func) {
			c->work_name = dup_name(lookup(ctx, c->kworker));
			c->func_name = dup_name(lookup(ctx, c->kworker_func));
		}
		c->work_unnamed = false;
	}
}

int timerlat_aa_cpu(const struct timerlat_aa *aa, int cpu, struct timerlat_aa_cpu_summary *s)
{
	const struct aa_cpu *c;

	if (!aa || cpu < 0 || cpu >= aa->nr_cpus)
		return -EINVAL;
	c = &aa->cpu[cpu];
	s->irq_case = c->irq_seqnum > c->thread_seqnum;
	s->irq_latency_ns = c->irq_latency;
	s->thread_latency_ns = c->thread_latency;
	s->max_exit_idle_ns = c->max_exit_idle_ns;
	return 0;
}

/* Did this CPU hit one of the stop conditions (in us; 0 is off)? */
static bool cpu_hit(const struct aa_cpu *c, long long irq_us, long long thread_us)
{
	if (irq_us && c->irq_latency >= (uint64_t)irq_us * 1000)
		return true;
	return thread_us && c->thread_latency >= (uint64_t)thread_us * 1000;
}

static bool irq_case(const struct aa_cpu *c)
{
	return c->irq_seqnum > c->thread_seqnum;
}

/* The latency the report explains; upstream keeps it in an int. */
static int total_of(const struct aa_cpu *c)
{
	return (int32_t)(uint32_t)(irq_case(c) ? c->irq_latency : c->thread_latency);
}

/* Did an NMI or IRQ before the timer IRQ overlap the time it was due? */
static bool previous_irq_overlaps(const struct aa_cpu *c)
{
	uint64_t expected = c->timer_irq_start - c->timer_irq_delay;

	return expected < c->prev_irq_start + c->prev_irq_duration &&
	       c->prev_irq_start < c->timer_irq_start;
}

/* The exit-from-idle mark: a delay of more than 10 us with the CPU idle. */
static bool from_idle(const struct aa_cpu *c)
{
	return ns_to_us(c->exit_from_idle_ns) > 10;
}

/* "%9.2f us (%.2f %)" after PAD spaces: the figure and its share of the total. */
static void print_share(FILE *f, int pad, uint64_t ns, int total)
{
	fprintf(f, "%*s%9.2f us (%.2f %%)\n", pad, "", ns_to_us(ns), percent(total, ns));
}

static void print_stack(FILE *f, const struct aa_cpu *c, enum timerlat_stack_format fmt)
{
	fputs("    Blocking thread stack trace\n", f);
	for (int i = 0; i < c->nr_frames; i++) {
		const char *name = c->frame_name[i];

		if (name) {
			fprintf(f, "%16s-> %s\n", "", name);
			continue;
		}
		if (fmt == STACK_TRUNCATE)
			break;
		if (fmt == STACK_FULL)
			fprintf(f, "%16s-> 0x%" PRIx64 "\n", "", c->frame_addr[i]);
	}
}

/* IRQ and softirq lines: name:vector; thread lines: comm:pid. */
static void print_items(FILE *f, const struct aa_list *l, int id_width, int pad)
{
	for (size_t i = 0; i < l->n; i++)
		fprintf(f, "  %24s:%-*" PRIu64 "%*s%9.2f us\n", l->v[i].name, id_width, l->v[i].id,
			pad, "", ns_to_us(l->v[i].duration));
}

static void print_cpu(FILE *f, const struct aa_cpu *c, enum timerlat_stack_format fmt)
{
	bool irq = irq_case(c);
	int total = total_of(c);

	if (previous_irq_overlaps(c))
		fprintf(f, "  Previous IRQ interference:%18sup to  %9.2f us\n", "",
			ns_to_us(c->prev_irq_duration));
	fprintf(f, "  IRQ handler delay:%18s%16s  %9.2f us (%.2f %%)\n", "",
		from_idle(c) ? "(exit from idle)" : "", ns_to_us(c->timer_irq_delay),
		percent(total, c->timer_irq_delay));
	fprintf(f, "  IRQ latency:%42s%9.2f us\n", "", ns_to_us(c->irq_latency));

	if (irq) {
		/* the stop came at the IRQ: nothing after it was traced */
		fputs("  Blocking thread:\n", f);
		fprintf(f, "%8s%24s:%-9" PRIu64 "\n", "", c->run_comm, c->run_pid);
	} else {
		fputs("  Timerlat IRQ duration:", f);
		print_share(f, 32, c->timer_irq_duration, total);
		/* thread_noise is net of the NMIs and IRQs inside it */
		fputs("  Blocking thread:", f);
		print_share(f, 38, c->blocking_ns, total);
		fprintf(f, "%8s%24s:%-9" PRIu64 "%14s%9.2f us\n", "", c->run_comm, c->run_pid, "",
			ns_to_us(c->blocking_ns));
	}
	if (c->has_stack)
		print_stack(f, c, fmt);

	/* NMIs can come inside the IRQ too: counted in both cases (their lines are never shown) */
	if (c->nmi.sum) {
		fputs("  NMI interference", f);
		print_share(f, 38, c->nmi.sum, total);
	}
	if (!irq) {
		if (c->irq.sum) {
			fputs("  IRQ interference", f);
			print_share(f, 38, c->irq.sum, total);
			print_items(f, &c->irq, 3, 26);
		}
		if (c->softirq.sum) {
			fputs("  Softirq interference", f);
			print_share(f, 34, c->softirq.sum, total);
			print_items(f, &c->softirq, 3, 26);
		}
		/* the timerlat thread was not the highest priority one */
		if (c->thread.sum) {
			fputs("  Thread interference", f);
			print_share(f, 35, c->thread.sum, total);
			print_items(f, &c->thread, 12, 17);
		}
	}
	fputs("------------------------------------------------------------------------\n", f);
	fprintf(f, "  %s latency:%39s%9.2f us (100%%)\n", irq ? "   IRQ" : "Thread", "",
		ns_to_us((uint64_t)(int64_t)total));
}

/* The CPU with the largest IRQ latency from idle (the first of equals); -1: none. */
static int max_exit_idle_cpu(const struct timerlat_aa *aa)
{
	uint64_t max = 0;
	int cpu = -1;

	for (int i = 0; i < aa->nr_cpus; i++) {
		if (aa->cpu[i].max_exit_idle_ns > max) {
			max = aa->cpu[i].max_exit_idle_ns;
			cpu = i;
		}
	}
	return cpu;
}

void timerlat_aa_print(const struct timerlat_aa *aa, FILE *f, long long irq_us,
		       long long thread_us, enum timerlat_stack_format fmt)
{
	int idle_cpu;

	if (!aa)
		return;
	for (int cpu = 0; cpu < aa->nr_cpus; cpu++) {
		if (!cpu_hit(&aa->cpu[cpu], irq_us, thread_us))
			continue;
		fprintf(f, "## CPU %d hit stop tracing, analyzing it ##\n", cpu);
		print_cpu(f, &aa->cpu[cpu], fmt);
	}
	idle_cpu = max_exit_idle_cpu(aa);
	if (idle_cpu >= 0)
		fprintf(f, "\nMax timerlat IRQ latency from idle: %.2f us in cpu %d\n",
			ns_to_us(aa->cpu[idle_cpu].max_exit_idle_ns), idle_cpu);
	if (!aa->dump_tasks)
		return;
	fputs("\nPrinting CPU tasks:\n", f);
	for (int cpu = 0; cpu < aa->nr_cpus; cpu++) {
		const struct aa_cpu *c = &aa->cpu[cpu];

		fprintf(f, "    [%.3d] %24s:%" PRIu64, cpu, c->current_comm, c->current_pid);
		/* an unnamed function prints as glibc prints a NULL %s, as upstream's does */
		if (c->kworker_func)
			fprintf(f, " kworker:%s:%s", c->work_name ? c->work_name : "<...>",
				c->func_name ? c->func_name : "(null)");
		fputc('\n', f);
	}
}

static void json_items(struct json *j, const char *key, const struct aa_list *l,
		       const char *name_key, const char *id_key)
{
	json_array_begin(j, key);
	for (size_t i = 0; i < l->n; i++) {
		json_object_begin(j, NULL);
		if (name_key) {
			json_str(j, name_key, l->v[i].name);
			json_u64(j, id_key, l->v[i].id);
		}
		json_u64(j, "duration_ns", l->v[i].duration);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_cpu(struct json *j, int cpu, const struct aa_cpu *c)
{
	bool irq = irq_case(c);
	char addr[32];

	json_object_begin(j, NULL);
	json_i64(j, "cpu", cpu);
	json_str(j, "case", irq ? "irq" : "thread");
	json_i64(j, "latency_ns", total_of(c));
	if (previous_irq_overlaps(c))
		json_u64(j, "previous_irq_interference_ns", c->prev_irq_duration);
	else
		json_null(j, "previous_irq_interference_ns");
	json_u64(j, "irq_handler_delay_ns", c->timer_irq_delay);
	json_bool(j, "exit_from_idle", from_idle(c));
	json_u64(j, "irq_latency_ns", c->irq_latency);
	if (!irq)
		json_u64(j, "timerlat_irq_duration_ns", c->timer_irq_duration);
	json_object_begin(j, "blocking_thread");
	json_str(j, "comm", c->run_comm);
	json_u64(j, "pid", c->run_pid);
	if (!irq)
		json_u64(j, "duration_ns", c->blocking_ns);
	json_object_end(j);
	if (c->has_stack) {
		json_array_begin(j, "stack");
		for (int i = 0; i < c->nr_frames; i++) {
			json_object_begin(j, NULL);
			snprintf(addr, sizeof(addr), "0x%" PRIx64, c->frame_addr[i]);
			json_str(j, "address", addr);
			json_str(j, "function", c->frame_name[i]);
			json_object_end(j);
		}
		json_array_end(j);
	} else {
		json_null(j, "stack");
	}
	json_u64(j, "nmi_interference_ns", c->nmi.sum);
	json_items(j, "nmi", &c->nmi, NULL, NULL);
	if (!irq) {
		json_u64(j, "irq_interference_ns", c->irq.sum);
		json_items(j, "irqs", &c->irq, "name", "vector");
		json_u64(j, "softirq_interference_ns", c->softirq.sum);
		json_items(j, "softirqs", &c->softirq, "name", "vector");
		json_u64(j, "thread_interference_ns", c->thread.sum);
		json_items(j, "threads", &c->thread, "comm", "pid");
	}
	json_object_end(j);
}

void timerlat_aa_json(const struct timerlat_aa *aa, struct json *j, long long irq_us,
		      long long thread_us)
{
	int idle_cpu;

	if (!aa)
		return;
	json_array_begin(j, "analysis");
	for (int cpu = 0; cpu < aa->nr_cpus; cpu++)
		if (cpu_hit(&aa->cpu[cpu], irq_us, thread_us))
			json_cpu(j, cpu, &aa->cpu[cpu]);
	json_array_end(j);

	idle_cpu = max_exit_idle_cpu(aa);
	if (idle_cpu >= 0) {
		json_object_begin(j, "max_irq_latency_from_idle");
		json_i64(j, "cpu", idle_cpu);
		json_u64(j, "latency_ns", aa->cpu[idle_cpu].max_exit_idle_ns);
		json_object_end(j);
	} else {
		json_null(j, "max_irq_latency_from_idle");
	}
	if (!aa->dump_tasks)
		return;
	json_array_begin(j, "cpu_tasks");
	for (int cpu = 0; cpu < aa->nr_cpus; cpu++) {
		const struct aa_cpu *c = &aa->cpu[cpu];

		json_object_begin(j, NULL);
		json_i64(j, "cpu", cpu);
		json_str(j, "comm", c->current_comm);
		json_u64(j, "pid", c->current_pid);
		if (c->kworker_func) {
			json_str(j, "kworker_work", c->work_name);
			json_str(j, "kworker_function", c->func_name);
		}
		json_object_end(j);
	}
	json_array_end(j);
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * aa_events - the auto-analysis fed from a tracefs instance: which events
 * it needs, their formats, and the drain after the stop.
 *
 * The fields are looked up once (timerlat_aa_reader_new) and read by
 * offset for every record: an AA buffer holds the last second or so of
 * every noise event of every CPU, tens of thousands of records.
 *
 * Kernel symbols are needed only to name the frames of a kernel_stack
 * event and the work of a kworker (--dump-tasks). /proc/kallsyms is several
 * MB (upstream's parser reads it at every start, 2-3 s under TCG); it is
 * read here only once the analysis holds an address to name.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "timerlat/aa.h"
#include "trace_events.h"

#define COMM_LEN 32

struct timerlat_aa_reader {
	struct tep_handle *tep;
	int kallsyms;			/* 0: not read yet; 1: read; -errno: could not be */

	struct tep_event *timerlat, *nmi, *irq, *softirq, *thread, *stack, *sched_switch, *work;
	struct tep_format_field *tl_seqnum, *tl_context, *tl_latency;
	struct tep_format_field *nmi_start, *nmi_duration;
	struct tep_format_field *irq_start, *irq_duration, *irq_desc, *irq_vector;
	struct tep_format_field *si_start, *si_duration, *si_vector;
	struct tep_format_field *th_start, *th_duration, *th_comm;
	struct tep_format_field *st_size, *st_caller;
	struct tep_format_field *sw_next_pid, *sw_next_comm;
	struct tep_format_field *wq_work, *wq_function;
};

/* Write "1" to events/SYSTEM[/EVENT]/enable of INST, without libtracefs' regex scan of every event. */
static int enable_event(struct tracefs_instance *inst, const char *system, const char *event)
{
	char file[256];

	snprintf(file, sizeof(file), "events/%s%s%s/enable", system, event ? "/" : "",
		 event ? event : "");
	return tracefs_instance_file_write(inst, file, "1") < 0 ? -ENOENT : 0;
}

int timerlat_aa_enable_events(struct tracefs_instance *inst, bool dump_tasks)
{
	int ret;

	/* ftrace:timerlat and ftrace:kernel_stack are the tracer's own records: always there */
	if ((ret = enable_event(inst, "osnoise", NULL)))
		return ret;
	if (!dump_tasks)
		return 0;
	if ((ret = enable_event(inst, "sched", "sched_switch")))
		return ret;
	return enable_event(inst, "workqueue", "workqueue_execute_start");
}

/* Parse SYSTEM:EVENT's format unless TEP has it already. */
static int add_event(struct tep_handle *tep, const char *system, const char *event)
{
	if (tep_find_event_by_name(tep, system, event))
		return 0;
	return trace_events_add(tep, system, event);
}

int timerlat_aa_load_events(struct tep_handle *tep, bool dump_tasks)
{
	static const char *const noise[] = { "nmi_noise", "irq_noise", "softirq_noise", "thread_noise" };
	int ret = add_event(tep, "ftrace", "timerlat");

	if (ret)
		return ret;
	/* without CONFIG_STACKTRACE there is no stack to show: not an error */
	add_event(tep, "ftrace", "kernel_stack");
	for (size_t i = 0; i < sizeof(noise) / sizeof(noise[0]); i++)
		if ((ret = add_event(tep, "osnoise", noise[i])))
			return ret;
	if (!dump_tasks)
		return 0;
	if ((ret = add_event(tep, "sched", "sched_switch")))
		return ret;
	return add_event(tep, "workqueue", "workqueue_execute_start");
}

/* EVENT's field NAME, and NULL for all of them when one is missing (the event is then ignored). */
static struct tep_event *find_fields(struct tep_handle *tep, const char *system, const char *name,
				     int n, ...)
{
	struct tep_event *event = tep_find_event_by_name(tep, system, name);
	struct tep_format_field **out[8];
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		const char *field = va_arg(ap, const char *);

		out[i] = va_arg(ap, struct tep_format_field **);
		*out[i] = event ? tep_find_field(event, field) : NULL;
		if (!*out[i])
			event = NULL;
	}
	va_end(ap);
	if (!event)
		for (i = 0; i < n; i++)
			*out[i] = NULL;
	return event;
}

struct timerlat_aa_reader *timerlat_aa_reader_new(struct tep_handle *tep)
{
	struct timerlat_aa_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->tep = tep;
	r->timerlat = find_fields(tep, "ftrace", "timerlat", 3, "seqnum", &r->tl_seqnum,
				  "context", &r->tl_context, "timer_latency", &r->tl_latency);
	if (!r->timerlat) {
		free(r);
		errno = ENOENT;
		return NULL;
	}
	r->nmi = find_fields(tep, "osnoise", "nmi_noise", 2, "start", &r->nmi_start,
			     "duration", &r->nmi_duration);
	r->irq = find_fields(tep, "osnoise", "irq_noise", 4, "start", &r->irq_start,
			     "duration", &r->irq_duration, "desc", &r->irq_desc, "vector", &r->irq_vector);
	r->softirq = find_fields(tep, "osnoise", "softirq_noise", 3, "start", &r->si_start,
				 "duration", &r->si_duration, "vector", &r->si_vector);
	r->thread = find_fields(tep, "osnoise", "thread_noise", 3, "start", &r->th_start,
				"duration", &r->th_duration, "comm", &r->th_comm);
	r->stack = find_fields(tep, "ftrace", "kernel_stack", 2, "size", &r->st_size,
			       "caller", &r->st_caller);
	r->sched_switch = find_fields(tep, "sched", "sched_switch", 2, "next_pid", &r->sw_next_pid,
				      "next_comm", &r->sw_next_comm);
	r->work = find_fields(tep, "workqueue", "workqueue_execute_start", 2, "work", &r->wq_work,
			      "function", &r->wq_function);
	return r;
}

void timerlat_aa_reader_free(struct timerlat_aa_reader *r)
{
	free(r);
}

static uint64_t number(const struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field((struct tep_format_field *)f, rec->data, &v);
	return v;
}

/* A string field (a char array or a __data_loc/__rel_loc string) into BUF; NULL when it is out of the record. */
static const char *string(struct tep_handle *tep, const struct tep_format_field *f,
			  const struct tep_record *rec, char *buf, size_t size)
{
	const char *data = rec->data;
	unsigned int off = f->offset, len = f->size;
	size_t n;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned long long loc = tep_read_number(tep, data + f->offset, f->size);

		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off > (unsigned int)rec->size || len > (unsigned int)rec->size - off)
		return NULL;
	n = strnlen(data + off, len);
	if (n >= size)
		n = size - 1;
	memcpy(buf, data + off, n);
	buf[n] = '\0';
	return buf;
}

static void feed_stack(struct timerlat_aa_reader *r, struct timerlat_aa *aa,
		       const struct tep_record *rec)
{
	uint64_t addrs[TIMERLAT_AA_MAX_FRAMES];
	int word = tep_get_long_size(r->tep);
	long long room = (rec->size - r->st_caller->offset) / word;
	long long n = (long long)(int32_t)number(r->st_size, rec);

	/* the format says caller[8]; the record holds SIZE entries (7.1 reads at most 64) */
	if (n > room)
		n = room;
	if (n > TIMERLAT_AA_MAX_FRAMES)
		n = TIMERLAT_AA_MAX_FRAMES;
	for (int i = 0; i < n; i++)
		addrs[i] = tep_read_number(r->tep, (char *)rec->data + r->st_caller->offset + i * word,
					   word);
	timerlat_aa_stack(aa, rec->cpu, addrs, NULL, n > 0 ? n : 0);
}

int timerlat_aa_reader_feed(struct timerlat_aa_reader *r, struct timerlat_aa *aa,
			    struct tep_event *event, struct tep_record *rec)
{
	char name[COMM_LEN + 32];
	int cpu = rec->cpu;

	if (!event)
		return 0;
	if (event == r->timerlat)
		timerlat_aa_timerlat(aa, cpu, rec->ts, tep_data_pid(r->tep, rec),
				     number(r->tl_seqnum, rec), (int)number(r->tl_context, rec),
				     number(r->tl_latency, rec));
	else if (event == r->nmi)
		timerlat_aa_nmi(aa, cpu, number(r->nmi_start, rec), number(r->nmi_duration, rec));
	else if (event == r->irq)
		timerlat_aa_irq(aa, cpu, number(r->irq_start, rec), number(r->irq_duration, rec),
				string(r->tep, r->irq_desc, rec, name, sizeof(name)),
				(int)number(r->irq_vector, rec));
	else if (event == r->softirq)
		timerlat_aa_softirq(aa, cpu, number(r->si_start, rec), number(r->si_duration, rec),
				    (int)number(r->si_vector, rec));
	else if (event == r->thread)
		timerlat_aa_thread(aa, cpu, number(r->th_start, rec), number(r->th_duration, rec),
				   string(r->tep, r->th_comm, rec, name, sizeof(name)),
				   tep_data_pid(r->tep, rec));
	else if (event == r->stack)
		feed_stack(r, aa, rec);
	else if (event == r->sched_switch)
		timerlat_aa_switch(aa, cpu, (int)number(r->sw_next_pid, rec),
				   string(r->tep, r->sw_next_comm, rec, name, sizeof(name)));
	else if (event == r->work)
		timerlat_aa_work(aa, cpu, number(r->wq_work, rec), number(r->wq_function, rec),
				 NULL, NULL);
	else
		return 0;
	return 1;
}

/* /proc/kallsyms whole, NUL-terminated; NULL with errno set. */
static char *read_kallsyms(void)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap), *more;
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
		len += n;
		if (cap - len > 1)
			continue;
		more = realloc(buf, cap * 2);
		if (!more) {
			free(buf);
			close(fd);
			return NULL;
		}
		buf = more;
		cap *= 2;
	}
	close(fd);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* The function that ADDR is in, read from kallsyms on the first call. */
static const char *lookup_symbol(void *ctx, uint64_t addr)
{
	struct timerlat_aa_reader *r = ctx;

	/*
	 * No lookup before the symbols are in: libtraceevent builds its
	 * function map on the first lookup and never again, so symbols added
	 * after it are not found, and tep_free() then walks past the map.
	 */
	if (!r->kallsyms) {
		char *text = read_kallsyms();

		r->kallsyms = text && !tep_parse_kallsyms(r->tep, text) ? 1 : -(errno ? errno : EIO);
		free(text);
	}
	return r->kallsyms > 0 ? tep_find_function(r->tep, addr) : NULL;
}

int timerlat_aa_reader_resolve(struct timerlat_aa_reader *r, struct timerlat_aa *aa)
{
	timerlat_aa_resolve(aa, lookup_symbol, r);
	return r->kallsyms < 0 ? r->kallsyms : 0;
}

struct drain {
	struct timerlat_aa_reader *reader;
	struct timerlat_aa *aa;
	int records;
};

static int on_record(struct tep_event *event, struct tep_record *rec, int cpu, void *ctx)
{
	struct drain *d = ctx;

	d->records++;
	timerlat_aa_reader_feed(d->reader, d->aa, event, rec);
	return 0;
}

int timerlat_aa_collect(struct timerlat_aa *aa, struct tep_handle *tep,
			struct tracefs_instance *inst)
{
	struct drain d = { .aa = aa };
	int ret;

	d.reader = timerlat_aa_reader_new(tep);
	if (!d.reader)
		return -errno;
	ret = tracefs_iterate_raw_events(tep, inst, NULL, 0, on_record, &d);
	/* a stack or kworker that cannot be named prints as upstream's does without kallsyms */
	timerlat_aa_reader_resolve(d.reader, aa);
	timerlat_aa_reader_free(d.reader);
	return ret < 0 ? -EIO : d.records;
}

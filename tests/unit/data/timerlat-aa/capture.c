// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture - record a timerlat auto-analysis fixture in the test VM, beside
 * upstream rtla (the peer) run on the same kernel at the same time.
 *
 *   capture [-d] [-i US] [-T US] [-w SECONDS]
 *   capture -b MS           spin MS ms at SCHED_FIFO 99 on CPU 0
 *
 * -n: no peer; the osnoise/ stop conditions are set by the caller.
 *
 * Joins the running timerlat tracer with an instance of its own that holds
 * the events the peer's AA instance holds (the kernel stops every timerlat
 * instance at once), waits for the stop, and writes on stdout the events
 * in the fixture format (README) and then, after a line "#== report",
 * our analysis of them with -i/-T as given, so that the glue that reads
 * the instance (aa_events.c) is checked against the peer too.
 *
 * Built and run by capture.sh; not part of the build.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "timerlat/aa.h"
#include "trace_events.h"

struct capture {
	struct tep_handle *tep;
	struct timerlat_aa_reader *reader;
	struct timerlat_aa *aa;
	long records;
};

static unsigned long long field(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	unsigned long long v = 0;

	tep_get_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

static const char *text(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	int len;
	const char *s = tep_get_field_raw(NULL, ev, name, rec, &len, 0);

	return s ? s : "";
}

/* One fixture line for the events the analysis reads; others are skipped. */
static void write_event(struct capture *c, struct tep_event *ev, struct tep_record *rec)
{
	const char *sys = ev->system, *name = ev->name;

	printf("%d %llu %d ", rec->cpu, rec->ts, tep_data_pid(c->tep, rec));
	if (!strcmp(sys, "ftrace") && !strcmp(name, "timerlat")) {
		printf("timerlat seqnum=%llu context=%lld latency=%llu\n", field(ev, rec, "seqnum"),
		       (long long)(int)field(ev, rec, "context"), field(ev, rec, "timer_latency"));
	} else if (!strcmp(name, "nmi_noise")) {
		printf("nmi start=%llu duration=%llu\n", field(ev, rec, "start"),
		       field(ev, rec, "duration"));
	} else if (!strcmp(name, "irq_noise")) {
		printf("irq start=%llu duration=%llu vector=%d desc=\"%s\"\n", field(ev, rec, "start"),
		       field(ev, rec, "duration"), (int)field(ev, rec, "vector"),
		       text(ev, rec, "desc"));
	} else if (!strcmp(name, "softirq_noise")) {
		printf("softirq start=%llu duration=%llu vector=%d\n", field(ev, rec, "start"),
		       field(ev, rec, "duration"), (int)field(ev, rec, "vector"));
	} else if (!strcmp(name, "thread_noise")) {
		printf("thread start=%llu duration=%llu comm=\"%.16s\"\n", field(ev, rec, "start"),
		       field(ev, rec, "duration"), text(ev, rec, "comm"));
	} else if (!strcmp(name, "kernel_stack")) {
		struct tep_format_field *f = tep_find_field(ev, "caller");
		int n = (int)field(ev, rec, "size"), room = (rec->size - f->offset) / 8;

		printf("stack size=%d", n);
		for (int i = 0; i < n && i < room && i < TIMERLAT_AA_MAX_FRAMES; i++) {
			uint64_t addr = tep_read_number(c->tep, (char *)rec->data + f->offset + i * 8, 8);
			const char *fn = tep_find_function(c->tep, addr);

			printf(" 0x%" PRIx64 "=%s", addr, fn ? fn : "?");
		}
		putchar('\n');
	} else if (!strcmp(name, "sched_switch")) {
		printf("switch next_pid=%d next_comm=\"%.16s\"\n", (int)field(ev, rec, "next_pid"),
		       text(ev, rec, "next_comm"));
	} else if (!strcmp(name, "workqueue_execute_start")) {
		unsigned long long work = field(ev, rec, "work"), fn = field(ev, rec, "function");
		const char *wn = tep_find_function(c->tep, work), *fnn = tep_find_function(c->tep, fn);

		printf("work work=0x%llx function=0x%llx work_name=%s function_name=%s\n", work, fn,
		       wn ? wn : "?", fnn ? fnn : "?");
	} else {
		printf("other %s:%s\n", sys, name);
	}
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	struct capture *c = ctx;

	c->records++;
	if (!ev)
		return 0;
	write_event(c, ev, rec);
	timerlat_aa_reader_feed(c->reader, c->aa, ev, rec);
	return 0;
}

/* A task that the timerlat thread (FIFO 95) cannot preempt: thread latency on demand. */
static int hog(int ms)
{
	struct sched_param sp = { .sched_priority = 99 };
	struct timespec now, end;
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus) || sched_setscheduler(0, SCHED_FIFO, &sp))
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_nsec += (long)ms * 1000000;
	end.tv_sec += end.tv_nsec / 1000000000;
	end.tv_nsec %= 1000000000;
	do
		clock_gettime(CLOCK_MONOTONIC, &now);
	while (now.tv_sec < end.tv_sec || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 1 << 22;
	char *buf = malloc(cap);
	size_t n;

	if (!f || !buf)
		exit(2);
	while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2)
			buf = realloc(buf, cap *= 2);
	}
	buf[len] = 0;
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	long long irq_us = 0, thread_us = 0;
	int wait_s = 60, opt, nr_cpus = sysconf(_SC_NPROCESSORS_CONF);
	bool dump_tasks = false, with_peer = true;
	struct capture c = { 0 };
	struct tracefs_instance *inst;
	int on_fd, peer_fd = -1;
	char *path, c1 = 0;
	char *kallsyms;
	time_t until;

	while ((opt = getopt(argc, argv, "b:di:nT:w:")) != -1) {
		switch (opt) {
		case 'b': return hog(atoi(optarg));
		case 'd': dump_tasks = true; break;
		case 'n': with_peer = false; break;
		case 'i': irq_us = atoll(optarg); break;
		case 'T': thread_us = atoll(optarg); break;
		case 'w': wait_s = atoi(optarg); break;
		default: return 2;
		}
	}
	inst = tracefs_instance_create("aa_capture");
	if (!inst || tracefs_instance_file_write(inst, "tracing_on", "0") < 0 ||
	    tracefs_instance_file_write(inst, "current_tracer", "timerlat") < 0 ||
	    timerlat_aa_enable_events(inst, dump_tasks)) {
		fprintf(stderr, "capture: cannot set up the instance: %s\n", strerror(errno));
		return 2;
	}
	fprintf(stderr, "capture: ready\n");
	until = time(NULL) + wait_s;
	/*
	 * Registered before the peer, tracing off; on when the peer's AA
	 * instance goes on. From then both hold the same events and the kernel
	 * stops both at once. A stop while the peer sets up (its instances
	 * still off) is ignored by the peer, and so by us.
	 */
	path = tracefs_instance_get_file(inst, "tracing_on");
	on_fd = open(path, O_WRONLY);
	while (with_peer && peer_fd < 0 && time(NULL) < until) {
		path = tracefs_instance_get_file(tracefs_instance_alloc(NULL, "timerlat_aa"), "tracing_on");
		peer_fd = open(path, O_RDONLY);
		usleep(1000);
	}
	while (with_peer && time(NULL) < until && pread(peer_fd, &c1, 1, 0) == 1 && c1 != '1')
		;
	if (write(on_fd, "1", 1) != 1)
		return 2;
	fprintf(stderr, "capture: joined\n");
	while (tracefs_trace_is_on(inst) == 1 && time(NULL) < until)
		usleep(20000);
	if (tracefs_trace_is_on(inst) == 1)
		fprintf(stderr, "capture: no stop within %d s\n", wait_s);
	tracefs_instance_file_write(inst, "tracing_on", "0");

	c.tep = trace_events_new(nr_cpus);
	if (!c.tep || timerlat_aa_load_events(c.tep, dump_tasks))
		return 2;
	kallsyms = slurp("/proc/kallsyms");
	tep_parse_kallsyms(c.tep, kallsyms);
	free(kallsyms);
	c.reader = timerlat_aa_reader_new(c.tep);
	c.aa = timerlat_aa_new(nr_cpus, dump_tasks);
	printf("# nr_cpus=%d dump_tasks=%d irq_us=%lld thread_us=%lld\n", nr_cpus, dump_tasks,
	       irq_us, thread_us);
	tracefs_iterate_raw_events(c.tep, inst, NULL, 0, on_record, &c);
	timerlat_aa_reader_resolve(c.reader, c.aa);
	printf("#== report\n");
	timerlat_aa_print(c.aa, stdout, irq_us, thread_us, STACK_TRUNCATE);
	fprintf(stderr, "capture: %ld records\n", c.records);

	tracefs_instance_file_write(inst, "current_tracer", "nop");
	tracefs_instance_destroy(inst);
	tracefs_instance_free(inst);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the timerlat auto-analysis (src/timerlat/aa.c): event
 * streams replayed from tests/unit/data/timerlat-aa/ (their README says
 * which were recorded in the 6.12 VM and which rebuild a report upstream
 * rtla printed there), compared byte for byte with the expected report;
 * figures checked against values computed here from the events; the three
 * --stack-format modes; names resolved after the drain; the JSON record.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json.h"
#include "tap.h"
#include "timerlat/aa.h"

#define DATA "tests/unit/data/timerlat-aa/"
#define MAX_EVENTS 4096

/* One fixture line: CPU TS PID EVENT key=value... (README). */
struct event {
	int cpu, pid;
	uint64_t ts;
	char name[16];
	char line[2048];	/* the key=value part */
};

struct stream {
	int nr_cpus;
	bool dump_tasks;
	int n;
	struct event *ev;
};

static void stream_free(struct stream *s)
{
	free(s->ev);
}

/* Read DATA/NAME.events; false (with a diagnostic) when it cannot be. */
static bool stream_load(struct stream *s, const char *name)
{
	char path[256], line[2048];
	FILE *f;

	memset(s, 0, sizeof(*s));
	s->nr_cpus = 2;
	s->ev = calloc(MAX_EVENTS, sizeof(*s->ev));
	snprintf(path, sizeof(path), DATA "%s.events", name);
	f = fopen(path, "r");
	if (!f || !s->ev) {
		printf("# cannot read %s: %s\n", path, strerror(errno));
		return false;
	}
	while (fgets(line, sizeof(line), f) && s->n < MAX_EVENTS) {
		struct event *e = &s->ev[s->n];
		int off = 0;
		char *p;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#') {
			if ((p = strstr(line, "nr_cpus=")))
				s->nr_cpus = atoi(p + 8);
			if ((p = strstr(line, "dump_tasks=")))
				s->dump_tasks = atoi(p + 11);
			continue;
		}
		if (sscanf(line, "%d %" SCNu64 " %d %15s %n", &e->cpu, &e->ts, &e->pid, e->name, &off) < 4)
			continue;
		snprintf(e->line, sizeof(e->line), "%s", line + off);
		s->n++;
	}
	fclose(f);
	return true;
}

/* The value of KEY= in LINE (quotes removed) into BUF; NULL when absent. */
static const char *value(const char *line, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key), n;
	const char *p = line, *end;

	while ((p = strstr(p, key))) {
		if ((p == line || p[-1] == ' ') && p[klen] == '=')
			break;
		p += klen;
	}
	if (!p)
		return NULL;
	p += klen + 1;
	if (*p == '"') {
		end = strchr(++p, '"');
		if (!end)
			return NULL;
	} else {
		end = p + strcspn(p, " ");
	}
	n = (size_t)(end - p) < size - 1 ? (size_t)(end - p) : size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

static uint64_t num(const struct event *e, const char *key)
{
	char buf[64];

	return value(e->line, key, buf, sizeof(buf)) ? strtoull(buf, NULL, 0) : 0;
}

/* A kernel_stack line's frames: "0xADDR=name" tokens, "?" for no symbol. */
static int frames(const struct event *e, uint64_t *addrs, char names[][64], int max)
{
	const char *p = e->line;
	int n = 0;

	while ((p = strstr(p, " 0x")) && n < max) {
		char tok[128];

		sscanf(p + 1, "%127s", tok);
		addrs[n] = strtoull(tok, NULL, 16);
		snprintf(names[n], 64, "%s", strchr(tok, '=') ? strchr(tok, '=') + 1 : "?");
		n++;
		p++;
	}
	return n;
}

/* Feed S to AA; WITH_NAMES false feeds the stacks without names (to be resolved). */
static void replay(struct timerlat_aa *aa, const struct stream *s, bool with_names)
{
	for (int i = 0; i < s->n; i++) {
		const struct event *e = &s->ev[i];
		char a[64], b[64];

		if (!strcmp(e->name, "timerlat")) {
			timerlat_aa_timerlat(aa, e->cpu, e->ts, e->pid, num(e, "seqnum"),
					     (int)num(e, "context"), num(e, "latency"));
		} else if (!strcmp(e->name, "nmi")) {
			timerlat_aa_nmi(aa, e->cpu, num(e, "start"), num(e, "duration"));
		} else if (!strcmp(e->name, "irq")) {
			timerlat_aa_irq(aa, e->cpu, num(e, "start"), num(e, "duration"),
					value(e->line, "desc", a, sizeof(a)), (int)num(e, "vector"));
		} else if (!strcmp(e->name, "softirq")) {
			timerlat_aa_softirq(aa, e->cpu, num(e, "start"), num(e, "duration"),
					    (int)num(e, "vector"));
		} else if (!strcmp(e->name, "thread")) {
			timerlat_aa_thread(aa, e->cpu, num(e, "start"), num(e, "duration"),
					   value(e->line, "comm", a, sizeof(a)), e->pid);
		} else if (!strcmp(e->name, "stack")) {
			uint64_t addrs[TIMERLAT_AA_MAX_FRAMES];
			char names[TIMERLAT_AA_MAX_FRAMES][64];
			const char *ptrs[TIMERLAT_AA_MAX_FRAMES];
			int n = frames(e, addrs, names, TIMERLAT_AA_MAX_FRAMES);

			for (int f = 0; f < n; f++)
				ptrs[f] = strcmp(names[f], "?") ? names[f] : NULL;
			timerlat_aa_stack(aa, e->cpu, addrs, with_names ? ptrs : NULL, n);
		} else if (!strcmp(e->name, "switch")) {
			timerlat_aa_switch(aa, e->cpu, (int)num(e, "next_pid"),
					   value(e->line, "next_comm", a, sizeof(a)));
		} else if (!strcmp(e->name, "work")) {
			const char *wn = value(e->line, "work_name", a, sizeof(a));
			const char *fn = value(e->line, "function_name", b, sizeof(b));

			timerlat_aa_work(aa, e->cpu, num(e, "work"), num(e, "function"),
					 wn && strcmp(wn, "?") ? wn : NULL, fn && strcmp(fn, "?") ? fn : NULL);
		}
	}
}

/* The report of fixture NAME, in a malloc'd string. */
static char *report(const char *name, long long irq_us, long long thread_us,
		    enum timerlat_stack_format fmt)
{
	struct stream s;
	struct timerlat_aa *aa;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (!stream_load(&s, name))
		return strdup("");
	aa = timerlat_aa_new(s.nr_cpus, s.dump_tasks);
	replay(aa, &s, true);
	f = open_memstream(&text, &len);
	timerlat_aa_print(aa, f, irq_us, thread_us, fmt);
	fclose(f);
	timerlat_aa_free(aa);
	stream_free(&s);
	return text;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return strdup("");
	n = getdelim(&text, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(text);
		return strdup("");
	}
	return text;
}

/* GOT equals the file DATA/NAME.expected byte for byte; else the first line that differs. */
static void is_expected(const char *got, const char *name, const char *what)
{
	char path[256];
	char *want;
	int line = 1;
	size_t i = 0;

	snprintf(path, sizeof(path), DATA "%s.expected", name);
	/* TIMERLAT_AA_UPDATE=1 writes what came out as the expected text (review the diff) */
	if (getenv("TIMERLAT_AA_UPDATE")) {
		FILE *f = fopen(path, "w");

		if (f) {
			fputs(got, f);
			fclose(f);
		}
	}
	want = slurp(path);
	if (ok(!strcmp(got, want), "%s: %s", name, what)) {
		free(want);
		return;
	}
	while (got[i] && got[i] == want[i]) {
		if (got[i] == '\n')
			line++;
		i++;
	}
	while (i && got[i - 1] != '\n')
		i--;
	printf("#   first difference at line %d:\n#   got:      '%.*s'\n#   expected: '%.*s'\n", line,
	       (int)strcspn(got + i, "\n"), got + i, (int)strcspn(want + i, "\n"), want + i);
	free(want);
}

/* Does TEXT hold LINE as a whole line? */
static bool has_line(const char *text, const char *line)
{
	size_t len = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

static void test_peer_reports(void)
{
	char *out;

	/* the reports upstream 6.12 printed in the VM (reference timerlat.md section 9) */
	out = report("peer-thread-idle", 0, 30, STACK_TRUNCATE);
	is_expected(out, "peer-thread-idle", "-T 30: thread stop out of idle, as the peer printed it");
	free(out);
	out = report("peer-irq-idle", 30, 30, STACK_TRUNCATE);
	is_expected(out, "peer-irq-idle", "--aa-only 30: IRQ stop with a stack, as the peer printed it");
	free(out);
	out = report("peer-thread-stack", 0, 3000, STACK_TRUNCATE);
	is_expected(out, "peer-thread-stack", "-T 3000 -s 3000: the blocking thread's stack, as the peer printed it");
	free(out);
	out = report("peer-thread-clamp", 0, 3000, STACK_TRUNCATE);
	is_expected(out, "peer-thread-clamp", "a handler start before the due time is no delay; the stack ends at an unknown frame");
	free(out);
}

static void test_recorded_streams(void)
{
	char *out;

	out = report("thread-stack", 0, 3000, STACK_TRUNCATE);
	is_expected(out, "thread-stack", "recorded thread stop (buffer starting mid-activation) with a stack and IRQ interference");
	free(out);
	out = report("irq-stack", 1500, 0, STACK_TRUNCATE);
	is_expected(out, "irq-stack", "recorded IRQ stop with a stack");
	free(out);
	out = report("dump-tasks", 0, 3000, STACK_TRUNCATE);
	is_expected(out, "dump-tasks", "recorded thread stop with --dump-tasks");
	ok(!strstr(out, "## CPU 1"), "dump-tasks: CPU 1, below the threshold, is not analyzed");
	ok(has_line(out, "    [001]                swapper/1:0"), "dump-tasks: but its task is listed");
	free(out);
	out = report("thread-nostack", 0, 2000, STACK_TRUNCATE);
	is_expected(out, "thread-nostack", "recorded thread stop out of idle, no stack");
	free(out);
	out = report("interference", 0, 100, STACK_TRUNCATE);
	is_expected(out, "interference", "NMI, IRQ, softirq and thread interference; a CPU that did not hit");
	free(out);
}

/* The figures of the last activation of CPU 0, computed here from the events. */
static void test_derived_figures(const char *name, long long thread_us)
{
	struct stream s;
	uint64_t irq_ts = 0, irq_lat = 0, thread_lat = 0, timer_start = 0, timer_dur = 0, blocking = 0;
	int run_pid = -1, state = 0;	/* 1: after the IRQ sample */
	char line[160], *out;

	if (!stream_load(&s, name))
		return;
	for (int i = 0; i < s.n; i++) {
		const struct event *e = &s.ev[i];

		if (e->cpu != 0)
			continue;
		if (!strcmp(e->name, "timerlat") && num(e, "context") == 0) {
			irq_ts = e->ts;
			irq_lat = num(e, "latency");
			run_pid = e->pid;
			timer_start = timer_dur = blocking = 0;
			state = 1;
		} else if (!strcmp(e->name, "timerlat")) {
			thread_lat = num(e, "latency");
			state = 0;
		} else if (state && !strcmp(e->name, "irq") && !timer_start) {
			timer_start = num(e, "start");
			timer_dur = num(e, "duration");
		} else if (state && !strcmp(e->name, "thread") && e->pid == run_pid && !blocking) {
			blocking = num(e, "duration");
		}
	}
	out = report(name, 0, thread_us, STACK_TRUNCATE);
	snprintf(line, sizeof(line), "  IRQ latency:%42s%9.2f us", "", irq_lat / 1000.0);
	ok(has_line(out, line), "%s: the IRQ latency is the last IRQ sample's", name);
	snprintf(line, sizeof(line), "%9.2f us (%.2f %%)",
		 (timer_start - (irq_ts - irq_lat)) / 1000.0,
		 (timer_start - (irq_ts - irq_lat)) * 100.0 / thread_lat);
	ok(strstr(out, line) && strstr(out, "  IRQ handler delay:"),
	   "%s: the handler delay is the timer IRQ's start less the due time (%s)", name, line);
	snprintf(line, sizeof(line), "  Timerlat IRQ duration:%32s%9.2f us (%.2f %%)", "",
		 timer_dur / 1000.0, timer_dur * 100.0 / thread_lat);
	ok(has_line(out, line), "%s: the timer IRQ's duration", name);
	snprintf(line, sizeof(line), "  Blocking thread:%38s%9.2f us (%.2f %%)", "",
		 blocking / 1000.0, blocking * 100.0 / thread_lat);
	ok(has_line(out, line), "%s: the blocking thread is the interrupted pid's thread_noise", name);
	snprintf(line, sizeof(line), "  Thread latency:%39s%9.2f us (100%%)", "", thread_lat / 1000.0);
	ok(has_line(out, line), "%s: the total is the last thread sample's", name);
	free(out);
	stream_free(&s);
}

static void test_stack_formats(void)
{
	char *out;

	out = report("peer-thread-clamp", 0, 3000, STACK_SKIP);
	ok(strstr(out, "                -> asm_sysvec_apic_timer_interrupt\n"
		       "                -> do_user_addr_fault\n") != NULL,
	   "--stack-format skip: the unknown frame is left out, the stack goes on");
	ok(!strstr(out, "0x7f0000001000"), "--stack-format skip: no address printed");
	free(out);
	out = report("peer-thread-clamp", 0, 3000, STACK_FULL);
	ok(strstr(out, "                -> asm_sysvec_apic_timer_interrupt\n"
		       "                -> 0x7f0000001000\n"
		       "                -> do_user_addr_fault\n") != NULL,
	   "--stack-format full: the unknown frame as its address");
	free(out);
	out = report("peer-thread-clamp", 0, 3000, STACK_TRUNCATE);
	ok(!strstr(out, "do_user_addr_fault"), "--stack-format truncate: nothing after the unknown frame");
	free(out);
}

struct symbol_table {
	int calls;
};

/* A kallsyms stand-in: the fixtures' frame addresses are 0xffffffff81000100 + i * 0x1000. */
static const char *lookup(void *ctx, uint64_t addr)
{
	static char name[32];
	struct symbol_table *t = ctx;

	t->calls++;
	if (addr < 0xffffffff81000100ull)
		return NULL;
	snprintf(name, sizeof(name), "fn%d", (int)((addr - 0xffffffff81000100ull) / 0x1000));
	return name;
}

static void test_resolve(void)
{
	struct symbol_table table = { 0 };
	struct stream s;
	struct timerlat_aa *aa;
	char *text = NULL;
	size_t len;
	FILE *f;

	if (!stream_load(&s, "peer-thread-clamp"))
		return;
	aa = timerlat_aa_new(s.nr_cpus, false);
	replay(aa, &s, false);
	timerlat_aa_resolve(aa, lookup, &table);
	is_int(table.calls, 8, "resolve: the lookup is asked once per frame kept");
	timerlat_aa_resolve(aa, lookup, &table);
	is_int(table.calls, 8, "resolve: and never again for names it gave");
	f = open_memstream(&text, &len);
	timerlat_aa_print(aa, f, 0, 3000, STACK_FULL);
	fclose(f);
	ok(strstr(text, "                -> fn5\n                -> 0x7f0000001000\n"
			"                -> fn563\n") != NULL, "resolve: the names go where the addresses were");
	free(text);
	timerlat_aa_free(aa);
	stream_free(&s);

	/* nothing to name: no call (upstream's kallsyms cost is paid only for a stack) */
	table.calls = 0;
	aa = timerlat_aa_new(2, true);
	timerlat_aa_timerlat(aa, 0, 1000, 0, 1, 0, 10);
	timerlat_aa_resolve(aa, lookup, &table);
	is_int(table.calls, 0, "resolve: no stack and no kworker, no lookup");
	timerlat_aa_free(aa);
}

/* Run python3 on the JSON in PATH with CHECK (asserts on d); true when it passes. */
static bool json_check(const char *path, const char *check)
{
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "python3 -c 'import json,sys; d=json.load(open(\"%s\")); %s' ",
		 path, check);
	return system(cmd) == 0;
}

static void test_json(void)
{
	char path[] = "/tmp/test_timerlat_aa.XXXXXX";
	int fd = mkstemp(path);
	struct stream s;
	struct timerlat_aa *aa;
	struct json j;
	FILE *f;

	if (fd < 0 || !stream_load(&s, "interference")) {
		ok(false, "json: cannot set up");
		return;
	}
	aa = timerlat_aa_new(s.nr_cpus, true);
	replay(aa, &s, true);
	f = fdopen(fd, "w");
	json_init(&j, f);
	json_object_begin(&j, NULL);
	timerlat_aa_json(aa, &j, 0, 100);
	json_object_end(&j);
	fputc('\n', f);
	fclose(f);
	ok(json_check(path, "pass"), "json: the record parses");
	ok(json_check(path, "a=d[\"analysis\"]; assert len(a)==1 and a[0][\"cpu\"]==0 and a[0][\"case\"]==\"thread\""),
	   "json: one CPU analyzed, the thread case");
	ok(json_check(path, "c=d[\"analysis\"][0]; assert c[\"latency_ns\"]==500000 and c[\"irq_handler_delay_ns\"]==20000 "
			    "and c[\"exit_from_idle\"]==True and c[\"timerlat_irq_duration_ns\"]==8000 "
			    "and c[\"blocking_thread\"]=={\"comm\":\"swapper/0\",\"pid\":0,\"duration_ns\":3000}"),
	   "json: the figures in ns, the blocking thread");
	ok(json_check(path, "c=d[\"analysis\"][0]; assert c[\"nmi_interference_ns\"]==1500 and c[\"irqs\"][0]=={\"name\":\"virtio0-input.0\",\"vector\":34,\"duration_ns\":12000} "
			    "and c[\"softirqs\"][0][\"name\"]==\"NET_RX\" and c[\"softirqs\"][1][\"name\"]==\"UNKNOWN\" "
			    "and c[\"threads\"][1]=={\"comm\":\"stress-ng\",\"pid\":4242,\"duration_ns\":400000}"),
	   "json: the interference lists");
	ok(json_check(path, "assert d[\"max_irq_latency_from_idle\"]=={\"cpu\":0,\"latency_ns\":40000} and d[\"analysis\"][0][\"previous_irq_interference_ns\"] is None"),
	   "json: the largest IRQ latency from idle");
	ok(json_check(path, "t=d[\"cpu_tasks\"]; assert t[1]=={\"cpu\":1,\"comm\":\"kworker/1:1\",\"pid\":77,\"kworker_work\":None,\"kworker_function\":\"vmstat_update\"}"),
	   "json: the CPU tasks with the kworker's function");
	unlink(path);
	timerlat_aa_free(aa);
	stream_free(&s);
}

static void test_edges(void)
{
	struct timerlat_aa *aa = timerlat_aa_new(1, false);
	struct timerlat_aa_cpu_summary sum;
	char *text = NULL;
	size_t len;
	FILE *f;

	ok(timerlat_aa_new(0, false) == NULL && errno == EINVAL, "new: no CPU is an error");
	/* events of a CPU out of range are ignored, not written out of bounds */
	timerlat_aa_timerlat(aa, 5, 1000, 0, 1, 0, 10);
	timerlat_aa_irq(aa, -1, 1, 1, "x", 1);
	is_int(timerlat_aa_cpu(aa, 1, &sum), -EINVAL, "cpu: out of range");
	/* the IRQ case: an IRQ sample newer than the thread's */
	timerlat_aa_timerlat(aa, 0, 5000000, 12, 1, 0, 300000);
	timerlat_aa_timerlat(aa, 0, 5400000, 30, 1, 1, 700000);
	timerlat_aa_timerlat(aa, 0, 6000000, 12, 2, 0, 900000);
	timerlat_aa_cpu(aa, 0, &sum);
	ok(sum.irq_case && sum.irq_latency_ns == 900000 && sum.thread_latency_ns == 700000,
	   "cpu: the IRQ case when the IRQ sample is newer");
	f = open_memstream(&text, &len);
	timerlat_aa_print(aa, f, 0, 0, STACK_TRUNCATE);
	fclose(f);
	is_str(text, "", "print: no threshold, no CPU hit, nothing from idle: nothing");
	free(text);
	f = open_memstream(&text, &len);
	timerlat_aa_print(aa, f, 900, 0, STACK_TRUNCATE);
	fclose(f);
	ok(has_line(text, "     IRQ latency:                                          900.00 us (100%)"),
	   "print: -i 900 hits at exactly 900 us (>=)");
	free(text);
	f = open_memstream(&text, &len);
	timerlat_aa_print(aa, f, 901, 701, STACK_TRUNCATE);
	fclose(f);
	is_str(text, "", "print: 901 us and 701 us are not hit");
	free(text);
	timerlat_aa_free(aa);
	timerlat_aa_free(NULL);
}

/* An IRQ latency from idle counts only when no NMI or IRQ was running at the due time. */
static void test_exit_idle_overlap(void)
{
	for (int overlap = 0; overlap < 2; overlap++) {
		struct timerlat_aa *aa = timerlat_aa_new(1, false);
		char *text = NULL;
		size_t len;
		FILE *f;

		timerlat_aa_timerlat(aa, 0, 500, 40, 1, 1, 100);
		/* the timer is due at 1000; this IRQ ends at 1100, or at 900 */
		timerlat_aa_irq(aa, 0, overlap ? 900 : 700, 200, "local_timer", 236);
		timerlat_aa_timerlat(aa, 0, 1500, 0, 2, 0, 500);
		f = open_memstream(&text, &len);
		timerlat_aa_print(aa, f, 0, 0, STACK_TRUNCATE);
		fclose(f);
		is_str(text, overlap ? "" : "\nMax timerlat IRQ latency from idle: 0.50 us in cpu 0\n",
		       overlap ? "exit from idle: a previous IRQ over the due time excludes the sample"
			       : "exit from idle: a previous IRQ that ended before counts");
		free(text);
		timerlat_aa_free(aa);
	}
}

int main(void)
{
	test_peer_reports();
	test_recorded_streams();
	test_derived_figures("thread-nostack", 2000);
	test_derived_figures("dump-tasks", 3000);
	test_derived_figures("peer-thread-idle", 30);
	test_stack_formats();
	test_resolve();
	test_json();
	test_edges();
	test_exit_idle_overlap();
	return tap_done();
}

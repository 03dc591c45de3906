// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtconfig - the real-time configuration of the measured CPUs (rtconfig.h).
 *
 * Every file is read through the sysroot, so a tree made by `rtla capture`
 * answers as the machine did (src/capture/sources.c copies each file read
 * here). What the kernel shows is preferred to what it was asked for: the
 * isolated and nohz_full files over the command line, the rcuop/N threads
 * over rcu_nocbs=, the effective affinity of an interrupt over its mask.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "procscan.h"
#include "rtconfig.h"
#include "sysroot.h"
#include "util.h"

#define CPU_DIR "/sys/devices/system/cpu"

/* include/linux/sched.h: task->flags as /proc/PID/stat's field 9 shows them */
#define PF_KTHREAD		0x00200000
#define PF_NO_SETAFFINITY	0x04000000

const struct rtconfig_info rtconfig_items[RTC_NR_ITEMS] = {
	[RTC_PREEMPT_RT] = { "preempt_rt", "rt", "the kernel is PREEMPT_RT" },
	[RTC_ISOLATED] = { "isolated", "isolated",
			   "the CPUs are isolated from the scheduler (isolcpus)" },
	[RTC_NOHZ_FULL] = { "nohz_full", "nohz_full", "the CPUs run tickless (nohz_full)" },
	[RTC_RCU_NOCBS] = { "rcu_nocbs", "rcu_nocbs",
			    "RCU callbacks are offloaded from the CPUs (rcu_nocbs)" },
	[RTC_IRQS] = { "device_irqs", "no-irqs",
		       "no device interrupt is delivered to the CPUs (effective affinity)" },
	[RTC_WORKQUEUE] = { "workqueue", "no-workqueue",
			    "the unbound workqueues' cpumask leaves the CPUs out" },
	[RTC_KTHREADS] = { "kthreads", "no-kthreads",
			   "no kernel thread but the per-CPU ones is bound to the CPUs" },
	[RTC_THROTTLING] = { "rt_throttling", "no-throttling",
			     "RT tasks are not throttled (sched_rt_runtime_us -1, no fair server)" },
	[RTC_CPUFREQ] = { "cpufreq", "performance",
			  "the frequency does not change (performance governor or min == max)" },
	[RTC_CPUIDLE] = { "cpuidle", "no-deep-idle",
			  "no idle state with an exit latency is enabled on the CPUs" },
	[RTC_CLOCKSOURCE] = { "clocksource", "stable-clock",
			      "the clocksource is the CPU's own counter (tsc, arch_sys_counter)" },
	[RTC_TIMER_MIGRATION] = { "timer_migration", "no-timer-migration",
				  "timer migration is off (kernel.timer_migration 0)" },
};

const char *rtconfig_verdict_name(enum rtconfig_verdict v)
{
	static const char *const names[] = {
		[RTC_OK] = "ok", [RTC_PARTIAL] = "partial", [RTC_BAD] = "bad",
		[RTC_UNKNOWN] = "unknown",
	};
	return names[v];
}

int rtconfig_parse_require(const char *list, unsigned *mask, char *err)
{
	const char *s = list;

	*mask = 0;
	while (*s) {
		size_t len = strcspn(s, ","), i;

		for (i = 0; i < RTC_NR_ITEMS; i++)
			if (len && strlen(rtconfig_items[i].word) == len &&
			    !strncmp(rtconfig_items[i].word, s, len))
				break;
		if (i == RTC_NR_ITEMS) {
			snprintf(err, PARSE_ERR_MAX, "unknown requirement '%.*s'", (int)len, s);
			return -EINVAL;
		}
		*mask |= 1u << i;
		s += len + (s[len] == ',');
	}
	if (!*mask) {
		snprintf(err, PARSE_ERR_MAX, "empty list of requirements");
		return -EINVAL;
	}
	return 0;
}

void rtconfig_words(char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < RTC_NR_ITEMS && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", rtconfig_items[i].word);
}

/* ---- parsers ---------------------------------------------------------------- */

int rtconfig_parse_cpumask(const char *hex, cpu_set_t *set, char *err)
{
	size_t n = strlen(hex);
	int bit = 0;

	CPU_ZERO(set);
	while (n && isspace((unsigned char)hex[n - 1]))
		n--;
	if (!n) {
		snprintf(err, PARSE_ERR_MAX, "empty cpumask");
		return -EINVAL;
	}
	/* from the lowest digit up, commas between the 32-bit words */
	for (size_t i = n; i-- > 0; ) {
		int d;

		if (hex[i] == ',')
			continue;
		if (!isxdigit((unsigned char)hex[i])) {
			snprintf(err, PARSE_ERR_MAX, "'%.*s': not a hex cpumask", (int)n, hex);
			return -EINVAL;
		}
		d = isdigit((unsigned char)hex[i]) ? hex[i] - '0' : tolower((unsigned char)hex[i]) - 'a' + 10;
		for (int b = 0; b < 4; b++, bit++)
			if ((d & (1 << b)) && bit < CPU_SETSIZE)
				CPU_SET(bit, set);
	}
	return 0;
}

const char *rtconfig_cmdline_param(const char *cmdline, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);
	const char *found = NULL, *p = cmdline;

	while (*p) {
		size_t wlen;

		while (isspace((unsigned char)*p))
			p++;
		wlen = strcspn(p, " \t\n");
		if (!wlen)
			break;
		if (wlen == 2 && !strncmp(p, "--", 2))
			break;		/* the rest is init's */
		if (!strncmp(p, name, nlen) && (wlen == nlen || p[nlen] == '=')) {
			size_t vlen = wlen > nlen ? wlen - nlen - 1 : 0;

			snprintf(buf, len, "%.*s", (int)vlen, p + nlen + (wlen > nlen));
			found = buf;
		}
		p += wlen;
	}
	return found;
}

int rtconfig_parse_isolcpus(const char *val, int nr_cpus, cpu_set_t *set, char *flags,
			    size_t len)
{
	char err[PARSE_ERR_MAX];
	const char *list = val;
	size_t off = 0;

	flags[0] = '\0';
	/* flags are words before the list; the list starts with a digit */
	while (*list && !isdigit((unsigned char)*list)) {
		size_t wlen = strcspn(list, ",");

		if (off < len)
			off += snprintf(flags + off, len - off, "%s%.*s", off ? "," : "", (int)wlen,
					list);
		list += wlen + (list[wlen] == ',');
	}
	if (!off)
		snprintf(flags, len, "domain");
	return parse_cpu_list(list, nr_cpus, set, err) ? -EINVAL : 0;
}

/* The per-CPU interrupt controllers whose numbered rows are no device's. */
static const struct {
	const char *chip;
	unsigned long below;	/* hwirqs below this are per CPU */
} per_cpu_chips[] = {
	{ "GIC", 32 },			/* SGIs 0-15 and PPIs 16-31: the arch timer, the PMU */
	{ "RISC-V INTC", ~0ul },	/* the hart-local interrupts: timer, software */
};

int rtconfig_parse_interrupt(const char *line, int ncols, int *irq, char *name, size_t len,
			     bool *per_cpu)
{
	const char *p = line, *end, *chip;
	char *num_end;
	long n;

	*per_cpu = false;
	name[0] = '\0';
	while (isspace((unsigned char)*p))
		p++;
	end = strchr(p, ':');
	if (!end || end == p || strcspn(p, " \t") < (size_t)(end - p))
		return -EINVAL;
	n = strtol(p, &num_end, 10);
	if (num_end == end && isdigit((unsigned char)*p)) {
		*irq = n;
	} else {
		*irq = -1;
		*per_cpu = true;	/* LOC, RES, CAL, TLB, NMI, IPI0, ...: per-CPU rows */
	}
	p = end + 1;
	for (int i = 0; i < ncols; i++) {
		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			break;		/* a row with fewer counts (ERR, MIS) */
		while (isdigit((unsigned char)*p))
			p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	chip = p;
	for (size_t i = 0; i < ARRAY_SIZE(per_cpu_chips) && *irq >= 0; i++) {
		size_t clen = strlen(per_cpu_chips[i].chip);
		const char *h;

		if (strncmp(chip, per_cpu_chips[i].chip, clen))
			continue;
		h = chip + clen + strcspn(chip + clen, " \t");
		if (strtoul(h, NULL, 10) < per_cpu_chips[i].below)
			*per_cpu = true;
	}
	/*
	 * The action names end the line ("IO-APIC 4-edge ttyS0"); a shared
	 * interrupt lists them with ", " between: walk back over those.
	 */
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	for (const char *s = end; s > p; s--) {
		if (!isspace((unsigned char)s[-1]))
			continue;
		if (s - 1 > p && s[-2] == ',')
			continue;
		p = s;
		break;
	}
	if (p == chip && *irq >= 0) {
		/* a single word after the counts: the chip, no action */
		name[0] = '\0';
		return 0;
	}
	snprintf(name, len, "%.*s", (int)(end - p), p);
	return 0;
}

int rtconfig_parse_stat(const char *stat, char *comm, size_t len, unsigned long *flags)
{
	const char *open = strchr(stat, '('), *close = strrchr(stat, ')'), *p;

	if (!open || !close || close < open)
		return -EINVAL;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	p = close + 1;
	/* state ppid pgrp session tty_nr tpgid flags */
	for (int field = 3; field < 9; field++) {
		while (*p == ' ')
			p++;
		p += strcspn(p, " ");
		if (!*p)
			return -EINVAL;
	}
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	*flags = strtoul(p, NULL, 10);
	return 0;
}

/* ---- reading ---------------------------------------------------------------- */

struct kthread {
	char comm[32];
	bool per_cpu;		/* PF_NO_SETAFFINITY: bound by the kernel, as per-CPU threads are */
	cpu_set_t allowed;
};

/* What several items read: the command line, the CPUs, the kernel threads. */
struct reader {
	struct rtconfig *c;
	char cmdline[4096];
	bool have_cmdline;
	cpu_set_t online;
	bool have_online;
	struct kthread *kthreads;
	int nr_kthreads;
	bool have_kthreads;
};

static void set_item(struct reader *r, enum rtconfig_item item, enum rtconfig_verdict v,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void set_item(struct reader *r, enum rtconfig_item item, enum rtconfig_verdict v,
		     const char *fmt, ...)
{
	struct rtconfig_result *res = &r->c->items[item];
	va_list ap;

	res->verdict = v;
	va_start(ap, fmt);
	vsnprintf(res->value, sizeof(res->value), fmt, ap);
	va_end(ap);
}

/* ok when the measured CPUs are all in SET, partial when some are, bad when none. */
static enum rtconfig_verdict cover(const struct rtconfig *c, const cpu_set_t *set)
{
	cpu_set_t in;
	int n;

	CPU_AND(&in, &c->cpus, set);
	n = CPU_COUNT(&in);
	return n == CPU_COUNT(&c->cpus) ? RTC_OK : n ? RTC_PARTIAL : RTC_BAD;
}

static const char *cpus_str(const struct rtconfig *c, const cpu_set_t *set, char *buf, size_t len)
{
	cpu_list_format(set, c->nr_cpus, buf, len);
	return buf[0] ? buf : "none";
}

/* A CPU list file of /sys; -ENOENT absent, "(null)" and "" are empty. */
static int read_cpu_list_file(const char *path, int nr_cpus, cpu_set_t *set)
{
	char buf[4096], err[PARSE_ERR_MAX];
	int ret = sysroot_read(path, buf, sizeof(buf));

	CPU_ZERO(set);
	if (ret < 0)
		return ret;
	if (!ret || !strcmp(buf, "(null)"))
		return 0;
	return parse_cpu_list(buf, nr_cpus, set, err) ? -EINVAL : 0;
}

static void read_preempt_rt(struct reader *r)
{
	char version[512];
	long long v;

	if (!sysroot_read_ll("/sys/kernel/realtime", &v) && v == 1) {
		set_item(r, RTC_PREEMPT_RT, RTC_OK, "yes (/sys/kernel/realtime 1)");
		return;
	}
	if (sysroot_read("/proc/sys/kernel/version", version, sizeof(version)) < 0) {
		set_item(r, RTC_PREEMPT_RT, RTC_UNKNOWN,
			 "no /sys/kernel/realtime, no /proc/sys/kernel/version");
		return;
	}
	/* before 6.12 only the RT patch set had /sys/kernel/realtime; uname -v says it */
	if (strstr(version, "PREEMPT_RT"))
		set_item(r, RTC_PREEMPT_RT, RTC_OK, "yes (uname -v: %s)", version);
	else
		set_item(r, RTC_PREEMPT_RT, RTC_BAD, "no (uname -v: %s)", version);
}

static void read_isolated(struct reader *r)
{
	struct rtconfig *c = r->c;
	char val[1024], flags[128] = "", list[512], note[1200] = "";
	cpu_set_t set, cmd;
	int ret = read_cpu_list_file(CPU_DIR "/isolated", c->nr_cpus, &set);

	if (r->have_cmdline && rtconfig_cmdline_param(r->cmdline, "isolcpus", val, sizeof(val))) {
		snprintf(note, sizeof(note), " (isolcpus=%s)", val);
		if (!rtconfig_parse_isolcpus(val, c->nr_cpus, &cmd, flags, sizeof(flags)) && ret < 0) {
			/* no sysfs file: what was asked, with the domain flag */
			set = cmd;
			ret = strstr(flags, "domain") ? 0 : -ENOENT;
		}
	}
	if (ret < 0) {
		set_item(r, RTC_ISOLATED, RTC_UNKNOWN, "%s: %s%s", CPU_DIR "/isolated",
			 strerror(-ret), note);
		return;
	}
	set_item(r, RTC_ISOLATED, cover(c, &set), "isolated CPUs: %s%s",
		 cpus_str(c, &set, list, sizeof(list)), note);
}

static void read_nohz_full(struct reader *r)
{
	struct rtconfig *c = r->c;
	char list[512];
	cpu_set_t set;
	int ret = read_cpu_list_file(CPU_DIR "/nohz_full", c->nr_cpus, &set);

	if (ret == -ENOENT)
		set_item(r, RTC_NOHZ_FULL, RTC_BAD, "no %s (the kernel has no nohz_full)",
			 CPU_DIR "/nohz_full");
	else if (ret < 0)
		set_item(r, RTC_NOHZ_FULL, RTC_UNKNOWN, "%s: %s", CPU_DIR "/nohz_full",
			 strerror(-ret));
	else
		set_item(r, RTC_NOHZ_FULL, cover(c, &set), "nohz_full CPUs: %s",
			 cpus_str(c, &set, list, sizeof(list)));
}

/*
 * No file shows which CPUs have their RCU callbacks offloaded, and the
 * rcuop/N threads do not either: once any CPU is offloaded, 6.12 starts one
 * for every CPU, so that a CPU can be offloaded later. So the command line
 * says which CPUs were asked for (rcu_nocbs=LIST, a bare rcu_nocbs or
 * "all" for every CPU, and nohz_full=, which implies it), and where the
 * processes are readable a CPU without an rcuop/N thread is not offloaded
 * whatever was asked (a kernel without RCU_NOCB_CPU ignores the request).
 */
static void read_rcu_nocbs(struct reader *r)
{
	struct rtconfig *c = r->c;
	char val[1024] = "", list[512], note[1200] = "", err[PARSE_ERR_MAX];
	cpu_set_t set, nohz, threads;
	bool param;

	if (!r->have_cmdline) {
		set_item(r, RTC_RCU_NOCBS, RTC_UNKNOWN, "no /proc/cmdline");
		return;
	}
	param = rtconfig_cmdline_param(r->cmdline, "rcu_nocbs", val, sizeof(val));
	CPU_ZERO(&set);
	if (param && (!val[0] || !strcmp(val, "all"))) {
		set = r->online;
	} else if (param && parse_cpu_list(val, c->nr_cpus, &set, err)) {
		set_item(r, RTC_RCU_NOCBS, RTC_UNKNOWN, "rcu_nocbs=%s: %s", val, err);
		return;
	}
	if (!read_cpu_list_file(CPU_DIR "/nohz_full", c->nr_cpus, &nohz) && CPU_COUNT(&nohz))
		CPU_OR(&set, &set, &nohz);
	else
		CPU_ZERO(&nohz);
	if (param || CPU_COUNT(&nohz))
		snprintf(note, sizeof(note), " (%s%s%s%s%s)", param ? "rcu_nocbs" : "",
			 param && val[0] ? "=" : "", val, param && CPU_COUNT(&nohz) ? ", " : "",
			 CPU_COUNT(&nohz) ? "nohz_full" : "");
	if (r->have_kthreads) {
		size_t len = strlen(note);

		CPU_ZERO(&threads);
		for (int i = 0; i < r->nr_kthreads; i++) {
			char *end;
			long cpu;

			if (strncmp(r->kthreads[i].comm, "rcuop/", 6))
				continue;
			cpu = strtol(r->kthreads[i].comm + 6, &end, 10);
			if (!*end && cpu >= 0 && cpu < CPU_SETSIZE)
				CPU_SET(cpu, &threads);
		}
		CPU_AND(&set, &set, &threads);
		snprintf(note + len, sizeof(note) - len, "; rcuop/N threads: %s",
			 cpus_str(c, &threads, list, sizeof(list)));
	}
	set_item(r, RTC_RCU_NOCBS, cover(c, &set), "offloaded: %s%s",
		 cpus_str(c, &set, list, sizeof(list)), note);
}

/* The device interrupts whose effective affinity includes a measured CPU. */
static void read_irqs(struct reader *r)
{
	struct rtconfig *c = r->c;
	FILE *f = sysroot_fopen("/proc/interrupts", "r");
	char line[4096], name[128], list[512], hit[RTC_VALUE_MAX] = "";
	int ncols = 0, nr_device = 0, nr_hit = 0, nr_per_cpu = 0;
	size_t off = 0;

	if (!f) {
		set_item(r, RTC_IRQS, RTC_UNKNOWN, "/proc/interrupts: %s", strerror(errno));
		return;
	}
	if (fgets(line, sizeof(line), f))
		for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"))
			ncols += !strncmp(t, "CPU", 3);
	while (fgets(line, sizeof(line), f)) {
		char aff[512], err[PARSE_ERR_MAX];
		bool per_cpu;
		cpu_set_t set, in;
		int irq;

		if (rtconfig_parse_interrupt(line, ncols, &irq, name, sizeof(name), &per_cpu))
			continue;
		if (per_cpu) {
			nr_per_cpu++;
			continue;
		}
		if (irq < 0 || !name[0])
			continue;
		nr_device++;
		/* effective_affinity_list: where it is delivered; without it, the mask */
		if (sysroot_readf(aff, sizeof(aff), "/proc/irq/%d/effective_affinity_list", irq) <= 0 &&
		    sysroot_readf(aff, sizeof(aff), "/proc/irq/%d/smp_affinity_list", irq) <= 0)
			continue;
		if (parse_cpu_list(aff, CPU_SETSIZE, &set, err))
			continue;
		CPU_AND(&in, &set, &c->cpus);
		if (!CPU_COUNT(&in))
			continue;
		nr_hit++;
		if (off < sizeof(hit))
			off += snprintf(hit + off, sizeof(hit) - off, "%s%d %s on %s", off ? ", " : "",
					irq, name, cpus_str(c, &in, list, sizeof(list)));
	}
	fclose(f);
	if (nr_hit)
		set_item(r, RTC_IRQS, RTC_BAD, "%d of %d device interrupts: %s", nr_hit, nr_device,
			 hit);
	else
		set_item(r, RTC_IRQS, RTC_OK, "none of %d device interrupts (%d per-CPU rows not judged)",
			 nr_device, nr_per_cpu);
}

static void read_workqueue(struct reader *r)
{
	struct rtconfig *c = r->c;
	char buf[1024], err[PARSE_ERR_MAX], list[512];
	const char *path = "/sys/devices/virtual/workqueue/cpumask";
	cpu_set_t set, out;
	int ret = sysroot_read(path, buf, sizeof(buf));

	if (ret < 0 || rtconfig_parse_cpumask(buf, &set, err)) {
		set_item(r, RTC_WORKQUEUE, RTC_UNKNOWN, "%s: %s", path,
			 ret < 0 ? strerror(-ret) : err);
		return;
	}
	/* the verdict is on the CPUs the mask leaves out */
	CPU_ZERO(&out);
	for (int cpu = 0; cpu < c->nr_cpus && cpu < CPU_SETSIZE; cpu++)
		if (!CPU_ISSET(cpu, &set))
			CPU_SET(cpu, &out);
	set_item(r, RTC_WORKQUEUE, cover(c, &out), "unbound workqueues on %s (cpumask %s)",
		 cpus_str(c, &set, list, sizeof(list)), buf);
}

/* The kernel threads: their names, affinity and whether the kernel bound them. */
static void scan_kthreads(struct reader *r)
{
	struct procscan ps;

	if (procscan_pids(&ps))
		return;
	for (size_t i = 0; i < ps.nr; i++) {
		char stat[1024], status[4096], comm[64], err[PARSE_ERR_MAX];
		unsigned long flags;
		struct kthread *k;
		char *allowed;

		if (sysroot_readf(stat, sizeof(stat), "/proc/%d/stat", ps.pids[i]) <= 0 ||
		    rtconfig_parse_stat(stat, comm, sizeof(comm), &flags) || !(flags & PF_KTHREAD))
			continue;
		if (sysroot_readf(status, sizeof(status), "/proc/%d/status", ps.pids[i]) <= 0)
			continue;
		allowed = strstr(status, "\nCpus_allowed_list:");
		if (!allowed)
			continue;
		allowed += strlen("\nCpus_allowed_list:");
		allowed += strspn(allowed, " \t");
		allowed[strcspn(allowed, "\n")] = '\0';
		k = realloc(r->kthreads, (r->nr_kthreads + 1) * sizeof(*k));
		if (!k)
			break;
		r->kthreads = k;
		k += r->nr_kthreads;
		if (parse_cpu_list(allowed, CPU_SETSIZE, &k->allowed, err))
			continue;
		snprintf(k->comm, sizeof(k->comm), "%.*s", (int)sizeof(k->comm) - 1, comm);
		k->per_cpu = flags & PF_NO_SETAFFINITY;
		r->nr_kthreads++;
	}
	r->have_kthreads = ps.nr > 0;
	procscan_free(&ps);
}

/*
 * Kernel threads bound to the measured CPUs. The ones the kernel binds
 * itself (PF_NO_SETAFFINITY: ksoftirqd/N, ktimers/N, migration/N, cpuhp/N,
 * kworker/N:M, ...) are part of every CPU and only counted; one bound there
 * otherwise (moved by someone, an irq/N-name thread following its
 * interrupt, a driver's own) is named. A thread free to run on every
 * housekeeping CPU (online, not isolated) is not bound.
 */
static void read_kthreads(struct reader *r)
{
	struct rtconfig *c = r->c;
	char named[RTC_VALUE_MAX] = "", list[256];
	int nr_per_cpu = 0, nr_named = 0;
	cpu_set_t housekeeping, isolated;
	size_t off = 0;

	/* unbound threads run on the CPUs isolcpus leaves to the kernel */
	housekeeping = r->online;
	if (!read_cpu_list_file(CPU_DIR "/isolated", c->nr_cpus, &isolated))
		for (int cpu = 0; cpu < c->nr_cpus && cpu < CPU_SETSIZE; cpu++)
			if (CPU_ISSET(cpu, &isolated))
				CPU_CLR(cpu, &housekeeping);
	if (!r->have_kthreads) {
		set_item(r, RTC_KTHREADS, RTC_UNKNOWN, "no processes under /proc");
		return;
	}
	for (int i = 0; i < r->nr_kthreads; i++) {
		const struct kthread *k = &r->kthreads[i];
		cpu_set_t in, rest;

		CPU_AND(&in, &k->allowed, &c->cpus);
		if (!CPU_COUNT(&in))
			continue;
		if (k->per_cpu && CPU_COUNT(&k->allowed) == 1) {
			nr_per_cpu++;
			continue;
		}
		if (r->have_online) {
			CPU_AND(&rest, &housekeeping, &k->allowed);
			if (CPU_EQUAL(&rest, &housekeeping))
				continue;	/* free to run on every housekeeping CPU */
		}
		nr_named++;
		if (off < sizeof(named))
			off += snprintf(named + off, sizeof(named) - off, "%s%s on %s",
					off ? ", " : "", k->comm,
					cpus_str(c, &k->allowed, list, sizeof(list)));
	}
	if (nr_named)
		set_item(r, RTC_KTHREADS, RTC_BAD, "%d bound there besides %d per-CPU: %s", nr_named,
			 nr_per_cpu, named);
	else
		set_item(r, RTC_KTHREADS, RTC_OK, "only %d per-CPU kernel threads", nr_per_cpu);
}

/* Linux MAJOR.MINOR of the root's kernel, as MAJOR * 1000 + MINOR; 0 unknown. */
static int kernel_version(void)
{
	char rel[128];
	int major, minor;

	if (sysroot_read("/proc/sys/kernel/osrelease", rel, sizeof(rel)) <= 0 ||
	    sscanf(rel, "%d.%d", &major, &minor) != 2)
		return 0;
	return major * 1000 + minor;
}

/*
 * RT throttling: sched_rt_runtime_us of every sched_rt_period_us (-1: off),
 * and from 6.12 the fair server, a deadline server that gives normal tasks
 * runtime of every period on each CPU even under RT load: its debugfs file
 * per CPU (0: off). Without debugfs a 6.12+ kernel's server is unknown.
 */
static void read_throttling(struct reader *r)
{
	struct rtconfig *c = r->c;
	long long runtime, period = 0;
	char fair[300] = "", list[256];
	enum rtconfig_verdict v;
	cpu_set_t on;
	int known = 0;

	CPU_ZERO(&on);
	if (sysroot_read_ll("/proc/sys/kernel/sched_rt_runtime_us", &runtime)) {
		set_item(r, RTC_THROTTLING, RTC_UNKNOWN, "no /proc/sys/kernel/sched_rt_runtime_us");
		return;
	}
	sysroot_read_ll("/proc/sys/kernel/sched_rt_period_us", &period);
	for (int cpu = 0; cpu < c->nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		long long ns;

		if (!CPU_ISSET(cpu, &c->cpus) ||
		    sysroot_readf_ll(&ns, "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", cpu))
			continue;
		known++;
		if (ns > 0)
			CPU_SET(cpu, &on);
	}
	if (known)
		snprintf(fair, sizeof(fair), "; fair server on %s",
			 cpus_str(c, &on, list, sizeof(list)));
	else if (kernel_version() >= 6012)
		snprintf(fair, sizeof(fair), "; fair server not readable "
			 "(/sys/kernel/debug/sched/fair_server: debugfs not mounted?)");
	if (runtime >= 0 || CPU_COUNT(&on))
		v = RTC_BAD;
	else if (!known && kernel_version() >= 6012)
		v = RTC_UNKNOWN;
	else
		v = RTC_OK;
	if (runtime >= 0)
		set_item(r, RTC_THROTTLING, v, "RT tasks throttled to %lld of every %lld us%s",
			 runtime, period, fair);
	else
		set_item(r, RTC_THROTTLING, v, "sched_rt_runtime_us -1 (off)%s", fair);
}

/* CPUs grouped by equal text: "performance on 0-3; powersave 800000-3000000 on 4-7". */
struct groups {
	int n;
	char text[8][96];
	cpu_set_t cpus[8];
};

static void group_add(struct groups *g, const char *text, int cpu)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->text[i], text))
			break;
	if (i == g->n) {
		if (g->n == (int)ARRAY_SIZE(g->text))
			i--;	/* the last group takes the rest */
		else
			CPU_ZERO(&g->cpus[g->n++]);
		snprintf(g->text[i], sizeof(g->text[i]), "%s", text);
	}
	CPU_SET(cpu, &g->cpus[i]);
}

static void group_format(const struct rtconfig *c, const struct groups *g, char *buf, size_t len)
{
	size_t off = 0;
	char list[256];

	buf[0] = '\0';
	for (int i = 0; i < g->n && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s on %s", i ? "; " : "", g->text[i],
				cpus_str(c, &g->cpus[i], list, sizeof(list)));
}

static void read_cpufreq(struct reader *r)
{
	struct rtconfig *c = r->c;
	struct groups g = { 0 };
	char text[RTC_VALUE_MAX];
	cpu_set_t fixed;

	CPU_ZERO(&fixed);
	for (int cpu = 0; cpu < c->nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		char gov[64], desc[96];
		long long lo = -1, hi = -2;

		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		if (sysroot_readf(gov, sizeof(gov), CPU_DIR "/cpu%d/cpufreq/scaling_governor", cpu) <= 0) {
			group_add(&g, "no cpufreq", cpu);
			CPU_SET(cpu, &fixed);	/* no driver: the kernel changes nothing */
			continue;
		}
		sysroot_readf_ll(&lo, CPU_DIR "/cpu%d/cpufreq/scaling_min_freq", cpu);
		sysroot_readf_ll(&hi, CPU_DIR "/cpu%d/cpufreq/scaling_max_freq", cpu);
		if (lo == hi)
			snprintf(desc, sizeof(desc), "%s %lld kHz fixed", gov, lo);
		else if (lo >= 0 && hi >= 0)
			snprintf(desc, sizeof(desc), "%s %lld-%lld kHz", gov, lo, hi);
		else
			snprintf(desc, sizeof(desc), "%s", gov);
		group_add(&g, desc, cpu);
		if (!strcmp(gov, "performance") || lo == hi)
			CPU_SET(cpu, &fixed);
	}
	group_format(c, &g, text, sizeof(text));
	set_item(r, RTC_CPUFREQ, cover(c, &fixed), "%s", text);
}

static void read_cpuidle(struct reader *r)
{
	struct rtconfig *c = r->c;
	struct groups g = { 0 };
	char text[RTC_VALUE_MAX];
	cpu_set_t shallow;

	CPU_ZERO(&shallow);
	for (int cpu = 0; cpu < c->nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		char desc[96] = "", name[32];
		size_t off = 0;
		bool deep = false;
		int state;

		if (!CPU_ISSET(cpu, &c->cpus))
			continue;
		for (state = 0; state < 16; state++) {
			long long latency, disabled = 0;

			if (sysroot_readf(name, sizeof(name), CPU_DIR "/cpu%d/cpuidle/state%d/name",
					  cpu, state) <= 0)
				break;
			sysroot_readf_ll(&disabled, CPU_DIR "/cpu%d/cpuidle/state%d/disable", cpu,
					 state);
			if (disabled)
				continue;
			if (sysroot_readf_ll(&latency, CPU_DIR "/cpu%d/cpuidle/state%d/latency",
					     cpu, state))
				latency = -1;
			deep |= latency != 0;
			if (off < sizeof(desc))
				off += snprintf(desc + off, sizeof(desc) - off, "%s%s %lldus",
						off ? "," : "", name, latency);
		}
		if (!state)
			snprintf(desc, sizeof(desc), "no cpuidle states");
		else if (!off)
			snprintf(desc, sizeof(desc), "every state disabled");
		else if (off < sizeof(desc))
			snprintf(desc + off, sizeof(desc) - off, " enabled");
		group_add(&g, desc, cpu);
		if (!deep)
			CPU_SET(cpu, &shallow);
	}
	group_format(c, &g, text, sizeof(text));
	set_item(r, RTC_CPUIDLE, cover(c, &shallow), "%s", text);
}

/*
 * The clocksource in use. A CPU's own counter is read without leaving the
 * CPU and does not drift under a hypervisor's scheduling: tsc on x86,
 * arch_sys_counter on arm64, the timebase elsewhere. A hypervisor's clock
 * (kvm-clock) reads the TSC through a page the host updates: partial. Any
 * other (hpet, acpi_pm, jiffies) is slow to read or coarse. What makes the
 * TSC trusted is readable as the CPU's flags and the command line's tsc=;
 * the kernel's verdict on it at boot is only in the log, which no file shows.
 */
static void read_clocksource(struct reader *r)
{
	static const char *const cpu_counters[] = {
		"tsc", "arch_sys_counter", "riscv_clocksource", "timebase", NULL,
	};
	static const char *const hypervisor[] = {
		"kvm-clock", "hyperv_clocksource_tsc_page", "xen", "pvclock", NULL,
	};
	static const char *const tsc_flags[] = {
		"constant_tsc", "nonstop_tsc", "tsc_reliable", "tsc_known_freq", NULL,
	};
	char cur[64], avail[192] = "", val[64], extra[192] = "", *flags = NULL;
	enum rtconfig_verdict v = RTC_BAD;
	size_t off = 0;
	FILE *f;

	if (sysroot_read("/sys/devices/system/clocksource/clocksource0/current_clocksource", cur,
			 sizeof(cur)) <= 0) {
		set_item(r, RTC_CLOCKSOURCE, RTC_UNKNOWN, "no clocksource0/current_clocksource");
		return;
	}
	if (sysroot_read("/sys/devices/system/clocksource/clocksource0/available_clocksource",
			 avail, sizeof(avail)) > 0)
		avail[strcspn(avail, "\n")] = '\0';
	for (size_t n = strlen(avail); n && avail[n - 1] == ' '; n--)
		avail[n - 1] = '\0';	/* the kernel ends the list with a blank */
	for (const char *const *n = cpu_counters; *n; n++)
		if (!strcmp(cur, *n))
			v = RTC_OK;
	for (const char *const *n = hypervisor; *n; n++)
		if (!strcmp(cur, *n))
			v = RTC_PARTIAL;
	f = sysroot_fopen("/proc/cpuinfo", "r");
	if (f) {
		char line[8192];

		while (!flags && fgets(line, sizeof(line), f))
			if (!strncmp(line, "flags", 5))
				flags = line;
		for (const char *const *fl = tsc_flags; flags && *fl; fl++) {
			char word[40];

			snprintf(word, sizeof(word), " %s", *fl);
			if (strstr(flags, word) && off < sizeof(extra))
				off += snprintf(extra + off, sizeof(extra) - off, "%s%s",
						off ? " " : "; cpu flags: ", *fl);
		}
		fclose(f);
	}
	if (r->have_cmdline) {
		if (rtconfig_cmdline_param(r->cmdline, "tsc", val, sizeof(val)) && off < sizeof(extra))
			off += snprintf(extra + off, sizeof(extra) - off, "; tsc=%s", val);
		if (rtconfig_cmdline_param(r->cmdline, "clocksource", val, sizeof(val)) &&
		    off < sizeof(extra))
			off += snprintf(extra + off, sizeof(extra) - off, "; clocksource=%s", val);
	}
	set_item(r, RTC_CLOCKSOURCE, v, "%s (available: %s)%s", cur, avail[0] ? avail : "?", extra);
}

static void read_timer_migration(struct reader *r)
{
	long long v;

	if (sysroot_read_ll("/proc/sys/kernel/timer_migration", &v))
		set_item(r, RTC_TIMER_MIGRATION, RTC_UNKNOWN, "no /proc/sys/kernel/timer_migration");
	else
		set_item(r, RTC_TIMER_MIGRATION, v ? RTC_BAD : RTC_OK, "kernel.timer_migration %lld", v);
}

void rtconfig_read(struct rtconfig *c, const cpu_set_t *cpus, int nr_cpus)
{
	struct reader r = { .c = c };

	memset(c->items, 0, sizeof(c->items));
	c->cpus = *cpus;
	c->nr_cpus = nr_cpus > CPU_SETSIZE ? CPU_SETSIZE : nr_cpus;
	r.have_cmdline = sysroot_read("/proc/cmdline", r.cmdline, sizeof(r.cmdline)) >= 0;
	r.have_online = sysroot_online_cpus(&r.online) > 0;
	if (!r.have_online)
		CPU_ZERO(&r.online);
	scan_kthreads(&r);

	read_preempt_rt(&r);
	read_isolated(&r);
	read_nohz_full(&r);
	read_rcu_nocbs(&r);
	read_irqs(&r);
	read_workqueue(&r);
	read_kthreads(&r);
	read_throttling(&r);
	read_cpufreq(&r);
	read_cpuidle(&r);
	read_clocksource(&r);
	read_timer_migration(&r);
	free(r.kthreads);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtconfig - the real-time configuration of a set of CPUs, read through the
 * sysroot (so that it also reads a capture): PREEMPT_RT, isolcpus,
 * nohz_full, rcu_nocbs, the device interrupts and kernel threads on those
 * CPUs, the workqueue cpumask, RT throttling and the fair server, cpufreq,
 * cpuidle, the clocksource, timer migration.
 *
 * Each item has a value (what was read, as one line) and a verdict for the
 * CPUs asked about: ok (set up for real-time on every one of them), partial
 * (on some), bad (on none, or the setting is global and wrong) or unknown
 * (not readable). A --require word names one item and holds when its
 * verdict is ok. `rtla features -c CPUS` prints the items; every noise and
 * latency record carries them (src/osnoise/misconfig.c).
 */
#ifndef RTLA_RTCONFIG_H
#define RTLA_RTCONFIG_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

enum rtconfig_item {
	RTC_PREEMPT_RT,
	RTC_ISOLATED,
	RTC_NOHZ_FULL,
	RTC_RCU_NOCBS,
	RTC_IRQS,
	RTC_WORKQUEUE,
	RTC_KTHREADS,
	RTC_THROTTLING,
	RTC_CPUFREQ,
	RTC_CPUIDLE,
	RTC_CLOCKSOURCE,
	RTC_TIMER_MIGRATION,
	RTC_NR_ITEMS
};

enum rtconfig_verdict { RTC_OK, RTC_PARTIAL, RTC_BAD, RTC_UNKNOWN };

struct rtconfig_info {
	const char *name;	/* the item's key in tables and records: "nohz_full" */
	const char *word;	/* its --require word: "nohz_full", "no-irqs" */
	const char *help;	/* what the word requires, for --help and the man page */
};

extern const struct rtconfig_info rtconfig_items[RTC_NR_ITEMS];

#define RTC_VALUE_MAX 512

struct rtconfig_result {
	enum rtconfig_verdict verdict;
	char value[RTC_VALUE_MAX];
};

struct rtconfig {
	cpu_set_t cpus;		/* the CPUs judged */
	int nr_cpus;
	struct rtconfig_result items[RTC_NR_ITEMS];
};

/* Read every item for CPUS (NR_CPUS bits of it) under the sysroot. Never fails. */
void rtconfig_read(struct rtconfig *c, const cpu_set_t *cpus, int nr_cpus);
const char *rtconfig_verdict_name(enum rtconfig_verdict v);

/*
 * A --require list ("isolated,nohz_full,no-irqs") as a mask of items
 * (1 << enum rtconfig_item). -EINVAL with the word in err.
 */
int rtconfig_parse_require(const char *list, unsigned *mask, char *err);
/* The words, space-separated (completion), in item order. */
void rtconfig_words(char *buf, size_t len);

/* ---- the parsers, for the unit tests ---- */

/*
 * A kernel cpumask as sysfs prints it ("ff,ffffffff", the lowest 32 CPUs
 * last) into SET. -EINVAL with a reason in err.
 */
int rtconfig_parse_cpumask(const char *hex, cpu_set_t *set, char *err);
/*
 * The value of kernel parameter NAME in CMDLINE (the last one given, as the
 * kernel takes it; nothing after " -- ", which is init's): "" for a bare
 * NAME, NULL when absent.
 */
const char *rtconfig_cmdline_param(const char *cmdline, const char *name, char *buf, size_t len);
/*
 * isolcpus=[flag,...,]cpu-list: the CPUs into SET and the flags ("domain"
 * when none is given, as the kernel takes it) into FLAGS. -EINVAL.
 */
int rtconfig_parse_isolcpus(const char *val, int nr_cpus, cpu_set_t *set, char *flags,
			    size_t len);
/*
 * One line of /proc/interrupts with NCOLS CPU columns: the IRQ number (-1
 * for a named row: LOC, RES, IPI0, ... every one of them per CPU), the
 * action names in NAME, and whether the chip delivers it per CPU (a GIC's
 * SGIs and PPIs below hwirq 32, the RISC-V local interrupt controller).
 * -EINVAL for a line that is no interrupt (the header).
 */
int rtconfig_parse_interrupt(const char *line, int ncols, int *irq, char *name, size_t len,
			     bool *per_cpu);
/*
 * /proc/PID/stat: the command name and the task's flags (field 9).
 * -EINVAL when the text is not a stat line.
 */
int rtconfig_parse_stat(const char *stat, char *comm, size_t len, unsigned long *flags);

#endif

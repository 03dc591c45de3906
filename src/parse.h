/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * parse - strict parsers for the option values of every command.
 *
 * They accept upstream rtla's syntax, reject everything else, and never
 * exit: on bad input they return -EINVAL and leave a one-line reason in
 * err (PARSE_ERR_MAX bytes), which the caller prints with its own context.
 */
#ifndef RTLA_PARSE_H
#define RTLA_PARSE_H

#include <sched.h>
#include <stdint.h>

#define PARSE_ERR_MAX 256

/* "N", "N-M" and comma-separated lists of them; every CPU < nr_cpus. */
int parse_cpu_list(const char *s, int nr_cpus, cpu_set_t *set, char *err);

/* Seconds, with an optional s/m/h/d suffix in either case; > 0. */
int parse_duration(const char *s, long long *seconds, char *err);

/* A plain decimal integer in [min, max]: no sign games, no junk, no overflow. */
int parse_llong(const char *s, long long min, long long max, long long *val, char *err);

/* Microseconds and kilobytes: non-negative decimal integers up to max. */
int parse_us(const char *s, long long max, long long *us, char *err);
int parse_kb(const char *s, long long max, long long *kb, char *err);

/* A time with a required-or-ns unit (ns, us, ms, s), in nanoseconds. */
int parse_ns_time(const char *s, uint64_t *ns, char *err);

enum sched_kind {
	SCHED_KIND_OTHER,	/* o:nice */
	SCHED_KIND_RR,		/* r:prio */
	SCHED_KIND_FIFO,	/* f:prio */
	SCHED_KIND_DEADLINE,	/* d:runtime:period */
};

struct sched_prio {
	enum sched_kind kind;
	int nice;		/* SCHED_KIND_OTHER: -20..19 */
	int rt_prio;		/* RR/FIFO: 1..99 */
	uint64_t runtime_ns;	/* DEADLINE */
	uint64_t period_ns;	/* DEADLINE; the deadline equals the period */
};

/* o:nice, r:prio, f:prio, d:runtime:period (either letter case). */
int parse_sched_prio(const char *s, struct sched_prio *prio, char *err);

/* Format a cpu_set_t back into the shortest "0-3,5" list. */
char *cpu_list_format(const cpu_set_t *set, int nr_cpus, char *buf, size_t len);

#endif

// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse - strict option parsers.
 *
 * Upstream rtla parses with atoi()/strtol() and silently accepts junk such as
 * "-d 10x" or "-c 1,,2"; these parsers take the same valid syntax and turn
 * every other string into a reason the user can act on.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "util.h"

/* Kernel limits for sched_setattr() (kernel/sched/syscalls.c, deadline.c). */
#define NICE_MIN		-20
#define NICE_MAX		19
#define RT_PRIO_MIN		1
#define RT_PRIO_MAX		99
#define DL_RUNTIME_MIN_NS	1024ULL			/* 1 << DL_SCALE */
#define DL_PERIOD_MIN_NS	100000ULL		/* sched_deadline_period_min_us default */
#define DL_PERIOD_MAX_NS	(4194304ULL * 1000)	/* sched_deadline_period_max_us default */

static int fail(char *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, PARSE_ERR_MAX, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * Read an unsigned decimal number at *p, advancing it. Only digits: strtoull
 * would also take signs and leading blanks, which no option value needs.
 */
static int read_digits(const char **p, unsigned long long max, unsigned long long *val)
{
	unsigned long long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = *s - '0';

		if (v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*p = s;
	*val = v;
	return 0;
}

int parse_cpu_list(const char *s, int nr_cpus, cpu_set_t *set, char *err)
{
	const char *p = s;

	CPU_ZERO(set);
	if (!s || !*s)
		return fail(err, "empty CPU list");
	if (nr_cpus > CPU_SETSIZE)
		nr_cpus = CPU_SETSIZE;

	for (;;) {
		unsigned long long first, last;
		int ret = read_digits(&p, INT_MAX, &first);

		if (ret)
			return fail(err, "'%s': expected a CPU number at '%s'", s, p);
		last = first;
		if (*p == '-') {
			p++;
			if (read_digits(&p, INT_MAX, &last))
				return fail(err, "'%s': expected a CPU number at '%s'", s, p);
			if (last < first)
				return fail(err, "'%s': reversed range %llu-%llu", s, first, last);
		}
		if (last >= (unsigned long long)nr_cpus)
			return fail(err, "'%s': CPU %llu does not exist (CPUs are 0-%d)",
				    s, last, nr_cpus - 1);
		for (unsigned long long cpu = first; cpu <= last; cpu++)
			CPU_SET(cpu, set);
		if (!*p)
			return 0;
		if (*p != ',')
			return fail(err, "'%s': unexpected '%c'", s, *p);
		p++;
	}
}

int parse_duration(const char *s, long long *seconds, char *err)
{
	unsigned long long v, mult = 1;
	const char *p = s;
	int ret;

	if (!s || !*s)
		return fail(err, "empty duration");
	ret = read_digits(&p, LLONG_MAX, &v);
	if (ret == -ERANGE)
		return fail(err, "'%s': duration too long", s);
	if (ret)
		return fail(err, "'%s': not a duration (e.g. 30, 10s, 5m, 2h, 1d)", s);
	if (*p) {
		switch (tolower((unsigned char)*p)) {
		case 's': mult = 1; break;
		case 'm': mult = 60; break;
		case 'h': mult = 3600; break;
		case 'd': mult = 86400; break;
		default:
			return fail(err, "'%s': unknown unit '%s' (use s, m, h or d)", s, p);
		}
		if (p[1])
			return fail(err, "'%s': unknown unit '%s' (use s, m, h or d)", s, p);
	}
	if (v == 0)
		return fail(err, "'%s': duration must be greater than zero", s);
	if (v > LLONG_MAX / mult)
		return fail(err, "'%s': duration too long", s);
	*seconds = v * mult;
	return 0;
}

int parse_llong(const char *s, long long min, long long max, long long *val, char *err)
{
	unsigned long long v;
	const char *p = s;
	bool neg = false;
	int ret;

	if (!s || !*s)
		return fail(err, "empty number");
	if (*p == '-') {
		neg = true;
		p++;
	}
	ret = read_digits(&p, neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX, &v);
	if (ret == -ERANGE)
		return fail(err, "'%s' is out of range [%lld, %lld]", s, min, max);
	if (ret || *p)
		return fail(err, "'%s' is not a valid number", s);
	*val = neg ? (long long)(0ULL - v) : (long long)v;
	if (*val < min || *val > max)
		return fail(err, "'%s' is out of range [%lld, %lld]", s, min, max);
	return 0;
}

int parse_us(const char *s, long long max, long long *us, char *err)
{
	if (s && *s == '-')
		return fail(err, "'%s': microseconds cannot be negative", s);
	return parse_llong(s, 0, max, us, err);
}

int parse_kb(const char *s, long long max, long long *kb, char *err)
{
	if (s && *s == '-')
		return fail(err, "'%s': kB cannot be negative", s);
	return parse_llong(s, 0, max, kb, err);
}

int parse_ns_time(const char *s, uint64_t *ns, char *err)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	unsigned long long v;
	const char *p = s;

	if (!s || read_digits(&p, ULLONG_MAX, &v))
		return fail(err, "'%s' is not a time (e.g. 500us, 2ms, 1s)", s ? s : "");
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(p, units[i].unit))
			continue;
		if (v > UINT64_MAX / units[i].mult)
			return fail(err, "'%s': time too long", s);
		*ns = v * units[i].mult;
		return 0;
	}
	return fail(err, "'%s': unknown time unit '%s' (use ns, us, ms or s)", s, p);
}

static int parse_deadline(const char *s, const char *args, struct sched_prio *prio, char *err)
{
	char runtime[64];
	const char *colon = strchr(args, ':');
	size_t len;

	if (!colon)
		return fail(err, "'%s': expected d:runtime:period", s);
	len = colon - args;
	if (len >= sizeof(runtime))
		return fail(err, "'%s': runtime too long", s);
	memcpy(runtime, args, len);
	runtime[len] = '\0';
	if (parse_ns_time(runtime, &prio->runtime_ns, err) ||
	    parse_ns_time(colon + 1, &prio->period_ns, err))
		return -EINVAL;
	if (prio->runtime_ns < DL_RUNTIME_MIN_NS)
		return fail(err, "'%s': deadline runtime must be at least 1024ns", s);
	if (prio->runtime_ns > prio->period_ns)
		return fail(err, "'%s': deadline runtime is longer than the period", s);
	if (prio->period_ns < DL_PERIOD_MIN_NS || prio->period_ns > DL_PERIOD_MAX_NS)
		return fail(err, "'%s': deadline period must be within [100us, 4194304us]", s);
	return 0;
}

int parse_sched_prio(const char *s, struct sched_prio *prio, char *err)
{
	long long v;

	memset(prio, 0, sizeof(*prio));
	if (!s || !s[0] || s[1] != ':')
		return fail(err, "'%s': expected o:nice, r:prio, f:prio or d:runtime:period",
			    s ? s : "");
	switch (tolower((unsigned char)s[0])) {
	case 'o':
		prio->kind = SCHED_KIND_OTHER;
		if (parse_llong(s + 2, NICE_MIN, NICE_MAX, &v, err))
			return fail(err, "'%s': nice must be a number in [%d, %d]", s, NICE_MIN, NICE_MAX);
		prio->nice = v;
		return 0;
	case 'r':
	case 'f':
		prio->kind = tolower((unsigned char)s[0]) == 'r' ? SCHED_KIND_RR : SCHED_KIND_FIFO;
		if (parse_llong(s + 2, RT_PRIO_MIN, RT_PRIO_MAX, &v, err))
			return fail(err, "'%s': real-time priority must be a number in [%d, %d]",
				    s, RT_PRIO_MIN, RT_PRIO_MAX);
		prio->rt_prio = v;
		return 0;
	case 'd':
		prio->kind = SCHED_KIND_DEADLINE;
		return parse_deadline(s, s + 2, prio, err);
	default:
		return fail(err, "'%s': unknown policy '%c' (use o, r, f or d)", s, s[0]);
	}
}

char *cpu_list_format(const cpu_set_t *set, int nr_cpus, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int cpu = 0; cpu < nr_cpus && cpu < CPU_SETSIZE; cpu++) {
		int last = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < nr_cpus && last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		if (off < len)
			off += snprintf(buf + off, len - off, last > cpu ? "%s%d-%d" : "%s%d",
					off ? "," : "", cpu, last);
		cpu = last;
	}
	return buf;
}

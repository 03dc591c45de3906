// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_parse - every parser of src/parse.h on the same string.
 *
 * Besides memory errors, each parser is checked against a slow reference
 * written here from its contract in parse.h (digits in 128-bit arithmetic,
 * no early exits): both must accept the same strings with the same values.
 * A CPU list that parses must format with cpu_list_format() and parse back
 * to the same set, and that text must be the canonical one.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>

#include "fuzz.h"
#include "parse.h"

typedef unsigned __int128 u128;

/* Too big for every parser, and still no overflow once multiplied by 1e9. */
#define REF_SAT ((u128)1 << 90)

/* Decimal digits at *p (at least one), saturated at REF_SAT. */
static bool ref_digits(const char **p, u128 *val)
{
	const char *s = *p;
	u128 v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (unsigned)(*s - '0');
		if (v > REF_SAT)
			v = REF_SAT;
	}
	*p = s;
	*val = v;
	return true;
}

static bool ref_llong(const char *s, long long min, long long max, long long *out)
{
	bool neg = *s == '-';
	u128 v;

	s += neg;
	if (!ref_digits(&s, &v) || *s)
		return false;
	if (neg) {
		if (v > (u128)LLONG_MAX + 1 || -(__int128)v < min)
			return false;
		*out = (long long)-(__int128)v;
	} else {
		if (v > (u128)LLONG_MAX)
			return false;
		*out = (long long)v;
	}
	return *out >= min && *out <= max;
}

static bool ref_ns_time(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "us", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	u128 v;

	if (!ref_digits(&s, &v))
		return false;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(s, units[i].unit))
			continue;
		if (v * units[i].mult > UINT64_MAX)
			return false;
		*ns = (uint64_t)(v * units[i].mult);
		return true;
	}
	return false;
}

static bool ref_cpu_list(const char *s, int limit, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (;;) {
		u128 first, last;

		if (!ref_digits(&s, &first))
			return false;
		last = first;
		if (*s == '-') {
			s++;
			if (!ref_digits(&s, &last))
				return false;
		}
		if (last < first || last >= (u128)limit)
			return false;
		for (int cpu = (int)first; cpu <= (int)last; cpu++)
			CPU_SET(cpu, set);
		if (!*s)
			return true;
		if (*s++ != ',')
			return false;
	}
}

static const int nr_cpus_tried[] = { 1, 4, 64, 1000, CPU_SETSIZE, CPU_SETSIZE + 7 };

static void check_cpu_list(const char *s, char *err)
{
	for (size_t i = 0; i < sizeof(nr_cpus_tried) / sizeof(nr_cpus_tried[0]); i++) {
		int nr = nr_cpus_tried[i], limit = nr < CPU_SETSIZE ? nr : CPU_SETSIZE;
		static char text[8 * CPU_SETSIZE], again[8 * CPU_SETSIZE];
		cpu_set_t set, back, want;
		bool ok = ref_cpu_list(s, limit, &want);
		int ret = parse_cpu_list(s, nr, &set, err);
		size_t small_len = 1 + (strlen(s) % 13);
		char *small;

		if (ret) {
			FUZZ_CHECK(ret == -EINVAL && !ok);
			fuzz_err_check(err);
			continue;
		}
		FUZZ_CHECK(ok && CPU_EQUAL(&set, &want));
		FUZZ_CHECK(CPU_COUNT(&set) > 0);
		for (int cpu = limit; cpu < CPU_SETSIZE; cpu++)
			FUZZ_CHECK(!CPU_ISSET(cpu, &set));

		/* round trip: the formatted list is the same set, and formats the same */
		cpu_list_format(&set, nr, text, sizeof(text));
		FUZZ_CHECK(parse_cpu_list(text, nr, &back, err) == 0);
		FUZZ_CHECK(CPU_EQUAL(&set, &back));
		FUZZ_CHECK(!strcmp(cpu_list_format(&back, nr, again, sizeof(again)), text));

		/* a short buffer holds a terminated prefix of the whole list */
		small = malloc(small_len);
		if (!small)
			abort();
		cpu_list_format(&set, nr, small, small_len);
		FUZZ_CHECK(memchr(small, '\0', small_len) != NULL);
		FUZZ_CHECK(!strncmp(small, text, strlen(small)));
		free(small);
	}
}

static void check_duration(const char *s, char *err)
{
	const char *p = s;
	long long got = -1;
	u128 v, mult = 1;
	bool ok;

	ok = ref_digits(&p, &v);
	if (ok && *p) {
		switch (*p) {
		case 's': case 'S': mult = 1; break;
		case 'm': case 'M': mult = 60; break;
		case 'h': case 'H': mult = 3600; break;
		case 'd': case 'D': mult = 86400; break;
		default: ok = false;
		}
		ok = ok && !p[1];
	}
	ok = ok && v > 0 && v * mult <= LLONG_MAX;

	if (parse_duration(s, &got, err)) {
		FUZZ_CHECK(!ok);
		fuzz_err_check(err);
		return;
	}
	FUZZ_CHECK(ok);
	FUZZ_CHECK((u128)got == v * mult);
}

static void check_llong(const char *s, char *err)
{
	static const long long ranges[][2] = {
		{ LLONG_MIN, LLONG_MAX }, { -20, 19 }, { 1, 99 }, { 0, 0 }, { LLONG_MIN, -1 },
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		long long want = 0, got = 0, us = 0, kb = 0;
		bool ok = ref_llong(s, ranges[i][0], ranges[i][1], &want);
		long long max = ranges[i][1];

		if (parse_llong(s, ranges[i][0], max, &got, err)) {
			FUZZ_CHECK(!ok);
			fuzz_err_check(err);
		} else {
			FUZZ_CHECK(ok && got == want);
		}

		/* us and kB: the same numbers, never negative (not even "-0") */
		if (max < 0)
			continue;
		ok = *s != '-' && ref_llong(s, 0, max, &want);
		if (parse_us(s, max, &us, err)) {
			FUZZ_CHECK(!ok);
			fuzz_err_check(err);
		} else {
			FUZZ_CHECK(ok && us == want);
		}
		if (parse_kb(s, max, &kb, err)) {
			FUZZ_CHECK(!ok);
			fuzz_err_check(err);
		} else {
			FUZZ_CHECK(ok && kb == want);
		}
	}
}

static void check_ns_time(const char *s, char *err)
{
	uint64_t want = 0, got = 0;
	bool ok = ref_ns_time(s, &want);

	if (parse_ns_time(s, &got, err)) {
		FUZZ_CHECK(!ok);
		fuzz_err_check(err);
		return;
	}
	FUZZ_CHECK(ok && got == want);
}

/* d:runtime:period against the kernel limits parse.c cites */
static bool ref_deadline(const char *args, struct sched_prio *want)
{
	const char *colon = strchr(args, ':');
	char runtime[64];
	size_t len;

	if (!colon)
		return false;
	len = colon - args;
	/* parse.c copies the runtime into 64 bytes and refuses a longer one */
	if (len >= sizeof(runtime))
		return false;
	memcpy(runtime, args, len);
	runtime[len] = '\0';
	if (!ref_ns_time(runtime, &want->runtime_ns) || !ref_ns_time(colon + 1, &want->period_ns))
		return false;
	return want->runtime_ns >= 1024 && want->runtime_ns <= want->period_ns &&
	       want->period_ns >= 100000 && want->period_ns <= 4194304ULL * 1000;
}

static void check_sched_prio(const char *s, char *err)
{
	struct sched_prio got, want;
	long long v = 0;
	bool ok = false;

	memset(&want, 0, sizeof(want));
	if (s[0] && s[1] == ':') {
		switch (tolower((unsigned char)s[0])) {
		case 'o':
			want.kind = SCHED_KIND_OTHER;
			ok = ref_llong(s + 2, -20, 19, &v);
			want.nice = v;
			break;
		case 'r':
		case 'f':
			want.kind = tolower((unsigned char)s[0]) == 'r' ? SCHED_KIND_RR : SCHED_KIND_FIFO;
			ok = ref_llong(s + 2, 1, 99, &v);
			want.rt_prio = v;
			break;
		case 'd':
			want.kind = SCHED_KIND_DEADLINE;
			ok = ref_deadline(s + 2, &want);
			break;
		}
	}

	if (parse_sched_prio(s, &got, err)) {
		FUZZ_CHECK(!ok);
		fuzz_err_check(err);
		return;
	}
	FUZZ_CHECK(ok);
	FUZZ_CHECK(got.kind == want.kind && got.nice == want.nice && got.rt_prio == want.rt_prio &&
		   got.runtime_ns == want.runtime_ns && got.period_ns == want.period_ns);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	char *err = fuzz_err_new();

	check_cpu_list(s, err);
	check_duration(s, err);
	check_llong(s, err);
	check_ns_time(s, err);
	check_sched_prio(s, err);
	free(err);
	free(s);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the option parsers: valid forms, every rejected form, boundaries. */
#include <errno.h>
#include <limits.h>
#include <sched.h>

#include "parse.h"
#include "tap.h"

/* A rejected input and the words its reason must hold: the value and the fault. */
struct bad {
	const char *s;
	const char *why;
};

/* The reason ERR names the fault: it holds b->why, not just any message. */
static void says(const char *err, const struct bad *b, const char *what)
{
	if (!ok(strstr(err, b->why) != NULL, "%s: '%s' is refused saying so", what, b->s))
		printf("#   got '%s', expected it to hold '%s'\n", err, b->why);
}

static void test_cpu_list(void)
{
	/* each rejected list, and what its reason must say: the value and the fault */
	static const struct bad bad[] = {
		{ "", "empty CPU list" },
		{ "a", "'a': expected a CPU number at 'a'" },
		{ "1-", "'1-': expected a CPU number at ''" },
		{ "-1", "'-1': expected a CPU number at '-1'" },
		{ "3-1", "'3-1': reversed range 3-1" },
		{ "1,,2", "'1,,2': expected a CPU number at ',2'" },
		{ "1,", "'1,': expected a CPU number at ''" },
		{ ",1", "',1': expected a CPU number at ',1'" },
		{ "1 2", "'1 2': unexpected ' '" },
		{ " 1", "' 1': expected a CPU number at ' 1'" },
		{ "1-2-3", "'1-2-3': unexpected '-'" },
		{ "4", "'4': CPU 4 does not exist (CPUs are 0-3)" },
		{ "0-4", "'0-4': CPU 4 does not exist (CPUs are 0-3)" },
		{ "1;2", "'1;2': unexpected ';'" },
		{ "0x1", "'0x1': unexpected 'x'" },
		{ "+1", "'+1': expected a CPU number at '+1'" },
		{ "99999999999999999999", "'99999999999999999999': expected a CPU number at '99999999999999999999'" },
		{ "all", "'all': expected a CPU number at 'all'" },
	};
	char err[PARSE_ERR_MAX], buf[64];
	cpu_set_t set;

	is_int(parse_cpu_list("0", 4, &set, err), 0, "cpu list: single CPU");
	is_int(CPU_COUNT(&set), 1, "cpu list: one CPU set");
	is_int(parse_cpu_list("1-3,0", 4, &set, err), 0, "cpu list: range and single");
	is_str(cpu_list_format(&set, 4, buf, sizeof(buf)), "0-3", "cpu list: formats back");
	is_int(parse_cpu_list("3", 4, &set, err), 0, "cpu list: boundary nr_cpus-1 accepted");
	is_int(parse_cpu_list("0,2,2", 4, &set, err), 0, "cpu list: duplicates accepted");
	is_str(cpu_list_format(&set, 4, buf, sizeof(buf)), "0,2", "cpu list: duplicates merge");
	is_int(parse_cpu_list("1-1", 4, &set, err), 0, "cpu list: one-CPU range");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		is_int(parse_cpu_list(bad[i].s, 4, &set, err), -EINVAL, "cpu list: rejects '%s'", bad[i].s);
		says(err, &bad[i], "cpu list");
	}
}

static void test_duration(void)
{
	static const struct { const char *s; long long v; } good[] = {
		{ "1", 1 }, { "10s", 10 }, { "10S", 10 }, { "2m", 120 }, { "1M", 60 },
		{ "3h", 10800 }, { "3H", 10800 }, { "1d", 86400 }, { "1D", 86400 },
	};
	static const struct bad bad[] = {
		{ "", "empty duration" },
		{ "0", "'0': duration must be greater than zero" },
		{ "0s", "'0s': duration must be greater than zero" },
		{ "-1", "'-1': not a duration" },
		{ "10x", "'10x': unknown unit 'x' (use s, m, h or d)" },
		{ "10ss", "'10ss': unknown unit 'ss'" },
		{ "1.5", "'1.5': unknown unit '.5'" },
		{ "s", "'s': not a duration" },
		{ "10 s", "'10 s': unknown unit ' s'" },
		{ " 10", "' 10': not a duration" },
		{ "10ms", "'10ms': unknown unit 'ms'" },
		{ "9223372036854775808", "'9223372036854775808': duration too long" },
		{ "106751991167301d", "'106751991167301d': duration too long" },
	};
	char err[PARSE_ERR_MAX];
	long long v;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = -1;
		is_int(parse_duration(good[i].s, &v, err), 0, "duration: accepts '%s'", good[i].s);
		is_int(v, good[i].v, "duration: '%s' is %lld s", good[i].s, good[i].v);
	}
	is_int(parse_duration("9223372036854775807", &v, err), 0, "duration: max accepted");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		is_int(parse_duration(bad[i].s, &v, err), -EINVAL, "duration: rejects '%s'", bad[i].s);
		says(err, &bad[i], "duration");
	}
}

static void test_sched_prio(void)
{
	static const struct bad bad[] = {
		{ "", "'': expected o:nice, r:prio, f:prio or d:runtime:period" },
		{ "x", "'x': expected o:nice, r:prio, f:prio or d:runtime:period" },
		{ "o", "'o': expected o:nice, r:prio, f:prio or d:runtime:period" },
		{ "o:", "'o:': nice must be a number in [-20, 19]" },
		{ "o:-21", "'o:-21': nice must be a number in [-20, 19]" },
		{ "o:20", "'o:20': nice must be a number in [-20, 19]" },
		{ "o:1x", "'o:1x': nice must be a number in [-20, 19]" },
		{ "r:0", "'r:0': real-time priority must be a number in [1, 99]" },
		{ "r:100", "'r:100': real-time priority must be a number in [1, 99]" },
		{ "f:0", "'f:0': real-time priority must be a number in [1, 99]" },
		{ "f:100", "'f:100': real-time priority must be a number in [1, 99]" },
		{ "f:-1", "'f:-1': real-time priority must be a number in [1, 99]" },
		{ "r:", "'r:': real-time priority must be a number in [1, 99]" },
		{ "q:1", "'q:1': unknown policy 'q' (use o, r, f or d)" },
		{ "o1", "'o1': expected o:nice, r:prio, f:prio or d:runtime:period" },
		{ "d:", "'d:': expected d:runtime:period" },
		{ "d:1ms", "'d:1ms': expected d:runtime:period" },
		{ "d:1ms:", "'' is not a time" },
		{ "d:2ms:1ms", "'d:2ms:1ms': deadline runtime is longer than the period" },
		{ "d:1000:1ms", "'d:1000:1ms': deadline runtime must be at least 1024ns" },
		{ "d:1ms:99us", "'d:1ms:99us': deadline runtime is longer than the period" },
		{ "d:1ms:5s", "'d:1ms:5s': deadline period must be within [100us, 4194304us]" },
		{ "d:1xs:10ms", "'1xs': unknown time unit 'xs'" },
		{ "d:1ms:10ms:1", "'10ms:1': unknown time unit 'ms:1'" },
	};
	struct sched_prio p;
	char err[PARSE_ERR_MAX];

	is_int(parse_sched_prio("o:-20", &p, err), 0, "prio: o:-20 (min nice)");
	is_int(p.nice, -20, "prio: nice -20");
	is_int(parse_sched_prio("O:19", &p, err), 0, "prio: O:19 (max nice, upper case)");
	is_int(p.kind, SCHED_KIND_OTHER, "prio: o is SCHED_OTHER");
	is_int(parse_sched_prio("r:1", &p, err), 0, "prio: r:1 (min)");
	is_int(p.kind, SCHED_KIND_RR, "prio: r is SCHED_RR");
	is_int(parse_sched_prio("f:99", &p, err), 0, "prio: f:99 (max)");
	is_int(p.kind, SCHED_KIND_FIFO, "prio: f is SCHED_FIFO");
	is_int(p.rt_prio, 99, "prio: priority 99");
	is_int(parse_sched_prio("F:95", &p, err), 0, "prio: F:95 upper case");
	is_int(parse_sched_prio("d:500us:1ms", &p, err), 0, "prio: d:500us:1ms");
	is_int(p.runtime_ns, 500000, "prio: deadline runtime in ns");
	is_int(p.period_ns, 1000000, "prio: deadline period in ns");
	is_int(parse_sched_prio("D:1024ns:100us", &p, err), 0, "prio: deadline minimums");
	is_int(parse_sched_prio("d:1s:4194304us", &p, err), 0, "prio: deadline max period");
	is_int(parse_sched_prio("d:100000:1ms", &p, err), 0, "prio: unitless runtime is ns");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		is_int(parse_sched_prio(bad[i].s, &p, err), -EINVAL, "prio: rejects '%s'", bad[i].s);
		says(err, &bad[i], "prio");
	}
}

static void test_numbers(void)
{
	/* parse_us() and parse_kb() share the checks but for the sign's unit */
	static const struct { struct bad us; const char *kb_why; } bad[] = {
		{ { "", "empty number" }, NULL },
		{ { "-1", "'-1': microseconds cannot be negative" }, "'-1': kB cannot be negative" },
		{ { "1x", "'1x' is not a valid number" }, NULL },
		{ { "x", "'x' is not a valid number" }, NULL },
		{ { "1.0", "'1.0' is not a valid number" }, NULL },
		{ { " 1", "' 1' is not a valid number" }, NULL },
		{ { "+1", "'+1' is not a valid number" }, NULL },
		{ { "0x10", "'0x10' is not a valid number" }, NULL },
		{ { "10001", "'10001' is out of range [0, 10000]" }, NULL },
		{ { "99999999999999999999", "'99999999999999999999' is out of range [0, 10000]" }, NULL },
	};
	char err[PARSE_ERR_MAX];
	long long v;

	is_int(parse_us("0", 10000, &v, err), 0, "us: 0 accepted");
	is_int(parse_us("10000", 10000, &v, err), 0, "us: max accepted");
	is_int(v, 10000, "us: value");
	is_int(parse_us("9223372036854775807", LLONG_MAX, &v, err), 0, "us: LLONG_MAX accepted");
	is_int(parse_us("9223372036854775808", LLONG_MAX, &v, err), -EINVAL, "us: LLONG_MAX+1 rejected");
	says(err, &(struct bad){ "9223372036854775808", "'9223372036854775808' is out of range" }, "us");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct bad kb = { bad[i].us.s, bad[i].kb_why ? bad[i].kb_why : bad[i].us.why };

		err[0] = '\0';
		is_int(parse_us(bad[i].us.s, 10000, &v, err), -EINVAL, "us: rejects '%s'", bad[i].us.s);
		says(err, &bad[i].us, "us");
		err[0] = '\0';
		is_int(parse_kb(kb.s, 10000, &v, err), -EINVAL, "kB: rejects '%s'", kb.s);
		says(err, &kb, "kB");
	}
	is_int(parse_kb("4096", 1 << 30, &v, err), 0, "kB: 4096 accepted");
	is_int(parse_llong("-5", -5, 5, &v, err), 0, "llong: min accepted");
	is_int(parse_llong("-6", -5, 5, &v, err), -EINVAL, "llong: min-1 rejected");
	says(err, &(struct bad){ "-6", "'-6' is out of range [-5, 5]" }, "llong");
	is_int(parse_llong("-9223372036854775808", LLONG_MIN, 0, &v, err), 0, "llong: LLONG_MIN");
	is_int(v, LLONG_MIN, "llong: LLONG_MIN value");
}

int main(void)
{
	test_cpu_list();
	test_duration();
	test_sched_prio();
	test_numbers();
	return tap_done();
}

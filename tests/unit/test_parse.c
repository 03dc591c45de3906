// SPDX-License-Identifier: GPL-2.0-only
/* Unit tests of the option parsers: valid forms, every rejected form, boundaries. */
#include <errno.h>
#include <limits.h>
#include <sched.h>

#include "parse.h"
#include "tap.h"

static void test_cpu_list(void)
{
	static const char *bad[] = {
		"", "a", "1-", "-1", "3-1", "1,,2", "1,", ",1", "1 2", " 1", "1-2-3",
		"4", "0-4", "1;2", "0x1", "+1", "99999999999999999999", "all",
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
		is_int(parse_cpu_list(bad[i], 4, &set, err), -EINVAL, "cpu list: rejects '%s'", bad[i]);
		ok(err[0] != '\0', "cpu list: '%s' gives a reason (%s)", bad[i], err);
	}
}

static void test_duration(void)
{
	static const struct { const char *s; long long v; } good[] = {
		{ "1", 1 }, { "10s", 10 }, { "10S", 10 }, { "2m", 120 }, { "1M", 60 },
		{ "3h", 10800 }, { "3H", 10800 }, { "1d", 86400 }, { "1D", 86400 },
	};
	static const char *bad[] = {
		"", "0", "0s", "-1", "10x", "10ss", "1.5", "s", "10 s", " 10", "10ms",
		"9223372036854775808", "106751991167301d",
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
		is_int(parse_duration(bad[i], &v, err), -EINVAL, "duration: rejects '%s'", bad[i]);
		ok(err[0] != '\0', "duration: '%s' gives a reason (%s)", bad[i], err);
	}
}

static void test_sched_prio(void)
{
	static const char *bad[] = {
		"", "x", "o", "o:", "o:-21", "o:20", "o:1x", "r:0", "r:100", "f:0", "f:100",
		"f:-1", "r:", "q:1", "o1", "d:", "d:1ms", "d:1ms:", "d:2ms:1ms", "d:1000:1ms",
		"d:1ms:99us", "d:1ms:5s", "d:1xs:10ms", "d:1ms:10ms:1",
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
		is_int(parse_sched_prio(bad[i], &p, err), -EINVAL, "prio: rejects '%s'", bad[i]);
		ok(err[0] != '\0', "prio: '%s' gives a reason (%s)", bad[i], err);
	}
}

static void test_numbers(void)
{
	static const char *bad[] = { "", "-1", "1x", "x", "1.0", " 1", "+1", "0x10", "10001",
				     "99999999999999999999" };
	char err[PARSE_ERR_MAX];
	long long v;

	is_int(parse_us("0", 10000, &v, err), 0, "us: 0 accepted");
	is_int(parse_us("10000", 10000, &v, err), 0, "us: max accepted");
	is_int(v, 10000, "us: value");
	is_int(parse_us("9223372036854775807", LLONG_MAX, &v, err), 0, "us: LLONG_MAX accepted");
	is_int(parse_us("9223372036854775808", LLONG_MAX, &v, err), -EINVAL, "us: LLONG_MAX+1 rejected");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		is_int(parse_us(bad[i], 10000, &v, err), -EINVAL, "us: rejects '%s'", bad[i]);
		ok(err[0] != '\0', "us: '%s' gives a reason (%s)", bad[i], err);
		is_int(parse_kb(bad[i], 10000, &v, err), -EINVAL, "kB: rejects '%s'", bad[i]);
	}
	is_int(parse_kb("4096", 1 << 30, &v, err), 0, "kB: 4096 accepted");
	is_int(parse_llong("-5", -5, 5, &v, err), 0, "llong: min accepted");
	is_int(parse_llong("-6", -5, 5, &v, err), -EINVAL, "llong: min-1 rejected");
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

// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of osnoise hist / hwnoise hist: upstream's histogram text byte
 * for byte (buckets, the over row, --with-zeros, --no-index, --no-header,
 * --no-summary, the empty output), the exact figures of the JSON record,
 * the duration map, and the hist options with upstream's messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "json.h"
#include "msg.h"
#include "osnoise/hist.h"
#include "osnoise/osnoise.h"
#include "tap.h"

static const struct noise_backend test_backend = { .name = "test" };

/* A finished run of osnoise hist over CPUs 0-3, of which 0-2 are measured. */
struct fixture {
	struct noise_params p;
	struct noise_run run;
};

static void fixture_init(struct fixture *fx)
{
	memset(fx, 0, sizeof(*fx));
	fx->p.nr_cpus = 4;
	fx->p.bucket_us = 1;
	fx->p.entries = 256;
	CPU_ZERO(&fx->p.cpus);
	for (int cpu = 0; cpu < 3; cpu++)
		CPU_SET(cpu, &fx->p.cpus);
	fx->run.tool = &osnoise_hist_tool;
	fx->run.params = &fx->p;
	fx->run.backend = &test_backend;
	fx->run.want_samples = true;
	if (osnoise_hist_tool.sink_new(&fx->run))
		abort();
}

static void fixture_free(struct fixture *fx)
{
	osnoise_hist_tool.sink_free(&fx->run);
}

/* samples of CPU, in ns, ending with 0 */
static void add(struct fixture *fx, int cpu, ...)
{
	va_list ap;
	uint64_t ns;

	va_start(ap, cpu);
	while ((ns = va_arg(ap, uint64_t)))
		noise_run_add_sample(&fx->run, cpu, ns);
	va_end(ap);
}

static char *print(struct fixture *fx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fx->run.tool->print_final(f, &fx->run, fx->run.start_time + 65);
	fclose(f);
	return text;
}

#define HEADER "# RTLA osnoise histogram\n# Time unit is microseconds (us)\n" \
	       "# Duration:   0 00:01:05\n"

static void test_text(void)
{
	struct fixture fx;
	char *s;

	/* CPU 0: 1.5, 2.0, 2.999 us; CPU 2: 2.2 and 300 us (over); CPU 1 nothing; CPU 3 not measured */
	fixture_init(&fx);
	add(&fx, 0, 1500ULL, 2000ULL, 2999ULL, 0ULL);
	add(&fx, 2, 2200ULL, 300000ULL, 0ULL);
	add(&fx, 3, 5000ULL, 0ULL);
	s = print(&fx);
	is_str(s, HEADER
		  "Index   CPU-000   CPU-002\n"
		  "1             1         0 \n"
		  "2             2         1 \n"
		  "over:         0         1 \n"
		  "count:        3         2 \n"
		  "min:          1         2 \n"
		  "avg:       1.67    151.00 \n"
		  "max:          2       300 \n",
	       "columns for measured CPUs with samples; zero rows dropped; 300 us is over 256 entries");
	free(s);

	fx.p.with_zeros = true;
	fx.p.entries = 4;
	s = print(&fx);
	is_str(s, HEADER
		  "Index   CPU-000   CPU-002\n"
		  "0             0         0 \n"
		  "1             1         0 \n"
		  "2             2         1 \n"
		  "3             0         0 \n"
		  "over:         0         1 \n"
		  "count:        3         2 \n"
		  "min:          1         2 \n"
		  "avg:       1.67    151.00 \n"
		  "max:          2       300 \n",
	       "--with-zeros -E 4: every row from 0 to 3");
	free(s);

	fx.p.no_index = true;
	fx.p.no_header = true;
	s = print(&fx);
	is_str(s, "        0         0 \n"
		  "        1         0 \n"
		  "        2         1 \n"
		  "        0         0 \n"
		  "        0         1 \n"
		  "        3         2 \n"
		  "        1         2 \n"
		  "     1.67    151.00 \n"
		  "        2       300 \n",
	       "--no-index --no-header: neither the index column nor the labels");
	free(s);

	fx.p.no_index = fx.p.no_header = fx.p.with_zeros = false;
	fx.p.no_summary = true;
	fx.p.entries = 256;
	fx.run.missed_events = 1;
	fx.run.processed_events = 3;
	s = print(&fx);
	is_str(s, HEADER
		  "Index   CPU-000   CPU-002\n"
		  "1             1         0 \n"
		  "2             2         1 \n"
		  "over:         0         1 \n"
		  "1 (25.00%) events missed, results might not be accurate\n",
	       "--no-summary: the over row stays, and the missed-events line follows");
	free(s);
	fixture_free(&fx);
}

static void test_buckets(void)
{
	struct fixture fx;
	char *s;

	/* -b 10 -E 3: buckets 0, 10, 20; 30 us and more is over; summary in bucket floors */
	fixture_init(&fx);
	fx.p.bucket_us = 10;
	fx.p.entries = 3;
	add(&fx, 1, 9999ULL, 10000ULL, 19999ULL, 25500ULL, 30000ULL, 1000000ULL, 0ULL);
	s = print(&fx);
	is_str(s, HEADER
		  "Index   CPU-001\n"
		  "0             1 \n"
		  "10            2 \n"
		  "20            1 \n"
		  "over:         2 \n"
		  "count:        6 \n"
		  "min:          0 \n"
		  "avg:     178.33 \n"
		  "max:       1000 \n",
	       "-b 10 -E 3: 10 us wide buckets, floors in min/avg/max, two samples over");
	free(s);
	fixture_free(&fx);

	/* a wide index keeps its digits: %-6d is a minimum width */
	fixture_init(&fx);
	fx.p.bucket_us = 1000;
	fx.p.entries = 9999999;
	add(&fx, 0, 1234567890ULL, 0ULL);
	s = print(&fx);
	ok(strstr(s, "\n1234000        1 \n") != NULL, "an index wider than 6 columns");
	free(s);
	fixture_free(&fx);
}

static void test_empty(void)
{
	struct fixture fx;
	char *s;

	fixture_init(&fx);
	s = print(&fx);
	is_str(s, HEADER "Index\nover: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0\n",
	       "nothing sampled: the header without columns, then upstream's zero block");
	free(s);
	fx.p.no_header = true;
	fx.p.no_summary = true;
	s = print(&fx);
	is_str(s, "over: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0\n",
	       "the zero block even with --no-summary");
	free(s);
	/* every sample over the last bucket: a column in the header, no row, the zero block */
	fx.p.no_header = false;
	fx.p.entries = 10;
	add(&fx, 2, 50000ULL, 0ULL);
	s = print(&fx);
	is_str(s, HEADER "Index   CPU-002\nover: 0\ncount: 0\nmin: 0\navg: 0\nmax: 0\n",
	       "all samples over: as upstream, the zero block");
	free(s);
	fixture_free(&fx);
}

static void test_map(void)
{
	struct noise_hist *h = noise_hist_new(2);
	struct hist_slot *s;
	uint64_t total = 0;
	size_t n;
	bool sorted = true;

	/* 20000 distinct durations, the first ten 3 times: the map grows and keeps counts */
	for (uint64_t us = 0; us < 20000; us++)
		for (int k = 0; k < (us < 10 ? 3 : 1); k++)
			noise_hist_add(h, 1, us * 1000 + 999);
	s = noise_hist_sorted(h, 1, &n);
	is_int(n, 20000, "20000 distinct durations");
	for (size_t i = 0; i < n; i++) {
		total += s[i].count;
		sorted &= s[i].us == i;
	}
	ok(sorted, "sorted by duration, each one once");
	is_int(total, 20020, "every sample counted");
	is_int(s[9].count, 3, "repeated durations share one slot");
	is_int(h->cpu[1].min_ns, 999, "exact minimum in ns");
	is_int(h->cpu[1].max_ns, 19999999, "exact maximum in ns");
	ok(h->cpu[1].cap <= 32768, "the map stays within twice the keys (%zu slots)", h->cpu[1].cap);
	free(s);
	ok(!noise_hist_sorted(h, 0, &n) && n == 0, "a CPU without samples has none");
	is_int(noise_hist_add(h, 2, 1000), -EINVAL, "a CPU out of range is refused");
	noise_hist_free(h);
}

static void test_percentiles(void)
{
	struct hist_slot one_to_100[100], skewed[] = { { 2, 990 }, { 3, 9 }, { 700, 1 } };

	for (int i = 0; i < 100; i++)
		one_to_100[i] = (struct hist_slot){ .us = i + 1, .count = 1 };
	is_int(noise_hist_percentile(one_to_100, 100, 100, 5000), 50, "1..100: p50 is 50");
	is_int(noise_hist_percentile(one_to_100, 100, 100, 9000), 90, "1..100: p90 is 90");
	is_int(noise_hist_percentile(one_to_100, 100, 100, 9900), 99, "1..100: p99 is 99");
	is_int(noise_hist_percentile(one_to_100, 100, 100, 9990), 100, "1..100: p99.9 is 100");
	is_int(noise_hist_percentile(one_to_100, 1, 1, 5000), 1, "one sample: every percentile is it");
	is_int(noise_hist_percentile(skewed, 3, 1000, 9900), 2, "990 of 1000 at 2 us: p99 is 2");
	is_int(noise_hist_percentile(skewed, 3, 1000, 9990), 3, "p99.9 is the 999th: 3");
	is_int(noise_hist_percentile(skewed, 3, 1000, 9999), 700, "p99.99 is the last: 700");
	is_int(noise_hist_percentile(skewed, 0, 0, 5000), 0, "no samples: 0");
}

static char *json(struct fixture *fx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;

	json_init(&j, f);
	json_object_begin(&j, NULL);
	fx->run.tool->json_part(&j, &fx->run);
	json_object_end(&j);
	fclose(f);
	return text;
}

static void test_json(void)
{
	struct fixture fx;
	struct noise_period per = { .cpu = 1, .runtime = 1000000 };
	char *s;

	fixture_init(&fx);
	fx.p.bucket_us = 5;
	fx.p.entries = 2;
	add(&fx, 0, 1500ULL, 2000ULL, 2999ULL, 7250ULL, 12000ULL, 0ULL);
	noise_run_add_period(&fx.run, &per);
	s = json(&fx);
	ok(strstr(s, "\"bucket_size_us\": 5,\n    \"entries\": 2,\n    \"resolution_ns\": 1\n") != NULL,
	   "the histogram's shape; samples one by one are exact to the ns");
	ok(strstr(s, "\"cpu\": 0,\n      \"periods\": 0,\n      \"count\": 5,\n"
		     "      \"min_us\": 1.500,\n      \"avg_us\": 5.150,\n      \"max_us\": 12.000,\n"
		     "      \"p50_us\": 2,\n      \"p90_us\": 12,\n      \"p99_us\": 12,\n"
		     "      \"p999_us\": 12,\n      \"p9999_us\": 12,\n      \"over_count\": 1,\n"
		     "      \"buckets\": [\n        [0, 3],\n        [5, 1]\n      ]\n") != NULL,
	   "exact min, avg and max, percentiles, the over count and the non-empty buckets");
	ok(strstr(s, "\"cpu\": 1,\n      \"periods\": 1,\n      \"count\": 0,\n      \"min_us\": null,")
	   != NULL && strstr(s, "\"p9999_us\": null,\n      \"over_count\": 0,\n      \"buckets\": [],\n"
				"      \"reason\": \"no noise at or above the threshold\"\n") != NULL,
	   "a measured CPU without samples: null figures and why");
	ok(strstr(s, "\"cpu\": 2,\n      \"periods\": 0,") &&
	   strstr(s, "no period of this CPU was measured"),
	   "a CPU that completed no period says so");
	if (!ok(!strstr(s, "\"cpu\": 3"), "an unmeasured CPU has no entry"))
		printf("%s", s);
	free(s);
	fixture_free(&fx);
}

/* The tracer's samples: counted by the kernel per CPU and whole us, with the sum in ns. */
static void test_counted(void)
{
	struct fixture fx;
	char *s;

	fixture_init(&fx);
	noise_run_add_samples(&fx.run, 0, 2, 3, 7500);		/* 2.1, 2.5, 2.9 us */
	noise_run_add_samples(&fx.run, 0, 40, 1, 40999);
	noise_run_add_samples(&fx.run, 0, 9, 0, 0);		/* nothing */
	noise_run_add_samples(&fx.run, 7, 9, 1, 9000);		/* no such CPU */
	s = print(&fx);
	is_str(s, HEADER
		  "Index   CPU-000\n"
		  "2             3 \n"
		  "40            1 \n"
		  "over:         0 \n"
		  "count:        4 \n"
		  "min:          2 \n"
		  "avg:      11.50 \n"
		  "max:         40 \n",
	       "counted samples: the same text as one by one");
	free(s);
	s = json(&fx);
	ok(strstr(s, "\"resolution_ns\": 1000\n") && strstr(s, "\"min_us\": 2.000,\n      "
		  "\"avg_us\": 12.125,\n      \"max_us\": 40.000,\n      \"p50_us\": 2,"),
	   "counted: the mean exact from the ns sum, the extremes to the us, and it says so");
	free(s);
	fixture_free(&fx);
}

/* parse as `rtla osnoise hist ARGS`: the status, and what went to stderr in ERR */
static int parse(const struct noise_tool *tool, struct noise_params *p, char *err, size_t len, ...)
{
	char *argv[32] = { "hist" }, path[] = "/tmp/test_hist.XXXXXX";
	int argc = 1, ret, saved, fd = mkstemp(path);
	ssize_t n;
	va_list ap;

	va_start(ap, len);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	fflush(stderr);
	fflush(stdout);
	saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	ret = noise_parse_args(argc, argv, tool, p);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
	if (!ret)
		noise_params_free(p);
	return ret;
}

static void test_options(void)
{
	static const struct {
		const char *args[3];
		const char *err;
	} bad[] = {
		{ { "-b", "0" }, "rtla osnoise: Bucket size needs to be > 0 and <= 1000000\n" },
		{ { "-b", "1000000" }, "rtla osnoise: Bucket size needs to be > 0 and <= 1000000\n" },
		{ { "--bucket-size=-1" }, "rtla osnoise: Bucket size needs to be > 0 and <= 1000000\n" },
		{ { "-b", "x" }, "rtla osnoise: Invalid -b bucket size: 'x' is not a valid number\n" },
		{ { "-E", "9" }, "rtla osnoise: Entries must be > 10 and < 9999999\n" },
		{ { "-E", "10000000" }, "rtla osnoise: Entries must be > 10 and < 9999999\n" },
		{ { "--entries", "" }, "rtla osnoise: Invalid -E entries: empty number\n" },
		{ { "--no-index" },
		  "rtla osnoise: no-index set and with-zeros not set - it does not make sense\n" },
		{ { "-q" }, "rtla osnoise: unknown option: -q\n" },
	};
	struct noise_params p;
	char err[512];

	msg_set_prefix("rtla osnoise: ");
	is_int(parse(&osnoise_hist_tool, &p, err, sizeof(err), NULL), 0, "hist without options");
	is_int(p.bucket_us, 1, "default bucket size 1");
	is_int(p.entries, 256, "default 256 entries");
	ok(!p.irq_disabled && p.runtime_us == 1000000 && p.period_us == 1000000,
	   "osnoise hist: IRQs on, 1 s of 1 s");
	is_int(parse(&hwnoise_hist_tool, &p, err, sizeof(err), NULL), 0, "hwnoise hist without options");
	ok(p.irq_disabled && p.runtime_us == 750000 && p.period_us == 1000000,
	   "hwnoise hist: IRQs off, 750 ms of 1 s");
	is_int(parse(&osnoise_hist_tool, &p, err, sizeof(err), "-b", "999999", "-E", "10",
		     "--no-index", "--with-zeros", "--no-header", "--no-summary", NULL), 0,
	       "the largest bucket, the fewest entries, every flag");
	ok(p.bucket_us == 999999 && p.entries == 10 && p.no_index && p.with_zeros && p.no_header &&
	   p.no_summary, "... all taken");
	is_int(parse(&osnoise_hist_tool, &p, err, sizeof(err), "--bucket-size=7", "--entries",
		     "9999999", NULL), 0, "long forms, the most entries");
	ok(p.bucket_us == 7 && p.entries == 9999999, "... taken");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		is_int(parse(&osnoise_hist_tool, &p, err, sizeof(err), bad[i].args[0], bad[i].args[1],
			     bad[i].args[2], NULL), CLI_ERROR, "%s %s: refused", bad[i].args[0],
		       bad[i].args[1] ? bad[i].args[1] : "");
		is_str(err, bad[i].err, "  with upstream's words");
	}
	is_int(parse(&osnoise_top_tool, &p, err, sizeof(err), "-b", "5", NULL), CLI_ERROR,
	       "top has no -b");
	msg_set_prefix(NULL);
}

int main(void)
{
	test_text();
	test_buckets();
	test_empty();
	test_map();
	test_percentiles();
	test_json();
	test_counted();
	test_options();
	return tap_done();
}

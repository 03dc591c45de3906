// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of Dhrystone: a run's final values pass the check, every
 * deliberately corrupted value fails it, parallel workers keep their own
 * state, a dead worker is reported, and the runner measures exactly the runs
 * it was asked for.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dhry/dhry.h"
#include "dhry/runner.h"
#include "sysroot.h"
#include "tap.h"

#define RUNS 5000

/* A corruption of one final value, and the name the check must report. */
struct corruption {
	const char *name;
	void (*apply)(struct dhry_final *f);
};

static void c_int_glob(struct dhry_final *f) { f->int_glob = 4; }
static void c_bool_glob(struct dhry_final *f) { f->bool_glob = 0; }
static void c_ch_1(struct dhry_final *f) { f->ch_1_glob = 'B'; }
static void c_ch_2(struct dhry_final *f) { f->ch_2_glob = 'A'; }
static void c_arr_1(struct dhry_final *f) { f->arr_1_glob_8 = 8; }
static void c_arr_2(struct dhry_final *f) { f->arr_2_glob_8_7 += 1; }
static void c_glob_ptr(struct dhry_final *f) { f->glob.ptr_comp = NULL; }
static void c_glob_discr(struct dhry_final *f) { f->glob.discr = IDENT_2; }
static void c_glob_enum(struct dhry_final *f) { f->glob.variant.var_1.enum_comp = IDENT_1; }
static void c_glob_int(struct dhry_final *f) { f->glob.variant.var_1.int_comp = 40; }
static void c_glob_str(struct dhry_final *f) { f->glob.variant.var_1.str_comp[0] = 'd'; }
static void c_next_ptr(struct dhry_final *f) { f->next.ptr_comp = (void *)f; }
static void c_next_discr(struct dhry_final *f) { f->next.discr = IDENT_5; }
static void c_next_enum(struct dhry_final *f) { f->next.variant.var_1.enum_comp = IDENT_3; }
static void c_next_int(struct dhry_final *f) { f->next.variant.var_1.int_comp = 6; }
static void c_next_str(struct dhry_final *f)
{
	memset(f->next.variant.var_1.str_comp, 'X', DHRY_STR_LEN);	/* no NUL at all */
}
static void c_int_1(struct dhry_final *f) { f->int_1_loc = 1; }
static void c_int_2(struct dhry_final *f) { f->int_2_loc = 3; }
static void c_int_3(struct dhry_final *f) { f->int_3_loc = 0; }
static void c_enum(struct dhry_final *f) { f->enum_loc = IDENT_1; }
static void c_str_1(struct dhry_final *f) { strcpy(f->str_1_loc, "DHRYSTONE PROGRAM, 3'RD STRING"); }
static void c_str_2(struct dhry_final *f) { f->str_2_loc[29] = '\0'; }

static const struct corruption corruptions[] = {
	{ "Int_Glob", c_int_glob },
	{ "Bool_Glob", c_bool_glob },
	{ "Ch_1_Glob", c_ch_1 },
	{ "Ch_2_Glob", c_ch_2 },
	{ "Arr_1_Glob[8]", c_arr_1 },
	{ "Arr_2_Glob[8][7]", c_arr_2 },
	{ "Ptr_Glob->Ptr_Comp", c_glob_ptr },
	{ "Ptr_Glob->Discr", c_glob_discr },
	{ "Ptr_Glob->Enum_Comp", c_glob_enum },
	{ "Ptr_Glob->Int_Comp", c_glob_int },
	{ "Ptr_Glob->Str_Comp", c_glob_str },
	{ "Next_Ptr_Glob->Ptr_Comp", c_next_ptr },
	{ "Next_Ptr_Glob->Discr", c_next_discr },
	{ "Next_Ptr_Glob->Enum_Comp", c_next_enum },
	{ "Next_Ptr_Glob->Int_Comp", c_next_int },
	{ "Next_Ptr_Glob->Str_Comp", c_next_str },
	{ "Int_1_Loc", c_int_1 },
	{ "Int_2_Loc", c_int_2 },
	{ "Int_3_Loc", c_int_3 },
	{ "Enum_Loc", c_enum },
	{ "Str_1_Loc", c_str_1 },
	{ "Str_2_Loc", c_str_2 },
};

/* Every online CPU at once: each worker keeps its own count of runs. */
static void test_parallel(void)
{
	struct dhry_opts o = { .iterations = 30001, .seconds = 2 };
	struct dhry_result r[CPU_SETSIZE > 64 ? 64 : CPU_SETSIZE];
	int n, good = 0;

	sched_getaffinity(0, sizeof(o.cpus), &o.cpus);
	while (CPU_COUNT(&o.cpus) > 64)
		for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
			if (CPU_ISSET(cpu, &o.cpus)) {
				CPU_CLR(cpu, &o.cpus);
				break;
			}
	n = dhry_measure(&o, r, 64);
	is_int(n, CPU_COUNT(&o.cpus), "parallel: a result per CPU");
	for (int i = 0; i < n; i++)
		good += !r[i].error && !r[i].failed && r[i].iterations == 30001;
	is_int(good, n, "parallel: every CPU passed with exactly its runs");
}

/* A worker that dies is its CPU's error; the others neither wait for it nor fail. */
static void test_dead_worker(void)
{
	struct dhry_opts o = { .iterations = 1000, .seconds = 2, .fault = true,
			       .fault_signal = SIGKILL };
	struct dhry_result r[2];
	int cpu = sched_getcpu(), other = -1, n, dead;
	cpu_set_t allowed;

	sched_getaffinity(0, sizeof(allowed), &allowed);
	for (int c = 0; c < CPU_SETSIZE && other < 0; c++)
		if (c != cpu && CPU_ISSET(c, &allowed))
			other = c;
	CPU_ZERO(&o.cpus);
	CPU_SET(cpu, &o.cpus);
	if (other >= 0)
		CPU_SET(other, &o.cpus);
	o.fault_cpu = cpu;
	n = dhry_measure(&o, r, 2);
	is_int(n, other >= 0 ? 2 : 1, "dead worker: a result per CPU");
	dead = r[0].cpu == cpu ? 0 : 1;
	is_int(r[dead].error, -ECHILD, "dead worker: an error");
	ok(strstr(r[dead].why, "died: Killed") != NULL, "dead worker: says so (%s)", r[dead].why);
	if (other >= 0)
		ok(!r[!dead].error && !r[!dead].failed && r[!dead].iterations == 1000,
		   "dead worker: the other CPU still ran (%s)", r[!dead].why);
	else
		ok(true, "dead worker: the other CPU still ran # SKIP one CPU only");
}

static void test_runner(void)
{
	struct dhry_opts o = { .iterations = 1234, .seconds = 2 };
	struct dhry_result r[2];
	int cpu = sched_getcpu(), n;

	CPU_ZERO(&o.cpus);
	CPU_SET(cpu, &o.cpus);
	n = dhry_measure(&o, r, 2);
	is_int(n, 1, "runner: one CPU, one result");
	is_int(r[0].cpu, cpu, "runner: the CPU asked for");
	ok(!r[0].error && !r[0].failed, "runner: the run passed its check (%s)", r[0].why);
	is_int(r[0].iterations, 1234, "runner: exactly -i runs");
	ok(r[0].ns > 0, "runner: the runs took time");

	CPU_ZERO(&o.cpus);
	is_int(dhry_measure(&o, r, 2), -EINVAL, "runner: no CPU is an error");
}

/*
 * The clock from cpufreq: a fake scaling_cur_freq under a sysroot, which
 * only redirects file reads; the benchmark still runs on this CPU.
 */
static void test_cpufreq(void)
{
	struct dhry_opts o = { .iterations = 20000, .seconds = 2 };
	char dir[] = "/tmp/test_dhry.XXXXXX", path[256];
	struct dhry_result r;
	int cpu = sched_getcpu();
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(false, "cpufreq: temporary folder");
		return;
	}
	snprintf(path, sizeof(path), "mkdir -p %s/sys/devices/system/cpu/cpu%d/cpufreq", dir, cpu);
	if (system(path))
		return;
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq",
		 dir, cpu);
	f = fopen(path, "w");
	fputs("1500000\n", f);
	fclose(f);

	CPU_ZERO(&o.cpus);
	CPU_SET(cpu, &o.cpus);
	sysroot_set(dir);
	dhry_measure(&o, &r, 1);
	sysroot_set("/");
	ok(!r.error && !r.failed, "cpufreq: the run passed");
	if (r.clock == DHRY_CLOCK_PERF) {
		ok(r.mhz > 0, "cpufreq: perf counted cycles first (%.0f MHz) # SKIP the PMU wins", r.mhz);
	} else {
		is_str(dhry_clock_name(r.clock), "cpufreq", "cpufreq: the clock's source");
		ok(r.mhz > 1499.9 && r.mhz < 1500.1, "cpufreq: 1500000 kHz is 1500 MHz (%.1f)", r.mhz);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		ok(false, "cpufreq: clean up");
}

int main(void)
{
	struct dhry_final good, bad;
	char why[DHRY_WHY_MAX];
	uint64_t ns = 0;
	int ret;

	ret = dhry_run(RUNS, &good, &ns);
	is_int(ret, 0, "a run of %d iterations", RUNS);
	is_int(dhry_check(&good, RUNS, why, sizeof(why)), 0, "its final values are the specified ones");
	is_str(why, "", "no reason given for a good run");
	ok(ns > 0, "the loop was timed");

	is_int(dhry_check(&good, RUNS + 1, why, sizeof(why)), 1, "a wrong run count fails the check");
	is_str(why, "Arr_2_Glob[8][7]: 5010, should be 5011", "the reason names the value");

	for (size_t i = 0; i < sizeof(corruptions) / sizeof(corruptions[0]); i++) {
		const struct corruption *c = &corruptions[i];

		bad = good;
		c->apply(&bad);
		ret = dhry_check(&bad, RUNS, why, sizeof(why));
		ok(ret >= 1 && !strncmp(why, c->name, strlen(c->name)) && why[strlen(c->name)] == ':',
		   "corrupted %s fails the check (%s)", c->name, why);
	}

	bad = good;
	c_int_glob(&bad);
	c_str_2(&bad);
	is_int(dhry_check(&bad, RUNS, why, sizeof(why)), 2, "every wrong value is counted");
	is_str(why, "Int_Glob: 4, should be 5", "the first wrong value is the one described");

	test_parallel();
	test_dead_worker();
	test_runner();
	test_cpufreq();
	return tap_done();
}

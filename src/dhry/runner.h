/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runner - Dhrystone on a set of CPUs: one pinned worker process per CPU, all at
 * once or one after another, with iterations fixed or calibrated, the clock
 * of each CPU, and the final-value check after every run.
 */
#ifndef RTLA_DHRY_RUNNER_H
#define RTLA_DHRY_RUNNER_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

/* Where a CPU's clock came from, for DMIPS/MHz. */
enum dhry_clock {
	DHRY_CLOCK_NONE,
	DHRY_CLOCK_CPUFREQ,	/* cpufreq's scaling_cur_freq, sampled during the run */
	DHRY_CLOCK_PERF,	/* CPU cycles counted with perf_event_open over the run */
};

struct dhry_opts {
	cpu_set_t cpus;
	long long iterations;	/* > 0: exactly this many; 0: calibrated */
	long long seconds;	/* calibrated: each CPU runs at least this long */
	bool sequential;	/* one CPU at a time instead of all together */
	bool progress;		/* a progress line on stderr */
	bool fault;		/* tests: corrupt the final values of fault_cpu */
	int fault_cpu;
	int fault_signal;	/* tests: instead, the worker of fault_cpu dies of it */
};

#define DHRY_WHY_MAX 160

struct dhry_result {
	int cpu;
	int error;		/* -errno: the CPU could not be measured (why says so) */
	bool failed;		/* a final value was wrong: there is no score */
	char why[DHRY_WHY_MAX];
	uint64_t iterations;	/* measured runs through the benchmark */
	uint64_t ns;		/* CPU time of the measurement loops */
	uint64_t wall_ns;	/* wall-clock time of the measured runs */
	uint64_t cpu_ns;	/* CPU time of the measured runs, as wall_ns */
	/*
	 * When the measured runs began and ended (a failed check ends them), in
	 * CLOCK_MONOTONIC ns since dhry_measure() began, so that the CPUs can be
	 * set side by side: one after another, or together. end_ns is 0 when
	 * they never began (the CPU could not be measured).
	 */
	uint64_t start_ns, end_ns;
	double mhz;		/* 0: not known */
	enum dhry_clock clock;
};

/*
 * Measure every CPU of o->cpus into res[] (in CPU order; n entries at least
 * CPU_COUNT). Returns the number of results, or -errno (no CPU, no memory).
 * Per-CPU problems (a worker that could not start or died, a wrong final value) are
 * reported in the results.
 */
int dhry_measure(const struct dhry_opts *o, struct dhry_result *res, int n);

const char *dhry_clock_name(enum dhry_clock clock);

#endif

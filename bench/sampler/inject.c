// SPDX-License-Identifier: GPL-2.0-only
/*
 * inject - a known amount of noise on one CPU: a SCHED_FIFO thread wakes
 * from an absolute CLOCK_MONOTONIC timer every INTERVAL us and stays busy
 * for BUSY us, COUNT times. OUT gets one line per injection in
 * CLOCK_MONOTONIC_RAW ns, the time base of the sampler's saved trace:
 * "expiry start end": when the timer expired (the CPU is taken from then
 * on), and the first and last reading of the busy loop. Needs root
 * (SCHED_FIFO, mlockall).
 *
 *   inject CPU COUNT INTERVAL_US BUSY_US OUT
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static uint64_t ns_of(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static uint64_t raw_ns(void)
{
	return ns_of(CLOCK_MONOTONIC_RAW);
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	struct timespec next;
	uint64_t *log, busy, interval;
	long count;
	cpu_set_t set;
	FILE *f;
	int cpu;

	if (argc != 6) {
		fprintf(stderr, "usage: inject CPU COUNT INTERVAL_US BUSY_US OUT\n");
		return 1;
	}
	cpu = atoi(argv[1]);
	count = atol(argv[2]);
	interval = strtoull(argv[3], NULL, 10) * 1000;
	busy = strtoull(argv[4], NULL, 10) * 1000;
	log = calloc(3 * count, sizeof(*log));
	if (!log || count <= 0 || busy >= interval)
		return 1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("inject: affinity or SCHED_FIFO");
		return 1;
	}
	mlockall(MCL_CURRENT | MCL_FUTURE);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (long i = 0; i < count; i++) {
		uint64_t s, e, mono;

		next.tv_nsec += interval;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		/* the timer's expiry in raw ns: the offset is read now, so NTP slew cannot skew it */
		mono = ns_of(CLOCK_MONOTONIC);
		s = raw_ns();
		log[3 * i] = s - (mono - ((uint64_t)next.tv_sec * 1000000000ull + next.tv_nsec));
		do
			e = raw_ns();
		while (e - s < busy);
		log[3 * i + 1] = s;
		log[3 * i + 2] = e;
	}
	f = fopen(argv[5], "w");
	if (!f)
		return 1;
	for (long i = 0; i < count; i++)
		fprintf(f, "%llu %llu %llu\n", (unsigned long long)log[3 * i],
			(unsigned long long)log[3 * i + 1], (unsigned long long)log[3 * i + 2]);
	return fclose(f) ? 1 : 0;
}

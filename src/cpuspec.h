/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuspec - a CPU list as the user gives it to -c/-H: "1-3,5", or a word
 * for the set the machine itself defines, read from /sys/devices/system/cpu
 * through the sysroot:
 *
 *	online		the online CPUs
 *	isolated	isolcpus= (the "isolated" file)
 *	nohz_full	nohz_full= (the "nohz_full" file)
 *	housekeeping	online, neither isolated nor nohz_full
 *
 * A word whose set is empty is an error that says so: a gate on "isolated"
 * must not quietly measure nothing, or everything.
 */
#ifndef RTLA_CPUSPEC_H
#define RTLA_CPUSPEC_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

/* Is S one of the words above? */
bool cpuspec_is_keyword(const char *s);
/* The words above, one by one (I from 0); NULL past the last. */
const char *cpuspec_keyword(size_t i);
/* The set of a word or a list; -EINVAL (or -errno) with a reason in err. */
int cpuspec_parse(const char *s, int nr_cpus, cpu_set_t *set, char *err);

/*
 * The CPUs this process may run on, online ones: its affinity (in a
 * container, the container's cpuset shows there), narrowed by its cgroup's
 * effective cpuset where that is narrower. 0, or -errno (-ENOENT: none).
 */
int cpus_allowed(cpu_set_t *set);

#endif

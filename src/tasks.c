// SPDX-License-Identifier: GPL-2.0-only
/*
 * tasks - scheduling helpers shared by the noise commands.
 *
 * glibc has no sched_setattr() wrapper, and SCHED_DEADLINE can only be set
 * through it, so the structure is declared here as the kernel defines it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procscan.h"
#include "tasks.h"
#include "sysroot.h"

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

struct kernel_sched_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
};

int task_set_prio(pid_t tid, const struct sched_prio *prio)
{
	struct kernel_sched_attr attr = { .size = sizeof(attr) };

	switch (prio->kind) {
	case SCHED_KIND_OTHER:
		attr.sched_policy = SCHED_OTHER;
		attr.sched_nice = prio->nice;
		break;
	case SCHED_KIND_RR:
	case SCHED_KIND_FIFO:
		attr.sched_policy = prio->kind == SCHED_KIND_RR ? SCHED_RR : SCHED_FIFO;
		attr.sched_priority = prio->rt_prio;
		break;
	case SCHED_KIND_DEADLINE:
		attr.sched_policy = SCHED_DEADLINE;
		attr.sched_runtime = prio->runtime_ns;
		attr.sched_deadline = prio->period_ns;
		attr.sched_period = prio->period_ns;
		break;
	}
	if (syscall(SYS_sched_setattr, tid, &attr, 0))
		return -errno;
	return 0;
}

const char *task_prio_describe(const struct sched_prio *prio, char *buf, size_t len)
{
	switch (prio->kind) {
	case SCHED_KIND_OTHER:
		snprintf(buf, len, "SCHED_OTHER:nice=%d", prio->nice);
		break;
	case SCHED_KIND_RR:
	case SCHED_KIND_FIFO:
		snprintf(buf, len, "%s:%d", prio->kind == SCHED_KIND_RR ? "SCHED_RR" : "SCHED_FIFO",
			 prio->rt_prio);
		break;
	case SCHED_KIND_DEADLINE:
		snprintf(buf, len, "SCHED_DEADLINE:runtime=%lluns,period=%lluns",
			 (unsigned long long)prio->runtime_ns, (unsigned long long)prio->period_ns);
		break;
	}
	return buf;
}

int tasks_for_each_comm(const char *prefix, int (*fn)(pid_t tid, void *ctx), void *ctx)
{
	size_t plen = strlen(prefix);
	struct procscan ps;
	int count = 0, ret;

	ret = procscan_pids(&ps);
	if (ret)
		return ret;
	for (size_t i = 0; !ret && i < ps.nr; i++) {
		char comm[64];

		/* kernel threads are single-threaded: the process comm is the task's */
		if (sysroot_readf(comm, sizeof(comm), "/proc/%d/comm", ps.pids[i]) < 0 ||
		    strncmp(comm, prefix, plen))
			continue;
		ret = fn(ps.pids[i], ctx);
		count++;
	}
	procscan_free(&ps);
	return ret ? ret : count;
}

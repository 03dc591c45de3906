// SPDX-License-Identifier: GPL-2.0-only
/*
 * threads - scheduling and cgroup of the osnoise/N kernel threads.
 *
 * The kernel creates one osnoise/N thread per measured CPU when the tracer
 * starts and destroys them when it stops, so nothing here needs restoring.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "tasks.h"
#include "sysroot.h"
#include "threads.h"

static int set_one_priority(pid_t tid, void *ctx)
{
	int ret = task_set_prio(tid, ctx);

	if (ret)
		err_msg("Failed to set sched parameters of task %d: %s", tid, strerror(-ret));
	return ret;
}

int threads_set_priority(const char *prefix, const struct sched_prio *prio)
{
	int ret = tasks_for_each_comm(prefix, set_one_priority, (void *)prio);

	if (ret == 0)
		err_msg("no %s threads found to set the priority of", prefix);
	return ret <= 0 ? (ret ? ret : -ESRCH) : 0;
}

/* "0::/path" in /proc/self/cgroup names our own cgroup v2. */
static int own_cgroup(char *buf, size_t len)
{
	FILE *f = sysroot_fopen("/proc/self/cgroup", "r");
	char line[PATH_MAX];
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(buf, len, "%s", line + 3);
		ret = 0;
	}
	fclose(f);
	return ret;
}

struct cgroup_move {
	int fd;
};

static int move_one(pid_t tid, void *ctx)
{
	struct cgroup_move *m = ctx;
	char pid[32];
	int len = snprintf(pid, sizeof(pid), "%d\n", tid);

	if (write(m->fd, pid, len) != len) {
		err_msg("Failed to move task %d to the cgroup: %s", tid, strerror(errno));
		return -errno;
	}
	return 0;
}

int threads_set_cgroup(const char *prefix, const char *cgroup)
{
	char mnt[PATH_MAX], rel[PATH_MAX], procs[PATH_MAX * 2 + 32];
	struct cgroup_move m;
	int ret;

	if (sysroot_cgroup2_mount(mnt, sizeof(mnt))) {
		err_msg("Did not find cgroupv2 mount point");
		return -ENOENT;
	}
	if (cgroup) {
		snprintf(rel, sizeof(rel), "%s%s", cgroup[0] == '/' ? "" : "/", cgroup);
	} else if ((ret = own_cgroup(rel, sizeof(rel)))) {
		err_msg("cannot find rtla's own cgroup: %s", strerror(-ret));
		return ret;
	}
	snprintf(procs, sizeof(procs), "%s%s/cgroup.procs", mnt, rel);
	m.fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (m.fd < 0) {
		err_msg("cannot open cgroup %s: %s", procs, strerror(errno));
		return -errno;
	}
	ret = tasks_for_each_comm(prefix, move_one, &m);
	close(m.fd);
	if (ret == 0)
		err_msg("no %s threads found to move to the cgroup", prefix);
	return ret <= 0 ? (ret ? ret : -ESRCH) : 0;
}

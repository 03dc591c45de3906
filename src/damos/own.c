// SPDX-License-Identifier: GPL-2.0-only
/*
 * own - whose kdamond is it?
 *
 * DAMON's sysfs says nothing of who configured a kdamond, so rtla leaves a
 * mark for each one it starts: DAMOS_RUN_DIR/kdamond-N holds the kdamond
 * thread's pid and start time. A mark proves ownership only while that very
 * thread runs: a kdamond stopped and started again by someone else, or an
 * index reused after a resize, has another thread and is not ours.
 *
 * A kdamond that is not ours and whose thread started in the first minute
 * after boot belongs to the machine (a boot script, an init system): rtla
 * never writes to it, even when named.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "damos/damos.h"
#include "fsutil.h"
#include "parse.h"
#include "procstat.h"

#define BOOT_WINDOW_S	60

static void mark_path(int index, char *buf, size_t len)
{
	snprintf(buf, len, "%s/kdamond-%d", DAMOS_RUN_DIR, index);
}

/* The boot window in seconds: RTLA_DAMOS_BOOT_WINDOW (tests) or one minute. */
static long long boot_window(void)
{
	const char *env = getenv("RTLA_DAMOS_BOOT_WINDOW");
	char err[PARSE_ERR_MAX];
	long long v;

	if (env && !parse_llong(env, 0, 86400, &v, err))
		return v;
	return BOOT_WINDOW_S;
}

enum damos_owner damos_owner(const struct dnode *kdamond, int index, pid_t *marked_by)
{
	unsigned long long start = 0, mstart = 0;
	const char *state = dtree_val(kdamond, "state");
	int64_t pid = -1;
	int mpid = 0, by = 0;
	char path[128];
	FILE *f;

	if (marked_by)
		*marked_by = 0;
	dtree_s64(kdamond, "pid", &pid);
	if (pid > 0)
		start = procstat_start(pid);
	mark_path(index, path, sizeof(path));
	f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "kdamond %d %llu started_by %d", &mpid, &mstart, &by) < 2)
			mpid = 0;
		fclose(f);
	}
	if (state && !strcmp(state, "on") && pid > 0 && mpid == pid && start && mstart == start) {
		if (marked_by)
			*marked_by = by;
		return DAMOS_OURS;
	}
	if (state && !strcmp(state, "on") && start &&
	    (long long)(start / sysconf(_SC_CLK_TCK)) < boot_window())
		return DAMOS_MACHINE;
	return DAMOS_FOREIGN;
}

const char *damos_owner_name(enum damos_owner o)
{
	switch (o) {
	case DAMOS_OURS: return "rtla";
	case DAMOS_MACHINE: return "machine";
	case DAMOS_FOREIGN: break;
	}
	return "other";
}

static void mark_fill(FILE *f, const void *arg)
{
	pid_t kdamond_pid = *(const pid_t *)arg;

	fprintf(f, "kdamond %d %llu started_by %d\n", kdamond_pid, procstat_start(kdamond_pid),
		getpid());
}

int damos_mark(int index, pid_t kdamond_pid)
{
	char path[128], tmp[160];
	int ret = fs_mkdir_p(DAMOS_RUN_DIR, 0700);

	if (ret)
		return ret;
	mark_path(index, path, sizeof(path));
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	return fs_write_replace(path, tmp, mark_fill, &kdamond_pid);
}

bool damos_marked(int index)
{
	char path[128];

	mark_path(index, path, sizeof(path));
	return access(path, F_OK) == 0;
}

void damos_unmark(int index)
{
	char path[128];

	mark_path(index, path, sizeof(path));
	unlink(path);
}

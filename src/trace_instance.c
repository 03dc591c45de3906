// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_instance - create, own, sweep and destroy rtla's tracefs instances.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "guardian.h"
#include "msg.h"
#include "owned.h"
#include "sysroot.h"
#include "trace_instance.h"

int trace_path(const char *file, char *buf, size_t len)
{
	char top[PATH_MAX];
	const char *dir = top;

	if (sysroot_is_live())
		dir = tracefs_tracing_dir();
	else
		sysroot_path("/sys/kernel/tracing", top, sizeof(top));
	if (!dir)
		return -ENOENT;
	if (snprintf(buf, len, "%s/%s", dir, file) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int instance_path(const char *name, char *buf, size_t len)
{
	char file[256];

	if (snprintf(file, sizeof(file), "instances/%s", name) >= (int)sizeof(file))
		return -ENAMETOOLONG;
	return trace_path(file, buf, len);
}

static void report_swept(const char *path, pid_t owner, int err, void *ctx)
{
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (err)
		err_msg("could not remove instance %s left by a killed rtla run (pid %d): %s", name,
			owner, strerror(-err));
	else
		info_msg("removed instance %s left by a killed rtla run (pid %d)", name, owner);
}

void trace_instance_sweep(void)
{
	owned_sweep(RTLA_OWNED_DIR, report_swept, NULL);
}

pid_t trace_instance_owner(const char *name)
{
	char path[PATH_MAX];

	return instance_path(name, path, sizeof(path)) ? 0 : owned_owner(RTLA_OWNED_DIR, path);
}

bool trace_instance_is_stale(const char *name)
{
	char path[PATH_MAX];

	return !instance_path(name, path, sizeof(path)) && owned_is_stale(RTLA_OWNED_DIR, path);
}

bool trace_instance_runs(const char *name, const char *tracer)
{
	struct tracefs_instance *inst = name ? tracefs_instance_alloc(NULL, name) : NULL;
	char *cur = tracefs_instance_file_read(inst, "current_tracer", NULL);
	bool ret = cur && !strncmp(cur, tracer, strlen(tracer)) && cur[strlen(tracer)] == '\n';

	free(cur);
	tracefs_instance_free(inst);
	return ret;
}

int trace_instance_create(struct trace_instance *ti, struct guardian *g, const char *prefix)
{
	char path[PATH_MAX];
	int id, err;

	memset(ti, 0, sizeof(*ti));
	ti->gid = -1;
	ti->on_fd = -1;
	ti->guard = g;
	if (snprintf(ti->name, sizeof(ti->name), "%s%d", prefix, getpid()) >= (int)sizeof(ti->name))
		return -ENAMETOOLONG;
	if (tracefs_instance_exists(ti->name))
		return -EEXIST;
	if ((err = instance_path(ti->name, path, sizeof(path))))
		return err;
	id = guardian_dir(g, path);
	if (id < 0)
		return id;
	ti->tfs = tracefs_instance_create(ti->name);
	if (!ti->tfs || !tracefs_instance_is_new(ti->tfs)) {
		err = ti->tfs ? EEXIST : errno;
		guardian_forget(g, id);
		tracefs_instance_free(ti->tfs);
		ti->tfs = NULL;
		return -err;
	}
	ti->gid = id;
	guardian_dir_created(g, id);
	if (tracefs_trace_off(ti->tfs) < 0 ||
	    (ti->on_fd = tracefs_instance_file_open(ti->tfs, "tracing_on",
						    O_WRONLY | O_CLOEXEC)) < 0) {
		err = errno;
		trace_instance_destroy(ti);
		return -err;
	}
	return 0;
}

static int count_missed(struct tep_event *event, struct tep_record *record, int cpu, void *ctx)
{
	struct trace_instance *ti = ctx;

	if (record->missed_events < 0)
		ti->missed = UINT64_MAX;
	else if (ti->missed != UINT64_MAX)
		ti->missed += record->missed_events;
	return 0;
}

void trace_instance_count_missed(struct trace_instance *ti)
{
	tracefs_follow_missed_events(ti->tfs, count_missed, ti);
}

void trace_instance_set_on(const struct trace_instance *ti, bool on)
{
	if (ti->on_fd >= 0 && pwrite(ti->on_fd, on ? "1" : "0", 1, 0) != 1)
		debug_msg("%s: tracing_on: %s", ti->name, strerror(errno));
}

void trace_instance_destroy(struct trace_instance *ti)
{
	char path[PATH_MAX];
	int err;

	if (ti->on_fd >= 0)
		close(ti->on_fd);
	ti->on_fd = -1;
	if (!ti->tfs)
		return;
	tracefs_trace_off(ti->tfs);
	tracefs_instance_file_write(ti->tfs, "current_tracer", "nop");
	err = instance_path(ti->name, path, sizeof(path));
	if (!err)
		err = owned_remove_dir(path);
	if (err)
		err_msg("could not remove instance %s: %s", ti->name, strerror(-err));
	else
		guardian_forget(ti->guard, ti->gid);	/* still marked otherwise: a later sweep */
	ti->gid = -1;
	tracefs_instance_free(ti->tfs);
	ti->tfs = NULL;
}

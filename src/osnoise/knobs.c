// SPDX-License-Identifier: GPL-2.0-only
/*
 * knobs - save, set and restore the osnoise tracer's global settings.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "knobs.h"
#include "msg.h"

#define KNOB(id, path) path,
static const char *const knob_paths[] = { OSNOISE_KNOBS };
#undef KNOB
#define OPTION(id, name) name,
static const char *const option_names[] = { OSNOISE_OPTIONS };
#undef OPTION

static int read_top(const char *path, char *buf, size_t len)
{
	char *s = tracefs_instance_file_read(NULL, path, NULL);
	size_t n;

	if (!s)
		return -(errno ? errno : ENOENT);
	n = strcspn(s, "\n");
	if (n >= len) {
		free(s);
		return -E2BIG;	/* a cut value would restore as another one */
	}
	snprintf(buf, len, "%.*s", (int)n, s);
	free(s);
	return 0;
}

static int write_top(const char *path, const char *val)
{
	/* tracefs rejects an empty write; a single newline means "empty" to it */
	if (tracefs_instance_file_write(NULL, path, *val ? val : "\n") < 0)
		return -(errno ? errno : EIO);
	return 0;
}

/* 1 on, 0 off, -1 absent: "NO_X" in the options file means off. */
static int option_state(const char *options, const char *name)
{
	char no[64];
	const char *p;
	size_t len = strlen(name);

	snprintf(no, sizeof(no), "NO_%s", name);
	for (p = options; (p = strstr(p, no)); p += strlen(no))
		if ((p == options || p[-1] == ' ') && (p[strlen(no)] == ' ' || !p[strlen(no)]))
			return 0;
	for (p = options; (p = strstr(p, name)); p += len)
		if ((p == options || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return -1;
}

static int restore_runtime_period(const char *runtime, const char *period)
{
	return osnoise_set_runtime_period(NULL, atoll(runtime), atoll(period));
}

/* Stop the tracer of an instance found by name and remove it. 0 or -1 (errno). */
static int remove_instance(const char *name)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	int ret, err;

	if (!inst)
		return -1;
	tracefs_instance_file_write(inst, "tracing_on", "0");
	tracefs_instance_file_write(inst, "current_tracer", "nop");
	ret = tracefs_instance_destroy(inst);
	err = errno;
	tracefs_instance_free(inst);
	errno = err;	/* for the caller's message */
	return ret;
}

static const char *errno_name(int err)
{
	return strerrorname_np(err) ? strerrorname_np(err) : "?";
}

static void report_failure(const char *what, const char *val, int err)
{
	err_msg("cannot restore %s to '%s': %s (%s)", what, val, strerror(err), errno_name(err));
}

/*
 * Write back what a state file (ours at the end, or a killed run's) records,
 * saying what fails, value by value. Returns how many could not be restored.
 */
static int restore_from_record(FILE *f)
{
	char line[OSNOISE_KNOB_MAX + 256], runtime[64] = "", period[64] = "";
	int failed = 0, nr = 0, ret;

	while (fgets(line, sizeof(line), f)) {
		char *key, *name, *val;

		nr++;
		if (!strchr(line, '\n') && !feof(f)) {
			err_msg("cannot replay line %d of the record: longer than %zu bytes", nr,
				sizeof(line) - 1);
			failed++;
			while (fgets(line, sizeof(line), f) && !strchr(line, '\n'))
				;
			continue;
		}
		key = strtok(line, " \n");
		name = strtok(NULL, " \n");
		val = strtok(NULL, "\n");
		if (!key || (!strcmp(key, "pid") && name))
			continue;
		if (!name) {
			err_msg("cannot replay line %d of the record: '%s'", nr, key);
			failed++;
		} else if (!strcmp(key, "instance")) {
			/* records before the guardian named rtla's instances here */
			if (tracefs_instance_exists(name) && remove_instance(name)) {
				err_msg("could not remove instance %s: %s (%s)", name,
					strerror(errno), errno_name(errno));
				failed++;
			}
		} else if (!strcmp(key, "knob") && !strcmp(name, knob_paths[KNOB_RUNTIME])) {
			snprintf(runtime, sizeof(runtime), "%s", val ? val : "");
		} else if (!strcmp(key, "knob") && !strcmp(name, knob_paths[KNOB_PERIOD])) {
			snprintf(period, sizeof(period), "%s", val ? val : "");
		} else if (!strcmp(key, "knob")) {
			if ((ret = write_top(name, val ? val : ""))) {
				report_failure(name, val ? val : "", -ret);
				failed++;
			}
		} else if (!strcmp(key, "option") && val) {
			char opt[80];

			snprintf(opt, sizeof(opt), "%s%s", atoi(val) ? "" : "NO_", name);
			if ((ret = write_top("osnoise/options", opt))) {
				report_failure("osnoise/options", opt, -ret);
				failed++;
			}
		} else {
			err_msg("cannot replay line %d of the record: '%s %s%s%s'", nr, key, name,
				val ? " " : "", val ? val : "");
			failed++;
		}
	}
	if (*runtime && *period && (ret = restore_runtime_period(runtime, period))) {
		char both[140];

		snprintf(both, sizeof(both), "%s' and '%s", runtime, period);
		report_failure("osnoise/runtime_us and osnoise/period_us", both, -ret);
		failed++;
	}
	return failed;
}

static pid_t record_owner(FILE *f)
{
	char line[128];
	pid_t pid = 0;

	rewind(f);
	if (fgets(line, sizeof(line), f))
		sscanf(line, "pid %d", &pid);
	rewind(f);
	return pid;
}

void osnoise_refuse_concurrent(pid_t owner)
{
	if (owner > 0)
		err_msg("another rtla run (pid %d) is using the osnoise tracer; its settings are "
			"global, so two runs cannot share them", owner);
	else
		err_msg("another rtla run is using the osnoise tracer; its settings are global, "
			"so two runs cannot share them");
}

/*
 * The pid that took the flock on FD's file, from /proc/locks; 0 if none.
 * The record cannot tell: its holder writes it only after locking.
 */
static pid_t lock_holder(int fd)
{
	char line[256];
	struct stat st;
	pid_t holder = 0;
	FILE *f;

	if (fstat(fd, &st) || !(f = fopen("/proc/locks", "re")))
		return 0;
	while (!holder && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long long ino;
		char type[16];
		int pid;

		if (strstr(line, "->"))
			continue;	/* a process waiting for the lock */
		/* "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF" */
		if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%llu", type, &pid, &maj, &min,
			   &ino) == 5 && !strcmp(type, "FLOCK") && maj == major(st.st_dev) &&
		    min == minor(st.st_dev) && ino == (unsigned long long)st.st_ino)
			holder = pid;
	}
	fclose(f);
	return holder;
}

/* instance names end in _<pid> */
pid_t osnoise_instance_owner(const char *name)
{
	const char *us = strrchr(name, '_');

	if (strncmp(name, "rtla_osnoise_", 13) || !us)
		return 0;
	return atoi(us + 1);
}

static int top_path(const char *file, char *buf, size_t len)
{
	const char *dir = tracefs_tracing_dir();

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
	return top_path(file, buf, len);
}

bool osnoise_instance_is_stale(const char *name)
{
	char path[PATH_MAX];

	return !instance_path(name, path, sizeof(path)) &&
	       owned_is_stale(RTLA_OWNED_DIR, path);
}

/* A second descriptor of the record that shell actions do not inherit. */
static FILE *record_open(int fd, const char *mode)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	FILE *f;

	if (dup_fd < 0)
		return NULL;
	f = fdopen(dup_fd, mode);
	if (!f)
		close(dup_fd);
	return f;
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

/*
 * The record's file, locked. A lock taken on a file that was removed or set
 * aside meanwhile (by a guardian, or by a replay that failed) protects
 * nothing: then the file is opened again.
 */
static int take_lock(struct osnoise_state *st)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	pid_t holder = 0;

	for (int tries = 0; tries < 20; tries++) {
		struct stat fd_st, path_st;
		int fd = open(OSNOISE_STATE_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600), err;

		if (fd < 0) {
			err = errno;
			err_msg("cannot open %s: %s", OSNOISE_STATE_FILE, strerror(err));
			return -err;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			holder = errno == EWOULDBLOCK ? lock_holder(fd) : 0;
			if (holder <= 0) {
				FILE *f = record_open(fd, "r");

				holder = f ? record_owner(f) : 0;
				if (f)
					fclose(f);
			}
			close(fd);
			if (holder > 0 && kill(holder, 0) && errno == ESRCH) {
				/* the lock outlives its taker in the guardian, for a second */
				err_msg("the guardian of a killed rtla run (pid %d) is "
					"restoring the osnoise settings; try again in a second",
					holder);
				return -EBUSY;
			}
			if (holder > 0)
				break;
			nanosleep(&nap, NULL);	/* let go of meanwhile, or not known yet */
			continue;
		}
		if (!fstat(fd, &fd_st) && !stat(OSNOISE_STATE_FILE, &path_st) &&
		    fd_st.st_dev == path_st.st_dev && fd_st.st_ino == path_st.st_ino) {
			st->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	osnoise_refuse_concurrent(holder);
	return -EBUSY;
}

/* A killed run's record: replay it, or report it and set it aside. */
static int replay_stale_record(struct osnoise_state *st)
{
	char bad[PATH_MAX + 64];
	struct stat sb;
	pid_t owner;
	FILE *f;
	int ret;

	if (fstat(st->lock_fd, &sb) || !sb.st_size)
		return 0;
	f = record_open(st->lock_fd, "r");
	if (!f)
		return -errno;
	owner = record_owner(f);
	if (owner)
		info_msg("restoring the osnoise settings left by a killed rtla run (pid %d)",
			 owner);
	else
		info_msg("restoring the osnoise settings recorded in %s", OSNOISE_STATE_FILE);
	ret = restore_from_record(f);
	fclose(f);
	if (!ret)
		return 0;
	/* kept for the user, out of the way of every later run */
	ret = guardian_record_set_aside(OSNOISE_STATE_FILE, bad, sizeof(bad));
	if (ret)
		err_msg("%s could not be replayed, nor moved aside (%s): check the values above, "
			"then remove it (rm %s)", OSNOISE_STATE_FILE, strerror(-ret),
			OSNOISE_STATE_FILE);
	else
		err_msg("%s could not be replayed: it is kept as %s; check the values above, set "
			"them by hand if needed, then remove it (rm %s); the next run starts from "
			"the settings as they are", OSNOISE_STATE_FILE, bad, bad);
	return -EIO;
}

int osnoise_state_lock(struct osnoise_state *st)
{
	int ret;

	memset(st, 0, sizeof(*st));
	st->lock_fd = -1;
	for (int i = 0; i < OPT_NR; i++)
		st->opts[i].orig = -1;
	mkdir(OSNOISE_STATE_DIR, 0700);
	if ((ret = take_lock(st)))
		return ret;
	if ((ret = replay_stale_record(st))) {
		/* change nothing more now */
		close(st->lock_fd);
		st->lock_fd = -1;
		return ret;
	}
	if (ftruncate(st->lock_fd, 0))
		debug_msg("cannot clear %s: %s", OSNOISE_STATE_FILE, strerror(errno));
	owned_sweep(RTLA_OWNED_DIR, report_swept, NULL);
	return 0;
}

static int write_record(struct osnoise_state *st)
{
	FILE *f;
	int ret = 0;

	/* the dup shares the file offset: start the record at the beginning */
	if (ftruncate(st->lock_fd, 0) || lseek(st->lock_fd, 0, SEEK_SET))
		return -errno;
	f = record_open(st->lock_fd, "w");
	if (!f)
		return -errno;
	fprintf(f, "pid %d\n", getpid());
	for (int i = 0; i < KNOB_NR; i++)
		if (st->knobs[i].saved)
			fprintf(f, "knob %s %s\n", knob_paths[i], st->knobs[i].orig);
	for (int i = 0; i < OPT_NR; i++)
		if (st->opts[i].orig >= 0)
			fprintf(f, "option %s %d\n", option_names[i], st->opts[i].orig);
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	fclose(f);
	return ret;
}

/* The guardian, told every original: from here on a write can be undone whatever happens. */
static int start_guardian(struct osnoise_state *st)
{
	struct guardian_opts opts = {
		.record = OSNOISE_STATE_FILE, .keep_fd = st->lock_fd, .mark_dir = RTLA_OWNED_DIR,
	};
	char path[PATH_MAX], val[OSNOISE_KNOB_MAX];
	int ret = guardian_start(&st->guard, &opts);

	for (int i = 0; ret >= 0 && i < KNOB_NR; i++) {
		/* tracefs takes a single newline for "empty" */
		const char *orig = *st->knobs[i].orig ? st->knobs[i].orig : "\n";

		if (!(ret = top_path(knob_paths[i], path, sizeof(path))))
			ret = st->knobs[i].gid = guardian_value(st->guard, path, orig);
	}
	for (int i = 0; ret >= 0 && i < OPT_NR; i++) {
		if (st->opts[i].orig < 0)
			continue;
		snprintf(val, sizeof(val), "%s%s", st->opts[i].orig ? "" : "NO_", option_names[i]);
		if (!(ret = top_path("osnoise/options", path, sizeof(path))))
			ret = st->opts[i].gid = guardian_value(st->guard, path, val);
	}
	if (ret < 0) {
		guardian_stand_down(st->guard);
		st->guard = NULL;
		return ret;
	}
	return 0;
}

int osnoise_state_save(struct osnoise_state *st)
{
	char options[1024];
	int ret;

	for (int i = 0; i < KNOB_NR; i++) {
		ret = read_top(knob_paths[i], st->knobs[i].orig, sizeof(st->knobs[i].orig));
		if (ret) {
			err_msg("cannot read %s: %s", knob_paths[i], strerror(-ret));
			goto out_unlock;
		}
		st->knobs[i].saved = true;
	}
	st->has_options = !read_top("osnoise/options", options, sizeof(options));
	for (int i = 0; st->has_options && i < OPT_NR; i++)
		st->opts[i].orig = option_state(options, option_names[i]);

	ret = write_record(st);
	if (ret) {
		err_msg("cannot record the osnoise settings in %s: %s", OSNOISE_STATE_FILE,
			strerror(-ret));
		goto out_clear;
	}
	ret = start_guardian(st);
	if (ret) {
		err_msg("cannot start the guardian that restores the osnoise settings if rtla "
			"dies: %s", strerror(-ret));
		goto out_clear;
	}
	return 0;

out_clear:
	/* nothing was written: a record left here would be replayed for nothing */
	if (ftruncate(st->lock_fd, 0))
		debug_msg("cannot clear %s: %s", OSNOISE_STATE_FILE, strerror(errno));
out_unlock:
	close(st->lock_fd);
	st->lock_fd = -1;
	return ret;
}

int osnoise_instance_claim(struct osnoise_state *st, const char *name)
{
	char path[PATH_MAX];
	int ret = instance_path(name, path, sizeof(path));

	return ret ? ret : guardian_dir(st->guard, path);
}

void osnoise_instance_created(struct osnoise_state *st, int id)
{
	guardian_dir_created(st->guard, id);
}

void osnoise_instance_drop(struct osnoise_state *st, int id)
{
	guardian_forget(st->guard, id);
}

int osnoise_knob_write_str(struct osnoise_state *st, enum osnoise_knob_id id, const char *val)
{
	int ret;

	/* never write what nobody could restore if rtla died now */
	if (st && (ret = guardian_written(st->guard, st->knobs[id].gid)))
		return ret;
	ret = write_top(knob_paths[id], val);

	debug_msg("%s <- %s", knob_paths[id], val);
	if (!ret && st)
		st->knobs[id].written = true;
	if (ret)
		debug_msg("writing '%s' to %s: %s", val, knob_paths[id], strerror(-ret));
	return ret;
}

int osnoise_knob_write(struct osnoise_state *st, enum osnoise_knob_id id, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	return osnoise_knob_write_str(st, id, buf);
}

/*
 * The kernel keeps runtime <= period at every step (runtime_us is bounded
 * by period_us and the other way round), so when the new runtime exceeds
 * the current period the period has to go first.
 */
int osnoise_set_runtime_period(struct osnoise_state *st, long long runtime, long long period)
{
	char cur[64];
	int ret;

	if (read_top(knob_paths[KNOB_PERIOD], cur, sizeof(cur)))
		return -EIO;
	if (runtime > atoll(cur)) {
		ret = osnoise_knob_write(st, KNOB_PERIOD, period);
		if (!ret)
			ret = osnoise_knob_write(st, KNOB_RUNTIME, runtime);
	} else {
		ret = osnoise_knob_write(st, KNOB_RUNTIME, runtime);
		if (!ret)
			ret = osnoise_knob_write(st, KNOB_PERIOD, period);
	}
	return ret;
}

int osnoise_option_write(struct osnoise_state *st, enum osnoise_option_id id, bool on)
{
	char opt[80];
	int ret;

	if (st->opts[id].orig < 0)
		return -ENOTSUP;
	if ((ret = guardian_written(st->guard, st->opts[id].gid)))
		return ret;
	snprintf(opt, sizeof(opt), "%s%s", on ? "" : "NO_", option_names[id]);
	ret = write_top("osnoise/options", opt);
	if (!ret)
		st->opts[id].written = true;
	return ret;
}

void osnoise_state_release(struct osnoise_state *st)
{
	int failed = 1;
	FILE *f;

	if (st->lock_fd < 0)
		return;
	/* the record holds exactly the originals: replay it, then forget it */
	f = record_open(st->lock_fd, "r");
	if (f) {
		/* the dup shares the offset that writing the record left at its end */
		rewind(f);
		failed = restore_from_record(f);
		fclose(f);
	}
	/* a record that could not be replayed stays for the next run to retry */
	if (!failed && ftruncate(st->lock_fd, 0))
		err_msg("cannot clear %s: %s", OSNOISE_STATE_FILE, strerror(errno));
	/* done: the guardian leaves, and with it its hold on the lock */
	guardian_stand_down(st->guard);
	st->guard = NULL;
	close(st->lock_fd);
	st->lock_fd = -1;
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * knobs - save, set and restore the osnoise tracer's global settings.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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

/*
 * Write back what a state file (ours at the end, or a killed run's) records.
 * Returns how many values could not be restored.
 */
static int restore_from_record(FILE *f)
{
	char line[OSNOISE_KNOB_MAX + 256], runtime[64] = "", period[64] = "";
	int failed = 0;

	while (fgets(line, sizeof(line), f)) {
		char *key = strtok(line, " \n"), *name = strtok(NULL, " \n"), *val = strtok(NULL, "\n");

		if (!key || !name)
			continue;
		if (!strcmp(key, "instance")) {
			if (tracefs_instance_exists(name) && remove_instance(name)) {
				err_msg("could not remove instance %s: %s", name, strerror(errno));
				failed++;
			}
		} else if (!strcmp(key, "knob") && !strcmp(name, knob_paths[KNOB_RUNTIME])) {
			snprintf(runtime, sizeof(runtime), "%s", val ? val : "");
		} else if (!strcmp(key, "knob") && !strcmp(name, knob_paths[KNOB_PERIOD])) {
			snprintf(period, sizeof(period), "%s", val ? val : "");
		} else if (!strcmp(key, "knob")) {
			if (write_top(name, val ? val : "")) {
				err_msg("could not restore %s", name);
				failed++;
			}
		} else if (!strcmp(key, "option") && val) {
			char opt[80];

			snprintf(opt, sizeof(opt), "%s%s", atoi(val) ? "" : "NO_", name);
			if (write_top("osnoise/options", opt)) {
				err_msg("could not restore option %s", name);
				failed++;
			}
		}
	}
	if (*runtime && *period && restore_runtime_period(runtime, period)) {
		err_msg("could not restore osnoise runtime and period");
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
	err_msg("another rtla run (pid %d) is using the osnoise tracer; its settings are "
		"global, so two runs cannot share them", owner);
}

/* instance names end in _<pid> */
pid_t osnoise_instance_owner(const char *name)
{
	const char *us = strrchr(name, '_');

	if (strncmp(name, "rtla_osnoise_", 13) || !us)
		return 0;
	return atoi(us + 1);
}

bool osnoise_instance_is_stale(const char *name)
{
	pid_t pid = osnoise_instance_owner(name);

	return pid > 0 && kill(pid, 0) && errno == ESRCH;
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

static void sweep_stale_instances(void)
{
	char **names = tracefs_instances("rtla_osnoise_.*");

	for (int i = 0; names && names[i]; i++) {
		if (osnoise_instance_is_stale(names[i]) && !remove_instance(names[i]))
			info_msg("removed instance %s left by a killed rtla run", names[i]);
	}
	tracefs_list_free(names);
}

int osnoise_state_lock(struct osnoise_state *st)
{
	FILE *f;
	pid_t owner;

	memset(st, 0, sizeof(*st));
	for (int i = 0; i < OPT_NR; i++)
		st->opts[i].orig = -1;
	mkdir(OSNOISE_STATE_DIR, 0700);
	st->lock_fd = open(OSNOISE_STATE_FILE, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (st->lock_fd < 0) {
		err_msg("cannot open %s: %s", OSNOISE_STATE_FILE, strerror(errno));
		return -errno;
	}
	f = record_open(st->lock_fd, "r");
	if (flock(st->lock_fd, LOCK_EX | LOCK_NB)) {
		owner = f ? record_owner(f) : 0;
		osnoise_refuse_concurrent(owner);
		if (f)
			fclose(f);
		close(st->lock_fd);
		st->lock_fd = -1;
		return -EBUSY;
	}
	if (f) {
		owner = record_owner(f);
		if (owner) {
			info_msg("restoring the osnoise settings left by a killed rtla run (pid %d)", owner);
			if (restore_from_record(f)) {
				/* keep the record for a later try, and change nothing more now */
				fclose(f);
				close(st->lock_fd);
				st->lock_fd = -1;
				return -EIO;
			}
		}
		fclose(f);
	}
	if (ftruncate(st->lock_fd, 0))
		debug_msg("cannot clear %s: %s", OSNOISE_STATE_FILE, strerror(errno));
	sweep_stale_instances();
	return 0;
}

static int write_record(struct osnoise_state *st, const char *const *instances)
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
	for (int i = 0; instances && instances[i]; i++)
		fprintf(f, "instance %s\n", instances[i]);
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

int osnoise_state_save(struct osnoise_state *st, const char *const *instances)
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

	ret = write_record(st, instances);
	if (ret) {
		err_msg("cannot record the osnoise settings in %s: %s", OSNOISE_STATE_FILE,
			strerror(-ret));
		goto out_unlock;
	}
	return 0;

out_unlock:
	close(st->lock_fd);
	st->lock_fd = -1;
	return ret;
}

int osnoise_knob_write_str(struct osnoise_state *st, enum osnoise_knob_id id, const char *val)
{
	int ret = write_top(knob_paths[id], val);

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
	close(st->lock_fd);
	st->lock_fd = -1;
}

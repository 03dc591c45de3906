// SPDX-License-Identifier: GPL-2.0-only
/*
 * owned - ownership marks of the directories (tracefs instances) rtla makes.
 *
 * A mark is a small file in MARK_DIR named after the directory: the pid and
 * start time of the run and of its guardian, and the directory's device and
 * inode. A name alone proves nothing (a user may make an instance called
 * like ours); a mark whose processes are gone and whose inode still matches
 * does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "owned.h"
#include "procstat.h"
#include "util.h"

#define REMOVE_TRIES	50		/* rmdir of a busy instance: 50 x 10 ms */

static const struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

/* ---- processes ---- */

/*
 * Is PID alive, and the process that started at START (0: any)? A zombie
 * is not; a pid taken again by another process is not ours.
 */
static bool proc_alive(pid_t pid, unsigned long long start)
{
	struct procstat st;
	int ret;

	if (pid <= 0)
		return false;
	ret = procstat_read(pid, &st);
	if (ret)
		return ret != -ENOENT && ret != -ESRCH;	/* cannot tell: keep its things */
	return st.state != 'Z' && st.state != 'X' && (!start || st.start == start);
}

/* ---- ownership marks ---- */

struct mark {
	pid_t pid, gpid;
	unsigned long long start, gstart;
	unsigned long long dev, ino;
	char path[4096];
};

/* MARK_DIR/<PATH with '/' and '%' escaped as %2F and %25> */
static int mark_file(const char *mark_dir, const char *path, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s/", mark_dir);

	for (const char *p = path; *p && n < len; p++) {
		if (*p == '/' || *p == '%') {
			if (n + 3 >= len)
				return -ENAMETOOLONG;
			n += (size_t)snprintf(buf + n, len - n, "%%%02X", (unsigned char)*p);
		} else {
			buf[n++] = *p;
		}
	}
	if (n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

struct mark_text {
	const char *path;
	pid_t guardian;
	const struct stat *st;
};

static void mark_fill(FILE *f, const void *arg)
{
	const struct mark_text *m = arg;

	fprintf(f, "pid %d %llu\nguardian %d %llu\ndev %llu\nino %llu\npath %s\n",
		getpid(), procstat_start(getpid()), m->guardian, procstat_start(m->guardian),
		(unsigned long long)m->st->st_dev, (unsigned long long)m->st->st_ino, m->path);
}

int owned_mark(const char *mark_dir, const char *path, pid_t guardian)
{
	char file[4096], tmp[4200];
	struct stat st;
	struct mark_text m = { path, guardian, &st };
	int ret;

	if (stat(path, &st))
		return -errno;
	if ((ret = mark_file(mark_dir, path, file, sizeof(file))) ||
	    (ret = fs_mkdir_p(mark_dir, 0700)))
		return ret;
	/* named for this process: a sweep removes it when a killed run left it */
	snprintf(tmp, sizeof(tmp), "%s/.new-%d", mark_dir, getpid());
	return fs_write_replace(file, tmp, mark_fill, &m);
}

static int mark_read(const char *file, struct mark *m)
{
	char line[4200];
	int got = 0;
	FILE *f = fopen(file, "re");

	if (!f)
		return -errno;
	memset(m, 0, sizeof(*m));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "pid %d %llu", &m->pid, &m->start) == 2)
			got |= 1;
		else if (sscanf(line, "guardian %d %llu", &m->gpid, &m->gstart) == 2)
			got |= 2;
		else if (sscanf(line, "dev %llu", &m->dev) == 1)
			got |= 4;
		else if (sscanf(line, "ino %llu", &m->ino) == 1)
			got |= 8;
		else if (!strncmp(line, "path /", 6) && strlen(line + 5) < sizeof(m->path))
			got |= 16, strcpy(m->path, line + 5);
	}
	fclose(f);
	return got == 31 ? 0 : -EINVAL;
}

/* Is PATH, as it is now, the directory the mark describes? */
static bool mark_matches(const struct mark *m, const char *path)
{
	struct stat st;

	return !stat(path, &st) && (unsigned long long)st.st_dev == m->dev &&
	       (unsigned long long)st.st_ino == m->ino;
}

static bool mark_owners_gone(const struct mark *m)
{
	return !proc_alive(m->pid, m->start) && !proc_alive(m->gpid, m->gstart);
}

bool owned_is_stale(const char *mark_dir, const char *path)
{
	char file[4096];
	struct mark m;

	if (mark_file(mark_dir, path, file, sizeof(file)) || mark_read(file, &m))
		return false;
	return !strcmp(m.path, path) && mark_owners_gone(&m) && mark_matches(&m, path);
}

pid_t owned_owner(const char *mark_dir, const char *path)
{
	char file[4096];
	struct mark m;

	if (mark_file(mark_dir, path, file, sizeof(file)) || mark_read(file, &m) ||
	    strcmp(m.path, path) || !mark_matches(&m, path))
		return 0;
	if (proc_alive(m.pid, m.start))
		return m.pid;
	return proc_alive(m.gpid, m.gstart) ? m.gpid : 0;
}

/* rmdir, waiting a little while the kernel still holds a reader; 0 or -errno */
int owned_remove_dir(const char *path)
{
	for (int tries = 0;; tries++) {
		if (!rmdir(path) || errno == ENOENT)
			return 0;
		if (errno != EBUSY || tries == REMOVE_TRIES)
			return -errno;
		nanosleep(&ten_ms, NULL);
	}
}

int owned_sweep(const char *mark_dir, owned_sweep_fn fn, void *ctx)
{
	DIR *d = opendir(mark_dir);
	struct dirent *de;
	int removed = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char file[4096];
		struct mark m;
		int err;

		if (snprintf(file, sizeof(file), "%s/%s", mark_dir, de->d_name) >= (int)sizeof(file))
			continue;
		/* half a mark, of a run killed while writing it */
		if (!strncmp(de->d_name, ".new-", 5)) {
			if (!proc_alive(atoi(de->d_name + 5), 0))
				unlink(file);
			continue;
		}
		if (de->d_name[0] == '.' || mark_read(file, &m) || !mark_owners_gone(&m))
			continue;
		if (!mark_matches(&m, m.path)) {
			/* gone, or another directory by that name now: not ours */
			unlink(file);
			continue;
		}
		err = owned_remove_dir(m.path);
		if (fn)
			fn(m.path, m.pid, err, ctx);
		if (!err) {
			unlink(file);
			removed++;
		}
	}
	closedir(d);
	return removed;
}

void owned_unmark(const char *mark_dir, const char *path)
{
	char file[4096];

	if (!mark_file(mark_dir, path, file, sizeof(file)))
		unlink(file);
}

static const char *run_dir_choice(bool *found)
{
	static const char *const dirs[][2] = {
		{ "/run", "/run/rtla" }, { "/dev/shm", "/dev/shm/rtla" }, { "/tmp", "/tmp/rtla" },
	};
	struct stat st;

	*found = true;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		if (!stat(dirs[i][1], &st) && S_ISDIR(st.st_mode))
			return dirs[i][1];
		if (!stat(dirs[i][0], &st) && S_ISDIR(st.st_mode) && !access(dirs[i][0], W_OK))
			return dirs[i][1];
	}
	*found = false;
	return dirs[0][1];
}

const char *rtla_run_path(const char *name)
{
	/* the three names in use, each built once */
	static char paths[3][64];
	static const char *names[3];
	bool found;
	const char *dir = run_dir_choice(&found);

	if (!*name)
		return dir;
	for (int i = 0; i < 3; i++) {
		if (!names[i]) {
			names[i] = name;
			snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, name);
		}
		if (names[i] == name || !strcmp(names[i], name))
			return paths[i];
	}
	return dir;
}

const char *rtla_run_dir_hint(void)
{
	bool found;

	run_dir_choice(&found);
	return found ? "" : " (/run, /dev/shm and /tmp are missing or read-only: mount a tmpfs on one)";
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * ledger - borrow kernel settings, record them, give them back (ledger.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "guardian.h"
#include "ledger.h"
#include "msg.h"
#include "owned.h"
#include "sysroot.h"

static const char *errno_name(int err)
{
	return strerrorname_np(err) ? strerrorname_np(err) : "?";
}

int ledger_read(const char *path, char *buf, size_t len)
{
	char tmp[LEDGER_VALUE_MAX + 2];
	ssize_t n;
	size_t line;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	do
		n = read(fd, tmp, sizeof(tmp) - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	tmp[n] = '\0';
	line = strcspn(tmp, "\n");
	if (line >= len || (line == (size_t)n && (size_t)n == sizeof(tmp) - 1))
		return -E2BIG;	/* a cut value would restore as another one */
	memcpy(buf, tmp, line);
	buf[line] = '\0';
	return (int)line;
}

/* tracefs and sysfs refuse an empty write: a lone newline means "empty" to them */
static int write_file(const char *path, const char *val)
{
	const char *text = *val ? val : "\n";
	size_t len = strcspn(text, "\n") ? strcspn(text, "\n") : 1;

	return write_host_file(path, text, len);
}

/* ---- the record and its lock ---- */

/* A second descriptor of the record that shell actions do not inherit. */
static FILE *record_stream(int fd, const char *mode)
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

static pid_t record_owner(int fd)
{
	char line[128];
	pid_t pid = 0;
	ssize_t n = pread(fd, line, sizeof(line) - 1, 0);

	if (n > 0) {
		line[n] = '\0';
		sscanf(line, "pid %d", &pid);
	}
	return pid;
}

/*
 * What HOLDER uses ("the osnoise tracer"), from its record's first line
 * "pid N WHAT"; "" before the holder wrote it.
 */
static void record_what(int fd, pid_t holder, char *what, size_t len)
{
	char line[128];
	ssize_t n = pread(fd, line, sizeof(line) - 1, 0);
	int pid, at = 0;

	*what = '\0';
	if (n <= 0)
		return;
	line[n] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (sscanf(line, "pid %d %n", &pid, &at) == 1 && at && pid == holder)
		snprintf(what, len, "%s", line + at);
}

/*
 * The pid that holds the flock on FD's file, from /proc/locks; 0 if none.
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

/* HOLDER_WHAT: what the holder uses, which may be another user of the same settings */
static void refuse(const struct ledger *l, pid_t holder, const char *holder_what)
{
	char who[32];

	snprintf(who, sizeof(who), "pid %d", holder);
	/* the holder's own tool, when its record says it */
	tracefs_lock_refuse(holder > 0 && *holder_what ? holder_what : l->what,
			    holder > 0 ? who : NULL);
}

/*
 * The record's file, locked. A lock taken on a file that was removed or set
 * aside meanwhile (by a guardian, or by a replay that failed) protects
 * nothing: then the file is opened again.
 */
static int take_lock(struct ledger *l)
{
	struct timespec nap = { 0, 10 * 1000 * 1000 };
	char holder_what[96] = "";
	pid_t holder = 0;
	int ret;

	if ((ret = fs_mkdir_parents(l->record, 0700))) {
		err_msg("cannot create the folder of %s: %s%s", l->record, strerror(-ret),
			rtla_run_dir_hint());
		return ret;
	}
	for (int tries = 0; tries < 20; tries++) {
		struct stat fd_st, path_st;
		int fd = open(l->record, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600), err;

		if (fd < 0) {
			err = errno;
			err_msg("cannot open %s: %s", l->record, strerror(err));
			return -err;
		}
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			holder = errno == EWOULDBLOCK ? lock_holder(fd) : 0;
			if (holder <= 0)
				holder = record_owner(fd);
			record_what(fd, holder, holder_what, sizeof(holder_what));
			close(fd);
			if (holder > 0 && kill(holder, 0) && errno == ESRCH) {
				/* the lock outlives its taker in the guardian, for a second */
				err_msg("the guardian of a killed rtla run (pid %d) is giving back "
					"%s's settings; try again in a second", holder, l->what);
				return -EBUSY;
			}
			if (holder > 0)
				break;
			nanosleep(&nap, NULL);	/* let go of meanwhile, or not known yet */
			continue;
		}
		if (!fstat(fd, &fd_st) && !stat(l->record, &path_st) &&
		    fd_st.st_dev == path_st.st_dev && fd_st.st_ino == path_st.st_ino) {
			l->lock_fd = fd;
			return 0;
		}
		close(fd);
	}
	refuse(l, holder, holder_what);
	return -EBUSY;
}

/* ---- replaying a record ---- */

struct restore_item {
	char *path, *val;
	int err;
};

static int parse_record(FILE *f, struct restore_item *items, int max, int *nr)
{
	char line[PATH_MAX + LEDGER_VALUE_MAX + 32];
	int failed = 0, lineno = 0;

	*nr = 0;
	while (fgets(line, sizeof(line), f)) {
		char *path, *val, *sp;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			err_msg("cannot replay line %d of the record: longer than %zu bytes", lineno,
				sizeof(line) - 1);
			failed++;
			while (fgets(line, sizeof(line), f) && !strchr(line, '\n'))
				;
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "pid ", 4) || !*line)
			continue;
		path = line + 8;
		sp = strncmp(line, "restore ", 8) ? NULL : strchr(path, ' ');
		if (!sp || *path != '/' || *nr == max) {
			err_msg("cannot replay line %d of the record: '%s'", lineno, line);
			failed++;
			continue;
		}
		*sp = '\0';
		val = sp + 1;
		items[*nr].path = strdup(path);
		items[*nr].val = strdup(val);
		items[*nr].err = 0;
		(*nr)++;
	}
	return failed;
}

/*
 * Write back the record's values, last written first; a refused one is
 * tried again after the others went back (one may bound another). Each
 * failure is one line with the value and the errno. Returns how many failed.
 */
static int replay(FILE *f)
{
	struct restore_item items[LEDGER_MAX_VALUES * 2];
	bool progress = true;
	int nr, failed = parse_record(f, items, LEDGER_MAX_VALUES * 2, &nr);

	for (int i = nr - 1; i >= 0; i--)
		items[i].err = items[i].path && items[i].val ?
			write_file(items[i].path, items[i].val) : -ENOMEM;
	while (progress) {
		progress = false;
		for (int i = nr - 1; i >= 0; i--)
			if (items[i].err && items[i].path && items[i].val &&
			    !(items[i].err = write_file(items[i].path, items[i].val)))
				progress = true;
	}
	for (int i = 0; i < nr; i++) {
		if (items[i].err) {
			err_msg("cannot restore %s to '%s': %s (%s)", items[i].path ? : "?",
				items[i].val ? : "?", strerror(-items[i].err),
				errno_name(-items[i].err));
			failed++;
		}
		free(items[i].path);
		free(items[i].val);
	}
	return failed;
}

/* A killed run's record: replay it, or report it and set it aside. */
static int replay_left_record(struct ledger *l)
{
	char bad[PATH_MAX + 64];
	struct stat sb;
	pid_t owner;
	FILE *f;
	int ret;

	if (fstat(l->lock_fd, &sb) || !sb.st_size)
		return 0;
	f = record_stream(l->lock_fd, "r");
	if (!f)
		return -errno;
	owner = record_owner(l->lock_fd);
	if (owner)
		info_msg("restoring %s's settings left by a killed rtla run (pid %d)", l->what,
			 owner);
	else
		info_msg("restoring the settings recorded in %s", l->record);
	ret = replay(f);
	fclose(f);
	if (!ret)
		return 0;
	/* kept for the user, out of the way of every later run */
	ret = guardian_record_set_aside(l->record, bad, sizeof(bad));
	if (ret)
		err_msg("%s could not be replayed, nor moved aside (%s): check the values above, "
			"then remove it (rm %s)", l->record, strerror(-ret), l->record);
	else
		err_msg("%s could not be replayed: it is kept as %s; check the values above, set "
			"them by hand if needed, then remove it (rm %s); the next run starts from "
			"the settings as they are", l->record, bad, bad);
	return -EIO;
}

static void unlock(struct ledger *l)
{
	close(l->lock_fd);
	l->lock_fd = -1;
}

static void ledger_init(struct ledger *l, const char *record, const char *what)
{
	memset(l, 0, sizeof(*l));
	l->record = record;
	l->what = what;
	l->lock_fd = -1;
	l->tlock.fd = -1;
}

int ledger_open_global(struct ledger *l, const char *record, const char *what,
		       const char *resource, const char *mark_dir)
{
	char lock_dir[PATH_MAX];
	struct guardian_opts opts = { .record = record, .mark_dir = mark_dir,
				      .record_unsealed = true };
	int ret;

	ledger_init(l, record, what);
	if ((ret = take_lock(l)))
		return ret;
	opts.keep_fd = l->lock_fd;
	if (!tracefs_lock_path(resource, lock_dir, sizeof(lock_dir)))
		opts.lock_dir = lock_dir;
	/* first: if rtla dies while it takes the lock, the guardian removes the instance */
	if ((ret = guardian_start(&l->guard, &opts))) {
		err_msg("cannot start the guardian that gives %s's settings back if rtla dies: %s",
			what, strerror(-ret));
		unlock(l);
		return ret;
	}
	if (!(ret = tracefs_lock_take(&l->tlock, resource, what)) && l->tlock.fd >= 0 &&
	    (ret = guardian_hold(l->guard, l->tlock.fd)))
		err_msg("cannot hand the tracefs lock to the guardian: %s", strerror(-ret));
	if (!ret)
		ret = replay_left_record(l);
	if (ret) {
		guardian_stand_down(l->guard);
		l->guard = NULL;
		tracefs_lock_release(&l->tlock);
		unlock(l);
		return ret;
	}
	if (ftruncate(l->lock_fd, 0))
		debug_msg("cannot clear %s: %s", l->record, strerror(errno));
	return 0;
}

int ledger_open(struct ledger *l, const char *record, const char *what)
{
	int ret;

	ledger_init(l, record, what);
	if ((ret = take_lock(l)))
		return ret;
	if ((ret = replay_left_record(l))) {
		unlock(l);	/* change nothing more now */
		return ret;
	}
	if (ftruncate(l->lock_fd, 0))
		debug_msg("cannot clear %s: %s", l->record, strerror(errno));
	return 0;
}

/* ---- borrowing ---- */

int ledger_borrow_as(struct ledger *l, const char *path, const char *restore)
{
	struct ledger_value *v = &l->v[l->nr];

	if (l->nr == LEDGER_MAX_VALUES || l->sealed)
		return -EINVAL;	/* a ledger holds a fixed set, all known before the seal */
	if (strchr(path, ' ') || strchr(path, '\n') || strchr(restore, '\n'))
		return -EINVAL;	/* the record is one value per line */
	v->path = strdup(path);
	v->orig = strdup(restore);
	v->gid = -1;
	if (!v->path || !v->orig) {
		free(v->path);
		free(v->orig);
		return -ENOMEM;
	}
	return l->nr++;
}

int ledger_borrow(struct ledger *l, const char *path)
{
	char orig[LEDGER_VALUE_MAX];
	int ret = ledger_read(path, orig, sizeof(orig));

	return ret < 0 ? ret : ledger_borrow_as(l, path, orig);
}

static int append_record(struct ledger *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int append_record(struct ledger *l, const char *fmt, ...)
{
	char line[PATH_MAX + LEDGER_VALUE_MAX + 32];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(line))
		return -E2BIG;
	/* O_APPEND is not set: the end is where the last line went */
	if (lseek(l->lock_fd, 0, SEEK_END) < 0 || write(l->lock_fd, line, n) != n ||
	    fdatasync(l->lock_fd))
		return errno ? -errno : -EIO;
	return 0;
}

int ledger_seal(struct ledger *l, const char *mark_dir)
{
	struct guardian_opts opts = {
		.record = l->record, .keep_fd = l->lock_fd, .mark_dir = mark_dir,
	};
	int ret;

	if ((ret = append_record(l, "pid %d %s\n", getpid(), l->what))) {
		err_msg("cannot write the record %s: %s", l->record, strerror(-ret));
		goto out;
	}
	/* ledger_open_global() started it before the lock */
	ret = l->guard ? guardian_seal(l->guard) : guardian_start(&l->guard, &opts);
	for (int i = 0; !ret && i < l->nr; i++) {
		/* the guardian writes the text as it is: tracefs takes "\n" for empty */
		ret = l->v[i].gid = guardian_value(l->guard, l->v[i].path,
						   *l->v[i].orig ? l->v[i].orig : "\n");
		ret = ret < 0 ? ret : 0;
	}
	if (!ret) {
		l->sealed = true;
		return 0;
	}
	err_msg("cannot start the guardian that gives %s's settings back if rtla dies: %s",
		l->what, strerror(-ret));
	guardian_stand_down(l->guard);
	l->guard = NULL;
out:
	/* nothing was written: a record left here would be replayed for nothing */
	if (ftruncate(l->lock_fd, 0))
		debug_msg("cannot clear %s: %s", l->record, strerror(errno));
	return ret;
}

int ledger_write(struct ledger *l, int id, const char *val)
{
	struct ledger_value *v;
	int ret;

	if (id < 0 || id >= l->nr || !l->guard || !l->sealed)
		return -EINVAL;
	v = &l->v[id];
	/* never write what nobody could restore if rtla died now */
	if (!v->written) {
		if ((ret = append_record(l, "restore %s %s\n", v->path, v->orig)) ||
		    (ret = guardian_written(l->guard, v->gid)))
			return ret;
		v->written = true;
	}
	ret = write_file(v->path, val);
	debug_msg("%s <- %s%s%s", v->path, val, ret ? ": " : "", ret ? strerror(-ret) : "");
	return ret;
}

struct guardian *ledger_guardian(const struct ledger *l)
{
	return l->guard;
}

static void free_values(struct ledger *l)
{
	for (int i = 0; i < l->nr; i++) {
		free(l->v[i].path);
		free(l->v[i].orig);
	}
	l->nr = 0;
}

int ledger_close(struct ledger *l)
{
	int failed = 0;
	FILE *f;

	if (l->lock_fd < 0) {
		free_values(l);
		return 0;
	}
	/* the record holds exactly what was written: replay it, then forget it */
	f = record_stream(l->lock_fd, "r");
	if (f) {
		rewind(f);	/* the dup shares the offset the appends left at the end */
		failed = replay(f);
		fclose(f);
	} else {
		failed = 1;
		err_msg("cannot read the record %s: %s", l->record, strerror(errno));
	}
	/* a record that could not be replayed stays for the next run to retry */
	if (!failed && ftruncate(l->lock_fd, 0))
		err_msg("cannot clear %s: %s", l->record, strerror(errno));
	/*
	 * done: the guardian leaves, and with it its hold on the locks. Told
	 * first that rtla closes its own descriptor of the tracefs lock, it
	 * removes the lock as it leaves: rtla killed at any moment of this end
	 * leaves no lock behind.
	 */
	if (l->guard && l->tlock.fd >= 0 && !guardian_let_go(l->guard))
		tracefs_lock_let_go(&l->tlock);
	guardian_stand_down(l->guard);
	l->guard = NULL;
	tracefs_lock_release(&l->tlock);
	unlock(l);
	free_values(l);
	return failed;
}

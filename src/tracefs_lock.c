// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs_lock - a lock on a global tracing resource that every container
 * sharing the kernel sees (tracefs_lock.h says why it is sound).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "owned.h"
#include "trace_instance.h"
#include "tracefs_lock.h"

#define LOCK_PREFIX	"rtla_lock_"
#define LOCK_TAG	"rtla-lock "
/*
 * Per CPU: the kernel's smallest buffer (two pages) holds dozens of claims;
 * a new instance gets trace_buf_size (1.4 MB) on every CPU otherwise.
 */
#define LOCK_BUFFER_KB	"8"
/* a try takes well under a millisecond; a loser naps 1-8 ms: about 0.5 s in all */
#define LOCK_ROUNDS	100
/* a write the kernel refuses while a reader has the trace open: 1 ms apart */
#define WRITE_TRIES	200

struct lock_view {
	int claims;		/* claim lines */
	bool mine;		/* ours is one of them */
	bool held;		/* some run wrote "held" */
	char holder[320];	/* the held line's run, else the first claim's */
};

static const struct timespec one_ms = { 0, 1000 * 1000 };

int tracefs_lock_path(const char *resource, char *buf, size_t len)
{
	char file[128];

	if (snprintf(file, sizeof(file), "instances/" LOCK_PREFIX "%s", resource) >=
	    (int)sizeof(file))
		return -ENAMETOOLONG;
	return trace_path(file, buf, len);
}

/* the holder's line ends with what it uses, after this */
#define USES	"; uses "

void tracefs_lock_refuse(const char *what, const char *holder)
{
	const char *uses = holder ? strstr(holder, USES) : NULL;

	if (uses)
		err_msg("another rtla run (%.*s) is using %s; its settings are global, so two runs "
			"cannot share them", (int)(uses - holder), holder, uses + strlen(USES));
	else if (holder && *holder)
		err_msg("another rtla run (%s) is using %s; its settings are global, so two runs "
			"cannot share them", holder, what);
	else
		err_msg("another rtla run is using %s; its settings are global, so two runs cannot "
			"share them", what);
}

/* "pid P, host H, since T: CMD; uses WHAT": this run, as a refused one names it. */
static void describe_self(char *buf, size_t len, const char *what)
{
	char cmd[96] = "", since[32];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	ssize_t n;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		n = read(fd, cmd, sizeof(cmd) - 1);
		close(fd);
		cmd[n > 0 ? n : 0] = '\0';
		for (ssize_t i = 0; i < n - 1; i++)
			if (cmd[i] == '\0' || cmd[i] == '\n')
				cmd[i] = ' ';
	}
	if (uname(&u))
		strcpy(u.nodename, "?");
	gmtime_r(&now, &tm);
	strftime(since, sizeof(since), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(buf, len, "pid %d, host %s, since %s: %s" USES "%s", getpid(), u.nodename,
		 since, *cmd ? cmd : "rtla", what);
}

/* A line into the instance's buffer; the kernel refuses it (EBADF) while a reader pauses it. */
static int marker_write(int fd, const char *line)
{
	size_t len = strlen(line);

	for (int tries = 0;; tries++) {
		if (write(fd, line, len) == (ssize_t)len)
			return 0;
		if (errno != EBADF || tries == WRITE_TRIES)
			return -errno;
		nanosleep(&one_ms, NULL);
	}
}

/* The instance's buffer size; the kernel refuses a resize (EBUSY) while a reader iterates. */
static int shrink_buffer(const char *dir)
{
	char path[PATH_MAX + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/buffer_size_kb", dir);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (int tries = 0;; tries++) {
		if (write(fd, LOCK_BUFFER_KB, strlen(LOCK_BUFFER_KB)) > 0)
			break;
		if (errno != EBUSY || tries == WRITE_TRIES) {
			int err = errno;

			close(fd);
			return -err;
		}
		nanosleep(&one_ms, NULL);
	}
	close(fd);
	return 0;
}

/* What the instance's trace says; NONCE: ours (NULL: a look from outside). 0 or -errno. */
static int read_view(const char *dir, const char *nonce, struct lock_view *v)
{
	char path[PATH_MAX + 32], line[512], kind[8], their[24];
	FILE *f;

	memset(v, 0, sizeof(*v));
	snprintf(path, sizeof(path), "%s/trace", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *tag = strstr(line, LOCK_TAG), *who;
		int at = 0;

		if (!tag || sscanf(tag + strlen(LOCK_TAG), "%7s %23s %n", kind, their, &at) != 2 ||
		    !at)
			continue;
		who = tag + strlen(LOCK_TAG) + at;
		who[strcspn(who, "\n")] = '\0';
		if (!strcmp(kind, "held")) {
			v->held = true;
			snprintf(v->holder, sizeof(v->holder), "%s", who);
		} else if (!strcmp(kind, "claim")) {
			if (!v->claims++ && !v->held)
				snprintf(v->holder, sizeof(v->holder), "%s", who);
			if (nonce && !strcmp(their, nonce))
				v->mine = true;
		}
	}
	fclose(f);
	return 0;
}

/*
 * The instance exists: remove it if nobody holds it (0: gone now), or say
 * who does: -EBUSY with a held line in V, -EAGAIN when no run holds it yet
 * (one is between its mkdir and its verdict).
 */
static int reclaim(const char *dir, struct lock_view *v)
{
	const char *name = strrchr(dir, '/') + 1;
	int ret = read_view(dir, NULL, v);

	if (ret == -ENOENT)
		return 0;
	if (!rmdir(dir)) {
		if (v->held)
			info_msg("removed the tracefs lock %s of an rtla run that is gone (%s)", name,
				 v->holder);
		else
			debug_msg("removed the tracefs lock %s, which nobody held", name);
		return 0;
	}
	if (errno == ENOENT)
		return 0;
	if (errno == EBUSY)
		return v->held ? -EBUSY : -EAGAIN;
	ret = -errno;
	err_msg("cannot remove the tracefs lock %s: %s", dir, strerror(-ret));
	return ret;
}

/*
 * In the instance this run made (or believes it made): shrink, claim, look.
 * 0: held (the file stays open in LK); -EBUSY: another claim is there (V
 * says whose); -EAGAIN: start over; -errno.
 */
static int claim(struct tracefs_lock *lk, const char *nonce, const char *self,
		 struct lock_view *v)
{
	char path[PATH_MAX + 32], line[512];
	int fd, ret;

	memset(v, 0, sizeof(*v));
	snprintf(path, sizeof(path), "%s/trace_marker", lk->path);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -EAGAIN : -errno;	/* reclaimed under us */
	snprintf(line, sizeof(line), LOCK_TAG "claim %s %s\n", nonce, self);
	/* every claim comes after its own shrink: none is lost to another's */
	if ((ret = shrink_buffer(lk->path)) || (ret = marker_write(fd, line)) ||
	    (ret = read_view(lk->path, nonce, v))) {
		close(fd);
		debug_msg("tracefs lock: try again after %s", strerror(-ret));
		return -EAGAIN;
	}
	if (v->claims != 1 || !v->mine || v->held) {
		close(fd);
		return -EBUSY;
	}
	snprintf(line, sizeof(line), LOCK_TAG "held %s %s\n", nonce, self);
	if (marker_write(fd, line))
		debug_msg("tracefs lock: held, but not said so: %s", strerror(errno));
	lk->fd = fd;
	return 0;
}

static void nap_random(unsigned int *seed)
{
	struct timespec t = { 0, (1 + rand_r(seed) % 8) * 1000 * 1000 };

	nanosleep(&t, NULL);
}

static bool have_instances(const char *lock_path)
{
	char dir[PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", lock_path);
	*strrchr(dir, '/') = '\0';
	return !stat(dir, &st) && S_ISDIR(st.st_mode);
}

int tracefs_lock_take(struct tracefs_lock *lk, const char *resource, const char *what)
{
	char self[256], nonce[17];
	unsigned char rnd[8];
	struct lock_view v = { 0 };
	unsigned int seed;
	int ret;

	lk->fd = -1;
	if (tracefs_lock_path(resource, lk->path, sizeof(lk->path)) || !have_instances(lk->path)) {
		lk->path[0] = '\0';
		return 0;	/* no tracefs here: nothing global to share */
	}
	if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
		return -errno;
	for (size_t i = 0; i < sizeof(rnd); i++)
		snprintf(nonce + 2 * i, 3, "%02x", rnd[i]);
	memcpy(&seed, rnd, sizeof(seed));
	describe_self(self, sizeof(self), what);
	for (int round = 0; round < LOCK_ROUNDS; round++) {
		if (mkdir(lk->path, 0700)) {
			if (errno != EEXIST) {
				ret = -errno;
				err_msg("cannot create the tracefs lock %s: %s", lk->path, strerror(-ret));
				return ret;
			}
			ret = reclaim(lk->path, &v);
			if (ret == -EBUSY)
				break;
			if (ret == -EAGAIN)
				nap_random(&seed);
			else if (ret)
				return ret;
			continue;
		}
		ret = claim(lk, nonce, self, &v);
		if (!ret)
			return 0;
		if (ret == -EBUSY && v.held)
			break;
		nap_random(&seed);
	}
	tracefs_lock_refuse(what, v.holder);
	return -EBUSY;
}

int tracefs_lock_check(const char *resource, const char *what)
{
	char path[PATH_MAX];
	struct lock_view v = { 0 };
	unsigned int seed = (unsigned int)getpid();
	int ret = 0;

	if (tracefs_lock_path(resource, path, sizeof(path)) || !have_instances(path))
		return 0;
	for (int round = 0; round < LOCK_ROUNDS; round++) {
		if (access(path, F_OK))
			return 0;
		ret = reclaim(path, &v);
		if (ret != -EAGAIN)
			break;
		nap_random(&seed);
	}
	if (ret == -EBUSY || ret == -EAGAIN) {
		tracefs_lock_refuse(what, v.holder);
		return -EBUSY;
	}
	return ret;
}

void tracefs_lock_let_go(struct tracefs_lock *lk)
{
	if (lk->fd >= 0)
		close(lk->fd);
	lk->fd = -1;
}

void tracefs_lock_release(struct tracefs_lock *lk)
{
	int err;

	if (lk->fd < 0)
		return;
	close(lk->fd);
	lk->fd = -1;
	/* a refused run may be reading who held it: the rmdir waits for it a little */
	if ((err = owned_remove_dir(lk->path)))
		warn_msg("cannot remove the tracefs lock %s: %s (the next run reclaims it)",
			 lk->path, strerror(-err));
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * guardian - give borrowed kernel state back when its borrower dies.
 *
 * The guardian is a fork of the borrowing process (no exec: it only needs
 * open, write and rmdir), forked twice so that it is not the borrower's
 * child: tools and scripts take a run's children for its workload
 * (timerlat's timerlatu/N processes are rtla's children, as upstream's). The two share a socket on which the borrower
 * sends small frames and the guardian only listens, after one byte of its
 * own that says it has left the borrower's session; a socket rather than a
 * pipe so that a send to a guardian that is gone fails with EPIPE instead
 * of raising SIGPIPE in a program that has not ignored it.
 *
 * The socket is the death notice: whatever ends the borrower, the kernel
 * closes its end, and the guardian reads end of file. It then waits for the
 * borrower's pidfd, which becomes readable only once the process has
 * released all of its files, so that no trace buffer it read still pins
 * the instance the guardian is about to remove.
 *
 * The guardian runs in a session of its own and ignores every signal a
 * terminal, a shell or "pkill rtla" sends, so that the Ctrl-C that ends
 * the run cannot kill it first. Its stdin and stdout are /dev/null; it
 * keeps stderr, the user's, only for the lines that say what it could not
 * restore: the user sees them where rtla's own messages went, and the
 * guardian holds that stream only until it is done, within a second of the
 * borrower's death, so "rtla ... | head" or a test's capture waits no
 * longer than the restore itself.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guardian.h"
#include "msg.h"
#include "owned.h"
#include "sysroot.h"

enum { GM_VALUE = 1, GM_WRITTEN, GM_DIR, GM_FORGET, GM_DONE, GM_HOLD, GM_SEAL, GM_LET_GO };

/* a frame: this header, then path_len bytes of path, then val_len of value */
struct gmsg {
	uint32_t type;
	uint32_t id;
	uint32_t path_len;
	uint32_t val_len;
};

#define GF_WRITTEN	0x1	/* the first write was announced */
#define GF_MARKED	0x2	/* an ownership mark exists */

/* The borrower's side. */
struct guardian {
	pid_t pid;
	int sock;
	int nr, cap;
	unsigned char *flags;	/* per id */
	char **dirs;		/* per id: the path of a directory, else NULL */
	char *mark_dir;
	bool broken;		/* the guardian stopped listening */
};

/* The guardian's side: what it was told. */
struct gentry {
	char *path;
	char *val;
	size_t val_len;
	bool dir;
	bool active;		/* written, or a directory announced */
	bool forgotten;
	int err;		/* of the last restore attempt */
};

struct gstate {
	int sock, pidfd;
	int hold_fd;		/* the tracefs lock's file, once handed over; -1 */
	bool sealed;		/* the record is the borrower's own */
	const char *record, *mark_dir, *lock_dir;
	struct gentry *e;
	int nr;
	int *order;		/* ids in the order they became active */
	int nr_order;
	char *buf;
	size_t len, cap;
	bool done;
	bool let_go;		/* the borrower closed its lock descriptor: ours is the last */
};

#define SETTLE_MS	500		/* at most this long for the pidfd after EOF */


pid_t guardian_pid(const struct guardian *g)
{
	return g ? g->pid : 0;
}

int guardian_record_set_aside(const char *record, char *bad, size_t len)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	localtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	for (int i = 0; i < 100; i++) {
		if (i)
			snprintf(bad, len, "%s.bad-%s.%d", record, stamp, i);
		else
			snprintf(bad, len, "%s.bad-%s", record, stamp);
		/* link, not rename: never overwrite an earlier bad record */
		if (!link(record, bad))
			return unlink(record) ? -errno : 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* ---- the borrower's side ---- */

static int send_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_all_fd(int sock, const void *buf, size_t len, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { (void *)buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (fd < 0)
		return send_all(sock, buf, len);
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	/* the descriptor went with the first byte: the rest is a plain send */
	return send_all(sock, (const char *)buf + n, len - (size_t)n);
}

static int send_msg_fd(struct guardian *g, uint32_t type, int id, const char *path,
		       const char *val, int fd);

static int send_msg(struct guardian *g, uint32_t type, int id, const char *path, const char *val)
{
	return send_msg_fd(g, type, id, path, val, -1);
}

static int send_msg_fd(struct guardian *g, uint32_t type, int id, const char *path,
		       const char *val, int fd)
{
	struct gmsg m = {
		.type = type, .id = (uint32_t)id,
		.path_len = path ? (uint32_t)strlen(path) : 0,
		.val_len = val ? (uint32_t)strlen(val) : 0,
	};
	size_t len = sizeof(m) + m.path_len + m.val_len;
	char *frame;
	int ret;

	if (g->broken)
		return -EPIPE;
	frame = malloc(len);
	if (!frame)
		return -ENOMEM;
	memcpy(frame, &m, sizeof(m));
	if (m.path_len)
		memcpy(frame + sizeof(m), path, m.path_len);
	if (m.val_len)
		memcpy(frame + sizeof(m) + m.path_len, val, m.val_len);
	ret = send_all_fd(g->sock, frame, len, fd);
	free(frame);
	if (ret) {
		g->broken = true;
		err_msg("the guardian (pid %d) is gone: %s", g->pid, strerror(-ret));
	}
	return ret;
}

static int new_id(struct guardian *g)
{
	if (g->nr == g->cap) {
		int cap = g->cap ? 2 * g->cap : 16;
		unsigned char *flags = realloc(g->flags, cap);
		char **dirs;

		if (!flags)
			return -ENOMEM;
		g->flags = flags;
		dirs = realloc(g->dirs, cap * sizeof(*dirs));
		if (!dirs)
			return -ENOMEM;
		g->dirs = dirs;
		g->cap = cap;
	}
	g->flags[g->nr] = 0;
	g->dirs[g->nr] = NULL;
	return g->nr++;
}

int guardian_value(struct guardian *g, const char *path, const char *orig)
{
	int id, ret;

	if (!g)
		return 0;
	id = new_id(g);
	if (id < 0)
		return id;
	ret = send_msg(g, GM_VALUE, id, path, orig);
	return ret ? ret : id;
}

int guardian_written(struct guardian *g, int id)
{
	int ret;

	if (!g || id < 0 || id >= g->nr || (g->flags[id] & GF_WRITTEN))
		return 0;
	ret = send_msg(g, GM_WRITTEN, id, NULL, NULL);
	if (!ret)
		g->flags[id] |= GF_WRITTEN;
	return ret;
}

int guardian_dir(struct guardian *g, const char *path)
{
	int id, ret;

	if (!g)
		return 0;
	id = new_id(g);
	if (id < 0)
		return id;
	g->dirs[id] = strdup(path);
	if (!g->dirs[id])
		return -ENOMEM;
	ret = send_msg(g, GM_DIR, id, path, NULL);
	return ret ? ret : id;
}

int guardian_dir_created(struct guardian *g, int id)
{
	int ret;

	if (!g || id < 0 || id >= g->nr || !g->dirs[id] || !g->mark_dir)
		return 0;
	ret = owned_mark(g->mark_dir, g->dirs[id], g->pid);
	if (ret)
		warn_msg("cannot mark %s as rtla's in %s: %s", g->dirs[id], g->mark_dir,
			 strerror(-ret));
	else
		g->flags[id] |= GF_MARKED;
	return ret;
}

int guardian_forget(struct guardian *g, int id)
{
	if (!g || id < 0 || id >= g->nr)
		return 0;
	if (g->flags[id] & GF_MARKED)
		owned_unmark(g->mark_dir, g->dirs[id]);
	g->flags[id] &= ~GF_MARKED;
	return send_msg(g, GM_FORGET, id, NULL, NULL);
}

int guardian_let_go(struct guardian *g)
{
	return g ? send_msg(g, GM_LET_GO, 0, NULL, NULL) : -ENOENT;
}

int guardian_hold(struct guardian *g, int fd)
{
	return g ? send_msg_fd(g, GM_HOLD, 0, NULL, NULL, fd) : 0;
}

int guardian_seal(struct guardian *g)
{
	return g ? send_msg(g, GM_SEAL, 0, NULL, NULL) : 0;
}

void guardian_keep_off(struct guardian *g, const cpu_set_t *busy)
{
	cpu_set_t set;

	if (!g)
		return;
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (!CPU_ISSET(cpu, busy))
			CPU_SET(cpu, &set);
	/* EINVAL: no CPU left, the guardian stays where it is */
	if (sched_setaffinity(g->pid, sizeof(set), &set))
		debug_msg("guardian: not moved off the busy CPUs: %s", strerror(errno));
}

static void guardian_free(struct guardian *g)
{
	for (int i = 0; i < g->nr; i++)
		free(g->dirs[i]);
	free(g->dirs);
	free(g->flags);
	free(g->mark_dir);
	free(g);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t0->tv_sec) * 1e3 + (now.tv_nsec - t0->tv_nsec) / 1e6;
}

int guardian_stand_down(struct guardian *g)
{
	struct timespec t0;
	int ret = 0;

	if (!g)
		return 0;
	if (!g->broken)
		ret = send_msg(g, GM_DONE, 0, NULL, NULL);
	/*
	 * It exits at once on DONE, which closes its end of the socket (it is
	 * not our child: no waitpid); one still there after 2 s is stuck.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		struct pollfd p = { g->sock, POLLIN, 0 };
		double left = 2000 - ms_since(&t0);
		char buf[64];
		int r;

		if (left <= 0) {
			warn_msg("the guardian (pid %d) did not stand down: killing it", g->pid);
			kill(g->pid, SIGKILL);
			break;
		}
		r = poll(&p, 1, (int)left + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (r > 0) {
			ssize_t n = recv(g->sock, buf, sizeof(buf), MSG_DONTWAIT);

			if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
				break;	/* its end is closed: it is gone */
		}
	}
	close(g->sock);
	guardian_free(g);
	return ret;
}

/* ---- the guardian's side ---- */

static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
	       sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS;
}

static void close_fds_from(unsigned int from, unsigned int to)
{
	/* close_range() is Linux >= 5.9; before it, the descriptors of a default limit */
	if (from <= to && syscall(SYS_close_range, from, to, 0))
		for (unsigned int fd = from; fd <= to && fd < 1024; fd++)
			close((int)fd);
}

/* Out of the borrower's session, its signals and its files; keeps *FDS[i]. */
static void detach(int *const *fds, int nfds)
{
	int keep[8], n = 0, null, lo;
	sigset_t none;

	for (int sig = 1; sig < NSIG; sig++) {
		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		signal(sig, crash_signal(sig) || sig == SIGCHLD ? SIG_DFL : SIG_IGN);
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setsid();
	prctl(PR_SET_NAME, "rtla-guardian", 0, 0, 0);
	if (chdir("/"))
		debug_msg("guardian: chdir /: %s", strerror(errno));

	/* move what we keep above the standard descriptors before replacing them */
	for (int i = 0; i < nfds; i++)
		if (*fds[i] >= 0 && *fds[i] <= 2)
			*fds[i] = fcntl(*fds[i], F_DUPFD_CLOEXEC, 3);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > 2)
			close(null);
	}
	/* everything else goes: an open trace buffer would keep an instance busy */
	for (int i = 0; i < nfds && n < 8; i++) {
		int fd = *fds[i], j = n++;

		for (; j > 0 && keep[j - 1] > fd; j--)
			keep[j] = keep[j - 1];
		keep[j] = fd;
	}
	lo = 3;
	for (int i = 0; i < n; i++) {
		if (keep[i] < lo)
			continue;
		close_fds_from((unsigned int)lo, (unsigned int)keep[i] - 1);
		lo = keep[i] + 1;
	}
	close_fds_from((unsigned int)lo, ~0U);
}

static struct gentry *entry(struct gstate *s, uint32_t id)
{
	if (id >= (1u << 20))
		return NULL;
	if ((int)id >= s->nr) {
		int nr = (int)id + 16;
		struct gentry *e = realloc(s->e, nr * sizeof(*e));
		int *order = realloc(s->order, nr * sizeof(*order));

		if (e)
			s->e = e;
		if (order)
			s->order = order;
		if (!e || !order)
			return NULL;
		memset(s->e + s->nr, 0, (nr - s->nr) * sizeof(*e));
		s->nr = nr;
	}
	return &s->e[id];
}

static void activate(struct gstate *s, uint32_t id, struct gentry *e)
{
	if (e->active)
		return;
	e->active = true;
	s->order[s->nr_order++] = (int)id;
}

static void take_frame(struct gstate *s, const struct gmsg *m, const char *path, const char *val)
{
	struct gentry *e = entry(s, m->id);

	if (m->type == GM_DONE) {
		s->done = true;
		return;
	}
	if (m->type == GM_LET_GO) {
		s->let_go = true;
		return;
	}
	if (m->type == GM_SEAL || m->type == GM_HOLD) {
		/* GM_HOLD's descriptor was kept as it came (recv_keeping_fd()) */
		s->sealed |= m->type == GM_SEAL;
		return;
	}
	if (!e)
		return;
	switch (m->type) {
	case GM_VALUE:
	case GM_DIR:
		free(e->path);
		free(e->val);
		e->path = strndup(path, m->path_len);
		e->val = malloc(m->val_len + 1);
		if (e->val) {
			memcpy(e->val, val, m->val_len);
			e->val[m->val_len] = '\0';
		}
		e->val_len = m->val_len;
		e->dir = m->type == GM_DIR;
		if (e->dir)
			activate(s, m->id, e);
		break;
	case GM_WRITTEN:
		activate(s, m->id, e);
		break;
	case GM_FORGET:
		e->forgotten = true;
		break;
	}
}

/* recv(), keeping a descriptor that came with the data (GM_HOLD's: the only one sent) */
static ssize_t recv_keeping_fd(struct gstate *s, void *buf, size_t len)
{
	union {
		char buf[CMSG_SPACE(4 * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { buf, len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			     .msg_controllen = sizeof(ctl.buf) };
	ssize_t n = recvmsg(s->sock, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

	for (struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&mh) : NULL; c; c = CMSG_NXTHDR(&mh, c)) {
		int nfd = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int)), fds[4];

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		memcpy(fds, CMSG_DATA(c), (size_t)nfd * sizeof(int));
		for (int i = 0; i < nfd; i++) {
			if (s->hold_fd < 0)
				s->hold_fd = fds[i];
			else
				close(fds[i]);
		}
	}
	return n;
}

/* Read what is there; 1: got data, 0: end of file, -1: nothing now or an error. */
static int take_input(struct gstate *s)
{
	size_t off = 0;
	ssize_t n;

	if (s->cap - s->len < 4096) {
		size_t cap = s->cap ? 2 * s->cap : 16384;
		char *buf = realloc(s->buf, cap);

		if (!buf)
			return 0;	/* cannot listen any more: act as if the borrower died */
		s->buf = buf;
		s->cap = cap;
	}
	n = recv_keeping_fd(s, s->buf + s->len, s->cap - s->len);
	if (n == 0)
		return 0;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -1 : 0;
	s->len += (size_t)n;
	/* a frame cut short by the borrower's death is never completed: dropped */
	while (s->len - off >= sizeof(struct gmsg)) {
		struct gmsg m;
		size_t flen;

		memcpy(&m, s->buf + off, sizeof(m));
		flen = sizeof(m) + (size_t)m.path_len + m.val_len;
		if (s->len - off < flen)
			break;
		take_frame(s, &m, s->buf + off + sizeof(m), s->buf + off + sizeof(m) + m.path_len);
		off += flen;
	}
	memmove(s->buf, s->buf + off, s->len - off);
	s->len -= off;
	return 1;
}

/* Until DONE or the borrower's end. */
static void listen_to_borrower(struct gstate *s)
{
	for (;;) {
		struct pollfd p[2] = { { s->sock, POLLIN, 0 }, { s->pidfd, POLLIN, 0 } };
		int r;

		if (poll(p, s->pidfd >= 0 ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[0].revents) {
			while ((r = take_input(s)) > 0 && !s->done)
				;
			if (!r || s->done)
				return;
		}
		if (s->pidfd >= 0 && p[1].revents) {
			/* gone while something (a child) still holds its end: take what was sent */
			while (take_input(s) > 0 && !s->done)
				;
			return;
		}
	}
}

static const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : "?";
}

static int restore(struct gstate *s)
{
	bool progress = true;
	int failed = 0;

	for (int i = s->nr_order - 1; i >= 0; i--) {
		struct gentry *e = &s->e[s->order[i]];

		if (e->forgotten || !e->path)
			continue;
		if (e->dir) {
			e->err = owned_remove_dir(e->path);
			if (!e->err && s->mark_dir)
				owned_unmark(s->mark_dir, e->path);
		} else {
			e->err = e->val ? write_host_file(e->path, e->val, e->val_len) : -ENOMEM;
		}
	}
	/* a value the kernel refused may depend on one restored later
	 * (osnoise keeps runtime <= period): try the refused ones again */
	while (progress) {
		progress = false;
		for (int i = s->nr_order - 1; i >= 0; i--) {
			struct gentry *e = &s->e[s->order[i]];

			if (e->forgotten || e->dir || !e->err || !e->val)
				continue;
			if (!(e->err = write_host_file(e->path, e->val, e->val_len)))
				progress = true;
		}
	}
	for (int i = s->nr_order - 1; i >= 0; i--) {
		struct gentry *e = &s->e[s->order[i]];
		int len;

		if (e->forgotten || !e->err)
			continue;
		failed++;
		if (e->dir) {
			err_msg("guardian: cannot remove %s: %s (%s)", e->path, strerror(-e->err),
				errno_name(-e->err));
			continue;
		}
		len = (int)e->val_len;
		while (len && e->val[len - 1] == '\n')
			len--;
		err_msg("guardian: cannot restore %s to '%.*s': %s (%s)", e->path, len, e->val,
			strerror(-e->err), errno_name(-e->err));
	}
	return failed;
}

/*
 * Everything is back: let go of the tracefs lock and remove its instance.
 * One the borrower never held (it died while taking it) is removed only if
 * nobody holds it: the kernel refuses while another run does.
 */
static void release_lock(struct gstate *s)
{
	bool held = s->hold_fd >= 0;
	int err;

	if (held)
		close(s->hold_fd);
	if (!s->lock_dir)
		return;
	err = held ? owned_remove_dir(s->lock_dir) : (rmdir(s->lock_dir) ? -errno : 0);
	if (held && err && err != -ENOENT)
		err_msg("guardian: cannot remove the tracefs lock %s: %s (the next run reclaims it)",
			s->lock_dir, strerror(-err));
}

/* What the guardian sends once it has detached: "R" and its pid. */
struct ready_msg {
	char ready;
	pid_t pid;
};

static void __attribute__((noreturn)) guardian_main(int sock, int pidfd, pid_t borrower,
						     const struct guardian_opts *o)
{
	int keep_fd = o->keep_fd;
	int *const fds[] = { &sock, &pidfd, &keep_fd };
	struct gstate s = { .record = o->record, .mark_dir = o->mark_dir, .lock_dir = o->lock_dir,
			    .hold_fd = -1, .sealed = !o->record_unsealed };
	struct ready_msg ready = { 'R', getpid() };
	struct timespec t0;
	double settle_ms;
	int failed;

	detach(fds, 3);
	if (sock < 0)
		_exit(1);
	/* out of rtla's session now: a kill of its process group misses us */
	if (send(sock, &ready, sizeof(ready), MSG_NOSIGNAL) != sizeof(ready))
		_exit(1);
	s.sock = sock;
	s.pidfd = pidfd;
	listen_to_borrower(&s);
	if (s.done) {
		/* a lock the borrower let go of is ours to remove, whatever ends it now */
		if (s.let_go)
			release_lock(&s);
		_exit(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (s.pidfd >= 0)
		poll(&(struct pollfd){ s.pidfd, POLLIN, 0 }, 1, SETTLE_MS);
	settle_ms = ms_since(&t0);
	failed = restore(&s);
	if (s.record && s.sealed) {
		char bad[4200];

		if (!failed) {
			unlink(s.record);
		} else if (!guardian_record_set_aside(s.record, bad, sizeof(bad))) {
			err_msg("guardian: the record of the run is kept as %s; check the values "
				"above, then remove it (rm %s)", bad, bad);
		}
	}
	release_lock(&s);	/* the settings are back: the lock can go */
	debug_msg("guardian: pid %d ended without restoring: restored in %.1f ms (%.1f ms "
		  "waiting for its end), %d failure%s", borrower, ms_since(&t0), settle_ms,
		  failed, failed == 1 ? "" : "s");
	_exit(failed ? 1 : 0);
}

/*
 * The message the guardian sends once it has detached, with its pid; 0 or
 * -errno. Its first steps are a few syscalls: one that is not there within
 * 2 s (as for its stand-down) is stuck.
 */
static int wait_ready(struct guardian *g)
{
	struct pollfd p = { g->sock, POLLIN, 0 };
	struct ready_msg m;
	ssize_t n;
	int r;

	do
		r = poll(&p, 1, 2000);
	while (r < 0 && errno == EINTR);
	if (r <= 0)
		return r < 0 ? -errno : -ETIMEDOUT;
	do
		n = recv(g->sock, &m, sizeof(m), MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n == sizeof(m) && m.ready == 'R' && m.pid > 0) {
		g->pid = m.pid;
		return 0;
	}
	return n < 0 ? -errno : -ECHILD;
}

int guardian_start(struct guardian **gp, const struct guardian_opts *opts)
{
	struct guardian *g = calloc(1, sizeof(*g));
	sigset_t all, old;
	int sv[2], pidfd, err;
	pid_t pid, borrower;

	*gp = NULL;
	if (!g)
		return -ENOMEM;
	if (opts->mark_dir && !(g->mark_dir = strdup(opts->mark_dir))) {
		free(g);
		return -ENOMEM;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		err = errno;
		guardian_free(g);
		return -err;
	}
	/* our own pidfd, handed down: readable once we are gone (Linux >= 5.3) */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	/* no signal may reach the child before it has set its own dispositions */
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	borrower = getpid();
	pid = fork();
	if (pid == 0) {
		/* the guardian is the grandchild: its parent ends at once, and it is nobody's child */
		close(sv[0]);
		if (fork() == 0)
			guardian_main(sv[1], pidfd, borrower, opts);
		_exit(0);
	}
	err = errno;
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(sv[1]);
	if (pidfd >= 0)
		close(pidfd);
	if (pid < 0) {
		close(sv[0]);
		guardian_free(g);
		return -err;
	}
	g->sock = sv[0];
	/*
	 * Wait until it has its own session: until then a SIGKILL to rtla's
	 * process group (setsid rtla ...; kill -9 -PGID) would take it too, and
	 * with it the restore of what rtla borrows next.
	 */
	err = wait_ready(g);
	if (err) {
		if (g->pid > 0)
			kill(g->pid, SIGKILL);
		close(g->sock);
		guardian_free(g);
		return err;
	}
	*gp = g;
	return 0;
}

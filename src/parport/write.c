// SPDX-License-Identifier: GPL-2.0-only
/*
 * write - new_device and delete_device, with a time limit and explanations.
 *
 * A write to new_device can block for good: pata_parport probes with its
 * mutex held and waits (parport_claim_or_block) for a port that another
 * device keeps claimed, and every later write then waits on the mutex. So
 * the write is made by a child, and the tool waits for it only so long; the
 * kernel's answer is an errno, the reason is in the kernel log, which is
 * read from the position it had just before the write.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "msg.h"
#include "parport/parport.h"
#include "sysroot.h"

static void port_waiters(char *buf, size_t len, pid_t self);

/* What the writer says just before its write(), so that the time limit is the write's alone. */
#define WRITE_STARTED	INT_MIN
/* How long the writer may take to get there: a fork and an open(), seconds under load. */
#define START_LIMIT_MS	30000

/* An int from the writer within MS: 0, or -ETIMEDOUT. */
static int read_int(int fd, int ms, int *v)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) == 1 && read(fd, v, sizeof(*v)) == sizeof(*v))
		return 0;
	return -ETIMEDOUT;
}

/*
 * The write's outcome: 0, -errno, or -ETIMEDOUT when it did not return
 * within TIMEOUT of its start; then waiters names who sleeps on a parallel
 * port (before the writer is killed).
 */
static int timed_write(const char *path, const char *val, double timeout,
		       char *waiters, size_t wlen)
{
	int pfd[2], err = 0, status, v = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pfd[0]);
		close(pfd[1]);
		return err;
	}
	if (pid == 0) {
		/* the child: one write, its errno through the pipe */
		int fd = open(path, O_WRONLY | O_CLOEXEC), e = WRITE_STARTED;

		if (fd >= 0 && write(pfd[1], &e, sizeof(e)) < 0)
			_exit(2);
		e = 0;
		if (fd < 0 || write(fd, val, strlen(val)) < 0)
			e = errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(2);
		_exit(0);
	}
	close(pfd[1]);
	err = read_int(pfd[0], START_LIMIT_MS, &v);
	if (!err && v == WRITE_STARTED)
		err = read_int(pfd[0], (int)(timeout * 1000), &v);
	if (!err) {
		err = -v;
		waitpid(pid, &status, 0);
	} else {
		port_waiters(waiters, wlen, pid);
		/*
		 * It sleeps in the kernel: in parport_claim_or_block the kill
		 * wakes it, on the driver's mutex it lands once that is free.
		 */
		kill(pid, SIGKILL);
	}
	close(pfd[0]);
	return err;
}

struct log_collect {
	char lines[8][PP_TEXT_MAX];
	int n;
};

static int collect(const char *msg, void *data)
{
	struct log_collect *c = data;

	if (c->n < 8)
		snprintf(c->lines[c->n++], PP_TEXT_MAX, "%s", msg);
	else {
		memmove(c->lines[0], c->lines[1], sizeof(c->lines[0]) * 7);
		snprintf(c->lines[7], PP_TEXT_MAX, "%s", msg);
	}
	return 0;
}

/*
 * The kernel log from here on: opened before the write, at its end, and read
 * after it. -errno when it cannot be read (then no reason can be given).
 */
static int kmsg_open_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

static void kmsg_read_new(int fd, struct log_collect *c)
{
	char rec[2048];

	c->n = 0;
	if (fd < 0)
		return;
	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		char *text, *nl;

		if (n < 0 && errno == EPIPE)
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		nl = strchr(text, '\n');
		if (nl)
			*nl = '\0';
		collect(text + 1, c);
	}
}

/* The log line among those that names the failure, or NULL. */
static const char *reason(const struct log_collect *c, const char *const *keys)
{
	for (int i = c->n - 1; i >= 0; i--)
		for (const char *const *k = keys; *k; k++)
			if (strstr(c->lines[i], *k))
				return c->lines[i];
	return NULL;
}

/* Who sleeps waiting for a parallel port: "insmod (pid 123)", for the timeout message. */
static void port_waiters(char *buf, size_t len, pid_t self)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t off = 0;

	buf[0] = '\0';
	while (d && (de = readdir(d))) {
		char wchan[128] = "", comm[64] = "";

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		if (sysroot_readf(wchan, sizeof(wchan), "/proc/%s/wchan", de->d_name) <= 0 ||
		    !strstr(wchan, "parport"))
			continue;
		sysroot_readf(comm, sizeof(comm), "/proc/%s/comm", de->d_name);
		if (off < len && atoi(de->d_name) == self)
			off += snprintf(buf + off, len - off, "%sthis write (pid %s) in %s",
					off ? ", " : "", de->d_name, wchan);
		else if (off < len)
			off += snprintf(buf + off, len - off, "%s%s (pid %s) in %s",
					off ? ", " : "", comm, de->d_name, wchan);
	}
	if (d)
		closedir(d);
}

static void explain_timeout(const char *what, double timeout, const char *waiters)
{
	err_msg("%s did not return within %g s: the pata_parport driver is blocked waiting for "
		"a parallel port that a device keeps claimed%s%s; the write stays pending in the "
		"kernel and may still take effect when the port is released (delete the device "
		"holding the port; load protocols with pata_parport probe=0)",
		what, timeout, waiters[0] ? ": " : "", waiters);
}

/*
 * Whether every device new since BEFORE that has an ATA port has a disk
 * too, with its size read (the block device shows before its capacity).
 */
static bool disks_found(const struct pp_state *now, const struct pp_state *before)
{
	for (int i = 0; i < now->ndevs; i++) {
		bool old = false;

		for (int j = 0; j < before->ndevs; j++)
			old |= !strcmp(before->devs[j].name, now->devs[i].name);
		if (!old && (!now->devs[i].ata[0] || !now->devs[i].disk[0] || !now->devs[i].size))
			return false;
	}
	return true;
}

/*
 * The devices the write created. libata finds the drive behind the adapter
 * after the write has returned (an asynchronous scan, a fraction of a second
 * on a real port): wait up to 3 s for the disks. RET is passed through.
 */
static int report_new(const struct pp_opts *o, const struct pp_state *before, int ret)
{
	struct pp_state *now = malloc(sizeof(*now));
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int n = 0;

	if (!now) {
		err_msg("out of memory");
		return 1;
	}
	for (int i = 0; i < 30; i++) {
		pp_scan(now);
		if (disks_found(now, before))
			break;
		nanosleep(&ts, NULL);
	}
	for (int i = 0; i < now->ndevs; i++)
		n += !pp_find_dev(before, now->devs[i].name);
	if (n && ret)
		info_msg("created before the write stalled:");
	if (n && pp_print_devices(o, now, before))
		ret = 1;
	free(now);
	return ret;
}

int pp_add(const struct pp_opts *o, struct pp_state *st)
{
	static const char *const keys[] = {
		"Adapter not found", "invalid port name", "not found", "no such port", NULL
	};
	struct pp_request rq;
	struct log_collect log;
	char err[PP_TEXT_MAX * 3], waiters[PP_TEXT_MAX * 2];
	const char *why;
	int ret, fd;

	if (pp_request_parse(o->nargs, o->args, &rq, err, sizeof(err))) {
		err_msg("%s", err);
		return 1;
	}
	if (!st->pata_parport) {
		err_msg("pata_parport is not loaded (no %s): modprobe pata_parport probe=0, "
			"then the protocol's module", PP_BUS);
		return 1;
	}
	ret = pp_request_check(st, &rq, err, sizeof(err));
	if (ret < 0) {
		err_msg("%s", err);
		return 1;
	}
	if (ret > 0)
		warn_msg("%s", err);
	if (o->dry_run) {
		printf("would write '%s' to %s\n", rq.line, PP_NEW_DEVICE);
		return 0;
	}
	if (sysroot_require_live("add"))
		return 1;

	if ((!strcmp(rq.port, "auto") || !strcmp(rq.protocol, "auto")) && st->nprotos > 1)
		warn_msg("'%s' probes with %d protocols: once one finds an adapter, the driver keeps "
			 "the port claimed and the probes of the protocols after it wait for the port; "
			 "the write then does not return (given up after %g s)", rq.line,
			 st->nprotos, o->timeout);

	fd = kmsg_open_end();
	ret = timed_write(PP_NEW_DEVICE, rq.line, o->timeout, waiters, sizeof(waiters));
	kmsg_read_new(fd, &log);
	if (fd >= 0)
		close(fd);
	if (ret == -ETIMEDOUT) {
		char what[PP_TEXT_MAX + 64];

		snprintf(what, sizeof(what), "writing '%s' to %s", rq.line, PP_NEW_DEVICE);
		explain_timeout(what, o->timeout, waiters);
		return report_new(o, st, 1);
	}
	why = reason(&log, keys);
	if (ret == -EINVAL) {
		err_msg("the kernel refused '%s' (Invalid argument)%s%s", rq.line,
			why ? ": " : "", why ? why : "");
		return 1;
	}
	if (ret == -ENODEV) {
		const struct pp_port *port = pp_find_port(st, rq.port);

		if (why && strstr(why, "Adapter not found"))
			err_msg("no %s adapter answered on %s (the kernel logged \"%s\"): check that "
				"the adapter is powered and cabled, and that %s is its protocol%s",
				rq.protocol, rq.port, why,
				strcmp(rq.protocol, "auto") ? rq.protocol : "one of those registered",
				rq.mode >= 0 ? ", or try without a MODE" : "");
		else if (why)
			err_msg("no device was created for '%s' (No such device): %s", rq.line, why);
		else if (port && port->number >= 1)
			err_msg("no device was created on %s (No such device, nothing logged): the "
				"pata_parport driver of Linux 6.3 to 6.12 only admits parport0; its list "
				"of ports takes each at an index range that is empty for every number "
				"above 0, so %s is never probed", rq.port, rq.port);
		else if (!strcmp(rq.port, "auto") || !strcmp(rq.protocol, "auto"))
			err_msg("no adapter found for '%s' (No such device): nothing answered on the "
				"ports pata_parport knows (parport0 only, on Linux 6.3 to 6.12)", rq.line);
		else
			err_msg("no device was created for '%s' (No such device, nothing logged): "
				"pata_parport does not know %s, or a device with that port and "
				"protocol exists", rq.line, rq.port);
		return 1;
	}
	if (ret) {
		err_msg("writing '%s' to %s: %s%s%s", rq.line, PP_NEW_DEVICE, strerror(-ret),
			why ? ": " : "", why ? why : "");
		return 1;
	}
	return report_new(o, st, 0);
}

static bool dev_name_ok(const char *s)
{
	const char *d = s + strlen("pata_parport.");

	return !strncmp(s, "pata_parport.", strlen("pata_parport.")) && *d &&
	       strspn(d, "0123456789") == strlen(d) && strlen(d) <= 9;
}

int pp_delete(const struct pp_opts *o, struct pp_state *st)
{
	const char *name;
	const struct pp_dev *dev = NULL;
	char waiters[PP_TEXT_MAX * 2];
	int ret;

	if (o->nargs != 1) {
		err_msg(o->nargs ? "delete takes one NAME: %s" : "delete needs a device NAME%s",
			o->nargs ? o->args[1] : " (pata_parport.N)");
		return 1;
	}
	name = o->args[0];
	if (!dev_name_ok(name)) {
		err_msg("not a device name (pata_parport.N): %s", name);
		return 1;
	}
	if (!st->pata_parport) {
		err_msg("pata_parport is not loaded (no %s): there is no device to delete", PP_BUS);
		return 1;
	}
	dev = pp_find_dev(st, name);
	if (!dev) {
		err_msg("no device %s (devices: %s%s)", name,
			st->ndevs ? st->devs[0].name : "none", st->ndevs > 1 ? ", ..." : "");
		return 1;
	}
	if (o->dry_run) {
		printf("would write '%s' to %s\n", name, PP_DEL_DEVICE);
		return 0;
	}
	if (sysroot_require_live("delete"))
		return 1;
	/* without a newline: the name is compared as it is written */
	ret = timed_write(PP_DEL_DEVICE, name, o->timeout, waiters, sizeof(waiters));
	if (ret == -ETIMEDOUT) {
		char what[PP_TEXT_MAX];

		snprintf(what, sizeof(what), "writing '%s' to %s", name, PP_DEL_DEVICE);
		explain_timeout(what, o->timeout, waiters);
		return 1;
	}
	if (ret == -ENODEV) {
		err_msg("the kernel has no device %s (No such device): it went away meanwhile", name);
		return 1;
	}
	if (ret) {
		err_msg("writing '%s' to %s: %s", name, PP_DEL_DEVICE, strerror(-ret));
		return 1;
	}
	printf("%s deleted (%s on %s%s%s)\n", name, dev->protocol[0] ? dev->protocol : "?",
	       dev->port[0] ? dev->port : "?", dev->disk[0] ? ", disk " : "", dev->disk);
	return 0;
}

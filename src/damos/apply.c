// SPDX-License-Identifier: GPL-2.0-only
/*
 * apply - validate, record, write, commit, check, roll back.
 *
 * Linux 6.12 takes an invalid configuration at commit with a success and
 * then the kdamond dies (state off, pid -1): a reversed addr range, a memcg
 * that does not exist, a dead target, no target at all. So nothing is
 * written before every value is checked, and nothing is believed after the
 * commit until the kdamond is seen running with the same thread and the
 * files read back hold what was written.
 *
 * The noise family's guardian and ledger give values back in the reverse
 * order of their first writes; a kdamond cannot be restored that way:
 * writing a directory's nr_* file resets all its entries (so the count
 * goes first and the entries after it), and nothing takes effect without a
 * commit or a restart. So the previous configuration is kept whole, as a
 * tree, written back in the kernel's order, and committed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "damos/apply.h"
#include "damos/filter.h"
#include "fsutil.h"
#include "msg.h"
#include "procstat.h"
#include "sysroot.h"

#define LOCK_TRIES	40	/* x 50 ms: another writer's commit takes a moment */
#define SETTLE_MS	200	/* a kdamond that dies of a commit is gone by then */

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int damos_lock(void)
{
	char path[128], holder[32] = "";
	int fd;

	fs_mkdir_p(DAMOS_RUN_DIR, 0700);	/* the open below says why, if it failed */
	snprintf(path, sizeof(path), "%s/lock", DAMOS_RUN_DIR);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		err_msg("cannot create the lock %s: %s", path, strerror(errno));
		return -errno;
	}
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		if (errno != EWOULDBLOCK || tries == LOCK_TRIES) {
			int err = errno;
			ssize_t n = pread(fd, holder, sizeof(holder) - 1, 0);

			holder[n > 0 ? n : 0] = '\0';
			holder[strcspn(holder, "\n")] = '\0';
			err_msg("another rtla damos (pid %s) is writing DAMON: try again when it is done",
				*holder ? holder : "?");
			close(fd);
			return -err;
		}
		sleep_ms(50);
	}
	if (ftruncate(fd, 0) == 0)
		dprintf(fd, "%d\n", getpid());
	return fd;	/* held until exit */
}

/* ---- validation ---- */

static bool pid_alive(int64_t pid)
{
	struct procstat st;

	if (pid <= 0 || pid > INT_MAX)
		return false;
	return !procstat_read(pid, &st) && st.state != 'Z' && st.state != 'X';
}

static int check_memcg(const char *path, char *err, size_t len, const char *where)
{
	char root[4096], dir[8192], file[8300];
	struct stat st;

	if (path[0] != '/') {
		snprintf(err, len, "%s: memcg path '%s' must start with / (from the cgroup2 root)",
			 where, path);
		return -EINVAL;
	}
	if (sysroot_cgroup2_mount(root, sizeof(root))) {
		snprintf(err, len, "%s: memcg %s: cgroup2 is not mounted", where, path);
		return -EINVAL;
	}
	snprintf(dir, sizeof(dir), "%s%s", root, strcmp(path, "/") ? path : "");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, len, "%s: memcg %s: no such cgroup under %s", where, path, root);
		return -EINVAL;
	}
	/* a cgroup has a memcg only where the memory controller is enabled */
	snprintf(file, sizeof(file), "%s/%s", dir, strcmp(path, "/") ? "memory.current" : "memory.stat");
	if (access(file, F_OK)) {
		snprintf(err, len, "%s: memcg %s: the memory controller is not enabled for it "
			 "(no %s)", where, path, file);
		return -EINVAL;
	}
	return 0;
}

static int check_filter(const struct dnode *f, const char *dirname, int version, size_t ntargets,
			char *err, size_t len, const char *where)
{
	const char *type = dtree_val(f, "type");
	uint64_t a = 0, b = 0;

	if (!type || !filter_type_find(type) || !damos_type_known(type, version)) {
		snprintf(err, len, "%s: filter type '%s' is not offered by this kernel", where,
			 type ? type : "?");
		return -EINVAL;
	}
	if (!damos_type_allowed_in(type, dirname)) {
		snprintf(err, len, "%s: a %s filter cannot go in %s", where, type, dirname);
		return -EINVAL;
	}
	if (!strcmp(type, "addr")) {
		if (dtree_u64(f, "addr_start", &a) || dtree_u64(f, "addr_end", &b) || a >= b) {
			snprintf(err, len, "%s: addr range 0x%" PRIx64 "-0x%" PRIx64
				 " is empty or reversed", where, a, b);
			return -EINVAL;
		}
	} else if (!strcmp(type, "memcg")) {
		return check_memcg(dtree_val(f, "memcg_path") ?: "", err, len, where);
	} else if (!strcmp(type, "target")) {
		if (dtree_u64(f, "damon_target_idx", &a) || a >= ntargets) {
			snprintf(err, len, "%s: target index %" PRIu64 " is out of range (%zu target%s)",
				 where, a, ntargets, ntargets == 1 ? "" : "s");
			return -EINVAL;
		}
	} else if (!strcmp(type, "hugepage_size")) {
		if (dtree_u64(f, "min", &a) || dtree_u64(f, "max", &b) || a > b) {
			snprintf(err, len, "%s: hugepage_size min %" PRIu64 " is above max %" PRIu64,
				 where, a, b);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_targets(const struct dnode *c, const char *ops, char *err, size_t len)
{
	const struct dnode *targets = dtree_get(c, "targets");
	size_t n = dnode_count(targets);
	bool virt = strcmp(ops, "paddr");

	if (virt && !n) {
		snprintf(err, len, "%s needs a target process: nr_targets is 0", ops);
		return -EINVAL;
	}
	if (!virt && n > 1) {
		snprintf(err, len, "paddr takes one target at most: nr_targets is %zu", n);
		return -EINVAL;
	}
	for (size_t t = 0; t < n; t++) {
		const struct dnode *tg = dnode_index(targets, t), *regions = dtree_get(tg, "regions");
		uint64_t last_end = 0;
		int64_t pid = 0;

		if (virt && (dtree_s64(tg, "pid_target", &pid) || !pid_alive(pid))) {
			snprintf(err, len, "target %zu: pid %" PRId64 " is not a running process", t, pid);
			return -EINVAL;
		}
		for (size_t r = 0; r < dnode_count(regions); r++) {
			const struct dnode *rg = dnode_index(regions, r);
			uint64_t start, end;

			if (dtree_u64(rg, "start", &start) || dtree_u64(rg, "end", &end) ||
			    start >= end || (r && start < last_end)) {
				snprintf(err, len, "target %zu: region %zu is empty, reversed, or "
					 "overlaps the one before", t, r);
				return -EINVAL;
			}
			last_end = end;
		}
	}
	return 0;
}

/* Is WORD one of the lines of TEXT? */
static bool line_in(const char *text, const char *word)
{
	size_t len = strlen(word);

	for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, word, len) && (p[len] == '\n' || !p[len]))
			return true;
	return false;
}

int damos_validate(const struct dnode *kd, int version, char *err, size_t len)
{
	const struct dnode *contexts = dtree_get(kd, "contexts"), *c, *schemes;
	const char *ops, *avail;
	int ret;

	if (dnode_count(contexts) != 1) {
		snprintf(err, len, "a kdamond runs exactly one context: nr_contexts is %zu",
			 dnode_count(contexts));
		return -EINVAL;
	}
	c = dnode_index(contexts, 0);
	ops = dtree_val(c, "operations");
	avail = dtree_val(c, "avail_operations");
	if (!ops || (avail && !line_in(avail, ops))) {
		char list[256];

		snprintf(list, sizeof(list), "%s", avail ? avail : "?");
		for (char *p = list; (p = strchr(p, '\n')); )
			*p = ',';
		snprintf(err, len, "operations '%s' are not offered by this kernel (%s)",
			 ops ? ops : "?", list);
		return -EINVAL;
	}
	ret = check_targets(c, ops, err, len);
	if (ret)
		return ret;
	schemes = dtree_get(c, "schemes");
	for (size_t s = 0; s < dnode_count(schemes); s++) {
		const struct dnode *scheme = dnode_index(schemes, s);

		for (size_t d = 0; d < scheme->nkids; d++) {
			const struct dnode *dir = scheme->kids[d];

			if (!dir->dir || !filter_dir_name(dir->name))
				continue;
			for (size_t i = 0; i < dnode_count(dir); i++) {
				char where[96];

				snprintf(where, sizeof(where), "scheme %zu %s/%zu", s, dir->name, i);
				ret = check_filter(dnode_index(dir, i), dir->name, version,
						   dnode_count(dtree_get(c, "targets")), err, len, where);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* ---- the record of the previous configuration ---- */

static void record_lines(FILE *f, const struct dnode *n, const struct dnode *top)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n->nkids; i++) {
		const struct dnode *k = n->kids[i];

		if (k->dir) {
			if (strcmp(k->name, "stats") && strcmp(k->name, "tried_regions"))
				record_lines(f, k, top);
			continue;
		}
		if (!k->writable)
			continue;
		fprintf(f, "%s\t", dnode_path(k, top, path, sizeof(path)));
		for (const char *p = k->value; *p; p++)
			fputs(*p == '\n' ? "\\n" : *p == '\\' ? "\\\\" : (char[2]){ *p, 0 }, f);
		fputc('\n', f);
	}
}

/*
 * The previous configuration, kept on disk while it is being replaced: if
 * rtla is killed between write and check, what to put back is not lost.
 */
static void record_save(int index, pid_t kdamond_pid, const struct dnode *prev, bool staged,
			char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/kdamond-%d.prev", DAMOS_RUN_DIR, index);
	f = fopen(path, "we");
	if (!f) {
		warn_msg("cannot record the previous configuration in %s: %s", path, strerror(errno));
		path[0] = '\0';
		return;
	}
	/* "changing": rtla is writing; "staged": it wrote files that wait for a commit */
	fprintf(f, "# kdamond %d pid %d rtla %d %s: the configuration it ran before\n",
		index, kdamond_pid, getpid(), staged ? "staged" : "changing");
	record_lines(f, prev, prev);
	if (fclose(f))
		warn_msg("cannot record the previous configuration in %s: %s", path, strerror(errno));
}

void damos_record_drop(int index)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/kdamond-%d.prev", DAMOS_RUN_DIR, index);
	unlink(path);
}

/* "a/b/c" VALUE: the file under TOP, its dirs made on the way */
static int record_put(struct dnode *top, char *path, const char *value)
{
	struct dnode *dir = top;
	char *slash;

	while ((slash = strchr(path, '/'))) {
		*slash = '\0';
		dir = dnode_add_dir(dir, path);
		if (!dir)
			return -EINVAL;
		path = slash + 1;
	}
	return dnode_set(dir, path, value, true) ? 0 : -ENOMEM;
}

struct dnode *damos_record_load(int index, pid_t pid, pid_t *died)
{
	char path[256], line[8192], value[8192], name[16], how[16] = "";
	struct dnode *top = NULL;
	int rpid = 0, rindex = -1, writer = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kdamond-%d.prev", DAMOS_RUN_DIR, index);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (died)
		*died = 0;
	if (!fgets(line, sizeof(line), f) ||
	    sscanf(line, "# kdamond %d pid %d rtla %d %15[a-z]", &rindex, &rpid, &writer, how) != 4 ||
	    rindex != index || rpid != pid)
		goto out;
	/* a run that was changing it and is gone died between its writes and its check */
	if (died && !strcmp(how, "changing") && writer != getpid() && kill(writer, 0) && errno == ESRCH)
		*died = writer;
	snprintf(name, sizeof(name), "%d", index);
	{
		struct dnode holder = { .dir = true };

		top = dnode_add_dir(&holder, name);
		if (!top)
			goto out;
		top->parent = NULL;
		free(holder.kids);
	}
	while (fgets(line, sizeof(line), f)) {
		char *tab = strchr(line, '\t'), *v = value;

		if (!tab)
			continue;
		*tab = '\0';
		for (char *p = tab + 1; *p && *p != '\n' && v < value + sizeof(value) - 1; p++) {
			if (*p == '\\' && p[1] == 'n')
				*v++ = '\n', p++;
			else if (*p == '\\' && p[1] == '\\')
				*v++ = '\\', p++;
			else
				*v++ = *p;
		}
		*v = '\0';
		if (record_put(top, line, value)) {
			dtree_free(top);
			top = NULL;
			break;
		}
	}
out:
	fclose(f);
	return top;
}

/* ---- write, commit, check ---- */

int damos_state_write(int index, const char *cmd)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%d/state", DAMON_KDAMONDS, index);
	return sysroot_write(path, cmd);
}

static int read_kdamond(int index, struct dnode **out)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%d", DAMON_KDAMONDS, index);
	return dtree_read(path, out);
}

/* The kdamond's thread, or -1 when it does not run. */
static pid_t running_pid(int index)
{
	char state[16];
	long long pid;

	if (sysroot_readf(state, sizeof(state), DAMON_KDAMONDS "/%d/state", index) < 0 ||
	    strcmp(state, "on"))
		return -1;
	if (sysroot_readf_ll(&pid, DAMON_KDAMONDS "/%d/pid", index) || pid <= 0)
		return -1;
	return pid;
}

/*
 * Is kdamond INDEX running (with thread WANT_PID, if > 0) and holding every
 * value of WANT? The reason it is not goes to err.
 */
static int check_running(int index, pid_t want_pid, const struct dnode *want, pid_t *pid,
			 char *err, size_t len)
{
	const struct dnode *diff;
	struct dnode *got = NULL;
	const char *got_value = NULL;
	char path[PATH_MAX];
	int ret;

	sleep_ms(SETTLE_MS);
	*pid = running_pid(index);
	if (*pid < 0) {
		snprintf(err, len, "kdamond %d stopped (state off)", index);
		return -ESRCH;
	}
	if (want_pid > 0 && *pid != want_pid) {
		snprintf(err, len, "kdamond %d runs another thread now (pid %d, was %d)", index,
			 *pid, want_pid);
		return -ESRCH;
	}
	ret = read_kdamond(index, &got);
	if (ret) {
		snprintf(err, len, "kdamond %d cannot be read back: %s", index, strerror(-ret));
		return ret;
	}
	diff = dtree_first_diff(want, got, &got_value);
	if (diff) {
		snprintf(err, len, "%s reads '%s', not '%s'", dnode_path(diff, want, path, sizeof(path)),
			 got_value ? got_value : "(missing)", diff->value);
		ret = -EIO;
	}
	dtree_free(got);
	return ret;
}

/* Run the test hook RTLA_DAMOS_BEFORE_COMMIT (a shell command), if set. */
static void before_commit_hook(void)
{
	const char *cmd = getenv("RTLA_DAMOS_BEFORE_COMMIT");

	if (cmd && *cmd && system(cmd) != 0)
		warn_msg("RTLA_DAMOS_BEFORE_COMMIT failed: %s", cmd);
}

/* Put PREV back after a failed change; says what it did. 0 if the kdamond runs PREV again. */
static int rollback(int index, const struct dnode *prev, bool was_running, pid_t *pid)
{
	char path[128], failed[PATH_MAX + 64] = "", err[DAMOS_ERR_MAX];
	struct dnode *cur = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/%d", DAMON_KDAMONDS, index);
	ret = read_kdamond(index, &cur);
	if (!ret)
		ret = dtree_write_changes(prev, cur, path, failed, sizeof(failed));
	dtree_free(cur);
	if (ret) {
		err_msg("rollback: writing the previous configuration failed: %s: %s", failed,
			strerror(-ret));
		return ret;
	}
	if (!was_running) {
		info_msg("rollback: the previous configuration is written back; kdamond %d stays off",
			 index);
		return 0;
	}
	ret = damos_state_write(index, running_pid(index) > 0 ? "commit" : "on");
	if (ret) {
		err_msg("rollback: the previous configuration is written back, but kdamond %d does "
			"not start again: %s", index, strerror(-ret));
		return ret;
	}
	ret = check_running(index, 0, prev, pid, err, sizeof(err));
	if (ret) {
		err_msg("rollback: %s", err);
		return ret;
	}
	info_msg("rollback: kdamond %d runs the previous configuration again (pid %d)", index, *pid);
	return 0;
}

int damos_apply(int index, const struct dnode *prev, const struct dnode *now,
		const struct dnode *desired, enum damos_apply_mode mode, pid_t *pid)
{
	char path[128], record[256], failed[PATH_MAX + 64] = "", err[DAMOS_ERR_MAX];
	pid_t before = mode == DAMOS_APPLY_START ? 0 : running_pid(index);
	sigset_t block, old;
	int ret, rb;

	*pid = before;
	if (mode != DAMOS_APPLY_START && before < 0) {
		err_msg("kdamond %d is not running: nothing to commit to", index);
		return -ESRCH;
	}
	record_save(index, before, prev, mode == DAMOS_APPLY_STAGE, record, sizeof(record));
	/* only SIGKILL may stop a run between the first write and the check */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGQUIT);
	sigprocmask(SIG_BLOCK, &block, &old);

	snprintf(path, sizeof(path), "%s/%d", DAMON_KDAMONDS, index);
	ret = dtree_write_changes(desired, mode == DAMOS_APPLY_START ? NULL : now, path, failed,
				  sizeof(failed));
	if (ret) {
		err_msg("writing %s failed: %s", failed, strerror(-ret));
		goto rollback;
	}
	if (mode == DAMOS_APPLY_STAGE) {
		/* the record stays: it is what the kdamond runs until the commit */
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	before_commit_hook();
	ret = damos_state_write(index, mode == DAMOS_APPLY_START ? "on" : "commit");
	if (ret) {
		err_msg("%s of kdamond %d failed: %s%s", mode == DAMOS_APPLY_START ? "on" : "commit",
			index, strerror(-ret),
			ret == -ENOMEM ? " (the kernel reports any invalid scheme as ENOMEM)" : "");
		goto rollback;
	}
	ret = check_running(index, before, desired, pid, err, sizeof(err));
	if (ret) {
		err_msg("%s of kdamond %d was taken, but %s", mode == DAMOS_APPLY_START ? "on" : "commit",
			index, err);
		goto rollback;
	}

	sigprocmask(SIG_SETMASK, &old, NULL);
	if (*record)
		unlink(record);
	return 0;

rollback:
	if (mode == DAMOS_APPLY_START && running_pid(index) > 0)
		damos_state_write(index, "off");
	rb = rollback(index, prev, mode != DAMOS_APPLY_START, pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!rb && *record)
		unlink(record);
	else if (*record)
		err_msg("the previous configuration is kept in %s", record);
	return ret;
}

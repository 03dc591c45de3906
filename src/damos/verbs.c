// SPDX-License-Identifier: GPL-2.0-only
/*
 * verbs - start, stop, filter add|rm|set, commit: each builds the
 * configuration it wants as a copy of the tree it read, and hands both to
 * damos_apply() (apply.c), which alone writes.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "damos/apply.h"
#include "damos/verbs.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"

static const char *const actions[] = {
	"willneed", "cold", "pageout", "hugepage", "nohugepage", "lru_prio", "lru_deprio",
	"migrate_hot", "migrate_cold", "stat", NULL
};

static struct dnode *kdamond_read(int index)
{
	struct dnode *k = NULL;
	char path[128];
	int ret;

	snprintf(path, sizeof(path), "%s/%d", DAMON_KDAMONDS, index);
	ret = dtree_read(path, &k);
	if (ret)
		err_msg("reading %s: %s", path, strerror(-ret));
	return k;
}

static int write_nr_kdamonds(size_t n)
{
	char val[32];
	int ret;

	snprintf(val, sizeof(val), "%zu", n);
	ret = sysroot_write(DAMON_KDAMONDS "/nr_kdamonds", val);
	if (ret)
		err_msg("writing %s/nr_kdamonds %zu: %s%s", DAMON_KDAMONDS, n, strerror(-ret),
			ret == -EBUSY ? " (a kdamond runs: the kernel resizes only when none does)" : "");
	return ret;
}

/* ---- start ---- */

static bool set_num(struct dnode *dir, const char *path, unsigned long long v)
{
	char val[32];
	const char *slash;

	snprintf(val, sizeof(val), "%llu", v);
	while ((slash = strchr(path, '/'))) {
		char name[64];

		snprintf(name, sizeof(name), "%.*s", (int)(slash - path), path);
		dir = dnode_add_dir(dir, name);
		if (!dir)
			return false;
		path = slash + 1;
	}
	return dnode_set(dir, path, val, true) != NULL;
}

static bool set_range(struct dnode *ap, const char *name, const struct damos_range *r,
		      unsigned long long max)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/min", name);
	if (!set_num(ap, path, r->set ? (unsigned long long)r->min : 0))
		return false;
	snprintf(path, sizeof(path), "%s/max", name);
	return set_num(ap, path, r->set && r->max >= 0 ? (unsigned long long)r->max : max);
}

/* The kdamond START asks for, as the tree its files will hold. */
static struct dnode *start_config(const struct damos_opts *o, int index, int version, char *err)
{
	struct dnode holder = { .dir = true }, *k, *c, *s, *ap;
	char name[16];
	int counts[3] = { 0 };
	static const char *const dirs[] = { "filters", "core_filters", "ops_filters" };

	snprintf(name, sizeof(name), "%d", index);
	k = dnode_add_dir(&holder, name);
	free(holder.kids);
	if (!k)
		return NULL;
	k->parent = NULL;
	c = dnode_add_dir(dnode_add_dir(k, "contexts") ?: k, "0");
	if (!c || !dnode_set(dtree_get(k, "contexts"), "nr_contexts", "1", true) ||
	    !dnode_set(c, "operations", o->paddr ? "paddr" : "vaddr", true) ||
	    !set_num(c, "targets/nr_targets", 1) ||
	    !set_num(c, "targets/0/pid_target", o->paddr ? 0 : o->pid) ||
	    !set_num(c, "schemes/nr_schemes", 1))
		goto nomem;
	if ((o->sample_us >= 0 && !set_num(c, "monitoring_attrs/intervals/sample_us", o->sample_us)) ||
	    (o->aggr_us >= 0 && !set_num(c, "monitoring_attrs/intervals/aggr_us", o->aggr_us)))
		goto nomem;
	s = dnode_add_dir(dtree_get(c, "schemes"), "0");
	if (!s || !dnode_set(s, "action", o->action ? o->action : "stat", true))
		goto nomem;
	ap = dnode_add_dir(s, "access_pattern");
	if (!ap || !set_range(ap, "sz", &o->sz, ULONG_MAX) ||
	    !set_range(ap, "nr_accesses", &o->nr_accesses, UINT_MAX) ||
	    !set_range(ap, "age", &o->age, UINT_MAX))
		goto nomem;
	if ((o->quota_ms >= 0 && !set_num(s, "quotas/ms", o->quota_ms)) ||
	    (o->quota_bytes >= 0 && !set_num(s, "quotas/bytes", o->quota_bytes)) ||
	    (o->quota_reset_ms >= 0 && !set_num(s, "quotas/reset_interval_ms", o->quota_reset_ms)))
		goto nomem;
	for (int i = 0; i < o->nfilters; i++) {
		const struct filter_spec *f = &o->filters[i];
		int d = version >= 6015 ? (f->type->layer == FILTER_CORE ? 1 : 2) : 0;
		struct dnode *dir = dnode_add_dir(s, dirs[d]), *fd;

		snprintf(name, sizeof(name), "%d", counts[d]++);
		fd = dir ? dnode_add_dir(dir, name) : NULL;
		if (!fd || !set_num(dir, "nr_filters", counts[d]))
			goto nomem;
		if (filter_spec_store(f, fd, NULL, version, err)) {
			dtree_free(k);
			return NULL;
		}
	}
	return k;
nomem:
	snprintf(err, PARSE_ERR_MAX, "out of memory");
	dtree_free(k);
	return NULL;
}

static bool known_action(const char *a)
{
	for (const char *const *p = actions; *p; p++)
		if (!strcmp(*p, a))
			return true;
	return false;
}

/* A kdamond to start: -k N (stopped), or a new one added at the end. */
static int start_slot(const struct dnode *all, const struct damos_opts *o, bool *grown)
{
	size_t n = dnode_count(all);

	*grown = false;
	if (o->kdamond >= 0) {
		int i = damos_pick(all, o, false);

		if (i >= 0 && running_state(dnode_index(all, i))) {
			err_msg("kdamond %d is running: stop it first, or start another", i);
			return -EBUSY;
		}
		return i;
	}
	for (size_t i = 0; i < n; i++) {
		const struct dnode *k = dnode_index(all, i);

		if (running_state(k)) {
			err_msg("cannot add a kdamond while kdamond %zu runs: the kernel resizes "
				"nr_kdamonds only when none does (EBUSY)%s", i,
				damos_owner(k, i, NULL) == DAMOS_MACHINE ? "; it was started with the machine" : "");
			return -EBUSY;
		}
		if (dnode_count(dtree_get(k, "contexts"))) {
			err_msg("kdamond %zu is stopped but configured: adding a kdamond would reset it; "
				"reuse it with --kdamond %zu", i, i);
			return -EBUSY;
		}
	}
	if (write_nr_kdamonds(n + 1))
		return -EIO;
	*grown = true;
	return n;
}

int damos_start(struct damos_opts *o)
{
	struct dnode *all = NULL, *prev = NULL, *want = NULL;
	char err[DAMOS_ERR_MAX] = "";
	int version, index = -1, ret = EXIT_ERROR;
	bool grown = false;
	pid_t pid;

	if (o->nargs) {
		err_msg("unexpected argument: %s", o->args[0]);
		return EXIT_ERROR;
	}
	if ((o->pid > 0) == o->paddr) {
		err_msg("start needs one of --pid PID (a process's virtual memory) and --paddr");
		return EXIT_ERROR;
	}
	if (o->action && !known_action(o->action)) {
		err_msg("--action: unknown action: %s", o->action);
		return EXIT_ERROR;
	}
	if (damos_lock() < 0 || damos_read_all(&all))
		return EXIT_ERROR;
	version = damos_kernel_version();
	for (int i = 0; i < o->nfilters; i++) {
		if (!damos_type_known(o->filters[i].type->name, version)) {
			err_msg("--filter: this kernel does not offer %s filters (Linux %d.%d added them)",
				o->filters[i].type->name, o->filters[i].type->since / 1000,
				o->filters[i].type->since % 1000);
			goto out;
		}
	}
	if (version && version < 6003 && o->nfilters) {
		err_msg("this kernel has no DAMOS filters (Linux 6.3 added them)");
		goto out;
	}
	want = start_config(o, 0, version, err);
	if (!want) {
		err_msg("--filter: %s", err);
		goto out;
	}
	if (damos_validate(want, version, err, sizeof(err))) {
		err_msg("%s; nothing was written", err);
		goto out;
	}
	dtree_free(want);
	want = NULL;
	index = start_slot(all, o, &grown);
	if (index < 0)
		goto out;
	prev = kdamond_read(index);
	want = prev ? start_config(o, index, version, err) : NULL;
	if (!want)
		goto undo;
	damos_record_drop(index);
	if (damos_apply(index, prev, prev, want, DAMOS_APPLY_START, &pid))
		goto undo;
	damos_record_drop(index);
	if (damos_mark(index, pid))
		warn_msg("cannot leave the ownership mark of kdamond %d in %s", index, DAMOS_RUN_DIR);
	printf("kdamond %d started: pid %d, %s", index, pid, o->paddr ? "paddr" : "vaddr");
	if (!o->paddr)
		printf(" of pid %lld", o->pid);
	printf(", scheme 0: %s, %d filter%s\n", o->action ? o->action : "stat", o->nfilters,
	       o->nfilters == 1 ? "" : "s");
	ret = EXIT_PASSED;
	goto out;
undo:
	if (grown && !write_nr_kdamonds(index))
		info_msg("kdamond %d removed again", index);
out:
	dtree_free(want);
	dtree_free(prev);
	dtree_free(all);
	return ret;
}

/* ---- stop ---- */

int damos_stop(struct damos_opts *o)
{
	struct dnode *all = NULL;
	const struct dnode *k;
	struct timespec ms20 = { 0, 20 * 1000 * 1000 };
	bool ours, others_idle = true;
	int index, ret;
	size_t n;

	if (o->nargs) {
		err_msg("unexpected argument: %s", o->args[0]);
		return EXIT_ERROR;
	}
	if (damos_lock() < 0 || damos_read_all(&all))
		return EXIT_ERROR;
	index = damos_pick(all, o, false);
	if (index < 0)
		goto fail;
	k = dnode_index(all, index);
	/* a kdamond of rtla's that stopped by itself (its target exited) keeps its mark */
	ours = damos_owner(k, index, NULL) == DAMOS_OURS || (!running_state(k) && damos_marked(index));
	if (running_state(k)) {
		ret = damos_state_write(index, "off");
		if (ret) {
			err_msg("stopping kdamond %d: %s", index, strerror(-ret));
			goto fail;
		}
		for (int i = 0; i < 100; i++) {
			char state[16];

			if (sysroot_readf(state, sizeof(state), DAMON_KDAMONDS "/%d/state", index) >= 0 &&
			    !strcmp(state, "off"))
				break;
			nanosleep(&ms20, NULL);
		}
	}
	damos_unmark(index);
	damos_record_drop(index);
	n = dnode_count(all);
	for (size_t i = 0; i + 1 < n; i++) {
		const struct dnode *other = dnode_index(all, i);

		if (running_state(other) || dnode_count(dtree_get(other, "contexts")))
			others_idle = false;
	}
	/* removing the last kdamond resets all of them: only when the others hold nothing */
	if (ours && (size_t)index == n - 1 && others_idle && !write_nr_kdamonds(n - 1))
		printf("kdamond %d stopped and removed\n", index);
	else
		printf("kdamond %d stopped\n", index);
	dtree_free(all);
	return EXIT_PASSED;
fail:
	dtree_free(all);
	return EXIT_ERROR;
}

/* ---- filter add|rm|set, commit ---- */

/* "ops_filters/1", "filters/0", or "1" where the kernel has only filters/ */
static struct dnode *filter_by_id(struct dnode *scheme, const char *id, char *err)
{
	char dirname[32];
	const char *slash = strchr(id, '/'), *num = slash ? slash + 1 : id;
	struct dnode *dir;
	long long i;

	if (slash) {
		snprintf(dirname, sizeof(dirname), "%.*s", (int)(slash - id), id);
	} else if (dtree_get(scheme, "ops_filters")) {
		snprintf(err, PARSE_ERR_MAX, "filter %s: name its directory (filters/N, "
			 "core_filters/N, ops_filters/N)", id);
		return NULL;
	} else {
		strcpy(dirname, "filters");
	}
	dir = filter_dir_name(dirname) ? dtree_get(scheme, dirname) : NULL;
	if (!dir || parse_llong(num, 0, INT_MAX, &i, err) || !dnode_index(dir, i)) {
		snprintf(err, PARSE_ERR_MAX, "no such filter: %s (%s holds %zu)", id,
			 dir ? dirname : "the scheme", dnode_count(dir));
		return NULL;
	}
	return dnode_index(dir, i);
}

/* Any filter directory of the tree: the files a filter has in this kernel. */
static const struct dnode *filter_model(const struct dnode *n)
{
	if (n->dir && filter_dir_name(n->name) && dnode_count(n))
		return dnode_index(n, 0);
	for (size_t i = 0; i < n->nkids; i++) {
		const struct dnode *m = n->kids[i]->dir ? filter_model(n->kids[i]) : NULL;

		if (m)
			return m;
	}
	return NULL;
}

/*
 * One edit of a scheme's filters in WANT's SCHEME: O->args are the words after
 * the verb; MODEL a filter of this kernel (its files), or NULL. 0, or -errno
 * with ERR set; WHAT says what was done.
 */
typedef int (*filter_edit_fn)(struct dnode *scheme, const struct damos_opts *o, int version,
			      const struct dnode *model, char *err, char *what, size_t len);

static int edit_add(struct dnode *scheme, const struct damos_opts *o, int version,
		    const struct dnode *model, char *err, char *what, size_t len)
{
	struct filter_spec spec;
	const char *dirname;
	struct dnode *dir, *f;
	char name[16], words[FILTER_SPEC_MAX];
	size_t n;

	if (filter_spec_parse(o->nargs, o->args, &spec, err))
		return -EINVAL;
	if (!damos_type_known(spec.type->name, version)) {
		snprintf(err, PARSE_ERR_MAX, "this kernel does not offer %s filters (Linux %d.%d "
			 "added them)", spec.type->name, spec.type->since / 1000, spec.type->since % 1000);
		return -EINVAL;
	}
	dirname = o->dir ? o->dir : filter_dir_for(scheme, spec.type);
	dir = dtree_get(scheme, dirname);
	if (!dir) {
		snprintf(err, PARSE_ERR_MAX, "this kernel has no %s directory", dirname);
		return -EINVAL;
	}
	if (!damos_type_allowed_in(spec.type->name, dirname)) {
		snprintf(err, PARSE_ERR_MAX, "a %s filter cannot go in %s", spec.type->name, dirname);
		return -EINVAL;
	}
	n = dnode_count(dir);
	snprintf(name, sizeof(name), "%zu", n);
	f = dnode_add_dir(dir, name);
	if (!f || filter_spec_store(&spec, f, model, version, err))
		return -EINVAL;
	snprintf(name, sizeof(name), "%zu", n + 1);
	if (!dnode_set(dir, "nr_filters", name, true))
		return -ENOMEM;
	snprintf(what, len, "added %s/%zu: %s", dirname, n, filter_spec_of(f, words, sizeof(words)));
	return 0;
}

static int edit_rm(struct dnode *scheme, const struct damos_opts *o, int version,
		   const struct dnode *model, char *err, char *what, size_t len)
{
	struct dnode *f, *dir;
	char words[FILTER_SPEC_MAX], num[16], id[64];
	size_t n, i;

	(void)version;
	(void)model;
	if (o->nargs != 1) {
		snprintf(err, PARSE_ERR_MAX, "filter rm takes one filter ID (e.g. ops_filters/0)");
		return -EINVAL;
	}
	f = filter_by_id(scheme, o->args[0], err);
	if (!f)
		return -EINVAL;
	dir = f->parent;
	snprintf(id, sizeof(id), "%s/%s", dir->name, f->name);
	snprintf(what, len, "removed %s: %s", id, filter_spec_of(f, words, sizeof(words)));
	n = dnode_count(dir);
	i = strtoul(f->name, NULL, 10);
	dnode_remove(dir, f->name);
	/* the ones after it move up: the kernel numbers filters 0..nr-1 */
	for (size_t j = i; j + 1 < n; j++) {
		struct dnode *next = dnode_index(dir, j);

		snprintf(num, sizeof(num), "%zu", j);
		free(next->name);
		next->name = strdup(num);
		if (!next->name)
			return -ENOMEM;
	}
	snprintf(num, sizeof(num), "%zu", n - 1);
	return dnode_set(dir, "nr_filters", num, true) ? 0 : -ENOMEM;
}

static int edit_set(struct dnode *scheme, const struct damos_opts *o, int version,
		    const struct dnode *model, char *err, char *what, size_t len)
{
	struct filter_spec spec;
	char words[FILTER_SPEC_MAX];
	struct dnode *f;

	if (o->nargs < 2) {
		snprintf(err, PARSE_ERR_MAX, "filter set takes a filter ID and the filter's words");
		return -EINVAL;
	}
	f = filter_by_id(scheme, o->args[0], err);
	if (!f || filter_spec_parse(o->nargs - 1, o->args + 1, &spec, err))
		return -EINVAL;
	if (!damos_type_known(spec.type->name, version) ||
	    !damos_type_allowed_in(spec.type->name, f->parent->name)) {
		snprintf(err, PARSE_ERR_MAX, "a %s filter cannot go in %s on this kernel",
			 spec.type->name, f->parent->name);
		return -EINVAL;
	}
	if (filter_spec_store(&spec, f, model ? model : f, version, err))
		return -EINVAL;
	snprintf(what, len, "set %s/%s: %s", f->parent->name, f->name,
		 filter_spec_of(f, words, sizeof(words)));
	return 0;
}

/*
 * A run that died between its writes and its check left files the kdamond
 * does not run: put back what the record says it ran, before anything else.
 */
static int reclaim_died(int index, struct dnode **now)
{
	char path[128], failed[PATH_MAX + 64] = "";
	int64_t pid = -1;
	pid_t died;
	struct dnode *prev;
	int ret;

	dtree_s64(*now, "pid", &pid);
	prev = damos_record_load(index, pid, &died);
	if (!prev || !died) {
		dtree_free(prev);
		return 0;
	}
	warn_msg("rtla damos (pid %d) died while changing kdamond %d: its files are put back "
		 "to what the kdamond ran before", died, index);
	snprintf(path, sizeof(path), "%s/%d", DAMON_KDAMONDS, index);
	ret = dtree_write_changes(prev, *now, path, failed, sizeof(failed));
	dtree_free(prev);
	if (ret) {
		err_msg("writing %s failed: %s", failed, strerror(-ret));
		return ret;
	}
	damos_record_drop(index);
	dtree_free(*now);
	*now = kdamond_read(index);
	return *now ? 0 : -EIO;
}

/* Lock, read, pick a running kdamond rtla may write; its tree in *now. */
static int begin_edit(const struct damos_opts *o, struct dnode **now, int *version)
{
	struct dnode *all = NULL;
	int index;

	if (damos_lock() < 0 || damos_read_all(&all))
		return -1;
	index = damos_pick(all, o, true);
	dtree_free(all);
	if (index < 0)
		return -1;
	*now = kdamond_read(index);
	*version = damos_kernel_version();
	if (*now && reclaim_died(index, now))
		return -1;
	return *now ? index : -1;
}

/* filter add|rm|set: EDIT on a copy of the kdamond's tree, validated, then applied */
static int filter_edit(struct damos_opts *o, filter_edit_fn edit)
{
	struct dnode *now = NULL, *want = NULL, *prev = NULL, *scheme;
	char err[DAMOS_ERR_MAX] = "", what[FILTER_SPEC_MAX + 64] = "", path[64];
	int index, version, ret = -EINVAL;
	int64_t pid = -1;
	pid_t newpid;
	bool ours;

	index = begin_edit(o, &now, &version);
	if (index < 0)
		goto out;
	snprintf(path, sizeof(path), "contexts/0/schemes/%d", o->scheme);
	want = dtree_clone(now);
	scheme = want ? dtree_get(want, path) : NULL;
	if (!scheme) {
		err_msg("kdamond %d has no scheme %d (nr_schemes %zu)", index, o->scheme,
			dnode_count(dtree_get(now, "contexts/0/schemes")));
		goto out;
	}
	if (!dtree_get(scheme, "filters") && !dtree_get(scheme, "ops_filters")) {
		err_msg("this kernel has no DAMOS filters (Linux 6.3 added them)");
		goto out;
	}
	ret = edit(scheme, o, version, filter_model(now), err, what, sizeof(what));
	if (ret) {
		err_msg("%s; nothing was written", err);
		goto out;
	}
	if (damos_validate(want, version, err, sizeof(err))) {
		err_msg("%s; nothing was written", err);
		ret = -EINVAL;
		goto out;
	}
	dtree_s64(now, "pid", &pid);
	ours = damos_owner(now, index, NULL) == DAMOS_OURS;
	prev = damos_record_load(index, pid, NULL);
	ret = damos_apply(index, prev ? prev : now, now, want,
			  o->no_commit ? DAMOS_APPLY_STAGE : DAMOS_APPLY_COMMIT, &newpid);
	if (!ret) {
		printf("kdamond %d scheme %d: %s; %s\n", index, o->scheme, what,
		       o->no_commit ? "written, not committed ('rtla damos commit' applies it)"
				    : "committed");
	} else if (ours && newpid > 0 && newpid != pid) {
		damos_mark(index, newpid);	/* restarted by the rollback: still ours */
	}
out:
	dtree_free(prev);
	dtree_free(want);
	dtree_free(now);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

int damos_filter_add(struct damos_opts *o)
{
	return filter_edit(o, edit_add);
}

int damos_filter_rm(struct damos_opts *o)
{
	return filter_edit(o, edit_rm);
}

int damos_filter_set(struct damos_opts *o)
{
	return filter_edit(o, edit_set);
}

int damos_commit(struct damos_opts *o)
{
	struct dnode *now = NULL, *prev = NULL;
	char err[DAMOS_ERR_MAX] = "";
	int index, version, ret = -EINVAL;
	int64_t pid = -1;
	pid_t newpid;
	bool ours;

	if (o->nargs) {
		err_msg("unexpected argument: %s", o->args[0]);
		return EXIT_ERROR;
	}
	index = begin_edit(o, &now, &version);
	if (index < 0)
		goto out;
	ours = damos_owner(now, index, NULL) == DAMOS_OURS;
	if (damos_validate(now, version, err, sizeof(err))) {
		err_msg("the files of kdamond %d do not make a valid configuration: %s; "
			"nothing was committed", index, err);
		goto out;
	}
	dtree_s64(now, "pid", &pid);
	/* without a record of what ran before, a failed commit goes back to the files as they are */
	prev = damos_record_load(index, pid, NULL);
	ret = damos_apply(index, prev ? prev : now, now, now, DAMOS_APPLY_COMMIT, &newpid);
	if (!ret)
		printf("kdamond %d: committed (pid %d)\n", index, newpid);
	else if (ours && newpid > 0 && newpid != pid)
		damos_mark(index, newpid);
out:
	dtree_free(prev);
	dtree_free(now);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

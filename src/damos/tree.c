// SPDX-License-Identifier: GPL-2.0-only
/*
 * tree - DAMON's sysfs directory read whole, compared and written back.
 *
 * Nothing here knows what a scheme is: the kernel adds files in every
 * release, and a generic tree keeps all of them (a rollback writes back
 * files this code has never heard of, exactly as they were).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "damos/damos.h"
#include "parse.h"
#include "sysroot.h"

#define BUSY_TRIES	50	/* x 10 ms: DAMON's sysfs lock is taken with trylock */

static const struct timespec ten_ms = { 0, 10 * 1000 * 1000 };

bool dnode_is_index(const struct dnode *n)
{
	const char *p = n->name;

	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/*
 * The order the kernel's documentation describes things in (the interval
 * before the one it aggregates, min before max, the action before what
 * selects memory for it); names not listed follow, alphabetically.
 */
static const char *const name_order[] = {
	"state", "pid", "operations", "avail_operations", "monitoring_attrs", "intervals",
	"sample_us", "aggr_us", "update_us", "intervals_goal", "access_bp", "aggrs",
	"min_sample_us", "max_sample_us", "nr_regions", "targets", "pid_target", "schemes",
	"action", "access_pattern", "start", "end", "sz", "nr_accesses", "age", "type", "matching",
	"allow", "memcg_path", "addr_start", "addr_end", "damon_target_idx", "min", "max",
	"apply_interval_us", "target_nid", "quotas", "ms", "bytes", "reset_interval_ms",
	"effective_bytes", "weights", "sz_permil", "nr_accesses_permil", "age_permil", "goals",
	"watermarks", "metric", "interval_us", "high", "mid", "low", "filters", "core_filters",
	"ops_filters", "dests", "stats", "nr_tried", "sz_tried", "nr_applied", "sz_applied",
	"sz_ops_filter_passed", "qt_exceeds", "tried_regions", "total_bytes", NULL
};

static int name_rank(const char *name)
{
	int i;

	for (i = 0; name_order[i]; i++)
		if (!strcmp(name_order[i], name))
			return i;
	return i;
}

/* numbered entries first, in numeric order, then the others by name_order */
static int kid_cmp(const void *a, const void *b)
{
	const struct dnode *x = *(struct dnode *const *)a, *y = *(struct dnode *const *)b;
	bool xi = dnode_is_index(x), yi = dnode_is_index(y);
	int rx, ry;

	if (xi && yi)
		return strtoull(x->name, NULL, 10) < strtoull(y->name, NULL, 10) ? -1 :
		       strtoull(x->name, NULL, 10) > strtoull(y->name, NULL, 10);
	if (xi != yi)
		return xi ? -1 : 1;
	rx = name_rank(x->name);
	ry = name_rank(y->name);
	return rx != ry ? rx - ry : strcmp(x->name, y->name);
}

bool dnode_is_count(const struct dnode *f)
{
	size_t dl, nl;

	if (f->dir || strncmp(f->name, "nr_", 3) || !f->parent || !f->parent->name)
		return false;
	/* nr_filters in filters/, core_filters/, ops_filters/; nr_schemes in schemes/ */
	dl = strlen(f->parent->name);
	nl = strlen(f->name + 3);
	return dl >= nl && !strcmp(f->parent->name + dl - nl, f->name + 3);
}

static struct dnode *node_new(const char *name, bool dir)
{
	struct dnode *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->name = strdup(name);
	n->dir = dir;
	if (!n->name) {
		free(n);
		return NULL;
	}
	return n;
}

static int add_kid(struct dnode *dir, struct dnode *kid)
{
	struct dnode **k = realloc(dir->kids, (dir->nkids + 1) * sizeof(*k));

	if (!k)
		return -ENOMEM;
	dir->kids = k;
	dir->kids[dir->nkids++] = kid;
	kid->parent = dir;
	return 0;
}

void dtree_free(struct dnode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nkids; i++)
		dtree_free(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n->value);
	free(n);
}

/* A file's text; EBUSY (DAMON's lock held a moment by another reader) is retried. */
static int read_value(const char *path, char **out)
{
	char buf[8192];
	int ret;

	for (int tries = 0;; tries++) {
		ret = sysroot_read(path, buf, sizeof(buf));
		if (ret != -EBUSY || tries == BUSY_TRIES)
			break;
		nanosleep(&ten_ms, NULL);
	}
	if (ret < 0)
		return ret;
	*out = strdup(buf);
	return *out ? 0 : -ENOMEM;
}

static int read_dir(const char *path, struct dnode *dir, int depth)
{
	char sub[PATH_MAX], host[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (depth > 16)
		return -ELOOP;
	d = sysroot_opendir(path);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		struct dnode *kid;

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name) >= (int)sizeof(sub)) {
			ret = -ENAMETOOLONG;
			break;
		}
		if (lstat(sysroot_path(sub, host, sizeof(host)), &st))
			continue;	/* gone while we looked: the kernel resized the dir */
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
			continue;
		kid = node_new(de->d_name, S_ISDIR(st.st_mode));
		if (!kid || add_kid(dir, kid)) {
			dtree_free(kid);
			ret = -ENOMEM;
			break;
		}
		if (kid->dir) {
			ret = read_dir(sub, kid, depth + 1);
			continue;
		}
		kid->writable = st.st_mode & S_IWUSR;
		ret = read_value(sub, &kid->value);
		if (ret == -EACCES || ret == -EPERM) {
			break;		/* not root: nothing of DAMON can be read */
		} else if (ret) {
			kid->unreadable = true;
			kid->value = strdup("");
			ret = kid->value ? 0 : -ENOMEM;
		}
	}
	closedir(d);
	if (!ret)
		qsort(dir->kids, dir->nkids, sizeof(*dir->kids), kid_cmp);
	return ret;
}

int dtree_read(const char *path, struct dnode **out)
{
	const char *base = strrchr(path, '/');
	struct dnode *root = node_new(base ? base + 1 : path, true);
	int ret;

	if (!root)
		return -ENOMEM;
	ret = read_dir(path, root, 0);
	if (ret) {
		dtree_free(root);
		return ret;
	}
	*out = root;
	return 0;
}

struct dnode *dtree_clone(const struct dnode *n)
{
	struct dnode *c = node_new(n->name, n->dir);

	if (!c)
		return NULL;
	c->writable = n->writable;
	c->unreadable = n->unreadable;
	if (n->value && !(c->value = strdup(n->value)))
		goto fail;
	for (size_t i = 0; i < n->nkids; i++) {
		struct dnode *k = dtree_clone(n->kids[i]);

		if (!k || add_kid(c, k)) {
			dtree_free(k);
			goto fail;
		}
	}
	return c;
fail:
	dtree_free(c);
	return NULL;
}

static struct dnode *kid_named(const struct dnode *dir, const char *name, size_t len)
{
	for (size_t i = 0; i < dir->nkids; i++)
		if (strlen(dir->kids[i]->name) == len && !strncmp(dir->kids[i]->name, name, len))
			return dir->kids[i];
	return NULL;
}

struct dnode *dtree_get(const struct dnode *n, const char *path)
{
	while (n && *path) {
		size_t len = strcspn(path, "/");

		n = kid_named(n, path, len);
		path += len;
		path += *path == '/';
	}
	return (struct dnode *)n;
}

const char *dtree_val(const struct dnode *n, const char *path)
{
	n = dtree_get(n, path);
	return n && !n->dir && !n->unreadable ? n->value : NULL;
}

int dtree_u64(const struct dnode *n, const char *path, uint64_t *val)
{
	const char *v = dtree_val(n, path);
	char *end;

	if (!v || !*v || *v == '-')
		return -EINVAL;
	errno = 0;
	*val = strtoull(v, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

int dtree_s64(const struct dnode *n, const char *path, int64_t *val)
{
	const char *v = dtree_val(n, path);
	char *end;

	if (!v || !*v)
		return -EINVAL;
	errno = 0;
	*val = strtoll(v, &end, 10);
	return errno || *end ? -EINVAL : 0;
}

size_t dnode_count(const struct dnode *dir)
{
	size_t n = 0;

	while (dir && n < dir->nkids && dnode_is_index(dir->kids[n]))
		n++;
	return n;
}

struct dnode *dnode_index(const struct dnode *dir, size_t i)
{
	return i < dnode_count(dir) ? dir->kids[i] : NULL;
}

struct dnode *dnode_add_dir(struct dnode *dir, const char *name)
{
	struct dnode *k = kid_named(dir, name, strlen(name));

	if (k)
		return k->dir ? k : NULL;
	k = node_new(name, true);
	if (!k || add_kid(dir, k)) {
		dtree_free(k);
		return NULL;
	}
	qsort(dir->kids, dir->nkids, sizeof(*dir->kids), kid_cmp);
	return k;
}

struct dnode *dnode_set(struct dnode *dir, const char *name, const char *value, bool writable)
{
	struct dnode *k = kid_named(dir, name, strlen(name));
	char *v = strdup(value);

	if (!v || (k && k->dir)) {
		free(v);
		return NULL;
	}
	if (!k) {
		k = node_new(name, false);
		if (!k || add_kid(dir, k)) {
			dtree_free(k);
			free(v);
			return NULL;
		}
		qsort(dir->kids, dir->nkids, sizeof(*dir->kids), kid_cmp);
	}
	free(k->value);
	k->value = v;
	k->writable = writable;
	k->unreadable = false;
	return k;
}

void dnode_remove(struct dnode *dir, const char *name)
{
	for (size_t i = 0; i < dir->nkids; i++) {
		if (strcmp(dir->kids[i]->name, name))
			continue;
		dtree_free(dir->kids[i]);
		memmove(dir->kids + i, dir->kids + i + 1, (dir->nkids - i - 1) * sizeof(*dir->kids));
		dir->nkids--;
		return;
	}
}

char *dnode_path(const struct dnode *n, const struct dnode *top, char *buf, size_t len)
{
	const struct dnode *chain[32];
	size_t depth = 0, off = 0;

	buf[0] = '\0';
	for (; n && n != top && depth < 32; n = n->parent)
		chain[depth++] = n;
	while (depth--)
		off += snprintf(buf + off, off < len ? len - off : 0, "%s%s", off ? "/" : "",
				chain[depth]->name);
	return buf;
}

/* ---- writing ---- */

/* Directories whose contents the kernel writes, never the user. */
static bool output_dir(const struct dnode *d)
{
	return !strcmp(d->name, "stats") || !strcmp(d->name, "tried_regions");
}

/* Files a configuration does not hold: the kdamond's switch and its thread. */
static bool writable_config(const struct dnode *f)
{
	return f->writable && !f->unreadable && strcmp(f->name, "state") && strcmp(f->name, "pid");
}

static int write_value(const char *path, const char *value)
{
	int ret;

	for (int tries = 0;; tries++) {
		ret = sysroot_write(path, value);
		if (ret != -EBUSY || tries == BUSY_TRIES)
			return ret;
		nanosleep(&ten_ms, NULL);
	}
}

static int write_file(const char *path, const struct dnode *f, char *failed, size_t len)
{
	char sub[PATH_MAX];
	int ret;

	snprintf(sub, sizeof(sub), "%s/%s", path, f->name);
	/* a write of no bytes never reaches the kernel: empty is a lone newline */
	ret = write_value(sub, *f->value ? f->value : "\n");
	if (ret)
		snprintf(failed, len, "%s: '%s'", sub, f->value);
	return ret;
}


/* WAS NULL: write all of DESIRED (nr_* counts first, they create the entries). */
int dtree_write_changes(const struct dnode *desired, const struct dnode *was, const char *path,
			char *failed, size_t len)
{
	char sub[PATH_MAX];
	int ret;

	if (output_dir(desired))
		return 0;
	for (size_t i = 0; was && i < desired->nkids; i++) {
		const struct dnode *f = desired->kids[i], *old = kid_named(was, f->name, strlen(f->name));

		if (dnode_is_count(f) && writable_config(f) && (!old || strcmp(old->value, f->value) ||
							  dnode_count(was) != dnode_count(desired)))
			was = NULL;	/* resized: the kernel resets every entry */
	}
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < desired->nkids; i++) {
			const struct dnode *f = desired->kids[i], *old;

			if (f->dir || !writable_config(f) || dnode_is_count(f) != !pass)
				continue;
			old = was ? kid_named(was, f->name, strlen(f->name)) : NULL;
			if (old && !old->dir && !strcmp(old->value, f->value))
				continue;
			ret = write_file(path, f, failed, len);
			if (ret)
				return ret;
		}
	}
	for (size_t i = 0; i < desired->nkids; i++) {
		const struct dnode *d = desired->kids[i];

		if (!d->dir)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, d->name);
		ret = dtree_write_changes(d, was ? kid_named(was, d->name, strlen(d->name)) : NULL,
					  sub, failed, len);
		if (ret)
			return ret;
	}
	return 0;
}

const struct dnode *dtree_first_diff(const struct dnode *want, const struct dnode *got,
				     const char **got_value)
{
	for (size_t i = 0; i < want->nkids; i++) {
		const struct dnode *w = want->kids[i];
		const struct dnode *g = got ? kid_named(got, w->name, strlen(w->name)) : NULL;

		if (w->dir) {
			const struct dnode *d;

			if (output_dir(w))
				continue;
			d = dtree_first_diff(w, g && g->dir ? g : NULL, got_value);
			if (d)
				return d;
		} else if (writable_config(w) && (!g || g->dir || strcmp(g->value, w->value))) {
			*got_value = g && !g->dir ? g->value : NULL;
			return w;
		}
	}
	return NULL;
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * damos - `rtla damos`: DAMON's kdamonds, schemes and DAMOS filters.
 *
 * The kernel's interface is a deep sysfs tree whose shape changes from one
 * release to the next (filters/ in 6.3, allow in 6.14, core_filters/ and
 * ops_filters/ in 6.15, ...). The command reads it as it is, into a generic
 * tree of directories and files (tree.c), shows that tree (show.c), and
 * edits copies of it (verbs.c, with filter.c's words) that are validated
 * and written back with a commit, a check and a rollback (apply.c).
 */
#ifndef RTLA_DAMOS_H
#define RTLA_DAMOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "output.h"

#define DAMON_ADMIN	"/sys/kernel/mm/damon/admin"
#define DAMON_KDAMONDS	DAMON_ADMIN "/kdamonds"

/* ---- tree.c: a sysfs directory read whole ---- */

struct dnode {
	char *name;
	char *value;		/* a file's text, trailing newline stripped; NULL for a dir */
	bool dir;
	bool writable;		/* a file the owner may write (mode 0200) */
	bool unreadable;	/* a file the kernel would not show (value is "") */
	struct dnode **kids;	/* a dir's entries: numbered ones in numeric order */
	size_t nkids;
	struct dnode *parent;
};

/* Read the tree under PATH (a live path, read through the sysroot). 0 or -errno. */
int dtree_read(const char *path, struct dnode **out);
void dtree_free(struct dnode *n);
struct dnode *dtree_clone(const struct dnode *n);
/* The entry at the "/"-separated relative PATH, or NULL. */
struct dnode *dtree_get(const struct dnode *n, const char *path);
/* The value of the file at PATH, or NULL. */
const char *dtree_val(const struct dnode *n, const char *path);
/* Its value as a number: 0 or -EINVAL (absent or not a number). */
int dtree_u64(const struct dnode *n, const char *path, uint64_t *val);
int dtree_s64(const struct dnode *n, const char *path, int64_t *val);
/* The numbered entries of a dir ("0", "1", ...), and the count. */
bool dnode_is_index(const struct dnode *n);
/* Is F the count of its directory's entries (nr_filters in filters/, ...)? */
bool dnode_is_count(const struct dnode *f);
size_t dnode_count(const struct dnode *dir);
struct dnode *dnode_index(const struct dnode *dir, size_t i);
/* Add an empty dir or a file (VALUE copied) to DIR; NULL when out of memory. */
struct dnode *dnode_add_dir(struct dnode *dir, const char *name);
struct dnode *dnode_set(struct dnode *dir, const char *name, const char *value, bool writable);
/* Remove and free DIR's entry NAME, if there is one. */
void dnode_remove(struct dnode *dir, const char *name);
/* "a/b/c" of N relative to TOP, in buf. */
char *dnode_path(const struct dnode *n, const struct dnode *top, char *buf, size_t len);

/*
 * Write DESIRED to the live tree at PATH where it differs from WAS: a
 * directory whose nr_* count differs is written whole (the kernel resets
 * every entry of a directory when its nr_* file is written), otherwise only
 * the files that differ. Read-only files, state and pid, stats/ and
 * tried_regions/ are never written. On failure the path and value that
 * failed are in FAILED. 0 or -errno.
 */
int dtree_write_changes(const struct dnode *desired, const struct dnode *was, const char *path,
			char *failed, size_t len);
/* The first writable file of WANT whose value GOT does not hold, or NULL. */
const struct dnode *dtree_first_diff(const struct dnode *want, const struct dnode *got,
				     const char **got_value);

/* ---- show.c ---- */

struct damos_show {
	struct out_opts out;
	int kdamond;		/* -k: only this one; -1 for all */
};

int damos_show(const struct damos_show *o, const struct dnode *kdamonds);

/* ---- kernel facts ---- */

/* The release under the root ("6.12.117+deb13-rt-amd64") as major*1000+minor, or 0. */
int damos_kernel_version(void);
/* Does a kernel of VERSION (0: unknown, any) offer the filter TYPE? */
bool damos_type_known(const char *type, int version);
/* May TYPE go in the filter directory DIR ("filters", "core_filters", "ops_filters")? */
bool damos_type_allowed_in(const char *type, const char *dir);

/* ---- ownership (own.c) ---- */

enum damos_owner {
	DAMOS_OURS,		/* started by rtla: marked, same kdamond thread */
	DAMOS_FOREIGN,		/* someone else's: writable when named with -k */
	DAMOS_MACHINE,		/* started with the machine: never written */
};

#define DAMOS_RUN_DIR	"/run/rtla/damos"

enum damos_owner damos_owner(const struct dnode *kdamond, int index, pid_t *marked_by);
const char *damos_owner_name(enum damos_owner o);
int damos_mark(int index, pid_t kdamond_pid);
void damos_unmark(int index);
/* Is there a mark for INDEX (a kdamond of rtla's, or one that was)? */
bool damos_marked(int index);

#endif

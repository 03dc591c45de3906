/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * owned - ownership marks of the directories (tracefs instances) rtla
 * creates, so that only what rtla made is ever reclaimed (owned.c).
 */
#ifndef RTLA_OWNED_H
#define RTLA_OWNED_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The folder of rtla's run records (the osnoise state, ownership marks):
 * /run/rtla; on a board whose /run is missing or read-only, /dev/shm/rtla or
 * else /tmp/rtla, the first whose parent is a writable folder (or that
 * exists already), so that every run on the machine agrees on it. When none
 * can be written, /run/rtla, whose error names it (rtla_run_dir_hint()).
 */
const char *rtla_run_path(const char *name);
/* Why the record's folder could not be created, for an error line; "" if it could. */
const char *rtla_run_dir_hint(void);
#define RTLA_RUN_DIR	rtla_run_path("")
/* ownership marks of the directories (tracefs instances) rtla creates */
#define RTLA_OWNED_DIR	rtla_run_path("owned")

/* Mark PATH, just created by this process, whose guardian is GUARDIAN. 0 or -errno. */
int owned_mark(const char *mark_dir, const char *path, pid_t guardian);
/*
 * A directory is reclaimable ("stale") when MARK_DIR holds
 * a mark for it, neither the process that created it nor its guardian is
 * alive, and PATH is still the very directory marked (same inode).
 */
bool owned_is_stale(const char *mark_dir, const char *path);
/* The live process (the run, else its guardian) whose mark says PATH is its own; 0: none. */
pid_t owned_owner(const char *mark_dir, const char *path);
/* Called for each stale directory the sweep tried to remove (err: 0 or -errno). */
typedef void (*owned_sweep_fn)(const char *path, pid_t owner, int err, void *ctx);
/* Remove every stale marked directory and drop the marks of the gone ones. */
int owned_sweep(const char *mark_dir, owned_sweep_fn fn, void *ctx);

/* Drop the mark of PATH (removed by its owner, or not ours after all). */
void owned_unmark(const char *mark_dir, const char *path);
/* rmdir, waiting a little while the kernel still holds a reader; 0 or -errno. */
int owned_remove_dir(const char *path);

#endif

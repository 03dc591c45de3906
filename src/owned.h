/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * owned - ownership marks of the directories (tracefs instances) rtla
 * creates, so that only what rtla made is ever reclaimed (owned.c).
 */
#ifndef RTLA_OWNED_H
#define RTLA_OWNED_H

#include <stdbool.h>
#include <sys/types.h>

#define RTLA_RUN_DIR	"/run/rtla"
/* ownership marks of the directories (tracefs instances) rtla creates */
#define RTLA_OWNED_DIR	RTLA_RUN_DIR "/owned"

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

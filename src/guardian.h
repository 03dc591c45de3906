/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guardian - a second process that gives borrowed kernel state back when
 * the process that borrowed it dies without doing so.
 *
 * A run that writes kernel settings starts its guardian before the first
 * write, then tells it, in this order:
 *
 *   guardian_value()        each value it borrows: a file and the text that
 *                           restores it (read before anything is written);
 *   guardian_written()      just before the first write of that value;
 *   guardian_dir()          just before it creates a directory (a tracefs
 *                           instance), and guardian_dir_created() once it
 *                           has: that leaves an ownership mark;
 *   guardian_forget()       a directory it removed itself, or one that
 *                           turned out not to be its own.
 *
 * A run that ends normally restores everything itself, then calls
 * guardian_stand_down(): the guardian exits without touching anything and
 * is reaped. A run that ends in any other way (a crash, SIGKILL, an exit
 * that skipped its teardown) closes the channel without standing it down:
 * the guardian waits until the process is gone, writes back every value
 * that was written, in reverse order of the first writes, skips the others,
 * removes the directories, prints one line per failure on stderr (path,
 * value, errno), removes the record file (moves it aside when something
 * failed) and exits, all within a second.
 *
 * The guardian knows nothing of what the values mean. Every function
 * takes a NULL guardian and then does nothing.
 */
#ifndef RTLA_GUARDIAN_H
#define RTLA_GUARDIAN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "owned.h"

struct guardian;

struct guardian_opts {
	/* removed once the guardian restored everything, moved aside when it
	 * could not (guardian_record_set_aside()); NULL: none */
	const char *record;
	/* a descriptor the guardian holds until it exits (the record's flock),
	 * or -1: a concurrent run stays refused while it restores */
	int keep_fd;
	/* where guardian_dir_created() writes its marks; NULL: no marks */
	const char *mark_dir;
	/*
	 * The run's tracefs lock (tracefs_lock.h), NULL: none. Once the
	 * borrower is gone and everything is restored, the guardian lets go
	 * of the lock's file (guardian_hold()) and removes the instance,
	 * which it cannot while another run holds it.
	 */
	const char *lock_dir;
	/*
	 * Started before RECORD is this run's (a killed run's record may
	 * still be replayed): RECORD is left alone until guardian_seal().
	 */
	bool record_unsealed;
};

/* Fork the guardian; *gp is NULL on failure. 0 or -errno. */
int guardian_start(struct guardian **gp, const struct guardian_opts *opts);
pid_t guardian_pid(const struct guardian *g);

/* Register a value; returns its id (>= 0) or -errno. */
int guardian_value(struct guardian *g, const char *path, const char *orig);
/* Before every write of value ID (only the first one is sent). 0 or -errno. */
int guardian_written(struct guardian *g, int id);
/* Before creating the directory PATH; returns its id or -errno. */
int guardian_dir(struct guardian *g, const char *path);
/* After creating it: the ownership mark (with the mark_dir of the options). */
int guardian_dir_created(struct guardian *g, int id);
/* Drop directory ID: removed by the run itself, or not its own after all. */
int guardian_forget(struct guardian *g, int id);
/*
 * Hand the guardian a descriptor of the tracefs lock's file: it holds the
 * lock from the moment this returns 0 (the descriptor travels on the
 * socket) until it has restored everything.
 */
int guardian_hold(struct guardian *g, int fd);
/*
 * The run has closed its own descriptor of the lock (tracefs_lock_let_go()):
 * the guardian removes the lock as it leaves, on guardian_stand_down() as on
 * the run's death, so no moment of the run's end leaves it behind. 0 or
 * -errno (then the run removes it itself).
 */
int guardian_let_go(struct guardian *g);
/* The record is the run's own from now on (see record_unsealed). */
int guardian_seal(struct guardian *g);

/*
 * Keep the guardian off the CPUs the run keeps busy (a measuring thread
 * with interrupts off would delay its wake-up by up to a period): nothing
 * changes when BUSY is every CPU.
 */
void guardian_keep_off(struct guardian *g, const cpu_set_t *busy);

/* Everything is restored: tell the guardian, reap it and free G. */
int guardian_stand_down(struct guardian *g);

/* Keep a record that could not be replayed as RECORD.bad-<time>; its name in BAD. */
int guardian_record_set_aside(const char *record, char *bad, size_t len);

#endif

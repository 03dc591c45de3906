/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ledger - kernel settings a run borrows, and gives back whatever ends it.
 *
 * A run that changes global kernel files one value at a time (the osnoise
 * tracer's settings) goes through one ledger. DAMON does not: writing a
 * kdamond directory's nr_* file resets its entries and nothing takes effect
 * without a commit, so no value can be given back on its own; rtla damos
 * keeps the previous configuration whole and writes it back in the
 * kernel's order (src/damos/apply.c). The ledger's steps:
 *
 *   ledger_open()      take the record's flock: a second run is refused,
 *                      naming the pid that holds it and what it uses; a record a killed run
 *                      left (rtla and its guardian both gone) is replayed
 *                      first, or reported value by value and set aside;
 *                      ledger_open_global() also takes a lock in tracefs,
 *                      for runs in containers that do not share /run;
 *   ledger_borrow()    read a file's value before anything is written: the
 *                      text that restores it (ledger_borrow_as() when the
 *                      file is read in another form than it is written);
 *   ledger_seal()      start the guardian (guardian.h) and tell it every
 *                      value: from here on a write can be undone whatever
 *                      happens, a crash and SIGKILL included;
 *   ledger_write()     every write; the first one of a value is appended to
 *                      the record (and told to the guardian) before it
 *                      happens;
 *   ledger_close()     write back what was written, in reverse order of the
 *                      first writes, retrying a refused value after the
 *                      others (the kernel may bound one value by another:
 *                      osnoise keeps runtime <= period); values never
 *                      written are not touched; then drop the record, stand
 *                      the guardian down and let go of the lock.
 *
 * The order of the writes is the caller's: it knows the kernel's bounds
 * (osnoise_set_runtime_period()), and the reverse order undoes them.
 *
 * The record is a text file, kept for as long as the run holds the lock:
 *
 *   pid 1234 the osnoise tracer
 *   restore /sys/kernel/tracing/osnoise/period_us 1000000
 *   restore /sys/kernel/tracing/osnoise/options NO_OSNOISE_IRQ_DISABLE
 *
 * the holder and what it uses (the "what" of ledger_open(), which a refusal
 * names: two tools may share one record's settings), then
 * one "restore PATH TEXT" line per value written, in the order of the first
 * writes. Paths are the host's, so a ledger works on any tree (the unit
 * tests use a temporary one).
 */
#ifndef RTLA_LEDGER_H
#define RTLA_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* the osnoise settings, and timerlat's cpuidle states of many CPUs */
#define LEDGER_MAX_VALUES	512
/* room for a CPU list of a big machine */
#define LEDGER_VALUE_MAX	4096

#include "tracefs_lock.h"

struct guardian;

struct ledger_value {
	char *path;
	char *orig;		/* the text that restores it */
	int gid;		/* the guardian's id */
	bool written;
};

struct ledger {
	const char *record;	/* host path of the record (and of its lock) */
	const char *what;	/* "the osnoise tracer": named in the refusal */
	int lock_fd;
	int nr;
	struct ledger_value v[LEDGER_MAX_VALUES];
	struct guardian *guard;
	bool sealed;		/* ledger_seal() succeeded */
	struct tracefs_lock tlock;	/* ledger_open_global()'s; fd -1 otherwise */
};

/*
 * Lock RECORD (its folder is created) and replay what a killed run left.
 * 0; -EBUSY when another run holds it (one line said so); -EIO when a left
 * record could not be replayed (reported, set aside; the next run starts
 * afresh); -errno otherwise.
 */
int ledger_open(struct ledger *l, const char *record, const char *what);
/*
 * ledger_open() for values that are global to the kernel, which runs in
 * other containers (with another RECORD folder) may borrow too: the
 * guardian starts first (its marks go to MARK_DIR), then the tracefs lock
 * of RESOURCE (tracefs_lock.h) is taken and handed to it, before a left
 * record is replayed. -EBUSY when a run anywhere on the kernel holds it
 * (one line named it).
 */
int ledger_open_global(struct ledger *l, const char *record, const char *what,
		       const char *resource, const char *mark_dir);
/* Borrow PATH: its first line now is what restores it. The id, or -errno. */
int ledger_borrow(struct ledger *l, const char *path);
int ledger_borrow_as(struct ledger *l, const char *path, const char *restore);
/*
 * Start the guardian (its ownership marks go to MARK_DIR, may be NULL; a
 * guardian ledger_open_global() started is told the record is the run's).
 * 0 or -errno (one line said why); either way ledger_close() ends the ledger.
 */
int ledger_seal(struct ledger *l, const char *mark_dir);
/* Write VAL to value ID (its first line; "" writes an empty line). 0 or -errno. */
int ledger_write(struct ledger *l, int id, const char *val);
/* Give everything back; the number of values that could not be restored. Every path ends here. */
int ledger_close(struct ledger *l);
/* The guardian from ledger_seal() on (for the directories the run makes), or NULL. */
struct guardian *ledger_guardian(const struct ledger *l);

/* The first line of a kernel file, as ledger_borrow() reads it. Its length or -errno. */
int ledger_read(const char *path, char *buf, size_t len);

#endif

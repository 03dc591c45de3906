/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs_lock - one run at a time on a global tracing resource (the
 * osnoise files, the hwlat tracer), across every container that shares the
 * kernel and sees tracefs but not the run records' folder (/run/rtla).
 *
 * The lock is a tracefs instance, instances/rtla_lock_RESOURCE, and rests on
 * two things the kernel does for instances (kernel/trace/trace.c):
 *
 *   - mkdir is atomic: a second mkdir of the same name fails with EEXIST;
 *   - rmdir fails with EBUSY while any file of the instance is open (an open
 *     trace_marker holds a reference on the instance's trace array).
 *
 * The holder keeps the instance's trace_marker open for as long as it holds
 * the lock (and its guardian after it, until the borrowed settings are back:
 * guardian_hold()). So an instance whose rmdir fails is held by a live
 * process, and one whose rmdir succeeds was left by a run that is gone: the
 * rmdir itself reclaims it.
 *
 * Who holds it is written into the instance's trace_marker and read back
 * from its trace file: "rtla-lock claim|held NONCE pid P, host H, since T:
 * CMD".
 *
 * A successful mkdir alone does not make a run the holder. Between A's
 * mkdir and A's open, B may find the instance, remove it (nobody holds it
 * yet) and make its own; A's open then lands in B's instance. So every run
 * that made the instance (as it believes) first sets the instance's buffer
 * to its small size (the same size for all, so that only the first write
 * shrinks it: later writes change nothing and no claim is lost), writes a
 * claim with a random nonce, then reads the trace: it holds the lock when
 * its own claim is the only one there, and then writes "held". Of two runs
 * in one instance, the one whose claim came second sees both (the first
 * claim was written before its read); the first sees both too, or wins: at
 * most one wins. An instance held by a live run is never removed, so every
 * run with a file open in the lock is in the same instance. A run that
 * loses closes its file, waits a few random milliseconds and starts over:
 * it then finds a holder (refused, named), or the instance nobody holds
 * (both lost: reclaimed, tried again).
 */
#ifndef RTLA_TRACEFS_LOCK_H
#define RTLA_TRACEFS_LOCK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct tracefs_lock {
	char path[PATH_MAX];	/* the instance; "" when tracefs has no instances */
	int fd;			/* its trace_marker, open while held; -1 */
};

/*
 * Take the lock of RESOURCE ("osnoise", "hwlat"). 0: held (or tracefs is
 * not there: nothing global to protect); -EBUSY: a live run holds it (one
 * line named it: "another rtla run (pid P, host H, since T: CMD) is using
 * WHAT; ..."); -errno with one line saying why.
 */
int tracefs_lock_take(struct tracefs_lock *lk, const char *resource, const char *what);
/*
 * Is RESOURCE's lock held by a live run? -EBUSY with the refusal printed;
 * 0 when it is free (a lock left by a gone run is removed, one line).
 */
int tracefs_lock_check(const char *resource, const char *what);
/* Let go: close the file and remove the instance. */
void tracefs_lock_release(struct tracefs_lock *lk);
/*
 * Close the file only: the lock stays held by the other descriptor of it,
 * the guardian's, which removes it (guardian_let_go()); release is then a
 * no-op.
 */
void tracefs_lock_let_go(struct tracefs_lock *lk);
/* The one line of a refused run: HOLDER (may be NULL) describes the run that holds WHAT. */
void tracefs_lock_refuse(const char *what, const char *holder);
/* The instance's host path for RESOURCE. 0, or -errno (no tracefs). */
int tracefs_lock_path(const char *resource, char *buf, size_t len);

#endif

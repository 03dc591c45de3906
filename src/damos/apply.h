/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * apply - the one way `rtla damos` writes to a kdamond.
 *
 *   damos_lock()         one rtla writer at a time (flock on a file in
 *                        DAMOS_RUN_DIR, held until exit);
 *   damos_validate()     every value of the configuration a commit would
 *                        hand the kernel, checked before anything is
 *                        written (6.12 reports success for an invalid
 *                        commit and the kdamond dies);
 *   damos_apply()        the previous configuration (read whole by the
 *                        caller) recorded on disk, the changes written,
 *                        commit (or on), the kdamond checked to run with
 *                        the same thread and every written value read
 *                        back; on any failure the previous configuration
 *                        is written back and the kdamond committed or
 *                        started again, and the caller exits 1.
 */
#ifndef RTLA_DAMOS_APPLY_H
#define RTLA_DAMOS_APPLY_H

#include <stdbool.h>
#include <sys/types.h>

#include "damos/damos.h"

#define DAMOS_ERR_MAX	512

int damos_lock(void);

/*
 * Check the kdamond configuration KD (a kdamond directory, as it would be
 * after the edit) for what the kernel would only find at commit. 0, or
 * -EINVAL with the reason in err.
 */
int damos_validate(const struct dnode *kd, int version, char *err, size_t len);

enum damos_apply_mode {
	DAMOS_APPLY_COMMIT,	/* the kdamond runs: write the changes, commit */
	DAMOS_APPLY_STAGE,	/* the kdamond runs: write the changes, no commit */
	DAMOS_APPLY_START,	/* the kdamond is off: write everything, on */
};

/*
 * Make kdamond INDEX hold DESIRED: write it where it differs from NOW (what
 * the files hold), then commit or start it. PREV is what a failure goes
 * back to: the configuration the kdamond ran before (the record of an
 * earlier --no-commit edit, or NOW). Prints what happened on failure.
 * *pid gets the kdamond thread's pid. 0, or -errno after a rollback.
 */
int damos_apply(int index, const struct dnode *prev, const struct dnode *now,
		const struct dnode *desired, enum damos_apply_mode mode, pid_t *pid);

/*
 * The configuration kdamond INDEX ran before edits that were written but
 * not committed (--no-commit), or before a run of rtla that died while
 * changing it (its pid in *DIED, else 0): the record, if one was left for
 * the kdamond thread PID; else NULL.
 */
struct dnode *damos_record_load(int index, pid_t pid, pid_t *died);
void damos_record_drop(int index);

/* Write STATE_CMD ("off", "update_schemes_stats", ...) to kdamond INDEX's state. */
int damos_state_write(int index, const char *cmd);

#endif

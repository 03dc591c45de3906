/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knobs - the global osnoise settings a tracer run borrows.
 *
 * Every value is read before the first write and written back at the end,
 * in reverse order. The originals also go to a state file under /run, held
 * with an exclusive lock for the whole run, and to a guardian process
 * (guardian.h) that restores them within a second if the run dies without
 * doing it (a crash, SIGKILL). The guardian shares the lock: a second run
 * is refused while either holds it. A run that finds the file unlocked but
 * not empty knows that both were killed, and restores what the file
 * records; a record that cannot be replayed is reported and set aside.
 */
#ifndef RTLA_OSNOISE_KNOBS_H
#define RTLA_OSNOISE_KNOBS_H

#include <stdbool.h>
#include <sys/types.h>

#include "guardian.h"

#define OSNOISE_STATE_DIR	RTLA_RUN_DIR
#define OSNOISE_STATE_FILE	OSNOISE_STATE_DIR "/osnoise.state"

/* name, file under tracefs; restored in reverse order of this list */
#define OSNOISE_KNOBS \
	KNOB(CPUS,	 "osnoise/cpus") \
	KNOB(RUNTIME,	 "osnoise/runtime_us") \
	KNOB(PERIOD,	 "osnoise/period_us") \
	KNOB(STOP,	 "osnoise/stop_tracing_us") \
	KNOB(STOP_TOTAL, "osnoise/stop_tracing_total_us") \
	KNOB(THRESH,	 "tracing_thresh")

/* flags of osnoise/options (Linux >= 6.2) */
#define OSNOISE_OPTIONS \
	OPTION(WORKLOAD,	"OSNOISE_WORKLOAD") \
	OPTION(IRQ_DISABLE,	"OSNOISE_IRQ_DISABLE") \
	OPTION(PREEMPT_DISABLE,	"OSNOISE_PREEMPT_DISABLE") \
	OPTION(PANIC_ON_STOP,	"PANIC_ON_STOP")

#define KNOB(id, path) KNOB_##id,
enum osnoise_knob_id { OSNOISE_KNOBS KNOB_NR };
#undef KNOB
#define OPTION(id, name) OPT_##id,
enum osnoise_option_id { OSNOISE_OPTIONS OPT_NR };
#undef OPTION

/* room for osnoise/cpus as a list of every other CPU of a big machine */
#define OSNOISE_KNOB_MAX 4096

struct osnoise_knob {
	char orig[OSNOISE_KNOB_MAX];
	bool saved;
	bool written;
	int gid;		/* the guardian's id of the value */
};

struct osnoise_option_state {
	int orig;		/* 1 on, 0 off, -1 the kernel lacks it */
	bool written;
	int gid;
};

struct osnoise_state {
	int lock_fd;
	bool has_options;	/* osnoise/options exists */
	struct osnoise_knob knobs[KNOB_NR];
	struct osnoise_option_state opts[OPT_NR];
	struct guardian *guard;	/* from osnoise_state_save() to the release */
};

/* Take the lock (refusing a concurrent run) and reclaim what a killed run left. */
int osnoise_state_lock(struct osnoise_state *st);
/* Read every original value, record it and hand it to a new guardian. */
int osnoise_state_save(struct osnoise_state *st);
/* Restore what was recorded, stand the guardian down, drop the record and the lock. */
void osnoise_state_release(struct osnoise_state *st);

/*
 * Instances the run creates: claim NAME before creating it (the guardian
 * removes it if the run dies; the id goes to the calls below), mark it as
 * ours once created, and drop it once removed (or when it was not ours).
 */
int osnoise_instance_claim(struct osnoise_state *st, const char *name);
void osnoise_instance_created(struct osnoise_state *st, int id);
void osnoise_instance_drop(struct osnoise_state *st, int id);

int osnoise_knob_write(struct osnoise_state *st, enum osnoise_knob_id id, long long val);
int osnoise_knob_write_str(struct osnoise_state *st, enum osnoise_knob_id id, const char *val);
/* runtime and period in the order the kernel's bounds allow */
int osnoise_set_runtime_period(struct osnoise_state *st, long long runtime, long long period);
/* -ENOTSUP when the kernel has no such option */
int osnoise_option_write(struct osnoise_state *st, enum osnoise_option_id id, bool on);

/* The one-line refusal of a run while another (OWNER) holds the tracer. */
void osnoise_refuse_concurrent(pid_t owner);
/* The pid in one of our instance names (rtla_osnoise_*_PID), or 0. */
pid_t osnoise_instance_owner(const char *name);
/*
 * Is instance NAME one that a killed rtla run created (its ownership mark
 * says so, and neither that run nor its guardian is alive)? The name alone
 * proves nothing: a user may call an instance anything.
 */
bool osnoise_instance_is_stale(const char *name);

#endif

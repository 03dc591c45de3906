/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knobs - the global osnoise settings a tracer run borrows.
 *
 * Every value is read before the first write and written back at the end,
 * in reverse order. The originals also go to a state file under /run, held
 * with an exclusive lock for the whole run: a second run finds the lock and
 * is refused; a run that finds the file unlocked but not empty knows its
 * owner was killed, and restores what the file records.
 */
#ifndef RTLA_OSNOISE_KNOBS_H
#define RTLA_OSNOISE_KNOBS_H

#include <stdbool.h>
#include <sys/types.h>

#define OSNOISE_STATE_DIR	"/run/rtla"
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
};

struct osnoise_option_state {
	int orig;		/* 1 on, 0 off, -1 the kernel lacks it */
	bool written;
};

struct osnoise_state {
	int lock_fd;
	bool has_options;	/* osnoise/options exists */
	struct osnoise_knob knobs[KNOB_NR];
	struct osnoise_option_state opts[OPT_NR];
};

/* Take the lock (refusing a concurrent run) and reclaim what a killed run left. */
int osnoise_state_lock(struct osnoise_state *st);
/* Read every original value and record it with our instance names. */
int osnoise_state_save(struct osnoise_state *st, const char *const *instances);
/* Restore what was recorded, then drop the record and the lock. */
void osnoise_state_release(struct osnoise_state *st);

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
/* Is an instance name one of ours, and is its owner gone? */
bool osnoise_instance_is_stale(const char *name);

#endif

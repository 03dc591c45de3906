/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * knobs - the global osnoise settings a tracer run borrows, as a ledger
 * (ledger.h): every value read before the first write, recorded in
 * OSNOISE_STATE_FILE under a lock that refuses a second run, guarded by a
 * process that gives it back if rtla dies, and written back at the end in
 * reverse order of the writes.
 */
#ifndef RTLA_OSNOISE_KNOBS_H
#define RTLA_OSNOISE_KNOBS_H

#include <stdbool.h>

#include "ledger.h"
#include "owned.h"

#define OSNOISE_STATE_FILE	rtla_run_path("osnoise.state")
/* the tracefs lock (tracefs_lock.h) of the osnoise files, timerlat's too */
#define OSNOISE_LOCK		"osnoise"

/*
 * name, file under tracefs; the timerlat tracer's (its period, and
 * print_stack that needs CONFIG_STACKTRACE) are borrowed where they exist
 */
#define OSNOISE_KNOBS \
	KNOB(CPUS,	 "osnoise/cpus") \
	KNOB(RUNTIME,	 "osnoise/runtime_us") \
	KNOB(PERIOD,	 "osnoise/period_us") \
	KNOB(STOP,	 "osnoise/stop_tracing_us") \
	KNOB(STOP_TOTAL, "osnoise/stop_tracing_total_us") \
	KNOB(THRESH,	 "tracing_thresh") \
	KNOB(TIMERLAT_PERIOD, "osnoise/timerlat_period_us") \
	KNOB(PRINT_STACK, "osnoise/print_stack")
#define KNOB_FIRST_OPTIONAL	KNOB_TIMERLAT_PERIOD

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

struct osnoise_state {
	struct ledger ledger;
	bool held;		/* from osnoise_state_lock() to the release */
	int knob[KNOB_NR];	/* ledger ids; -1: an optional one the kernel lacks */
	int opt[OPT_NR];	/* ledger ids; -1: the kernel lacks the option */
};

/* Take the lock (refusing a concurrent run) and give back what a killed run left. */
int osnoise_state_lock(struct osnoise_state *st);
/*
 * Borrow every setting, and the NR_EXTRA host files EXTRA (their ledger
 * ids to EXTRA_IDS: timerlat's cpuidle states), and start the guardian:
 * from here on writes can be undone.
 */
int osnoise_state_save(struct osnoise_state *st, char *const *extra, int nr_extra,
		       int *extra_ids);
/* Give everything back, stand the guardian down, let go of the lock. */
void osnoise_state_release(struct osnoise_state *st);

/* -ENOTSUP for an optional knob the kernel lacks */
int osnoise_knob_write(struct osnoise_state *st, enum osnoise_knob_id id, long long val);
int osnoise_knob_write_str(struct osnoise_state *st, enum osnoise_knob_id id, const char *val);
/* runtime and period in the order the kernel's bounds allow */
int osnoise_set_runtime_period(struct osnoise_state *st, long long runtime, long long period);
/* -ENOTSUP when the kernel has no such option */
int osnoise_option_write(struct osnoise_state *st, enum osnoise_option_id id, bool on);

#endif

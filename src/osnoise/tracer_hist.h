/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracer_hist - the tracer backend's samples: every osnoise:sample_threshold
 * counted by the kernel, per CPU and whole microsecond, in a hist trigger of
 * the run's instance, and handed to the tool once the run has stopped.
 */
#ifndef RTLA_OSNOISE_TRACER_HIST_H
#define RTLA_OSNOISE_TRACER_HIST_H

#include <stdbool.h>

#include <tracefs.h>

#include "osnoise.h"

struct tracer_hist {
	char trigger[160];	/* as written; "!" before it removes it */
	bool armed;
	bool delivered;
};

/* Attach the trigger to INST (before it measures); 0 or -errno, said to the user. */
int tracer_hist_start(struct tracer_hist *th, struct tracefs_instance *inst,
		      const struct noise_params *p);
/* Forget what was counted so far (the warm-up). */
int tracer_hist_clear(struct tracer_hist *th, struct tracefs_instance *inst);
/* Once, after the run stopped: hand every count to the tool and remove the trigger. */
int tracer_hist_deliver(struct tracer_hist *th, struct tracefs_instance *inst,
			struct noise_run *run);

#endif

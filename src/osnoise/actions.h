/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * actions - what --on-threshold and --on-end do: trace[,file=F],
 * signal,num=N,pid=P|parent, shell,command=CMD, continue.
 */
#ifndef RTLA_OSNOISE_ACTIONS_H
#define RTLA_OSNOISE_ACTIONS_H

#include "osnoise.h"

#define ACTION_DEFAULT_TRACE_FILE "osnoise_trace.txt"

/* Parse one action and append it; -EINVAL (with a reason in err) on bad syntax. */
int actions_parse(struct action_list *list, const char *spec, char *err);
int actions_add_trace(struct action_list *list, const char *file);
void actions_free(struct action_list *list);

/*
 * Run the actions in order; the first failing one ends the chain, as
 * upstream does (so a "continue" after it is not reached), and is reported
 * on stderr. WHEN names the chain in that line ("--on-threshold").
 * Returns 0 or -errno; OUT may be NULL.
 */
int actions_run(const struct action_list *list, struct noise_run *run, const char *when,
		struct action_outcome *out);
const char *action_name(const struct action *a);

#endif

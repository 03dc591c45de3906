/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * actions - what --on-threshold and --on-end do: trace[,file=F],
 * signal,num=N,pid=P|parent, shell,command=CMD, continue.
 */
#ifndef RTLA_OSNOISE_ACTIONS_H
#define RTLA_OSNOISE_ACTIONS_H

#include "osnoise.h"

#define ACTION_DEFAULT_TRACE_FILE "osnoise_trace.txt"
/* How each action begins, for the completion. */
#define ACTION_WORDS "trace trace,file= signal,num= shell,command= continue"

/* Parse one action and append it; -EINVAL (with a reason in err) on bad syntax. */
int actions_parse(struct action_list *list, const char *spec, char *err);
int actions_add_trace(struct action_list *list, const char *file);
void actions_free(struct action_list *list);

/*
 * Run the actions in order; the first failing one ends the chain, as
 * upstream does (so a "continue" after it is not reached). Returns 0 or
 * -errno; what ran and what failed is in OUT.
 */
int actions_run(const struct action_list *list, struct noise_run *run,
		struct action_outcome *out);
/*
 * The one stderr line of a chain that failed (nothing when none did). WHEN
 * names the chain ("--on-threshold"). The driver says it after the final
 * table, so that an action's own output runs straight into the table as
 * upstream's does.
 */
void actions_report(const struct action_list *list, const struct action_outcome *o,
		    const char *when);
const char *action_name(const struct action *a);

#endif

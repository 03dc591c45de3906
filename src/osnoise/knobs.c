// SPDX-License-Identifier: GPL-2.0-only
/*
 * knobs - the osnoise tracer's global settings, borrowed through a ledger.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knobs.h"
#include "msg.h"
#include "trace_instance.h"

#define KNOB(id, path) path,
static const char *const knob_paths[] = { OSNOISE_KNOBS };
#undef KNOB
#define OPTION(id, name) name,
static const char *const option_names[] = { OSNOISE_OPTIONS };
#undef OPTION

/* 1 on, 0 off, -1 absent: "NO_X" in the options file means off. */
static int option_state(const char *options, const char *name)
{
	char no[64];
	const char *p;
	size_t len = strlen(name);

	snprintf(no, sizeof(no), "NO_%s", name);
	for (p = options; (p = strstr(p, no)); p += strlen(no))
		if ((p == options || p[-1] == ' ') && (p[strlen(no)] == ' ' || !p[strlen(no)]))
			return 0;
	for (p = options; (p = strstr(p, name)); p += len)
		if ((p == options || p[-1] == ' ') && (p[len] == ' ' || !p[len]))
			return 1;
	return -1;
}

int osnoise_state_lock(struct osnoise_state *st)
{
	int ret;

	memset(st, 0, sizeof(*st));
	if ((ret = ledger_open_global(&st->ledger, OSNOISE_STATE_FILE, "the osnoise tracer",
				      OSNOISE_LOCK, RTLA_OWNED_DIR)))
		return ret;
	st->held = true;
	trace_instance_sweep();
	return 0;
}

int osnoise_state_save(struct osnoise_state *st, char *const *extra, int nr_extra,
		       int *extra_ids)
{
	char path[PATH_MAX], options[1024], restore[80];
	int ret = 0, id;

	for (int i = 0; !ret && i < KNOB_NR; i++) {
		if ((ret = trace_path(knob_paths[i], path, sizeof(path))))
			break;
		st->knob[i] = -1;
		if (i >= KNOB_FIRST_OPTIONAL && access(path, F_OK))
			continue;
		id = ledger_borrow(&st->ledger, path);
		if (id < 0) {
			err_msg("cannot read %s: %s", knob_paths[i], strerror(-id));
			ret = id;
		}
		st->knob[i] = id;
	}
	if (!ret && !(ret = trace_path("osnoise/options", path, sizeof(path))) &&
	    ledger_read(path, options, sizeof(options)) < 0)
		*options = '\0';	/* before 6.2: no options */
	for (int i = 0; !ret && i < OPT_NR; i++) {
		int on = option_state(options, option_names[i]);

		st->opt[i] = -1;
		if (on < 0)
			continue;
		snprintf(restore, sizeof(restore), "%s%s", on ? "" : "NO_", option_names[i]);
		if ((id = ledger_borrow_as(&st->ledger, path, restore)) < 0)
			ret = id;
		st->opt[i] = id;
	}
	for (int i = 0; !ret && i < nr_extra; i++) {
		extra_ids[i] = ledger_borrow(&st->ledger, extra[i]);
		if (extra_ids[i] < 0) {
			err_msg("cannot read %s: %s", extra[i], strerror(-extra_ids[i]));
			ret = extra_ids[i];
		}
	}
	if (!ret)
		ret = ledger_seal(&st->ledger, RTLA_OWNED_DIR);
	return ret;	/* on failure too, osnoise_state_release() ends the ledger */
}

int osnoise_knob_write_str(struct osnoise_state *st, enum osnoise_knob_id id, const char *val)
{
	if (st->knob[id] < 0)
		return -ENOTSUP;
	return ledger_write(&st->ledger, st->knob[id], val);
}

int osnoise_knob_write(struct osnoise_state *st, enum osnoise_knob_id id, long long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", val);
	return osnoise_knob_write_str(st, id, buf);
}

/*
 * The kernel keeps runtime <= period at every step (runtime_us is bounded
 * by period_us and the other way round), so when the new runtime exceeds
 * the current period the period has to go first.
 */
int osnoise_set_runtime_period(struct osnoise_state *st, long long runtime, long long period)
{
	char path[PATH_MAX], cur[64];
	int ret;

	if (trace_path(knob_paths[KNOB_PERIOD], path, sizeof(path)) ||
	    ledger_read(path, cur, sizeof(cur)) < 0)
		return -EIO;
	if (runtime > atoll(cur)) {
		ret = osnoise_knob_write(st, KNOB_PERIOD, period);
		if (!ret)
			ret = osnoise_knob_write(st, KNOB_RUNTIME, runtime);
	} else {
		ret = osnoise_knob_write(st, KNOB_RUNTIME, runtime);
		if (!ret)
			ret = osnoise_knob_write(st, KNOB_PERIOD, period);
	}
	return ret;
}

int osnoise_option_write(struct osnoise_state *st, enum osnoise_option_id id, bool on)
{
	char opt[80];

	if (st->opt[id] < 0)
		return -ENOTSUP;
	snprintf(opt, sizeof(opt), "%s%s", on ? "" : "NO_", option_names[id]);
	return ledger_write(&st->ledger, st->opt[id], opt);
}

void osnoise_state_release(struct osnoise_state *st)
{
	if (!st->held)
		return;
	ledger_close(&st->ledger);
	st->held = false;
}

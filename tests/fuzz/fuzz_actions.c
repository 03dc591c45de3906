// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_actions - the --on-threshold/--on-end action parser.
 *
 * Each line of the input is one action spec, appended to one list as
 * repeated options would; then the list is freed. Only the parser runs:
 * actions_run() would send signals and start shells.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>

#include "fuzz.h"
#include "osnoise/actions.h"

/* "key=value" at s: the value, or NULL. */
static const char *value_of(const char *s, const char *key)
{
	size_t len = strlen(key);

	return s && !strncmp(s, key, len) && s[len] == '=' ? s + len + 1 : NULL;
}

/* What a spec that parsed must have appended. */
static void check_item(const char *spec, const struct action *a)
{
	const char *comma = strchr(spec, ',');
	const char *args = comma ? comma + 1 : NULL;
	size_t len = comma ? (size_t)(comma - spec) : strlen(spec);

	switch (a->type) {
	case ACTION_TRACE:
		FUZZ_CHECK(len == 5 && !strncmp(spec, "trace", 5));
		FUZZ_CHECK(a->file && !a->command);
		FUZZ_CHECK(!strcmp(a->file, args ? value_of(args, "file") : ACTION_DEFAULT_TRACE_FILE));
		FUZZ_CHECK(*a->file && !strchr(a->file, ','));
		break;
	case ACTION_SIGNAL:
		FUZZ_CHECK(len == 6 && !strncmp(spec, "signal", 6) && args);
		FUZZ_CHECK(!a->file && !a->command);
		FUZZ_CHECK(a->signal >= 1 && a->signal <= SIGRTMAX);
		FUZZ_CHECK(a->pid == -1 || (a->pid >= 1 && a->pid <= 4194304));
		FUZZ_CHECK(strstr(args, "num=") && strstr(args, "pid="));
		break;
	case ACTION_SHELL:
		FUZZ_CHECK(len == 5 && !strncmp(spec, "shell", 5));
		FUZZ_CHECK(!a->file && a->command && *a->command);
		/* everything after "command=", commas included */
		FUZZ_CHECK(!strcmp(a->command, value_of(args, "command")));
		break;
	case ACTION_CONTINUE:
		FUZZ_CHECK(!strcmp(spec, "continue"));
		FUZZ_CHECK(!a->file && !a->command);
		break;
	default:
		FUZZ_CHECK(!"an action of no known type");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *save = NULL;
	char *err = fuzz_err_new();
	struct action_list list;
	bool has_trace = false, has_continue = false;

	memset(&list, 0, sizeof(list));
	for (char *spec = strtok_r(text, "\n", &save); spec; spec = strtok_r(NULL, "\n", &save)) {
		int len = list.len;
		int ret = actions_parse(&list, spec, err);

		if (ret) {
			FUZZ_CHECK(ret == -EINVAL);
			FUZZ_CHECK(list.len == len);
			fuzz_err_check(err);
			continue;
		}
		FUZZ_CHECK(list.len == len + 1);
		check_item(spec, &list.items[len]);
		has_trace |= list.items[len].type == ACTION_TRACE;
		has_continue |= list.items[len].type == ACTION_CONTINUE;
	}
	FUZZ_CHECK(list.has_trace == has_trace && list.has_continue == has_continue);

	actions_free(&list);
	FUZZ_CHECK(!list.items && !list.len && !list.has_trace && !list.has_continue);
	free(err);
	free(text);
	return 0;
}

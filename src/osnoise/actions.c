// SPDX-License-Identifier: GPL-2.0-only
/*
 * actions - the --on-threshold and --on-end action lists.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "actions.h"
#include "msg.h"
#include "parse.h"

static struct action *action_append(struct action_list *list, enum action_type type)
{
	struct action *items = realloc(list->items, (list->len + 1) * sizeof(*items));

	if (!items)
		return NULL;
	list->items = items;
	memset(&items[list->len], 0, sizeof(*items));
	items[list->len].type = type;
	return &items[list->len++];
}

int actions_add_trace(struct action_list *list, const char *file)
{
	struct action *a = action_append(list, ACTION_TRACE);

	if (!a || !(a->file = strdup(file ? file : list->default_file ? list->default_file :
					    ACTION_DEFAULT_TRACE_FILE)))
		return -ENOMEM;
	list->has_trace = true;
	return 0;
}

/* "key=value" at s: returns value if s starts with key=, else NULL. */
static const char *arg_value(const char *s, const char *key)
{
	size_t len = strlen(key);

	return !strncmp(s, key, len) && s[len] == '=' ? s + len + 1 : NULL;
}

static int parse_signal(struct action_list *list, const char *args, const char *spec, char *err)
{
	long long num = -1, pid = 0;
	bool have_pid = false;
	char *copy = strdup(args), *save = NULL;
	struct action *a;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (char *tok = strtok_r(copy, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		const char *v;

		if ((v = arg_value(tok, "num"))) {
			ret = parse_llong(v, 1, SIGRTMAX, &num, err);
		} else if ((v = arg_value(tok, "pid"))) {
			have_pid = true;
			if (!strcmp(v, "parent"))
				pid = -1;
			else
				ret = parse_llong(v, 1, 4194304, &pid, err);
		} else {
			snprintf(err, PARSE_ERR_MAX, "'%s': unknown signal argument '%s'", spec, tok);
			ret = -EINVAL;
		}
	}
	free(copy);
	if (ret)
		return ret;
	if (num < 0 || !have_pid) {
		snprintf(err, PARSE_ERR_MAX, "'%s': signal needs num=N and pid=P|parent", spec);
		return -EINVAL;
	}
	a = action_append(list, ACTION_SIGNAL);
	if (!a)
		return -ENOMEM;
	a->signal = num;
	a->pid = pid;
	return 0;
}

int actions_parse(struct action_list *list, const char *spec, char *err)
{
	const char *comma = strchr(spec, ',');
	size_t len = comma ? (size_t)(comma - spec) : strlen(spec);
	const char *args = comma ? comma + 1 : NULL;
	struct action *a;

	if (len == 5 && !strncmp(spec, "trace", 5)) {
		const char *file = args ? arg_value(args, "file") : NULL;

		if (args && (!file || !*file || strchr(file, ','))) {
			snprintf(err, PARSE_ERR_MAX, "'%s': trace takes only file=FILE", spec);
			return -EINVAL;
		}
		return actions_add_trace(list, file);
	}
	if (len == 6 && !strncmp(spec, "signal", 6)) {
		if (!args) {
			snprintf(err, PARSE_ERR_MAX, "'%s': signal needs num=N and pid=P|parent", spec);
			return -EINVAL;
		}
		return parse_signal(list, args, spec, err);
	}
	if (len == 5 && !strncmp(spec, "shell", 5)) {
		/* the command is everything after "command=", commas included */
		const char *cmd = args ? arg_value(args, "command") : NULL;

		if (!cmd || !*cmd) {
			snprintf(err, PARSE_ERR_MAX, "'%s': shell needs command=CMD", spec);
			return -EINVAL;
		}
		a = action_append(list, ACTION_SHELL);
		if (!a || !(a->command = strdup(cmd)))
			return -ENOMEM;
		return 0;
	}
	if (len == 8 && !strncmp(spec, "continue", 8) && !args) {
		if (!action_append(list, ACTION_CONTINUE))
			return -ENOMEM;
		list->has_continue = true;
		return 0;
	}
	snprintf(err, PARSE_ERR_MAX, "'%s': unknown action (use trace, signal, shell or continue)", spec);
	return -EINVAL;
}

void actions_free(struct action_list *list)
{
	for (int i = 0; i < list->len; i++) {
		free(list->items[i].file);
		free(list->items[i].command);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}

/*
 * system() with SIGPIPE back to default for the child: rtla ignores SIGPIPE
 * to report write errors itself, and an ignored disposition survives exec.
 */
static int run_shell(const char *command)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		signal(SIGPIPE, SIG_DFL);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECHILD;
}

const char *action_name(const struct action *a)
{
	static const char *const names[] = {
		[ACTION_TRACE] = "trace", [ACTION_SIGNAL] = "signal",
		[ACTION_SHELL] = "shell", [ACTION_CONTINUE] = "continue",
	};

	return names[a->type];
}

void actions_report(const struct action_list *list, const struct action_outcome *o,
		    const char *when)
{
	if (o->failed < 0 || o->failed >= list->len)
		return;
	err_msg("%s: action %d (%s) failed: %s%s", when, o->failed + 1,
		action_name(&list->items[o->failed]),
		o->err == -ECHILD ? "the command did not exit with 0" : strerror(-o->err),
		o->failed + 1 < list->len ? "; the rest of the chain is skipped" : "");
}

int actions_run(const struct action_list *list, struct noise_run *run,
		struct action_outcome *out)
{
	struct action_outcome o = { .failed = -1 };
	int ret = 0;

	/* the table printed so far goes first: a shell command writes to the same stdout */
	fflush(stdout);
	for (int i = 0; i < list->len && !ret; i++) {
		const struct action *a = &list->items[i];

		switch (a->type) {
		case ACTION_TRACE:
			ret = run->backend->save_trace(run, a->file);
			break;
		case ACTION_SIGNAL:
			if (kill(a->pid == -1 ? getppid() : a->pid, a->signal))
				ret = -errno;
			break;
		case ACTION_SHELL:
			ret = run_shell(a->command);
			break;
		case ACTION_CONTINUE:
			o.continued = true;
			break;
		}
		if (!ret) {
			o.done++;
			continue;
		}
		o.failed = i;
		o.err = ret;
	}
	*out = o;
	return ret;
}

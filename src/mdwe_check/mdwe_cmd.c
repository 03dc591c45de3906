// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdwe - the command: the verbs (audit, the default; selftest; run) and
 * the little they share.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "cli.h"
#include "commands.h"
#include "json.h"
#include "mdwe_check/mdwe.h"
#include "msg.h"
#include "sysroot.h"

static const struct cli_spec *const mdwe_verbs[] = {
	&mdwe_audit_cli, &mdwe_selftest_cli, &mdwe_run_cli, NULL
};

/* "rtla mdwe" is the audit: its options, plus the verbs for completion. */
const struct cli_spec mdwe_cli = {
	.command = "mdwe",
	.options = mdwe_audit_options,
	.usage = mdwe_audit_usage,
	.positional = CLI_COMP_PIDS,
	.verbs = mdwe_verbs,
};

const char *mdwe_flags_name(unsigned long flags)
{
	if (!(flags & PR_MDWE_REFUSE_EXEC_GAIN))
		return "-";
	return flags & PR_MDWE_NO_INHERIT ? "refuse-exec-gain+no-inherit" : "refuse-exec-gain";
}

int mdwe_kernel_probe(void)
{
	return prctl(PR_GET_MDWE, 0, 0, 0, 0) < 0 ? -errno : 0;
}

/* Messages and the record name the verb: "rtla mdwe selftest: ...". */
static void name_verb(const char *verb)
{
	static char prefix[64], command[32];

	snprintf(prefix, sizeof(prefix), "rtla mdwe %s: ", verb);
	snprintf(command, sizeof(command), "mdwe %s", verb);
	msg_set_prefix(prefix);
	json_set_command(command);
}

int cmd_mdwe(int argc, char **argv)
{
	/* both act on the running kernel */
	if (argc >= 2 && !strcmp(argv[1], "selftest")) {
		name_verb("selftest");
		if (sysroot_require_live("rtla mdwe selftest"))
			return EXIT_ERROR;
		return mdwe_selftest(argc - 1, argv + 1);
	}
	if (argc >= 2 && !strcmp(argv[1], "run")) {
		name_verb("run");
		if (sysroot_require_live("rtla mdwe run"))
			return EXIT_ERROR;
		return mdwe_run(argc - 1, argv + 1);
	}
	if (argc >= 2 && !strcmp(argv[1], "audit"))
		return mdwe_audit(argc - 1, argv + 1);
	return mdwe_audit(argc, argv);
}

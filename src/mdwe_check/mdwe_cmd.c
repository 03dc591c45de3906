// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdwe - the command: the rows of its verbs (audit, the default; selftest;
 * run) and the little they share.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "cli.h"
#include "commands.h"
#include "mdwe_check/mdwe.h"

static const struct cli_verb mdwe_verbs[] = {
	CLI_VERB("audit", mdwe_audit, &mdwe_audit_cli,
		 "who runs under MDWE, who maps W+X (the default)", .flags = CLI_VERB_DEFAULT),
	CLI_VERB("selftest", mdwe_selftest, &mdwe_selftest_cli,
		 "check the running kernel's enforcement", .flags = CLI_VERB_LIVE),
	CLI_VERB("run", mdwe_run, &mdwe_run_cli, "start a command under MDWE",
		 .flags = CLI_VERB_LIVE),
	CLI_VERB_END
};

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

int cmd_mdwe(int argc, char **argv)
{
	return cli_run_verbs(&mdwe_cli, argc, argv);
}

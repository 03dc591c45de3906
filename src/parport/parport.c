// SPDX-License-Identifier: GPL-2.0-only
/*
 * parport - the command: `rtla parport [list]`, `add`, `delete`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "msg.h"
#include "parse.h"
#include "parport/parport.h"

enum {
	OPT_PORTS = CLI_LONG,
	OPT_PROTOCOLS,
	OPT_DEVICES,
	OPT_DRY_RUN,
	OPT_TIMEOUT,
};

static void usage(FILE *f);
static void column_names(FILE *out, const struct cli_completion *c);
static void add_words(FILE *out, const struct cli_completion *c);
static void delete_words(FILE *out, const struct cli_completion *c);

static const struct cli_option options[] = {
	CLI_FLAG(OPT_PORTS, "ports", "list only the parallel ports"),
	CLI_FLAG(OPT_PROTOCOLS, "protocols", "list only the registered protocols"),
	CLI_FLAG(OPT_DEVICES, "devices", "list only the pata_parport devices"),
	CLI_FLAG(OPT_DRY_RUN, "dry-run", "add, delete: check and show what would be written"),
	CLI_VALUE(OPT_TIMEOUT, "timeout", "SECONDS",
		  "add, delete: give up on a write that blocks this long (default 10)"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

static int list_main(int argc, char **argv);
static int add_main(int argc, char **argv);
static int delete_main(int argc, char **argv);

/* the verbs share the options and the help */
static const struct cli_spec list_cli = { .command = "parport list", .options = options, .usage = usage };
static const struct cli_spec add_cli = { .command = "parport add", .options = options, .usage = usage,
					 .positional = CLI_COMP_CALL, .candidates = add_words };
static const struct cli_spec delete_cli = { .command = "parport delete", .options = options,
					    .usage = usage, .positional = CLI_COMP_CALL,
					    .candidates = delete_words };
static const struct cli_verb parport_verbs[] = {
	CLI_VERB("list", list_main, &list_cli, "ports, protocols and devices (the default)",
		 .flags = CLI_VERB_DEFAULT),
	CLI_VERB("add", add_main, &add_cli, "add a pata_parport device"),
	CLI_VERB("delete", delete_main, &delete_cli, "delete a pata_parport device"),
	CLI_VERB_END
};

const struct cli_spec parport_cli = {
	.command = "parport",
	.options = options,
	.usage = usage,
	.positional = CLI_COMP_NONE,
	.verbs = parport_verbs,
};

extern const struct out_column pp_port_cols[], pp_proto_cols[], pp_dev_cols[];
extern const size_t pp_port_ncols, pp_proto_ncols, pp_dev_ncols;

/* -o: the columns of the list asked for, of all three without --ports, --protocols, --devices */
static void column_names(FILE *out, const struct cli_completion *c)
{
	bool ports = cli_words_have(c, "ports");
	bool protocols = cli_words_have(c, "protocols");
	bool devices = cli_words_have(c, "devices");
	bool all = !ports && !protocols && !devices;

	if (all || ports)
		out_column_names(out, pp_port_cols, pp_port_ncols);
	if (all || protocols)
		out_column_names(out, pp_proto_cols, pp_proto_ncols);
	if (all || devices)
		out_column_names(out, pp_dev_cols, pp_dev_ncols);
}

/* What add and delete take, from what the kernel has now: NULL when it cannot be read. */
static struct pp_state *scan_for_words(void)
{
	struct pp_state *st = calloc(1, sizeof(*st));

	if (st && pp_scan(st)) {
		free(st);
		return NULL;
	}
	return st;
}

/* add PORT PROTOCOL: the ports (and auto), then the registered protocols */
static void add_words(FILE *out, const struct cli_completion *c)
{
	struct pp_state *st = scan_for_words();

	bool automatic = false;

	for (int i = 1; i < c->nwords; i++)
		automatic |= !strcmp(c->words[i], "auto");
	if (!st || c->nth > 1 || (c->nth == 1 && automatic))
		goto out;	/* "add auto" takes nothing more */
	if (c->nth == 0)
		fputs("auto\n", out);
	for (int i = 0; c->nth == 0 && i < st->nports; i++)
		fprintf(out, "%s\n", st->ports[i].name);
	for (int i = 0; c->nth == 1 && i < st->nprotos; i++)
		fprintf(out, "%s\n", st->protos[i].name);
out:
	free(st);
}

/* delete NAME: the devices */
static void delete_words(FILE *out, const struct cli_completion *c)
{
	struct pp_state *st = scan_for_words();

	for (int i = 0; st && c->nth == 0 && i < st->ndevs; i++)
		fprintf(out, "%s\n", st->devs[i].name);
	free(st);
}

static void usage(FILE *f)
{
	fputs("Usage: rtla parport [list] [--ports|--protocols|--devices] [OPTIONS]\n"
	      "       rtla parport add PORT PROTOCOL [MODE [UNIT [DELAY]]] [--dry-run]\n"
	      "       rtla parport add auto [--dry-run]\n"
	      "       rtla parport delete NAME [--dry-run]\n\n"
	      "Parallel ports, pata_parport protocols (and the modules that registered\n"
	      "them), and pata_parport devices with their ATA port, SCSI host and disk.\n"
	      "add and delete write /sys/bus/pata_parport/new_device and delete_device\n"
	      "after checking the request, and explain what the kernel answers.\n"
	      "MODE, UNIT and DELAY take -1 or auto (probe, all units, the protocol's\n"
	      "default); write -- before a negative number.\n\n"
	      "Options:\n", f);
	cli_print_options(&parport_cli, f);
	fputs("\nAvailable output columns with --ports:\n", f);
	for (size_t i = 0; i < pp_port_ncols; i++)
		fprintf(f, " %12s  %s\n", pp_port_cols[i].name, pp_port_cols[i].help);
	fputs("\nAvailable output columns with --protocols:\n", f);
	for (size_t i = 0; i < pp_proto_ncols; i++)
		fprintf(f, " %12s  %s\n", pp_proto_cols[i].name, pp_proto_cols[i].help);
	fputs("\nAvailable output columns with --devices (and of add):\n", f);
	for (size_t i = 0; i < pp_dev_ncols; i++)
		fprintf(f, " %12s  %s\n", pp_dev_cols[i].name, pp_dev_cols[i].help);
	fputs("\nGlobal option --sysroot DIR lists a captured tree (not add or delete).\n"
	      "See rtla-parport(1).\n", f);
}

static int parse_args(int argc, char **argv, const struct cli_spec *spec, struct pp_opts *o)
{
	struct cli_parser p;
	int id;

	o->timeout = 10;
	cli_begin(&p, spec, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &o->out))
			continue;
		switch (id) {
		case OPT_PORTS: o->ports = true; break;
		case OPT_PROTOCOLS: o->protocols = true; break;
		case OPT_DEVICES: o->devices = true; break;
		case OPT_DRY_RUN: o->dry_run = true; break;
		case OPT_TIMEOUT: {
			char *end;
			double v = strtod(p.arg, &end);

			if (!*p.arg || *end || !(v >= 0.1 && v <= 3600))
				return cli_error(&p, "--timeout: seconds from 0.1 to 3600", p.arg);
			o->timeout = v;
			break;
		}
		}
	}
	if (id < 0)
		return id;
	o->args = argv + p.optind;
	o->nargs = argc - p.optind;
	if (o->verb == PP_LIST && o->nargs)
		return cli_usage_error(&parport_cli, "unexpected argument", o->args[0]);
	if (o->ports + o->protocols + o->devices > 1)
		return cli_usage_error(&parport_cli, "choose one of --ports, --protocols, --devices",
				       NULL);
	if (o->verb != PP_LIST && (o->ports || o->protocols || o->devices))
		return cli_usage_error(&parport_cli, "--ports, --protocols and --devices are for list",
				       NULL);
	if (o->verb == PP_LIST && o->dry_run)
		return cli_usage_error(&parport_cli, "--dry-run is for add and delete", NULL);
	return 0;
}

static int run(int argc, char **argv, const struct cli_spec *spec, int verb)
{
	struct pp_opts o;
	struct pp_state *st;
	int ret;

	memset(&o, 0, sizeof(o));
	o.verb = verb;
	ret = parse_args(argc, argv, spec, &o);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	st = malloc(sizeof(*st));
	if (!st) {
		err_msg("out of memory");
		return EXIT_ERROR;
	}
	pp_scan(st);
	switch (o.verb) {
	case PP_ADD: ret = pp_add(&o, st); break;
	case PP_DELETE: ret = pp_delete(&o, st); break;
	default: ret = pp_list(&o, st); break;
	}
	free(st);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

static int list_main(int argc, char **argv)
{
	return run(argc, argv, &list_cli, PP_LIST);
}

static int add_main(int argc, char **argv)
{
	return run(argc, argv, &add_cli, PP_ADD);
}

static int delete_main(int argc, char **argv)
{
	return run(argc, argv, &delete_cli, PP_DELETE);
}

int cmd_parport(int argc, char **argv)
{
	return cli_run_verbs(&parport_cli, argc, argv);
}

/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cli - a command's options, described once.
 *
 * A command lists its options in one array of struct cli_option; the getopt
 * tables, the option lines of --help, the shell completion and the man-page
 * test all come from it. The core also gives every command -h/--help and
 * -V/--version, the one error format ("rtla COMMAND: what: value"), and the
 * checks every FILE argument gets, so a new command follows the convention
 * of rtla(1) without writing any of it.
 *
 * Parsing is an iterator so that a command keeps its own switch:
 *
 *	struct cli_parser p;
 *	int id;
 *
 *	cli_begin(&p, &spec, argc, argv);
 *	while ((id = cli_next(&p)) > 0)
 *		switch (id) { case 'c': ... p.arg ... }
 *	if (id < 0)
 *		return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
 *	... positional arguments are argv[p.optind..argc) ...
 */
#ifndef RTLA_CLI_H
#define RTLA_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

enum cli_arg {
	CLI_NO_ARG,
	CLI_ARG,		/* required: "-c 1-3", "--cpus=1-3" */
	CLI_OPT_ARG,		/* optional: "-tFILE", "-t=FILE", "-t FILE" (not "-t -q") */
};

/* What the shell completes for an option's argument or a positional word. */
enum cli_complete {
	CLI_COMP_NONE,
	CLI_COMP_FILE,		/* file names */
	CLI_COMP_DIR,		/* directory names */
	CLI_COMP_CPUS,		/* this machine's CPUs */
	CLI_COMP_PIDS,		/* running processes */
	CLI_COMP_WORDS,		/* the words listed in .words */
	CLI_COMP_COMMANDS,	/* rtla's commands */
	CLI_COMP_PROGRAM,	/* a program to run, then its arguments (file names) */
	CLI_COMP_CALL,		/* what .candidates prints (see below) */
};

struct cli_spec;

/*
 * CLI_COMP_CALL: the words only the command knows (its columns, the ports
 * of the machine), printed one a line; a line "@file", "@dir" or "@program"
 * hands the word to the shell. C says where the word stands.
 */
struct cli_completion {
	const struct cli_spec *spec;	/* of the command or verb ("hwnoise hist") */
	int nth;		/* positional words before it; 0 for an option's argument */
	int nwords;		/* the command line before it, words[0] the command or verb */
	char **words;
};
typedef void (*cli_candidates_fn)(FILE *out, const struct cli_completion *c);
/* What the core completes for KIND, for a command's CLI_COMP_CALL to reuse. */
void cli_complete_kind(FILE *out, enum cli_complete kind);
/* Is the flag --NAME on the command line before the word completed? */
bool cli_words_have(const struct cli_completion *c, const char *name);

#define CLI_HIDDEN	(1 << 0)	/* accepted, not shown in --help or completion */
#define CLI_FILE	(1 << 1)	/* a FILE argument: "-x" is refused, "-" is stdout */
#define CLI_LIST	(1 << 2)	/* a comma-separated list ("+" first for -o): each item completes */
/*
 * With CLI_FILE: a file written beside what the command prints on stdout
 * (the noise tools' --junit, --prometheus, -t): "-" is refused too, since
 * stdout holds the table and the two would be interleaved.
 */
#define CLI_NOT_STDOUT	(1 << 3)

struct cli_option {
	int id;			/* the short letter, or CLI_LONG + n for a long-only option */
	const char *name;	/* long name without "--", or NULL */
	enum cli_arg arg;
	const char *metavar;	/* the argument in help: "us", "cpu-list", "FILE" */
	const char *help;	/* the help line; further lines after "\n" */
	unsigned flags;
	enum cli_complete complete;
	const char *words;	/* CLI_COMP_WORDS: "auto tracer sampler" */
	cli_candidates_fn candidates;	/* CLI_COMP_CALL */
};

#define CLI_LONG	256	/* first id of long-only options */
#define CLI_ID_HELP	'h'
#define CLI_ID_VERSION	'V'

/*
 * Rows of an option list: a flag, an option with a value, one whose value
 * may be left out; further fields by name (.flags, .complete, .words, .candidates).
 */
#define CLI_FLAG(i, n, h, ...) { .id = (i), .name = (n), .help = (h), __VA_ARGS__ }
#define CLI_VALUE(i, n, m, h, ...) \
	{ .id = (i), .name = (n), .arg = CLI_ARG, .metavar = (m), .help = (h), __VA_ARGS__ }
#define CLI_OPTIONAL(i, n, m, h, ...) \
	{ .id = (i), .name = (n), .arg = CLI_OPT_ARG, .metavar = (m), .help = (h), __VA_ARGS__ }

/* The two options every command has, for a command's list where it shows them. */
#define CLI_OPT_HELP(text) CLI_FLAG(CLI_ID_HELP, "help", text)
#define CLI_OPT_VERSION(text) CLI_FLAG(CLI_ID_VERSION, "version", text)
#define CLI_OPT_END { .id = 0 }

enum cli_style {
	CLI_STYLE_GNU,		/* "  -c, --cpus LIST     help" (util-linux) */
	CLI_STYLE_UPSTREAM,	/* "\t  -c/--cpus cpu-list: help" (upstream rtla's noise tools) */
};

struct cli_verb;

struct cli_spec {
	const char *command;		/* "hwnoise", "osnoise top": help and messages */
	const struct cli_option *options;	/* CLI_OPT_END terminated */
	enum cli_style style;
	void (*usage)(FILE *f);		/* the whole --help text, on stdout */
	enum cli_complete positional;	/* what the words after the options are */
	cli_candidates_fn candidates;	/* .positional CLI_COMP_CALL */
	const struct cli_verb *verbs;	/* its verbs' rows, or NULL (see below) */
};

/*
 * Verbs as rows: "osnoise top|hist", "damos filter add|rm|set". A command
 * with verbs lists them in one array of struct cli_verb, ended by
 * CLI_VERB_END, and hands its argv to cli_run_verbs(), which picks the row
 * and sets what every verb shares: the message prefix ("rtla osnoise hist: "),
 * the record's command name ("damos start"), the --sysroot refusal of a
 * live-only verb, --help of the level, and the one unknown-verb line
 *
 *	rtla damos: unknown verb: 'shwo' (verbs: show, start, stop, filter, commit)
 *
 * `rtla help COMMAND VERB...` and the completion read the same rows.
 */
#define CLI_VERB_DEFAULT (1 << 0)	/* runs when no verb is named ("rtla osnoise -c 0": top);
					 * its record keeps the command's name */
#define CLI_VERB_LIVE	 (1 << 1)	/* acts on the running kernel: refuses --sysroot when
					 * its options are read (cli_next() at their end, after
					 * --help and usage errors), before it reads anything */
#define CLI_VERB_NAMED	 (1 << 2)	/* a default whose record still carries the verb
					 * ("osnoise top", as upstream's) */

struct cli_verb {
	const char *name;	/* "hist"; NULL: the default has no word (hwnoise's top) */
	/* argv[0] is the verb (the command where the default ran unnamed); the
	 * exit status; NULL where .spec has verbs of its own (rows of rows) */
	int (*fn)(int argc, char **argv);
	const struct cli_spec *spec;	/* "osnoise hist": options, usage, completion */
	const char *summary;
	unsigned flags;
};

#define CLI_VERB(n, f, s, sum, ...) \
	{ .name = (n), .fn = (f), .spec = (s), .summary = (sum), __VA_ARGS__ }
#define CLI_VERB_END { .spec = NULL }

/*
 * Run the verb ARGV[1] names: the default verb where ARGV[1] is absent or an
 * option (or, when the default takes PIDs or CPUs, a number); -h/--help and
 * -V/--version as the first word are the level's own. The exit status.
 */
int cli_run_verbs(const struct cli_spec *spec, int argc, char **argv);
/* The named row of SPEC's verbs called NAME, or NULL. */
const struct cli_verb *cli_verb_find(const struct cli_spec *spec, const char *name);
/* The one line for a word that is no verb of SPEC; CLI_ERROR. */
int cli_unknown_verb(const struct cli_spec *spec, const char *word);
/* Messages of SPEC's verb start "rtla SPEC->COMMAND: ". */
void cli_set_prefix(const struct cli_spec *spec);
/* "  NAME   SUMMARY" for each named verb, for a usage text. */
void cli_print_verbs(const struct cli_spec *spec, FILE *f);

/* Results of cli_next() besides an option id. */
#define CLI_DONE	0	/* no more options: positionals from p->optind */
#define CLI_EXIT	(-1)	/* --help or --version printed: exit 0 */
#define CLI_ERROR	(-2)	/* a usage error printed: exit 1 */

#define CLI_MAX_OPTIONS 64

struct cli_parser {
	const struct cli_spec *spec;
	int argc;
	char **argv;
	int optind;		/* after CLI_DONE: the first positional argument */
	const char *arg;	/* the current option's argument, NULL if none */
	const char *word;	/* the current option ("-c", "--cpus"), for messages */
	char wordbuf[64];
	struct option longopts[CLI_MAX_OPTIONS + 3];
	char shortopts[3 * CLI_MAX_OPTIONS + 8];
};

void cli_begin(struct cli_parser *p, const struct cli_spec *spec, int argc, char **argv);
int cli_next(struct cli_parser *p);

/*
 * A usage error for the current option: "rtla COMMAND: WHAT: VALUE" on one
 * line. Returns CLI_ERROR, so a command's switch can "return cli_error(...)".
 */
int cli_error(const struct cli_parser *p, const char *what, const char *value);

/*
 * A destination rtla will write: 0 when PATH ("-": stdout) can be written,
 * else -errno. The options flagged CLI_FILE are checked so while parsing.
 */
int cli_file_writable(const char *path);
/* The same line for an error that belongs to no one option (VALUE may be NULL). */
int cli_usage_error(const struct cli_spec *spec, const char *what, const char *value);

/* The option lines of --help in the spec's style, in the order of the spec. */
void cli_print_options(const struct cli_spec *spec, FILE *f);
void cli_print_version(FILE *f);

/*
 * `rtla __complete CWORD WORD...`: the candidates for word CWORD of a command
 * line (WORD 0 is the command), one per line; "@file" or "@dir" asks the shell
 * to complete names itself; COMMANDS lists rtla's commands, space-separated.
 * Used by scripts/rtla-completion.bash.
 */
/*
 * `rtla __spec COMMAND [VERB...]`: the rows of SPEC as the tests read them,
 * one a line: "verb NAME", "option -c --cpus ARG METAVAR KIND [list]" (ARG
 * one of flag, value, optional; "-" for no letter or name), "positional KIND".
 */
void cli_describe(const struct cli_spec *spec, FILE *out);

int cli_complete(const struct cli_spec *spec, int cword, int nwords, char **words,
		 const char *commands, FILE *out);

#endif

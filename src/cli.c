// SPDX-License-Identifier: GPL-2.0-only
/*
 * cli - getopt tables, --help lines and completion from one description.
 *
 * getopt_long itself does the parsing (so abbreviations, "--opt=value" and
 * argument permutation behave as in every GNU tool); this file turns its
 * '?' and ':' into one line that names the option, and adds what getopt
 * lacks: upstream rtla's "-t FILE" optional-argument form and the FILE check.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "cpuspec.h"
#include "json.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"

static const struct cli_option builtin_help = CLI_OPT_HELP("show this help");
static const struct cli_option builtin_version = CLI_OPT_VERSION("show the version");

static bool spec_has(const struct cli_spec *spec, int id)
{
	for (const struct cli_option *o = spec->options; o->id; o++)
		if (o->id == id)
			return true;
	return false;
}

static void add_option(struct cli_parser *p, const struct cli_option *o, int *nlong, size_t *nshort)
{
	static const int has_arg[] = {
		[CLI_NO_ARG] = no_argument,
		[CLI_ARG] = required_argument,
		[CLI_OPT_ARG] = optional_argument,
	};

	if (o->id < CLI_LONG && *nshort + 3 < sizeof(p->shortopts)) {
		p->shortopts[(*nshort)++] = o->id;
		if (o->arg != CLI_NO_ARG)
			p->shortopts[(*nshort)++] = ':';
		if (o->arg == CLI_OPT_ARG)
			p->shortopts[(*nshort)++] = ':';
	}
	if (o->name && *nlong < CLI_MAX_OPTIONS + 2)
		p->longopts[(*nlong)++] = (struct option){ o->name, has_arg[o->arg], NULL, o->id };
}

void cli_begin(struct cli_parser *p, const struct cli_spec *spec, int argc, char **argv)
{
	size_t nshort = 0;
	int nlong = 0;

	memset(p, 0, sizeof(*p));
	p->spec = spec;
	p->argc = argc;
	p->argv = argv;
	/* ':' first: a missing argument is reported as ':', not as an unknown option */
	p->shortopts[nshort++] = ':';
	for (const struct cli_option *o = spec->options; o->id; o++)
		add_option(p, o, &nlong, &nshort);
	if (!spec_has(spec, CLI_ID_HELP))
		add_option(p, &builtin_help, &nlong, &nshort);
	if (!spec_has(spec, CLI_ID_VERSION))
		add_option(p, &builtin_version, &nlong, &nshort);
	p->shortopts[nshort] = '\0';
	opterr = 0;
	optind = 0;	/* GNU getopt: start afresh, whoever parsed before */
}

static const struct cli_option *find_option(const struct cli_spec *spec, int id)
{
	for (const struct cli_option *o = spec->options; o->id; o++)
		if (o->id == id)
			return o;
	if (id == CLI_ID_HELP)
		return &builtin_help;
	if (id == CLI_ID_VERSION)
		return &builtin_version;
	return NULL;
}

int cli_usage_error(const struct cli_spec *spec, const char *what, const char *value)
{
	if (value && !*value)
		err_msg("%s: ''", what);	/* an empty value is seen, not a blank */
	else if (value)
		err_msg("%s: %s", what, value);
	else
		err_msg("%s", what);
	return CLI_ERROR;
}

int cli_error(const struct cli_parser *p, const char *what, const char *value)
{
	return cli_usage_error(p->spec, what, value);
}

/* The long options a "--xyz" could abbreviate, for an ambiguity message. */
static int report_long_problem(struct cli_parser *p, const char *word)
{
	size_t len = strcspn(word + 2, "=");
	char names[PARSE_ERR_MAX] = "";
	const struct option *exact = NULL;
	int matches = 0;

	for (const struct option *lo = p->longopts; lo->name; lo++) {
		if (strncmp(lo->name, word + 2, len))
			continue;
		if (strlen(lo->name) == len)
			exact = lo;
		matches++;
		if (strlen(names) + strlen(lo->name) + 5 < sizeof(names))
			sprintf(names + strlen(names), "%s--%s", matches > 1 ? ", " : "", lo->name);
	}
	if (exact || (matches == 1 && word[2 + len] == '='))
		return cli_error(p, "option takes no argument", word);
	if (matches > 1) {
		err_msg("ambiguous option: %s (%s)", word, names);
		return CLI_ERROR;
	}
	return cli_error(p, "unknown option", word);
}

static int report_error(struct cli_parser *p, int c)
{
	const char *word = optind > 0 && optind <= p->argc ? p->argv[optind - 1] : "";
	char shortword[3] = { '-', (char)optopt, '\0' };

	if (c == ':') {
		/* a long option's word is the option itself; a short one may be a cluster */
		if (!strncmp(word, "--", 2))
			return cli_error(p, "option needs an argument", word);
		return cli_error(p, "option needs an argument", shortword);
	}
	if (!strncmp(word, "--", 2))
		return report_long_problem(p, word);
	if (optopt && isprint(optopt))
		return cli_error(p, "unknown option", shortword);
	return cli_error(p, "unknown option", word);
}

/* Does the directory PATH is in take a new file? A trial one, removed at once. */
static int dir_takes_files(const char *path)
{
	char trial[PATH_MAX], target[PATH_MAX];
	int fd;

	if (realpath(path, target))
		path = target;	/* a link's file is replaced beside it (fs_write_replace) */
	if ((size_t)snprintf(trial, sizeof(trial), "%s.XXXXXX", path) >= sizeof(trial))
		return -ENAMETOOLONG;
	fd = mkostemp(trial, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(trial);
	return 0;
}

/*
 * Could PATH be created or overwritten? Checked before any work, so that a
 * command refuses a destination it could never write (rtla(1), CONVENTIONS)
 * instead of failing after minutes of it. An existing PATH must be a file we
 * may write; a new one is created and removed at once, because only the
 * kernel knows whether a directory takes it (access() says yes to root in
 * /proc, or on a mount that refuses the name). What no check can foresee (a
 * full disk) is still reported where the file is written. 0 or -errno.
 */
int cli_file_writable(const char *path)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-"))
		return 0;	/* stdout */
	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		if (access(path, W_OK))
			return -errno;
		/* a regular file is replaced whole: a new file beside it, renamed over it */
		return S_ISREG(st.st_mode) ? dir_takes_files(path) : 0;
	}
	if (errno != ENOENT)
		return -errno;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOCTTY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	unlink(path);
	return 0;
}

static int check_destination(const char *option, const char *path)
{
	int ret = cli_file_writable(path);

	if (ret)
		err_msg("%s: %s: %s", option, path, strerror(-ret));
	return ret;
}

/*
 * Upstream rtla takes an optional argument as "-tFILE", "-t=FILE" or as the
 * next word when that word is not an option ("-t FILE"); getopt only knows
 * the first form.
 */
static const char *optional_arg(struct cli_parser *p)
{
	if (optarg)
		return optarg[0] == '=' ? optarg + 1 : optarg;
	if (optind < p->argc && p->argv[optind][0] != '-')
		return p->argv[optind++];
	return NULL;
}

/* --sysroot for a verb that acts on the running kernel: one line naming it; -EROFS */
static int refuse_sysroot(const struct cli_spec *spec)
{
	char what[96];

	snprintf(what, sizeof(what), "rtla %s", spec->command);
	return sysroot_require_live(what);
}

/*
 * The spec of the live-only verb (CLI_VERB_LIVE) that runs: its parser
 * refuses --sysroot once the options are read, so that --help and a usage
 * error are answered as anywhere else, and the refusal comes before the verb
 * reads or writes anything.
 */
static const struct cli_spec *live_verb;

int cli_next(struct cli_parser *p)
{
	const struct cli_option *o;
	int c, longindex = -1;

	c = getopt_long(p->argc, p->argv, p->shortopts, p->longopts, &longindex);
	if (c == -1) {
		p->optind = optind;
		if (p->spec == live_verb && refuse_sysroot(p->spec))
			return CLI_ERROR;
		return CLI_DONE;
	}
	if (c == '?' || c == ':')
		return report_error(p, c);
	o = find_option(p->spec, c);
	if (!o)
		return report_error(p, '?');
	if (longindex >= 0)
		snprintf(p->wordbuf, sizeof(p->wordbuf), "--%s", p->longopts[longindex].name);
	else
		snprintf(p->wordbuf, sizeof(p->wordbuf), "-%c", c);
	p->word = p->wordbuf;
	p->arg = o->arg == CLI_OPT_ARG ? optional_arg(p) : optarg;

	/* -h and -V mean help and version in every command (rtla(1), CONVENTIONS) */
	if (c == CLI_ID_HELP) {
		p->spec->usage(stdout);
		return CLI_EXIT;
	}
	if (c == CLI_ID_VERSION) {
		cli_print_version(stdout);
		return CLI_EXIT;
	}
	if ((o->flags & CLI_FILE) && p->arg) {
		if (!p->arg[0])
			return cli_error(p, p->word, "empty file name");
		if ((o->flags & CLI_NOT_STDOUT) && !strcmp(p->arg, "-"))
			return cli_error(p, p->word,
					 "'-': standard output holds the table: name a file");
		if (p->arg[0] == '-' && p->arg[1]) {
			err_msg("%s: file name starts with '-': '%s' (for a file of that name write ./%s)",
				p->word, p->arg, p->arg);
			return CLI_ERROR;
		}
		if (check_destination(p->word, p->arg))
			return CLI_ERROR;
	}
	return c;
}

void cli_print_version(FILE *f)
{
	fprintf(f, "rtla %s\n", RTLA_VERSION);
}

/*
 * "\n"-separated continuation lines of a help text, each after INDENT. The
 * printer aligns them: blanks a help string puts after its "\n" would only
 * push the line off the column (a tab is a different width in every pager).
 */
static void print_help_text(FILE *f, const char *help, const char *indent)
{
	const char *nl = strchr(help, '\n');

	fprintf(f, "%.*s\n", nl ? (int)(nl - help) : (int)strlen(help), help);
	while (nl) {
		help = nl + 1;
		if (*indent)
			help += strspn(help, " \t");
		nl = strchr(help, '\n');
		fprintf(f, "%s%.*s\n", indent, nl ? (int)(nl - help) : (int)strlen(help), help);
	}
}

static void print_gnu(FILE *f, const struct cli_option *o)
{
	char left[96];
	int n;

	if (o->id < CLI_LONG && o->name)
		n = snprintf(left, sizeof(left), "  -%c, --%s", o->id, o->name);
	else if (o->id < CLI_LONG)
		n = snprintf(left, sizeof(left), "  -%c", o->id);
	else
		n = snprintf(left, sizeof(left), "      --%s", o->name);
	if (o->metavar && n < (int)sizeof(left))
		snprintf(left + n, sizeof(left) - n, o->arg == CLI_OPT_ARG ? "[=%s]" : " %s",
			 o->metavar);
	if (strlen(left) < 24)
		fprintf(f, "%-24s", left);
	else
		fprintf(f, "%s\n%24s", left, "");
	print_help_text(f, o->help, "                        ");
}

/* upstream rtla: "\t  -p/--period us: osnoise period in us" */
static void print_upstream(FILE *f, const struct cli_option *o)
{
	if (o->id < CLI_LONG)
		fprintf(f, "\t  -%c/--%s", o->id, o->name);
	else
		fprintf(f, "\t     --%s", o->name);
	if (o->metavar)
		fprintf(f, " %s", o->metavar);
	fputs(": ", f);
	print_help_text(f, o->help, "");
}

void cli_print_options(const struct cli_spec *spec, FILE *f)
{
	const struct cli_option *o;

	for (o = spec->options; o->id; o++) {
		if (o->flags & CLI_HIDDEN)
			continue;
		if (spec->style == CLI_STYLE_UPSTREAM)
			print_upstream(f, o);
		else
			print_gnu(f, o);
	}
	for (int i = 0; i < 2; i++) {
		o = i ? &builtin_version : &builtin_help;
		if (spec_has(spec, o->id))
			continue;
		if (spec->style == CLI_STYLE_UPSTREAM)
			print_upstream(f, o);
		else
			print_gnu(f, o);
	}
}

/* ---- verbs ---------------------------------------------------------------- */

const struct cli_verb *cli_verb_find(const struct cli_spec *spec, const char *name)
{
	for (const struct cli_verb *v = spec->verbs; v && v->spec; v++)
		if (v->name && !strcmp(v->name, name))
			return v;
	return NULL;
}

void cli_set_prefix(const struct cli_spec *spec)
{
	static char prefix[96];

	snprintf(prefix, sizeof(prefix), "rtla %s: ", spec->command);
	msg_set_prefix(prefix);
}

/* "show, start, stop": the named verbs of SPEC */
static const char *verb_names(const struct cli_spec *spec, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const struct cli_verb *v = spec->verbs; v && v->spec && n < len; v++)
		if (v->name)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", v->name);
	return buf;
}

int cli_unknown_verb(const struct cli_spec *spec, const char *word)
{
	char names[256];

	err_msg("unknown verb: '%s' (verbs: %s)", word, verb_names(spec, names, sizeof(names)));
	return CLI_ERROR;
}

void cli_print_verbs(const struct cli_spec *spec, FILE *f)
{
	for (const struct cli_verb *v = spec->verbs; v && v->spec; v++)
		if (v->name)
			fprintf(f, "  %-10s %s\n", v->name, v->summary);
}

/*
 * Run V, its record named after it ("damos start"): the default verb's
 * record keeps the command's name ("mdwe"), unless its row says CLI_VERB_NAMED.
 */
static int run_verb(const struct cli_verb *v, bool is_default, int argc, char **argv)
{
	if (!is_default || (v->flags & CLI_VERB_NAMED))
		json_set_command(v->spec->command);
	if (!v->fn) {
		/* rows of rows: live for all of them, refused before the next word */
		if ((v->flags & CLI_VERB_LIVE) && refuse_sysroot(v->spec))
			return EXIT_ERROR;
		return cli_run_verbs(v->spec, argc, argv);
	}
	if (v->flags & CLI_VERB_LIVE)
		live_verb = v->spec;
	return v->fn(argc, argv);
}

int cli_run_verbs(const struct cli_spec *spec, int argc, char **argv)
{
	const char *word = argc >= 2 ? argv[1] : NULL;
	const struct cli_verb *v, *def = NULL;
	char names[256];

	for (v = spec->verbs; v->spec; v++)
		if (v->flags & CLI_VERB_DEFAULT)
			def = v;
	if (word && (!strcmp(word, "-h") || !strcmp(word, "--help"))) {
		spec->usage(stdout);
		return EXIT_PASSED;
	}
	if (word && (!strcmp(word, "-V") || !strcmp(word, "--version"))) {
		cli_print_version(stdout);
		return EXIT_PASSED;
	}
	if (word && word[0] != '-') {
		v = cli_verb_find(spec, word);
		if (v) {
			/* the words typed name the messages: "rtla damos show: ..." */
			cli_set_prefix(v->spec);
			return run_verb(v, v == def, argc - 1, argv + 1);
		}
		/* "rtla mdwe 1234": PIDs or CPUs of the default verb */
		if (!def || !isdigit((unsigned char)word[0]) ||
		    (def->spec->positional != CLI_COMP_PIDS && def->spec->positional != CLI_COMP_CPUS)) {
			cli_unknown_verb(spec, word);
			return EXIT_ERROR;
		}
	}
	if (!def) {
		struct cli_parser p;
		int id;

		/* the level's options are still named alike: "rtla damos filter: unknown option" */
		cli_begin(&p, spec, argc, argv);
		while ((id = cli_next(&p)) > 0)
			;
		if (id < 0)
			return id == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
		if (p.optind < argc && cli_verb_find(spec, argv[p.optind]))
			err_msg("the verb comes before the options: rtla %s %s [OPTIONS]",
				spec->command, argv[p.optind]);
		else if (p.optind < argc)
			cli_unknown_verb(spec, argv[p.optind]);
		else
			err_msg("no verb given (verbs: %s)", verb_names(spec, names, sizeof(names)));
		return EXIT_ERROR;
	}
	return run_verb(def, true, argc, argv);
}

/* ---- completion ---------------------------------------------------------- */

static void complete_pids(FILE *out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			fprintf(out, "%s\n", de->d_name);
	closedir(d);
}

/* The online CPUs one by one and as a list, and the words of cpuspec.h whose set is not empty. */
static void complete_cpus(FILE *out)
{
	char list[256], err[PARSE_ERR_MAX];
	cpu_set_t online, set;
	const char *word;
	int last = -1;

	if (sysroot_online_cpus(&online) <= 0)
		return;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &online))
			continue;
		fprintf(out, "%d\n", cpu);
		last = cpu;
	}
	if (last > 0)
		fprintf(out, "%s\n", cpu_list_format(&online, CPU_SETSIZE, list, sizeof(list)));
	for (size_t i = 0; (word = cpuspec_keyword(i)); i++)
		if (!cpuspec_parse(word, CPU_SETSIZE, &set, err) && CPU_COUNT(&set))
			fprintf(out, "%s\n", word);
}

static void complete_words(const char *words, FILE *out)
{
	while (words && *words) {
		size_t len = strcspn(words, " ");

		if (len)
			fprintf(out, "%.*s\n", (int)len, words);
		words += len;
		words += strspn(words, " ");
	}
}

void cli_complete_kind(FILE *out, enum cli_complete kind)
{
	switch (kind) {
	case CLI_COMP_FILE:
		fputs("@file\n", out);
		break;
	case CLI_COMP_DIR:
		fputs("@dir\n", out);
		break;
	case CLI_COMP_PROGRAM:
		fputs("@program\n", out);
		break;
	case CLI_COMP_CPUS:
		complete_cpus(out);
		break;
	case CLI_COMP_PIDS:
		complete_pids(out);
		break;
	case CLI_COMP_NONE:
	case CLI_COMP_WORDS:
	case CLI_COMP_COMMANDS:
	case CLI_COMP_CALL:
		break;		/* they need what only the caller has */
	}
}

bool cli_words_have(const struct cli_completion *c, const char *name)
{
	for (int i = 1; i < c->nwords; i++) {
		if (!strcmp(c->words[i], "--"))
			break;
		if (!strncmp(c->words[i], "--", 2) && !strcmp(c->words[i] + 2, name))
			return true;
	}
	return false;
}

/* The word completed, where it stands, and rtla's commands for CLI_COMP_COMMANDS. */
struct completion {
	FILE *out;
	const char *commands;
	struct cli_completion at;
};

static void complete_value(const struct completion *c, enum cli_complete kind,
			   const char *words, cli_candidates_fn candidates, int nth)
{
	struct cli_completion at = c->at;

	at.nth = nth;
	if (kind == CLI_COMP_WORDS)
		complete_words(words, c->out);
	else if (kind == CLI_COMP_COMMANDS)
		complete_words(c->commands, c->out);
	else if (kind == CLI_COMP_CALL && candidates)
		candidates(c->out, &at);
	else if (kind == CLI_COMP_PROGRAM && nth)
		cli_complete_kind(c->out, CLI_COMP_FILE);	/* the program's arguments */
	else
		cli_complete_kind(c->out, kind);
}

/* Is LINE, a line of the NUL-separated BUF, one of the lines before it? */
static bool seen_before(const char *buf, const char *line)
{
	for (const char *l = buf; l < line; l += strlen(l) + 1)
		if (!strcmp(l, line))
			return true;
	return false;
}

/* Is WORD an item of the first LEN characters of LIST ("+PID,CMD,")? As -o, any case. */
static bool in_list(const char *list, int len, const char *word)
{
	size_t wlen = strlen(word);

	for (const char *p = list + (list[0] == '+'); p < list + len; p += strcspn(p, ",") + 1)
		if (strcspn(p, ",") == wlen && !strncasecmp(p, word, wlen))
			return true;
	return false;
}

/*
 * An item of a comma-separated list: the candidates for the item after the
 * last comma of CUR, with what comes before it ("pid,", "+") in front, so
 * that the shell matches them against the whole word. A later item of a CPU
 * list is a CPU, not a list or a word.
 */
static void complete_list_item(const struct completion *c, const struct cli_option *o,
			       const char *cur)
{
	const char *comma = strrchr(cur, ',');
	int plen = comma ? (int)(comma + 1 - cur) : cur[0] == '+' ? 1 : 0;
	struct completion inner = *c;
	char *buf = NULL, *line, *save;
	size_t len = 0;

	inner.out = open_memstream(&buf, &len);
	if (!inner.out)
		return;
	complete_value(&inner, o->complete, o->words, o->candidates, 0);
	fclose(inner.out);
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (seen_before(buf, line) || in_list(cur, plen, line))
			continue;	/* parport's PORT of --ports and --devices; PID of "PID," */
		if (line[0] == '@' || !plen)
			fprintf(c->out, "%s\n", line);
		else if (o->complete != CLI_COMP_CPUS || strspn(line, "0123456789") == strlen(line))
			fprintf(c->out, "%.*s%s\n", plen, cur, line);
	}
	free(buf);
}

static void complete_options(const struct cli_spec *spec, bool shorts, FILE *out)
{
	for (const struct cli_option *o = spec->options; o->id; o++) {
		if (o->flags & CLI_HIDDEN)
			continue;
		if (shorts && o->id < CLI_LONG)
			fprintf(out, "-%c\n", o->id);
		if (o->name)
			fprintf(out, "--%s\n", o->name);
	}
	if (!spec_has(spec, CLI_ID_HELP))
		fputs(shorts ? "-h\n--help\n" : "--help\n", out);
	if (!spec_has(spec, CLI_ID_VERSION))
		fputs(shorts ? "-V\n--version\n" : "--version\n", out);
}

/* The option a word names when it takes its argument from the next word. */
static const struct cli_option *option_wanting_arg(const struct cli_spec *spec, const char *w)
{
	const struct cli_option *found = NULL;
	int matches = 0;

	if (w[0] != '-' || !w[1] || strchr(w, '='))
		return NULL;
	if (w[1] == '-') {
		size_t len = strlen(w + 2);

		for (const struct cli_option *o = spec->options; o->id; o++) {
			if (!o->name || strncmp(o->name, w + 2, len))
				continue;
			if (strlen(o->name) == len)
				return o->arg == CLI_ARG ? o : NULL;
			found = o;
			matches++;
		}
		return matches == 1 && found->arg == CLI_ARG ? found : NULL;
	}
	/* a short cluster "-qc": the letter that takes an argument must be the last */
	for (const char *c = w + 1; *c; c++) {
		const struct cli_option *o = NULL;

		for (const struct cli_option *s = spec->options; s->id; s++)
			if (s->id == (unsigned char)*c && s->id < CLI_LONG)
				o = s;
		if (!o)
			return NULL;
		if (o->arg != CLI_NO_ARG)
			return !c[1] && o->arg == CLI_ARG ? o : NULL;
	}
	return NULL;
}

static const char *const kind_names[] = {
	[CLI_COMP_NONE] = "none", [CLI_COMP_FILE] = "file", [CLI_COMP_DIR] = "dir",
	[CLI_COMP_CPUS] = "cpus", [CLI_COMP_PIDS] = "pids", [CLI_COMP_WORDS] = "words",
	[CLI_COMP_COMMANDS] = "commands", [CLI_COMP_PROGRAM] = "program", [CLI_COMP_CALL] = "call",
};

void cli_describe(const struct cli_spec *spec, FILE *out)
{
	static const char *const arg_names[] = {
		[CLI_NO_ARG] = "flag", [CLI_ARG] = "value", [CLI_OPT_ARG] = "optional",
	};

	for (const struct cli_verb *v = spec->verbs; v && v->spec; v++)
		if (v->name)
			fprintf(out, "verb %s\n", v->name);
	for (const struct cli_option *o = spec->options; o->id; o++) {
		if (o->flags & CLI_HIDDEN)
			continue;
		if (o->id < CLI_LONG)
			fprintf(out, "option -%c", o->id);
		else
			fputs("option -", out);
		fprintf(out, " --%s %s %s %s%s\n", o->name ? o->name : "-", arg_names[o->arg],
			o->metavar ? o->metavar : "-", kind_names[o->complete],
			o->flags & CLI_LIST ? " list" : "");
	}
	fprintf(out, "positional %s\n", kind_names[spec->positional]);
}

int cli_complete(const struct cli_spec *spec, int cword, int nwords, char **words,
		 const char *commands, FILE *out)
{
	const char *cur = cword < nwords ? words[cword] : "";
	struct completion c = { out, commands, { spec, 0, cword < nwords ? cword : nwords, words } };
	const struct cli_option *o;
	bool options_ended = false;
	int nth = 0;

	if (spec->verbs && cword > 1) {
		const struct cli_verb *v = cli_verb_find(spec, words[1]);

		if (v)
			return cli_complete(v->spec, cword - 1, nwords - 1, words + 1, commands, out);
	}
	/*
	 * The positional words before CWORD: not an option, not an option's
	 * argument ("--cpus" "=" "3" is how bash splits "--cpus=3"). "--" ends
	 * the options, and so does a program's name: its options are its own.
	 */
	for (int i = 1; i < c.at.nwords; i++) {
		const char *w = words[i];

		if (options_ended || w[0] != '-' || !w[1]) {
			nth++;
			options_ended |= spec->positional == CLI_COMP_PROGRAM;
		} else if (!strcmp(w, "--")) {
			options_ended = true;
		} else if (option_wanting_arg(spec, w) && i + 1 < c.at.nwords) {
			i += i + 2 < c.at.nwords && !strcmp(words[i + 1], "=") ? 2 : 1;
		}
	}
	if (!options_ended && cword >= 2) {
		const char *prev = words[cword - 1];

		if (!strcmp(prev, "=") && cword >= 3)
			prev = words[cword - 2];
		o = option_wanting_arg(spec, prev);
		if (o) {
			if (o->flags & CLI_LIST)
				complete_list_item(&c, o, strcmp(cur, "=") ? cur : "");
			else
				complete_value(&c, o->complete, o->words, o->candidates, 0);
			return 0;
		}
	}
	if (!options_ended && cur[0] == '-') {
		complete_options(spec, cur[1] != '-', out);
		return 0;
	}
	if (spec->verbs && cword == 1)
		for (const struct cli_verb *v = spec->verbs; v->spec; v++)
			if (v->name)
				fprintf(out, "%s\n", v->name);
	if (spec->positional != CLI_COMP_NONE)
		complete_value(&c, spec->positional, NULL, spec->candidates, nth);
	else if (!spec->verbs || cword > 1)
		complete_options(spec, false, out);
	return 0;
}

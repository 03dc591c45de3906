// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the option core: getopt tables from a description, the one
 * error line per mistake, help and version, FILE arguments, the optional
 * argument forms, the help lines in both styles, and completion.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "msg.h"
#include "tap.h"

enum { OPT_FILE = CLI_LONG, OPT_NAMES };

static void usage(FILE *f)
{
	fputs("usage: test\n", f);
}

static const struct cli_option options[] = {
	CLI_VALUE('c', "cpus", "CPUS", "CPUs to use", .complete = CLI_COMP_CPUS),
	CLI_FLAG('q', "quiet", "say less"),
	CLI_OPTIONAL('t', "trace", "[file]", "save the trace", .complete = CLI_COMP_FILE),
	CLI_VALUE(OPT_FILE, "json-file", "FILE", "the record", .flags = CLI_FILE,
		  .complete = CLI_COMP_FILE),
	CLI_VALUE(OPT_NAMES, "backend", "NAME", "which one\nsecond line",
		  .complete = CLI_COMP_WORDS, .words = "auto tracer sampler"),
	CLI_FLAG('x', "secret", "not shown", .flags = CLI_HIDDEN),
	CLI_OPT_END
};

static const struct cli_spec spec = {
	.command = "test",
	.options = options,
	.usage = usage,
	.positional = CLI_COMP_NONE,
};

/* A file written beside the table: "-" (stdout) is refused too. */
static const struct cli_option side_options[] = {
	CLI_VALUE(OPT_FILE, "junit", "FILE", "beside the table", .flags = CLI_FILE | CLI_NOT_STDOUT),
	CLI_OPT_END
};

static const struct cli_spec side_spec = {
	.command = "test",
	.options = side_options,
	.usage = usage,
};

/* The spec parse() reads: spec, unless a test names another. */
static const struct cli_spec *parse_spec = &spec;

struct result {
	int ids[16];
	const char *args[16];
	int n;
	int last;	/* CLI_DONE, CLI_EXIT or CLI_ERROR */
	int optind;
	char err[512];
	char out[512];
};

/* Parse the NULL-terminated words after "test" and capture stdout and stderr. */
static struct result *parse(const char *first, ...)
{
	static struct result r;
	static char *argv[32];
	FILE *ferr = tmpfile(), *fout = tmpfile();
	int saved_err = dup(2), saved_out = dup(1), argc = 0, id;
	struct cli_parser p;
	const char *w;
	va_list ap;
	size_t n;

	memset(&r, 0, sizeof(r));
	argv[argc++] = "test";
	va_start(ap, first);
	for (w = first; w && argc < 31; w = va_arg(ap, const char *))
		argv[argc++] = (char *)w;
	va_end(ap);
	argv[argc] = NULL;

	fflush(stdout);
	fflush(stderr);
	dup2(fileno(ferr), 2);
	dup2(fileno(fout), 1);
	cli_begin(&p, parse_spec, argc, argv);
	while ((id = cli_next(&p)) > 0 && r.n < 16) {
		r.ids[r.n] = id;
		r.args[r.n++] = p.arg;
	}
	r.last = id;
	r.optind = p.optind;
	fflush(stdout);
	fflush(stderr);
	dup2(saved_err, 2);
	dup2(saved_out, 1);
	close(saved_err);
	close(saved_out);
	rewind(ferr);
	n = fread(r.err, 1, sizeof(r.err) - 1, ferr);
	r.err[n] = '\0';
	rewind(fout);
	n = fread(r.out, 1, sizeof(r.out) - 1, fout);
	r.out[n] = '\0';
	fclose(ferr);
	fclose(fout);
	return &r;
}

static void test_parse(void)
{
	struct result *r;

	r = parse("-q", "-c", "1-3", "--json-file=r.json", "pos", NULL);
	ok(r->last == CLI_DONE && r->n == 3 && r->ids[0] == 'q' && r->ids[1] == 'c' &&
	   !strcmp(r->args[1], "1-3") && r->ids[2] == OPT_FILE && !strcmp(r->args[2], "r.json"),
	   "options in order with their arguments");
	ok(r->optind == 5, "the positional argument follows");
	r = parse("pos", "--cpus", "0", NULL);
	ok(r->n == 1 && r->ids[0] == 'c' && r->optind == 3, "options after a positional (GNU order)");
	r = parse("--cp", "0", NULL);
	ok(r->n == 1 && r->ids[0] == 'c', "an unambiguous abbreviation");
	r = parse("-qc0", NULL);
	ok(r->n == 2 && r->ids[1] == 'c' && !strcmp(r->args[1], "0"), "a short cluster");

	/* upstream rtla's forms of an optional argument */
	r = parse("-t", NULL);
	ok(r->n == 1 && r->args[0] == NULL, "-t alone: no argument");
	r = parse("-tFILE", NULL);
	ok(r->n == 1 && !strcmp(r->args[0], "FILE"), "-tFILE");
	r = parse("-t=FILE", NULL);
	ok(r->n == 1 && !strcmp(r->args[0], "FILE"), "-t=FILE");
	r = parse("-t", "FILE", NULL);
	ok(r->n == 1 && !strcmp(r->args[0], "FILE") && r->optind == 3, "-t FILE");
	r = parse("--trace", "FILE", NULL);
	ok(r->n == 1 && !strcmp(r->args[0], "FILE"), "--trace FILE");
	r = parse("-t", "-q", NULL);
	ok(r->n == 2 && r->args[0] == NULL && r->ids[1] == 'q', "-t never swallows an option");
	r = parse("--json-file", "-", NULL);
	ok(r->n == 1 && !strcmp(r->args[0], "-"), "a FILE may be - (stdout)");
	r = parse("--json-file", "./-q", NULL);
	ok(r->n == 1 && r->last == CLI_DONE, "./-q names a file that starts with -");
}

static void test_errors(void)
{
	struct result *r;

	msg_set_prefix("rtla test: ");
	r = parse("--bogus", NULL);
	ok(r->last == CLI_ERROR, "unknown long option: an error");
	is_str(r->err, "rtla test: unknown option: --bogus\n", "it is named, on one line");
	r = parse("-Z", NULL);
	is_str(r->err, "rtla test: unknown option: -Z\n", "unknown short option named");
	r = parse("-qZ", NULL);
	is_str(r->err, "rtla test: unknown option: -Z\n", "in a cluster, the unknown letter");
	r = parse("-c", NULL);
	ok(r->last == CLI_ERROR, "a missing value: an error");
	is_str(r->err, "rtla test: option needs an argument: -c\n", "the short option named");
	r = parse("--cpus", NULL);
	is_str(r->err, "rtla test: option needs an argument: --cpus\n", "the long option named");
	r = parse("--quiet=yes", NULL);
	is_str(r->err, "rtla test: option takes no argument: --quiet=yes\n",
	       "a value for a flag");
	r = parse("--s", NULL);
	ok(r->last == CLI_DONE && r->ids[0] == 'x', "a hidden option is still accepted");
	r = parse("--t", NULL);
	ok(r->last == CLI_DONE && r->ids[0] == 't', "--t abbreviates the one option it can");
	r = parse("--j", NULL);
	is_str(r->err, "rtla test: option needs an argument: --j\n", "--j abbreviates --json-file");
	r = parse("--json-file", "-q", NULL);
	ok(r->last == CLI_ERROR, "a FILE that looks like an option: an error");
	ok(strstr(r->err, "--json-file: file name starts with '-': '-q'") &&
	   strstr(r->err, "./-q"), "it says how to name such a file");
	r = parse("--json-file=", NULL);
	ok(r->last == CLI_ERROR && strstr(r->err, "empty file name"), "an empty FILE");

	parse_spec = &side_spec;
	r = parse("--junit", "-", NULL);
	ok(r->last == CLI_ERROR && r->n == 0, "CLI_NOT_STDOUT: - is an error");
	is_str(r->err, "rtla test: --junit: '-': standard output holds the table: name a file\n",
	       "it names the option and the value, on one line");
	r = parse("--junit", "-q", NULL);
	ok(r->last == CLI_ERROR && strstr(r->err, "--junit: file name starts with '-': '-q'"),
	   "CLI_NOT_STDOUT keeps CLI_FILE's checks");
	r = parse("--junit", "./-", NULL);
	ok(r->last == CLI_DONE && r->n == 1 && !strcmp(r->args[0], "./-"),
	   "./- names a file called -");
	parse_spec = &spec;
	msg_set_prefix(NULL);
}

static void test_help_version(void)
{
	struct result *r;

	r = parse("-q", "--help", "--bogus", NULL);
	ok(r->last == CLI_EXIT, "--help ends parsing with CLI_EXIT");
	is_str(r->out, "usage: test\n", "the usage goes to stdout");
	is_str(r->err, "", "nothing on stderr");
	r = parse("-h", NULL);
	ok(r->last == CLI_EXIT && !strcmp(r->out, "usage: test\n"), "-h is --help");
	r = parse("-V", NULL);
	ok(r->last == CLI_EXIT && !strncmp(r->out, "rtla ", 5), "-V prints the version");
	r = parse("--version", NULL);
	ok(r->last == CLI_EXIT && !strcmp(r->out, "rtla " RTLA_VERSION "\n"), "--version");
}

static char *capture_options(const struct cli_spec *s)
{
	static char buf[2048];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	cli_print_options(s, f);
	fclose(f);
	return buf;
}

static void test_help_lines(void)
{
	struct cli_spec upstream = spec;

	is_str(capture_options(&spec),
	       "  -c, --cpus CPUS       CPUs to use\n"
	       "  -q, --quiet           say less\n"
	       "  -t, --trace[=[file]]  save the trace\n"
	       "      --json-file FILE  the record\n"
	       "      --backend NAME    which one\n"
	       "                        second line\n"
	       "  -h, --help            show this help\n"
	       "  -V, --version         show the version\n",
	       "GNU style: aligned, hidden left out, -h and -V added");
	upstream.style = CLI_STYLE_UPSTREAM;
	is_str(capture_options(&upstream),
	       "\t  -c/--cpus CPUS: CPUs to use\n"
	       "\t  -q/--quiet: say less\n"
	       "\t  -t/--trace [file]: save the trace\n"
	       "\t     --json-file FILE: the record\n"
	       "\t     --backend NAME: which one\n"
	       "second line\n"
	       "\t  -h/--help: show this help\n"
	       "\t  -V/--version: show the version\n",
	       "upstream style: rtla's help lines");
}

/* The candidates for word CWORD of the command line that follows (NULL-ended), with SP. */
static char *complete(const struct cli_spec *sp, int cword, ...)
{
	static char buf[4096];
	char *words[16];
	int n = 0;
	va_list ap;
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	va_start(ap, cword);
	while (n < 15 && (words[n] = va_arg(ap, char *)))
		n++;
	va_end(ap);
	cli_complete(sp, cword, n, words, "one two", f);
	fclose(f);
	return buf;
}

/* a list option whose words the command prints (a name twice, as parport's PORT) */
static void list_words(FILE *out, const struct cli_completion *c)
{
	fputs(cli_words_have(c, "more") ? "PID\nPPID\nUSER\nPID\nEXTRA\n" : "PID\nPPID\nUSER\nPID\n",
	      out);
}

static const struct cli_option list_options[] = {
	CLI_VALUE('o', "output", "LIST", "columns", .flags = CLI_LIST, .complete = CLI_COMP_CALL,
		  .candidates = list_words),
	CLI_VALUE('c', "cpus", "CPUS", "CPUs", .flags = CLI_LIST, .complete = CLI_COMP_CPUS),
	CLI_FLAG(OPT_NAMES, "more", "more columns"),
	CLI_OPT_END
};

static const struct cli_spec run_spec = {
	.command = "test run", .options = list_options, .usage = usage,
	.positional = CLI_COMP_PROGRAM,
};

static void test_complete(void)
{
	is_str(complete(&spec, 1, "test", "--", NULL),
	       "--cpus\n--quiet\n--trace\n--json-file\n--backend\n--help\n--version\n",
	       "long options, hidden left out");
	ok(strstr(complete(&spec, 1, "test", "-", NULL), "-c\n--cpus\n-q\n") != NULL, "short and long");
	is_str(complete(&spec, 2, "test", "--backend", "", NULL), "auto\ntracer\nsampler\n",
	       "an option's words");
	is_str(complete(&spec, 3, "test", "--backend", "=", "", NULL), "auto\ntracer\nsampler\n",
	       "--backend= split by bash");
	is_str(complete(&spec, 2, "test", "--json-file", "", NULL), "@file\n", "a FILE: the shell's names");
	is_str(complete(&spec, 2, "test", "-qt", "", NULL), "--cpus\n--quiet\n--trace\n--json-file\n"
	       "--backend\n--help\n--version\n", "an optional argument is not completed");
	ok(strchr(complete(&spec, 2, "test", "-c", "", NULL), '0') != NULL, "CPUs of this machine");
	is_str(complete(&spec, 3, "test", "--", "-c", "", NULL), "--cpus\n--quiet\n--trace\n--json-file\n"
	       "--backend\n--help\n--version\n", "after --, no option takes an argument");

	is_str(complete(&run_spec, 2, "run", "-o", "", NULL), "PID\nPPID\nUSER\n",
	       "a command's words, each once");
	is_str(complete(&run_spec, 2, "run", "-o", "PID,P", NULL), "PID,PPID\nPID,USER\n",
	       "a list's next item: the items before it in front, a chosen one not again"
	       " (the shell keeps those that match)");
	is_str(complete(&run_spec, 2, "run", "-o", "+ppid,", NULL), "+ppid,PID\n+ppid,USER\n",
	       "-o's +LIST: the + kept, an item in any case");
	is_str(complete(&run_spec, 3, "run", "--more", "-o", "", NULL), "PID\nPPID\nUSER\nEXTRA\n",
	       "the words may depend on the flags before");
	is_str(complete(&run_spec, 3, "run", "-o", "=", "PID,U", NULL), "PID,PPID\nPID,USER\n",
	       "--output=PID,U split by bash");
	ok(strstr(complete(&run_spec, 2, "run", "-c", "0,", NULL), "0,") != NULL &&
	   !strstr(complete(&run_spec, 2, "run", "-c", "0,", NULL), "online"),
	   "a CPU list's next item is a CPU, not a word");
	is_str(complete(&run_spec, 1, "run", "", NULL), "@program\n", "a program to run");
	is_str(complete(&run_spec, 2, "run", "ls", "", NULL), "@file\n", "then its arguments");
	is_str(complete(&run_spec, 2, "run", "ls", "-", NULL), "@file\n",
	       "its options are its own, not ours");
	is_str(complete(&run_spec, 3, "run", "-o", "PID", "", NULL), "@program\n",
	       "an option's value is no positional word");
	is_str(complete(&run_spec, 2, "run", "--", "", NULL), "@program\n", "-- before the program");
}

/* ---- verbs as rows ---- */

static char ran[64];
static int ran_argc;

static int verb_fn(int argc, char **argv)
{
	snprintf(ran, sizeof(ran), "%s", argv[0]);
	ran_argc = argc;
	return 0;
}

static void verb_usage(FILE *f)
{
	fputs("usage: a verb\n", f);
}

static const struct cli_spec show_spec = { .command = "test show", .options = options,
					   .usage = verb_usage };
static const struct cli_spec pids_spec = { .command = "test show", .options = options,
					   .usage = verb_usage, .positional = CLI_COMP_PIDS };
static const struct cli_spec add_spec = { .command = "test filter add", .options = options,
					  .usage = verb_usage };
static const struct cli_verb filter_rows[] = {
	CLI_VERB("add", verb_fn, &add_spec, "add one"),
	CLI_VERB_END
};
static const struct cli_spec filter_spec = { .command = "test filter", .options = options,
					     .usage = verb_usage, .verbs = filter_rows };
static const struct cli_verb rows[] = {
	CLI_VERB("show", verb_fn, &show_spec, "show all", .flags = CLI_VERB_DEFAULT),
	CLI_VERB("filter", NULL, &filter_spec, "filters"),
	CLI_VERB_END
};
static const struct cli_verb pid_rows[] = {
	CLI_VERB("show", verb_fn, &pids_spec, "show all", .flags = CLI_VERB_DEFAULT),
	CLI_VERB("run", verb_fn, &show_spec, "run one"),
	CLI_VERB_END
};
static const struct cli_spec verb_spec = { .command = "test", .options = options,
					   .usage = usage, .verbs = rows };
static const struct cli_spec pid_spec = { .command = "test", .options = options,
					  .usage = usage, .verbs = pid_rows };

/* Dispatch "test WORDS..." on SPEC; stderr into ERR, the status returned. */
static int dispatch(const struct cli_spec *sp, char *err, size_t len, ...)
{
	char *argv[16] = { "test" };
	FILE *ferr = tmpfile();
	int saved = dup(2), argc = 1, ret;
	size_t n;
	va_list ap;

	va_start(ap, len);
	while (argc < 15 && (argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	ran[0] = '\0';
	msg_set_prefix("rtla test: ");
	dup2(fileno(ferr), 2);
	ret = cli_run_verbs(sp, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(ferr);
	n = fread(err, 1, len - 1, ferr);
	err[n] = '\0';
	fclose(ferr);
	return ret;
}

static void test_verbs(void)
{
	char err[256];

	is_int(dispatch(&verb_spec, err, sizeof(err), "filter", "add", "x", NULL), 0,
	       "a verb of a verb runs");
	is_str(ran, "add", "its row's function, argv[0] the verb");
	is_int(ran_argc, 2, "with the words after it");
	is_int(dispatch(&verb_spec, err, sizeof(err), "-q", NULL), 0, "an option first: the default");
	is_str(ran, "test", "the default gets the command's argv");
	is_int(dispatch(&verb_spec, err, sizeof(err), NULL), 0, "no word: the default");
	is_str(ran, "test", "the default ran");
	is_int(dispatch(&verb_spec, err, sizeof(err), "shwo", NULL), 1, "an unknown verb: exit 1");
	is_str(err, "rtla test: unknown verb: 'shwo' (verbs: show, filter)\n", "the one line");
	is_str(ran, "", "nothing ran");
	is_int(dispatch(&verb_spec, err, sizeof(err), "filter", "ad", NULL), 1, "unknown below");
	is_str(err, "rtla test filter: unknown verb: 'ad' (verbs: add)\n",
	       "the prefix names the verb typed");
	is_int(dispatch(&verb_spec, err, sizeof(err), "filter", NULL), 1, "no verb where none is default");
	is_str(err, "rtla test filter: no verb given (verbs: add)\n", "says so, with the verbs");
	is_int(dispatch(&verb_spec, err, sizeof(err), "1234", NULL), 1,
	       "a number is no verb where the default takes no PIDs");
	is_int(dispatch(&pid_spec, err, sizeof(err), "1234", NULL), 0,
	       "a number goes to a default that takes PIDs");
	is_str(ran, "test", "the default with its PID");
	is_int(dispatch(&pid_spec, err, sizeof(err), "frob", NULL), 1, "a word does not");
	is_str(err, "rtla test: unknown verb: 'frob' (verbs: show, run)\n", "the one line");
	ok(cli_verb_find(&verb_spec, "filter") == &rows[1], "cli_verb_find");
	ok(cli_verb_find(&verb_spec, "add") == NULL, "only its own level");
}

int main(void)
{
	test_parse();
	test_errors();
	test_help_version();
	test_help_lines();
	test_complete();
	test_verbs();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * capture - the command: options, the destination's checks, the report.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "cli.h"
#include "commands.h"
#include "json.h"
#include "msg.h"
#include "output.h"
#include "parse.h"
#include "util.h"

#define MAX_EXCLUDES 64
#define DEFAULT_MAX_SIZE (256ULL << 20)

enum { OPT_EXCLUDE = CLI_LONG, OPT_MAX_SIZE, OPT_DRY_RUN, OPT_PIDS };
#define MAX_PIDS 1024

static void usage(FILE *f);

static void column_names(FILE *out, const struct cli_completion *c);

static const struct cli_option options[] = {
	CLI_VALUE('x', "exclude", "PATTERN", "leave out the paths PATTERN matches (a glob of\n"
		  "the live path, e.g. '/proc/*/maps'; a directory leaves out all below it);\n"
		  "repeatable"),
	CLI_VALUE(OPT_MAX_SIZE, "max-size", "SIZE", "fail rather than capture more than SIZE\n"
		  "bytes (K, M, G suffixes; default 256M)"),
	CLI_VALUE(OPT_PIDS, "pids", "LIST", "of the processes, only these (comma-separated PIDs)",
		  .flags = CLI_LIST, .complete = CLI_COMP_PIDS),
	CLI_FLAG(OPT_DRY_RUN, "dry-run", "read everything and report the sizes, write nothing"),
	CLI_FLAG('D', "debug", "name on stderr each file that could not be read"),
	OUT_CLI_OPTIONS(column_names),
	CLI_OPT_HELP("show this help"),
	CLI_OPT_VERSION("show the version"),
	CLI_OPT_END
};

const struct cli_spec capture_cli = {
	.command = "capture",
	.options = options,
	.usage = usage,
	.positional = CLI_COMP_FILE,
};

enum { COL_SOURCE, COL_FILES, COL_BYTES, COL_EXCLUDED, COL_UNREADABLE, COL_NOTE };

static const struct out_column cols[] = {
	[COL_SOURCE]	 = { "SOURCE", "source", OUT_STR, 10, 0,
			     "processes, kernel, damon, parport, cpu, tracing, files, total" },
	[COL_FILES]	 = { "FILES", "files", OUT_NUM, 6, OUT_RIGHT, "files and links captured" },
	[COL_BYTES]	 = { "BYTES", "bytes", OUT_NUM, 10, OUT_RIGHT, "their size" },
	[COL_EXCLUDED]	 = { "EXCLUDED", "excluded", OUT_NUM, 8, OUT_RIGHT,
			     "paths --exclude left out" },
	[COL_UNREADABLE] = { "UNREADABLE", "unreadable", OUT_NUM, 10, OUT_RIGHT,
			     "files the kernel would not give (write-only, busy, too big);\n"
			     "-J lists them, -D names each" },
	[COL_NOTE]	 = { "NOTE", "note", OUT_STR, 0.3, OUT_WRAP, "what else to know" },
};
#define NCOLS ARRAY_SIZE(cols)

static void column_names(FILE *out, const struct cli_completion *c)
{
	out_column_names(out, cols, NCOLS);
}

static void usage(FILE *f)
{
	fputs("Usage: rtla capture [OPTIONS] DIR|FILE.tar.gz [PATH...]\n\n"
	      "Copy from this machine what the read-only commands read (processes'\n"
	      "status, cmdline, stat and maps; cap_last_cap; the DAMON tree; parport and\n"
	      "pata_parport state; CPU topology and frequencies; tracefs' tracers, the\n"
	      "osnoise directory and event formats; the kernel release and config), so\n"
	      "that 'rtla --sysroot DIR COMMAND' works on another machine. Each PATH\n"
	      "(a file, or the files in a directory) is captured empty, with its\n"
	      "security xattrs, for 'rtla --sysroot DIR capdump --files PATH'.\n\n"
	      "DIR must not exist or be empty. Nothing is named DIR (or FILE.tar.gz)\n"
	      "until the whole capture is written; a failed capture leaves nothing.\n"
	      "No environment, memory, keys or file contents are ever copied.\n\n"
	      "Options:\n", f);
	cli_print_options(&capture_cli, f);
	out_usage(f, cols, NCOLS);
	fputs("\nSee rtla-capture(1).\n", f);
}

/* "256M", "1G", "4096": bytes. */
static int parse_size(const char *s, uint64_t *bytes, char *err)
{
	static const char units[] = "KMG";
	char num[32];
	long long v;
	size_t len = strlen(s);
	int shift = 0;
	const char *u;

	if (len && (u = strchr(units, s[len - 1])) && *u) {
		shift = 10 * (int)(u - units + 1);
		len--;
	}
	if (!len || len >= sizeof(num)) {
		snprintf(err, PARSE_ERR_MAX, "'%s' is not a size (e.g. 64M)", s);
		return -EINVAL;
	}
	memcpy(num, s, len);
	num[len] = '\0';
	if (parse_llong(num, 1, LLONG_MAX >> shift, &v, err)) {
		snprintf(err, PARSE_ERR_MAX, "'%s' is not a size (e.g. 64M)", s);
		return -EINVAL;
	}
	*bytes = (uint64_t)v << shift;
	return 0;
}

struct capture_opts {
	const char *excludes[MAX_EXCLUDES];
	int nexcludes;
	int pids[MAX_PIDS];
	int npids;
	uint64_t max_size;
	bool dry_run;
	struct out_opts out;
	const char *dest;
	char *const *files;
	int nfiles;
};

/* A process of that PID exists (one of another user's answers EPERM). */
static bool pid_alive(int pid)
{
	return !kill(pid, 0) || errno == EPERM;
}

/*
 * "1,2,812": each a PID of a live process; added to those of an earlier
 * --pids. A PID that names no process would capture nothing of it, silently.
 */
static int parse_pids(const char *list, struct capture_opts *o, char *err)
{
	const char *s = list;

	do {
		size_t len = strcspn(s, ",");
		char word[16];
		long long pid;

		if (!len || len >= sizeof(word) || o->npids == MAX_PIDS) {
			snprintf(err, PARSE_ERR_MAX, "'%s' is not a list of PIDs", list);
			return -EINVAL;
		}
		memcpy(word, s, len);
		word[len] = '\0';
		if (parse_llong(word, 1, INT_MAX, &pid, err)) {
			snprintf(err, PARSE_ERR_MAX, "'%s' is not a PID", word);
			return -EINVAL;
		}
		if (!pid_alive(pid)) {
			snprintf(err, PARSE_ERR_MAX, "no such process: %lld", pid);
			return -ESRCH;
		}
		o->pids[o->npids++] = pid;
		s += len;
	} while (*s++ == ',');
	return 0;
}

static const char *foreign_archive(const char *dest);

static int parse_args(int argc, char **argv, struct capture_opts *o)
{
	char err[PARSE_ERR_MAX];
	struct cli_parser p;
	int id;

	memset(o, 0, sizeof(*o));
	o->max_size = DEFAULT_MAX_SIZE;
	cli_begin(&p, &capture_cli, argc, argv);
	while ((id = cli_next(&p)) > 0) {
		if (out_parse_opt(id, p.arg, &o->out))
			continue;
		switch (id) {
		case 'x':
			if (!p.arg[0])
				return cli_error(&p, p.word, "empty pattern");
			if (o->nexcludes == MAX_EXCLUDES)
				return cli_error(&p, p.word, "too many patterns (64 at most)");
			o->excludes[o->nexcludes++] = p.arg;
			break;
		case OPT_MAX_SIZE:
			if (parse_size(p.arg, &o->max_size, err))
				return cli_error(&p, p.word, err);
			break;
		case OPT_DRY_RUN:
			o->dry_run = true;
			break;
		case 'D':
			msg_set_debug(true);
			break;
		case OPT_PIDS:
			if (parse_pids(p.arg, o, err))
				return cli_error(&p, p.word, err);
			break;
		}
	}
	if (id < 0)
		return id;
	if (p.optind >= argc)
		return cli_usage_error(&capture_cli, "no destination given (DIR or FILE.tar.gz)",
				       NULL);
	o->dest = argv[p.optind];
	o->files = argv + p.optind + 1;
	o->nfiles = argc - p.optind - 1;
	if (!o->dest[0])
		return cli_usage_error(&capture_cli, "empty destination", "''");
	if (foreign_archive(o->dest)) {
		err_msg("not an archive rtla writes (it writes DIR or FILE.tar.gz): '%s'", o->dest);
		return CLI_ERROR;
	}
	for (int i = 0; i < o->nfiles; i++)
		if (!o->files[i][0])
			return cli_usage_error(&capture_cli, "empty path", "''");
	return 0;
}

static bool ends_with(const char *s, const char *suffix, bool nocase)
{
	size_t len = strlen(s), slen = strlen(suffix);

	if (len <= slen)
		return false;
	return nocase ? !strcasecmp(s + len - slen, suffix) : !strcmp(s + len - slen, suffix);
}

static bool is_tarball(const char *dest)
{
	return ends_with(dest, ".tar.gz", false) || ends_with(dest, ".tgz", false);
}

/*
 * A name that promises an archive rtla does not write ("out.tar", "out.zip",
 * "OUT.TAR.GZ"): as a directory of that name it would mislead whoever
 * unpacks it, so it is refused. NULL, or the suffix that was asked for.
 */
static const char *foreign_archive(const char *dest)
{
	static const char *const suffixes[] = {
		".tar", ".tar.xz", ".tar.bz2", ".tar.zst", ".tar.lz", ".tar.lz4", ".tar.lzma",
		".tar.gz", ".tgz", ".txz", ".tbz", ".tbz2", ".tzst", ".zip", ".7z", ".rar",
		".cpio", ".gz", ".xz", ".bz2", ".zst", ".lz4", ".lzma",
	};
	char name[PATH_MAX];
	size_t len;

	if (is_tarball(dest))
		return NULL;
	/* "out.tar/" is the directory "out.tar" */
	snprintf(name, sizeof(name), "%s", dest);
	for (len = strlen(name); len > 1 && name[len - 1] == '/'; )
		name[--len] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends_with(name, suffixes[i], true))
			return suffixes[i];
	return NULL;
}

/* A destination may be new, or an empty directory (not for a tarball). */
static int check_dest(const char *dest, bool tar)
{
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (lstat(dest, &st)) {
		if (errno == ENOENT)
			return 0;
		err_msg("%s: %s", dest, strerror(errno));
		return -errno;
	}
	if (tar || !S_ISDIR(st.st_mode)) {
		err_msg("%s: already exists", dest);
		return -EEXIST;
	}
	d = opendir(dest);
	if (!d) {
		err_msg("%s: %s", dest, strerror(errno));
		return -errno;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			break;
	closedir(d);
	if (de) {
		err_msg("%s: directory is not empty", dest);
		return -ENOTEMPTY;
	}
	return 0;
}

/* Can DEST's directory take new entries? For --dry-run, which creates none. */
static int check_writable(const char *dest)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", dest);
	while ((slash = strrchr(dir, '/')) && slash != dir && !slash[1])
		*slash = '\0';	/* "out/": its parent is that of "out" */
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	if (access(dir, W_OK | X_OK)) {
		err_msg("%s: cannot create the capture next to it: %s", dest, strerror(errno));
		return -errno;
	}
	return 0;
}

static void write_json_sources(struct json *j, const struct capture_ctx *ctx)
{
	uint64_t files = 0, bytes = 0;

	json_array_begin(j, "sources");
	for (int s = 0; s < CAPTURE_NR_SOURCES; s++) {
		const struct capture_stats *st = &ctx->stats[s];

		json_object_begin(j, NULL);
		json_str(j, "source", capture_source_names[s]);
		json_u64(j, "files", st->files);
		json_u64(j, "bytes", st->bytes);
		json_u64(j, "excluded", st->excluded);
		json_u64(j, "unreadable", st->unreadable + st->too_big);
		json_str(j, "note", st->note[0] ? st->note : NULL);
		json_object_end(j);
		files += st->files;
		bytes += st->bytes;
	}
	json_array_end(j);
	json_u64(j, "files", files);
	json_u64(j, "bytes", bytes);
}

/* What UNREADABLE counts, path by path: in the report's record and the manifest. */
static void write_json_unreadable(struct json *j, const struct capture_ctx *ctx)
{
	json_array_begin(j, "unreadable");
	for (size_t i = 0; i < ctx->nunreadable; i++) {
		const struct capture_unreadable *u = &ctx->unreadable[i];

		json_object_begin(j, NULL);
		json_str(j, "source", capture_source_names[u->src]);
		json_str(j, "path", u->path);
		json_str(j, "error", strerror(u->err));
		json_object_end(j);
	}
	json_array_end(j);
}

/* The manifest: the record of what was captured, written last. */
static char *manifest(const struct capture_ctx *ctx, const struct capture_opts *o, size_t *len)
{
	static const char *const left_out[] = {
		"/proc/PID/environ", "/proc/PID/mem", "/proc/PID/pagemap", "/proc/PID/fd",
		"/proc/kcore", "/proc/keys", "file contents",
	};
	char *buf = NULL;
	struct json j;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	json_init(&j, f);
	json_record_begin(&j, 1);
	json_bool(&j, "complete", true);
	json_array_begin(&j, "excludes");
	for (int i = 0; i < o->nexcludes; i++)
		json_str(&j, NULL, o->excludes[i]);
	json_array_end(&j);
	json_array_begin(&j, "pids");
	for (int i = 0; i < o->npids; i++)
		json_i64(&j, NULL, o->pids[i]);
	json_array_end(&j);
	json_array_begin(&j, "paths");
	for (int i = 0; i < o->nfiles; i++)
		json_str(&j, NULL, o->files[i]);
	json_array_end(&j);
	json_array_begin(&j, "never_captured");
	for (size_t i = 0; i < ARRAY_SIZE(left_out); i++)
		json_str(&j, NULL, left_out[i]);
	json_array_end(&j);
	write_json_sources(&j, ctx);
	write_json_unreadable(&j, ctx);
	json_object_end(&j);
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct report_record {
	struct out_table *t;
	const struct capture_ctx *ctx;
};

/* The report's record body: the table's rows, then the files UNREADABLE counts. */
static int write_report_record(struct json *j, const void *arg)
{
	const struct report_record *rec = arg;
	int ret = out_table_json(rec->t, j);

	write_json_unreadable(j, rec->ctx);
	return ret;
}

static int report(const struct capture_ctx *ctx, const struct capture_opts *o,
		  struct out_record *rec)
{
	struct stats_sum { uint64_t files, bytes, excluded, unreadable; } sum = { 0 };
	char err[PARSE_ERR_MAX];
	struct out_opts table = o->out;
	struct out_table *t;
	int ret;

	/* the record is the table's and the list of unreadable files: ours */
	table.json = false;
	table.json_file = NULL;
	ret = out_table_new(&t, "sources", cols, NCOLS,
			    "SOURCE,FILES,BYTES,EXCLUDED,UNREADABLE,NOTE", &table, err);
	if (ret) {
		err_msg("-o: %s", ret == -EINVAL ? err : strerror(-ret));
		return EXIT_ERROR;
	}
	for (int s = 0; s <= CAPTURE_NR_SOURCES; s++) {
		const struct capture_stats *st = &ctx->stats[s < CAPTURE_NR_SOURCES ? s : 0];
		struct out_row *r = out_row_add(t);
		uint64_t unreadable = st->unreadable + st->too_big;

		if (s == CAPTURE_NR_SOURCES) {
			out_set_str(r, COL_SOURCE, "total");
			out_set_u64(r, COL_FILES, sum.files);
			out_set_u64(r, COL_BYTES, sum.bytes);
			out_set_u64(r, COL_EXCLUDED, sum.excluded);
			out_set_u64(r, COL_UNREADABLE, sum.unreadable);
			out_set_str(r, COL_NOTE, o->dry_run ? "dry run: nothing written" : o->dest);
			break;
		}
		out_set_str(r, COL_SOURCE, capture_source_names[s]);
		out_set_u64(r, COL_FILES, st->files);
		out_set_u64(r, COL_BYTES, st->bytes);
		out_set_u64(r, COL_EXCLUDED, st->excluded);
		out_set_u64(r, COL_UNREADABLE, unreadable);
		if (st->note[0])
			out_set_str(r, COL_NOTE, st->note);
		else if (st->too_big)
			out_set_fmt(r, COL_NOTE, "%llu files over 64 MiB left out",
				    (unsigned long long)st->too_big);
		else
			out_set_none(r, COL_NOTE);
		sum.files += st->files;
		sum.bytes += st->bytes;
		sum.excluded += st->excluded;
		sum.unreadable += unreadable;
	}
	ret = o->out.json ? 0 : out_table_print(t);
	if (!ret)
		ret = out_record_write(rec, 1, write_report_record,
				       &(struct report_record){ t, ctx });
	out_table_free(t);
	return ret ? EXIT_ERROR : EXIT_PASSED;
}

int cmd_capture(int argc, char **argv)
{
	struct capture_opts o;
	struct capture_ctx ctx = { 0 };
	struct out_record rec;
	const char *what = "";
	char *man = NULL;
	size_t man_len = 0;
	bool tar;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == CLI_EXIT ? EXIT_PASSED : EXIT_ERROR;
	tar = is_tarball(o.dest);
	if (check_dest(o.dest, tar))
		return EXIT_ERROR;
	for (int i = 0; i < o.nfiles; i++) {
		struct stat st;

		if (stat(o.files[i], &st)) {
			err_msg("%s: %s", o.files[i], strerror(errno));
			return EXIT_ERROR;
		}
	}
	if (out_record_open(&rec, o.out.json, o.out.json_file))
		return EXIT_ERROR;
	if (o.dry_run)
		ret = check_writable(o.dest);
	else
		ret = tar ? capture_sink_tar_new(&ctx.sink, o.dest, &what) :
			    capture_sink_dir_new(&ctx.sink, o.dest, &what);
	if (ret) {
		if (!o.dry_run)
			err_msg("%s: %s%s%s", o.dest, what, *what ? ": " : "", strerror(-ret));
		out_record_abandon(&rec);
		return EXIT_ERROR;
	}
	ctx.excludes = o.excludes;
	ctx.nexcludes = o.nexcludes;
	ctx.pids = o.pids;
	ctx.npids = o.npids;
	ctx.max_size = o.max_size;
	ret = capture_all(&ctx, o.files, o.nfiles);
	if (!ret && ctx.sink) {
		man = manifest(&ctx, &o, &man_len);
		ret = man ? capture_sink_finish(ctx.sink, man, man_len) : -ENOMEM;
		if (!man)
			capture_sink_abort(ctx.sink);
		ctx.sink = NULL;
		if (ret && !ctx.err_path[0])
			snprintf(ctx.err_path, sizeof(ctx.err_path), "%s", CAPTURE_MANIFEST);
	}
	free(man);
	if (ret) {
		capture_sink_abort(ctx.sink);
		if (ret == -EFBIG && ctx.total > ctx.max_size)
			err_msg("%s: the capture would pass --max-size %llu bytes (at %s); "
				"nothing was written", o.dest, (unsigned long long)ctx.max_size,
				ctx.err_path);
		else
			err_msg("%s: %s (at %s); nothing was written", o.dest, strerror(-ret),
				ctx.err_path);
		capture_ctx_free(&ctx);
		out_record_abandon(&rec);
		return EXIT_ERROR;
	}
	ret = report(&ctx, &o, &rec);
	out_record_abandon(&rec);
	capture_ctx_free(&ctx);
	return ret;
}

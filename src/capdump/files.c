// SPDX-License-Identifier: GPL-2.0-only
/*
 * files - file capabilities: the security.capability xattr of each file.
 *
 * The value is decoded here from its bytes (all 64 bits of both sets, the
 * effective flag, the revision and a v3 rootid, which libcap's cap_t does not
 * keep together), then handed to libcap as a second opinion: its text form
 * ("cap_net_raw=ep", as getcap prints it) is a column, and its idea of the
 * rootid must match ours.
 *
 * With --sysroot DIR a PATH is looked for under DIR (where rtla capture put
 * the files named on its command line) and shown as the PATH given.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/xattr.h>

#include <linux/magic.h>
#include <sys/capability.h>

#include "capdump/capdump.h"
#include "commands.h"
#include "msg.h"
#include "parse.h"
#include "sysroot.h"
#include "util.h"

#define XATTR_CAPS "security.capability"

enum {
	FCOL_PATH, FCOL_VERSION, FCOL_ROOTID, FCOL_EFFECTIVE, FCOL_CAPPRM, FCOL_CAPINH,
	FCOL_PRM_NAMES, FCOL_INH_NAMES, FCOL_TEXT, FCOL_NOTE,
};

const struct out_column capdump_file_cols[] = {
	[FCOL_PATH]	 = { "PATH", "path", OUT_STR, 0.3, OUT_WRAP, "file name" },
	[FCOL_VERSION]	 = { "VERSION", "version", OUT_NUM, 1, OUT_RIGHT,
			     "security.capability revision: 1, 2, or 3 (with a rootid)" },
	[FCOL_ROOTID]	 = { "ROOTID", "rootid", OUT_NUM, 5, OUT_RIGHT,
			     "v3: the UID that is root of the namespace the capabilities apply in" },
	[FCOL_EFFECTIVE] = { "EFFECTIVE", "effective", OUT_BOOL, 3, 0,
			     "effective flag: permitted capabilities become effective at exec" },
	[FCOL_CAPPRM]	 = { "CAPPRM", "cap_prm", OUT_STR, 16, 0, "permitted set, u64 in hex" },
	[FCOL_CAPINH]	 = { "CAPINH", "cap_inh", OUT_STR, 16, 0, "inheritable set, u64 in hex" },
	[FCOL_PRM_NAMES] = { "PRM_NAMES", "prm_names", OUT_STR, 0.2, OUT_WRAP,
			     "permitted set, capability names" },
	[FCOL_INH_NAMES] = { "INH_NAMES", "inh_names", OUT_STR, 0.2, OUT_WRAP,
			     "inheritable set, capability names" },
	[FCOL_TEXT]	 = { "TEXT", "text", OUT_STR, 0.2, OUT_WRAP,
			     "libcap's text form, as getcap prints it" },
	[FCOL_NOTE]	 = { "NOTE", "note", OUT_STR, 0.2, OUT_WRAP,
			     "what could not be read, or disagrees" },
};
const size_t capdump_file_ncols = ARRAY_SIZE(capdump_file_cols);

static const char default_cols[] = "PATH,VERSION,ROOTID,EFFECTIVE,CAPPRM,CAPINH,NOTE";
static const char names_cols[] = "PATH,VERSION,ROOTID,EFFECTIVE,PRM_NAMES,INH_NAMES,NOTE";

struct file_scan {
	struct capdump_ctx *ctx;
	struct out_table *t;
	size_t rows;		/* added to t */
	size_t checked;		/* files whose attribute was asked for */
	size_t skipped_dirs;	/* directories below a PATH, left alone without -R */
	size_t root_len;	/* of the --sysroot prefix of every path, not shown */
	char path[PATH_MAX];
};

static struct out_row *note_row(struct file_scan *fs, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct out_row *note_row(struct file_scan *fs, const char *path, const char *fmt, ...)
{
	struct out_row *r = out_row_add(fs->t);
	char note[CAPDUMP_NOTE_MAX];
	va_list ap;

	if (r)
		fs->rows++;
	out_set_str(r, FCOL_PATH, path + fs->root_len);
	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(note, sizeof(note), fmt, ap);
		va_end(ap);
		out_set_str(r, FCOL_NOTE, note);
	}
	return r;
}

/* libcap's reading of the same file: its text, and whether it agrees on the rootid. */
static void libcap_view(struct out_row *r, const char *path, const struct capdump_fcaps *fc,
			char *note, size_t len)
{
	cap_t c = cap_get_file(path);
	char *text;
	uid_t owner;

	if (!c) {
		snprintf(note, len, "libcap cannot read it: %s", strerror(errno));
		return;
	}
	text = cap_to_text(c, NULL);
	if (text) {
		out_set_str(r, FCOL_TEXT, text);
		cap_free(text);
	}
	owner = cap_get_nsowner(c);
	if (fc->has_rootid && owner != (uid_t)fc->rootid)
		snprintf(note, len, "libcap reads rootid %u", (unsigned)owner);
	cap_free(c);
}

static void check_file(struct file_scan *fs, const char *path, bool follow)
{
	unsigned char val[64];
	char buf[CAPDUMP_NAMES_MAX], err[PARSE_ERR_MAX];
	char note[CAPDUMP_NOTE_MAX] = "", libcap_note[CAPDUMP_NOTE_MAX] = "";
	struct capdump_fcaps fc;
	struct out_row *r;
	ssize_t n;

	fs->checked++;
	n = follow ? getxattr(path, XATTR_CAPS, val, sizeof(val)) :
		     lgetxattr(path, XATTR_CAPS, val, sizeof(val));
	if (n < 0) {
		if (errno == ENODATA || errno == ENOTSUP) {
			if (fs->ctx->opt->all)
				note_row(fs, path, NULL);
		} else if (errno == ERANGE) {
			note_row(fs, path, XATTR_CAPS " is larger than any known revision");
		} else {
			note_row(fs, path, "cannot read " XATTR_CAPS ": %s", strerror(errno));
		}
		return;
	}
	if (capdump_xattr_parse(val, n, &fc, err)) {
		note_row(fs, path, XATTR_CAPS ": %s", err);
		return;
	}
	r = note_row(fs, path, NULL);
	out_set_u64(r, FCOL_VERSION, fc.version);
	if (fc.has_rootid)
		out_set_u64(r, FCOL_ROOTID, fc.rootid);
	out_set_bool(r, FCOL_EFFECTIVE, fc.effective);
	out_set_str(r, FCOL_CAPPRM, capdump_fmt_set(fc.prm, buf));
	out_set_str(r, FCOL_CAPINH, capdump_fmt_set(fc.inh, buf));
	if (out_column_shown(fs->t, FCOL_PRM_NAMES))
		capdump_set_names_cell(fs->ctx, r, FCOL_PRM_NAMES, fc.prm);
	if (out_column_shown(fs->t, FCOL_INH_NAMES))
		capdump_set_names_cell(fs->ctx, r, FCOL_INH_NAMES, fc.inh);
	if (fc.flags)
		snprintf(note, sizeof(note), "unknown flags 0x%06x", fc.flags);
	else if ((fc.prm | fc.inh) & ~fs->ctx->known)
		snprintf(note, sizeof(note), "bits above cap_last_cap");
	libcap_view(r, path, &fc, libcap_note, sizeof(libcap_note));
	if (note[0] && libcap_note[0])
		out_set_fmt(r, FCOL_NOTE, "%s; %s", note, libcap_note);
	else if (note[0] || libcap_note[0])
		out_set_str(r, FCOL_NOTE, note[0] ? note : libcap_note);
}

/* Pseudo file systems hold no file capabilities and can be huge or endless. */
static bool pseudo_fs(const char *path)
{
	static const unsigned long skip[] = {
		PROC_SUPER_MAGIC, SYSFS_MAGIC, CGROUP_SUPER_MAGIC, CGROUP2_SUPER_MAGIC,
		DEBUGFS_MAGIC, TRACEFS_MAGIC, SECURITYFS_MAGIC, DEVPTS_SUPER_MAGIC,
		BPF_FS_MAGIC, PSTOREFS_MAGIC, EFIVARFS_MAGIC, SELINUX_MAGIC, SMACK_MAGIC,
		BINFMTFS_MAGIC, NSFS_MAGIC,
	};
	struct statfs sf;

	if (statfs(path, &sf))
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(skip); i++)
		if ((unsigned long)sf.f_type == skip[i])
			return true;
	return false;
}

struct entry {
	char *name;
	unsigned char type;
};

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

/* The entries of the directory at fs->path, sorted so that audits diff cleanly. */
static struct entry *read_dir(struct file_scan *fs, size_t *nr)
{
	struct entry *ents = NULL, *e;
	size_t cap = 0;
	struct dirent *de;
	DIR *d;

	*nr = 0;
	d = opendir(fs->path);
	if (!d) {
		note_row(fs, fs->path, "cannot open directory: %s", strerror(errno));
		return NULL;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (*nr == cap) {
			cap = cap ? cap * 2 : 64;
			e = realloc(ents, cap * sizeof(*e));
			if (!e)
				break;
			ents = e;
		}
		ents[*nr].name = strdup(de->d_name);
		if (!ents[*nr].name)
			break;
		ents[(*nr)++].type = de->d_type;
	}
	closedir(d);
	if (*nr)
		qsort(ents, *nr, sizeof(*ents), cmp_entry);
	return ents;
}

/*
 * fs->path is a directory of length len on device dev. Its entries are read
 * and the directory closed before descending, so depth costs no descriptors.
 */
static void walk(struct file_scan *fs, size_t len, dev_t dev)
{
	size_t nr;
	struct entry *ents = read_dir(fs, &nr);

	for (size_t i = 0; i < nr; i++) {
		const char *sep = fs->path[len - 1] == '/' ? "" : "/";
		unsigned char type = ents[i].type;
		struct stat sb;
		int n;

		n = snprintf(fs->path + len, sizeof(fs->path) - len, "%s%s", sep, ents[i].name);
		if (n < 0 || (size_t)n >= sizeof(fs->path) - len) {
			fs->path[len] = '\0';
			note_row(fs, fs->path, "an entry's path is longer than PATH_MAX: %s",
				 ents[i].name);
			continue;
		}
		if (type == DT_UNKNOWN || type == DT_DIR) {
			if (lstat(fs->path, &sb))
				continue;	/* removed since the listing */
			type = S_ISDIR(sb.st_mode) ? DT_DIR : S_ISREG(sb.st_mode) ? DT_REG : DT_UNKNOWN;
		}
		if (type == DT_REG)
			check_file(fs, fs->path, false);
		else if (type == DT_DIR && !fs->ctx->opt->recursive)
			fs->skipped_dirs++;
		else if (type == DT_DIR && fs->ctx->opt->recursive &&
			 (sb.st_dev == dev || !pseudo_fs(fs->path)))
			walk(fs, len + n, sb.st_dev);
	}
	fs->path[len] = '\0';
	for (size_t i = 0; i < nr; i++)
		free(ents[i].name);
	free(ents);
}

/*
 * Nothing to show: say why on stderr (see proc.c's explain_empty()). one is
 * the PATH when a single one could be looked at, and is_dir says what it is.
 */
static void explain_empty(const struct file_scan *fs, int looked, const char *one, bool is_dir)
{
	char where[PATH_MAX + 16], hint[96] = "";

	if (looked == 1)
		snprintf(where, sizeof(where), "%s", one);
	else
		snprintf(where, sizeof(where), "the %d PATHs", looked);
	if (fs->skipped_dirs == 1)
		snprintf(hint, sizeof(hint), "; -R descends into the directory below");
	else if (fs->skipped_dirs)
		snprintf(hint, sizeof(hint), "; -R descends into the %zu directories below",
			 fs->skipped_dirs);
	if (!fs->checked)
		info_msg("no regular file to check in %s%s", where, hint);
	else if (looked == 1 && !is_dir)
		info_msg("%s has no file capabilities (security.capability); --all lists it", where);
	else if (fs->checked == 1)
		info_msg("the one file checked in %s has no file capabilities "
			 "(security.capability); --all lists it%s", where, hint);
	else
		info_msg("none of the %zu files checked in %s has file capabilities "
			 "(security.capability); --all lists them all%s", fs->checked, where, hint);
}

int capdump_files(struct capdump_ctx *ctx)
{
	struct capdump_opts *o = ctx->opt;
	struct file_scan fs = { .ctx = ctx };
	char err[PARSE_ERR_MAX];
	const char *one = NULL;
	bool one_is_dir = false;
	int ret, looked = 0, status = EXIT_PASSED;

	/*
	 * An empty PATH is a malformed argument, as a PID that is not a number
	 * is: refused before anything is read. (stat("") would fail with ENOENT,
	 * and ": No such file or directory" names nothing.)
	 */
	for (int i = 0; i < o->nargs; i++) {
		if (!o->args[i][0]) {
			err_msg("empty path: ''");
			return EXIT_ERROR;
		}
	}
	ret = out_table_new(&fs.t, "files", capdump_file_cols, capdump_file_ncols,
			    o->names ? names_cols : default_cols, &o->out, err);
	if (ret) {
		if (*err)	/* else the --json-file, reported */
			err_msg("-o: %s", err);
		return EXIT_ERROR;
	}
	/* the walk is in the table's order (sorted, depth first): no row is held long */
	out_table_stream(fs.t);
	if (!sysroot_is_live())
		fs.root_len = strlen(sysroot_dir());
	for (int i = 0; i < o->nargs; i++) {
		char host[PATH_MAX];
		const char *arg = sysroot_path(o->args[i], host, sizeof(host));
		struct stat sb;
		size_t len;

		if (stat(arg, &sb)) {
			err_msg("%s: %s", o->args[i], strerror(errno));
			status = EXIT_ERROR;
			continue;
		}
		looked++;
		one = o->args[i];
		one_is_dir = S_ISDIR(sb.st_mode);
		if (!S_ISDIR(sb.st_mode)) {
			check_file(&fs, arg, true);
			continue;
		}
		len = strlen(arg);
		if (len >= sizeof(fs.path)) {
			err_msg("%s: %s", o->args[i], strerror(ENAMETOOLONG));
			status = EXIT_ERROR;
			continue;
		}
		memcpy(fs.path, arg, len + 1);
		while (len > 1 && fs.path[len - 1] == '/')
			fs.path[--len] = '\0';
		walk(&fs, len, sb.st_dev);
	}
	if (!fs.rows && looked)
		explain_empty(&fs, looked, one, one_is_dir);
	ret = out_table_print(fs.t);
	if (ret)
		status = EXIT_ERROR;	/* the --json-file, reported */
	out_table_free(fs.t);
	return status;
}

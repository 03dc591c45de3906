// SPDX-License-Identifier: GPL-2.0-only
/*
 * show - the kdamonds as an indented tree of text, or as JSON.
 *
 * Both come from the generic tree, so a file a newer kernel adds is shown
 * (as "name value") without a change here; the known parts get a compact
 * line each, and a filter is printed in the words `filter add` takes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damos/damos.h"
#include "damos/filter.h"
#include "json.h"
#include "msg.h"
#include "sysroot.h"

/* ---- text ---- */

static void indent(int level)
{
	printf("%*s", level * 2, "");
}

/* A value on one line: a list the kernel prints one per line gets commas. */
static void put_value(const struct dnode *f)
{
	if (f->unreadable) {
		fputs("?", stdout);
		return;
	}
	if (!*f->value) {
		fputs("''", stdout);
		return;
	}
	for (const char *p = f->value; *p; p++)
		putchar(*p == '\n' ? ',' : *p);
}

/* "name value, name value" of DIR's plain files (not its nr_* counts); false if none */
static bool put_files(const struct dnode *dir, const char *const *skip)
{
	bool any = false;

	for (size_t i = 0; i < dir->nkids; i++) {
		const struct dnode *f = dir->kids[i];
		bool skipped = f->dir || dnode_is_count(f);

		for (const char *const *s = skip; s && *s && !skipped; s++)
			skipped = !strcmp(*s, f->name);
		if (skipped)
			continue;
		printf("%s%s ", any ? ", " : "", f->name);
		put_value(f);
		any = true;
	}
	return any;
}

static void show_generic(const struct dnode *dir, int level);

/* a directory of numbered entries (it has their count, nr_*) */
static bool is_list(const struct dnode *dir)
{
	for (size_t i = 0; i < dir->nkids; i++)
		if (dnode_is_count(dir->kids[i]))
			return true;
	return dnode_count(dir) > 0;
}

/* A directory of numbered entries: "NAME: none", or a line per entry. */
static void show_list(const struct dnode *dir, int level, const char *label,
		      void (*entry)(const struct dnode *, int))
{
	size_t n = dnode_count(dir);

	indent(level);
	printf("%s:", label ? label : dir->name);
	if (!n) {
		puts(" none");
		return;
	}
	putchar('\n');
	for (size_t i = 0; i < n; i++)
		entry(dnode_index(dir, i), level + 1);
}

static void generic_entry(const struct dnode *d, int level)
{
	indent(level);
	printf("%s: ", d->name);
	put_files(d, NULL);
	putchar('\n');
	for (size_t i = 0; i < d->nkids; i++)
		if (d->kids[i]->dir)
			show_generic(d->kids[i], level + 1);
}

/* Anything this file has no special line for: files on one line, dirs below. */
static void show_generic(const struct dnode *dir, int level)
{
	if (is_list(dir)) {
		show_list(dir, level, NULL, generic_entry);
		return;
	}
	indent(level);
	printf("%s: ", dir->name);
	if (!put_files(dir, NULL))
		fputs("-", stdout);
	putchar('\n');
	for (size_t i = 0; i < dir->nkids; i++)
		if (dir->kids[i]->dir)
			show_generic(dir->kids[i], level + 1);
}

static void filter_entry(const struct dnode *f, int level)
{
	char spec[FILTER_SPEC_MAX];

	indent(level);
	printf("%s/%s: %s\n", f->parent->name, f->name, filter_spec_of(f, spec, sizeof(spec)));
}

/* "ops_filters/0: reject anon" per filter, or "core_filters: none" */
static void show_filters(const struct dnode *dir, int level)
{
	size_t n = dnode_count(dir);

	if (!n) {
		indent(level);
		printf("%s: none\n", dir->name);
	}
	for (size_t i = 0; i < n; i++)
		filter_entry(dnode_index(dir, i), level);
}

/* "target 0: ..." per entry, or "targets: none" */
static void show_entries(const struct dnode *dir, int level, void (*entry)(const struct dnode *, int))
{
	size_t n = dnode_count(dir);

	if (!n) {
		indent(level);
		printf("%s: none\n", dir->name);
	}
	for (size_t i = 0; i < n; i++)
		entry(dnode_index(dir, i), level);
}

/* access_pattern/{sz,nr_accesses,age}/{min,max} as "sz MIN-MAX, ..." */
static void show_pattern(const struct dnode *ap, int level)
{
	bool any = false;

	indent(level);
	fputs("access_pattern: ", stdout);
	for (size_t i = 0; i < ap->nkids; i++) {
		const struct dnode *d = ap->kids[i];
		const char *min = dtree_val(d, "min"), *max = dtree_val(d, "max");

		if (!d->dir)
			continue;
		printf("%s%s %s-%s", any ? ", " : "", d->name, min ? min : "?", max ? max : "?");
		any = true;
	}
	putchar('\n');
}

static void show_scheme_part(const struct dnode *d, int level)
{
	if (!strcmp(d->name, "access_pattern")) {
		show_pattern(d, level);
	} else if (filter_dir_name(d->name)) {
		show_filters(d, level);
	} else if (!strcmp(d->name, "tried_regions")) {
		indent(level);
		printf("tried_regions: total_bytes %s, %zu region%s\n",
		       dtree_val(d, "total_bytes") ? dtree_val(d, "total_bytes") : "?",
		       dnode_count(d), dnode_count(d) == 1 ? "" : "s");
	} else if (!strcmp(d->name, "quotas")) {
		indent(level);
		fputs("quotas: ", stdout);
		put_files(d, NULL);
		putchar('\n');
		for (size_t i = 0; i < d->nkids; i++)
			if (d->kids[i]->dir)
				show_generic(d->kids[i], level + 1);
	} else {
		show_generic(d, level);
	}
}

static void scheme_entry(const struct dnode *s, int level)
{
	static const char *const skip[] = { "action", NULL };
	const char *action = dtree_val(s, "action");

	indent(level);
	printf("scheme %s: %s", s->name, action ? action : "?");
	fputs(", ", stdout);
	put_files(s, skip);
	putchar('\n');
	for (size_t i = 0; i < s->nkids; i++)
		if (s->kids[i]->dir)
			show_scheme_part(s->kids[i], level + 1);
}

static void target_entry(const struct dnode *t, int level)
{
	const struct dnode *regions = dtree_get(t, "regions");
	size_t n = dnode_count(regions);

	indent(level);
	printf("target %s: ", t->name);
	put_files(t, NULL);
	printf(", %zu region%s", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		const struct dnode *r = dnode_index(regions, i);
		const char *start = dtree_val(r, "start"), *end = dtree_val(r, "end");

		printf("%s%s-%s", i ? ", " : ": ", start ? start : "?", end ? end : "?");
	}
	putchar('\n');
}

static void show_monitoring(const struct dnode *m, int level)
{
	for (size_t i = 0; i < m->nkids; i++)
		if (m->kids[i]->dir)
			show_generic(m->kids[i], level);
}

static void context_entry(const struct dnode *c, int level)
{
	static const char *const skip[] = { "operations", "avail_operations", NULL };
	const char *ops = dtree_val(c, "operations");
	const struct dnode *avail = dtree_get(c, "avail_operations");

	indent(level);
	printf("context %s: %s", c->name, ops ? ops : "?");
	if (avail) {
		fputs(" (offers ", stdout);
		put_value(avail);
		putchar(')');
	}
	for (size_t i = 0; i < c->nkids; i++) {
		const struct dnode *f = c->kids[i];
		bool skipped = f->dir;

		for (const char *const *sk = skip; *sk && !skipped; sk++)
			skipped = !strcmp(*sk, f->name);
		if (skipped)
			continue;
		printf(", %s ", f->name);
		put_value(f);
	}
	putchar('\n');
	for (size_t i = 0; i < c->nkids; i++) {
		const struct dnode *d = c->kids[i];

		if (!d->dir)
			continue;
		if (!strcmp(d->name, "monitoring_attrs"))
			show_monitoring(d, level + 1);
		else if (!strcmp(d->name, "targets"))
			show_entries(d, level + 1, target_entry);
		else if (!strcmp(d->name, "schemes"))
			show_entries(d, level + 1, scheme_entry);
		else
			show_generic(d, level + 1);
	}
}

static void show_kdamond_text(const struct dnode *k, enum damos_owner owner, bool live)
{
	const char *state = dtree_val(k, "state"), *pid = dtree_val(k, "pid");
	const struct dnode *contexts = dtree_get(k, "contexts");

	static const char *const owners[] = {
		[DAMOS_OURS] = "rtla's",
		[DAMOS_FOREIGN] = "not rtla's",
		[DAMOS_MACHINE] = "the machine's (started at boot)",
	};

	printf("kdamond %s: %s, pid %s", k->name, state ? state : "?", pid ? pid : "?");
	if (live)
		printf(", %s", owners[owner]);
	for (size_t i = 0; i < k->nkids; i++) {
		const struct dnode *f = k->kids[i];

		if (f->dir || !strcmp(f->name, "state") || !strcmp(f->name, "pid"))
			continue;
		printf(", %s ", f->name);
		put_value(f);
	}
	putchar('\n');
	if (contexts)
		show_entries(contexts, 1, context_entry);
}

/* ---- JSON ---- */

static bool is_number(const char *v)
{
	const char *p = v + (*v == '-');

	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return !(p - v > 1 && v[*v == '-'] == '0');	/* "007" stays a string */
}

static void json_value(struct json *j, const char *key, const struct dnode *f)
{
	if (f->unreadable) {
		json_null(j, key);
	} else if (is_number(f->value)) {
		json_raw(j, key, f->value);
	} else if (!strcmp(f->value, "Y") || !strcmp(f->value, "N")) {
		json_bool(j, key, f->value[0] == 'Y');
	} else if (strchr(f->value, '\n')) {
		char *copy = strdup(f->value), *save = NULL;

		json_array_begin(j, key);
		for (char *w = copy ? strtok_r(copy, "\n", &save) : NULL; w; w = strtok_r(NULL, "\n", &save))
			json_str(j, NULL, w);
		json_array_end(j);
		free(copy);
	} else {
		json_str(j, key, f->value);
	}
}

/* only nr_* files besides the numbered entries: the dir is just a list */
static bool pure_list(const struct dnode *d)
{
	for (size_t i = dnode_count(d); i < d->nkids; i++)
		if (!dnode_is_count(d->kids[i]))
			return false;
	return true;
}

static void json_dir(struct json *j, const char *key, const struct dnode *d);

static void json_entries(struct json *j, const char *key, const struct dnode *d)
{
	json_array_begin(j, key);
	for (size_t i = 0; i < dnode_count(d); i++)
		json_dir(j, NULL, dnode_index(d, i));
	json_array_end(j);
}

static void json_members(struct json *j, const struct dnode *d)
{
	size_t n = dnode_count(d);

	for (size_t i = n; i < d->nkids; i++) {
		const struct dnode *k = d->kids[i];

		if (dnode_is_count(k))
			continue;
		if (!k->dir)
			json_value(j, k->name, k);
		else
			json_dir(j, k->name, k);
	}
	if (n)
		json_entries(j, !strcmp(d->name, "tried_regions") ? "regions" : "entries", d);
}

static void json_dir(struct json *j, const char *key, const struct dnode *d)
{
	if (d->nkids && pure_list(d)) {
		json_entries(j, key, d);
		return;
	}
	json_object_begin(j, key);
	json_members(j, d);
	json_object_end(j);
}

static const char *layout_name(const struct dnode *kdamonds)
{
	for (size_t k = 0; k < dnode_count(kdamonds); k++) {
		const struct dnode *contexts = dtree_get(dnode_index(kdamonds, k), "contexts");

		for (size_t c = 0; c < dnode_count(contexts); c++) {
			const struct dnode *s = dnode_index(dtree_get(dnode_index(contexts, c), "schemes"), 0);

			if (s && dtree_get(s, "ops_filters"))
				return "core_filters+ops_filters";
			if (s && dtree_get(s, "filters"))
				return "filters";
			if (s)
				return "none";
		}
	}
	return NULL;
}

struct show_record {
	const struct damos_show *o;
	const struct dnode *kdamonds;
};

/* The record's body, after the envelope (output.h). */
static int print_json(struct json *j, const void *arg)
{
	const struct show_record *rec = arg;
	const struct damos_show *o = rec->o;
	const struct dnode *kdamonds = rec->kdamonds;
	char release[128] = "";

	json_bool(j, "live", sysroot_is_live());
	if (sysroot_read("/proc/sys/kernel/osrelease", release, sizeof(release)) > 0)
		json_str(j, "damon_kernel", release);
	else
		json_null(j, "damon_kernel");
	if (layout_name(kdamonds))
		json_str(j, "filter_layout", layout_name(kdamonds));
	else
		json_null(j, "filter_layout");
	json_array_begin(j, "kdamonds");
	for (size_t i = 0; i < dnode_count(kdamonds); i++) {
		const struct dnode *k = dnode_index(kdamonds, i);

		if (o->kdamond >= 0 && (size_t)o->kdamond != i)
			continue;
		json_object_begin(j, NULL);
		json_raw(j, "index", k->name);
		if (sysroot_is_live())
			json_str(j, "owner", damos_owner_name(damos_owner(k, i, NULL)));
		else
			json_null(j, "owner");
		json_members(j, k);
		json_object_end(j);
	}
	json_array_end(j);
	return 0;
}

int damos_show(const struct damos_show *o, const struct dnode *kdamonds)
{
	struct show_record body = { o, kdamonds };
	size_t n = dnode_count(kdamonds);
	struct out_record rec;
	int ret;

	ret = out_record_open(&rec, o->out.json, o->out.json_file);
	if (ret)
		return ret;
	if (!o->out.json) {
		if (!n)
			puts("no kdamonds (nr_kdamonds 0)");
		for (size_t i = 0; i < n; i++) {
			if (o->kdamond >= 0 && (size_t)o->kdamond != i)
				continue;
			show_kdamond_text(dnode_index(kdamonds, i),
					  sysroot_is_live() ? damos_owner(dnode_index(kdamonds, i), i, NULL)
							    : DAMOS_FOREIGN,
					  sysroot_is_live());
		}
	}
	return out_record_write(&rec, 1, print_json, &body);
}

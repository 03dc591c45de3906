// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rtla damos's pure parts: the words of a filter, the generic
 * tree (order, counts, minimal writes into a scratch directory), and the
 * validation that stands between a user and the 6.12 commit trap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "damos/apply.h"
#include "damos/damos.h"
#include "damos/filter.h"
#include "parse.h"
#include "tap.h"

static int parse(const char *words, struct filter_spec *s, char *err)
{
	return filter_spec_parse_str(words, s, err);
}

static void test_spec_valid(void)
{
	struct filter_spec s;
	char err[PARSE_ERR_MAX] = "";

	ok(!parse("anon", &s, err) && !s.allow && !s.allow_given && s.matching &&
	   !strcmp(s.type->name, "anon"), "spec: a bare type rejects what matches");
	ok(!parse("allow none young", &s, err) && s.allow && s.allow_given && !s.matching,
	   "spec: allow, none");
	ok(!parse("reject memcg /system.slice/a.service", &s, err) &&
	   !strcmp(s.memcg_path, "/system.slice/a.service"), "spec: memcg path");
	ok(!parse("addr 0x1000-0x2000", &s, err) && s.start == 0x1000 && s.end == 0x2000,
	   "spec: addr as one word, hexadecimal");
	ok(!parse("addr 4096 8192", &s, err) && s.start == 4096 && s.end == 8192,
	   "spec: addr as two words, decimal");
	ok(!parse("addr 0-1", &s, err) && s.start == 0 && s.end == 1, "spec: the smallest range");
	ok(!parse("addr 0-0xffffffffffffffff", &s, err) && s.end == UINT64_MAX,
	   "spec: the largest end");
	ok(!parse("target 3", &s, err) && s.index == 3, "spec: target index");
	ok(!parse("hugepage_size 2M-2M", &s, err) && s.start == 2 << 20 && s.end == 2 << 20,
	   "spec: hugepage_size with suffixes, min equal to max");
	ok(!parse("hugepage_size 4K-1G", &s, err) && s.start == 4096 && s.end == 1 << 30,
	   "spec: K and G");
	ok(!parse("  unmapped  ", &s, err), "spec: spaces around the words");
}

static void test_spec_invalid(void)
{
	static const struct { const char *words, *msg; } bad[] = {
		{ "", "no filter type" },
		{ "allow", "no filter type" },
		{ "none", "no filter type" },
		{ "bogus", "unknown filter type: bogus" },
		{ "Anon", "unknown filter type: Anon" },
		{ "none allow anon", "unknown filter type: allow" },
		{ "anon extra", "unexpected word after the filter: extra" },
		{ "memcg", "memcg needs a cgroup path" },
		{ "memcg system.slice", "memcg needs a cgroup path" },
		{ "addr", "addr needs START-END" },
		{ "addr 12", "addr needs START-END" },
		{ "addr 0x2000-0x1000", "addr range is empty or reversed" },
		{ "addr 0x1000-0x1000", "addr range is empty or reversed" },
		{ "addr -1-2", "addr needs START-END" },
		{ "addr 1-2x", "addr needs START-END" },
		{ "addr 1M-2M", "addr needs START-END" },
		{ "addr 0-0x10000000000000000", "addr needs START-END" },
		{ "target", "target needs a target index" },
		{ "target -1", "target needs a target index" },
		{ "target 1x", "target needs a target index" },
		{ "target 4294967296", "target needs a target index" },
		{ "hugepage_size 4M-2M", "hugepage_size MIN is above MAX" },
		{ "hugepage_size 2X-4M", "hugepage_size needs MIN-MAX" },
		{ "hugepage_size 99999999999G-1", "hugepage_size needs MIN-MAX" },
	};
	struct filter_spec s;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[PARSE_ERR_MAX] = "";
		int ret = parse(bad[i].words, &s, err);

		ok(ret == -EINVAL && strstr(err, bad[i].msg), "spec refused: '%s' (%s)", bad[i].words,
		   err);
	}
}

static struct dnode *new_root(const char *name)
{
	struct dnode holder = { .dir = true }, *n = dnode_add_dir(&holder, name);

	free(holder.kids);
	n->parent = NULL;
	return n;
}

/* the words come back from the files a spec is stored in */
static void test_spec_round_trip(void)
{
	static const char *const words[] = {
		"reject anon", "allow none young", "reject memcg /a/b", "reject none addr 0x1000-0x2000",
		"allow target 2", "reject hugepage_size 2097152-4194304", "allow none unmapped",
	};
	char err[PARSE_ERR_MAX], back[FILTER_SPEC_MAX];

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		struct dnode *f = new_root("0");
		struct filter_spec s;

		ok(!parse(words[i], &s, err) && !filter_spec_store(&s, f, NULL, 6018, err) &&
		   !strcmp(filter_spec_of(f, back, sizeof(back)), words[i]),
		   "round trip: '%s' -> '%s'", words[i], back);
		dtree_free(f);
	}
	{
		struct dnode *f = new_root("0");
		struct filter_spec s;

		parse("allow anon", &s, err);
		ok(filter_spec_store(&s, f, NULL, 6012, err) == -EOPNOTSUPP &&
		   strstr(err, "no allow filters"), "store: allow refused before 6.14");
		parse("anon", &s, err);
		ok(!filter_spec_store(&s, f, NULL, 6012, err) && !dtree_get(f, "allow") &&
		   !dtree_get(f, "min"), "store: 6.12 filters have no allow, min, max");
		dtree_free(f);
	}
}

static void test_types(void)
{
	ok(damos_type_known("anon", 6003) && !damos_type_known("addr", 6003), "types: 6.3");
	ok(damos_type_known("young", 6012) && !damos_type_known("unmapped", 6012), "types: 6.12");
	ok(damos_type_known("active", 6018) && !damos_type_known("bogus", 6018), "types: 6.18");
	ok(damos_type_allowed_in("addr", "core_filters") && !damos_type_allowed_in("addr", "ops_filters"),
	   "types: addr is core-layer");
	ok(damos_type_allowed_in("anon", "ops_filters") && !damos_type_allowed_in("anon", "core_filters"),
	   "types: anon is ops-layer");
	ok(damos_type_allowed_in("anon", "filters") && damos_type_allowed_in("target", "filters"),
	   "types: legacy filters/ takes both");
}

/* ---- the tree, on a scratch directory ---- */

static char scratch[64];

static void put(const char *rel, const char *value)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	f = fopen(path, "w");
	fputs(value, f);
	fputc('\n', f);
	fclose(f);
}

static const char *get(const char *rel)
{
	static char buf[256];
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	f = fopen(path, "r");
	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void mkd(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	mkdir(path, 0700);
}

static void test_tree(void)
{
	struct dnode *t = NULL, *want;
	const char *gotv = NULL;
	char failed[512] = "", path[128];

	strcpy(scratch, "/tmp/rtla-damos-unit.XXXXXX");
	if (!mkdtemp(scratch)) {
		ok(false, "tree: mkdtemp");
		return;
	}
	mkd("filters");
	for (int i = 0; i < 11; i++) {
		snprintf(path, sizeof(path), "filters/%d", i);
		mkd(path);
		snprintf(path, sizeof(path), "filters/%d/type", i);
		put(path, "anon");
	}
	put("filters/nr_filters", "11");
	mkd("weights");
	put("weights/nr_accesses_permil", "0");
	put("weights/age_permil", "0");
	put("action", "stat");
	put("pid", "1");
	chmod(strcat(strcpy(path, scratch), "/pid"), 0400);

	ok(!dtree_read(scratch, &t), "tree: read a scratch directory");
	ok(!strcmp(dnode_index(dtree_get(t, "filters"), 10)->name, "10") &&
	   dnode_count(dtree_get(t, "filters")) == 11, "tree: numbered entries in numeric order");
	ok(dnode_is_count(dtree_get(t, "filters/nr_filters")) &&
	   !dnode_is_count(dtree_get(t, "weights/nr_accesses_permil")),
	   "tree: nr_filters counts filters/, nr_accesses_permil counts nothing");
	ok(dtree_get(t, "action")->writable && !dtree_get(t, "pid")->writable,
	   "tree: writable from the file mode");

	/* an unchanged directory: only the file that differs is written */
	want = dtree_clone(t);
	dnode_set(dtree_get(want, "weights"), "age_permil", "1000", true);
	put("filters/3/type", "young");		/* differs on disk, not in the trees */
	ok(!dtree_write_changes(want, t, scratch, failed, sizeof(failed)), "tree: write changes");
	is_str(get("weights/age_permil"), "1000", "tree: the changed file is written");
	is_str(get("filters/3/type"), "young", "tree: an unchanged file is not");

	/* a resized directory is written whole: the kernel reset its entries */
	dnode_remove(dtree_get(want, "filters"), "10");
	dnode_set(dtree_get(want, "filters"), "nr_filters", "10", true);
	ok(!dtree_write_changes(want, t, scratch, failed, sizeof(failed)), "tree: write a resize");
	is_str(get("filters/nr_filters"), "10", "tree: the count is written");
	is_str(get("filters/3/type"), "anon", "tree: every entry of a resized dir is written");
	dtree_free(t);
	ok(!dtree_read(scratch, &t), "tree: read back");
	ok(!dtree_first_diff(want, t, &gotv), "tree: it holds what was wanted");
	dnode_set(dtree_get(want, "filters/2"), "type", "addr", true);
	ok(dtree_first_diff(want, t, &gotv) == dtree_get(want, "filters/2/type") &&
	   !strcmp(gotv, "anon"), "tree: the first difference is found");
	dtree_free(want);
	dtree_free(t);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", scratch);
		if (system(cmd))
			ok(false, "tree: clean up %s", scratch);
	}
}

/* ---- validation ---- */

static void set(struct dnode *top, const char *path, const char *value)
{
	char copy[256], *p = copy, *slash;
	struct dnode *dir = top;

	snprintf(copy, sizeof(copy), "%s", path);
	while ((slash = strchr(p, '/'))) {
		*slash = '\0';
		dir = dnode_add_dir(dir, p);
		p = slash + 1;
	}
	dnode_set(dir, p, value, true);
}

/* a vaddr kdamond on PID with one scheme and the filter FILTER in DIR/0 */
static struct dnode *config(long pid, const char *dir, const char *filter)
{
	struct dnode *k = new_root("0");
	char err[PARSE_ERR_MAX], path[128], num[32];
	struct filter_spec s;

	set(k, "contexts/nr_contexts", "1");
	set(k, "contexts/0/operations", "vaddr");
	set(k, "contexts/0/avail_operations", "vaddr\nfvaddr\npaddr");
	set(k, "contexts/0/targets/nr_targets", "1");
	snprintf(num, sizeof(num), "%ld", pid);
	set(k, "contexts/0/targets/0/pid_target", num);
	set(k, "contexts/0/schemes/nr_schemes", "1");
	set(k, "contexts/0/schemes/0/action", "stat");
	if (filter) {
		snprintf(path, sizeof(path), "contexts/0/schemes/0/%s/nr_filters", dir);
		set(k, path, "1");
		snprintf(path, sizeof(path), "contexts/0/schemes/0/%s", dir);
		parse(filter, &s, err);
		filter_spec_store(&s, dnode_add_dir(dtree_get(k, path), "0"), NULL, 6018, err);
	}
	return k;
}

static void check(long pid, const char *dir, const char *filter, int version, const char *msg)
{
	struct dnode *k = config(pid, dir, filter);
	char err[DAMOS_ERR_MAX] = "";
	int ret = damos_validate(k, version, err, sizeof(err));

	if (msg)
		ok(ret == -EINVAL && strstr(err, msg), "validate refuses %s %s: %s", dir, filter, err);
	else
		ok(!ret, "validate takes %s %s (%s)", dir, filter ? filter : "(none)", err);
	dtree_free(k);
}

static void test_validate(void)
{
	long self = getpid(), dead;
	struct dnode *k;
	char err[DAMOS_ERR_MAX];
	pid_t child = fork();

	if (!child)
		_exit(0);
	waitpid(child, NULL, 0);
	dead = child;

	check(self, "filters", NULL, 6012, NULL);
	check(self, "filters", "anon", 6012, NULL);
	check(self, "filters", "addr 0x1000-0x2000", 6012, NULL);
	check(self, "filters", "target 0", 6012, NULL);
	check(self, "filters", "target 1", 6012, "target index 1 is out of range (1 target)");
	check(self, "filters", "unmapped", 6012, "filter type 'unmapped' is not offered");
	check(self, "core_filters", "addr 1-2", 6018, NULL);
	check(self, "core_filters", "anon", 6018, "a anon filter cannot go in core_filters");
	check(self, "ops_filters", "target 0", 6018, "a target filter cannot go in ops_filters");
	check(self, "filters", "memcg /no-such-cgroup-here", 6012, "memcg /no-such-cgroup-here");
	check(dead, "filters", NULL, 6012, "is not a running process");

	/* what only a hand edit makes: a reversed range, two contexts, no target */
	k = config(self, "filters", "addr 1-2");
	set(k, "contexts/0/schemes/0/filters/0/addr_start", "4096");
	ok(damos_validate(k, 6012, err, sizeof(err)) == -EINVAL && strstr(err, "empty or reversed"),
	   "validate refuses a reversed addr range: %s", err);
	set(k, "contexts/0/schemes/0/filters/0/addr_start", "1");
	set(k, "contexts/0/targets/nr_targets", "0");
	dnode_remove(dtree_get(k, "contexts/0/targets"), "0");
	ok(damos_validate(k, 6012, err, sizeof(err)) == -EINVAL && strstr(err, "nr_targets is 0"),
	   "validate refuses vaddr without a target: %s", err);
	set(k, "contexts/0/operations", "paddr");
	ok(!damos_validate(k, 6012, err, sizeof(err)), "validate takes paddr without a target");
	set(k, "contexts/0/avail_operations", "fvaddr\npaddr");
	set(k, "contexts/0/operations", "vaddr");
	ok(damos_validate(k, 6012, err, sizeof(err)) == -EINVAL && strstr(err, "(fvaddr,paddr)"),
	   "validate refuses operations the kernel does not offer: %s", err);
	set(k, "contexts/nr_contexts", "2");
	dnode_add_dir(dtree_get(k, "contexts"), "1");
	ok(damos_validate(k, 6012, err, sizeof(err)) == -EINVAL && strstr(err, "nr_contexts is 2"),
	   "validate refuses two contexts: %s", err);
	dtree_free(k);
}

int main(void)
{
	test_spec_valid();
	test_spec_invalid();
	test_spec_round_trip();
	test_types();
	test_tree();
	test_validate();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * caps - the parts of capdump that only look at bytes: /proc/PID/status
 * lines, security.capability values, names, and the default filter.
 *
 * Since Linux 6.3 (f122a08b197d) the kernel keeps each set as one u64; /proc
 * prints it as 16 hex digits (as it did before, from two u32 words), so the
 * value is parsed whole here and never split.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/capability.h>

#include "capdump/capdump.h"
#include "parse.h"
#include "util.h"

static const char *const set_keys[CAPDUMP_NR_SETS] = {
	[CAPDUMP_INH] = "CapInh",
	[CAPDUMP_PRM] = "CapPrm",
	[CAPDUMP_EFF] = "CapEff",
	[CAPDUMP_BND] = "CapBnd",
	[CAPDUMP_AMB] = "CapAmb",
};

/* 1 to 16 hex digits and nothing else: a u64 exactly as /proc prints one. */
static int parse_hex64(const char *s, const char *end, uint64_t *val)
{
	uint64_t v = 0;
	int n = 0;

	for (; s < end && isxdigit((unsigned char)*s); s++, n++) {
		int c = tolower((unsigned char)*s);

		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	if (n == 0 || n > 16 || s != end)
		return -EINVAL;
	*val = v;
	return 0;
}

/* A non-negative decimal at s, stopping at a blank or end; -1 when absent or bad. */
static long long parse_dec(const char **sp, const char *end)
{
	const char *s = *sp;
	long long v = 0;

	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end || !isdigit((unsigned char)*s))
		return -1;
	for (; s < end && isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > 0xffffffffLL)
			return -1;
	}
	*sp = s;
	return v;
}

static int parse_flag(const char *val, const char *end, int max)
{
	long long v = parse_dec(&val, end);

	return v >= 0 && v <= max && val == end ? v : -1;
}

/* One bit per line capdump reads; the scan stops once it has seen them all. */
enum {
	SEEN_NAME = 1 << 0, SEEN_STATE = 1 << 1, SEEN_PPID = 1 << 2, SEEN_UID = 1 << 3,
	SEEN_KTHREAD = 1 << 4, SEEN_NNP = 1 << 5, SEEN_SECCOMP = 1 << 6,
	SEEN_CAP0 = 1 << 7,	/* and the four bits above it: CapInh..CapAmb */
	SEEN_ALL = (1 << (7 + CAPDUMP_NR_SETS)) - 1,
};

static unsigned parse_line(const char *key, size_t klen, const char *val, const char *end,
			   struct capdump_status *st)
{
	long long v;

#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(key, k, klen))
	if (KEY("Name")) {
		size_t n = end - val;

		if (n >= sizeof(st->name))
			n = sizeof(st->name) - 1;
		memcpy(st->name, val, n);
		st->name[n] = '\0';
		return SEEN_NAME;
	}
	if (KEY("State")) {
		st->state = val < end ? *val : 0;
		return SEEN_STATE;
	}
	if (KEY("PPid")) {
		v = parse_dec(&val, end);
		st->has_ppid = v >= 0;
		st->ppid = v;
		return SEEN_PPID;
	}
	if (KEY("Uid")) {
		/* real, effective, saved, filesystem: the effective one decides */
		v = parse_dec(&val, end);
		if (v >= 0)
			v = parse_dec(&val, end);
		st->has_uid = v >= 0;
		st->uid = v;
		return SEEN_UID;
	}
	if (KEY("Kthread")) {
		st->kthread = parse_flag(val, end, 1);
		return SEEN_KTHREAD;
	}
	if (KEY("NoNewPrivs")) {
		st->nnp = parse_flag(val, end, 1);
		return SEEN_NNP;
	}
	if (KEY("Seccomp")) {
		st->seccomp = parse_flag(val, end, 2);
		return SEEN_SECCOMP;
	}
	if (klen != 6 || memcmp(key, "Cap", 3))
		return 0;
	for (int i = 0; i < CAPDUMP_NR_SETS; i++) {
		if (memcmp(key, set_keys[i], 6))
			continue;
		if (parse_hex64(val, end, &st->set[i])) {
			st->bad_set |= 1u << i;
			st->set[i] = 0;
		} else {
			st->has_set |= 1u << i;
		}
		return SEEN_CAP0 << i;
	}
	return 0;
#undef KEY
}

void capdump_status_parse(const char *text, struct capdump_status *st)
{
	const char *line = text;
	unsigned seen = 0;

	memset(st, 0, sizeof(*st));
	st->kthread = st->nnp = st->seccomp = -1;
	while (*line && seen != SEEN_ALL) {
		const char *eol = strchrnul(line, '\n');
		const char *colon;

		/* every line capdump reads starts with one of these */
		if (strchr("CKNPSU", *line) && (colon = memchr(line, ':', eol - line))) {
			const char *val = colon + 1, *end = eol;

			while (val < end && (*val == '\t' || *val == ' '))
				val++;
			while (end > val && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
				end--;
			seen |= parse_line(line, colon - line, val, end, st);
		}
		line = *eol ? eol + 1 : eol;
	}
}

uint64_t capdump_known_mask(int last_cap)
{
	if (last_cap < 0)
		return 0;
	if (last_cap >= 63)
		return ~0ULL;
	return (1ULL << (last_cap + 1)) - 1;
}

int capdump_names_init(struct capdump_names *nm, int last_cap)
{
	memset(nm, 0, sizeof(*nm));
	nm->last_cap = last_cap;
	for (int i = 0; i < 64; i++) {
		/* libcap itself answers "41" for a bit it has no name for */
		char *lib = i <= last_cap ? cap_to_name(i) : NULL;

		if (lib)
			nm->name[i] = strdup(lib);
		else if (asprintf(&nm->name[i], "%d", i) < 0)
			nm->name[i] = NULL;
		if (lib)
			cap_free(lib);
		if (!nm->name[i]) {
			capdump_names_free(nm);
			return -ENOMEM;
		}
	}
	return 0;
}

void capdump_names_free(struct capdump_names *nm)
{
	for (int i = 0; i < 64; i++) {
		free(nm->name[i]);
		nm->name[i] = NULL;
	}
}

/* Add SIGN NAME to the comma list at *off; false when it does not fit in len. */
static bool append(char *buf, size_t len, size_t *off, const char *sign, const char *name)
{
	int n = snprintf(buf + *off, len - *off, "%s%s%s", *off ? "," : "", sign, name);

	if (n < 0 || (size_t)n >= len - *off)
		return false;
	*off += n;
	return true;
}

/*
 * Two exact texts are possible for the known bits: the names held, or "all"
 * and the names lacked. Their lengths are counted first so that only the
 * shorter is written; a tie goes to the plain list, which needs no reading
 * of signs.
 */
char *capdump_set_names(const struct capdump_names *nm, uint64_t set, char *buf, size_t len)
{
	uint64_t known = capdump_known_mask(nm->last_cap);
	size_t held_len = 0, all_len = strlen("all"), off = 0;
	bool ok = true, use_all;

	if (!len) {
		errno = ERANGE;
		return NULL;
	}
	buf[0] = '\0';
	for (int i = 0; i < 64; i++) {
		uint64_t bit = 1ULL << i;

		if (!(known & bit))
			continue;
		if (set & bit)
			held_len += (held_len ? 1 : 0) + strlen(nm->name[i]);
		else
			all_len += strlen(",-") + strlen(nm->name[i]);
	}
	use_all = known && all_len < held_len;
	if (use_all)
		ok = append(buf, len, &off, "", "all");
	for (int i = 0; i < 64 && ok; i++) {
		uint64_t bit = 1ULL << i;

		/* a bit above cap_last_cap is never part of "all": always by number */
		if (!(known & bit))
			ok = !(set & bit) || append(buf, len, &off, "", nm->name[i]);
		else if (use_all)
			ok = (set & bit) || append(buf, len, &off, "-", nm->name[i]);
		else
			ok = !(set & bit) || append(buf, len, &off, "", nm->name[i]);
	}
	if (!ok) {
		/* a partial list would read as a smaller set: write nothing */
		buf[0] = '\0';
		errno = ERANGE;
		return NULL;
	}
	return buf;
}

const char *capdump_interesting(const struct capdump_status *st, uint64_t known)
{
	const unsigned need = (1u << CAPDUMP_INH) | (1u << CAPDUMP_PRM) |
			      (1u << CAPDUMP_EFF) | (1u << CAPDUMP_BND);
	const uint64_t *s = st->set;
	uint64_t amb;

	if ((st->has_set & need) != need || st->bad_set)
		return "sets incomplete";
	for (int i = 0; i < CAPDUMP_NR_SETS; i++)
		if (s[i] & ~known)
			return "bits above cap_last_cap";
	if (!st->has_uid)
		return "UID unknown";
	/* kernels before 4.3 have no ambient set: nothing can be in it */
	amb = st->has_set & (1u << CAPDUMP_AMB) ? s[CAPDUMP_AMB] : 0;
	if (st->uid != 0)
		return s[CAPDUMP_INH] | s[CAPDUMP_PRM] | s[CAPDUMP_EFF] | amb ?
			"non-root with capabilities" : NULL;
	if (amb)
		return "root with an ambient set";
	if (s[CAPDUMP_INH])
		return "root with an inheritable set";
	if (!s[CAPDUMP_PRM] && s[CAPDUMP_BND])
		return "root without capabilities";
	if (s[CAPDUMP_EFF] != s[CAPDUMP_PRM])
		return "effective differs from permitted";
	if ((s[CAPDUMP_PRM] & s[CAPDUMP_BND]) != s[CAPDUMP_BND])
		return "root with part of its bounding set";
	return NULL;
}

char *capdump_fmt_set(uint64_t set, char *buf)
{
	sprintf(buf, "%016llx", (unsigned long long)set);
	return buf;
}

int capdump_crosscheck(const uint64_t *proc, const uint64_t *cg, char *note, size_t len)
{
	static const int sets[] = { CAPDUMP_INH, CAPDUMP_PRM, CAPDUMP_EFF };
	size_t off = 0;
	int diffs = 0;

	note[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sets); i++) {
		int s = sets[i];
		int n;

		if (proc[s] == cg[s])
			continue;
		n = snprintf(note + off, len - off, "%s%s %016llx in /proc, %016llx from capget",
			     diffs ? "; " : "", set_keys[s], (unsigned long long)proc[s],
			     (unsigned long long)cg[s]);
		if (n > 0)
			off = off + n < len ? off + n : len - 1;
		diffs++;
	}
	return diffs;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* include/uapi/linux/capability.h */
#define XATTR_REVISION_MASK	0xff000000u
#define XATTR_REVISION_1	0x01000000u
#define XATTR_REVISION_2	0x02000000u
#define XATTR_REVISION_3	0x03000000u
#define XATTR_FLAG_EFFECTIVE	0x000001u

int capdump_xattr_parse(const void *buf, size_t len, struct capdump_fcaps *fc, char *err)
{
	const unsigned char *p = buf;
	uint32_t magic;
	size_t want;

	memset(fc, 0, sizeof(*fc));
	if (len < 4) {
		snprintf(err, PARSE_ERR_MAX, "%zu bytes, too short for a capability header", len);
		return -EINVAL;
	}
	magic = le32(p);
	switch (magic & XATTR_REVISION_MASK) {
	case XATTR_REVISION_1: fc->version = 1; want = 12; break;
	case XATTR_REVISION_2: fc->version = 2; want = 20; break;
	case XATTR_REVISION_3: fc->version = 3; want = 24; break;
	default:
		snprintf(err, PARSE_ERR_MAX, "unknown revision 0x%08x", magic & XATTR_REVISION_MASK);
		return -EINVAL;
	}
	if (len != want) {
		snprintf(err, PARSE_ERR_MAX, "v%d value of %zu bytes, expected %zu",
			 fc->version, len, want);
		return -EINVAL;
	}
	fc->effective = magic & XATTR_FLAG_EFFECTIVE;
	fc->flags = magic & ~(XATTR_REVISION_MASK | XATTR_FLAG_EFFECTIVE);
	/* {permitted, inheritable} pairs, low word first */
	fc->prm = le32(p + 4);
	fc->inh = le32(p + 8);
	if (fc->version >= 2) {
		fc->prm |= (uint64_t)le32(p + 12) << 32;
		fc->inh |= (uint64_t)le32(p + 16) << 32;
	}
	if (fc->version == 3) {
		fc->has_rootid = true;
		fc->rootid = le32(p + 20);
	}
	return 0;
}

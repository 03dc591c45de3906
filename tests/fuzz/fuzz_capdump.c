// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_capdump - the two parsers of what capdump reads: /proc/PID/status
 * text and security.capability values.
 *
 * Every input is tried as both. A status that parses is then shown the way
 * capdump shows it (set names, the default filter, the capget cross-check),
 * and each set it read must survive capdump_fmt_set() and a second parse.
 * An xattr value is checked against its layout decoded here byte by byte.
 */
#include <errno.h>
#include <stdbool.h>

#include "fuzz.h"
#include "capdump/capdump.h"

static struct capdump_names names;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* 40 is CAP_CHECKPOINT_RESTORE, the last capability of Linux 6.x */
	if (capdump_names_init(&names, 40))
		abort();
	return 0;
}

static void check_names(uint64_t set)
{
	static const size_t lens[] = { 1, 9, 64, CAPDUMP_NAMES_MAX };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *buf = malloc(lens[i]);
		char *ret;

		if (!buf)
			abort();
		errno = 0;
		ret = capdump_set_names(&names, set, buf, lens[i]);
		FUZZ_CHECK(memchr(buf, '\0', lens[i]) != NULL);
		if (ret)
			FUZZ_CHECK(ret == buf);
		else
			FUZZ_CHECK(errno == ERANGE && !buf[0]);
		/* CAPDUMP_NAMES_MAX is promised to hold any set */
		FUZZ_CHECK(ret || lens[i] < CAPDUMP_NAMES_MAX);
		free(buf);
	}
}

static void check_crosscheck(const uint64_t *proc, const uint64_t *cg)
{
	static const size_t lens[] = { 1, 20, CAPDUMP_NOTE_MAX };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		char *note = malloc(lens[i]);
		int diffs = 0;

		if (!note)
			abort();
		for (int s = CAPDUMP_INH; s <= CAPDUMP_EFF; s++)
			diffs += proc[s] != cg[s];
		FUZZ_CHECK(capdump_crosscheck(proc, cg, note, lens[i]) == diffs);
		FUZZ_CHECK(memchr(note, '\0', lens[i]) != NULL);
		FUZZ_CHECK(!diffs == !note[0] || lens[i] == 1);
		free(note);
	}
}

static void check_status(const char *text)
{
	static const char *const keys[CAPDUMP_NR_SETS] = {
		"CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
	};
	struct capdump_status st, again;
	uint64_t shifted[CAPDUMP_NR_SETS];
	const char *why;

	capdump_status_parse(text, &st);
	FUZZ_CHECK(memchr(st.name, '\0', sizeof(st.name)) != NULL);
	FUZZ_CHECK(st.has_set < 1u << CAPDUMP_NR_SETS && st.bad_set < 1u << CAPDUMP_NR_SETS);
	/*
	 * has_set and bad_set may share a bit: when a key comes twice the last
	 * line gives the value and both flags stay. The kernel never repeats a
	 * key, and a set with bad_set is never shown as valid.
	 */
	FUZZ_CHECK(st.kthread >= -1 && st.kthread <= 1);
	FUZZ_CHECK(st.nnp >= -1 && st.nnp <= 1);
	FUZZ_CHECK(st.seccomp >= -1 && st.seccomp <= 2);

	for (int i = 0; i < CAPDUMP_NR_SETS; i++) {
		char hex[17], line[32];

		if (!(st.has_set & 1u << i)) {
			FUZZ_CHECK(st.set[i] == 0);
			continue;
		}
		/* the value as /proc prints it reads back the same */
		snprintf(line, sizeof(line), "%s:\t%s\n", keys[i], capdump_fmt_set(st.set[i], hex));
		FUZZ_CHECK(strlen(hex) == 16);
		capdump_status_parse(line, &again);
		FUZZ_CHECK(again.has_set == 1u << i && again.set[i] == st.set[i]);
		check_names(st.set[i]);
	}

	for (int last = -1; last <= 63; last += 32) {
		why = capdump_interesting(&st, capdump_known_mask(last));
		FUZZ_CHECK(!why || *why);
	}
	for (int i = 0; i < CAPDUMP_NR_SETS; i++)
		shifted[i] = st.set[(i + 1) % CAPDUMP_NR_SETS];
	check_crosscheck(st.set, shifted);
}

static uint32_t le32_at(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_xattr(const uint8_t *data, size_t size)
{
	static const size_t len_of[] = { 0, 12, 20, 24 };
	uint8_t *buf = malloc(size ? size : 1);
	char *err = fuzz_err_new();
	struct capdump_fcaps fc;
	unsigned version = size >= 4 ? data[3] : 0;
	bool ok = version >= 1 && version <= 3 && size == len_of[version];

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (capdump_xattr_parse(buf, size, &fc, err)) {
		FUZZ_CHECK(!ok);
		fuzz_err_check(err);
		goto out;
	}
	FUZZ_CHECK(ok);
	FUZZ_CHECK(fc.version == (int)version);
	FUZZ_CHECK(fc.effective == (le32_at(data) & 1));
	FUZZ_CHECK(fc.flags == (le32_at(data) & 0x00fffffe));
	FUZZ_CHECK((uint32_t)fc.prm == le32_at(data + 4) && (uint32_t)fc.inh == le32_at(data + 8));
	FUZZ_CHECK(fc.prm >> 32 == (version >= 2 ? le32_at(data + 12) : 0));
	FUZZ_CHECK(fc.inh >> 32 == (version >= 2 ? le32_at(data + 16) : 0));
	FUZZ_CHECK(fc.has_rootid == (version == 3));
	FUZZ_CHECK(fc.rootid == (version == 3 ? le32_at(data + 20) : 0));
	check_names(fc.prm);
	check_names(fc.inh);
out:
	free(err);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);

	check_status(text);
	check_xattr(data, size);
	free(text);
	return 0;
}

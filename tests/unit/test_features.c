// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rtla features' and rtla capture's pure parts: the FUSE INIT
 * flag names, word matching in kernel lists, evidence building, directory
 * listings through a sysroot, and the tar sink read back byte by byte
 * (headers, pax records for long names and xattrs, the manifest last).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "capture/capture.h"
#include "features/features.h"
#include "sysroot.h"
#include "tap.h"

static void test_flag_names(void)
{
	char buf[1024];

	fuse_flag_names(0, buf, sizeof(buf));
	is_str(buf, "", "no flag: empty");
	fuse_flag_names(1ULL << 30, buf, sizeof(buf));
	is_str(buf, "INIT_EXT", "bit 30 is FUSE_INIT_EXT");
	fuse_flag_names(1ULL << 34, buf, sizeof(buf));
	is_str(buf, "CREATE_SUPP_GROUP", "bit 34 (flags2 bit 2) is FUSE_CREATE_SUPP_GROUP");
	fuse_flag_names(1 | 1ULL << 32 | 1ULL << 63, buf, sizeof(buf));
	is_str(buf, "ASYNC_READ SECURITY_CTX bit63", "low, flags2 and an unknown bit");
	/* what this machine's 6.18 kernel offers, as libfuse also reads it */
	fuse_flag_names(0x000005fd73fffffbULL, buf, sizeof(buf));
	ok(strstr(buf, "INIT_EXT SECURITY_CTX CREATE_SUPP_GROUP") && !strstr(buf, "FILE_OPS") &&
	   !strstr(buf, "HAS_INODE_DAX"), "6.18's flags: %s", buf);
	fuse_flag_names(~0ULL, buf, 16);
	ok(strlen(buf) < 16, "a short buffer is not overrun");
}

static void test_has_word(void)
{
	ok(feat_has_word("timerlat osnoise hwlat nop", "osnoise"), "a word in the middle");
	ok(feat_has_word("osnoise", "osnoise"), "the only word");
	ok(!feat_has_word("osnoise_x nop", "osnoise"), "not a prefix of a word");
	ok(!feat_has_word("NO_OSNOISE_IRQ_DISABLE", "OSNOISE_IRQ_DISABLE"),
	   "NO_X is not X (osnoise/options)");
	ok(feat_has_word("[nop] osnoise", "nop"), "current_tracer's brackets");
	ok(!feat_has_word("", "nop"), "an empty list");
}

static void test_evidence(void)
{
	struct feat_result r = { 0 };

	feat_set(&r, FEAT_YES, "a: %d", 1);
	feat_add(&r, "b: %s", "two");
	is_str(r.evidence, "a: 1; b: two", "feat_add joins with '; '");
	is_int(r.state, FEAT_YES, "the state stays");
	memset(&r, 0, sizeof(r));
	feat_add(&r, "first");
	is_str(r.evidence, "first", "feat_add to nothing adds no separator");
	for (int i = 0; i < 100; i++)
		feat_add(&r, "0123456789");
	is_int(strlen(r.evidence), FEAT_EVIDENCE_MAX - 1, "evidence is cut at its size");
}

static void test_list_dir(const char *tmp)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), "%s/sys/bus/pata_parport/drivers", tmp);
	for (const char *const *n = (const char *const[]){ "k971", "epat", "bpck6", "k951",
							     ".hidden", NULL }; *n; n++) {
		char d[320];

		snprintf(d, sizeof(d), "mkdir -p %s/%s", path, *n);
		ok(!system(d), "%s", d);
	}
	ok(!sysroot_set(tmp), "sysroot %s", tmp);
	is_int(feat_list_dir("/sys/bus/pata_parport/drivers", "", ",", buf, sizeof(buf)), 4,
	       "four protocols, no dot entries");
	is_str(buf, "bpck6,epat,k951,k971", "sorted");
	is_int(feat_list_dir("/sys/bus/pata_parport/drivers", "k", " ", buf, sizeof(buf)), 2,
	       "by prefix");
	is_str(buf, "k951 k971", "with the separator");
	is_int(feat_list_dir("/sys/bus/parport/devices", "", ",", buf, sizeof(buf)), -ENOENT,
	       "a missing directory: -ENOENT");
	sysroot_set("/");
}

/* The tar: read the gzip stream back and walk its 512-byte blocks. */
static void test_tar_sink(const char *tmp)
{
	char dest[300], longname[200], block[512], data[4096];
	struct capture_xattr x = { .name = "security.capability", .len = 3, .val = { 1, 0, 2 } };
	const char *what;
	struct capture_sink *s;
	gzFile gz;
	int zeros = 0, pax = 0, files = 0, links = 0;
	bool long_ok = false, xattr_ok = false, manifest_last = false;

	snprintf(dest, sizeof(dest), "%s/c.tar.gz", tmp);
	snprintf(longname, sizeof(longname), "/sys/kernel/mm/damon/%0120d/x", 0);
	ok(!capture_sink_tar_new(&s, dest, &what), "a tar sink");
	ok(access(dest, F_OK), "DEST does not exist while the capture is written");
	ok(!capture_sink_file(s, "/proc/1/status", "Name:\tinit\n", 11, 0644, NULL, 0), "a file");
	ok(!capture_sink_file(s, longname, "1\n", 2, 0600, NULL, 0), "a name over 100 bytes");
	ok(!capture_sink_file(s, "/usr/bin/ping", "", 0, 0644, &x, 1), "a file with an xattr");
	ok(!capture_sink_link(s, "/sys/block/sda", "../devices/x/sda"), "a link");
	ok(!capture_sink_finish(s, "{}\n", 3), "finished");
	ok(!access(dest, F_OK), "DEST exists once finished");
	gz = gzopen(dest, "rb");
	ok(gz != NULL, "gzip opens");
	while (gz && gzread(gz, block, 512) == 512) {
		unsigned long size = strtoul(block + 124, NULL, 8);
		unsigned sum = 0, want = strtoul(block + 148, NULL, 8);

		if (!block[0]) {
			zeros++;	/* the end-of-archive blocks */
			continue;
		}
		memset(block + 148, ' ', 8);
		for (int i = 0; i < 512; i++)
			sum += (unsigned char)block[i];
		if (sum != want || memcmp(block + 257, "ustar", 6))
			break;
		if (size > sizeof(data) || (size && gzread(gz, data, (size + 511) & ~511u) <= 0))
			break;
		manifest_last = !strcmp(block, CAPTURE_MANIFEST);
		if (block[156] == 'x') {
			pax++;
			if (strstr(data, "path=sys/kernel/mm/damon/0000") &&
			    atoi(data) == (int)strcspn(data, "\n") + 1)
				long_ok = true;
			if (!memcmp(data, "40 SCHILY.xattr.security.capability=\1\0\2\n", 40))
				xattr_ok = true;
		} else if (block[156] == '2') {
			links++;
			is_str(block + 157, "../devices/x/sda", "the link's target");
		} else {
			files++;
		}
	}
	if (gz)
		gzclose(gz);
	is_int(files, 4, "three files and the manifest");
	is_int(links, 1, "one link");
	is_int(pax, 2, "pax records for the long name and the xattr");
	ok(long_ok, "the long name's record has its own length right");
	ok(xattr_ok, "the xattr's record carries its binary value");
	ok(manifest_last, "the manifest is the last member");
	is_int(zeros, 2, "two zero blocks end the archive");
}

static void test_dir_sink(const char *tmp)
{
	char dest[300], path[400];
	const char *what;
	struct capture_sink *s;
	struct stat st;

	snprintf(dest, sizeof(dest), "%s/tree", tmp);
	ok(!capture_sink_dir_new(&s, dest, &what), "a directory sink");
	ok(!capture_sink_file(s, "/proc/sys/kernel/cap_last_cap", "40\n", 3, 0644, NULL, 0),
	   "a file");
	capture_sink_abort(s);
	ok(access(dest, F_OK), "an aborted capture leaves no DEST");
	snprintf(path, sizeof(path), "ls -A %s | grep -q partial", tmp);
	ok(system(path) != 0, "and no partial tree");
	ok(!capture_sink_dir_new(&s, dest, &what), "again");
	ok(!capture_sink_file(s, "/proc/sys/kernel/cap_last_cap", "40\n", 3, 0644, NULL, 0),
	   "a file");
	ok(!capture_sink_finish(s, "{}\n", 3), "finished");
	snprintf(path, sizeof(path), "%s/proc/sys/kernel/cap_last_cap", dest);
	ok(!stat(path, &st) && st.st_size == 3, "the file is in DEST");
	snprintf(path, sizeof(path), "%s/" CAPTURE_MANIFEST, dest);
	ok(!stat(path, &st) && st.st_size == 3, "and the manifest");
	ok(capture_sink_dir_new(&s, "/nonexistent/dir/tree", &what) == -ENOENT,
	   "no place to write: -ENOENT, and %s", what);
}

int main(void)
{
	char tmp[] = "/tmp/rtla-test-features.XXXXXX", cmd[64];

	if (!mkdtemp(tmp))
		return 1;
	test_flag_names();
	test_has_word();
	test_evidence();
	test_list_dir(tmp);
	test_tar_sink(tmp);
	test_dir_sink(tmp);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	if (system(cmd))
		return 1;
	return tap_done();
}

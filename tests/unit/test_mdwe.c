// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of rtla mdwe's pure parts: W+X mappings in maps text, the
 * status lines the audit shows, and the names of the flags.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mdwe_check/mdwe.h"
#include "tap.h"

static int scan(const char *text, struct mdwe_wx *wx)
{
	return mdwe_maps_scan(text, strlen(text), wx);
}

static void test_maps(void)
{
	struct mdwe_wx wx;
	char *big, *p;

	is_int(scan("", &wx), 0, "empty maps (a zombie, a kernel thread)");
	is_int(wx.count, 0, "no W+X in an empty file");

	is_int(scan("55d0c2a00000-55d0c2a01000 r--p 00000000 fe:00 11 /usr/bin/x\n"
		    "55d0c2a01000-55d0c2a02000 r-xp 00001000 fe:00 11 /usr/bin/x\n"
		    "7ffd1a3f4000-7ffd1a3f6000 r-xp 00000000 00:00 0                  [vdso]\n"
		    "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0          [vsyscall]\n",
		    &wx), 0, "an ordinary process");
	is_int(wx.count, 0, "R-X, --X and [vdso] are not W+X");
	is_int(wx.lines, 4, "every line counted");

	is_int(scan("7f19fc0f8000-7f19fc0fb000 rwxp 00000000 00:00 0 \n", &wx), 0,
	       "anonymous W+X, the kernel's trailing blank");
	is_int(wx.count, 1, "one W+X mapping");
	is_int(wx.bytes, 3 * 4096, "its size");
	is_str(wx.first, "[anon]", "an unnamed mapping is [anon]");

	is_int(scan("7f0000000000-7f0000001000 -wxp 00000000 00:00 0\n"
		    "7f0000001000-7f0000003000 rwxs 00000000 00:01 4242   /memfd:jit (deleted)\n"
		    "7f0000003000-7f0000004000 rw-p 00000000 00:00 0\n"
		    "7f0000004000-7f0000005000 rwxp 00000000 fe:00 7   /tmp/a b  c (deleted)\n",
		    &wx), 0, "W+X without R, shared, deleted, blanks in a name");
	is_int(wx.count, 3, "-wx, rwxs and rwxp count, rw- does not");
	is_int(wx.bytes, 4 * 4096, "their sizes summed");
	is_str(wx.first, "[anon]", "the first one's name");

	is_int(scan("7f0000004000-7f0000005000 rwxp 00000000 fe:00 7   /tmp/a b  c (deleted)", &wx),
	       0, "no newline at the end");
	is_str(wx.first, "/tmp/a b  c (deleted)", "a name with blanks and (deleted), whole");

	is_int(scan("7f0000600000-7f0000601000 rwxp 00000000 00:00 0    [anon:v8 code space]\n",
		    &wx), 0, "a named anonymous mapping");
	is_str(wx.first, "[anon:v8 code space]", "its name as maps shows it");

	/* a name longer than PATH_MAX is cut, never overflows */
	big = malloc(3 * PATH_MAX);
	p = big + sprintf(big, "7f0000004000-7f0000005000 rwxp 00000000 fe:00 7   /");
	memset(p, 'a', 2 * PATH_MAX);
	strcpy(p + 2 * PATH_MAX, "\n");
	is_int(scan(big, &wx), 0, "a name of 8192 bytes");
	is_int(strlen(wx.first), MDWE_WX_PATH_MAX - 1, "cut to the buffer");
	free(big);

	is_int(scan("7f0000000000-7f0000001000 rwxp 00000000 00:00 0\n7f00000\n", &wx), -EINVAL,
	       "a line cut short");
	is_int(wx.lines, 1, "the bad line is the second");
	is_int(scan("7f0000001000-7f0000000000 rwxp 00000000 00:00 0\n", &wx), -EINVAL,
	       "end before start");
	is_int(scan("7f0000000000-7f0000001000 rwzp 00000000 00:00 0\n", &wx), -EINVAL,
	       "an unknown permission letter");
	is_int(scan("garbage\n", &wx), -EINVAL, "not a maps line");
	is_int(mdwe_maps_scan("7f0000000000-7f0000001000 rwxp 00000000 00:00 0   \0x\n", 52, &wx),
	       0, "a NUL where the name starts (found by fuzz_mdwe)");
	is_str(wx.first, "[anon]", "no empty name: [anon]");
}

static void test_status(void)
{
	struct mdwe_status st;

	mdwe_status_parse("Name:\tsleep\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\n"
			  "PPid:\t7\nUid:\t1000\t65534\t65534\t65534\nKthread:\t0\n"
			  "NoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n", &st);
	is_str(st.name, "sleep", "Name");
	is_int(st.state, 'S', "State");
	is_int(st.ppid, 7, "PPid");
	is_int(st.uid, 65534, "the effective UID, the second of four");
	is_int(st.kthread, 0, "Kthread");
	is_int(st.nnp, 1, "NoNewPrivs");
	is_int(st.seccomp, 2, "Seccomp, not Seccomp_filters");
	is_str(mdwe_seccomp_name(st.seccomp), "filter", "seccomp mode 2 is filter");

	mdwe_status_parse("Name:\tkworker/0:1\nState:\tI (idle)\nPPid:\t2\n", &st);
	is_int(st.kthread, -1, "no Kthread line (before 6.1)");
	is_int(st.nnp, -1, "no NoNewPrivs line");
	is_int(st.uid, -1, "no Uid line");
	ok(mdwe_seccomp_name(st.seccomp) == NULL, "no seccomp mode without its line");

	/* found by fuzz_mdwe: a Uid line cut after one field, at the very end */
	mdwe_status_parse("Uid:\t1000", &st);
	is_int(st.uid, -1, "a Uid line with one field: no effective UID, no read past the end");
	mdwe_status_parse("PPid:\t99999999999\nSeccomp:\t77777777777\n", &st);
	is_int(st.ppid, -1, "a PPid beyond a pid_t is no PPid");
	is_int(st.seccomp, -1, "a Seccomp beyond any mode is none");

	mdwe_status_parse("", &st);
	is_int(st.ppid, -1, "an empty status: nothing known");
	is_int(st.state, 0, "no State");
}

static void test_names(void)
{
	is_str(mdwe_flags_name(0), "-", "no flags");
	is_str(mdwe_flags_name(PR_MDWE_REFUSE_EXEC_GAIN), "refuse-exec-gain", "REFUSE");
	is_str(mdwe_flags_name(PR_MDWE_REFUSE_EXEC_GAIN | PR_MDWE_NO_INHERIT),
	       "refuse-exec-gain+no-inherit", "REFUSE|NO_INHERIT");
}

int main(void)
{
	test_maps();
	test_status();
	test_names();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf - every process's MDWE flags from one pass of a BPF task iterator.
 *
 * The programs (mdwe.bpf.c) are embedded as a libbpf "light" skeleton
 * generated at build time (bpftool gen skeleton -L): raw bpf() calls, no
 * libbpf at run time. A build machine without clang, bpftool or libbpf-dev
 * gets a stub skeleton instead (the Makefile), and this reader then says
 * so. The iterators stop no process and change nothing: they read
 * mm->flags and the VMAs' flags.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_iter.h"
#include "mdwe_check/mdwe.h"
#include "mdwe_check/mdwe_rec.h"
#include "msg.h"
#include "mdwe.skel.h"	/* generated: the real skeleton, or MDWE_NO_BPF */

static int cmp_pid(const void *a, const void *b)
{
	const struct mdwe_task_flags *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

const struct mdwe_task_flags *mdwe_flags_find(const struct mdwe_flags_set *set, pid_t pid)
{
	struct mdwe_task_flags key = { .pid = pid };

	if (!set->nr)
		return NULL;
	return bsearch(&key, set->task, set->nr, sizeof(key), cmp_pid);
}

void mdwe_flags_free(struct mdwe_flags_set *set)
{
	free(set->task);
	memset(set, 0, sizeof(*set));
}

#ifdef MDWE_NO_BPF

bool mdwe_bpf_built(void)
{
	return false;
}

int mdwe_bpf_read(struct mdwe_flags_set *set, char *why, size_t len)
{
	memset(set, 0, sizeof(*set));
	snprintf(why, len, "this rtla was built without the BPF reader (%s)", MDWE_NO_BPF);
	return -EOPNOTSUPP;
}

#else

bool mdwe_bpf_built(void)
{
	return true;
}

/* Append the records in BUF[0..N) to SET; rtla's own tgid, as the pass saw it, in *SELF. */
static int add_records(struct mdwe_flags_set *set, size_t *cap, const char *buf, size_t n,
		       pid_t *self)
{
	for (size_t off = 0; off + sizeof(struct mdwe_rec) <= n; off += sizeof(struct mdwe_rec)) {
		struct mdwe_rec rec;

		memcpy(&rec, buf + off, sizeof(rec));
		if (rec.self)
			*self = rec.tgid;
		if (set->nr == *cap) {
			size_t ncap = *cap ? *cap * 2 : 1024;
			void *p = realloc(set->task, ncap * sizeof(*set->task));

			if (!p)
				return -ENOMEM;
			set->task = p;
			*cap = ncap;
		}
		set->task[set->nr++] = (struct mdwe_task_flags){
			.pid = rec.tgid, .flags = rec.flags, .has_mm = rec.has_mm,
			.kthread = rec.kthread,
		};
	}
	return 0;
}

/* A zombie leader's record has no mm; a thread's may follow with it: keep that. */
static void merge_threads(struct mdwe_flags_set *set)
{
	size_t out = 0;

	qsort(set->task, set->nr, sizeof(*set->task), cmp_pid);
	for (size_t i = 0; i < set->nr; i++) {
		if (out && set->task[out - 1].pid == set->task[i].pid) {
			if (set->task[i].has_mm)
				set->task[out - 1] = set->task[i];
			continue;
		}
		set->task[out++] = set->task[i];
	}
	set->nr = out;
}

/* Count each W+X record against its process. */
static int add_wx(struct mdwe_flags_set *set, const char *buf, size_t n)
{
	if (n % sizeof(struct mdwe_wx_rec))
		return -EINVAL;
	for (size_t off = 0; off < n; off += sizeof(struct mdwe_wx_rec)) {
		struct mdwe_task_flags *tf;
		struct mdwe_wx_rec rec;

		memcpy(&rec, buf + off, sizeof(rec));
		tf = (struct mdwe_task_flags *)mdwe_flags_find(set, rec.tgid);
		/* a thread with files of its own is visited too: its mm is counted once */
		if (tf && (!tf->wx_tid || tf->wx_tid == (pid_t)rec.tid)) {
			tf->wx_tid = rec.tid;
			tf->wx_count++;
			tf->wx_bytes += rec.end - rec.start;
		}
	}
	return 0;
}

BPF_ITER_DEFINE_LOAD(mdwe_bpf)

int mdwe_bpf_read(struct mdwe_flags_set *set, char *why, size_t len)
{
	struct mdwe_bpf *skel;
	double t0 = bpf_iter_now_ms();
	size_t cap = 0, tcap = 0;
	pid_t self = 0;
	char *buf = NULL;
	ssize_t n;
	int err = 0;

	memset(set, 0, sizeof(*set));
	skel = mdwe_bpf_load(&err);
	if (!skel) {
		bpf_iter_load_why(err, why, len);
		return err;
	}
	set->load_ms = bpf_iter_now_ms() - t0;
	t0 = bpf_iter_now_ms();
	n = bpf_iter_read(skel->progs.mdwe_tasks.prog_fd, &buf, &cap, false);
	if (n < 0) {
		err = n;
		snprintf(why, len, "the BPF task iterator failed: %s%s", strerror(-err),
			 err == -EAGAIN ? " (this kernel's mm_struct is unknown to it)" : "");
		goto out;
	}
	err = add_records(set, &tcap, buf, n, &self);
	if (err) {
		snprintf(why, len, "out of memory");
		goto out;
	}
	if (!bpf_iter_pids_are_ours(self, why, len)) {
		err = -EXDEV;
		goto out;
	}
	merge_threads(set);
	set->wx_known = true;
	n = bpf_iter_read(skel->progs.mdwe_wx_vmas.prog_fd, &buf, &cap, true);
	if (n < 0 || add_wx(set, buf, n)) {
		snprintf(set->wx_why, sizeof(set->wx_why), "the VMA iterator failed: %s",
			 strerror(n < 0 ? -n : EINVAL));
		debug_msg("BPF: %s: W+X from /proc", set->wx_why);
		for (size_t i = 0; i < set->nr; i++)
			set->task[i].wx_count = set->task[i].wx_bytes = 0;
		set->wx_known = false;
	}
	set->iter_ms = bpf_iter_now_ms() - t0;
out:
	if (err)
		mdwe_flags_free(set);
	free(buf);
	mdwe_bpf__destroy(skel);
	return err;
}

#endif

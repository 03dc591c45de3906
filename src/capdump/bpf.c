// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf - every process's credentials from one pass of a BPF task iterator.
 *
 * What /proc/PID/status would say of each process (capdump.bpf.c), read
 * as fixed-size records instead of a status file the kernel formats and
 * rtla parses per process: on a host of thousands of processes most of
 * capdump's time. Used for a scan of the live system when it loads (root,
 * a kernel with BTF) and rtla sees the machine's own PIDs and UIDs; else
 * /proc is read, as always on a captured tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_iter.h"
#include "capdump/capdump.h"
#include "capdump/capdump_rec.h"
#include "msg.h"
#include "capdump.skel.h"	/* generated: the real skeleton, or CAPDUMP_NO_BPF */

_Static_assert(sizeof(struct capdump_rec) == 80, "capdump.bpf.c writes 80-byte records");

void capdump_bpf_free(struct capdump_bpf_procs *procs)
{
	free(procs->buf);
	memset(procs, 0, sizeof(*procs));
}

static const struct capdump_rec *rec_at(const struct capdump_bpf_procs *procs, size_t i)
{
	return (const struct capdump_rec *)procs->buf + i;
}

void capdump_escape_name(const char *comm, size_t n, char *name, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && comm[i] && o + 3 < len; i++) {
		if (comm[i] == '\n' || comm[i] == '\\') {
			name[o++] = '\\';
			name[o++] = comm[i] == '\n' ? 'n' : '\\';
		} else {
			name[o++] = comm[i];
		}
	}
	name[o] = '\0';
}

bool capdump_bpf_status(const struct capdump_bpf_procs *procs, size_t i,
			struct capdump_status *st)
{
	const struct capdump_rec *r = rec_at(procs, i);

	memset(st, 0, sizeof(*st));
	capdump_escape_name(r->comm, sizeof(r->comm), st->name, sizeof(st->name));
	st->state = r->flags & REC_ZOMBIE ? 'Z' : 0;
	st->ppid = r->ppid;
	st->uid = r->euid;
	st->has_ppid = st->has_uid = true;
	for (int s = 0; s < CAPDUMP_NR_SETS; s++)
		st->set[s] = r->cap[s];
	st->has_set = (1u << CAPDUMP_NR_SETS) - 1;
	st->kthread = !!(r->flags & REC_KTHREAD);
	st->nnp = !!(r->flags & REC_NNP);
	st->seccomp = r->flags & REC_SECCOMP ? r->seccomp : -1;
	/* a kernel thread's status Name is longer than its task name (kworker/0:1-events) */
	return st->kthread;
}

static int cmp_tgid(const void *a, const void *b)
{
	const struct capdump_rec *x = a, *y = b;

	return (x->tgid > y->tgid) - (x->tgid < y->tgid);
}

ssize_t capdump_bpf_find(const struct capdump_bpf_procs *procs, pid_t pid)
{
	struct capdump_rec key = { .tgid = pid };
	const struct capdump_rec *r;

	if (!procs->nr)
		return -1;
	r = bsearch(&key, procs->buf, procs->nr, sizeof(key), cmp_tgid);
	return r ? r - rec_at(procs, 0) : -1;
}

#ifdef CAPDUMP_NO_BPF

int capdump_bpf_read(struct capdump_bpf_procs *procs, char *why, size_t len)
{
	memset(procs, 0, sizeof(*procs));
	snprintf(why, len, "this rtla was built without the BPF reader (%s)", CAPDUMP_NO_BPF);
	return -EOPNOTSUPP;
}

#else

/*
 * rtla's own record, by the pass's mark: its index, or -1 with why in WHY
 * when the pass's PIDs or UIDs are not those rtla's /proc shows (a /proc
 * of another PID namespace, a user namespace of rtla's own).
 */
static ssize_t find_self(const struct capdump_bpf_procs *procs, char *why, size_t len)
{
	ssize_t self = -1;

	for (size_t i = 0; i < procs->nr && self < 0; i++)
		if (rec_at(procs, i)->flags & REC_SELF)
			self = i;
	if (!bpf_iter_pids_are_ours(self < 0 ? 0 : (pid_t)rec_at(procs, self)->tgid, why, len))
		return -1;
	if (!bpf_iter_host_users()) {
		snprintf(why, len, "rtla runs in a user namespace: the BPF reader sees the "
			 "host's UIDs");
		return -1;
	}
	return self;
}

/*
 * rtla's own record SELF against capget(2) of itself: the sets where the
 * program read them, in the byte order it read them. Once, not per
 * process: the layout is the kernel's, the same for every process.
 */
static bool sets_agree(const struct capdump_bpf_procs *procs, size_t self, char *why, size_t len)
{
	uint64_t cg[CAPDUMP_NR_SETS];
	char note[CAPDUMP_NOTE_MAX];
	int err = capdump_capget(getpid(), cg);

	if (err) {
		snprintf(why, len, "capget: %s", strerror(-err));
		return false;
	}
	if (!capdump_crosscheck(rec_at(procs, self)->cap, cg, note, sizeof(note)))
		return true;
	snprintf(why, len, "the BPF reader's sets of rtla disagree with capget: %s", note);
	return false;
}

BPF_ITER_DEFINE_LOAD(capdump_bpf)

int capdump_bpf_read(struct capdump_bpf_procs *procs, char *why, size_t len)
{
	struct capdump_bpf *skel;
	double t0 = bpf_iter_now_ms();
	size_t cap = 0;
	ssize_t n, self;
	int err;

	memset(procs, 0, sizeof(*procs));
	skel = capdump_bpf_load(&err);
	if (!skel) {
		bpf_iter_load_why(err, why, len);
		return err;
	}
	procs->load_ms = bpf_iter_now_ms() - t0;
	t0 = bpf_iter_now_ms();
	n = bpf_iter_read(skel->progs.capdump_tasks.prog_fd, &procs->buf, &cap, true);
	procs->iter_ms = bpf_iter_now_ms() - t0;
	if (n < 0) {
		err = n;
		snprintf(why, len, "the BPF task iterator failed: %s", strerror(-err));
		goto out;
	}
	if (n % sizeof(struct capdump_rec)) {
		err = -EINVAL;
		snprintf(why, len, "the BPF pass wrote a part of a record (%zd bytes)", n);
		goto out;
	}
	procs->nr = n / sizeof(struct capdump_rec);
	/* 8 bytes on every kernel so far; wider sets would need this program changed */
	if (procs->nr && rec_at(procs, 0)->cap_size != sizeof(uint64_t)) {
		err = -EINVAL;
		snprintf(why, len, "this kernel's capability sets are %u bytes, not 8",
			 rec_at(procs, 0)->cap_size);
		goto out;
	}
	/* the iterator goes up the PIDs; sorted anyway, for the lookups */
	qsort(procs->buf, procs->nr, sizeof(struct capdump_rec), cmp_tgid);
	self = find_self(procs, why, len);
	if (self < 0)
		err = -EXDEV;
	else if (!sets_agree(procs, self, why, len))
		err = -EIO;
out:
	if (err)
		capdump_bpf_free(procs);
	capdump_bpf__destroy(skel);
	return err;
}

#endif

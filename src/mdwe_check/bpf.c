// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf - every process's MDWE flags from one pass of a BPF task iterator.
 *
 * The program (mdwe.bpf.c) is embedded as a libbpf skeleton generated at
 * build time; a build machine without clang, bpftool or libbpf-dev gets a
 * stub skeleton instead (the Makefile), and this reader then says so. The
 * iterator stops no process and changes nothing: it reads mm->flags.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mdwe_check/mdwe.h"
#include "msg.h"
#include "mdwe.skel.h"	/* generated: the real skeleton, or MDWE_NO_BPF */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

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

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

/* The record mdwe.bpf.c writes per process. */
struct mdwe_rec {
	uint32_t tgid;
	uint32_t flags;
	uint32_t has_mm;
};

bool mdwe_bpf_built(void)
{
	return true;
}

/* libbpf's own messages: kept for -D, the last warning for the reason. */
static char libbpf_last[256];

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;

	if (level == LIBBPF_DEBUG && !msg_debug_enabled())
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	if (level != LIBBPF_DEBUG)
		snprintf(libbpf_last, sizeof(libbpf_last), "%s", line);
	debug_msg("libbpf: %s", line);
	return 0;
}

/* The likely cause of a failed load, in words a user can act on. */
static void explain_load(int err, char *why, size_t len)
{
	char mode[128];

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "the kernel has no BTF (/sys/kernel/btf/vmlinux, "
			 "CONFIG_DEBUG_INFO_BTF): the BPF reader cannot load");
		return;
	}
	if (err == -EPERM || err == -EACCES) {
		FILE *f = fopen("/sys/kernel/security/lockdown", "r");

		if (f && fgets(mode, sizeof(mode), f) && strstr(mode, "[confidentiality]")) {
			fclose(f);
			snprintf(why, len, "kernel lockdown (confidentiality) forbids BPF from "
				 "reading kernel memory");
			return;
		}
		if (f)
			fclose(f);
		snprintf(why, len, "loading BPF needs CAP_BPF and CAP_PERFMON (root): %s",
			 strerror(-err));
		return;
	}
	snprintf(why, len, "the BPF reader failed to load: %s%s%s", strerror(-err),
		 libbpf_last[0] ? ": " : "", libbpf_last);
}

/* Append the records in BUF[0..N) to SET, merging a process's threads. */
static int add_records(struct mdwe_flags_set *set, size_t *cap, const char *buf, size_t n)
{
	for (size_t off = 0; off + sizeof(struct mdwe_rec) <= n; off += sizeof(struct mdwe_rec)) {
		struct mdwe_rec rec;

		memcpy(&rec, buf + off, sizeof(rec));
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

int mdwe_bpf_read(struct mdwe_flags_set *set, char *why, size_t len)
{
	struct mdwe_bpf *skel;
	struct bpf_link *link = NULL;
	char buf[sizeof(struct mdwe_rec) * 256];
	size_t cap = 0, have = 0;
	double t0 = now_ms();
	int iter_fd = -1, err;
	ssize_t n;

	memset(set, 0, sizeof(*set));
	libbpf_set_print(libbpf_print);
	libbpf_last[0] = '\0';
	skel = mdwe_bpf__open_and_load();
	if (!skel) {
		err = -errno;
		explain_load(err, why, len);
		return err;
	}
	link = bpf_program__attach_iter(skel->progs.mdwe_tasks, NULL);
	if (!link) {
		err = -errno;
		snprintf(why, len, "cannot attach the BPF task iterator: %s", strerror(-err));
		goto out_destroy;
	}
	iter_fd = bpf_iter_create(bpf_link__fd(link));
	if (iter_fd < 0) {
		err = -errno;
		snprintf(why, len, "cannot create the BPF task iterator: %s", strerror(-err));
		goto out_link;
	}
	set->load_ms = now_ms() - t0;
	t0 = now_ms();
	/* records never straddle reads of a whole multiple, but keep any remainder */
	for (;;) {
		n = read(iter_fd, buf + have, sizeof(buf) - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			snprintf(why, len, "the BPF task iterator failed: %s%s", strerror(-err),
				 err == -EAGAIN ? " (this kernel's mm_struct is unknown to it)" : "");
			goto out_free;
		}
		if (!n)
			break;
		have += n;
		err = add_records(set, &cap, buf, have - have % sizeof(struct mdwe_rec));
		if (err) {
			snprintf(why, len, "out of memory");
			goto out_free;
		}
		memmove(buf, buf + have - have % sizeof(struct mdwe_rec), have % sizeof(struct mdwe_rec));
		have %= sizeof(struct mdwe_rec);
	}
	merge_threads(set);
	set->iter_ms = now_ms() - t0;
	err = 0;
	goto out_close;
out_free:
	mdwe_flags_free(set);
out_close:
	close(iter_fd);
out_link:
	bpf_link__destroy(link);
out_destroy:
	mdwe_bpf__destroy(skel);
	return err;
}

#endif

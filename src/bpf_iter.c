// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf_iter - run a loaded BPF iterator to its end, and explain failed loads.
 *
 * Raw bpf(2) calls: a link of the program as an iterator, an iterator file
 * from the link, read() until it ends. Each read() runs the program over
 * the next objects (tasks, VMAs) and returns what it wrote.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/capability.h>

#include "bpf_iter.h"
#include "msg.h"

double bpf_iter_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* the PID /proc/self names: that of the PID namespace /proc was mounted for */
static pid_t proc_self(void)
{
	char buf[32];
	ssize_t n = readlink("/proc/self", buf, sizeof(buf) - 1);

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return (pid_t)strtol(buf, NULL, 10);
}

bool bpf_iter_pids_are_ours(pid_t self_tgid, char *why, size_t len)
{
	if (!self_tgid) {
		snprintf(why, len, "the BPF pass did not see rtla itself");
		return false;
	}
	if (self_tgid != getpid()) {
		snprintf(why, len, "the BPF pass numbers processes as another PID namespace does");
		return false;
	}
	if (proc_self() != getpid()) {
		snprintf(why, len, "rtla's /proc is another PID namespace's: the BPF pass's "
			 "PIDs are not those it lists");
		return false;
	}
	return true;
}

bool bpf_iter_host_users(void)
{
	char map[128];
	unsigned long inside, outside, count;
	FILE *f = fopen("/proc/self/uid_map", "r");
	bool identity = f && fgets(map, sizeof(map), f) &&
			sscanf(map, "%lu %lu %lu", &inside, &outside, &count) == 3 &&
			!inside && !outside && count == 4294967295UL && !fgets(map, sizeof(map), f);

	if (f)
		fclose(f);
	return identity;
}

static char verifier_log[1 << 16];

void bpf_iter_log_setup(__u32 *level, __u32 *size, __u64 *buf)
{
	if (!msg_debug_enabled())
		return;
	verifier_log[0] = '\0';
	*level = 1;
	*size = sizeof(verifier_log);
	*buf = (uintptr_t)verifier_log;
}

void bpf_iter_log_show(void)
{
	if (verifier_log[0])
		debug_msg("BPF: verifier log: %s", verifier_log);
}

static int bpf_sys(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

ssize_t bpf_iter_read(int prog_fd, char **buf, size_t *cap, bool again_goes_on)
{
	union bpf_attr attr;
	size_t have = 0;
	ssize_t n, ret;
	int link, fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog_fd;
	attr.link_create.attach_type = BPF_TRACE_ITER;
	link = bpf_sys(BPF_LINK_CREATE, &attr);
	if (link < 0)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.iter_create.link_fd = link;
	fd = bpf_sys(BPF_ITER_CREATE, &attr);
	if (fd < 0) {
		ret = -errno;
		goto out_link;
	}
	for (;;) {
		if (*cap - have < 65536) {
			size_t ncap = *cap ? *cap * 2 : 1 << 20;
			char *p = realloc(*buf, ncap);

			if (!p) {
				ret = -ENOMEM;
				goto out_close;
			}
			*buf = p;
			*cap = ncap;
		}
		n = read(fd, *buf + have, *cap - have);
		if (n < 0 && (errno == EINTR || (errno == EAGAIN && again_goes_on)))
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_close;
		}
		if (!n)
			break;
		have += n;
	}
	ret = have;
out_close:
	close(fd);
out_link:
	close(link);
	return ret;
}

/*
 * Whether rtla holds what loading needs (CAP_BPF and CAP_PERFMON, or
 * CAP_SYS_ADMIN) where bpf(2) checks them, the host's user namespace, and
 * runs under a seccomp filter: some container runtimes' default profiles
 * refuse bpf(2) to a process that has the capabilities.
 */
static bool seccomp_refuses_bpf(void)
{
	unsigned long long eff = 0;
	int mode = 0, found = 0;
	char line[128];
	FILE *f;

	if (!bpf_iter_host_users())
		return false;
	f = fopen("/proc/self/status", "r");
	while (f && found < 2 && fgets(line, sizeof(line), f))
		found += sscanf(line, "CapEff: %llx", &eff) == 1 || sscanf(line, "Seccomp: %d", &mode) == 1;
	if (f)
		fclose(f);
	return mode == 2 && ((eff & 1ull << CAP_PERFMON && eff & 1ull << CAP_BPF) ||
			     eff & 1ull << CAP_SYS_ADMIN);
}

void bpf_iter_load_why(int err, char *why, size_t len)
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
		if (seccomp_refuses_bpf())
			snprintf(why, len, "bpf(2) refused though rtla holds the capabilities it needs: "
				 "a seccomp filter forbids it (a container runtime's default profile may)");
		else
			snprintf(why, len, "loading BPF needs CAP_BPF and CAP_PERFMON (root): %s",
				 strerror(-err));
		return;
	}
	if (err == -ENOMEM) {
		snprintf(why, len, "out of memory");
		return;
	}
	/* the loader is a BPF_PROG_TYPE_SYSCALL program using the kernel's own CO-RE */
	snprintf(why, len, "the BPF reader failed to load: %s (it needs Linux 5.17 or later)",
		 strerror(-err));
}

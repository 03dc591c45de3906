// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpuspec - CPU lists and the words for the machine's own CPU sets.
 */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "cpuspec.h"
#include "parse.h"
#include "sysroot.h"
#include "util.h"

#define CPU_DIR "/sys/devices/system/cpu/"

static const char *const keywords[] = { "online", "isolated", "nohz_full", "housekeeping" };

bool cpuspec_is_keyword(const char *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (!strcmp(s, keywords[i]))
			return true;
	return false;
}

const char *cpuspec_keyword(size_t i)
{
	return i < ARRAY_SIZE(keywords) ? keywords[i] : NULL;
}

/*
 * One of the kernel's CPU list files. An empty file is an empty set, and so
 * is "(null)", which nohz_full shows on kernels booted without it. A file
 * that does not exist is an empty set too for isolated and nohz_full (a
 * kernel without NO_HZ_FULL has no nohz_full file), not for online.
 */
static int read_set(const char *name, cpu_set_t *set, bool required, char *err)
{
	char path[128], buf[4096];
	int ret;

	CPU_ZERO(set);
	snprintf(path, sizeof(path), CPU_DIR "%s", name);
	ret = sysroot_read(path, buf, sizeof(buf));
	if (ret == -ENOENT && !required)
		return 0;
	if (ret < 0) {
		snprintf(err, PARSE_ERR_MAX, "cannot read %s: %s", path, strerror(-ret));
		return ret;
	}
	if (!buf[0] || !strcmp(buf, "(null)"))
		return 0;
	if (parse_cpu_list(buf, CPU_SETSIZE, set, err)) {
		snprintf(err, PARSE_ERR_MAX, "%.60s: unexpected contents %.40s", path, buf);
		return -EINVAL;
	}
	return 0;
}

static int keyword_set(const char *word, cpu_set_t *set, char *err)
{
	cpu_set_t other;
	int ret;

	if (strcmp(word, "housekeeping"))
		return read_set(word, set, !strcmp(word, "online"), err);
	ret = read_set("online", set, true, err);
	if (!ret)
		ret = read_set("isolated", &other, false, err);
	if (ret)
		return ret;
	CPU_XOR(&other, &other, set);		/* online and not isolated... */
	CPU_AND(set, set, &other);
	ret = read_set("nohz_full", &other, false, err);
	if (ret)
		return ret;
	CPU_XOR(&other, &other, set);		/* ...and not nohz_full */
	CPU_AND(set, set, &other);
	return 0;
}

int cpuspec_parse(const char *s, int nr_cpus, cpu_set_t *set, char *err)
{
	int ret;

	if (!cpuspec_is_keyword(s))
		return parse_cpu_list(s, nr_cpus, set, err);
	ret = keyword_set(s, set, err);
	if (ret)
		return ret;
	for (int cpu = nr_cpus; cpu < CPU_SETSIZE; cpu++)
		CPU_CLR(cpu, set);
	if (!CPU_COUNT(set)) {
		snprintf(err, PARSE_ERR_MAX, "'%s': this machine has no %s CPU%s", s,
			 !strcmp(s, "nohz_full") ? "nohz_full" : s,
			 !strcmp(s, "isolated") ? " (boot with isolcpus=)" :
			 !strcmp(s, "nohz_full") ? " (boot with nohz_full=)" : "");
		return -EINVAL;
	}
	return 0;
}

/* The cpuset of this process's cgroup (v2, else v1's cpuset hierarchy): 0, or -errno. */
static int cgroup_cpuset(cpu_set_t *set)
{
	char line[4096], path[PATH_MAX + 64], buf[4096], err[PARSE_ERR_MAX];
	int ret = -ENOENT;
	FILE *f = fopen("/proc/self/cgroup", "re");

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *ctrl = strchr(line, ':'), *cg = ctrl ? strchr(ctrl + 1, ':') : NULL;
		FILE *cf;

		if (!cg)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (!strcmp(ctrl + 1, ""))
			snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cpuset.cpus.effective", cg);
		else if (strstr(ctrl + 1, "cpuset"))
			snprintf(path, sizeof(path), "/sys/fs/cgroup/cpuset%s/cpuset.effective_cpus", cg);
		else
			continue;
		if (!(cf = fopen(path, "re")))
			continue;
		if (fgets(buf, sizeof(buf), cf)) {
			buf[strcspn(buf, "\n")] = '\0';
			CPU_ZERO(set);
			if (buf[0] && !parse_cpu_list(buf, CPU_SETSIZE, set, err))
				ret = 0;
		}
		fclose(cf);
	}
	fclose(f);
	return ret;
}

int cpus_allowed(cpu_set_t *set)
{
	cpu_set_t online, cpuset;

	if (sched_getaffinity(0, sizeof(*set), set))
		return -errno;
	/* the kernel keeps the affinity within the cpuset; where it is wider, the cpuset rules */
	if (!cgroup_cpuset(&cpuset) && CPU_COUNT(&cpuset))
		CPU_AND(set, set, &cpuset);
	if (sysroot_is_live() && sysroot_online_cpus(&online) > 0)
		CPU_AND(set, set, &online);
	return CPU_COUNT(set) ? 0 : -ENOENT;
}

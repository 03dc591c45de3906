// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_cpu - the real-time rows: PREEMPT_RT, nohz_full and isolated CPUs,
 * cpufreq, cpuidle, SMT. All of them are files of /sys.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "features/features.h"
#include "sysroot.h"

#define CPU_DIR "/sys/devices/system/cpu"

static void probe_rt(struct feat_ctx *ctx, struct feat_result *r)
{
	long long v;
	int ret = sysroot_read_ll("/sys/kernel/realtime", &v);

	if (!ret)
		feat_set(r, v == 1 ? FEAT_YES : FEAT_NO, "/sys/kernel/realtime: %lld", v);
	else if (ret == -ENOENT)
		feat_set(r, FEAT_NO, "no /sys/kernel/realtime");
	else
		feat_set(r, FEAT_UNKNOWN, "/sys/kernel/realtime: %s", strerror(-ret));
}

/* A CPU list file: yes with CPUs, partial when the kernel can but none are set. */
static void probe_cpu_list(struct feat_result *r, const char *file, const char *absent)
{
	char path[128], buf[1024];
	int ret;

	snprintf(path, sizeof(path), CPU_DIR "/%s", file);
	ret = sysroot_read(path, buf, sizeof(buf));
	if (ret == -ENOENT)
		feat_set(r, FEAT_NO, "no %s (%s)", path, absent);
	else if (ret < 0)
		feat_set(r, FEAT_UNKNOWN, "%s: %s", path, strerror(-ret));
	else if (!ret || !strcmp(buf, "(null)"))
		feat_set(r, FEAT_PARTIAL, "%s: %s (no CPU set)", path, ret ? buf : "empty");
	else
		feat_set(r, FEAT_YES, "%s: %s", path, buf);
}

static void probe_nohz_full(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_cpu_list(r, "nohz_full", "no nohz_full support");
}

static void probe_isolated(struct feat_ctx *ctx, struct feat_result *r)
{
	probe_cpu_list(r, "isolated", "no list of isolated CPUs");
}

/* Append "cpuA[-B] VALUE" for one run of CPUs to out. */
static size_t put_run(char *out, size_t len, size_t off, int first, int last, const char *val)
{
	if (off >= len)
		return off;
	if (last > first)
		return off + snprintf(out + off, len - off, "%scpu%d-%d %s", off ? ", " : "",
				      first, last, val);
	return off + snprintf(out + off, len - off, "%scpu%d %s", off ? ", " : "", first, val);
}

/*
 * One value of every online CPU's FILE (a path below cpuN/), runs of equal
 * values grouped: "cpu0-3 performance, cpu4-7 powersave". Returns how many
 * CPUs had the file, or -ENOENT when the online CPUs are not known.
 */
static int per_cpu_values(const char *file, char *out, size_t len, int *nr_cpus)
{
	char val[128], run_val[128] = "";
	int first = -1, last = -1, have = 0;
	size_t off = 0;
	cpu_set_t set;

	out[0] = '\0';
	*nr_cpus = sysroot_online_cpus(&set);
	if (*nr_cpus <= 0)
		return -ENOENT;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (sysroot_readf(val, sizeof(val), CPU_DIR "/cpu%d/%s", cpu, file) < 0)
			continue;
		have++;
		if (first >= 0 && last == cpu - 1 && !strcmp(val, run_val)) {
			last = cpu;
			continue;
		}
		if (first >= 0)
			off = put_run(out, len, off, first, last, run_val);
		first = last = cpu;
		snprintf(run_val, sizeof(run_val), "%s", val);
	}
	if (first >= 0)
		put_run(out, len, off, first, last, run_val);
	return have;
}

static void probe_per_cpu_file(struct feat_result *r, const char *file, const char *what)
{
	char buf[FEAT_EVIDENCE_MAX - 64];
	int nr, have = per_cpu_values(file, buf, sizeof(buf), &nr);

	if (have < 0)
		feat_set(r, FEAT_UNKNOWN, "no " CPU_DIR "/online");
	else if (!have)
		feat_set(r, FEAT_NO, "no cpuN/%s on any of the %d online CPUs", file, nr);
	else
		feat_set(r, have == nr ? FEAT_YES : FEAT_PARTIAL, "%s: %s", what, buf);
}

static void probe_cpufreq(struct feat_ctx *ctx, struct feat_result *r)
{
	char gov[FEAT_EVIDENCE_MAX / 2];
	int nr;

	probe_per_cpu_file(r, "cpufreq/scaling_driver", "scaling_driver");
	if (r->state != FEAT_NO && per_cpu_values("cpufreq/scaling_governor", gov,
						  sizeof(gov), &nr) > 0)
		feat_add(r, "scaling_governor: %s", gov);
}

static void probe_cpuidle(struct feat_ctx *ctx, struct feat_result *r)
{
	char drv[64] = "", states[256];
	int n;

	sysroot_read(CPU_DIR "/cpuidle/current_driver", drv, sizeof(drv));
	n = feat_list_dir(CPU_DIR "/cpu0/cpuidle", "state", ",", states, sizeof(states));
	if (n > 0) {
		char names[256] = "", name[32];
		size_t off = 0;

		for (int i = 0; i < n && off < sizeof(names); i++) {
			if (sysroot_readf(name, sizeof(name), CPU_DIR "/cpu0/cpuidle/state%d/name", i) < 0)
				snprintf(name, sizeof(name), "state%d", i);
			off += snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "", name);
		}
		feat_set(r, FEAT_YES, "driver %s; cpu0 states: %s", drv[0] ? drv : "?", names);
	} else if (drv[0]) {
		feat_set(r, FEAT_NO, "cpuidle/current_driver: %s; no cpu0/cpuidle/state*", drv);
	} else {
		feat_set(r, FEAT_NO, "no " CPU_DIR "/cpuidle/current_driver");
	}
}

static void probe_smt(struct feat_ctx *ctx, struct feat_result *r)
{
	char control[32], active[8] = "?", sib[FEAT_EVIDENCE_MAX / 2];
	int nr, have;

	have = per_cpu_values("topology/thread_siblings_list", sib, sizeof(sib), &nr);
	if (sysroot_read(CPU_DIR "/smt/control", control, sizeof(control)) < 0) {
		if (have <= 0) {
			feat_set(r, FEAT_UNKNOWN, "no " CPU_DIR "/smt/control, no thread_siblings_list");
			return;
		}
		snprintf(control, sizeof(control), "(no smt/control)");
	}
	sysroot_read(CPU_DIR "/smt/active", active, sizeof(active));
	feat_set(r, !strcmp(active, "1") ? FEAT_YES : FEAT_NO, "smt/control: %s, smt/active: %s",
		 control, active);
	if (have > 0)
		feat_add(r, "thread siblings: %s", sib);
}

const struct feat_def feat_realtime[] = {
	{ "realtime", "PREEMPT_RT", "6.12", "osnoise,hwnoise", probe_rt,
	  "CONFIG_PREEMPT_RT" },
	{ "realtime", "nohz_full CPUs", "3.10", "osnoise,hwnoise", probe_nohz_full,
	  "CONFIG_NO_HZ_FULL" },
	{ "realtime", "isolated CPUs", "4.2", "osnoise,hwnoise", probe_isolated, NULL },
	{ "realtime", "cpufreq", "2.6.0", "dhry", probe_cpufreq,
	  "CONFIG_CPU_FREQ" },
	{ "realtime", "cpuidle states", "2.6.21", "-", probe_cpuidle,
	  "CONFIG_CPU_IDLE" },
	{ "realtime", "SMT siblings", "4.19", "dhry", probe_smt,
	  "CONFIG_SCHED_SMT" },
	{ 0 },
};
